// __local kernel arguments (clSetKernelArg with a size and no value) of the largest OpenCL C types: each
// buffer is 128-byte aligned, the alignment of long16 and double16. With
// REFDEV_FAULTS=alignment_decoration_ignored (its own CTest entry,
// refdev.<profile>.alignment_decoration_ignored) they are 16-byte aligned only, and the test expects to see
// that.
#include <cstdlib>
#include <string>

#include "reference_device/tests/api_test_util.h"

namespace refdev_test {
namespace {

class AlignmentTest : public ApiTest {
protected:
    void SetUp() override {
        if (standIn()) GTEST_SKIP() << "the stand-in interpreter does not execute kernels";
        ApiTest::SetUp();
    }
    static bool faultActive() {
        const char* f = std::getenv("REFDEV_FAULTS");
        return f && std::string(f) == "alignment_decoration_ignored";
    }
};

TEST_F(AlignmentTest, LocalArgumentsOfSixteenComponentTypesAre128ByteAligned) {
    cl_program program = buildFixture("alignment.spv");
    ASSERT_NE(program, nullptr);
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, "local_args", &err);
    ASSERT_EQ(err, CL_SUCCESS);
    constexpr size_t kItems = 8, kArgs = 4;
    std::vector<cl_ulong> out(kItems * kArgs, ~0ull);
    cl_mem buf = clCreateBuffer(context_, CL_MEM_READ_WRITE, out.size() * sizeof(cl_ulong), nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    // uchar[3] first, so that a buffer placed right after the previous one would not be aligned.
    const size_t sizes[kArgs] = {3, 2 * 32, 2 * 64, 2 * 128};  // uchar, short16, int16, long16
    for (cl_uint i = 0; i < kArgs; ++i) EXPECT_EQ(clSetKernelArg(k, i, sizes[i], nullptr), CL_SUCCESS);
    EXPECT_EQ(clSetKernelArg(k, kArgs, sizeof(buf), &buf), CL_SUCCESS);
    const size_t global = kItems, local = 4;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clEnqueueReadBuffer(queue_, buf, CL_TRUE, 0, out.size() * sizeof(cl_ulong), out.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    const bool fault = faultActive();
    for (size_t i = 0; i < out.size(); ++i) {
        SCOPED_TRACE("work-item " + std::to_string(i / kArgs) + ", argument " + std::to_string(i % kArgs));
        if (fault)
            EXPECT_EQ(out[i] % 32, 16u) << "the fault should leave the buffer 16-byte aligned only";
        else
            EXPECT_EQ(out[i], 0u) << "address & 127";
    }
    EXPECT_EQ(clReleaseMemObject(buf), CL_SUCCESS);
    EXPECT_EQ(clReleaseKernel(k), CL_SUCCESS);
    EXPECT_EQ(clReleaseProgram(program), CL_SUCCESS);
}

}  // namespace
}  // namespace refdev_test
