#include "test_common/harness/offline/offline_compiler.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

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

// Issue 45 #2: a compiler that closes its output and then hangs (`exec ocloc "$@" >>log 2>&1` around a hung
// ocloc) is still running: the time limit holds until it exits.
TEST_F(FakeCompiler, AHangAfterClosingItsOutputIsATimeout) {
    auto start = std::chrono::steady_clock::now();
    CompileResult r = compile("exec >/dev/null 2>&1; sleep 30", 1);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.kind, CompileResult::Kind::TimedOut);
    EXPECT_LT(seconds, 10.0);

    OfflineCompiler c;
    c.path = script("mute", "exec >/dev/null 2>&1; sleep 30");
    start = std::chrono::steady_clock::now();
    std::string err = queryOfflineCompiler(c, 1);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_NE(err.find("no answer within"), std::string::npos) << err;
    EXPECT_LT(seconds, 10.0);
}

// Issue 45 #11: the compiler's own exit is its verdict, not the end of its output: a child it left behind
// holding the output open makes no Timeout, and is killed.
TEST_F(FakeCompiler, AnExitLeavingAChildHoldingTheOutputIsTheExitsVerdict) {
    auto start = std::chrono::steady_clock::now();
    CompileResult r = compile(
        "mkdir -p \"$OUT\"; echo bin > \"$OUT/m_dg2-g10.bin\"; echo Build succeeded.\n"
        "sleep 30 & echo $! > '" +
            dir + "/child'",
        5);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.kind, CompileResult::Kind::Built) << r.log;
    EXPECT_LT(seconds, 4.0);
    int child = 0;
    std::ifstream(dir + "/child") >> child;
    ASSERT_GT(child, 0);
    bool gone = false;  // killed; init reaps it soon after
    for (int i = 0; i < 200 && !gone; ++i) {
        std::ifstream stat("/proc/" + std::to_string(child) + "/stat");
        std::string pid, comm, state;
        gone = !(stat >> pid >> comm >> state) || state == "Z";
        if (!gone) usleep(10000);
    }
    EXPECT_TRUE(gone) << "the compiler's child " << child << " still runs";
}

// Issue 45 #3: Pass needs a device binary: a non-empty regular *.bin file, not any entry of the out dir.
TEST_F(FakeCompiler, AnEmptyDirectoryOrFileIsNoBinary) {
    for (const char* made :
         {"mkdir -p \"$OUT/m_dg2-g10.bin\"", "mkdir -p \"$OUT/sub\"",
          "mkdir -p \"$OUT\"; : > \"$OUT/m_dg2-g10.bin\"",
          "mkdir -p \"$OUT\"; echo x > \"$OUT/m_dg2-g10.txt\"",
          "mkdir -p \"$OUT\"; echo x > /tmp/cts_bin_$$; ln -s /tmp/cts_bin_$$ \"$OUT/m.bin\""}) {
        CompileResult r = compile(std::string(made) + "; echo Build succeeded.");
        EXPECT_EQ(r.kind, CompileResult::Kind::Crashed) << made;
    }
    std::system("rm -f /tmp/cts_bin_*");
}

// Issue 45 #4: what is kept of the output is its head and tail, with the size dropped between them.
TEST_F(FakeCompiler, AHugeOutputIsKeptHeadAndTail) {
    CompileResult r =
        compile("head -c 30000000 /dev/zero | tr '\\000' x; echo; echo 'error: the end'; exit 1");
    EXPECT_EQ(r.kind, CompileResult::Kind::Rejected);
    EXPECT_LT(r.log.size(), 100000u);
    EXPECT_NE(r.log.find("[... 28 MB dropped ...]"), std::string::npos) << r.log.substr(32760, 80);
    EXPECT_NE(r.log.find("error: the end"), std::string::npos);
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

// A stand-in with `ocloc multi`: each line of the command file is a build, decided by the module's file name
// (good: built, bad: rejected, nobin: "Build succeeded." without a binary, abort: the whole process dies
// there); every invocation is logged, so the tests see which modules were compiled on their own.
class FakeMulti : public FakeCompiler {
protected:
    std::string compiler() {
        const std::string decide = R"(
case "$F" in
  *good*) mkdir -p "$OUT"; echo bin > "$OUT/m.bin"; echo Build succeeded.; ok=1;;
  *nobin*) echo Build succeeded.; ok=1;;
  *emptydir*) mkdir -p "$OUT/m.bin"; echo Build succeeded.; ok=1;;
  *abort*) exit 10;;
  *) echo 'error: Block reads not supported in SIMD32'; ok=0;;
esac
)";
        return script("ocloc", "LOG='" + dir + "/calls'" + R"(
if [ "$1" = multi ]; then
  echo multi >> "$LOG"
  n=0
  while IFS= read -r line; do
    n=$((n+1)); echo "Command number $n: "
    eval "set -- $line"
    prev=; for a in "$@"; do [ "$prev" = -out_dir ] && OUT="$a"; [ "$prev" = -file ] && F="$a"; prev="$a"; done
)" + decide + R"(
    [ $ok = 1 ] || echo 'Build failed with error code: -11'
  done < "$2"
  exit 0
fi
prev=; for a in "$@"; do [ "$prev" = -file ] && F="$a"; prev="$a"; done
echo "compile $F" >> "$LOG"
)" + decide + "[ $ok = 1 ] || exit 245\n");
    }
    std::string module(const std::string& name) {
        std::string path = dir + "/" + name;
        std::ofstream(path) << "m";
        return path;
    }
    // The modules compiled on their own ("compile PATH" lines of the log) and the number of batches.
    std::vector<std::string> alone(size_t* batches) {
        std::ifstream in(dir + "/calls");
        std::vector<std::string> out;
        *batches = 0;
        for (std::string line; std::getline(in, line);) {
            if (line == "multi") ++*batches;
            if (line.compare(0, 8, "compile ") == 0) out.push_back(line.substr(line.rfind('/') + 1));
        }
        return out;
    }
};

TEST_F(FakeMulti, ABatchSettlesItsBuildsAndTheRestAreCompiledAlone) {
    OfflineCompiler c;
    c.path = compiler();
    std::vector<std::string> paths = {module("good1.spv"), module("bad.spv"), module("good2.spv"),
                                      module("nobin.spv"), module("emptydir.spv")};
    std::vector<CompileResult> r = compileModules(c, paths, "mtl", "", 20);
    ASSERT_EQ(r.size(), 5u);
    EXPECT_EQ(r[0].kind, CompileResult::Kind::Built);
    EXPECT_NE(r[0].command.find(" multi "), std::string::npos) << r[0].command;
    EXPECT_EQ(r[2].kind, CompileResult::Kind::Built);
    // The rejection and the success without a binary are what a compile of their own says.
    EXPECT_EQ(r[1].kind, CompileResult::Kind::Rejected);
    EXPECT_EQ(r[1].exit_status, 245);
    EXPECT_NE(r[1].command.find("compile -spirv_input -file " + paths[1]), std::string::npos) << r[1].command;
    EXPECT_NE(r[1].log.find("Block reads not supported"), std::string::npos) << r[1].log;
    EXPECT_EQ(r[3].kind, CompileResult::Kind::Crashed);
    EXPECT_EQ(r[4].kind, CompileResult::Kind::Crashed);  // a directory named *.bin is no binary (issue 45 #3)
    size_t batches = 0;
    EXPECT_EQ(alone(&batches), (std::vector<std::string>{"bad.spv", "nobin.spv", "emptydir.spv"}));
    EXPECT_EQ(batches, 1u);
}

TEST_F(FakeMulti, ABatchThatDiesLeavesTheRestToAnotherBatch) {
    OfflineCompiler c;
    c.path = compiler();
    std::vector<std::string> paths = {module("good1.spv"), module("abort.spv"), module("good2.spv"),
                                      module("bad.spv"), module("good3.spv")};
    std::vector<CompileResult> r = compileModules(c, paths, "mtl", "", 20);
    EXPECT_EQ(r[0].kind, CompileResult::Kind::Built);
    // ocloc exits 10 on it alone too: a rejection with that status.
    EXPECT_EQ(r[1].kind, CompileResult::Kind::Rejected);
    EXPECT_EQ(r[1].exit_status, 10);
    EXPECT_EQ(r[2].kind, CompileResult::Kind::Built);
    EXPECT_EQ(r[3].kind, CompileResult::Kind::Rejected);
    EXPECT_EQ(r[4].kind, CompileResult::Kind::Built);
    size_t batches = 0;
    EXPECT_EQ(alone(&batches), (std::vector<std::string>{"abort.spv", "bad.spv"}));
    EXPECT_EQ(batches, 2u);
}

TEST_F(FakeMulti, WhatALineCannotQuoteAndACompilerWithoutMultiAreCompiledAlone) {
    OfflineCompiler c;
    c.path = compiler();
    std::vector<std::string> paths = {module("good\"1.spv"), module("good2.spv"), module("good3.spv")};
    std::vector<CompileResult> r = compileModules(c, paths, "mtl", "", 20);
    for (const auto& one : r) EXPECT_EQ(one.kind, CompileResult::Kind::Built) << one.log;
    size_t batches = 0;
    EXPECT_EQ(alone(&batches), (std::vector<std::string>{"good\"1.spv"}));
    EXPECT_EQ(batches, 1u);

    // An ocloc that knows no `multi` (usage text, exit 1): nothing reached, each compiled alone.
    c.path =
        script("old", "[ \"$1\" = multi ] && { echo 'Unknown command'; exit 1; }\n" +
                          std::string("mkdir -p \"$OUT\"; echo bin > \"$OUT/m.bin\"; echo Build succeeded."));
    r = compileModules(c, {paths[1], paths[2]}, "mtl", "", 20);
    for (const auto& one : r) {
        EXPECT_EQ(one.kind, CompileResult::Kind::Built) << one.log;
        EXPECT_EQ(one.command.find(" multi "), std::string::npos) << one.command;
    }
}

TEST(OfflineCompilerArguments, OptionsOnlyWhenThereAreAny) {
    EXPECT_EQ(compileArguments("m.spv", "pvc", "/o", ""),
              (std::vector<std::string>{"compile", "-spirv_input", "-file", "m.spv", "-device", "pvc",
                                        "-out_dir", "/o"}));
    EXPECT_EQ(compileArguments("m.spv", "pvc", "/o", "-cl-opt-disable").back(), "-cl-opt-disable");
}

}  // namespace
}  // namespace cts
