#include "test_common/harness/offline_compiler.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

namespace cts {
namespace {

// Stand-in compilers: shell scripts that answer as ocloc does (a query writes a file in the working
// directory; a compile writes a binary into -out_dir) or misbehave in one way each.
class FakeCompiler : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/cts_ocloc_test_XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir = tmpl;
        module = dir + "/m.spv";
        std::ofstream(module) << "not really SPIR-V";
    }
    void TearDown() override { std::system(("rm -rf '" + dir + "'").c_str()); }

    // A script whose body sees the compile's out dir as $OUT (the argument after -out_dir).
    std::string script(const std::string& name, const std::string& body) {
        std::string path = dir + "/" + name;
        std::ofstream(path)
            << "#!/bin/sh\nOUT=\n"
            << "prev=; for a in \"$@\"; do [ \"$prev\" = -out_dir ] && OUT=\"$a\"; prev=\"$a\"; done\n"
            << body << "\n";
        chmod(path.c_str(), 0755);
        return path;
    }
    CompileResult compile(const std::string& body, double timeout = 20) {
        OfflineCompiler c;
        c.path = script("ocloc", body);
        return compileModule(c, module, "dg2-g10", "", timeout);
    }

    std::string dir, module;
};

TEST_F(FakeCompiler, BuiltMeansExitZeroAndABinary) {
    CompileResult r = compile("echo Build succeeded.; mkdir -p \"$OUT\"; echo bin > \"$OUT/m.bin\"");
    EXPECT_EQ(r.kind, CompileResult::Kind::Built) << r.log;
    EXPECT_NE(r.log.find("Build succeeded."), std::string::npos);
    EXPECT_NE(r.command.find("compile -spirv_input -file " + module + " -device dg2-g10 -out_dir"),
              std::string::npos)
        << r.command;
    // The temporary directory it wrote into is gone.
    size_t at = r.command.find("-out_dir ");
    std::string out = r.command.substr(at + 9);
    struct stat st;
    EXPECT_NE(stat(out.c_str(), &st), 0) << out << " still exists";
}

TEST_F(FakeCompiler, ExitZeroWithoutABinaryIsNoBuild) {
    CompileResult r = compile("echo Build succeeded.");
    EXPECT_EQ(r.kind, CompileResult::Kind::Crashed);
    EXPECT_EQ(r.signal, 0);
}

TEST_F(FakeCompiler, NonZeroExitIsARejectionWithItsLog) {
    CompileResult r = compile("echo 'error: Block reads not supported in SIMD32' >&2; exit 245");
    EXPECT_EQ(r.kind, CompileResult::Kind::Rejected);
    EXPECT_EQ(r.exit_status, 245);
    EXPECT_NE(r.log.find("Block reads not supported"), std::string::npos) << r.log;
}

TEST_F(FakeCompiler, ASignalIsACrash) {
    CompileResult r = compile("kill -SEGV $$");
    EXPECT_EQ(r.kind, CompileResult::Kind::Crashed);
    EXPECT_EQ(r.signal, SIGSEGV);
    EXPECT_NE(signalText(r.signal).find("signal 11"), std::string::npos);
}

TEST_F(FakeCompiler, AHangIsKilledWithWhatItStarted) {
    auto start = std::chrono::steady_clock::now();
    // The grandchild keeps the output pipe open: the time limit, not the end of the output, must end it.
    CompileResult r = compile("sleep 30 & sleep 30", 0.5);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.kind, CompileResult::Kind::TimedOut);
    EXPECT_LT(seconds, 10.0);
}

TEST_F(FakeCompiler, QueriesReadTheFilesOclocWrites) {
    OfflineCompiler c;
    c.path = script("ocloc", "printf '22.43.24595\\000 ' > \"$2\"");
    ASSERT_EQ(queryOfflineCompiler(c, 10), "");
    EXPECT_EQ(c.driver_version, "22.43.24595");
    EXPECT_EQ(c.neo_revision, "22.43.24595");  // the fake answers every query alike

    c.path = script("broken", "echo 'Invalid option' >&2; exit 1");
    std::string err = queryOfflineCompiler(c, 10);
    EXPECT_NE(err.find("query OCL_DRIVER_VERSION: exit status 1"), std::string::npos) << err;
    EXPECT_NE(err.find("Invalid option"), std::string::npos) << err;
}

TEST_F(FakeCompiler, FoundOnPathOrAtAPath) {
    std::string path = script("ocloc", "exit 0");
    std::string resolved;
    EXPECT_EQ(findOfflineCompiler("ocloc", "/nonexistent:" + dir, resolved), "");
    EXPECT_EQ(resolved, path);
    EXPECT_EQ(findOfflineCompiler(path, "", resolved), "");
    std::string err = findOfflineCompiler("ocloc", "/nonexistent", resolved);
    EXPECT_EQ(err, "ocloc: not found on PATH (/nonexistent)");
    EXPECT_NE(findOfflineCompiler(dir + "/none", dir, resolved).find("no executable file there"),
              std::string::npos);
    EXPECT_NE(findOfflineCompiler(module, dir, resolved).find("no executable file there"), std::string::npos);
}

TEST(OfflineCompilerArguments, OptionsOnlyWhenThereAreAny) {
    EXPECT_EQ(compileArguments("m.spv", "pvc", "/o", ""),
              (std::vector<std::string>{"compile", "-spirv_input", "-file", "m.spv", "-device", "pvc",
                                        "-out_dir", "/o"}));
    EXPECT_EQ(compileArguments("m.spv", "pvc", "/o", "-cl-opt-disable").back(), "-cl-opt-disable");
}

}  // namespace
}  // namespace cts
