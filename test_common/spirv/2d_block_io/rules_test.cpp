// Tests of the "2d_block_io" rule set: a clean module per instruction passes; each broken rule is reported
// once, with the rule id and the instruction's offset.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_common/spirv/2d_block_io/rules.h"
#include "test_common/spirv/module_builder.h"
#include "test_common/spirv/spirv_headers.h"

namespace cts {
namespace {

using test::ModuleBuilder;

constexpr uint32_t kCrossWorkgroup = 5, kFunction = 7, kUniformConstant = 0;

// The parts of one 2D block instruction that the tests vary.
struct Parts {
    uint16_t opcode = spv::OpSubgroup2DBlockLoadINTEL;
    uint32_t shape[4] = {2, 16, 8, 1};  // Element Size, Block Width, Block Height, Block Count
    int non_constant = -1;              // shape operand given as a function parameter instead of a constant
    uint32_t shape_bits = 32;           // width of the shape constants' type
    uint32_t base_storage = kCrossWorkgroup;
    uint32_t private_storage = kFunction;
    uint32_t private_pointee_bits = 16;  // pointee of the private pointer (an integer of this width)
    uint32_t memory_bits = 32;
    uint32_t coord_components = 2, coord_bits = 32;
    bool coord_scalar = false;
    int drop_operand = -1;       // remove this operand (operand-count check)
    uint32_t subgroup_size = 0;  // OpExecutionMode SubgroupSize (with SubgroupDispatch) when non-zero
};

std::vector<uint32_t> build(const Parts& p) {
    ModuleBuilder b;
    uint32_t void_t = b.newId(), i32 = b.newId(), i64 = b.newId(), i16 = b.newId(), i8 = b.newId(),
             shape_t = p.shape_bits == 32 ? i32 : i64, fn_t = b.newId(), fn = b.newId(), label = b.newId();
    uint32_t base_ptr_t = b.newId(), priv_pointee = p.private_pointee_bits == 32 ? i32 : i16,
             priv_ptr_t = b.newId(), mem_t = p.memory_bits == 32 ? i32 : i64,
             coord_elem = p.coord_bits == 32 ? i32 : i64, coord_t = b.newId(), base = b.newId(),
             priv = b.newId(), coord = b.newId(), param = b.newId();
    uint32_t shape_ids[4], mem_ids[3];
    for (auto& id : shape_ids) id = b.newId();
    for (auto& id : mem_ids) id = b.newId();
    b.op(17, {spv::CapabilityAddresses})
        .op(17, {spv::CapabilityKernel})
        .op(17, {spv::CapabilitySubgroup2DBlockIOINTEL});
    b.op(17, {spv::CapabilitySubgroup2DBlockTransformINTEL})
        .op(17, {spv::CapabilitySubgroup2DBlockTransposeINTEL});
    b.op(17, {11}).op(17, {22}).op(17, {39});  // Int64, Int16, Int8
    if (p.subgroup_size) b.op(17, {spv::CapabilitySubgroupDispatch});
    b.op(10, ModuleBuilder::str("SPV_INTEL_2d_block_io"));
    b.op(14, {spv::AddressingModelPhysical64, spv::MemoryModelOpenCL});
    b.op(15, ModuleBuilder::cat({{6, fn}, ModuleBuilder::str("test")}));
    if (p.subgroup_size) b.op(16, {fn, spv::ExecutionModeSubgroupSize, p.subgroup_size});
    b.op(19, {void_t}).op(21, {i32, 32, 0}).op(21, {i64, 64, 0}).op(21, {i16, 16, 0}).op(21, {i8, 8, 0});
    b.op(32, {base_ptr_t, p.base_storage, i8});
    b.op(32, {priv_ptr_t, p.private_storage, priv_pointee});
    if (p.coord_scalar)
        coord_t = coord_elem;
    else
        b.op(23, {coord_t, coord_elem, p.coord_components});
    for (int k = 0; k < 4; ++k)
        if (k != p.non_constant) {
            if (shape_t == i64)
                b.op(43, {shape_t, shape_ids[k], p.shape[k], 0});
            else
                b.op(43, {shape_t, shape_ids[k], p.shape[k]});
        }
    b.op(33, {fn_t, void_t, base_ptr_t, mem_t, coord_t, i32});
    b.op(54, {void_t, fn, 0, fn_t});
    b.op(55, {base_ptr_t, base});
    b.op(55, {mem_t, mem_ids[0]});
    b.op(55, {coord_t, coord});
    b.op(55, {i32, param});
    b.op(248, {label});
    b.op(59, {priv_ptr_t, priv, p.private_storage});
    if (p.non_constant >= 0) shape_ids[p.non_constant] = param;
    mem_ids[1] = mem_ids[2] = mem_ids[0];
    std::vector<uint32_t> ops(shape_ids, shape_ids + 4);
    if (p.opcode == spv::OpSubgroup2DBlockStoreINTEL) {
        ops.insert(ops.end(), {priv, base, mem_ids[0], mem_ids[1], mem_ids[2], coord});
    } else {
        ops.insert(ops.end(), {base, mem_ids[0], mem_ids[1], mem_ids[2], coord});
        if (p.opcode != spv::OpSubgroup2DBlockPrefetchINTEL) ops.push_back(priv);
    }
    if (p.drop_operand >= 0) ops.erase(ops.begin() + p.drop_operand);
    b.op(p.opcode, ops);
    b.op(253).op(56);
    return b.words();
}

std::vector<std::string> broken(const Parts& p) {
    std::vector<Violation> v;
    check2dBlockIoRules(SpirvModule::parse(build(p)), v);
    std::vector<std::string> rules;
    for (const auto& x : v) rules.push_back(x.rule);
    return rules;
}

using Rules = std::vector<std::string>;

const uint16_t kAllOps[] = {spv::OpSubgroup2DBlockLoadINTEL, spv::OpSubgroup2DBlockLoadTransformINTEL,
                            spv::OpSubgroup2DBlockLoadTransposeINTEL, spv::OpSubgroup2DBlockPrefetchINTEL,
                            spv::OpSubgroup2DBlockStoreINTEL};

Parts clean(uint16_t opcode) {
    Parts p;
    p.opcode = opcode;
    if (opcode == spv::OpSubgroup2DBlockLoadTransformINTEL) p.private_pointee_bits = 32;
    return p;
}

TEST(BlockIo2dRules, RuleSetIsRegistered) {
    auto sets = ruleSets();
    EXPECT_TRUE(
        std::any_of(sets.begin(), sets.end(), [](const auto& s) { return s.first == "2d_block_io"; }));
}

TEST(BlockIo2dRules, CleanModulesPass) {
    for (uint16_t op : kAllOps) {
        EXPECT_EQ(broken(clean(op)), Rules{}) << op;
        // The whole checker (core rules included) accepts it too.
        EXPECT_TRUE(checkModule(SpirvModule::parse(build(clean(op)))).empty()) << op;
    }
}

// The spec maps blocks at any power-of-two sub-group size; the OpenCL environment's table names 16, but a
// module at SubgroupSize 32 (the 2d_block_io.sg32.* cases, device-specific) is valid SPIR-V: no rule rejects
// it, at 16 or 32, in the 2D rule set or the whole checker.
TEST(BlockIo2dRules, SubgroupSize32ModulesPass) {
    for (uint32_t size : {16u, 32u})
        for (uint16_t op : kAllOps) {
            Parts p = clean(op);
            p.subgroup_size = size;
            if (op == spv::OpSubgroup2DBlockLoadINTEL) p.shape[0] = 1, p.shape[1] = 64, p.shape[2] = 4;
            EXPECT_EQ(broken(p), Rules{}) << op << " at " << size;
            EXPECT_TRUE(checkModule(SpirvModule::parse(build(p))).empty()) << op << " at " << size;
        }
}

TEST(BlockIo2dRules, OperandCount) {
    for (uint16_t op : kAllOps) {
        Parts p = clean(op);
        p.drop_operand = 5;
        EXPECT_EQ(broken(p), Rules{"2d_block_io.operand_count"}) << op;
    }
}

// "These operands must be constant instructions with scalar 32-bit integer type."
TEST(BlockIo2dRules, ShapeOperandsAreConstant32BitIntegers) {
    for (uint16_t op : kAllOps)
        for (int k = 0; k < 4; ++k) {
            Parts p = clean(op);
            p.non_constant = k;
            EXPECT_EQ(broken(p), Rules{"2d_block_io.shape_operand_constant_i32"}) << op << " operand " << k;
        }
    Parts wide = clean(spv::OpSubgroup2DBlockLoadINTEL);
    wide.shape_bits = 64;
    EXPECT_EQ(broken(wide), Rules(4, "2d_block_io.shape_operand_constant_i32"));
}

// "The Element Size must be 1, 2, 4, or 8 bytes."
TEST(BlockIo2dRules, ElementSize) {
    for (uint32_t e : {0u, 3u, 16u}) {
        Parts p = clean(spv::OpSubgroup2DBlockPrefetchINTEL);
        p.shape[0] = e;
        EXPECT_EQ(broken(p), Rules{"2d_block_io.element_size"}) << e;
    }
    for (uint32_t e : {1u, 2u, 4u, 8u}) {
        Parts p = clean(spv::OpSubgroup2DBlockLoadINTEL);
        p.shape[0] = e, p.shape[1] = 16;
        EXPECT_EQ(broken(p), Rules{}) << e;
    }
}

// "The Block Width must be a multiple of four for 1-byte elements, or a multiple of two for 2-byte elements."
TEST(BlockIo2dRules, BlockWidthMultiple) {
    Parts p = clean(spv::OpSubgroup2DBlockLoadTransformINTEL);
    p.shape[0] = 1, p.shape[1] = 6;
    EXPECT_EQ(broken(p), Rules{"2d_block_io.block_width_multiple"});
    p.shape[0] = 2, p.shape[1] = 5;
    EXPECT_EQ(broken(p), Rules{"2d_block_io.block_width_multiple"});
    p.shape[0] = 2, p.shape[1] = 6;
    EXPECT_EQ(broken(p), Rules{});
    p.shape[0] = 4, p.shape[1] = 5;  // no width rule for 4-byte elements
    EXPECT_EQ(broken(p), Rules{});
    Parts z = clean(spv::OpSubgroup2DBlockStoreINTEL);
    z.shape[3] = 0;
    EXPECT_EQ(broken(z), Rules{"2d_block_io.shape_nonzero"});
}

// Src Base Pointer / Dst Base Pointer: CrossWorkgroup; Dst Pointer (loads) / Src Pointer (store): Function.
TEST(BlockIo2dRules, PointerStorageClasses) {
    for (uint16_t op : kAllOps) {
        Parts p = clean(op);
        p.base_storage = kUniformConstant;
        EXPECT_EQ(broken(p), Rules{"2d_block_io.base_pointer_storage_class"}) << op;
        if (op == spv::OpSubgroup2DBlockPrefetchINTEL) continue;
        Parts q = clean(op);
        q.private_storage = kCrossWorkgroup;
        EXPECT_EQ(broken(q), Rules{"2d_block_io.private_pointer_storage_class"}) << op;
    }
}

// "If it is an OpTypePointer pointer, it must point to a scalar 32-bit integer type."
TEST(BlockIo2dRules, TransformDestinationIs32Bit) {
    Parts p = clean(spv::OpSubgroup2DBlockLoadTransformINTEL);
    p.private_pointee_bits = 16;
    EXPECT_EQ(broken(p), Rules{"2d_block_io.transform_destination_i32"});
    Parts load = clean(spv::OpSubgroup2DBlockLoadINTEL);  // plain loads take any element type
    EXPECT_EQ(broken(load), Rules{});
}

// "These operands must be integer type scalars" and the OpenCL environment's 32-bit restriction.
TEST(BlockIo2dRules, MemoryOperandsAndCoordinate) {
    Parts p = clean(spv::OpSubgroup2DBlockStoreINTEL);
    p.memory_bits = 64;
    EXPECT_EQ(broken(p), Rules(3, "2d_block_io.opencl.memory_operand_32bit"));
    Parts c = clean(spv::OpSubgroup2DBlockLoadINTEL);
    c.coord_components = 3;
    EXPECT_EQ(broken(c), Rules{"2d_block_io.coordinate_vector"});
    c.coord_components = 2, c.coord_scalar = true;
    EXPECT_EQ(broken(c), Rules{"2d_block_io.coordinate_vector"});
    c.coord_scalar = false, c.coord_bits = 64;
    EXPECT_EQ(broken(c), Rules{"2d_block_io.opencl.coordinate_32bit"});
}

TEST(BlockIo2dRules, ViolationCitesRuleAndInstruction) {
    Parts p = clean(spv::OpSubgroup2DBlockLoadINTEL);
    p.shape[0] = 3;
    SpirvModule m = SpirvModule::parse(build(p));
    std::vector<Violation> v;
    check2dBlockIoRules(m, v);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_NE(v[0].message.find("must be 1, 2, 4, or 8"), std::string::npos) << v[0].message;
    EXPECT_NE(v[0].message.find("OpSubgroup2DBlockLoadINTEL"), std::string::npos);
    auto it = std::find_if(m.instructions().begin(), m.instructions().end(),
                           [&](const SpirvInstruction& i) { return i.offset == v[0].word_offset; });
    ASSERT_NE(it, m.instructions().end());
    EXPECT_EQ(it->opcode, spv::OpSubgroup2DBlockLoadINTEL);
}

}  // namespace
}  // namespace cts
