#include "reference_device/tests/api_test_util.h"

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace refdev_test {

bool standIn() {
    // The stand-in ICD lives in a directory of its own (see CMakeLists.txt).
    const char* vendors = std::getenv("OCL_ICD_VENDORS");
    return vendors && std::string(vendors).find("icd_standin") != std::string::npos;
}

std::vector<unsigned char> readFixture(const std::string& name) {
    std::ifstream in(std::string(REFDEV_FIXTURE_DIR) + "/" + name, std::ios::binary);
    return std::vector<unsigned char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string deviceString(cl_device_id device, cl_device_info param) {
    size_t size = 0;
    if (clGetDeviceInfo(device, param, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
    std::string s(size, '\0');
    clGetDeviceInfo(device, param, size, s.data(), nullptr);
    s.resize(size - 1);
    return s;
}

namespace {

void CL_CALLBACK collectMessage(const char* message, const void*, size_t, void* user_data) {
    static_cast<std::vector<std::string>*>(user_data)->push_back(message);
}

}  // namespace

void ApiTest::SetUp() {
    cl_uint count = 0;
    ASSERT_EQ(clGetPlatformIDs(0, nullptr, &count), CL_SUCCESS);
    ASSERT_EQ(count, 1u) << "OCL_ICD_VENDORS must select exactly the reference device";
    ASSERT_EQ(clGetPlatformIDs(1, &platform_, nullptr), CL_SUCCESS);
    ASSERT_EQ(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 1, &device_, nullptr), CL_SUCCESS);
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, cl_context_properties(platform_), 0};
    cl_int err = CL_SUCCESS;
    context_ = clCreateContext(props, 1, &device_, collectMessage, &messages_, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_queue_properties qprops[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    queue_ = clCreateCommandQueueWithProperties(context_, device_, qprops, &err);
    ASSERT_EQ(err, CL_SUCCESS);
}

void ApiTest::TearDown() {
    if (queue_) EXPECT_EQ(clReleaseCommandQueue(queue_), CL_SUCCESS);
    if (context_) EXPECT_EQ(clReleaseContext(context_), CL_SUCCESS);
}

cl_program ApiTest::buildFixture(const std::string& fixture) {
    std::vector<unsigned char> il = readFixture(fixture);
    EXPECT_FALSE(il.empty()) << "missing fixture " << fixture;
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithIL(context_, il.data(), il.size(), &err);
    EXPECT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(clBuildProgram(program, 1, &device_, "", nullptr, nullptr), CL_SUCCESS) << buildLog(program);
    return program;
}

std::string ApiTest::buildLog(cl_program program) {
    size_t size = 0;
    clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    if (!log.empty()) log.pop_back();
    return log;
}

bool ApiTest::imageSupport() {
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(device_, CL_DEVICE_IMAGE_SUPPORT, sizeof(images), &images, nullptr);
    return images == CL_TRUE;
}

std::string ApiTest::profileName() {
    std::string v = deviceString(device_, CL_DEVICE_VERSION);  // "OpenCL 3.0 RefDev <profile>"
    return v.substr(v.rfind(' ') + 1);
}

}  // namespace refdev_test
