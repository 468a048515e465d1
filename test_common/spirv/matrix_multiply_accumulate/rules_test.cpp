// Tests of the "matrix_multiply_accumulate" rule set: a clean module per OpenCL environment table row passes;
// each broken rule is reported once, with the rule id and the instruction's offset.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "test_common/spirv/matrix_multiply_accumulate/operands.h"
#include "test_common/spirv/matrix_multiply_accumulate/rules.h"
#include "test_common/spirv/module_builder.h"
#include "test_common/spirv/spirv_headers.h"

namespace cts {
namespace {

using test::ModuleBuilder;

// A scalar (count 0) or vector operand type: kind 'i' integer, 'f' float, 'b' bool.
struct T {
    char kind = 'i';
    uint32_t width = 32;
    uint32_t count = 0;
};

T vec(char kind, uint32_t width, uint32_t m) {
    return {kind, width, m == 1 ? 0 : m};
}

enum class KDim { Constant32, Constant64, Parameter };

// The parts of one OpSubgroupMatrixMultiplyAccumulateINTEL module that the tests vary. The default is the
// N = 8, K = 32 int8 row at M = 8.
struct Parts {
    uint32_t subgroup_size = 0;  // SubgroupSize execution mode of the kernel, 0 for none
    uint32_t k = 32;
    KDim kdim = KDim::Constant32;
    T result = vec('i', 32, 8), a = vec('i', 32, 8), b = vec('i', 32, 8), c = vec('i', 32, 8);
    bool has_mask = true;
    uint32_t mask = CTS_MMA_BIT(APackedInt8) | CTS_MMA_BIT(BPackedInt8);
    bool capability = true, extension = true;
    bool in_helper = false;  // the instruction sits in a function the kernel calls
    bool drop_c = false;     // leave Matrix C out (operand-count check)
};

std::vector<uint32_t> build(const Parts& p) {
    ModuleBuilder b;
    uint32_t void_t = b.newId(), bool_t = b.newId(), i16 = b.newId(), i32 = b.newId(), i64 = b.newId(),
             f16 = b.newId(), f32 = b.newId(), fn_t = b.newId(), kernel = b.newId(), kconst = b.newId();
    std::map<std::pair<char, uint32_t>, uint32_t> scalars = {{{'b', 0}, bool_t}, {{'i', 16}, i16},
                                                             {{'i', 32}, i32},   {{'i', 64}, i64},
                                                             {{'f', 16}, f16},   {{'f', 32}, f32}};
    std::map<std::tuple<char, uint32_t, uint32_t>, uint32_t> vectors;
    auto type_of = [&](const T& t) {
        uint32_t scalar = scalars.at({t.kind, t.kind == 'b' ? 0 : t.width});
        if (!t.count) return scalar;
        auto key = std::make_tuple(t.kind, t.kind == 'b' ? 0 : t.width, t.count);
        if (!vectors.count(key)) vectors[key] = b.newId();
        return vectors[key];
    };
    uint32_t result_t = type_of(p.result), a_t = type_of(p.a), b_t = type_of(p.b), c_t = type_of(p.c);

    b.op(17, {spv::CapabilityAddresses}).op(17, {spv::CapabilityKernel});
    b.op(17, {11}).op(17, {22}).op(17, {9}).op(17, {7});  // Int64, Int16, Float16, Vector16
    if (p.subgroup_size) b.op(17, {spv::CapabilitySubgroupDispatch});
    if (p.capability) b.op(17, {spv::CapabilitySubgroupMatrixMultiplyAccumulateINTEL});
    if (p.extension) b.op(10, ModuleBuilder::str("SPV_INTEL_subgroup_matrix_multiply_accumulate"));
    b.op(14, {spv::AddressingModelPhysical64, spv::MemoryModelOpenCL});
    b.op(15, ModuleBuilder::cat({{6, kernel}, ModuleBuilder::str("test")}));
    if (p.subgroup_size) b.op(16, {kernel, spv::ExecutionModeSubgroupSize, p.subgroup_size});
    b.op(19, {void_t}).op(20, {bool_t});
    b.op(21, {i16, 16, 0}).op(21, {i32, 32, 0}).op(21, {i64, 64, 0}).op(22, {f16, 16}).op(22, {f32, 32});
    for (const auto& [key, id] : vectors)
        b.op(23, {id, scalars.at({std::get<0>(key), std::get<1>(key)}), std::get<2>(key)});
    if (p.kdim == KDim::Constant64)
        b.op(43, {i64, kconst, p.k, 0});
    else if (p.kdim == KDim::Constant32)
        b.op(43, {i32, kconst, p.k});
    b.op(33, {fn_t, void_t, a_t, b_t, c_t, i32});

    // fn(a, b, c, k): the multiply-accumulate, or (for the kernel when in_helper) a call of the helper.
    auto function = [&](uint32_t fn, uint32_t helper) {
        uint32_t a = b.newId(), bb = b.newId(), c = b.newId(), param = b.newId(), label = b.newId();
        b.op(54, {void_t, fn, 0, fn_t});
        b.op(55, {a_t, a}).op(55, {b_t, bb}).op(55, {c_t, c}).op(55, {i32, param});
        b.op(248, {label});
        if (helper) {
            b.op(57, {void_t, b.newId(), helper, a, bb, c, param});
        } else {
            std::vector<uint32_t> ops = {result_t, b.newId(), p.kdim == KDim::Parameter ? param : kconst, a,
                                         bb};
            if (!p.drop_c) ops.push_back(c);
            if (p.has_mask) ops.push_back(p.mask);
            b.op(spv::OpSubgroupMatrixMultiplyAccumulateINTEL, ops);
        }
        b.op(253).op(56);
    };
    if (p.in_helper) {
        uint32_t helper = b.newId();
        function(kernel, helper);
        function(helper, 0);
    } else {
        function(kernel, 0);
    }
    return b.words();
}

uint32_t mmaOffset(const SpirvModule& m) {
    for (const auto& inst : m.instructions())
        if (inst.opcode == spv::OpSubgroupMatrixMultiplyAccumulateINTEL) return inst.offset;
    return 0;
}

std::vector<Violation> violations(const Parts& p) {
    std::vector<Violation> v;
    checkMmaRules(SpirvModule::parse(build(p)), v);
    return v;
}

using Rules = std::vector<std::string>;

Rules broken(const Parts& p) {
    Rules rules;
    for (const auto& x : violations(p)) rules.push_back(x.rule);
    return rules;
}

// Exactly one violation of `rule`, at the multiply-accumulate instruction; returns its message.
std::string onlyViolation(const Parts& p, const std::string& rule) {
    SpirvModule m = SpirvModule::parse(build(p));
    std::vector<Violation> v;
    checkMmaRules(m, v);
    EXPECT_EQ(v.size(), 1u);
    if (v.size() != 1) {
        for (const auto& x : v) ADD_FAILURE() << x.rule << ": " << x.message;
        return "";
    }
    EXPECT_EQ(v[0].rule, rule) << v[0].message;
    EXPECT_EQ(v[0].word_offset, mmaOffset(m));
    EXPECT_NE(v[0].word_offset, 0u);
    EXPECT_EQ(v[0].message.rfind("OpSubgroupMatrixMultiplyAccumulateINTEL: ", 0), 0u) << v[0].message;
    return v[0].message;
}

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

// The OpenCL environment table, written out independently of rules.cpp: element types of Result (= C)
// and A, whether A has ceil(M/2) components, B's element kind, and one accepted mask (from operands.h's
// pairs, which MmaOperands.PairsAreTheSpecBits checks against the spec).
struct TableRow {
    uint32_t n, k;
    char result_kind;
    uint32_t result_width;
    char a_kind;
    uint32_t a_width;
    bool a_half;
    char b_kind;
    uint32_t mask;
};

const TableRow kTable[] = {
    {8, 32, 'i', 32, 'i', 32, false, 'i', kMmaInt8},
    {8, 32, 'i', 32, 'i', 32, false, 'i', kMmaInt8 | CTS_MMA_BIT(ASignedComponents)},
    {8, 32, 'i', 32, 'i', 32, false, 'i', kMmaInt8 | kMmaSigned},
    {8, 64, 'i', 32, 'i', 32, false, 'i', kMmaInt4},
    {8, 64, 'i', 32, 'i', 32, false, 'i', kMmaInt4 | CTS_MMA_BIT(BSignedComponents)},
    {8, 16, 'f', 32, 'i', 32, false, 'i', kMmaFp16},
    {8, 16, 'f', 32, 'i', 32, false, 'i', kMmaBf16},
    {16, 32, 'i', 32, 'i', 16, false, 'i', kMmaInt8},
    {16, 32, 'i', 32, 'i', 16, false, 'i', kMmaInt8 | kMmaSigned},
    {16, 64, 'i', 32, 'i', 16, false, 'i', kMmaInt4},
    {16, 64, 'i', 32, 'i', 16, false, 'i', kMmaInt4 | CTS_MMA_BIT(ASignedComponents)},
    {16, 16, 'f', 32, 'i', 16, false, 'i', kMmaFp16},
    {16, 16, 'f', 32, 'i', 16, false, 'i', kMmaBf16},
    {16, 16, 'f', 16, 'i', 16, false, 'i', kMmaFp16},
    {16, 16, 'i', 16, 'i', 16, false, 'i', kMmaBf16 | CTS_MMA_BIT(CBFloat16) | CTS_MMA_BIT(ResultBFloat16)},
    {16, 8, 'f', 32, 'f', 32, true, 'f', kMmaTf32},
};

Parts row(const TableRow& r, uint32_t m, uint32_t subgroup_size) {
    Parts p;
    p.subgroup_size = subgroup_size;
    p.k = r.k;
    p.result = p.c = vec(r.result_kind, r.result_width, m);
    p.a = vec(r.a_kind, r.a_width, r.a_half ? (m + 1) / 2 : m);
    p.b = vec(r.b_kind, 32, 8);
    p.mask = r.mask;
    return p;
}

// N = 16 rows, by name, at M = 8.
Parts n16(uint32_t k, uint32_t mask, char result_kind = 'i', uint32_t result_width = 32) {
    for (const TableRow& r : kTable)
        if (r.n == 16 && r.k == k && r.mask == mask && r.result_kind == result_kind &&
            r.result_width == result_width)
            return row(r, 8, 16);
    ADD_FAILURE() << "no such row";
    return {};
}

// The pairs rules.cpp and the table above share, against the bit values of the extension's Matrix Multiply
// Accumulate Operands table (MatrixASignedComponentsINTEL 0x1 ... MatrixBPackedBFloat16INTEL 0x2000).
TEST(MmaOperands, PairsAreTheSpecBits) {
    EXPECT_EQ(kMmaSigned, 0x1u | 0x2u);
    EXPECT_EQ(kMmaInt8, 0x10u | 0x20u);
    EXPECT_EQ(kMmaInt4, 0x40u | 0x80u);
    EXPECT_EQ(kMmaTf32, 0x100u | 0x200u);
    EXPECT_EQ(kMmaFp16, 0x400u | 0x800u);
    EXPECT_EQ(kMmaBf16, 0x1000u | 0x2000u);
}

TEST(MmaRules, RuleSetIsRegistered) {
    auto sets = ruleSets();
    EXPECT_TRUE(std::any_of(sets.begin(), sets.end(),
                            [](const auto& s) { return s.first == "matrix_multiply_accumulate"; }));
}

TEST(MmaRules, CleanModulePerTableRowPasses) {
    for (const TableRow& r : kTable)
        for (uint32_t m : {1u, 2u, 4u, 8u})
            for (uint32_t size : {0u, r.n}) {
                Parts p = row(r, m, size);
                EXPECT_EQ(broken(p), Rules{}) << "N=" << r.n << " K=" << r.k << " mask " << r.mask
                                              << " M=" << m << " SubgroupSize " << size;
                // The whole checker (core rules included) accepts it too.
                EXPECT_TRUE(checkModule(SpirvModule::parse(build(p))).empty()) << r.n << " " << r.k;
            }
}

TEST(MmaRules, CleanScalarAndVectorCases) {
    Parts scalar = row(kTable[0], 1, 8);  // M = 1: Result, A and C are scalar i32
    EXPECT_EQ(scalar.result.count, 0u);
    EXPECT_EQ(broken(scalar), Rules{});
    Parts tf32 = row(kTable[15], 2, 16);  // M = 2: A is ceil(2/2) = 1, a scalar f32
    EXPECT_EQ(tf32.a.count, 0u);
    EXPECT_EQ(broken(tf32), Rules{});
    EXPECT_EQ(broken(row(kTable[15], 8, 16)), Rules{});  // M = 8: A is 4 x f32
}

TEST(MmaRules, OperandCount) {
    Parts p;
    p.drop_c = true, p.has_mask = false;  // three operands
    onlyViolation(p, "mma.operand_count");
}

// "It must come from a constant instruction with scalar 32-bit integer type."
TEST(MmaRules, KDimFromFunctionParameter) {
    Parts p;
    p.kdim = KDim::Parameter;
    std::string msg = onlyViolation(p, "mma.kdim_constant");
    EXPECT_TRUE(contains(msg, "constant instruction with scalar 32-bit integer type")) << msg;
}

TEST(MmaRules, KDim64BitConstant) {
    Parts p;
    p.kdim = KDim::Constant64;
    std::string msg = onlyViolation(p, "mma.kdim_constant");
    EXPECT_TRUE(contains(msg, "64-bit integer OpConstant")) << msg;
}

TEST(MmaRules, KDimWithoutRow) {
    Parts p;
    p.k = 48;
    std::string msg = onlyViolation(p, "mma.table_row");
    EXPECT_TRUE(contains(msg,
                         "no row has K=48 (the table has K=16, K=32, K=64 at N = 8; K=8, K=16, K=32, "
                         "K=64 at N = 16)"))
        << msg;
}

// "The number of components in Result Type defines the M dimension"; the table has M = 1, 2, 4, 8.
TEST(MmaRules, MDimension) {
    for (uint32_t m : {3u, 16u}) {
        Parts p;
        p.result = p.a = p.c = vec('i', 32, m);
        std::string msg = onlyViolation(p, "mma.m_dimension");
        EXPECT_TRUE(contains(msg, "so M is " + std::to_string(m))) << msg;
    }
}

// "The type of Matrix A must be a scalar or vector of floating-point or integer type." (and Result, B, C)
TEST(MmaRules, OperandTypes) {
    Parts p;
    p.a = {'b', 0, 8};
    std::string msg = onlyViolation(p, "mma.operand_types");
    EXPECT_TRUE(contains(msg, "Matrix A")) << msg;
    EXPECT_TRUE(contains(msg, "a vector of bool")) << msg;
    Parts q;
    q.result = q.b = {'b', 0, 0};
    EXPECT_EQ(broken(q), Rules(2, "mma.operand_types"));
}

TEST(MmaRules, FloatAWithIntegerRows) {
    Parts p;
    p.a = vec('f', 32, 8);
    std::string msg = onlyViolation(p, "mma.table_row");
    EXPECT_TRUE(contains(msg, "A is 8 x f32, the row for K=32 int8 at N=8 needs M x i32 = 8 x i32")) << msg;
}

// An omitted Matrix Multiply Accumulate Operands is None, which matches no row.
TEST(MmaRules, MaskMissing) {
    Parts p;
    p.has_mask = false;
    std::string msg = onlyViolation(p, "mma.table_row");
    EXPECT_TRUE(contains(msg, "Matrix Multiply Accumulate Operands is None (omitted)")) << msg;
    EXPECT_TRUE(contains(msg, "bits APackedInt8|BPackedInt8 (0x30) are missing")) << msg;
    p.has_mask = true, p.mask = 0;  // an explicit None too
    EXPECT_TRUE(contains(onlyViolation(p, "mma.table_row"), "is None (0x0)"));
}

TEST(MmaRules, MaskExtraBit) {
    Parts p;
    p.mask = kMmaInt8 | CTS_MMA_BIT(APackedFloat16);
    std::string msg = onlyViolation(p, "mma.table_row");
    EXPECT_TRUE(contains(msg, "bits APackedFloat16 (0x400) are not allowed")) << msg;
    EXPECT_TRUE(contains(msg, "needs APackedInt8|BPackedInt8 (0x30) with optional ASigned|BSigned (0x3)"))
        << msg;
}

TEST(MmaRules, Int8MaskOnFp16Row) {
    Parts p = row(kTable[5], 8, 8);  // N = 8, K = 16, f32 result, fp16 pair
    p.mask = kMmaInt8;
    std::string msg = onlyViolation(p, "mma.table_row");
    EXPECT_TRUE(
        contains(msg, "the row for K=16 fp16 at N=8 needs exactly APackedFloat16|BPackedFloat16 (0xC00)"))
        << msg;
    EXPECT_TRUE(contains(msg, "the row for K=16 bf16 at N=8 needs exactly")) << msg;
}

TEST(MmaRules, BWithFourComponents) {
    Parts p;
    p.b = vec('i', 32, 4);
    std::string msg = onlyViolation(p, "mma.table_row");
    EXPECT_TRUE(contains(msg, "B is 4 x i32, the row for K=32 int8 at N=8 needs 8 x i32")) << msg;
}

TEST(MmaRules, CDiffersFromResult) {
    Parts p;
    p.c = vec('f', 32, 8);
    std::string msg = onlyViolation(p, "mma.table_row");
    EXPECT_TRUE(contains(msg, "C is 8 x f32, the row for K=32 int8 at N=8 needs M x i32 = 8 x i32")) << msg;
}

TEST(MmaRules, Tf32AComponentCount) {
    Parts p = n16(8, kMmaTf32, 'f');
    p.a = vec('f', 32, 8);
    std::string msg = onlyViolation(p, "mma.table_row");
    EXPECT_TRUE(contains(msg, "A is 8 x f32, the row for K=8 tf32 at N=16 needs ceil(M/2) x f32 = 4 x f32"))
        << msg;
}

TEST(MmaRules, Fp16ResultWithBf16Mask) {
    Parts p = n16(16, kMmaFp16, 'f', 16);
    p.mask = kMmaBf16;
    std::string msg = onlyViolation(p, "mma.table_row");
    EXPECT_TRUE(contains(msg,
                         "the row for K=16 fp16 with f16 result at N=16 needs exactly "
                         "APackedFloat16|BPackedFloat16 (0xC00); bits APackedBFloat16|BPackedBFloat16 "
                         "(0x3000) are not allowed"))
        << msg;
}

// The SubgroupSize execution mode fixes N: A i16 is the N = 16 int8 row, not valid at N = 8.
TEST(MmaRules, SubgroupSize8WithN16Types) {
    Parts p = n16(32, kMmaInt8);
    EXPECT_EQ(broken(p), Rules{});
    p.subgroup_size = 0;
    EXPECT_EQ(broken(p), Rules{});  // either N without the execution mode
    p.subgroup_size = 8;
    std::string msg = onlyViolation(p, "mma.table_row");
    EXPECT_TRUE(contains(msg, "for N = 8 (SubgroupSize 8)")) << msg;
    EXPECT_TRUE(contains(msg, "A is 8 x i16, the row for K=32 int8 at N=8 needs M x i32 = 8 x i32")) << msg;
    EXPECT_TRUE(contains(msg, "the combination is the row for K=32 int8 at N=16")) << msg;
    // The calling kernel's SubgroupSize applies to an instruction in a helper function.
    p.in_helper = true;
    onlyViolation(p, "mma.table_row");
    p.subgroup_size = 16;
    EXPECT_EQ(broken(p), Rules{});
    p.subgroup_size = 32;
    EXPECT_TRUE(contains(onlyViolation(p, "mma.table_row"), "rows only for N = 8 and N = 16"));
}

TEST(MmaRules, MessageNamesTheWrongOperand) {
    Parts p = n16(32, kMmaInt8);
    p.subgroup_size = 0;
    p.result = p.c = vec('i', 32, 4);  // M = 4, A still 8 x i16
    std::string msg = onlyViolation(p, "mma.table_row");
    EXPECT_TRUE(contains(msg, "A is 8 x i16, the row for K=32 int8 at N=16 needs M x i16 = 4 x i16")) << msg;
    EXPECT_TRUE(contains(msg,
                         "K=32, Result 4 x i32, A 8 x i16, B 8 x i32, C 4 x i32, operands "
                         "APackedInt8|BPackedInt8 (0x30)"))
        << msg;
}

// Only the first broken rule of a chain is reported: the table is not consulted without a usable K or types.
TEST(MmaRules, TableRowNeedsValidOperands) {
    Parts p;
    p.kdim = KDim::Parameter;
    p.mask = 0;
    EXPECT_EQ(broken(p), Rules{"mma.kdim_constant"});
}

// rules_core.cpp requires "OpCapability SubgroupMatrixMultiplyAccumulateINTEL" and the OpExtension.
TEST(MmaRules, MissingCapability) {
    Parts p;
    p.capability = false;
    SpirvModule m = SpirvModule::parse(build(p));
    std::vector<Violation> v = checkModule(m);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].rule, "core.opcode_capability");
    EXPECT_EQ(v[0].word_offset, mmaOffset(m));
    EXPECT_TRUE(
        contains(v[0].message, "opcode 6237 requires OpCapability SubgroupMatrixMultiplyAccumulateINTEL"))
        << v[0].message;
}

TEST(MmaRules, MissingExtension) {
    Parts p;
    p.extension = false;
    SpirvModule m = SpirvModule::parse(build(p));
    std::vector<Violation> v = checkModule(m);
    ASSERT_EQ(v.size(), 2u);
    // The capability declared without its extension, then the opcode at its first use.
    EXPECT_EQ(v[0].rule, "core.capability_extension");
    EXPECT_EQ(v[0].word_offset, m.capabilityOffset(spv::CapabilitySubgroupMatrixMultiplyAccumulateINTEL));
    EXPECT_EQ(v[1].rule, "core.opcode_extension");
    EXPECT_EQ(v[1].word_offset, mmaOffset(m));
    EXPECT_TRUE(
        contains(v[1].message, "requires OpExtension \"SPV_INTEL_subgroup_matrix_multiply_accumulate\""))
        << v[1].message;
}

}  // namespace
}  // namespace cts
