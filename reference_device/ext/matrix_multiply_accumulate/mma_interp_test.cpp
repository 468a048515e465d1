// OpSubgroupMatrixMultiplyAccumulateINTEL through the whole interpreter on the product profiles: SPIR-V text
// assembled with the configured spirv-as, built with
// buildModule (the loader, the literal operand, the build-time table check) and launched (the collective
// context, sub-group sizes, the site ordinal and work-group id the faults look at).
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>

#include "reference_device/ext/matrix_multiply_accumulate/mma_test_cases.h"
#include "reference_device/spirv/program.h"
#include "reference_device/spirv/test_util.h"

namespace refdev::spirv::mma {
namespace {

using namespace test;

std::vector<uint32_t> assemble(const std::string& text) {
    return spirv::test::assembleWith(std::string(REFDEV_SPIRV_AS) + " --target-env spv1.2", text);
}

// Names of the types the kernel uses; vectors are declared once each.
class Types {
public:
    std::string name(const TypeInfo& t) {
        const bool f = t.component_kind == TypeInfo::Kind::Float;
        std::string scalar = f ? (t.component_bits == 16 ? "%half" : "%float")
                               : (t.component_bits == 16 ? "%ushort" : "%uint");
        if (t.components == 1) return scalar;
        std::string v = "%v" + std::to_string(t.components) + scalar.substr(1);
        if (!declared_.count(v)) {
            declared_[v] = true;
            decls_ += v + " = OpTypeVector " + scalar + " " + std::to_string(t.components) + "\n";
        }
        return v;
    }
    const std::string& decls() const { return decls_; }

private:
    std::map<std::string, bool> declared_;
    std::string decls_;
};

// The operands literal as the assembler spells it (SPIR-V grammar enumerant names).
std::string operandNames(uint32_t operands) {
    static const char* kNames[] = {"MatrixASignedComponentsINTEL",
                                   "MatrixBSignedComponentsINTEL",
                                   "MatrixCBFloat16INTEL",
                                   "MatrixResultBFloat16INTEL",
                                   "MatrixAPackedInt8INTEL",
                                   "MatrixBPackedInt8INTEL",
                                   "MatrixAPackedInt4INTEL",
                                   "MatrixBPackedInt4INTEL",
                                   "MatrixATF32INTEL",
                                   "MatrixBTF32INTEL",
                                   "MatrixAPackedFloat16INTEL",
                                   "MatrixBPackedFloat16INTEL",
                                   "MatrixAPackedBFloat16INTEL",
                                   "MatrixBPackedBFloat16INTEL"};
    std::string s;
    for (uint32_t bit = 0; bit < 14; ++bit)
        if (operands >> bit & 1) s += (s.empty() ? "" : "|") + std::string(kNames[bit]);
    return s.empty() ? "None" : s;
}

// mma(a, b, c, out): lane gid loads its A, B and C contributions, runs one MMA (or two, the second
// accumulating onto the first) and stores its Result column.
std::string kernelText(const Case& cs, uint32_t sub_group_size, bool twice = false,
                       bool with_operands = true) {
    Types types;
    const std::string a = types.name(cs.aType()), b = types.name(cs.bType()), c = types.name(cs.resultType());
    const std::string ops = with_operands ? " " + operandNames(cs.operands()) : "";
    std::string s = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability Int16
OpCapability Float16
OpCapability SubgroupDispatch
OpCapability SubgroupMatrixMultiplyAccumulateINTEL
OpExtension "SPV_INTEL_subgroup_matrix_multiply_accumulate"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %mma "mma" %gid
OpExecutionMode %mma SubgroupSize )" +
                    std::to_string(sub_group_size) +
                    R"(
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %gid Constant
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ushort = OpTypeInt 16 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%half = OpTypeFloat 16
%v3ulong = OpTypeVector %ulong 3
%p_in_v3 = OpTypePointer Input %v3ulong
)" + types.decls() + "%pa = OpTypePointer CrossWorkgroup " +
                    a + "\n%pb = OpTypePointer CrossWorkgroup " + b +
                    "\n%pc = OpTypePointer CrossWorkgroup " + c + "\n%kdim = OpConstant %uint " +
                    std::to_string(cs.k()) + R"(
%fn = OpTypeFunction %void %pa %pb %pc %pc
%gid = OpVariable %p_in_v3 Input
%mma = OpFunction %void None %fn
%a = OpFunctionParameter %pa
%b = OpFunctionParameter %pb
%c = OpFunctionParameter %pc
%out = OpFunctionParameter %pc
%entry = OpLabel
%g3 = OpLoad %v3ulong %gid Aligned 32
%g = OpCompositeExtract %ulong %g3 0
%pav = OpInBoundsPtrAccessChain %pa %a %g
%pbv = OpInBoundsPtrAccessChain %pb %b %g
%pcv = OpInBoundsPtrAccessChain %pc %c %g
%po = OpInBoundsPtrAccessChain %pc %out %g
)";
    s += "%av = OpLoad " + a + " %pav\n%bv = OpLoad " + b + " %pbv\n%cv = OpLoad " + c + " %pcv\n";
    s += "%r0 = OpSubgroupMatrixMultiplyAccumulateINTEL " + c + " %kdim %av %bv %cv" + ops + "\n";
    if (twice) s += "%r1 = OpSubgroupMatrixMultiplyAccumulateINTEL " + c + " %kdim %av %bv %r0" + ops + "\n";
    s += std::string("OpStore %po ") + (twice ? "%r1" : "%r0") + "\nOpReturn\nOpFunctionEnd\n";
    return s;
}

BuildResult build(const Case& cs, const Profile& profile, uint32_t sub_group_size, bool twice = false,
                  bool with_operands = true) {
    std::vector<uint32_t> words = assemble(kernelText(cs, sub_group_size, twice, with_operands));
    return buildModule(words.data(), words.size(), profile);
}

struct Launched {
    Columns result;  // [global id][row]
    std::string error;
};

// Every sub-group of the launch passes the same matrices.
Launched launchCase(const Module& module, const Case& cs, const Profile& profile, size_t global, size_t local,
                    const std::string& fault_spec = "") {
    std::vector<uint8_t> a, b, c, out;
    const uint32_t out_bits = cs.resultType().component_bits;
    for (size_t gid = 0; gid < global; ++gid) {
        const LaneOperands o = laneOperands(cs, uint32_t(gid % cs.n));
        for (auto [dst, words, bits] : {std::tuple{&a, &o.a, cs.aType().component_bits},
                                        std::tuple{&b, &o.b, 32u}, std::tuple{&c, &o.c, out_bits}}) {
            const std::vector<uint8_t> bytes = toBytes(*words, bits);
            dst->insert(dst->end(), bytes.begin(), bytes.end());
        }
    }
    out.assign(c.size(), 0xA5);
    auto arg = [](std::vector<uint8_t>& v) {
        ArgValue x;
        x.kind = ArgKind::GlobalBuffer, x.base = v.data(), x.size = v.size();
        return x;
    };
    NDRange range;
    range.global[0] = global, range.local[0] = local;
    Faults faults;
    std::string error;
    EXPECT_TRUE(faults.parse(fault_spec, &error)) << error;
    LaunchResult r = launch(module, "mma", {arg(a), arg(b), arg(c), arg(out)}, range, profile, faults, 2);
    Launched l;
    l.error = r.ok ? "" : r.error;
    l.result.assign(global, std::vector<uint32_t>(cs.m));
    for (size_t gid = 0; gid < global; ++gid)
        for (uint32_t r = 0; r < cs.m; ++r)
            std::memcpy(&l.result[gid][r], out.data() + (gid * cs.m + r) * out_bits / 8, out_bits / 8);
    return l;
}

TEST(MmaInterpreter, EveryRowOnItsProfile) {
    uint32_t seed = 100;
    for (auto [n, row] : kAllRows)
        for (uint32_t m : {1u, 2u, 8u}) {
            ++seed;
            const Case cs = randomCase(row, n, m, seed, seed % 2, seed % 3 != 0);
            const Profile& profile = *profileFor(n);
            BuildResult b = build(cs, profile, n);
            ASSERT_TRUE(b.module) << rowName(row) << " N " << n << " M " << m << ": " << b.log;
            Launched l = launchCase(*b.module, cs, profile, 2 * n, 2 * n);  // two sub-groups per work-group
            ASSERT_EQ(l.error, "") << rowName(row) << " N " << n << " M " << m;
            const Columns want = expected(cs);
            for (size_t gid = 0; gid < 2 * n; ++gid)
                EXPECT_EQ(l.result[gid], want[gid % n])
                    << rowName(row) << " N " << n << " M " << m << " gid " << gid;
        }
}

TEST(MmaInterpreter, BuildRejectsRowsOfOtherDevices) {
    // An N = 16 instruction (A of 16-bit components) on the N = 8 device, which runs sub-groups of 16 too.
    BuildResult b = build(randomCase(Row::Int8, 16, 4, 1), hpg(), 16);
    EXPECT_FALSE(b.module);
    EXPECT_NE(b.log.find("OpSubgroupMatrixMultiplyAccumulateINTEL"), std::string::npos) << b.log;
    EXPECT_NE(
        b.log.find("no row of the cl_intel_subgroup_matrix_multiply_accumulate table for N = 8 matches K = "
                   "32, Result 4 x i32, A 4 x i16, B 8 x i32, C 4 x i32, operands 0x33 (A must be 4 x i32 "
                   "at N = 8)"),
        std::string::npos)
        << b.log;
    // TF32 on the device without the _tf32 extension.
    b = build(randomCase(Row::Tf32, 16, 4, 1), hpg(), 16);
    EXPECT_FALSE(b.module);
    // The operands literal omitted: None matches no row.
    b = build(randomCase(Row::Fp16F32, 16, 4, 1), hpc(), 16, false, false);
    EXPECT_FALSE(b.module);
    EXPECT_NE(b.log.find("operands 0x0"), std::string::npos) << b.log;
}

TEST(MmaInterpreter, SubGroupSizeMustBeTheDevicesN) {
    // The N = 8 row builds on xe_hpg whatever the kernel's sub-group size; running it at 16 is undefined.
    const Case cs = randomCase(Row::Int8, 8, 2, 3);
    BuildResult b = build(cs, hpg(), 16);
    ASSERT_TRUE(b.module) << b.log;
    Launched l = launchCase(*b.module, cs, hpg(), 16, 16);  // lanes 8-15 pass lanes 0-7's data
    EXPECT_NE(l.error.find("must equal the device's minimum sub-group size, 8 (OpenCL"), std::string::npos)
        << l.error;
}

TEST(MmaInterpreter, PartialSubGroupIsUndefined) {
    const Case cs = randomCase(Row::Int8, 16, 2, 4);
    BuildResult b = build(cs, hpc(), 16);
    ASSERT_TRUE(b.module) << b.log;
    Launched l = launchCase(*b.module, cs, hpc(), 24, 24);  // sub-groups of 16 and 8
    EXPECT_NE(
        l.error.find("undefined behaviour: OpSubgroupMatrixMultiplyAccumulateINTEL: partial sub-group (8 of "
                     "16 invocations)"),
        std::string::npos)
        << l.error;
}

TEST(MmaInterpreter, SecondSiteFaultSparesTheFirstMma) {
    Case cs = randomCase(Row::Int8, 16, 2, 5);
    BuildResult b = build(cs, hpc(), 16, true);
    ASSERT_TRUE(b.module) << b.log;
    // Two MMAs: Result = A x B + (A x B + C).
    Case twice = cs;
    const Columns once = expected(cs);
    for (uint32_t r = 0; r < cs.m; ++r)
        for (uint32_t col = 0; col < cs.n; ++col) twice.c[r * cs.n + col] = int32_t(once[col][r]);
    Launched clean = launchCase(*b.module, cs, hpc(), 16, 16);
    ASSERT_EQ(clean.error, "");
    EXPECT_EQ(clean.result, expected(twice));
    // The fault zeroes B of the second instruction only: Result = A x B + C.
    Launched faulty = launchCase(*b.module, cs, hpc(), 16, 16, "mma_second_site_b_zero");
    ASSERT_EQ(faulty.error, "");
    EXPECT_EQ(faulty.result, once);
}

TEST(MmaInterpreter, OddWorkGroupFaultZeroesOnlyOddGroups) {
    const Case cs = randomCase(Row::Bf16F32, 8, 4, 6);
    BuildResult b = build(cs, hpg(), 8);
    ASSERT_TRUE(b.module) << b.log;
    Launched l = launchCase(*b.module, cs, hpg(), 32, 8, "mma_odd_workgroups_zero");
    ASSERT_EQ(l.error, "");
    const Columns want = expected(cs);
    for (size_t gid = 0; gid < 32; ++gid)
        EXPECT_EQ(l.result[gid], (gid / 8) % 2 ? std::vector<uint32_t>(cs.m, 0) : want[gid % 8]) << gid;
}

}  // namespace
}  // namespace refdev::spirv::mma
