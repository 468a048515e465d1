#include "test_common/harness/options.h"

#include <gtest/gtest.h>

#include <map>

namespace cts {
namespace {

struct FakeEnv {
    std::map<std::string, std::string> vars;
    EnvLookup lookup() const {
        return [this](const char* n) -> const char* {
            auto it = vars.find(n);
            return it == vars.end() ? nullptr : it->second.c_str();
        };
    }
};

std::string parse(std::vector<std::string> args, Options& o, const FakeEnv& env = {}) {
    return parseOptions(args, env.lookup(), o);
}

TEST(Options, Defaults) {
    Options o;
    EXPECT_EQ(parse({}, o), "");
    EXPECT_EQ(o.platform, -1);
    EXPECT_EQ(o.shard_count, 1u);
    EXPECT_FALSE(o.icd_system);
    EXPECT_EQ(o.seed, 0u);
}

TEST(Options, ValuesBothSpellings) {
    Options o;
    EXPECT_EQ(parse({"--seed=42", "--platform", "1", "--device=2", "--device-type=gpu", "--shard=1/3",
                     "--json", "r.json", "--timeout=2.5", "--isolate", "--icd=system", "subgroups"},
                    o),
              "");
    EXPECT_EQ(o.seed, 42u);
    EXPECT_EQ(o.platform, 1);
    EXPECT_EQ(o.device, 2);
    EXPECT_EQ(o.device_type, "gpu");
    EXPECT_EQ(o.shard_index, 1u);
    EXPECT_EQ(o.shard_count, 3u);
    EXPECT_EQ(o.json_file, "r.json");
    EXPECT_DOUBLE_EQ(o.timeout_seconds, 2.5);
    EXPECT_TRUE(o.isolate);
    EXPECT_TRUE(o.icd_system);
    ASSERT_EQ(o.positive.size(), 1u);
    EXPECT_EQ(o.positive[0].text, "subgroups");
}

TEST(Options, UsageErrorsAreOneLineNamingTheProblem) {
    const std::vector<std::vector<std::string>> bad = {{"--bogus"},       {"-x"},
                                                       {"--seed=abc"},    {"--seed=-1"},
                                                       {"--shard=3/3"},   {"--shard=1"},
                                                       {"--shard=a/b"},   {"--shard=0/0"},
                                                       {"--platform=x"},  {"--device-type=fpga"},
                                                       {"--icd=other"},   {"--timeout=0"},
                                                       {"--timeout=abc"}, {"--json"},
                                                       {"--json="},       {"--json", "--list"},
                                                       {"--list=yes"},    {"--quick", "--extended"},
                                                       {"--filter="}};
    for (const auto& args : bad) {
        Options o;
        std::string err = parse(args, o);
        EXPECT_FALSE(err.empty()) << args[0];
        EXPECT_EQ(err.find('\n'), std::string::npos) << err;
    }
    Options o;
    EXPECT_NE(parse({"--bogus"}, o).find("--bogus"), std::string::npos);
}

TEST(Options, EnvironmentFillsWhatOptionsLeaveOpen) {
    FakeEnv env;
    env.vars = {{"CL_PLATFORM_INDEX", "1"},
                {"CL_DEVICE_INDEX", "3"},
                {"CL_DEVICE_TYPE", "CL_DEVICE_TYPE_CPU"},
                {"GTEST_TOTAL_SHARDS", "4"},
                {"GTEST_SHARD_INDEX", "2"},
                {"CL_CONFORMANCE_RESULTS_FILENAME", "x.json"},
                {"CTS_FAIL_IF_ALL_SKIPPED", "1"}};
    Options o;
    EXPECT_EQ(parse({}, o, env), "");
    EXPECT_EQ(o.platform, 1);
    EXPECT_EQ(o.device, 3);
    EXPECT_EQ(o.device_type, "CL_DEVICE_TYPE_CPU");
    EXPECT_EQ(o.shard_index, 2u);
    EXPECT_EQ(o.shard_count, 4u);
    EXPECT_EQ(o.json_file, "x.json");
    EXPECT_TRUE(o.fail_if_all_skipped);

    EXPECT_EQ(
        parse({"--platform=0", "--device=0", "--device-type=gpu", "--shard=0/2", "--json=y.json"}, o, env),
        "");
    EXPECT_EQ(o.platform, 0);
    EXPECT_EQ(o.device, 0);
    EXPECT_EQ(o.device_type, "gpu");
    EXPECT_EQ(o.shard_index, 0u);
    EXPECT_EQ(o.shard_count, 2u);
    EXPECT_EQ(o.json_file, "y.json");
}

TEST(Options, MalformedEnvironmentIsAUsageError) {
    for (auto kv : std::vector<std::pair<std::string, std::string>>{
             {"CL_PLATFORM_INDEX", "one"}, {"CL_DEVICE_TYPE", "fpga"}, {"GTEST_TOTAL_SHARDS", "0"}}) {
        FakeEnv env;
        env.vars[kv.first] = kv.second;
        Options o;
        std::string err = parse({}, o, env);
        EXPECT_NE(err.find(kv.first), std::string::npos) << err;
    }
    FakeEnv env;
    env.vars = {{"GTEST_TOTAL_SHARDS", "2"}, {"GTEST_SHARD_INDEX", "2"}};
    Options o;
    EXPECT_FALSE(parse({}, o, env).empty());
}

TEST(Options, DoubleDashEndsOptions) {
    Options o;
    EXPECT_EQ(parse({"--", "--weird"}, o), "");
    ASSERT_EQ(o.positive.size(), 1u);
    EXPECT_EQ(o.positive[0].text, "--weird");
}

TEST(Options, HelpTextMentionsEveryOption) {
    std::string help = usageText("prog");
    for (const char* opt :
         {"--filter", "--caselist-file", "--exclude-file", "--list", "--quick", "--extended", "--shard",
          "--platform", "--device-type", "--icd", "--seed", "--timeout", "--isolate", "--assets-dir",
          "--dump-dir", "--json", "--junit", "--log", "--fail-if-all-skipped"})
        EXPECT_NE(help.find(opt), std::string::npos) << opt;
}

}  // namespace
}  // namespace cts
