// The planted build faults through the ICD loader: with REFDEV_FAULTS naming one, a module it rejects fails
// clBuildProgram with CL_BUILD_PROGRAM_FAILURE, CL_BUILD_ERROR, a log whose first line names the kernel and
// the fault, and no kernel; the modules it spares build. Without faults every fixture builds. The ICD reads
// REFDEV_FAULTS once per process, so CTest runs these once per fault (refdev.<profile>.<fault>) besides the
// fault-free entries.
#include <cstdlib>
#include <string>

#include "reference_device/tests/api_test_util.h"

namespace refdev_test {
namespace {

// Each fixture (fixtures/build_fault.spvasm.in) and the fault that rejects it.
struct Fixture {
    const char* file;
    const char* rejected_by;
};
const Fixture kFixtures[] = {
    {"build_fault_sg32_uint.spv", "build_rejects_block_io_simd32"},  // block read at SubgroupSize 32
    // The same read as a call of the imported built-in intel_sub_group_block_read
    // (build_fault_imported.spvasm.in).
    {"build_fault_imported_sg32.spv", "build_rejects_block_io_simd32"},
    {"build_fault_sg16_v4half.spv", "build_rejects_half_vector_shuffle"},
    {"build_fault_sg16_half.spv", nullptr},  // half scalar shuffle and SubgroupSize 16 block read
};

class BuildFaultTest : public ApiTest {
protected:
    // The active fault, "" when none (the entries without REFDEV_FAULTS).
    static std::string activeFault() {
        const char* f = std::getenv("REFDEV_FAULTS");
        return f ? f : "";
    }
    void SetUp() override {
        if (standIn() && !activeFault().empty())
            GTEST_SKIP() << "the stand-in interpreter plants no build faults";
        ApiTest::SetUp();
    }

    void expectRejected(const std::string& fixture, const std::string& fault) {
        std::vector<unsigned char> il = readFixture(fixture);
        ASSERT_FALSE(il.empty()) << "missing fixture " << fixture;
        cl_int err = CL_SUCCESS;
        cl_program program = clCreateProgramWithIL(context_, il.data(), il.size(), &err);
        ASSERT_EQ(err, CL_SUCCESS);
        EXPECT_EQ(clBuildProgram(program, 1, &device_, "", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
        cl_build_status status = CL_BUILD_NONE;
        EXPECT_EQ(
            clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr),
            CL_SUCCESS);
        EXPECT_EQ(status, CL_BUILD_ERROR);
        const std::string log = buildLog(program);
        const std::string first = log.substr(0, log.find('\n'));
        EXPECT_EQ(first.rfind("error: k: ", 0), 0u) << log;
        EXPECT_NE(first.find("(planted fault " + fault + ")"), std::string::npos) << log;
        cl_kernel k = clCreateKernel(program, "k", &err);
        EXPECT_EQ(k, nullptr);
        EXPECT_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
        if (k) clReleaseKernel(k);
        EXPECT_EQ(clReleaseProgram(program), CL_SUCCESS);
    }

    void expectBuilds(const std::string& fixture) {
        cl_program program = buildFixture(fixture);
        cl_int err = CL_SUCCESS;
        cl_kernel k = clCreateKernel(program, "k", &err);
        EXPECT_EQ(err, CL_SUCCESS) << fixture;
        if (k) EXPECT_EQ(clReleaseKernel(k), CL_SUCCESS);
        EXPECT_EQ(clReleaseProgram(program), CL_SUCCESS);
    }
};

TEST_F(BuildFaultTest, FixturesBuildOrFailAsTheActiveFaultSays) {
    const std::string fault = activeFault();
    for (const Fixture& f : kFixtures) {
        SCOPED_TRACE(std::string(f.file) + " with REFDEV_FAULTS=" + fault);
        if (f.rejected_by && fault == f.rejected_by)
            expectRejected(f.file, fault);
        else
            expectBuilds(f.file);
    }
}

}  // namespace
}  // namespace refdev_test
