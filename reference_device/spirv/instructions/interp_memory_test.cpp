// Control flow, memory, composites and atomics: loops with OpPhi and calls, OpSwitch, private arrays,
// struct layout, vectors, constant data, work-group variables, atomics across work-groups, bounds checks.
#include "reference_device/spirv/test_util.h"

namespace refdev::spirv::test {
namespace {

class ControlMemory : public ::testing::Test {
protected:
    static void SetUpTestSuite() { module_ = build(assembleFixture("control_memory.spvasm")); }
    static void TearDownTestSuite() { module_.reset(); }
    static std::shared_ptr<const Module> module_;
};
std::shared_ptr<const Module> ControlMemory::module_;

TEST_F(ControlMemory, LoopWithPhiAndFunctionCall) {
    ASSERT_TRUE(module_);
    const uint32_t n = 37;
    std::vector<uint32_t> out(50, 0);
    LaunchResult r = run(*module_, "loop_sum", {buffer(out), value<uint32_t>(n)}, range1(out.size(), 10));
    ASSERT_TRUE(r.ok) << r.error;
    for (uint32_t gid = 0; gid < out.size(); ++gid) {
        uint32_t expect = 0;
        for (uint32_t i = 0; i < n; ++i) expect += i * i + gid;
        EXPECT_EQ(out[gid], expect) << gid;
    }
}

TEST_F(ControlMemory, SwitchWithDefault) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> out(23, 0);
    ASSERT_TRUE(run(*module_, "switch_k", {buffer(out)}, range1(out.size(), 1)).ok);
    const uint32_t table[5] = {10, 20, 30, 99, 99};
    for (uint32_t gid = 0; gid < out.size(); ++gid) EXPECT_EQ(out[gid], table[gid % 5]) << gid;
}

TEST_F(ControlMemory, PrivateArrayWithDynamicIndex) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> out(40, 0);
    LaunchResult r = run(*module_, "private_array", {buffer(out)}, range1(out.size(), 8));
    ASSERT_TRUE(r.ok) << r.error;
    for (uint32_t gid = 0; gid < out.size(); ++gid) EXPECT_EQ(out[gid], (gid % 8) * gid + 7 * gid) << gid;
}

TEST_F(ControlMemory, StructUsesOpenClLayout) {
    ASSERT_TRUE(module_);
    struct S {  // OpenCL C: uchar at 0, uint at 4, ulong at 8, size 16
        uint8_t a;
        uint32_t b;
        uint64_t c;
    };
    static_assert(sizeof(S) == 16, "host layout");
    std::vector<S> out(12);
    std::memset(out.data(), 0xee, out.size() * sizeof(S));
    LaunchResult r = run(*module_, "struct_store", {buffer(out)}, range1(out.size(), 4));
    ASSERT_TRUE(r.ok) << r.error;
    for (uint32_t gid = 0; gid < out.size(); ++gid) {
        EXPECT_EQ(out[gid].a, uint8_t(gid));
        EXPECT_EQ(out[gid].b, gid * 2 + 1);
        EXPECT_EQ(out[gid].c, gid * 3ull);
    }
}

TEST_F(ControlMemory, VectorShuffleInsertExtract) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> out(4 * 9, 0);
    LaunchResult r = run(*module_, "vectors", {buffer(out)}, range1(9, 3));
    ASSERT_TRUE(r.ok) << r.error;
    for (uint32_t g = 0; g < 9; ++g) {
        uint32_t v[4] = {g, g + 1, g + 2, g + 3}, w[4];
        for (int k = 0; k < 4; ++k) w[k] = v[3 - k] * 2 + v[k];
        w[g % 4] = 7;
        w[0] = v[(g + 1) % 4];
        for (int k = 0; k < 4; ++k) EXPECT_EQ(out[4 * g + k], w[k]) << g << "." << k;
    }
}

TEST_F(ControlMemory, ConstantDataTable) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> out(10, 0);
    ASSERT_TRUE(run(*module_, "const_table", {buffer(out)}, range1(out.size(), 5)).ok);
    const uint32_t t[4] = {5, 7, 11, 13};
    for (uint32_t gid = 0; gid < out.size(); ++gid) EXPECT_EQ(out[gid], t[gid % 4]) << gid;
}

TEST_F(ControlMemory, WorkgroupVariableSharedAfterBarrier) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> out(70, 0);
    LaunchResult r = run(*module_, "wg_var", {buffer(out)}, range1(out.size(), 32));
    ASSERT_TRUE(r.ok) << r.error;
    for (uint32_t gid = 0; gid < out.size(); ++gid) EXPECT_EQ(out[gid], gid / 32 * 32 + 0x110) << gid;
}

TEST_F(ControlMemory, AtomicsAcrossWorkGroups) {
    ASSERT_TRUE(module_);
    const uint32_t n = 4096;
    std::vector<uint32_t> c = {0, 0, 0, 1000000, 0};
    LaunchResult r = run(*module_, "atomics", {buffer(c)}, range1(n, 64), 4);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(c[0], n);
    EXPECT_EQ(c[1], n - 1);
    EXPECT_GE(c[2], 1u);
    EXPECT_LE(c[2], n);
    EXPECT_EQ(c[3], 1000000 - 2 * n);
    EXPECT_EQ(c[4], (1u << 30) - 1);
}

TEST_F(ControlMemory, OutOfBoundsStoreStopsTheLaunchWithDetails) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> out(16, 0);
    LaunchResult r = run(*module_, "oob", {buffer(out)}, range1(32, 8), 1);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.error.find("kernel 'oob': OpStore (word "), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("write of 4 bytes at 0x"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("outside every buffer argument"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("work-item global (16,0,0) local (0,0,0) group (2,0,0) sub-group 0 lane 0"),
              std::string::npos)
        << r.error;
    for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(out[i], i);  // in-bounds stores happened
}

TEST_F(ControlMemory, StoreThroughConstantBufferIsRejected) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> out(8, 0);
    ArgValue a = buffer(out);
    LaunchResult r = run(*module_, "oob", {a}, range1(8, 8));
    ASSERT_TRUE(r.ok) << r.error;
    a.kind = ArgKind::ConstantBuffer;  // wrong kind for a CrossWorkgroup pointer parameter
    r = run(*module_, "oob", {a}, range1(8, 8));
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("wrong kind"), std::string::npos) << r.error;
}

TEST_F(ControlMemory, NullBufferArgumentIsReported) {
    ASSERT_TRUE(module_);
    ArgValue a;
    a.kind = ArgKind::GlobalBuffer;
    LaunchResult r = run(*module_, "oob", {a}, range1(4, 4));
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.error.find("at 0x0 dereferences a null pointer"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace refdev::spirv::test
