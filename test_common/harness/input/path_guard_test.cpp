#include "test_common/harness/input/path_guard.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

namespace cts {
namespace {

struct Scratch {
    std::string path;
    Scratch() {
        char tmpl[] = "/tmp/path_guard_test.XXXXXX";
        path = mkdtemp(tmpl);
    }
    ~Scratch() { std::system(("rm -rf '" + path + "'").c_str()); }
};

TEST(PathGuard, ReadsOnlyRegularFilesUpToTheCap) {
    Scratch d;
    std::string text;
    EXPECT_NE(readTextFile("/dev/zero", &text).find("not a regular file (a character device)"),
              std::string::npos);
    ASSERT_EQ(mkfifo((d.path + "/fifo").c_str(), 0600), 0);
    EXPECT_NE(readTextFile(d.path + "/fifo", &text).find("not a regular file (a FIFO)"), std::string::npos);
    EXPECT_NE(readTextFile(d.path, &text).find("is a directory"), std::string::npos);
    EXPECT_NE(readTextFile(d.path + "/missing", &text).find("No such file"), std::string::npos);
    std::ofstream(d.path + "/f") << "0123456789";
    EXPECT_NE(readTextFile(d.path + "/f", &text, 9).find("more than the 9"), std::string::npos);
    EXPECT_EQ(readTextFile(d.path + "/f", &text, 10), "");
    EXPECT_EQ(text, "0123456789");
    // A symbolic link to a special file is that file.
    ASSERT_EQ(symlink("/dev/zero", (d.path + "/zero").c_str()), 0);
    EXPECT_NE(readTextFile(d.path + "/zero", &text).find("not a regular file"), std::string::npos);
}

TEST(PathGuard, AnOutputMayNotReplaceAnInput) {
    Scratch d;
    std::ofstream(d.path + "/in.json") << "{}";
    ASSERT_EQ(mkdir((d.path + "/modules").c_str(), 0700), 0);
    std::ofstream(d.path + "/modules/m.spv") << "x";
    ASSERT_EQ(link((d.path + "/in.json").c_str(), (d.path + "/hard").c_str()), 0);
    ASSERT_EQ(symlink((d.path + "/in.json").c_str(), (d.path + "/soft").c_str()), 0);
    const std::vector<RunFile> inputs = {{"the manifest", d.path + "/in.json"}};
    const std::vector<RunFile> dirs = {{"modules", d.path + "/modules"}};
    for (const char* out : {"/in.json", "/hard", "/soft", "/./in.json"}) {
        std::string e = outputOntoInput({{"--json", d.path + out}}, inputs, dirs);
        EXPECT_NE(e.find("would replace the file the manifest=" + d.path + "/in.json"), std::string::npos)
            << e;
    }
    EXPECT_NE(outputOntoInput({{"--log", d.path + "/modules/m.spv"}}, inputs, dirs).find("a file of modules"),
              std::string::npos);
    EXPECT_EQ(outputOntoInput({{"--json", d.path + "/new.json"}}, inputs, dirs), "");  // not yet a file
    EXPECT_EQ(outputOntoInput({{"--json", "/dev/null"}}, inputs, dirs), "");
}

TEST(PathGuard, AFileNamedLikeADumpInTheDumpDirectory) {
    Scratch d;
    const std::vector<RunFile> files = {{"--log", d.path + "/a.b.txt"}};
    EXPECT_NE(fileNamedLikeADump(d.path, files, {"a.c", "a.b"}).find("--log=" + d.path + "/a.b.txt"),
              std::string::npos);
    EXPECT_NE(fileNamedLikeADump(d.path, files, {"a"}), "");  // a.<label> of case a
    EXPECT_EQ(fileNamedLikeADump(d.path, files, {"a.b.t", "b"}), "");
    EXPECT_EQ(fileNamedLikeADump(d.path + "/elsewhere", files, {"a.b"}), "");
    EXPECT_EQ(fileNamedLikeADump("", files, {"a.b"}), "");
}

}  // namespace
}  // namespace cts
