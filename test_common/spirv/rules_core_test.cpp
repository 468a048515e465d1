#include <gtest/gtest.h>

#include <algorithm>

#include "test_common/spirv/module_builder.h"
#include "test_common/spirv/rules.h"
#include "test_common/spirv/spirv_headers.h"

namespace cts {
namespace {

using test::ModuleBuilder;

struct KernelParts {
    std::vector<uint32_t> capabilities = {spv::CapabilityAddresses, spv::CapabilityKernel};
    std::vector<std::string> extensions;
    uint32_t addressing = spv::AddressingModelPhysical64;
    uint32_t memory_model = spv::MemoryModelOpenCL;
    uint32_t version = 0x00010200;
    int subgroup_size = 0;      // 0: no SubgroupSize execution mode
    uint16_t extra_opcode = 0;  // an instruction to place in the function body (operands are dummies)
};

// A small OpenCL kernel module assembled word by word.
std::vector<uint32_t> kernel(const KernelParts& p) {
    ModuleBuilder b(p.version);
    uint32_t void_t = b.newId(), fn_t = b.newId(), fn = b.newId(), label = b.newId(), i32 = b.newId(),
             value = b.newId(), result = b.newId();
    for (uint32_t c : p.capabilities) b.op(17, {c});
    for (const auto& e : p.extensions) b.op(10, ModuleBuilder::str(e));
    b.op(14, {p.addressing, p.memory_model});
    b.op(15, ModuleBuilder::cat({{6, fn}, ModuleBuilder::str("test")}));
    if (p.subgroup_size) b.op(16, {fn, spv::ExecutionModeSubgroupSize, uint32_t(p.subgroup_size)});
    b.op(19, {void_t}).op(33, {fn_t, void_t}).op(21, {i32, 32, 0}).op(43, {i32, value, 1});
    b.op(54, {void_t, fn, 0, fn_t}).op(248, {label});
    // Reads, shuffles and the multiply-accumulate produce a result; writes, 2D loads and stores do not.
    const uint16_t with_result[] = {5571, 5572, 5573, 5574, 5575, 5577, 5580, 6237};
    if (std::count(std::begin(with_result), std::end(with_result), p.extra_opcode))
        b.op(p.extra_opcode, {i32, result, value, value, value, value});
    else if (p.extra_opcode)
        b.op(p.extra_opcode, {value, value, value, value, value, value, value, value, value});
    b.op(253).op(56);
    return b.words();
}

std::vector<std::string> rulesBroken(const KernelParts& p) {
    std::vector<std::string> rules;
    // Only the core set: other rule sets (e.g. 2d_block_io operand rules) rightly flag the dummy operands.
    for (const auto& v : checkModule(SpirvModule::parse(kernel(p))))
        if (v.rule.rfind("core.", 0) == 0) rules.push_back(v.rule);
    return rules;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(CoreRules, CoreRuleSetIsRegistered) {
    auto sets = ruleSets();
    EXPECT_TRUE(std::any_of(sets.begin(), sets.end(), [](const auto& s) { return s.first == "core"; }));
}

TEST(CoreRules, CleanKernelPasses) {
    KernelParts p;
    p.capabilities.push_back(spv::CapabilitySubgroupShuffleINTEL);
    p.capabilities.push_back(spv::CapabilitySubgroupDispatch);
    p.extensions = {"SPV_INTEL_subgroups"};
    p.subgroup_size = 16;
    p.extra_opcode = spv::OpSubgroupShuffleINTEL;
    EXPECT_TRUE(rulesBroken(p).empty());
}

TEST(CoreRules, OpcodeNeedsCapability) {
    KernelParts p;
    p.extensions = {"SPV_INTEL_subgroups"};
    p.extra_opcode = spv::OpSubgroupShuffleINTEL;
    auto broken = rulesBroken(p);
    EXPECT_EQ(broken, std::vector<std::string>{"core.opcode_capability"});
}

TEST(CoreRules, OpcodeNeedsExtension) {
    KernelParts p;
    p.capabilities.push_back(spv::CapabilitySubgroupMatrixMultiplyAccumulateINTEL);
    p.extra_opcode = spv::OpSubgroupMatrixMultiplyAccumulateINTEL;
    auto broken = rulesBroken(p);
    EXPECT_TRUE(has(broken, "core.opcode_extension"));
    EXPECT_TRUE(has(broken, "core.capability_extension"));
    EXPECT_FALSE(has(broken, "core.opcode_capability"));
}

TEST(CoreRules, EveryIntelOpcodeIsCovered) {
    const uint16_t opcodes[] = {5571, 5572, 5573, 5574, 5575, 5576, 5577, 5578,
                                5580, 5581, 6231, 6232, 6233, 6234, 6235, 6237};
    for (uint16_t op : opcodes) {
        KernelParts p;
        p.extra_opcode = op;
        auto broken = rulesBroken(p);
        EXPECT_TRUE(has(broken, "core.opcode_capability")) << "opcode " << op;
        EXPECT_TRUE(has(broken, "core.opcode_extension")) << "opcode " << op;
    }
}

TEST(CoreRules, TransformCapabilityImpliesBlockIo) {
    KernelParts p;
    p.capabilities.push_back(spv::CapabilitySubgroup2DBlockTransformINTEL);
    p.extensions = {"SPV_INTEL_2d_block_io"};
    p.extra_opcode = spv::OpSubgroup2DBlockLoadINTEL;
    EXPECT_TRUE(rulesBroken(p).empty());
    // ...but the base capability does not allow the transform load.
    KernelParts q;
    q.capabilities.push_back(spv::CapabilitySubgroup2DBlockIOINTEL);
    q.extensions = {"SPV_INTEL_2d_block_io"};
    q.extra_opcode = spv::OpSubgroup2DBlockLoadTransformINTEL;
    EXPECT_EQ(rulesBroken(q), std::vector<std::string>{"core.opcode_capability"});
}

TEST(CoreRules, SubgroupSizeNeedsDispatchAndVersion) {
    KernelParts p;
    p.subgroup_size = 16;
    EXPECT_EQ(rulesBroken(p), std::vector<std::string>{"core.subgroup_size_dispatch"});
    p.capabilities.push_back(spv::CapabilitySubgroupDispatch);
    p.version = 0x00010000;
    EXPECT_EQ(rulesBroken(p), std::vector<std::string>{"core.subgroup_size_version"});
}

TEST(CoreRules, KernelNeedsPhysicalAddressingAndOpenClMemoryModel) {
    KernelParts p;
    p.addressing = spv::AddressingModelLogical;
    EXPECT_EQ(rulesBroken(p), std::vector<std::string>{"core.kernel_memory_model"});
    p.addressing = spv::AddressingModelPhysical32;
    EXPECT_TRUE(rulesBroken(p).empty());
    p.memory_model = 1;  // GLSL450
    EXPECT_EQ(rulesBroken(p), std::vector<std::string>{"core.kernel_memory_model"});
}

TEST(CoreRules, ViolationNamesTheInstruction) {
    KernelParts p;
    p.extensions = {"SPV_INTEL_subgroups"};
    p.extra_opcode = spv::OpSubgroupShuffleINTEL;
    SpirvModule m = SpirvModule::parse(kernel(p));
    // Only the core set, as in rulesBroken: the subgroups set rightly flags the dummy operands.
    std::vector<Violation> v;
    for (const auto& x : checkModule(m))
        if (x.rule.rfind("core.", 0) == 0) v.push_back(x);
    ASSERT_EQ(v.size(), 1u);
    bool found = false;
    for (const auto& inst : m.instructions())
        if (inst.offset == v[0].word_offset) found = inst.opcode == spv::OpSubgroupShuffleINTEL;
    EXPECT_TRUE(found);
    EXPECT_NE(v[0].message.find("SubgroupShuffleINTEL"), std::string::npos);
}

}  // namespace
}  // namespace cts
