// OpenCL C built-ins beyond the four extensions through the ICD loader: printf output reaches the process's
// stdout when the kernel has completed, and async_work_group_strided_copy honours its stride. With
// REFDEV_FAULTS=async_copy_stride_ignored (CTest entry refdev.<profile>.async_copy_stride_ignored) the
// strided copy test expects the contiguous copy that fault makes, so the entry fails if the fault stops
// showing.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "reference_device/tests/api_test_util.h"

namespace refdev_test {
namespace {

class OclBuiltinsTest : public ApiTest {
protected:
    void SetUp() override {
        if (standIn()) GTEST_SKIP() << "the stand-in interpreter runs no kernels";
        ApiTest::SetUp();
    }
    static std::string activeFault() {
        const char* f = std::getenv("REFDEV_FAULTS");
        return f ? f : "";
    }
};

// Everything written to file descriptor 1 while `run` runs.
template <typename F>
std::string captureStdout(F run) {
    char path[] = "/tmp/refdev_stdout_XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) return "(mkstemp failed)";
    std::fflush(stdout);
    const int saved = dup(1);
    dup2(fd, 1);
    run();
    std::fflush(stdout);
    dup2(saved, 1);
    close(saved);
    std::string text;
    char buf[256];
    lseek(fd, 0, SEEK_SET);
    for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) text.append(buf, size_t(n));
    close(fd);
    std::remove(path);
    return text;
}

TEST_F(OclBuiltinsTest, PrintfReachesStdoutWhenTheKernelCompletes) {
    cl_program program = buildFixture("ocl_builtins.spv");
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, "print_value", &err);
    ASSERT_EQ(err, CL_SUCCESS);
    const cl_uint v = 42;
    ASSERT_EQ(clSetKernelArg(k, 0, sizeof v, &v), CL_SUCCESS);
    const size_t global = 3;
    cl_int enqueued = CL_SUCCESS, finished = CL_SUCCESS;
    const std::string out = captureStdout([&] {
        enqueued = clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr);
        finished = clFinish(queue_);
    });
    EXPECT_EQ(enqueued, CL_SUCCESS);
    EXPECT_EQ(finished, CL_SUCCESS);
    EXPECT_EQ(out, "value=42\nvalue=42\nvalue=42\n");
    size_t size = 0;
    EXPECT_EQ(clGetDeviceInfo(device_, CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof size, &size, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(size, size_t(1) << 20);
    clReleaseKernel(k);
    clReleaseProgram(program);
}

TEST_F(OclBuiltinsTest, StridedAsyncCopyHonoursTheStride) {
    const bool faulty = activeFault() == "async_copy_stride_ignored";
    cl_program program = buildFixture("ocl_builtins.spv");
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, "strided_copy_in", &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_uint src[32], out[8] = {};
    for (cl_uint i = 0; i < 32; ++i) src[i] = 100 + i;
    cl_mem src_mem = clCreateBuffer(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof src, src, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_mem out_mem = clCreateBuffer(context_, CL_MEM_WRITE_ONLY, sizeof out, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    const cl_ulong stride = 4;
    ASSERT_EQ(clSetKernelArg(k, 0, sizeof src_mem, &src_mem), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(k, 1, sizeof out_mem, &out_mem), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(k, 2, sizeof stride, &stride), CL_SUCCESS);
    const size_t global = 8, local = 8;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clEnqueueReadBuffer(queue_, out_mem, CL_TRUE, 0, sizeof out, out, 0, nullptr, nullptr),
              CL_SUCCESS);
    for (cl_uint i = 0; i < 8; ++i)
        EXPECT_EQ(out[i], src[faulty ? i : i * stride])
            << i << (faulty ? " (REFDEV_FAULTS=async_copy_stride_ignored)" : "");
    clReleaseMemObject(src_mem);
    clReleaseMemObject(out_mem);
    clReleaseKernel(k);
    clReleaseProgram(program);
}

}  // namespace
}  // namespace refdev_test
