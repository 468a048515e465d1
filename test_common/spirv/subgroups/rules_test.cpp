// Tests of the "subgroups" rule set: a clean module per instruction passes; each broken operand-type sentence
// is reported once, with the rule id and the instruction's offset.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_common/spirv/module_builder.h"
#include "test_common/spirv/spirv_headers.h"
#include "test_common/spirv/subgroups/rules.h"

namespace cts {
namespace {

using test::ModuleBuilder;

// The types a test may give an operand.
// PtrI32 / PtrV4I32 point to CrossWorkgroup, LocalPtrI32 / LocalPtrV4I32 to Workgroup.
enum class Ty {
    I32,
    I64,
    I16,
    U8,
    F32,
    V4I32,
    V2I32,
    V4F32,
    PtrI32,
    PtrV4I32,
    Image,
    Image1,
    LocalPtrI32,
    LocalPtrV4I32
};

const char* name(Ty t) {
    static const char* kNames[] = {"i32",           "i64",
                                   "i16",           "i8",
                                   "f32",           "v4i32",
                                   "v2i32",         "v4f32",
                                   "ptr_i32",       "ptr_v4i32",
                                   "image",         "image_sampled1",
                                   "local_ptr_i32", "local_ptr_v4i32"};
    return kNames[int(t)];
}

// One instruction: the type of its Result (reads and shuffles) and of each <id> operand.
struct Parts {
    uint16_t opcode;
    Ty result;
    std::vector<Ty> operands;
};

std::ostream& operator<<(std::ostream& os, const Parts& p) {
    os << "opcode " << p.opcode << " result " << name(p.result) << " operands";
    for (Ty t : p.operands) os << ' ' << name(t);
    return os;
}

struct Built {
    std::vector<uint32_t> words;
    uint32_t offset = 0;  // word offset of the instruction under test
};

Built build(const Parts& p) {
    ModuleBuilder b;
    uint32_t void_t = b.newId(), fn_t = b.newId(), fn = b.newId(), label = b.newId();
    uint32_t ids[14];
    for (uint32_t& id : ids) id = b.newId();
    auto id = [&](Ty t) { return ids[int(t)]; };
    b.op(17, {spv::CapabilityAddresses}).op(17, {spv::CapabilityKernel}).op(17, {13});  // ImageBasic
    b.op(17, {11}).op(17, {22}).op(17, {39});                                           // Int64, Int16, Int8
    b.op(17, {spv::CapabilitySubgroupShuffleINTEL}).op(17, {spv::CapabilitySubgroupBufferBlockIOINTEL});
    b.op(17, {spv::CapabilitySubgroupImageBlockIOINTEL});
    b.op(10, ModuleBuilder::str("SPV_INTEL_subgroups"));
    b.op(14, {spv::AddressingModelPhysical64, spv::MemoryModelOpenCL});
    b.op(15, ModuleBuilder::cat({{6, fn}, ModuleBuilder::str("test")}));
    b.op(19, {void_t});
    b.op(21, {id(Ty::I32), 32, 0}).op(21, {id(Ty::I64), 64, 0}).op(21, {id(Ty::I16), 16, 0});
    b.op(21, {id(Ty::U8), 8, 0}).op(22, {id(Ty::F32), 32});
    b.op(23, {id(Ty::V4I32), id(Ty::I32), 4}).op(23, {id(Ty::V2I32), id(Ty::I32), 2});
    b.op(23, {id(Ty::V4F32), id(Ty::F32), 4});
    b.op(32, {id(Ty::PtrI32), 5, id(Ty::I32)}).op(32, {id(Ty::PtrV4I32), 5, id(Ty::V4I32)});
    b.op(32, {id(Ty::LocalPtrI32), 4, id(Ty::I32)}).op(32, {id(Ty::LocalPtrV4I32), 4, id(Ty::V4I32)});
    // OpTypeImage: Sampled Type, Dim 2D, Depth, Arrayed, MS, Sampled, Format Unknown, read-write.
    b.op(25, {id(Ty::Image), void_t, 1, 0, 0, 0, 0, 0, 2});
    b.op(25, {id(Ty::Image1), void_t, 1, 0, 0, 0, 1, 0, 0});
    std::vector<uint32_t> params;
    std::vector<uint32_t> fn_type = {fn_t, void_t};
    for (Ty t : p.operands) fn_type.push_back(id(t)), params.push_back(b.newId());
    b.op(33, fn_type);
    b.op(54, {void_t, fn, 0, fn_t});
    for (size_t k = 0; k < params.size(); ++k) b.op(55, {id(p.operands[k]), params[k]});
    b.op(248, {label});
    bool has_result =
        p.opcode != spv::OpSubgroupBlockWriteINTEL && p.opcode != spv::OpSubgroupImageBlockWriteINTEL;
    std::vector<uint32_t> ops = params;
    if (has_result) ops.insert(ops.begin(), {id(p.result), b.newId()});
    Built out;
    out.offset = uint32_t(b.words().size());
    b.op(p.opcode, ops);
    b.op(253).op(56);
    out.words = b.words();
    return out;
}

using Rules = std::vector<std::string>;

Rules broken(const Parts& p) {
    std::vector<Violation> v;
    Built m = build(p);
    checkSubgroupsRules(SpirvModule::parse(m.words), v);
    Rules rules;
    for (const auto& x : v) {
        EXPECT_EQ(x.word_offset, m.offset) << x.rule << ": " << x.message;
        rules.push_back(x.rule);
    }
    return rules;
}

// One clean form of each instruction, with the types the suite's modules use.
const Parts kClean[] = {
    {spv::OpSubgroupShuffleINTEL, Ty::V4I32, {Ty::V4I32, Ty::I32}},
    {spv::OpSubgroupShuffleDownINTEL, Ty::F32, {Ty::F32, Ty::F32, Ty::I32}},
    {spv::OpSubgroupShuffleUpINTEL, Ty::I64, {Ty::I64, Ty::I64, Ty::I32}},
    {spv::OpSubgroupShuffleXorINTEL, Ty::I16, {Ty::I16, Ty::I32}},
    {spv::OpSubgroupBlockReadINTEL, Ty::V4I32, {Ty::PtrI32}},
    {spv::OpSubgroupBlockWriteINTEL, Ty::I32, {Ty::PtrI32, Ty::V2I32}},
    {spv::OpSubgroupImageBlockReadINTEL, Ty::V4I32, {Ty::Image, Ty::V2I32}},
    {spv::OpSubgroupImageBlockWriteINTEL, Ty::I32, {Ty::Image, Ty::V2I32, Ty::I32}},
};

TEST(SubgroupsRules, RuleSetIsRegistered) {
    auto sets = ruleSets();
    EXPECT_TRUE(std::any_of(sets.begin(), sets.end(), [](const auto& s) { return s.first == "subgroups"; }));
}

TEST(SubgroupsRules, CleanModulesPass) {
    for (const Parts& p : kClean) {
        EXPECT_EQ(broken(p), Rules{}) << p;
        EXPECT_TRUE(checkModule(SpirvModule::parse(build(p).words)).empty()) << p;
    }
    // Valid SPIR-V beyond the OpenCL environment's list is still valid: 8-bit data, float vectors.
    EXPECT_EQ(broken({spv::OpSubgroupShuffleXorINTEL, Ty::U8, {Ty::U8, Ty::I32}}), Rules{});
    EXPECT_EQ(broken({spv::OpSubgroupShuffleINTEL, Ty::V4F32, {Ty::V4F32, Ty::I32}}), Rules{});
}

// The spec names no storage class for Ptr: a Workgroup Ptr is valid SPIR-V (the OpenCL environment promises
// CrossWorkgroup; cl_intel_subgroup_local_block_io adds Workgroup), and the operand rules apply to it alike.
TEST(SubgroupsRules, BlockOnWorkgroupPointer) {
    EXPECT_EQ(broken({spv::OpSubgroupBlockReadINTEL, Ty::V4I32, {Ty::LocalPtrI32}}), Rules{});
    EXPECT_EQ(broken({spv::OpSubgroupBlockWriteINTEL, Ty::I32, {Ty::LocalPtrI32, Ty::V2I32}}), Rules{});
    EXPECT_EQ(broken({spv::OpSubgroupBlockReadINTEL, Ty::V4I32, {Ty::LocalPtrV4I32}}),
              Rules{"subgroups.block_pointer"});
    EXPECT_EQ(broken({spv::OpSubgroupBlockWriteINTEL, Ty::I32, {Ty::LocalPtrI32, Ty::I16}}),
              Rules{"subgroups.block_component_type"});
}

TEST(SubgroupsRules, OperandCount) {
    for (Parts p : kClean) {
        p.operands.pop_back();
        EXPECT_EQ(broken(p), Rules{"subgroups.operand_count"}) << p;
    }
}

// "The type of Data / Current and Next / Previous and Current must be the same as Result Type."
TEST(SubgroupsRules, ShuffleDataTypeIsResultType) {
    EXPECT_EQ(broken({spv::OpSubgroupShuffleINTEL, Ty::V4I32, {Ty::V4F32, Ty::I32}}),
              Rules{"subgroups.shuffle_data_type"});
    EXPECT_EQ(broken({spv::OpSubgroupShuffleXorINTEL, Ty::I32, {Ty::I64, Ty::I32}}),
              Rules{"subgroups.shuffle_data_type"});
    EXPECT_EQ(broken({spv::OpSubgroupShuffleDownINTEL, Ty::F32, {Ty::F32, Ty::I32, Ty::I32}}),
              Rules{"subgroups.shuffle_data_type"});
    EXPECT_EQ(broken({spv::OpSubgroupShuffleUpINTEL, Ty::I64, {Ty::I32, Ty::I64, Ty::I32}}),
              Rules{"subgroups.shuffle_data_type"});
    EXPECT_EQ(broken({spv::OpSubgroupShuffleUpINTEL, Ty::I64, {Ty::I32, Ty::I32, Ty::I32}}),
              Rules(2, "subgroups.shuffle_data_type"));
}

// "Result Type may be a scalar or vector type."
TEST(SubgroupsRules, ShuffleResultScalarOrVector) {
    EXPECT_EQ(broken({spv::OpSubgroupShuffleINTEL, Ty::PtrI32, {Ty::PtrI32, Ty::I32}}),
              Rules{"subgroups.data_scalar_or_vector"});
}

// "InvocationId / Delta / Value must be a 32-bit integer type scalar." A 64-bit Value is the audit's example.
TEST(SubgroupsRules, ShuffleIndexIs32BitIntegerScalar) {
    EXPECT_EQ(broken({spv::OpSubgroupShuffleXorINTEL, Ty::I32, {Ty::I32, Ty::I64}}),
              Rules{"subgroups.shuffle_index_i32"});
    EXPECT_EQ(broken({spv::OpSubgroupShuffleINTEL, Ty::I32, {Ty::I32, Ty::I16}}),
              Rules{"subgroups.shuffle_index_i32"});
    EXPECT_EQ(broken({spv::OpSubgroupShuffleDownINTEL, Ty::I32, {Ty::I32, Ty::I32, Ty::F32}}),
              Rules{"subgroups.shuffle_index_i32"});
    EXPECT_EQ(broken({spv::OpSubgroupShuffleUpINTEL, Ty::I32, {Ty::I32, Ty::I32, Ty::V2I32}}),
              Rules{"subgroups.shuffle_index_i32"});
}

// "The type of Ptr must be a pointer type, and must point to a scalar type."
TEST(SubgroupsRules, BlockPointerToScalar) {
    EXPECT_EQ(broken({spv::OpSubgroupBlockReadINTEL, Ty::I32, {Ty::I32}}), Rules{"subgroups.block_pointer"});
    EXPECT_EQ(broken({spv::OpSubgroupBlockReadINTEL, Ty::V4I32, {Ty::PtrV4I32}}),
              Rules{"subgroups.block_pointer"});
    EXPECT_EQ(broken({spv::OpSubgroupBlockWriteINTEL, Ty::I32, {Ty::PtrV4I32, Ty::V4I32}}),
              Rules{"subgroups.block_pointer"});
}

// "its component type must be equal to the type pointed to by Ptr" / "The component type of Data must be
// equal to the type pointed to by Ptr."
TEST(SubgroupsRules, BlockComponentTypeIsPointee) {
    EXPECT_EQ(broken({spv::OpSubgroupBlockReadINTEL, Ty::V4F32, {Ty::PtrI32}}),
              Rules{"subgroups.block_component_type"});
    EXPECT_EQ(broken({spv::OpSubgroupBlockReadINTEL, Ty::I64, {Ty::PtrI32}}),
              Rules{"subgroups.block_component_type"});
    EXPECT_EQ(broken({spv::OpSubgroupBlockWriteINTEL, Ty::I32, {Ty::PtrI32, Ty::I16}}),
              Rules{"subgroups.block_component_type"});
    EXPECT_EQ(broken({spv::OpSubgroupBlockWriteINTEL, Ty::I32, {Ty::PtrI32, Ty::PtrI32}}),
              Rules{"subgroups.data_scalar_or_vector"});
}

// "Image must be an object whose type is OpTypeImage with a Sampled operand of 0 or 2."
// "Coordinate is an integer scalar or vector." "Result Type may be a scalar or vector type."
TEST(SubgroupsRules, ImageBlockOperands) {
    const uint16_t kImageOps[] = {spv::OpSubgroupImageBlockReadINTEL, spv::OpSubgroupImageBlockWriteINTEL};
    for (uint16_t op : kImageOps) {
        bool write = op == spv::OpSubgroupImageBlockWriteINTEL;
        auto parts = [&](Ty image, Ty coord, Ty data) {
            Parts p{op, data, {image, coord}};
            if (write) p.operands.push_back(data);
            return p;
        };
        EXPECT_EQ(broken(parts(Ty::I32, Ty::V2I32, Ty::I32)), Rules{"subgroups.image_type"}) << op;
        EXPECT_EQ(broken(parts(Ty::Image1, Ty::V2I32, Ty::I32)), Rules{"subgroups.image_sampled"}) << op;
        EXPECT_EQ(broken(parts(Ty::Image, Ty::V4F32, Ty::I32)), Rules{"subgroups.image_coordinate"}) << op;
        EXPECT_EQ(broken(parts(Ty::Image, Ty::I32, Ty::I32)), Rules{})
            << op;  // a scalar Coordinate is allowed
        EXPECT_EQ(broken(parts(Ty::Image, Ty::V2I32, Ty::PtrI32)), Rules{"subgroups.data_scalar_or_vector"})
            << op;
    }
}

TEST(SubgroupsRules, ViolationCitesRuleAndInstruction) {
    Parts p{spv::OpSubgroupShuffleXorINTEL, Ty::I32, {Ty::I32, Ty::I64}};
    SpirvModule m = SpirvModule::parse(build(p).words);
    std::vector<Violation> v = checkModule(m);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].rule, "subgroups.shuffle_index_i32");
    EXPECT_NE(v[0].message.find("Value must be a 32-bit integer type scalar"), std::string::npos)
        << v[0].message;
    EXPECT_NE(v[0].message.find("OpSubgroupShuffleXorINTEL"), std::string::npos);
}

}  // namespace
}  // namespace cts
