// Composite family: dynamic vector indexing (an out-of-range index is undefined behaviour the device reports)
// and OpCopyLogical (SPIR-V 1.4).
#include "reference_device/spirv/test_util.h"

namespace refdev::spirv::test {
namespace {

TEST(InterpComposite, VectorDynamicInRange) {
    auto m = build(assembleFixture("vector_dynamic.spvasm"));
    ASSERT_TRUE(m);
    for (uint32_t i = 0; i < 3; ++i) {
        std::vector<uint32_t> idx = {i}, out(4, 0xdeadbeef);
        LaunchResult r = run(*m, "vector_dynamic", {buffer(idx), buffer(out)}, range1(1, 1));
        ASSERT_TRUE(r.ok) << r.error;
        std::vector<uint32_t> want = {10 * (i + 1), 10, 20, 30};
        want[1 + i] = 99;
        EXPECT_EQ(out, want) << "index " << i;
    }
}

// SPIR-V OpVectorExtractDynamic: "Behavior is undefined if Index's value is less than zero or greater than or
// equal to the number of components in Vector"; the same sentence for OpVectorInsertDynamic.
TEST(InterpComposite, VectorDynamicOutOfRangeIsUndefinedBehaviour) {
    auto m = build(assembleFixture("vector_dynamic.spvasm"));
    ASSERT_TRUE(m);
    for (uint32_t i : {3u, 0xffffffffu}) {
        std::vector<uint32_t> idx = {i}, out(4, 0xdeadbeef);
        LaunchResult r = run(*m, "vector_dynamic", {buffer(idx), buffer(out)}, range1(1, 1));
        ASSERT_FALSE(r.ok) << "index " << i;
        EXPECT_NE(r.error.find("OpVectorExtractDynamic (word "), std::string::npos) << r.error;
        EXPECT_NE(r.error.find("undefined behaviour: index " + std::to_string(i) +
                               " is out of range for a vector of 3 components"),
                  std::string::npos)
            << r.error;
        EXPECT_EQ(out, std::vector<uint32_t>(4, 0xdeadbeef)) << "nothing stored after the fault";
        r = run(*m, "vector_insert_dynamic", {buffer(idx), buffer(out)}, range1(1, 1));
        ASSERT_FALSE(r.ok) << "index " << i;
        EXPECT_NE(r.error.find("OpVectorInsertDynamic (word "), std::string::npos) << r.error;
        EXPECT_NE(r.error.find("undefined behaviour: index " + std::to_string(i) +
                               " is out of range for a vector of 3 components"),
                  std::string::npos)
            << r.error;
        EXPECT_EQ(out[0], 0xdeadbeefu);
    }
}

TEST(InterpComposite, CopyLogicalCopiesMemberByMember) {
    auto m = build(assembleFixture("copy_logical.spvasm"));
    ASSERT_TRUE(m);
    std::vector<uint32_t> in = {11, 22, 33, 44, 55, 66}, out(6, 0xdeadbeef);
    LaunchResult r = run(*m, "copy_logical", {buffer(in), buffer(out)}, range1(1, 1));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(out, in);
}

// OpCopyLogical is core from SPIR-V 1.4; spirv-val refuses it in an older module, and so does the device.
TEST(InterpComposite, CopyLogicalIsRefusedBeforeSpirv14) {
    std::vector<uint32_t> w = assembleFixture("copy_logical.spvasm");
    ASSERT_GT(w.size(), 5u);
    w[1] = 0x00010300;
    BuildResult r = buildModule(w.data(), w.size(), testProfile());
    EXPECT_FALSE(r.module);
    EXPECT_NE(r.log.find("OpCopyLogical (word "), std::string::npos) << r.log;
    EXPECT_NE(r.log.find("needs SPIR-V 1.4; the module is SPIR-V 1.3"), std::string::npos) << r.log;
}

}  // namespace
}  // namespace refdev::spirv::test
