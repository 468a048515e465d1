#include "test_common/harness/stages/option_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

namespace cts {
namespace {

std::vector<std::string> texts(const std::vector<OptionArg>& args) {
    std::vector<std::string> out;
    for (const auto& a : args) out.push_back(a.text());
    return out;
}

std::string parse(const std::vector<std::string>& args, Options& o) {
    return parseOptions(
        args, [](const char*) -> const char* { return nullptr; }, o);
}

// Where --help names the option: "--name" not followed by more of a name (--device is not --device-type).
bool helpNames(const std::string& help, const std::string& option) {
    for (size_t at = help.find(option); at != std::string::npos; at = help.find(option, at + 1)) {
        char next = at + option.size() < help.size() ? help[at + option.size()] : '\n';
        if (!std::isalnum(static_cast<unsigned char>(next)) && next != '-') return true;
    }
    return false;
}

TEST(OptionTable, EveryOptionIsInTheHelp) {
    const std::string help = usageText("prog");
    for (const auto& row : optionTable())
        if (row.name && !row.internal)
            EXPECT_TRUE(helpNames(help, std::string("--") + row.name))
                << "--" << row.name << " is not in --help";
}

TEST(OptionTable, HelpLinesFitTheColumns) {
    const std::string help = optionsHelp();
    for (size_t start = 0, end = 0; start < help.size(); start = end + 1) {
        end = help.find('\n', start);
        EXPECT_LE(end - start, 110u) << help.substr(start, end - start);
    }
}

TEST(OptionTable, NamesAreUnique) {
    for (const auto& row : optionTable())
        if (row.name) EXPECT_EQ(findOption(row.name), &row) << row.name;
}

// Every option, given with its example value, is given again by echoOptions, and parsing the echo yields the
// same echo: what a worker or a rerun command is given means what the user gave.
TEST(OptionTable, ParseEchoRoundTrip) {
    for (const auto& row : optionTable()) {
        if (!row.name) continue;
        const std::string option = std::string("--") + row.name;
        std::vector<std::string> args = {row.value_word ? option + "=" + row.example : option};
        // The offline mode needs both of its options.
        if (option == "--offline-compiler") args.push_back("--target=pvc");
        if (option == "--target") args.push_back("--offline-compiler=ocloc");
        if (option == "--run-skipped") args.push_back("--waiver-file=w.json");  // runs the skips of a file
        Options first;
        ASSERT_EQ(parse(args, first), "") << args[0];
        std::vector<std::string> echo = texts(echoOptions(first));
        EXPECT_NE(std::find(echo.begin(), echo.end(), args[0]), echo.end()) << args[0] << " is not echoed";
        Options again;
        ASSERT_EQ(parse(echo, again), "") << args[0];
        EXPECT_EQ(texts(echoOptions(again)), echo) << args[0];
    }
}

TEST(OptionTable, ListJsonRoundTrip) {
    Options o;
    ASSERT_EQ(parse({"--list", "--json"}, o), "");
    const std::vector<std::string> echo = texts(echoOptions(o));
    EXPECT_EQ(echo, (std::vector<std::string>{"--list", "--seed=0", "--json"}));
    Options again;
    ASSERT_EQ(parse(echo, again), "");
    EXPECT_TRUE(again.list_json);
}

TEST(OptionTable, WorkerAndRerunArguments) {
    Options o;
    ASSERT_EQ(
        parse({"--icd=system", "--seed=7", "--quick", "--tier=core", "--retry=2", "--waiver-file=w.json",
               "--dump-dir=d", "--device-type=gpu", "--assets-dir=a", "--huge", "--json=r.json"},
              o),
        "");
    o.worker = true;
    o.platform = 1, o.device = 0;
    EXPECT_EQ(texts(optionArgs(o, OptionUse::Worker)),
              (std::vector<std::string>{"--worker", "--icd=system", "--platform=1", "--device=0", "--seed=7",
                                        "--assets-dir=a", "--device-type=gpu", "--quick", "--tier=core",
                                        "--retry=2", "--waiver-file=w.json", "--dump-dir=d"}));
    EXPECT_EQ(texts(optionArgs(o, OptionUse::Rerun)),
              (std::vector<std::string>{"--icd=system", "--platform=1", "--device=0", "--device-type=gpu",
                                        "--assets-dir=a", "--quick", "--huge", "--seed=7"}));
}

}  // namespace
}  // namespace cts
