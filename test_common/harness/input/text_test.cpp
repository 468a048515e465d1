#include "test_common/harness/input/text.h"

#include <gtest/gtest.h>

namespace cts {
namespace {

TEST(Text, TrimmedTakesBlankFromBothEndsOnly) {
    EXPECT_EQ(trimmed("  a b\t\r\n"), "a b");
    EXPECT_EQ(trimmed("\f\v"), "");
    EXPECT_EQ(trimmed(""), "");
    // ocloc's query files end in a NUL byte and a space: the caller names the NUL as blank.
    EXPECT_EQ(trimmed(std::string("22.43\0 ", 7), std::string(" \0", 2)), "22.43");
    EXPECT_EQ(trimmed(std::string("22.43\0 ", 7)), std::string("22.43\0", 6));
}

TEST(Text, DirNameAndBaseNameSplitAtTheLastSlash) {
    EXPECT_EQ(dirName("/a/b/c.json"), "/a/b");
    EXPECT_EQ(baseName("/a/b/c.json"), "c.json");
    EXPECT_EQ(dirName("c.json"), ".");
    EXPECT_EQ(baseName("c.json"), "c.json");
    EXPECT_EQ(dirName("/c.json"), "/");
    EXPECT_EQ(baseName("/c.json"), "c.json");
}

}  // namespace
}  // namespace cts
