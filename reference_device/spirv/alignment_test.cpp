// Where variables and __local argument buffers live: each address is a multiple of the variable's Alignment
// decoration and of its type's OpenCL C alignment (launch.cpp, loader.cpp, functions.cpp); the planted fault
// alignment_decoration_ignored leaves them 16-byte aligned only.
#include "reference_device/faults.h"
#include "reference_device/spirv/test_util.h"

namespace refdev::spirv::test {
namespace {

class Alignment : public ::testing::Test {
protected:
    static void SetUpTestSuite() { module_ = build(assembleFixture("alignment.spvasm")); }
    static void TearDownTestSuite() { module_.reset(); }
    static std::shared_ptr<const Module> module_;

    // The kernel's output (address & (alignment - 1) per checked pointer) for 3 work-groups of 4.
    static std::vector<uint64_t> lowBits(const std::string& kernel, size_t per_item, const Faults& faults) {
        std::vector<uint64_t> out(12 * per_item, ~0ull);
        std::vector<ArgValue> args;
        if (kernel == "local_args") args = {localBuffer(3), localBuffer(2 * 128)};
        args.push_back(buffer(out));
        LaunchResult r = launch(*module_, kernel, args, range1(12, 4), testProfile(), faults, 2);
        EXPECT_TRUE(r.ok) << r.error;
        return out;
    }
    static Faults fault(const std::string& name) {
        Faults f;
        std::string error;
        EXPECT_TRUE(f.parse(name, &error)) << error;
        return f;
    }
};
std::shared_ptr<const Module> Alignment::module_;

TEST_F(Alignment, VariablesHonourDecorationsAndTypeAlignment) {
    ASSERT_TRUE(module_);
    const std::vector<uint64_t> out = lowBits("variables", 10, Faults());
    for (size_t i = 0; i < out.size(); ++i)
        EXPECT_EQ(out[i], 0u) << "work-item " << i / 10 << " check " << i % 10;
}

TEST_F(Alignment, LocalArgumentsAreAlignedForTheLargestType) {
    ASSERT_TRUE(module_);
    const std::vector<uint64_t> out = lowBits("local_args", 2, Faults());
    for (size_t i = 0; i < out.size(); ++i)
        EXPECT_EQ(out[i], 0u) << "work-item " << i / 2 << " argument " << i % 2;
}

TEST_F(Alignment, FaultLeavesSixteenByteAlignmentOnly) {
    ASSERT_TRUE(module_);
    const Faults f = fault("alignment_decoration_ignored");
    for (const auto& [kernel, per_item] :
         {std::pair<std::string, size_t>{"variables", 10}, {"local_args", 2}}) {
        const std::vector<uint64_t> out = lowBits(kernel, per_item, f);
        for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i] % 32, 16u) << kernel << " value " << i;
    }
}

// A minimal kernel with one Function variable decorated `Alignment <n>`.
std::string decoratedKernel(const std::string& alignment) {
    return R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpDecorate %v Alignment )" +
           alignment + R"(
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %fp_u32 = OpTypePointer Function %uint
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
          %e = OpLabel
          %v = OpVariable %fp_u32 Function
               OpReturn
               OpFunctionEnd
)";
}

TEST(AlignmentDecoration, PowerOfTwoUpToAPageBuilds) {
    for (const char* n : {"1", "256", "4096"}) {
        const std::vector<uint32_t> words = assemble(decoratedKernel(n));
        BuildResult r = buildModule(words.data(), words.size(), testProfile());
        EXPECT_TRUE(r.module) << n << ": " << r.log;
    }
}

TEST(AlignmentDecoration, OtherValuesAreRefusedWithAMessage) {
    for (const char* n : {"0", "3", "8192"}) {
        const std::vector<uint32_t> words = assemble(decoratedKernel(n));
        BuildResult r = buildModule(words.data(), words.size(), testProfile());
        EXPECT_FALSE(r.module) << n;
        EXPECT_NE(r.log.find(std::string("Alignment ") + n + " of %"), std::string::npos) << r.log;
        EXPECT_NE(r.log.find("is not a power of two in 1..4096"), std::string::npos) << r.log;
    }
}

}  // namespace
}  // namespace refdev::spirv::test
