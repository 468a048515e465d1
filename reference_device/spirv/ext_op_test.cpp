// Extension instructions through an injected ExtOpTable: operands and results per lane, the active mask in
// divergent control flow, bounds-checked memory(), undefined-behaviour reports, and the loader's handling
// of extension opcodes (operand counts, unknown opcodes).
#include "reference_device/spirv/module.h"
#include "reference_device/spirv/test_util.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv::test {
namespace {

constexpr uint32_t kLaneSum = 6100, kRead = 6102;

// Sum of operand 0 over the active lanes, written to every active lane; inactive lanes are untouched.
void laneSum(OpContext& ctx) {
    uint32_t sum = 0;
    for (uint32_t l = 0; l < ctx.lanes(); ++l)
        if (ctx.active(l)) sum += ctx.get<uint32_t>(l, 0);
    for (uint32_t l = 0; l < ctx.lanes(); ++l)
        if (ctx.active(l)) std::memcpy(ctx.result(l), &sum, 4);
}

// Reads 4 bytes at operand pointer + 4 * lane for every active lane; result = the pointer.
void readAtLane(OpContext& ctx) {
    for (uint32_t l = 0; l < ctx.lanes(); ++l) {
        if (!ctx.active(l)) continue;
        if (!ctx.memory(l, ctx.get<uint64_t>(l, 0) + 4 * l, 4, false)) return;
        std::memcpy(ctx.result(l), ctx.operand(l, 0), 8);
    }
}

void complains(OpContext& ctx) {
    ctx.undefinedBehavior(1, ctx.opName() + std::string(": lane 1 objects"));
}

ExtOpTable table(void (*sum)(OpContext&)) {
    ExtOpTable t;
    t.add({kLaneSum, "OpTestLaneSumINTEL", true, 1, 1, UINT32_MAX, {}, sum});
    t.add({kRead, "OpTestReadINTEL", true, 1, 1, UINT32_MAX, {}, readAtLane});
    return t;
}

std::vector<uint32_t> patchedModule() {
    auto w = assembleFixture("ext_op.spvasm");
    const uint32_t ops[] = {kLaneSum, kLaneSum, kRead};
    int k = 0;
    for (size_t pos = 5; pos < w.size() && k < 3; pos += w[pos] >> 16)
        if ((w[pos] & 0xffff) == token(spv::Op::OpCopyObject)) w[pos] = (w[pos] & 0xffff0000u) | ops[k++];
    EXPECT_EQ(k, 3);
    return w;
}

TEST(ExtOps, TableKeepsOpcodesSortedAndFindsThem) {
    ExtOpTable t = table(laneSum);
    ASSERT_NE(t.find(kLaneSum), nullptr);
    EXPECT_STREQ(t.find(kRead)->name, "OpTestReadINTEL");
    EXPECT_EQ(t.find(6101), nullptr);
    EXPECT_EQ(t.all().size(), 2u);
}

TEST(ExtOps, CollectiveSeesOnlyLanesAtTheSameInstruction) {
    ExtOpTable t = table(laneSum);
    auto w = patchedModule();
    BuildResult b = buildModule(w.data(), w.size(), testProfile(), t);
    ASSERT_TRUE(b.module) << b.log;
    std::vector<uint32_t> out(40, 0), data(64, 0);
    LaunchResult r = run(*b.module, "lane_sum", {buffer(out), buffer(data)}, range1(40, 20));
    ASSERT_TRUE(r.ok) << r.error;
    for (uint32_t gid = 0; gid < 40; ++gid) {
        const uint32_t lid = gid % 20, n = lid < 16 ? 16 : 4, lane = lid % 16;
        uint32_t expect = 0;
        if (lane < 3) {
            for (uint32_t l = 0; l < 3 && l < n; ++l) expect += l;
        } else {
            for (uint32_t l = 3; l < n; ++l) expect += l + 100;
        }
        EXPECT_EQ(out[gid], expect) << gid;
    }
}

TEST(ExtOps, MemoryIsBoundsChecked) {
    ExtOpTable t = table(laneSum);
    auto w = patchedModule();
    BuildResult b = buildModule(w.data(), w.size(), testProfile(), t);
    ASSERT_TRUE(b.module) << b.log;
    std::vector<uint32_t> out(16, 0), data(15, 0);  // lane 15 reads past the end
    LaunchResult r = run(*b.module, "lane_sum", {buffer(out), buffer(data)}, range1(16, 16));
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.error.find("kernel 'lane_sum': OpTestReadINTEL (word "), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("read of 4 bytes"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("sub-group 0 lane 15"), std::string::npos) << r.error;
}

TEST(ExtOps, UndefinedBehaviourIsPrefixedWithKernelInstructionAndWorkItem) {
    ExtOpTable t = table(complains);
    auto w = patchedModule();
    BuildResult b = buildModule(w.data(), w.size(), testProfile(), t);
    ASSERT_TRUE(b.module) << b.log;
    std::vector<uint32_t> out(16, 0), data(64, 0);
    LaunchResult r = run(*b.module, "lane_sum", {buffer(out), buffer(data)}, range1(16, 16));
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.error.find("kernel 'lane_sum': OpTestLaneSumINTEL (word "), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("undefined behaviour: OpTestLaneSumINTEL: lane 1 objects"), std::string::npos)
        << r.error;
    EXPECT_NE(r.error.find("sub-group 0 lane 1"), std::string::npos) << r.error;
}

TEST(ExtOps, LoaderChecksOperandCountsAndUnknownOpcodes) {
    ExtOpTable t;
    t.add({kLaneSum, "OpTestLaneSumINTEL", true, 2, 2, UINT32_MAX, {}, laneSum});  // needs 2 operands
    auto w = patchedModule();
    BuildResult b = buildModule(w.data(), w.size(), testProfile(), t);
    EXPECT_FALSE(b.module);
    EXPECT_NE(b.log.find("OpTestLaneSumINTEL (word "), std::string::npos) << b.log;
    EXPECT_NE(b.log.find("has 1 operands, expected 2..2"), std::string::npos) << b.log;
    EXPECT_NE(b.log.find("unknown opcode 6102"), std::string::npos) << b.log;
}

TEST(ExtOps, RequiredCapabilityMustBeDeclared) {
    ExtOpTable t = table(laneSum);
    ExtOpInfo info = *t.find(kLaneSum);
    info.capabilities = {token(spv::Capability::SubgroupShuffleINTEL)};
    t.add(info);
    auto w = patchedModule();
    BuildResult b = buildModule(w.data(), w.size(), testProfile(), t);
    EXPECT_FALSE(b.module);
    EXPECT_NE(b.log.find("needs capability 5568"), std::string::npos) << b.log;
}

}  // namespace
}  // namespace refdev::spirv::test
