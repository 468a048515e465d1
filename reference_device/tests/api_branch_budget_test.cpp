// The device's hang check: with REFDEV_BRANCH_BUDGET set, a kernel that loops forever must fail
// clEnqueueNDRangeKernel with CL_OUT_OF_RESOURCES and a pfn_notify message naming the budget, and the device
// must run the next kernel normally. The ICD reads the variable once per process, so these tests run in
// their own CTest entries (refdev.<profile>.branch_budget, which set it) and skip elsewhere.
#include <cstdlib>
#include <string>

#include "reference_device/tests/api_test_util.h"

namespace refdev_test {
namespace {

class BranchBudgetTest : public ApiTest {
protected:
    void SetUp() override {
        if (standIn()) GTEST_SKIP() << "the stand-in interpreter does not execute kernels";
        const char* budget = std::getenv("REFDEV_BRANCH_BUDGET");
        if (!budget || std::string(budget) == "0")
            GTEST_SKIP() << "needs REFDEV_BRANCH_BUDGET (CTest refdev.<profile>.branch_budget sets it)";
        ApiTest::SetUp();
    }
};

TEST_F(BranchBudgetTest, EndlessLoopFailsAndTheNextKernelRuns) {
    cl_int err = CL_SUCCESS;
    cl_mem out = clCreateBuffer(context_, CL_MEM_READ_WRITE, 64 * sizeof(cl_uint), nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_program loop = buildFixture("endless_loop.spv");
    cl_kernel spin = clCreateKernel(loop, "spin", &err);
    ASSERT_EQ(err, CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(spin, 0, sizeof(cl_mem), &out), CL_SUCCESS);
    const size_t global = 4;
    cl_event ev = nullptr;
    EXPECT_EQ(clEnqueueNDRangeKernel(queue_, spin, 1, nullptr, &global, nullptr, 0, nullptr, &ev),
              CL_OUT_OF_RESOURCES);
    EXPECT_EQ(clFinish(queue_), CL_SUCCESS);
    if (ev) {
        cl_int status = 0;
        EXPECT_EQ(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr),
                  CL_SUCCESS);
        EXPECT_LT(status, 0);
        EXPECT_EQ(clReleaseEvent(ev), CL_SUCCESS);
    }
    ASSERT_EQ(messages_.size(), 1u);
    EXPECT_NE(messages_[0].find("'spin'"), std::string::npos) << messages_[0];
    EXPECT_NE(messages_[0].find("branch budget"), std::string::npos) << messages_[0];
    EXPECT_NE(messages_[0].find(std::string("REFDEV_BRANCH_BUDGET=") + std::getenv("REFDEV_BRANCH_BUDGET")),
              std::string::npos)
        << messages_[0];
    messages_.clear();

    // A valid kernel afterwards: dst[gid] = src[gid] * scale.
    cl_program program = buildFixture("api_kernels.spv");
    cl_kernel copy = clCreateKernel(program, "copy", &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_uint src[64], dst[64] = {}, scale = 3;
    for (cl_uint i = 0; i < 64; ++i) src[i] = i + 1;
    cl_mem in = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(src), src, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(copy, 0, sizeof(cl_mem), &out), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(copy, 1, sizeof(cl_mem), &in), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(copy, 2, sizeof(scale), &scale), CL_SUCCESS);
    const size_t n = 64;
    EXPECT_EQ(clEnqueueNDRangeKernel(queue_, copy, 1, nullptr, &n, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(clEnqueueReadBuffer(queue_, out, CL_TRUE, 0, sizeof(dst), dst, 0, nullptr, nullptr),
              CL_SUCCESS);
    for (cl_uint i = 0; i < 64; ++i) EXPECT_EQ(dst[i], src[i] * scale) << i;
    EXPECT_TRUE(messages_.empty()) << messages_[0];

    EXPECT_EQ(clReleaseMemObject(in), CL_SUCCESS);
    EXPECT_EQ(clReleaseMemObject(out), CL_SUCCESS);
    EXPECT_EQ(clReleaseKernel(copy), CL_SUCCESS);
    EXPECT_EQ(clReleaseKernel(spin), CL_SUCCESS);
    EXPECT_EQ(clReleaseProgram(program), CL_SUCCESS);
    EXPECT_EQ(clReleaseProgram(loop), CL_SUCCESS);
}

}  // namespace
}  // namespace refdev_test
