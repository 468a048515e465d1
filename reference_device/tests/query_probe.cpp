// Prints the device queries that the query faults and REFDEV_REPORT_AS change, one "key: value" line each, so
// that check_query_faults.sh and check_report_as.sh can compare a clean run with a run under each fault or
// report. Exit 2: no platform.
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#ifndef CL_DEVICE_SUB_GROUP_SIZES_INTEL
#define CL_DEVICE_SUB_GROUP_SIZES_INTEL 0x4108
#endif
#ifndef CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL
#define CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL 0x410A
#endif
#define REFDEV_SPIRV_EXTENSIONS_KHR 0x12BA
#define REFDEV_SPIRV_CAPABILITIES_KHR 0x12BB

namespace {

template <typename T>
std::vector<T> queryArray(cl_device_id device, cl_device_info name) {
    size_t bytes = 0;
    if (clGetDeviceInfo(device, name, 0, nullptr, &bytes) != CL_SUCCESS) return {};
    std::vector<T> v(bytes / sizeof(T));
    if (!v.empty()) clGetDeviceInfo(device, name, bytes, v.data(), nullptr);
    return v;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s module.spv (with a kernel \"fixed\" that has SubgroupSize)\n",
                     argv[0]);
        return 1;
    }
    cl_platform_id platform = nullptr;
    cl_uint n = 0;
    if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0) return 2;
    cl_device_id device = nullptr;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) return 2;

    char name[256] = {};
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
    std::printf("device_name: %s\n", name);
    std::vector<char> extensions = queryArray<char>(device, CL_DEVICE_EXTENSIONS);
    extensions.push_back('\0');
    std::printf("extensions: %s\n", extensions.data());
    std::printf("spirv_extensions:");
    for (const char* e : queryArray<const char*>(device, REFDEV_SPIRV_EXTENSIONS_KHR)) std::printf(" %s", e);
    std::printf("\nspirv_capabilities:");
    for (cl_uint c : queryArray<cl_uint>(device, REFDEV_SPIRV_CAPABILITIES_KHR)) std::printf(" %u", c);
    std::printf("\nsub_group_sizes:");
    for (size_t s : queryArray<size_t>(device, CL_DEVICE_SUB_GROUP_SIZES_INTEL)) std::printf(" %zu", s);
    std::printf("\n");
    for (const cl_name_version& e : queryArray<cl_name_version>(device, CL_DEVICE_EXTENSIONS_WITH_VERSION))
        std::printf("extension_version %s: %u.%u.%u\n", e.name, CL_VERSION_MAJOR(e.version),
                    CL_VERSION_MINOR(e.version), CL_VERSION_PATCH(e.version));

    std::ifstream in(argv[1], std::ios::binary);
    std::vector<char> il((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    cl_program program = clCreateProgramWithIL(context, il.data(), il.size(), &err);
    if (clBuildProgram(program, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) return 3;
    cl_kernel kernel = clCreateKernel(program, "fixed", &err);
    size_t compiled = 12345;
    err = clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, nullptr,
                                  sizeof compiled, &compiled, nullptr);
    std::printf("compile_sub_group_size fixed: %zu (err %d)\n", compiled, err);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseContext(context);
    return 0;
}
