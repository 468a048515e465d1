// Non-uniform sub-group instructions, half arithmetic rounding, specialization constant defaults and the
// sub-group barrier check.
#include "reference_device/spirv/test_util.h"

namespace refdev::spirv::test {
namespace {

class GroupMisc : public ::testing::Test {
protected:
    static void SetUpTestSuite() { module_ = build(assembleFixture("group_misc.spvasm")); }
    static void TearDownTestSuite() { module_.reset(); }
    static std::shared_ptr<const Module> module_;
};
std::shared_ptr<const Module> GroupMisc::module_;

TEST_F(GroupMisc, NonUniformElectBallotShuffleBroadcastReduceScan) {
    ASSERT_TRUE(module_);
    const uint32_t global = 24, local = 24;  // sub-groups of 16 and 8 lanes
    std::vector<uint32_t> out(6 * global, 0xffffffff);
    std::vector<float> fout(global, -1.0f);
    LaunchResult r = run(*module_, "nonuniform", {buffer(out), buffer(fout)}, range1(global, local));
    ASSERT_TRUE(r.ok) << r.error;
    for (uint32_t gid = 0; gid < global; ++gid) {
        const uint32_t lane = gid % 16, n = gid < 16 ? 16 : 8;
        const uint32_t* o = &out[6 * gid];
        EXPECT_EQ(o[0], lane == 0 ? 1u : 0u) << gid;
        uint32_t ballot = 0;
        for (uint32_t l = 1; l < n; l += 2) ballot |= 1u << l;
        EXPECT_EQ(o[1], ballot) << gid;
        EXPECT_EQ(o[2], lane ^ 1) << gid;
        EXPECT_EQ(o[3], 7u) << gid;
        EXPECT_EQ(o[4], (lane ^ 3) * 10) << gid;
        EXPECT_EQ(o[5], 100 - (n - 1)) << gid;
        EXPECT_EQ(fout[gid], 0.5f * (lane + 1)) << gid;
    }
}

TEST_F(GroupMisc, HalfArithmeticRoundsEachOperation) {
    ASSERT_TRUE(module_);
    // (a, b) pairs as half bits: 1.5 * 2 + 1.5 = 4.5 (exact); 2048 * 1 + 2048 = 4096 (exact);
    // 1025 * 2 + 1025 = 3075 -> 3076 (half spacing is 2 in [2048, 4096); 3075 ties to the even 3076);
    // 65504 * 2 overflows to +inf.
    std::vector<uint16_t> in = {0x3e00, 0x4000, 0x6800, 0x3c00, 0x6401, 0x4000, 0x7bff, 0x4000};
    std::vector<uint16_t> out(4, 0);
    ASSERT_TRUE(run(*module_, "half_math", {buffer(in), buffer(out)}, range1(4, 1)).ok);
    EXPECT_EQ(out[0], 0x4480);  // 4.5
    EXPECT_EQ(out[1], 0x6c00);  // 4096
    EXPECT_EQ(out[2], 0x6a02);  // 3076
    EXPECT_EQ(out[3], 0x7c00);  // +inf
}

TEST_F(GroupMisc, SpecConstantUsesItsDefault) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> out(1, 0);
    ASSERT_TRUE(run(*module_, "spec", {buffer(out)}, range1(1, 1)).ok);
    EXPECT_EQ(out[0], 43u);
}

TEST_F(GroupMisc, SubGroupBarrierInDivergentCodeIsReported) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> out(1, 0);
    LaunchResult r = run(*module_, "sg_barrier", {buffer(out)}, range1(16, 16));
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.error.find("OpControlBarrier"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("reached by only part of the sub-group (lanes 0,1,2 of 16)"), std::string::npos)
        << r.error;
}

}  // namespace
}  // namespace refdev::spirv::test
