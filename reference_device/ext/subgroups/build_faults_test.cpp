// The planted build faults of the SPV_INTEL_subgroups family through the whole loader (buildModule with the
// product profiles): each minimal module fails or builds as the fault's description says, a rejection's
// first log line names the kernel and the fault, and without the fault every module builds.
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

// A module with kernel "k" (SubgroupSize sg; out a global uint pointer, img a write-only image) whose body is
// `body`; `extra` adds functions; `media` declares SPV_INTEL_media_block_io. Values: %uint_0, %uint_1,
// %coord (0, 0) and a null constant of each shuffled type.
std::string moduleText(uint32_t sg, const std::string& body, const std::string& extra = "",
                       bool media = false) {
    std::string s = R"(OpCapability Addresses
OpCapability Kernel
OpCapability Int16
OpCapability Float16
OpCapability ImageBasic
OpCapability SubgroupDispatch
OpCapability SubgroupShuffleINTEL
OpCapability SubgroupBufferBlockIOINTEL
OpCapability SubgroupImageBlockIOINTEL
)";
    if (media) s += "OpCapability SubgroupImageMediaBlockIOINTEL\nOpExtension \"SPV_INTEL_media_block_io\"\n";
    s += R"(OpExtension "SPV_INTEL_subgroups"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpExecutionMode %k SubgroupSize )" +
         std::to_string(sg) + R"(
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ushort = OpTypeInt 16 0
%half = OpTypeFloat 16
%v2uint = OpTypeVector %uint 2
%v4half = OpTypeVector %half 4
%v4ushort = OpTypeVector %ushort 4
%p_uint = OpTypePointer CrossWorkgroup %uint
%img_wo = OpTypeImage %void 2D 0 0 0 0 Unknown WriteOnly
%fn = OpTypeFunction %void %p_uint %img_wo
%fn_helper = OpTypeFunction %void %p_uint
%uint_0 = OpConstant %uint 0
%uint_1 = OpConstant %uint 1
%coord = OpConstantComposite %v2uint %uint_0 %uint_0
%null_half = OpConstantNull %half
%null_v4half = OpConstantNull %v4half
%null_v4ushort = OpConstantNull %v4ushort
%k = OpFunction %void None %fn
%out = OpFunctionParameter %p_uint
%img = OpFunctionParameter %img_wo
%entry = OpLabel
)";
    return s + body + "OpReturn\nOpFunctionEnd\n" + extra;
}

const std::string kBlockRead = "%v = OpSubgroupBlockReadINTEL %uint %out\nOpStore %out %v\n";
const std::string kImageBlockWrite = "OpSubgroupImageBlockWriteINTEL %img %coord %uint_0\n";
std::string shuffle(const std::string& type, const std::string& op = "OpSubgroupShuffleINTEL") {
    const bool two = op == "OpSubgroupShuffleDownINTEL" || op == "OpSubgroupShuffleUpINTEL";
    return "%s = " + op + " %" + type + " %null_" + type + (two ? " %null_" + type : "") + " %uint_0\n";
}

BuildResult buildWith(const std::string& text, const std::string& fault, const std::string& prof = "xe_hpc") {
    const std::vector<uint32_t> words =
        test::assembleWith(std::string(REFDEV_SPIRV_AS) + " --target-env spv1.2", text);
    Faults faults;
    std::string error;
    EXPECT_TRUE(faults.parse(fault, &error)) << error;
    return buildModule(words.data(), words.size(), profile(prof), faults);
}

std::string firstLine(const std::string& log) {
    return log.substr(0, log.find('\n'));
}

// The module fails to build with `fault`, the log's first line names the kernel and the fault (and
// `what`); without the fault it builds.
void expectRejected(const std::string& text, const std::string& fault, const std::string& what,
                    const std::string& prof = "xe_hpc") {
    BuildResult r = buildWith(text, fault, prof);
    EXPECT_FALSE(r.module) << "built with " << fault;
    const std::string line = firstLine(r.log);
    EXPECT_EQ(line.rfind("error: k: ", 0), 0u) << r.log;
    EXPECT_NE(line.find("(planted fault " + fault + ")"), std::string::npos) << r.log;
    EXPECT_NE(line.find(what), std::string::npos) << r.log;
    BuildResult clean = buildWith(text, "", prof);
    EXPECT_TRUE(clean.module) << clean.log;
}

void expectBuilds(const std::string& text, const std::string& fault, const std::string& prof = "xe_hpc") {
    BuildResult r = buildWith(text, fault, prof);
    EXPECT_TRUE(r.module) << "rejected with " << fault << ":\n" << r.log;
}

const std::string kBlockFault = "build_rejects_block_io_simd32";
const std::string kShuffleFault = "build_rejects_half_vector_shuffle";

TEST(SubgroupsBuildFaults, BlockIoAtSubgroupSize32IsRejected) {
    expectRejected(moduleText(32, kBlockRead), kBlockFault, "OpSubgroupBlockReadINTEL");
    expectRejected(moduleText(32, kImageBlockWrite), kBlockFault, "OpSubgroupImageBlockWriteINTEL");
    // IGC compiles per kernel: block IO in a function the SIMD32 kernel calls counts too.
    const std::string helper =
        "%helper = OpFunction %void None %fn_helper\n%hp = OpFunctionParameter %p_uint\n%h0 = OpLabel\n"
        "%hv = OpSubgroupBlockReadINTEL %uint %hp\nOpStore %hp %hv\nOpReturn\nOpFunctionEnd\n";
    const std::string call = "%c = OpFunctionCall %void %helper %out\n";
    expectRejected(moduleText(32, call, helper), kBlockFault, "OpSubgroupBlockReadINTEL");
    expectBuilds(moduleText(16, call, helper), kBlockFault);
}

TEST(SubgroupsBuildFaults, MediaBlockIoAtSubgroupSize32IsRejected) {
    if (!profile("xe_hpg").hasSpirvExtension("SPV_INTEL_media_block_io"))
        GTEST_SKIP() << "the media block IO family is not built";
    const std::string write = "OpSubgroupImageMediaBlockWriteINTEL %img %coord %uint_1 %uint_1 %uint_0\n";
    expectRejected(moduleText(32, write, "", true), kBlockFault, "OpSubgroupImageMediaBlockWriteINTEL",
                   "xe_hpg");
    expectBuilds(moduleText(16, write, "", true), kBlockFault, "xe_hpg");
}

TEST(SubgroupsBuildFaults, BlockIoBelowSubgroupSize32AndShufflesAtIt) {
    expectBuilds(moduleText(16, kBlockRead), kBlockFault);
    expectBuilds(moduleText(16, kImageBlockWrite), kBlockFault);
    expectBuilds(moduleText(32, shuffle("v4half")), kBlockFault);
    // The other fault leaves block IO alone.
    expectBuilds(moduleText(32, kBlockRead), kShuffleFault);
}

TEST(SubgroupsBuildFaults, HalfVectorShuffleIsRejected) {
    expectRejected(moduleText(16, shuffle("v4half")), kShuffleFault,
                   "undefined reference to `__builtin_spirv_OpSubgroupShuffleINTEL_v4f16_i32`");
    expectRejected(moduleText(16, shuffle("v4half", "OpSubgroupShuffleDownINTEL")), kShuffleFault,
                   "OpSubgroupShuffleDownINTEL_v4f16_v4f16_i32");
    expectRejected(moduleText(32, shuffle("v4half", "OpSubgroupShuffleXorINTEL")), kShuffleFault,
                   "OpSubgroupShuffleXorINTEL_v4f16_i32");
}

TEST(SubgroupsBuildFaults, HalfScalarAndShortVectorShufflesBuild) {
    expectBuilds(moduleText(16, shuffle("half")), kShuffleFault);
    expectBuilds(moduleText(16, shuffle("v4ushort")), kShuffleFault);
    expectBuilds(moduleText(16, shuffle("half", "OpSubgroupShuffleUpINTEL")), kShuffleFault);
    // The other fault leaves shuffles alone.
    expectBuilds(moduleText(16, shuffle("v4half")), kBlockFault);
}

}  // namespace
}  // namespace refdev::spirv::subgroups
