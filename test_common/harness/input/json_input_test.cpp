#include "test_common/harness/input/json_input.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

namespace cts {
namespace {

TEST(JsonInput, ParseErrorsNameTheFileAndLine) {
    nlohmann::json doc;
    EXPECT_EQ(parseJsonFile("{\n  \"a\": [1, 2]\n}\n", "f.json", &doc), "");
    EXPECT_EQ(doc["a"][1], 2);
    std::string err = parseJsonFile("{\n  \"a\": 1,\n}\n", "f.json", &doc);
    EXPECT_EQ(err.rfind("f.json:3: not valid JSON: syntax error", 0), 0u) << err;
    EXPECT_EQ(parseJsonFile("{\n\"a\": 1,\n\"a\": 2}", "f.json", &doc),
              "f.json:3: key \"a\" appears twice in one object (JSON keeps only the last)");
    EXPECT_EQ(parseJsonFile("[\n1e999]", "f.json", &doc),
              "f.json:2: not valid JSON: number overflow parsing '1e999'");
}

TEST(JsonInput, ReadsThroughThePathGuard) {
    const std::string path = ::testing::TempDir() + "json_input_" + std::to_string(getpid()) + ".json";
    std::ofstream(path) << "{\"k\": \"v\"}\n";
    JsonFile file;
    EXPECT_EQ(readJsonFile(path, &file), "");
    EXPECT_EQ(file.text, "{\"k\": \"v\"}\n");
    EXPECT_EQ(file.doc["k"], "v");
    EXPECT_EQ(readJsonFile(path, &file, 4),
              "cannot read " + path + ": 11 bytes, more than the 4 an input file may have");
    std::ofstream(path) << "{\"k\": }";
    EXPECT_EQ(readJsonFile(path, &file).rfind(path + ":1: not valid JSON: syntax error", 0), 0u);
    std::remove(path.c_str());
    EXPECT_EQ(readJsonFile(path, &file).rfind("cannot read " + path + ": ", 0), 0u);
    EXPECT_EQ(readJsonFile("/tmp", &file), "cannot read /tmp: is a directory");
}

// A quote or bracket inside a string is no structure: the scans skip the string whole, escapes included.
TEST(JsonInput, StringEndSkipsEscapes) {
    const std::string text = R"(["a\"]", "b\\", "open)";
    EXPECT_EQ(jsonStringEnd(text, 1), 6u);   // "a\"]"
    EXPECT_EQ(jsonStringEnd(text, 9), 13u);  // "b\\"
    EXPECT_EQ(jsonStringEnd(text, 16), text.size());
    EXPECT_EQ(jsonStringEnd("\"\\", 0), 2u);  // a trailing backslash does not run past the end
}

}  // namespace
}  // namespace cts
