#include "test_common/harness/offline/offline_judge.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <fstream>

#include "test_common/cl/program_cache.h"

namespace cts {
namespace {

class NeverRuns : public Family {
public:
    std::string name() const override { return "f"; }
    Outcome run(const CaseSpec&, RunContext&) const override { return Outcome::internalError("ran"); }
};

// A fake ocloc deciding by the module's file name, and counting its compiles in a file.
class Judge : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/cts_judge_test_XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir = tmpl;
        mkdir((dir + "/modules").c_str(), 0755);
        compiler.path = dir + "/ocloc";
        std::ofstream(compiler.path)
            << "#!/bin/sh\necho x >> '" << dir << "/count'\n"
            << "prev=; for a in \"$@\"; do [ \"$prev\" = -out_dir ] && OUT=\"$a\"; [ \"$prev\" = -file ] && "
               "F=\"$a\"; "
               "prev=\"$a\"; done\n"
            << "case \"$F\" in\n"
            << "  *good*) mkdir -p \"$OUT\"; echo b > \"$OUT/x.bin\"; echo Build succeeded.;;\n"
            << "  *bad*) echo 'error: Block reads not supported in SIMD32'; echo 'in kernel: test'; exit "
               "245;;\n"
            << "  *crash*) kill -SEGV $$;;\n"
            << "esac\n";
        chmod(compiler.path.c_str(), 0755);
        registry.addFamily(std::make_unique<NeverRuns>());
        device.sub_group_sizes = {16, 32};
        device.extensions.push_back({"cl_intel_spirv_subgroups", 1, 0, 0, true});
    }
    void TearDown() override { std::system(("rm -rf '" + dir + "'").c_str()); }

    CaseSpec spec(const std::string& name, const std::string& module, Tier tier = Tier::Core) {
        CaseSpec c;
        c.name = name;
        c.family = "f";
        c.tier = tier;
        c.requires = {"ext=cl_intel_spirv_subgroups", "sg_size=16"};
        if (!module.empty()) {
            uint32_t words[5] = {0x07230203, 0x00010200, 0, 1, 0};
            std::ofstream(dir + "/modules/" + module, std::ios::binary)
                .write(reinterpret_cast<const char*>(words), sizeof words);
            c.module = module;
            c.module_hash = ProgramCache::moduleHash(words, sizeof words);
            c.kernel = "test";
        }
        return c;
    }
    CaseResult judge(OfflineJudge& j, const CaseSpec& c) { return j.judge(c, 0); }
    OfflineJudge make() { return OfflineJudge(registry, compiler, device, "dg2-g10", dir, "", 20); }
    size_t compiles() {
        std::ifstream in(dir + "/count");
        size_t n = 0;
        for (std::string line; std::getline(in, line);) ++n;
        return n;
    }

    std::string dir;
    OfflineCompiler compiler;
    Registry registry;
    DeviceInfo device;
};

TEST_F(Judge, BuiltIsPassAndEachModuleIsCompiledOnce) {
    OfflineJudge j = make();
    CaseSpec a = spec("g.a", "good.spv"), b = spec("g.b", "good.spv");
    CaseResult first = judge(j, a), second = judge(j, b);
    EXPECT_EQ(first.status, Status::Pass);
    EXPECT_EQ(second.status, Status::Pass);
    EXPECT_EQ(compiles(), 1u);
    // The compile is the first case's build phase; the second found it done.
    EXPECT_EQ(first.phases.builds, 1u);
    EXPECT_GT(first.phases.build_ms, 0.0);
    EXPECT_EQ(second.phases.builds, 0u);
    EXPECT_EQ(second.phases.cache_hits, 1u);
    EXPECT_EQ(second.phases.build_ms, 0.0);
}

TEST_F(Judge, TheTierDecidesWhatARejectionIs) {
    OfflineJudge j = make();
    CaseResult core = judge(j, spec("g.core", "bad.spv"));
    EXPECT_EQ(core.status, Status::Fail);
    EXPECT_EQ(core.phase, "build");
    EXPECT_NE(core.message.find("build of bad.spv for dg2-g10 failed (ocloc exit status 245): "
                                "error: Block reads not supported in SIMD32"),
              std::string::npos)
        << core.message;
    EXPECT_NE(core.build_log.find("in kernel: test"), std::string::npos) << core.build_log;
    EXPECT_EQ(core.tier, Tier::Core);

    CaseResult specific = judge(j, spec("g.specific", "bad.spv", Tier::DeviceSpecific));
    EXPECT_EQ(specific.status, Status::NotSupported);
    EXPECT_EQ(
        specific.message,
        "device-specific module not accepted by this device's compiler: error: Block reads not supported in "
        "SIMD32");
    EXPECT_EQ(specific.phase, "");
}

TEST_F(Judge, ACrashIsNeverAPass) {
    OfflineJudge j = make();
    CaseResult r = judge(j, spec("g.crash", "crash.spv", Tier::DeviceSpecific));
    EXPECT_EQ(r.status, Status::Crash);
    EXPECT_NE(r.message.find("ocloc ended by signal 11"), std::string::npos) << r.message;
}

TEST_F(Judge, RequirementsComeFirstAndNothingIsCompiledForThem) {
    OfflineJudge j = make();
    CaseSpec c = spec("g.sg8", "good.spv");
    c.requires = {"sg_size=8"};
    CaseResult r = judge(j, c);
    EXPECT_EQ(r.status, Status::NotSupported);
    EXPECT_NE(r.message.find("sub-group size 8"), std::string::npos) << r.message;
    EXPECT_EQ(compiles(), 0u);
}

TEST_F(Judge, CasesWithoutAModuleCompileNothing) {
    OfflineJudge j = make();
    CaseResult r = judge(j, spec("api.query", ""));
    EXPECT_EQ(r.status, Status::NotSupported);
    EXPECT_EQ(r.message, "runs no module: nothing to compile");
}

TEST_F(Judge, ACorruptModuleIsTheHarnessesProblem) {
    OfflineJudge j = make();
    CaseSpec c = spec("g.corrupt", "good.spv");
    c.module_hash = "crc32:00000000";
    CaseResult r = judge(j, c);
    EXPECT_EQ(r.status, Status::InternalError);
    EXPECT_NE(r.message.find("is corrupt"), std::string::npos) << r.message;
    EXPECT_EQ(compiles(), 0u);
}

}  // namespace
}  // namespace cts
