#include "test_common/harness/model/case.h"

#include <gtest/gtest.h>

#include "test_common/cl/build_log.h"

namespace cts {
namespace {

TEST(Params, Getters) {
    Params p;
    p.set("n", "42");
    p.set("neg", "-7");
    p.set("hex", "0x10");
    p.set("s", "hello");
    p.set("t", "true");
    p.set("f", "0");
    p.set("arr", "[1,-2,3]");
    p.set("csv", "4, 5,6");
    p.set("empty", "[]");
    EXPECT_EQ(p.i("n"), 42);
    EXPECT_EQ(p.i("neg"), -7);
    EXPECT_EQ(p.u("hex"), 16u);
    EXPECT_EQ(p.s("s"), "hello");
    EXPECT_TRUE(p.b("t"));
    EXPECT_FALSE(p.b("f"));
    EXPECT_EQ(p.list("arr"), (std::vector<int64_t>{1, -2, 3}));
    EXPECT_EQ(p.list("csv"), (std::vector<int64_t>{4, 5, 6}));
    EXPECT_TRUE(p.list("empty").empty());
    EXPECT_TRUE(p.has("n"));
    EXPECT_FALSE(p.has("zz"));
}

TEST(Params, MissingOrMalformedThrowsInternalErrorNamingKey) {
    Params p;
    p.set("s", "hello");
    p.set("neg", "-1");
    p.set("float", "1.5");
    p.set("arr", "[1,,2]");
    auto expectThrowNaming = [](auto fn, const std::string& key) {
        try {
            fn();
            ADD_FAILURE() << "no throw for " << key;
        } catch (const InternalError& e) {
            EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
        }
    };
    expectThrowNaming([&] { p.i("missing"); }, "missing");
    expectThrowNaming([&] { p.i("s"); }, "s");
    expectThrowNaming([&] { p.u("neg"); }, "neg");
    expectThrowNaming([&] { p.i("float"); }, "float");
    expectThrowNaming([&] { p.b("s"); }, "s");
    expectThrowNaming([&] { p.list("arr"); }, "arr");
}

struct NopFamily : Family {
    std::string name() const override { return "nop"; }
    Outcome run(const CaseSpec&, RunContext&) const override { return Outcome::pass(); }
};

TEST(Registry, CasesNeedARegisteredFamily) {
    Registry r;
    CaseSpec c;
    c.name = "api.x";
    c.family = "nop";
    EXPECT_THROW(r.addCase(c), InternalError);
    r.addFamily(std::make_unique<NopFamily>());
    EXPECT_NO_THROW(r.addCase(c));
    EXPECT_THROW(r.addFamily(std::make_unique<NopFamily>()), InternalError);
    EXPECT_NE(r.family("nop"), nullptr);
    EXPECT_EQ(r.family("other"), nullptr);
}

TEST(BuildLog, FirstErrorLine) {
    // Intel's OpenCL CPU runtime: progress lines, then remarks, then the error.
    EXPECT_EQ(firstErrorLine("Compilation started\nCompilation done\nremark: <unknown>:0:0: error-free\n"
                             "JIT session error: Symbols not found: [ _Z17sub_group_shuffleDv4_Dhj ]\n"),
              "JIT session error: Symbols not found: [ _Z17sub_group_shuffleDv4_Dhj ]");
    EXPECT_EQ(firstErrorLine("clBuildProgram: CL_BUILD_PROGRAM_FAILURE\nBuild failed\nmore"), "Build failed");
    EXPECT_EQ(firstErrorLine("warning: x\n  first words  \nsecond"), "first words");
    EXPECT_EQ(firstErrorLine("clBuildProgram: CL_INVALID_BINARY"), "clBuildProgram: CL_INVALID_BINARY");
    EXPECT_EQ(firstErrorLine(""), "(empty build log)");
    EXPECT_EQ(firstErrorLine("a\nerror: b\nerror: c"), "error: b");
    // Issue 45 #4: the line copied into every case's message is capped as a build log is.
    const std::string line = firstErrorLine("error: " + std::string(1u << 20, 'x') + " end\nnext");
    EXPECT_LT(line.size(), 1000u);
    EXPECT_EQ(line.rfind("error: xxx", 0), 0u);
    EXPECT_NE(line.find("KB dropped ...]"), std::string::npos) << line;
    EXPECT_EQ(line.substr(line.size() - 4), " end");
    // ocloc 26.27's framing lines are skipped: the compiler's own line may carry no keyword.
    EXPECT_EQ(
        firstErrorLine("Compilation from IR - skipping loading of FCL\nFor PVC platform images should not be "
                       "used\nBuild failed with error code: -11\nCommand was: ocloc compile -file m.spv\n"),
        "For PVC platform images should not be used");
    EXPECT_EQ(
        firstErrorLine("Compilation from IR - skipping loading of FCL\nInvalidModule: Invalid SPIR-V module: "
                       "input SPIR-V module uses extension 'SPV_INTEL_media_block_io' which were disabled\n"),
        "InvalidModule: Invalid SPIR-V module: input SPIR-V module uses extension 'SPV_INTEL_media_block_io' "
        "which were disabled");
}

}  // namespace
}  // namespace cts
