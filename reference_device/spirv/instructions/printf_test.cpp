// OpenCL.std printf: conversions, flags, widths and precisions, length modifiers, vectors, the output
// order, the printf buffer limit and the formats C leaves undefined. The launch returns the output
// (LaunchResult::printf_output), so the tests read it there rather than from stdout.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "reference_device/spirv/test_util.h"

namespace refdev::spirv::test {
namespace {

class Printf : public ::testing::Test {
protected:
    // Built by the first test (not in SetUpTestSuite, where a failure would leave the tests skipped).
    void SetUp() override {
        if (!module_) module_ = build(assembleFixture("printf.spvasm"));
    }
    static void TearDownTestSuite() { module_.reset(); }
    static std::shared_ptr<const Module> module_;
};
std::shared_ptr<const Module> Printf::module_;

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> v;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) v.push_back(line);
    return v;
}

TEST_F(Printf, ScalarConversionsFlagsAndLengthModifiers) {
    ASSERT_TRUE(module_);
    std::vector<int32_t> ret(7, 99);
    LaunchResult r = run(*module_, "printf_scalars", {buffer(ret)}, range1(1, 1));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t i = 0; i < ret.size(); ++i) EXPECT_EQ(ret[i], 0) << "call " << i;
    char p[32];
    std::snprintf(p, sizeof p, "%p",
                  static_cast<void*>(nullptr));  // %p is the host's: implementation-defined
    const std::vector<std::string> want = {
        "d=-5 i=-5 o=37777777773 u=4294967291 x=fffffffb X=FFFFFFFB",
        // 0x12345 as short, 0x1ff as unsigned char, 0x180 as signed char; longs
        "hd=9029 hhu=255 hhd=-128 ld=-1234567890123 lx=DEADBEEFCAFE lu=18446744073709551615",
        "0x1.0p+1 0X1.0P+1 2.0e+00 2.0E+00 2.0 2.0 2 2",  // as the OpenCL CTS expects for 2.0f
        "[   3.142|1.23e+04  |+1.5| 42|00042|0xff|010|7   ]",
        std::string("OK|hello|tru|   right|left  |%|") + p,
        "[     7|8   |2.72|2.7e+00 ]",  // * widths (a negative one left-justifies) and precisions
        "1,-2,3,-4|0.500000,1.250000|1,2,-1|ab,f|1,1099511627776|1,-3,0.25,1.5|FF,BEEF",
    };
    EXPECT_EQ(lines(r.printf_output), want) << r.printf_output;
}

TEST_F(Printf, EachWorkItemsOutputStaysInOrder) {
    ASSERT_TRUE(module_);
    const size_t n = 24;
    std::vector<int32_t> ret(n, 99);
    LaunchResult r = run(*module_, "printf_per_item", {buffer(ret)}, range1(n, 8), 3);
    ASSERT_TRUE(r.ok) << r.error;
    const std::vector<std::string> got = lines(r.printf_output);
    ASSERT_EQ(got.size(), 2 * n) << r.printf_output;
    for (size_t gid = 0; gid < n; ++gid) {
        EXPECT_EQ(ret[gid], 0);
        const std::string first = "item " + std::to_string(gid) + ": " + std::to_string(2 * gid);
        const std::string second = "item " + std::to_string(gid) + " done";
        auto a = std::find(got.begin(), got.end(), first), b = std::find(got.begin(), got.end(), second);
        ASSERT_NE(a, got.end()) << first;
        ASSERT_NE(b, got.end()) << second;
        EXPECT_LT(a, b) << gid;
    }
}

TEST_F(Printf, OutputBeyondTheBufferIsDroppedAndReturnsMinusOne) {
    ASSERT_TRUE(module_);
    const size_t n = 1100, line = 1001;  // "%1000d\n"
    std::vector<int32_t> ret(n, 99);
    LaunchResult r = run(*module_, "printf_flood", {buffer(ret)}, range1(n, 100), 2);
    ASSERT_TRUE(r.ok) << r.error;
    const size_t kept = kPrintfBufferSize / line;
    EXPECT_EQ(size_t(std::count(ret.begin(), ret.end(), 0)), kept);
    EXPECT_EQ(size_t(std::count(ret.begin(), ret.end(), -1)), n - kept);
    EXPECT_EQ(r.printf_output.size(), kept * line);
}

TEST_F(Printf, UndefinedFormatsFailTheLaunch) {
    ASSERT_TRUE(module_);
    const struct {
        const char* kernel;
        const char* message;
    } cases[] = {
        {"printf_missing_arg", "printf: %d has no argument (the call passes 1 after the format)"},
        {"printf_mismatch", "printf: %d does not match argument 1 (float)"},
        {"printf_bad_vector", "printf: the vector conversion %v4d has no length modifier"},
        {"printf_bad_conversion", "printf: %n is not a conversion of OpenCL C printf"},
    };
    for (const auto& c : cases) {
        std::vector<int32_t> ret(1, 0);
        LaunchResult r = run(*module_, c.kernel, {buffer(ret)}, range1(1, 1));
        EXPECT_FALSE(r.ok) << c.kernel;
        EXPECT_NE(r.error.find(std::string("undefined behaviour: ") + c.message), std::string::npos)
            << c.kernel << ": " << r.error;
    }
}

TEST_F(Printf, FormatMustPointToChars) {
    // printf whose format is a pointer to uint: refused at build time, naming the problem.
    const std::string text = readText(fixturePath("printf.spvasm"));
    std::string bad = text;
    const std::string call = "%r1 = OpExtInst %uint %std printf %f1 ";
    const size_t at = bad.find(call);
    ASSERT_NE(at, std::string::npos);
    bad.replace(at, call.size(), "%r1 = OpExtInst %uint %std printf %ret ");
    std::vector<uint32_t> words = assemble(bad);
    BuildResult b = buildModule(words.data(), words.size(), testProfile());
    EXPECT_FALSE(b.module);
    EXPECT_NE(b.log.find("printf's format is not a pointer to 8-bit integers"), std::string::npos) << b.log;
}

}  // namespace
}  // namespace refdev::spirv::test
