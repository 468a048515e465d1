// Scheduler: sub-group decomposition (including a partial trailing sub-group), collectives in uniform and
// divergent control flow, work-group barriers and the undefined behaviour the scheduler detects.
#include "reference_device/spirv/test_util.h"

namespace refdev::spirv::test {
namespace {

class Scheduler : public ::testing::Test {
protected:
    static void SetUpTestSuite() { module_ = build(assembleFixture("scheduler.spvasm")); }
    static void TearDownTestSuite() { module_.reset(); }
    static std::shared_ptr<const Module> module_;
};
std::shared_ptr<const Module> Scheduler::module_;

TEST_F(Scheduler, SubGroupIdsWithPartialTrailingSubGroup) {
    ASSERT_TRUE(module_);
    const size_t global = 80, local = 40;  // two work-groups of 16 + 16 + 8 lanes
    std::vector<uint32_t> out(4 * global, 0xffffffff);
    LaunchResult r = run(*module_, "sg_ids", {buffer(out)}, range1(global, local));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t gid = 0; gid < global; ++gid) {
        const size_t lid = gid % local;
        EXPECT_EQ(out[4 * gid + 0], lid / 16) << gid;
        EXPECT_EQ(out[4 * gid + 1], lid % 16) << gid;
        EXPECT_EQ(out[4 * gid + 2], lid < 32 ? 16u : 8u) << gid;
        EXPECT_EQ(out[4 * gid + 3], 3u) << gid;
    }
}

TEST_F(Scheduler, SubgroupSizeExecutionModeAndNonUniformWorkGroup) {
    ASSERT_TRUE(module_);
    EXPECT_EQ(subGroupSize(*module_, "sg_ids32", testProfile()), 32u);
    EXPECT_EQ(subGroupSize(*module_, "sg_ids", testProfile()), 16u);
    const size_t global = 100, local = 64;  // groups of 64 and 36 lanes
    std::vector<uint32_t> out(4 * global, 0xffffffff);
    LaunchResult r = run(*module_, "sg_ids32", {buffer(out)}, range1(global, local));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t gid = 0; gid < global; ++gid) {
        const size_t group = gid / local, lid = gid % local, lanes = group == 0 ? 64 : 36;
        EXPECT_EQ(out[4 * gid + 0], lid / 32) << gid;
        EXPECT_EQ(out[4 * gid + 1], lid % 32) << gid;
        EXPECT_EQ(out[4 * gid + 2], std::min<size_t>(32, lanes - lid / 32 * 32)) << gid;
        EXPECT_EQ(out[4 * gid + 3], (lanes + 31) / 32) << gid;
    }
}

TEST_F(Scheduler, UniformCollectives) {
    ASSERT_TRUE(module_);
    const size_t global = 56, local = 28;  // sub-groups of 16 and 12 lanes
    std::vector<uint32_t> out(4 * global, 0xffffffff);
    LaunchResult r = run(*module_, "collectives", {buffer(out)}, range1(global, local));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t gid = 0; gid < global; ++gid) {
        const uint32_t lid = uint32_t(gid % local), lane = lid % 16, n = lid < 16 ? 16 : 12;
        EXPECT_EQ(out[4 * gid + 0], n * (n - 1) / 2) << gid;
        EXPECT_EQ(out[4 * gid + 1], lane * (lane + 1) / 2) << gid;
        EXPECT_EQ(out[4 * gid + 2], lane == 0 ? 0u : lane - 1) << gid;  // identity of UMax is 0
        EXPECT_EQ(out[4 * gid + 3], 6u) << gid;
    }
}

TEST_F(Scheduler, DivergentCollectivesSeeOnlyTheirLanes) {
    ASSERT_TRUE(module_);
    const size_t global = 40, local = 20;  // sub-groups of 16 and 4 lanes
    std::vector<uint32_t> out(global, 0xffffffff);
    LaunchResult r = run(*module_, "divergent", {buffer(out)}, range1(global, local));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t gid = 0; gid < global; ++gid) {
        const uint32_t lid = uint32_t(gid % local), lane = lid % 16, n = lid < 16 ? 16 : 4;
        const uint32_t expect = lane < 5 ? std::min<uint32_t>(5, n) : 10 * (n - 5);
        EXPECT_EQ(out[gid], expect) << gid;
    }
}

TEST_F(Scheduler, WorkGroupBarrierOrdersLocalMemory) {
    ASSERT_TRUE(module_);
    const size_t global = 90, local = 40;  // last group has 10 work-items
    std::vector<uint32_t> out(global, 0xffffffff);
    LaunchResult r = run(*module_, "barrier", {buffer(out), localBuffer(40 * 4)}, range1(global, local));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t gid = 0; gid < global; ++gid) {
        const size_t group = gid / local, lid = gid % local, size = group < 2 ? 40 : 10;
        EXPECT_EQ(out[gid], group * local + (lid + 1) % size) << gid;
    }
}

TEST_F(Scheduler, BarrierReachedByPartOfTheWorkGroupIsReported) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> out(64, 0);
    LaunchResult r = run(*module_, "bad_barrier", {buffer(out)}, range1(64, 32));
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.error.find("barrier reached by only part of the work-group"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("kernel 'bad_barrier'"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("OpControlBarrier"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("group (0,0,0)"), std::string::npos) << r.error;  // lowest failing group reported
}

TEST_F(Scheduler, UniformGroupOpInDivergentCodeIsReported) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> out(64, 0);
    LaunchResult r = run(*module_, "partial_reduce", {buffer(out)}, range1(32, 32));
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.error.find("OpGroupIAdd"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("only part of the sub-group (lanes 0,1,2,3,4 of 16)"), std::string::npos)
        << r.error;
}

TEST_F(Scheduler, ResultsDoNotDependOnThreadCount) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> one(4 * 256), four(4 * 256);
    ASSERT_TRUE(run(*module_, "collectives", {buffer(one)}, range1(256, 24), 1).ok);
    ASSERT_TRUE(run(*module_, "collectives", {buffer(four)}, range1(256, 24), 4).ok);
    EXPECT_EQ(one, four);
}

}  // namespace
}  // namespace refdev::spirv::test
