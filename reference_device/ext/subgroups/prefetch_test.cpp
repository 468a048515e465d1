// OpSubgroupBlockPrefetchINTEL through the loader and the interpreter: the profiles that report
// cl_intel_subgroup_buffer_prefetch build a module using it and run it as a prefetch must run (nothing
// observable changes), the others refuse the SPIR-V extension; the operand rules fail the build, a
// non-uniform Ptr the launch.
#include <gtest/gtest.h>

#include "reference_device/spirv/program.h"
#include "reference_device/spirv/test_util.h"

namespace refdev::spirv::subgroups {
namespace {

const Profile& profile(const std::string& name) {
    const Profile* p = findProfile(name);
    if (!p) ADD_FAILURE() << "no profile " << name;
    return p ? *p : allProfiles().front();
}

// Kernel "k" (SubgroupSize 16): `prefetch` is the instruction under test, on Ptr %src (a global uint
// pointer), %lane_ptr (src + SubgroupLocalInvocationId) or %fsrc (a global float pointer); then each
// invocation copies src[gid] to dst[gid].
std::string moduleText(const std::string& prefetch) {
    return R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpCapability SubgroupDispatch
OpCapability SubgroupBufferPrefetchINTEL
OpExtension "SPV_INTEL_subgroup_buffer_prefetch"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k" %gid %lid
OpExecutionMode %k SubgroupSize 16
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %lid BuiltIn SubgroupLocalInvocationId
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%float = OpTypeFloat 32
%v3ulong = OpTypeVector %ulong 3
%p_in_v3 = OpTypePointer Input %v3ulong
%p_in_uint = OpTypePointer Input %uint
%p_uint = OpTypePointer CrossWorkgroup %uint
%p_float = OpTypePointer CrossWorkgroup %float
%fn = OpTypeFunction %void %p_uint %p_uint %p_float %uint
%uint_3 = OpConstant %uint 3
%uint_16 = OpConstant %uint 16
%ulong_16 = OpConstant %ulong 16
%gid = OpVariable %p_in_v3 Input
%lid = OpVariable %p_in_uint Input
%k = OpFunction %void None %fn
%src = OpFunctionParameter %p_uint
%dst = OpFunctionParameter %p_uint
%fsrc = OpFunctionParameter %p_float
%n = OpFunctionParameter %uint
%entry = OpLabel
%g3 = OpLoad %v3ulong %gid
%g = OpCompositeExtract %ulong %g3 0
%l = OpLoad %uint %lid
%lane_ptr = OpInBoundsPtrAccessChain %p_uint %src %l
)" + prefetch +
           R"(%sp = OpInBoundsPtrAccessChain %p_uint %src %g
%v = OpLoad %uint %sp
%dp = OpInBoundsPtrAccessChain %p_uint %dst %g
OpStore %dp %v
OpReturn
OpFunctionEnd
)";
}

BuildResult build(const std::string& prefetch, const std::string& prof) {
    const std::vector<uint32_t> words =
        test::assembleWith(std::string(REFDEV_SPIRV_AS) + " --target-env spv1.2", moduleText(prefetch));
    return buildModule(words.data(), words.size(), profile(prof), Faults{});
}

// Builds on xe_hpc and runs 2 sub-groups: the copy comes out whole, or the launch fails.
LaunchResult run(const std::string& prefetch, bool* copied) {
    BuildResult b = build(prefetch, "xe_hpc");
    EXPECT_TRUE(b.module) << b.log;
    if (!b.module) return {false, "no module"};
    std::vector<uint32_t> src(32), dst(32, 0);
    for (uint32_t i = 0; i < src.size(); ++i) src[i] = 0x1000 + i;
    std::vector<float> fsrc(32, 1.0f);
    LaunchResult r = launch(
        *b.module, "k", {test::buffer(src), test::buffer(dst), test::buffer(fsrc), test::value(uint32_t(4))},
        test::range1(32, 32), profile("xe_hpc"), Faults{}, 1);
    *copied = dst == src;
    return r;
}

const std::string kPrefetch16 = "OpSubgroupBlockPrefetchINTEL %src %uint_16\n";

TEST(SubgroupBlockPrefetch, BuildsWhereTheProfileReportsTheExtension) {
    for (const Profile& p : allProfiles()) {
        const bool reported = p.hasExtension("cl_intel_subgroup_buffer_prefetch");
        EXPECT_EQ(reported, p.hasSpirvExtension("SPV_INTEL_subgroup_buffer_prefetch")) << p.name;
        BuildResult r = build(kPrefetch16, p.name);
        EXPECT_EQ(bool(r.module), reported) << p.name << ":\n" << r.log;
    }
    // Intel's driver reports it on PVC, BMG, LNL and PTL (targets/*.json).
    for (const char* name : {"xe_hpc", "xe2", "xe3"})
        EXPECT_TRUE(profile(name).hasExtension("cl_intel_subgroup_buffer_prefetch")) << name;
}

TEST(SubgroupBlockPrefetch, RunsWithoutChangingAnything) {
    bool copied = false;
    LaunchResult r = run(kPrefetch16, &copied);
    EXPECT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(copied);
    // "The prefetch operation may be silently ignored unless NumBytes is a power of two between one and 64":
    // other sizes are legal.
    r = run("OpSubgroupBlockPrefetchINTEL %src %uint_3\n", &copied);
    EXPECT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(copied);
    // The grammar's optional Memory Operands.
    r = run("OpSubgroupBlockPrefetchINTEL %src %uint_16 Aligned 4\n", &copied);
    EXPECT_TRUE(r.ok) << r.error;
    EXPECT_TRUE(copied);
}

TEST(SubgroupBlockPrefetch, NonUniformPtrIsUndefinedBehaviour) {
    bool copied = false;
    LaunchResult r = run("OpSubgroupBlockPrefetchINTEL %lane_ptr %uint_16\n", &copied);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("Ptr is not dynamically uniform"), std::string::npos) << r.error;
}

TEST(SubgroupBlockPrefetch, OperandRulesFailTheBuild) {
    struct Bad {
        const char* instruction;
        const char* rule;
    };
    for (const Bad& bad : {
             Bad{"OpSubgroupBlockPrefetchINTEL %fsrc %uint_16\n", "Ptr must be a pointer to an integer type"},
             Bad{"OpSubgroupBlockPrefetchINTEL %src %n\n", "must come from a constant instruction"},
             Bad{"OpSubgroupBlockPrefetchINTEL %src %ulong_16\n", "NumBytes must be a 32-bit integer"},
         }) {
        BuildResult r = build(bad.instruction, "xe_hpc");
        EXPECT_FALSE(r.module) << bad.instruction;
        EXPECT_NE(r.log.find(bad.rule), std::string::npos) << bad.instruction << r.log;
        EXPECT_NE(r.log.find("OpSubgroupBlockPrefetchINTEL"), std::string::npos) << r.log;
    }
}

}  // namespace
}  // namespace refdev::spirv::subgroups
