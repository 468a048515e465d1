// Kernels: argument reflection and validation, work-group and sub-group queries, NDRange launches.
#include "reference_device/tests/api_test_util.h"

#ifndef CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL
#define CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL 0x410A
#endif

namespace refdev_test {
namespace {

class KernelTest : public ApiTest {
protected:
    void SetUp() override {
        ApiTest::SetUp();
        if (HasFatalFailure()) return;
        program_ = buildFixture("api_kernels.spv");
    }
    void TearDown() override {
        for (cl_kernel k : kernels_) EXPECT_EQ(clReleaseKernel(k), CL_SUCCESS);
        for (cl_mem m : mems_) EXPECT_EQ(clReleaseMemObject(m), CL_SUCCESS);
        if (program_) EXPECT_EQ(clReleaseProgram(program_), CL_SUCCESS);
        ApiTest::TearDown();
    }
    cl_kernel kernel(const char* name) {
        cl_int err = CL_SUCCESS;
        cl_kernel k = clCreateKernel(program_, name, &err);
        EXPECT_EQ(err, CL_SUCCESS) << name;
        kernels_.push_back(k);
        return k;
    }
    cl_mem buffer(size_t bytes, const void* init = nullptr) {
        cl_int err = CL_SUCCESS;
        cl_mem m = clCreateBuffer(context_, init ? CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE, bytes,
                                  const_cast<void*>(init), &err);
        EXPECT_EQ(err, CL_SUCCESS);
        mems_.push_back(m);
        return m;
    }
    std::string argString(cl_kernel k, cl_uint i, cl_kernel_arg_info what, cl_int* status = nullptr) {
        char text[128] = {};
        cl_int e = clGetKernelArgInfo(k, i, what, sizeof(text), text, nullptr);
        if (status) *status = e;
        return text;
    }

    cl_program program_ = nullptr;
    std::vector<cl_kernel> kernels_;
    std::vector<cl_mem> mems_;
};

TEST_F(KernelTest, ArgumentInfoComesFromTheModule) {
    cl_kernel copy = kernel("copy");
    cl_uint n = 0;
    ASSERT_EQ(clGetKernelInfo(copy, CL_KERNEL_NUM_ARGS, sizeof(n), &n, nullptr), CL_SUCCESS);
    EXPECT_EQ(n, 3u);
    EXPECT_EQ(argString(copy, 0, CL_KERNEL_ARG_NAME), "dst");
    EXPECT_EQ(argString(copy, 1, CL_KERNEL_ARG_NAME), "src");
    EXPECT_EQ(argString(copy, 2, CL_KERNEL_ARG_NAME), "scale");
    cl_kernel_arg_address_qualifier aq = 0;
    ASSERT_EQ(clGetKernelArgInfo(copy, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(aq), &aq, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(aq, cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_GLOBAL));
    ASSERT_EQ(clGetKernelArgInfo(copy, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(aq), &aq, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(aq, cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_PRIVATE));
    EXPECT_EQ(clGetKernelArgInfo(copy, 3, CL_KERNEL_ARG_NAME, 0, nullptr, nullptr), CL_INVALID_ARG_INDEX);

    cl_kernel fixed = kernel("fixed");
    ASSERT_EQ(clGetKernelArgInfo(fixed, 1, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(aq), &aq, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(aq, cl_kernel_arg_address_qualifier(CL_KERNEL_ARG_ADDRESS_LOCAL));

    cl_kernel images = kernel("images");
    cl_kernel_arg_access_qualifier access = 0;
    ASSERT_EQ(clGetKernelArgInfo(images, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof(access), &access, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(access, cl_kernel_arg_access_qualifier(CL_KERNEL_ARG_ACCESS_READ_ONLY));
    ASSERT_EQ(clGetKernelArgInfo(images, 1, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof(access), &access, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(access, cl_kernel_arg_access_qualifier(CL_KERNEL_ARG_ACCESS_WRITE_ONLY));
    EXPECT_EQ(argString(images, 2, CL_KERNEL_ARG_NAME), "smp");

    cl_int status = CL_SUCCESS;
    argString(kernel("unnamed"), 0, CL_KERNEL_ARG_NAME, &status);
    EXPECT_EQ(status, CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
}

TEST_F(KernelTest, SetKernelArgValidation) {
    cl_kernel copy = kernel("copy");
    cl_mem b = buffer(64);
    cl_uint scale = 3;
    EXPECT_EQ(clSetKernelArg(copy, 0, sizeof(cl_mem), &b), CL_SUCCESS);
    EXPECT_EQ(clSetKernelArg(copy, 0, 4, &b), CL_INVALID_ARG_SIZE);
    EXPECT_EQ(clSetKernelArg(copy, 2, 8, &scale), CL_INVALID_ARG_SIZE);
    EXPECT_EQ(clSetKernelArg(copy, 2, 4, nullptr), CL_INVALID_ARG_VALUE);
    EXPECT_EQ(clSetKernelArg(copy, 3, 4, &scale), CL_INVALID_ARG_INDEX);
    EXPECT_EQ(clSetKernelArg(copy, 1, sizeof(cl_mem), nullptr), CL_SUCCESS);  // a NULL buffer is allowed
    cl_kernel fixed = kernel("fixed");
    EXPECT_EQ(clSetKernelArg(fixed, 1, 64, &b), CL_INVALID_ARG_VALUE);  // local: value must be NULL
    EXPECT_EQ(clSetKernelArg(fixed, 1, 0, nullptr), CL_INVALID_ARG_SIZE);
    EXPECT_EQ(clSetKernelArg(fixed, 1, 64, nullptr), CL_SUCCESS);
    cl_ulong local_bytes = 0;
    ASSERT_EQ(clGetKernelWorkGroupInfo(fixed, device_, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(local_bytes),
                                       &local_bytes, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(local_bytes, 64u);

    if (!imageSupport()) return;  // no image objects to pass (Xe-HPC): the rest is about image arguments
    cl_kernel images = kernel("images");
    cl_int err = CL_SUCCESS;
    cl_image_format fmt{CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc d{};
    d.image_type = CL_MEM_OBJECT_IMAGE2D;
    d.image_width = 4;
    d.image_height = 4;
    cl_mem wo = clCreateImage(context_, CL_MEM_WRITE_ONLY, &fmt, &d, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    mems_.push_back(wo);
    EXPECT_EQ(clSetKernelArg(images, 0, sizeof(cl_mem), &wo), CL_INVALID_ARG_VALUE);  // read_only parameter
    EXPECT_EQ(clSetKernelArg(images, 1, sizeof(cl_mem), &wo), CL_SUCCESS);
    EXPECT_EQ(clSetKernelArg(images, 1, sizeof(cl_mem), &b), CL_INVALID_MEM_OBJECT);  // a buffer is no image
    EXPECT_EQ(clSetKernelArg(copy, 0, sizeof(cl_mem), &wo), CL_INVALID_MEM_OBJECT);   // an image is no buffer
    cl_sampler s = clCreateSampler(context_, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(clSetKernelArg(images, 2, sizeof(cl_sampler), &s), CL_SUCCESS);
    EXPECT_EQ(clSetKernelArg(images, 2, sizeof(cl_sampler), nullptr), CL_INVALID_SAMPLER);
    EXPECT_EQ(clReleaseSampler(s), CL_SUCCESS);
}

TEST_F(KernelTest, EnqueueRejectsUnsetArgumentsAndBadSizes) {
    cl_kernel copy = kernel("copy");
    size_t global = 64, local = 16;
    EXPECT_EQ(clEnqueueNDRangeKernel(queue_, copy, 1, nullptr, &global, &local, 0, nullptr, nullptr),
              CL_INVALID_KERNEL_ARGS);
    cl_mem b = buffer(64 * 4);
    cl_uint scale = 2;
    ASSERT_EQ(clSetKernelArg(copy, 0, sizeof(cl_mem), &b), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(copy, 1, sizeof(cl_mem), &b), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(copy, 2, sizeof(scale), &scale), CL_SUCCESS);
    EXPECT_EQ(clEnqueueNDRangeKernel(queue_, copy, 0, nullptr, &global, &local, 0, nullptr, nullptr),
              CL_INVALID_WORK_DIMENSION);
    EXPECT_EQ(clEnqueueNDRangeKernel(queue_, copy, 4, nullptr, &global, &local, 0, nullptr, nullptr),
              CL_INVALID_WORK_DIMENSION);
    EXPECT_EQ(clEnqueueNDRangeKernel(queue_, copy, 1, nullptr, nullptr, &local, 0, nullptr, nullptr),
              CL_INVALID_GLOBAL_WORK_SIZE);
    // Past the device's limits, whatever the profile's are (1024 on the GPU classes, 8192 on cpu).
    size_t max_wg = 0;
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(max_wg), &max_wg, nullptr),
              CL_SUCCESS);
    size_t huge_local = 2 * max_wg;
    EXPECT_EQ(clEnqueueNDRangeKernel(queue_, copy, 1, nullptr, &global, &huge_local, 0, nullptr, nullptr),
              CL_INVALID_WORK_ITEM_SIZE);
    size_t global2[2] = {max_wg, 2}, local2[2] = {max_wg, 2};  // each size allowed, their product not
    EXPECT_EQ(clEnqueueNDRangeKernel(queue_, copy, 2, nullptr, global2, local2, 0, nullptr, nullptr),
              CL_INVALID_WORK_GROUP_SIZE);
    size_t zero = 0;
    EXPECT_EQ(clEnqueueNDRangeKernel(queue_, copy, 1, nullptr, &global, &zero, 0, nullptr, nullptr),
              CL_INVALID_WORK_GROUP_SIZE);
    cl_kernel fixed = kernel("fixed");  // reqd_work_group_size(32, 1, 1)
    ASSERT_EQ(clSetKernelArg(fixed, 0, sizeof(cl_mem), &b), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(fixed, 1, 64, nullptr), CL_SUCCESS);
    EXPECT_EQ(clEnqueueNDRangeKernel(queue_, fixed, 1, nullptr, &global, &local, 0, nullptr, nullptr),
              CL_INVALID_WORK_GROUP_SIZE);
}

TEST_F(KernelTest, WorkGroupAndSubGroupQueries) {
    cl_kernel fixed = kernel("fixed");
    size_t compile[3] = {};
    ASSERT_EQ(clGetKernelWorkGroupInfo(fixed, device_, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(compile),
                                       compile, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(compile[0], 32u);
    EXPECT_EQ(compile[1], 1u);
    size_t sg = 0;
    ASSERT_EQ(clGetKernelSubGroupInfo(fixed, device_, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, nullptr,
                                      sizeof(sg), &sg, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(sg, 16u);
    size_t local = 32, value = 0;
    ASSERT_EQ(clGetKernelSubGroupInfo(fixed, device_, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(local),
                                      &local, sizeof(value), &value, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(value, 16u);
    ASSERT_EQ(clGetKernelSubGroupInfo(fixed, device_, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(local),
                                      &local, sizeof(value), &value, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(value, 2u);
    size_t count = 3, local_out[2] = {};
    ASSERT_EQ(clGetKernelSubGroupInfo(fixed, device_, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT, sizeof(count),
                                      &count, sizeof(local_out), local_out, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(local_out[0], 48u);
    EXPECT_EQ(local_out[1], 1u);
    EXPECT_EQ(clGetKernelSubGroupInfo(fixed, device_, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 0, nullptr,
                                      sizeof(value), &value, nullptr),
              CL_INVALID_VALUE);
    // A kernel without a required size reports 0 and runs at the profile's default size.
    cl_kernel copy = kernel("copy");
    ASSERT_EQ(clGetKernelSubGroupInfo(copy, device_, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, nullptr,
                                      sizeof(sg), &sg, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(sg, 0u);
    // The cl_khr_subgroups entry point answers the same through the extension address.
    auto khr = reinterpret_cast<clGetKernelSubGroupInfoKHR_fn>(
        clGetExtensionFunctionAddressForPlatform(platform_, "clGetKernelSubGroupInfoKHR"));
    ASSERT_NE(khr, nullptr);
    ASSERT_EQ(khr(fixed, device_, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE_KHR, sizeof(local), &local,
                  sizeof(value), &value, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(value, 16u);
}

TEST_F(KernelTest, KernelUndefinedBehaviourFailsTheEnqueue) {
    cl_kernel ub = kernel("undefined_behavior");
    cl_mem b = buffer(64 * 4);
    ASSERT_EQ(clSetKernelArg(ub, 0, sizeof(cl_mem), &b), CL_SUCCESS);
    size_t global = 16;
    cl_event ev = nullptr;
    EXPECT_EQ(clEnqueueNDRangeKernel(queue_, ub, 1, nullptr, &global, nullptr, 0, nullptr, &ev),
              CL_OUT_OF_RESOURCES);
    ASSERT_NE(ev, nullptr);
    cl_int status = 0;
    ASSERT_EQ(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr),
              CL_SUCCESS);
    EXPECT_LT(status, 0);
    EXPECT_EQ(clReleaseEvent(ev), CL_SUCCESS);
    ASSERT_EQ(messages_.size(), 1u);
    EXPECT_NE(messages_[0].find("undefined_behavior"), std::string::npos) << messages_[0];
    EXPECT_NE(messages_[0].find("work-item"), std::string::npos) << messages_[0];
}

TEST_F(KernelTest, NDRangeRunsAndProfiles) {
    cl_kernel copy = kernel("copy");
    std::vector<uint32_t> src(100);
    for (size_t i = 0; i < src.size(); ++i) src[i] = uint32_t(i * 7 + 1);
    cl_mem in = buffer(src.size() * 4, src.data());
    cl_mem out = buffer(src.size() * 4);
    cl_uint scale = 3;
    ASSERT_EQ(clSetKernelArg(copy, 0, sizeof(cl_mem), &out), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(copy, 1, sizeof(cl_mem), &in), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(copy, 2, sizeof(scale), &scale), CL_SUCCESS);
    // 100 work-items in groups of 32: the last group is partial (non-uniform work-groups).
    size_t global = 100, local = 32;
    cl_event ev = nullptr;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue_, copy, 1, nullptr, &global, &local, 0, nullptr, &ev), CL_SUCCESS);
    cl_int status = 1;
    ASSERT_EQ(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(status, CL_COMPLETE);
    cl_ulong start = 0, end = 0;
    ASSERT_EQ(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(start), &start, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(end), &end, nullptr), CL_SUCCESS);
    EXPECT_LE(start, end);
    EXPECT_EQ(clReleaseEvent(ev), CL_SUCCESS);
    EXPECT_TRUE(messages_.empty());
    if (standIn()) GTEST_SKIP() << "the stand-in interpreter does not execute kernels";
    std::vector<uint32_t> result(100, 0);
    ASSERT_EQ(
        clEnqueueReadBuffer(queue_, out, CL_TRUE, 0, result.size() * 4, result.data(), 0, nullptr, nullptr),
        CL_SUCCESS);
    for (size_t i = 0; i < result.size(); ++i) ASSERT_EQ(result[i], src[i] * 3) << "work-item " << i;
    // Without a local size the device picks one.
    scale = 5;
    ASSERT_EQ(clSetKernelArg(copy, 2, sizeof(scale), &scale), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(queue_, copy, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(
        clEnqueueReadBuffer(queue_, out, CL_TRUE, 0, result.size() * 4, result.data(), 0, nullptr, nullptr),
        CL_SUCCESS);
    for (size_t i = 0; i < result.size(); ++i) ASSERT_EQ(result[i], src[i] * 5) << "work-item " << i;
}

TEST_F(KernelTest, RequiredSubGroupSizeShapesSubGroups) {
    if (standIn()) GTEST_SKIP() << "the stand-in interpreter does not execute kernels";
    cl_kernel fixed = kernel("fixed");
    cl_mem out = buffer(64 * 4);
    ASSERT_EQ(clSetKernelArg(fixed, 0, sizeof(cl_mem), &out), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(fixed, 1, 64, nullptr), CL_SUCCESS);
    size_t global = 64;  // no local size: the required 32x1x1 is used
    ASSERT_EQ(clEnqueueNDRangeKernel(queue_, fixed, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    std::vector<uint32_t> result(64, 0);
    ASSERT_EQ(
        clEnqueueReadBuffer(queue_, out, CL_TRUE, 0, result.size() * 4, result.data(), 0, nullptr, nullptr),
        CL_SUCCESS);
    for (size_t i = 0; i < result.size(); ++i) {
        size_t local_id = i % 32;
        EXPECT_EQ(result[i], (local_id / 16) * 100 + local_id % 16) << "work-item " << i;
    }
}

// Coarse-grain buffer SVM: the capability, clSVMAlloc's flag rules, maps, and SVM pointers (also into the
// middle of an allocation) as kernel arguments.
TEST_F(KernelTest, CoarseGrainSvmPointersAreKernelArguments) {
    cl_device_svm_capabilities caps = 0;
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, nullptr), CL_SUCCESS);
    EXPECT_EQ(caps, cl_device_svm_capabilities(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER));
    EXPECT_EQ(clSVMAlloc(context_, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, 256, 0), nullptr);
    EXPECT_EQ(clSVMAlloc(context_, CL_MEM_READ_WRITE, 0, 0), nullptr);
    EXPECT_EQ(clSVMAlloc(context_, CL_MEM_READ_WRITE, 256, 3), nullptr);  // not a power of two
    auto* svm = static_cast<uint32_t*>(clSVMAlloc(context_, CL_MEM_READ_WRITE, 128 * 4, 0));
    ASSERT_NE(svm, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(svm) % 128, 0u);
    ASSERT_EQ(clEnqueueSVMMap(queue_, CL_TRUE, CL_MAP_WRITE, svm, 128 * 4, 0, nullptr, nullptr), CL_SUCCESS);
    for (uint32_t i = 0; i < 128; ++i) svm[i] = i;
    ASSERT_EQ(clEnqueueSVMUnmap(queue_, svm, 0, nullptr, nullptr), CL_SUCCESS);
    uint32_t not_svm[4] = {};
    EXPECT_EQ(clEnqueueSVMMap(queue_, CL_TRUE, CL_MAP_READ, not_svm, 16, 0, nullptr, nullptr),
              CL_INVALID_VALUE);

    cl_kernel copy = kernel("copy");
    const cl_uint scale = 3;
    EXPECT_EQ(clSetKernelArgSVMPointer(copy, 0, not_svm), CL_INVALID_ARG_VALUE);
    EXPECT_EQ(clSetKernelArgSVMPointer(copy, 2, svm), CL_INVALID_ARG_INDEX);  // a value argument
    ASSERT_EQ(clSetKernelArgSVMPointer(copy, 0, svm + 64), CL_SUCCESS);       // dst: the upper half
    ASSERT_EQ(clSetKernelArgSVMPointer(copy, 1, svm), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(copy, 2, sizeof scale, &scale), CL_SUCCESS);
    if (!standIn()) {
        size_t global = 64, local = 16;
        ASSERT_EQ(clEnqueueNDRangeKernel(queue_, copy, 1, nullptr, &global, &local, 0, nullptr, nullptr),
                  CL_SUCCESS);
        ASSERT_EQ(clEnqueueSVMMap(queue_, CL_TRUE, CL_MAP_READ, svm, 128 * 4, 0, nullptr, nullptr),
                  CL_SUCCESS);
        for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(svm[64 + i], i * scale) << "element " << i;
        ASSERT_EQ(clEnqueueSVMUnmap(queue_, svm, 0, nullptr, nullptr), CL_SUCCESS);
    }
    clSVMFree(context_, svm);
    size_t global = 16, local = 16;
    // The argument's allocation is gone: the launch is refused, not run on freed memory.
    EXPECT_EQ(clEnqueueNDRangeKernel(queue_, copy, 1, nullptr, &global, &local, 0, nullptr, nullptr),
              CL_INVALID_KERNEL_ARGS);
}

}  // namespace
}  // namespace refdev_test
