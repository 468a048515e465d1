// OpSpecConstantOp (spec_constant_op.cpp): values derived at build time from the specialization constants,
// address constants derived at launch, and the build errors for what has no value.
#include "reference_device/spirv/test_util.h"

namespace refdev::spirv::test {
namespace {

std::string fixture() {
    return readText(fixturePath("spec_constant_op.spvasm"));
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << "fixture text not found: " << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

BuildResult buildText(const std::string& text) {
    std::vector<uint32_t> w = assemble(text);
    return buildModule(w.data(), w.size(), testProfile());
}

void expectRejected(const BuildResult& r, const std::string& needle) {
    EXPECT_FALSE(r.module);
    EXPECT_NE(r.log.find(needle), std::string::npos) << "log does not mention \"" << needle << "\":\n"
                                                     << r.log;
}

// out[i] of the fixture for a = 7, b = 3, s = -10, f = 1.5, flag = true (see its header).
const std::vector<uint32_t> kExpected = {
    10,         0xfffffffc, 21,         2, 1,          0xfffffffd, 0xffffffff, 2,
    56,         0xfffffffb, 15,         4, 3,          15,         0xfffffff8, 0x2b5a,
    0xfffffff9, 7,          0x40700000, 6, 0x40600000, 0x40200000, 0xbf800000, 0x3f000000,
    0xc1200000, 6,          0x40900000, 0, 0xc0000000, 0xffffffff, 0xfffffff6, 24,
    3,          100,        10,         8, 42,         100};

TEST(SpecConstantOp, EveryKernelOperationIsEvaluated) {
    auto m = build(assemble(fixture()));
    ASSERT_TRUE(m);
    std::vector<uint32_t> out(kExpected.size(), 0xdeadbeef);
    LaunchResult r = run(*m, "spec_ops", {buffer(out)}, range1(1, 1));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], kExpected[i]) << "out[" << i << "]";
}

// The address constants are computed from each work-group's own local memory: every group finds its store.
TEST(SpecConstantOp, AddressConstantsAreComputedPerWorkGroup) {
    auto m = build(assemble(fixture()));
    ASSERT_TRUE(m);
    std::vector<uint32_t> out(kExpected.size(), 0xdeadbeef);
    LaunchResult r = run(*m, "spec_ops", {buffer(out)}, range1(6, 2), 3);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(out[35], 8u);
    EXPECT_EQ(out[36], 42u);
    EXPECT_EQ(out[37], 100u);
}

// The value the operation sees is the specialized one: the same module with b = 5 in place of 3.
TEST(SpecConstantOp, UsesTheSpecializedValue) {
    auto m =
        build(assemble(replaced(fixture(), "%b = OpSpecConstant %uint 3", "%b = OpSpecConstant %uint 5")));
    ASSERT_TRUE(m);
    std::vector<uint32_t> out(kExpected.size(), 0);
    ASSERT_TRUE(run(*m, "spec_ops", {buffer(out)}, range1(1, 1)).ok);
    EXPECT_EQ(out[0], 12u);          // a + b
    EXPECT_EQ(out[2], 35u);          // a * b
    EXPECT_EQ(out[5], 0xfffffffeu);  // s / b = -10 / 5
}

TEST(SpecConstantOp, DivisionByZeroIsABuildError) {
    expectRejected(
        buildText(replaced(fixture(), "%b = OpSpecConstant %uint 3", "%b = OpSpecConstant %uint 0")),
        "OpSpecConstantOp (word ");
    expectRejected(
        buildText(replaced(fixture(), "%b = OpSpecConstant %uint 3", "%b = OpSpecConstant %uint 0")),
        "OpUDiv: division by zero is undefined in SPIR-V");
}

TEST(SpecConstantOp, MinimumDividedByMinusOneIsABuildError) {
    std::string text =
        replaced(fixture(), "%s = OpSpecConstant %uint 4294967286", "%s = OpSpecConstant %uint 2147483648");
    text = replaced(text, "%b = OpSpecConstant %uint 3", "%b = OpSpecConstant %uint 4294967295");
    expectRejected(buildText(text), "OpSDiv: the minimum value divided by -1 is undefined in SPIR-V");
}

// spirv-as refuses such a module: the operation word is patched after assembly.
TEST(SpecConstantOp, OperationOutsideTheKernelListIsABuildError) {
    std::vector<uint32_t> w = assemble(fixture());
    bool patched = false;
    for (size_t pos = 5; pos < w.size() && (w[pos] >> 16) && !patched; pos += w[pos] >> 16)
        if ((w[pos] & 0xffff) == token(spv::Op::OpSpecConstantOp) && w[pos + 3] == token(spv::Op::OpNot)) {
            w[pos + 3] = token(spv::Op::OpBitReverse);
            patched = true;
        }
    ASSERT_TRUE(patched);
    expectRejected(buildModule(w.data(), w.size(), testProfile()),
                   "OpBitReverse is not an operation OpSpecConstantOp allows");
}

// A type mismatch found by the embedded instruction's decoder names both instructions.
TEST(SpecConstantOp, DecoderErrorsNameTheSpecConstantOp) {
    expectRejected(buildText(replaced(fixture(), "OpSpecConstantOp %uint IAdd %a %b",
                                      "OpSpecConstantOp %uint IAdd %a %f")),
                   "OpSpecConstantOp OpIAdd (word ");
}

TEST(SpecConstantOp, OperandThatIsNotAConstantIsABuildError) {
    expectRejected(buildText(replaced(fixture(), "OpSpecConstantOp %uint IAdd %a %b",
                                      "OpSpecConstantOp %uint IAdd %a %uint")),
                   "operand %");
}

// A length computed by OpSpecConstantOp sizes an array type.
TEST(SpecConstantOp, ResultCanBeAnArrayLength) {
    auto r = buildText(
        replaced(fixture(), "%arr4 = OpTypeArray %uint %uint_4",
                 "%len = OpSpecConstantOp %uint IAdd %uint_1 %uint_3\n%arr4 = OpTypeArray %uint %len"));
    EXPECT_TRUE(r.module) << r.log;
}

}  // namespace
}  // namespace refdev::spirv::test
