#include "test_common/harness/stages/options.h"

#include "test_common/harness/reports/report.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <fstream>
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
                     "--json=r.json", "--timeout", "2.5", "--isolate", "--icd=system", "subgroups"},
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

TEST(Options, Tier) {
    Options o;
    EXPECT_EQ(parse({"--tier=core"}, o), "");
    EXPECT_TRUE(o.core_only);
    EXPECT_EQ(parse({"--tier=all"}, o), "");
    EXPECT_FALSE(o.core_only);
    EXPECT_NE(parse({"--tier=device_specific"}, o).find("expected core or all"), std::string::npos);
}

TEST(Options, UsageErrorsAreOneLineNamingTheProblem) {
    const std::vector<std::vector<std::string>> bad = {{"--bogus"},       {"-x"},
                                                       {"--seed=abc"},    {"--seed=-1"},
                                                       {"--shard=3/3"},   {"--shard=1"},
                                                       {"--shard=a/b"},   {"--shard=0/0"},
                                                       {"--platform=x"},  {"--device-type=fpga"},
                                                       {"--icd=other"},   {"--timeout=0"},
                                                       {"--timeout=abc"}, {"--json"},
                                                       {"--json="},       {"--json", "--quick"},
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

// `--json api` used to write a report called "api" and run every case: a file or directory option takes
// its value only after '=', and the error shows the form to use.
TEST(Options, FileOptionsNeedTheEqualsForm) {
    for (auto opt_word : std::vector<std::pair<std::string, std::string>>{{"--json", "FILE"},
                                                                          {"--junit", "FILE"},
                                                                          {"--log", "FILE"},
                                                                          {"--caselist-file", "FILE"},
                                                                          {"--exclude-file", "FILE"},
                                                                          {"--waiver-file", "FILE"},
                                                                          {"--rerun-failed", "REPORT"},
                                                                          {"--dump-dir", "DIR"},
                                                                          {"--assets-dir", "DIR"}}) {
        const std::string& opt = opt_word.first;
        for (const auto& args : std::vector<std::vector<std::string>>{
                 {opt, "api"}, {opt, "results.json"}, {opt}, {"--list", opt, "--quick"}}) {
            if (opt == "--json" && args[0] == "--list") continue;  // --list --json: the list as JSON
            Options o;
            std::string err = parse(args, o);
            EXPECT_NE(err.find(opt + " needs =" + opt_word.second + ", e.g. " + opt + "="), std::string::npos)
                << opt << ": " << err;
            EXPECT_EQ(err.find('\n'), std::string::npos) << err;
        }
    }
    // Options whose value cannot be mistaken for a case pattern keep both spellings.
    Options o;
    EXPECT_EQ(parse({"--filter", "api", "--seed", "3", "--shard", "0/2", "--device-type", "cpu"}, o), "");
    ASSERT_EQ(o.positive.size(), 1u);
    EXPECT_EQ(o.positive[0].text, "api");
}

// --json without a value prints the --list as JSON and runs nothing; it needs --list and no --json=FILE.
TEST(Options, ListJson) {
    Options o;
    EXPECT_EQ(parse({"--list", "--json", "api"}, o), "");
    EXPECT_TRUE(o.list_json);
    EXPECT_TRUE(o.json_file.empty());
    Options p;
    EXPECT_NE(parse({"--list", "--json", "--json=x.json"}, p), "");
    Options q;
    EXPECT_NE(parse({"--json", "api"}, q).find("--json alone goes with --list"), std::string::npos);
}

TEST(Options, TimeoutErrorStatesTheAcceptedRange) {
    for (const char* bad :
         {"--timeout=1e9", "--timeout=0", "--timeout=-1", "--timeout=inf", "--timeout=nan"}) {
        Options o;
        std::string err = parse({bad}, o);
        EXPECT_NE(err.find("0 < SECONDS <= 10000000"), std::string::npos) << bad << ": " << err;
    }
    Options o;
    EXPECT_EQ(parse({"--timeout=10000000"}, o), "");
    EXPECT_DOUBLE_EQ(o.timeout_seconds, 1e7);
    EXPECT_EQ(parse({"--timeout=0.5"}, o), "");
}

TEST(Options, JobsTakesOneTo256AndIsRefusedOffline) {
    Options o;
    EXPECT_EQ(parse({}, o), "");
    EXPECT_EQ(o.jobs, 0u) << "not given: the usable cores, chosen at run time";
    EXPECT_EQ(parse({"--jobs=3"}, o), "");
    EXPECT_EQ(o.jobs, 3u);
    for (const char* bad : {"--jobs=0", "--jobs=257", "--jobs=-1", "--jobs=two", "--jobs="}) {
        Options b;
        std::string err = parse({bad}, b);
        EXPECT_NE(err.find("1 <= N <= 256"), std::string::npos) << bad << ": " << err;
    }
    // The offline mode compiles N modules at a time (OfflineJudge::compileAhead).
    Options off;
    EXPECT_EQ(parse({"--offline-compiler=ocloc", "--target=pvc", "--jobs=2"}, off), "");
    EXPECT_EQ(off.jobs, 2u);
    Options one;
    EXPECT_EQ(parse({"--offline-compiler=ocloc", "--target=pvc", "--jobs=1"}, one), "");
}

// `--filter=-` or `--filter=::` holds no pattern at all and used to run every case, unlike `--filter=`.
TEST(Options, FilterWithoutAnyPatternIsAnError) {
    for (const char* bad : {"--filter=", "--filter=-", "--filter=::", "--filter=-:", "--filter=:-:"}) {
        Options o;
        std::string err = parse({bad}, o);
        EXPECT_NE(err.find(bad), std::string::npos) << bad << ": " << err;
        EXPECT_NE(err.find("no pattern"), std::string::npos) << bad << ": " << err;
    }
    Options o;
    EXPECT_EQ(parse({"--filter=-api"}, o), "");
    EXPECT_EQ(o.negative.size(), 1u);
    EXPECT_EQ(parse({"--filter=api-"}, o), "");
    EXPECT_EQ(o.positive.size(), 1u);
}

// A scratch directory with a sub-directory `real` and a symbolic link `link` to it.
struct ScratchDir {
    std::string path;
    ScratchDir() {
        std::string templ = testing::TempDir() + "/cts_options_XXXXXX";
        std::vector<char> buf(templ.begin(), templ.end());
        buf.push_back('\0');
        char* made = mkdtemp(buf.data());
        EXPECT_NE(made, nullptr);
        char resolved[PATH_MAX];
        path = made && realpath(made, resolved) ? resolved : "";
        mkdir((path + "/real").c_str(), 0777);
        EXPECT_EQ(symlink((path + "/real").c_str(), (path + "/link").c_str()), 0);
    }
    ~ScratchDir() {
        if (!path.empty()) std::system(("rm -rf '" + path + "'").c_str());
    }
};

// Two reports on one file used to interleave into a corrupt file and exit 0.
TEST(Options, ReportsOnOneFileAreAUsageError) {
    ScratchDir dir;
    char cwd[PATH_MAX];
    ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
    const std::string here = std::string(cwd) == "/" ? "" : cwd;
    struct Case {
        std::vector<std::string> args;
        std::string first, second, path;
    };
    const std::vector<Case> clashes = {
        {{"--json=x", "--junit=x"}, "--json", "--junit", here + "/x"},
        {{"--json=./x", "--junit=x"}, "--json", "--junit", here + "/x"},
        {{"--junit=x", "--log=" + here + "/x"}, "--junit", "--log", here + "/x"},
        {{"--json=" + dir.path + "/real/r", "--log=" + dir.path + "/link/r"},
         "--json",
         "--log",
         dir.path + "/real/r"},
        {{"--json=" + dir.path + "/real/../r", "--log=" + dir.path + "//r"},
         "--json",
         "--log",
         dir.path + "/r"},
        {{"--json=" + dir.path + "/nosuch/./r", "--junit=" + dir.path + "/nosuch/r"},
         "--json",
         "--junit",
         dir.path + "/nosuch/r"},
    };
    for (const auto& c : clashes) {
        Options o;
        std::string err = parse(c.args, o);
        EXPECT_NE(err.find(c.first), std::string::npos) << c.args[0] << " " << c.args[1] << ": " << err;
        EXPECT_NE(err.find(c.second), std::string::npos) << err;
        EXPECT_NE(err.find(c.path), std::string::npos) << err;
        EXPECT_EQ(err.find('\n'), std::string::npos) << err;
    }
    // A dangling link names the file a write through it creates: alink.json -> a.json (neither exists yet),
    // also through a chain of links.
    ASSERT_EQ(symlink("a.json", (dir.path + "/alink.json").c_str()), 0);
    ASSERT_EQ(symlink("alink.json", (dir.path + "/blink.json").c_str()), 0);
    for (const char* link : {"/alink.json", "/blink.json"}) {
        Options o;
        std::string err = parse({"--json=" + dir.path + "/a.json", "--log=" + dir.path + link}, o);
        EXPECT_NE(err.find("--json and --log both write " + dir.path + "/a.json"), std::string::npos)
            << link << ": " << err;
    }
    // The JSON report named by the environment clashes too, and the message says where it came from.
    FakeEnv env;
    env.vars = {{"CL_CONFORMANCE_RESULTS_FILENAME", "./x"}};
    Options o;
    std::string err = parse({"--log=x"}, o, env);
    EXPECT_NE(err.find("CL_CONFORMANCE_RESULTS_FILENAME"), std::string::npos) << err;
    EXPECT_NE(err.find("--log"), std::string::npos) << err;
    // Different files are fine; so is throwing two reports away into /dev/null (not a regular file).
    EXPECT_EQ(parse({"--json=x.json", "--junit=x.xml", "--log=x.log"}, o), "");
    EXPECT_EQ(parse({"--json=" + dir.path + "/real/a", "--junit=" + dir.path + "/link/b"}, o), "");
    EXPECT_EQ(parse({"--json=/dev/null", "--junit=/dev/null", "--log=/dev/null"}, o), "");
    EXPECT_EQ(parse({"--json=x"}, o, env), "");  // --json wins over the environment
}

// A report written over an input of the same run destroys that input (--rerun-failed=r.json --json=r.json).
TEST(Options, AnOutputOnAnInputFileIsAUsageError) {
    ScratchDir dir;
    const std::string in = dir.path + "/real/in.json";
    std::ofstream(in) << "{}";
    ASSERT_EQ(link(in.c_str(), (dir.path + "/hard.json").c_str()), 0);
    struct Case {
        std::vector<std::string> args;
        const char* output;
        const char* input;
    };
    const std::vector<Case> clashes = {
        {{"--rerun-failed=" + in, "--json=" + in}, "--json", "--rerun-failed"},
        {{"--waiver-file=" + in, "--junit=" + dir.path + "/link/in.json"}, "--junit", "--waiver-file"},
        {{"--caselist-file=" + dir.path + "/hard.json", "--log=" + in}, "--log", "--caselist-file"},
        {{"--exclude-file=" + in, "--json=" + dir.path + "/real/../hard.json"}, "--json", "--exclude-file"},
    };
    for (const auto& c : clashes) {
        Options o;
        std::string err = parse(c.args, o);
        EXPECT_NE(err.find(c.output), std::string::npos) << c.args[0] << " " << c.args[1] << ": " << err;
        EXPECT_NE(err.find(c.input), std::string::npos) << err;
        EXPECT_NE(err.find("reads"), std::string::npos) << err;
        EXPECT_EQ(err.find('\n'), std::string::npos) << err;
    }
    Options o;
    EXPECT_EQ(parse({"--rerun-failed=" + in, "--json=" + dir.path + "/real/out.json"}, o), "");
}

// Writing a FIFO blocks until a reader comes (before anything runs, silently); a socket cannot be opened.
TEST(Options, OutputsThatAreNeitherFilesNorCharacterDevicesAreRefused) {
    ScratchDir dir;
    const std::string fifo = dir.path + "/fifo";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    for (const char* option : {"--json=", "--junit=", "--log="}) {
        Options o;
        std::string err = parse({option + fifo}, o);
        EXPECT_NE(err.find("not a regular file"), std::string::npos) << option << ": " << err;
        EXPECT_NE(err.find(fifo), std::string::npos) << err;
    }
    Options o;
    EXPECT_EQ(parse({"--json=/dev/null", "--log=/dev/null"}, o), "");
}

// --dump-dir writes DIR/<case>.*: an input there with such a name would be replaced by a dump.
TEST(Options, DumpFilesOnAnInputAreRefused) {
    ScratchDir dir;
    const std::string in = dir.path + "/real/a.b.txt";
    std::ofstream(in) << "a.b";
    Options o;
    ASSERT_EQ(parse({"--dump-dir=" + dir.path + "/link", "--caselist-file=" + in}, o), "");
    std::string err = checkRunFiles(o, dir.path + "/no_assets", {"a.c", "a.b"});
    EXPECT_NE(err.find("--caselist-file=" + in), std::string::npos) << err;
    EXPECT_NE(err.find("--dump-dir"), std::string::npos) << err;
    EXPECT_EQ(checkRunFiles(o, dir.path + "/no_assets", {"a.c", "a.b.t"}),
              "");                                                    // a.b.txt is no dump of these cases...
    EXPECT_NE(checkRunFiles(o, dir.path + "/no_assets", {"a"}), "");  // ...but is one of case "a" (a.<label>)
    ASSERT_EQ(parse({"--dump-dir=" + dir.path, "--caselist-file=" + in}, o), "");
    EXPECT_EQ(checkRunFiles(o, dir.path + "/no_assets", {"a.b"}), "");
}

// --isolate without --timeout waited forever on a hanging case.
TEST(Options, IsolateHasADefaultPerCaseLimit) {
    Options o;
    ASSERT_EQ(parse({"--isolate"}, o), "");
    EXPECT_DOUBLE_EQ(o.timeout_seconds, kIsolateTimeoutSeconds);
    EXPECT_TRUE(o.timeout_is_default);
    ASSERT_EQ(parse({"--isolate", "--timeout=5"}, o), "");
    EXPECT_DOUBLE_EQ(o.timeout_seconds, 5);
    EXPECT_FALSE(o.timeout_is_default);
    ASSERT_EQ(parse({}, o), "");
    EXPECT_DOUBLE_EQ(o.timeout_seconds, 0);
    EXPECT_NE(usageText("p").find("each case has 300 seconds"), std::string::npos);
}

TEST(Options, ShortHelpAndEndOfOptions) {
    Options o;
    ASSERT_EQ(parse({"-h"}, o), "");
    EXPECT_TRUE(o.help);
    std::string help = usageText("prog");
    EXPECT_NE(help.find("\n  --  "), std::string::npos) << "-- (end of options) is not described";
    EXPECT_NE(help.find("-h, --help"), std::string::npos);
    for (const char* var : {"REFDEV_PROFILE", "REFDEV_REPORT_AS", "REFDEV_FAULTS", "REFDEV_THREADS",
                            "REFDEV_BRANCH_BUDGET", "docs/reference_device.md"})
        EXPECT_NE(help.find(var), std::string::npos) << var;
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

TEST(Options, BooleanVariablesHaveOneGrammar) {
    // CI YAML writes true; only 1 used to count, and anything else was silently false.
    for (const char* yes : {"1", "true", "TRUE", "Yes", "on"}) {
        FakeEnv env;
        env.vars["CTS_FAIL_IF_ALL_SKIPPED"] = yes;
        Options o;
        EXPECT_EQ(parse({}, o, env), "") << yes;
        EXPECT_TRUE(o.fail_if_all_skipped) << yes;
    }
    for (const char* no : {"0", "false", "No", "OFF", ""}) {
        FakeEnv env;
        env.vars["CTS_FAIL_IF_ALL_SKIPPED"] = no;
        Options o;
        EXPECT_EQ(parse({}, o, env), "") << no;
        EXPECT_FALSE(o.fail_if_all_skipped) << no;
    }
    for (const char* bad : {"abc", "2", "y", " true", "truee"}) {
        FakeEnv env;
        env.vars["CTS_FAIL_IF_ALL_SKIPPED"] = bad;
        Options o;
        std::string err = parse({}, o, env);
        EXPECT_NE(err.find("CTS_FAIL_IF_ALL_SKIPPED"), std::string::npos) << bad << ": " << err;
        EXPECT_NE(err.find("true, false"), std::string::npos) << err;
        // The option does not make a malformed variable acceptable: it is a typo either way.
        EXPECT_NE(parse({"--fail-if-all-skipped"}, o, env), "") << bad;
    }
}

TEST(Options, HalfSetShardingVariablesAreRefused) {
    // GoogleTest refuses one without the other; an empty value is the same as unset.
    for (auto vars : std::vector<std::map<std::string, std::string>>{
             {{"GTEST_TOTAL_SHARDS", "2"}},
             {{"GTEST_TOTAL_SHARDS", "2"}, {"GTEST_SHARD_INDEX", ""}},
             {{"GTEST_SHARD_INDEX", "1"}},
             {{"GTEST_SHARD_INDEX", "0"}, {"GTEST_TOTAL_SHARDS", ""}}}) {
        FakeEnv env;
        env.vars = vars;
        Options o;
        std::string err = parse({}, o, env);
        EXPECT_NE(err.find("set both"), std::string::npos) << err;
        EXPECT_NE(parse({"--shard=0/2"}, o, env), "");
    }
    FakeEnv env;
    env.vars = {{"GTEST_TOTAL_SHARDS", "2"}, {"GTEST_SHARD_INDEX", "1"}};
    Options o;
    EXPECT_EQ(parse({}, o, env), "");
    EXPECT_EQ(o.shard_index, 1u);
    EXPECT_EQ(o.shard_count, 2u);
}

TEST(Options, MessagesEscapeWhatTheTerminalWouldObey) {
    FakeEnv env;
    env.vars["CL_DEVICE_TYPE"] = "gp\x1b[2Ju\xc2\x85\xff";
    Options o;
    std::string err = parse({}, o, env);
    EXPECT_NE(err.find("gp\\x1b[2Ju\\xc2\\x85\\xff'"), std::string::npos) << err;
    EXPECT_EQ(printable("caf\xc3\xa9 ok"), "caf\xc3\xa9 ok");
    EXPECT_EQ(printable(std::string("a\nb\0", 4)), "a\\x0ab\\x00");
}

TEST(Options, ASingleValuedOptionGivenTwiceWithDifferentValuesIsRefused) {
    Options o;
    std::string err = parse({"--tier=core", "--tier=all"}, o);
    EXPECT_NE(err.find("--tier given twice (--tier=core and --tier=all)"), std::string::npos) << err;
    for (auto args : std::vector<std::vector<std::string>>{{"--seed=1", "--seed", "2"},
                                                           {"--json=a.json", "--json=b.json"},
                                                           {"--shard=0/2", "--shard=1/2"},
                                                           {"--icd=system", "--icd=reference"},
                                                           {"--jobs=1", "--jobs=2"},
                                                           {"--timeout=1", "--timeout=2"}})
        EXPECT_NE(parse(args, o).find("given twice"), std::string::npos) << args[0];
    // The same value twice changes nothing; repeatable options add up.
    EXPECT_EQ(parse({"--tier=core", "--tier=core", "--tag=a", "--tag=b"}, o), "");
    EXPECT_TRUE(o.core_only);
    EXPECT_EQ(o.tags, (std::vector<std::string>{"a", "b"}));
}

TEST(Options, ListingWritesNoReportSoReportOptionsAreRefused) {
    Options o;
    for (const char* report : {"--json=r.json", "--junit=r.xml", "--log=r.log"}) {
        EXPECT_NE(parse({"--list", report}, o).find("writes no report: drop " + std::string(report)),
                  std::string::npos)
            << report;
        EXPECT_NE(parse({"--list-tags", report}, o).find("--list-tags runs no case"), std::string::npos);
    }
    EXPECT_EQ(parse({"--list", "--json"}, o), "");  // --list --json prints JSON, no file
    FakeEnv env;
    env.vars["CL_CONFORMANCE_RESULTS_FILENAME"] = "ci.json";
    EXPECT_EQ(parse({"--list"}, o, env), "");
}

TEST(Options, DoubleDashEndsOptions) {
    Options o;
    EXPECT_EQ(parse({"--", "--weird"}, o), "");
    ASSERT_EQ(o.positive.size(), 1u);
    EXPECT_EQ(o.positive[0].text, "--weird");
}

// The reports' selection record holds the patterns and filters as given.
TEST(Options, PatternsAndFiltersAsGiven) {
    Options o;
    ASSERT_EQ(parse({"a", "--filter=b:c-d", "e.*", "--filter=f"}, o), "");
    EXPECT_EQ(o.patterns, (std::vector<std::string>{"a", "e.*"}));
    EXPECT_EQ(o.filters, (std::vector<std::string>{"b:c-d", "f"}));
}

TEST(Options, TagListsAndListTags) {
    Options o;
    EXPECT_EQ(parse({"--tag=regression,quick", "--tag", "extended", "--tag=quick", "--list-tags"}, o), "");
    EXPECT_EQ(o.tags, (std::vector<std::string>{"regression", "quick", "extended"}));
    EXPECT_TRUE(o.list_tags);
    EXPECT_EQ(parse({}, o), "");
    EXPECT_TRUE(o.tags.empty());
    EXPECT_FALSE(o.list_tags);
    // An empty tag name would select nothing or everything: refused, as an empty --filter is.
    for (const char* bad : {"--tag=", "--tag=a,", "--tag=,a", "--tag=a,,b"}) {
        std::string err = parse({bad}, o);
        EXPECT_NE(err.find("--tag"), std::string::npos) << bad << ": " << err;
    }
    EXPECT_NE(parse({"--tag"}, o).find("needs a value"), std::string::npos);
    EXPECT_NE(parse({"--list-tags=x"}, o).find("takes no value"), std::string::npos);
}

TEST(Options, HelpTextMentionsEveryOption) {
    std::string help = usageText("prog");
    for (const char* opt : {"--filter",
                            "--caselist-file",
                            "--exclude-file",
                            "--list",
                            "--quick",
                            "--extended",
                            "--huge",
                            "--shard",
                            "--platform",
                            "--device-type",
                            "--icd",
                            "--seed",
                            "--platform-name",
                            "--timeout",
                            "--isolate",
                            "--assets-dir",
                            "--dump-dir",
                            "--json",
                            "--junit",
                            "--log",
                            "--fail-if-all-skipped",
                            "--tag",
                            "--list-tags",
                            "--waiver-file",
                            "--fail-on-stale-waivers",
                            "--rerun-failed"})
        EXPECT_NE(help.find(opt), std::string::npos) << opt;
}

// --run-skipped runs the cases of waiver "skip" entries: without a waiver file it would do nothing, silently.
TEST(Options, RunSkippedNeedsAWaiverFile) {
    Options o;
    std::string err = parse({"--run-skipped"}, o);
    EXPECT_NE(err.find("--run-skipped"), std::string::npos) << err;
    EXPECT_NE(err.find("needs --waiver-file=FILE"), std::string::npos) << err;
    EXPECT_EQ(parse({"--run-skipped", "--waiver-file=w.json"}, o), "");
}

// The share of the selection skips may keep from running: a percentage, 10 by default with
// --fail-if-all-skipped, no limit otherwise.
TEST(Options, MaxSkippedShare) {
    Options o;
    ASSERT_EQ(parse({}, o), "");
    EXPECT_EQ(maxSkippedShare(o), -1);
    ASSERT_EQ(parse({"--fail-if-all-skipped"}, o), "");
    EXPECT_EQ(maxSkippedShare(o), kDefaultMaxSkippedShare);
    ASSERT_EQ(parse({"--fail-if-all-skipped", "--max-skipped-share=25"}, o), "");
    EXPECT_EQ(maxSkippedShare(o), 25);
    ASSERT_EQ(parse({"--max-skipped-share=0"}, o), "");
    EXPECT_EQ(maxSkippedShare(o), 0);
    for (const char* bad : {"--max-skipped-share=101", "--max-skipped-share=-1", "--max-skipped-share=x"})
        EXPECT_NE(parse({bad}, o).find("expected a percentage, 0 <= P <= 100"), std::string::npos) << bad;
}

TEST(Options, WaiverFiles) {
    Options o;
    ASSERT_EQ(parse({"--waiver-file=a.json", "--waiver-file=b.json", "--fail-on-stale-waivers"}, o), "");
    EXPECT_EQ(o.waiver_files, (std::vector<std::string>{"a.json", "b.json"}));
    EXPECT_TRUE(o.fail_on_stale_waivers);
    EXPECT_NE(parse({"--waiver-file="}, o).find("expected a file name"), std::string::npos);
    EXPECT_NE(parse({"--fail-on-stale-waivers=1"}, o).find("takes no value"), std::string::npos);
    ASSERT_EQ(parse({}, o), "");
    EXPECT_TRUE(o.waiver_files.empty());
    EXPECT_FALSE(o.fail_on_stale_waivers);
}

// The report chooses the cases: other selection options would silently change what "rerun" means.
TEST(Options, RerunFailedCombinesWithDeviceOptionsOnly) {
    Options o;
    ASSERT_EQ(
        parse({"--rerun-failed=r.json", "--platform=1", "--device=0", "--shard=0/2", "--exclude-file=x"}, o),
        "");
    EXPECT_EQ(o.rerun_failed, "r.json");
    EXPECT_FALSE(o.seed_given);
    ASSERT_EQ(parse({"--rerun-failed=r.json", "--seed=3"}, o), "");
    EXPECT_TRUE(o.seed_given);
    ASSERT_EQ(parse({"--rerun-failed=r.json", "--huge"}, o), "");  // a report without a selection record
    EXPECT_TRUE(o.huge);
    for (const auto& args :
         std::vector<std::vector<std::string>>{{"--rerun-failed=r.json", "subgroups"},
                                               {"--rerun-failed=r.json", "--filter=a.*"},
                                               {"--rerun-failed=r.json", "--caselist-file=c"},
                                               {"--rerun-failed=r.json", "--tag=quick"},
                                               {"--rerun-failed=r.json", "--quick"},
                                               {"--rerun-failed=r.json", "--extended"},
                                               {"--rerun-failed=r.json", "--tier=all"}}) {
        std::string err = parse(args, o);
        EXPECT_EQ(err.rfind("--rerun-failed selects the cases itself: drop", 0), 0u)
            << args[1] << ": " << err;
    }
    EXPECT_NE(parse({"--rerun-failed=a.json", "--rerun-failed=b.json"}, o).find("given twice"),
              std::string::npos);
}

// A scratch directory for the --icd file tests.
class IcdOption : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/cts_icd_option_XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir = tmpl;
        write("libdriver.so", "a library");
    }
    void TearDown() override { std::system(("rm -rf '" + dir + "'").c_str()); }
    std::string write(const std::string& name, const std::string& text) {
        std::ofstream(dir + "/" + name) << text;
        return dir + "/" + name;
    }
    std::string dir;
};

TEST_F(IcdOption, FileNamesTheLibraryToLoad) {
    std::string icd = write("driver.icd", dir + "/libdriver.so\n");
    Options o;
    ASSERT_EQ(parse({"--icd=" + icd}, o), "");
    EXPECT_EQ(o.icd_file, icd);
    EXPECT_EQ(o.icd_library, dir + "/libdriver.so");
    EXPECT_FALSE(o.icd_system);
    // Trailing blanks and a carriage return are not part of the name; both spellings of the option work.
    write("crlf.icd", "  " + dir + "/libdriver.so \r\nsecond line\n");
    ASSERT_EQ(parse({"--icd", dir + "/crlf.icd"}, o), "");
    EXPECT_EQ(o.icd_library, dir + "/libdriver.so");
    // A bare name is for the dynamic linker to find, as the loaders leave it.
    write("bare.icd", "libOpenCL_vendor.so.1\n");
    ASSERT_EQ(parse({"--icd=" + dir + "/bare.icd"}, o), "");
    EXPECT_EQ(o.icd_library, "libOpenCL_vendor.so.1");
    // Two different --icd are a usage error (the last used to win), the same one twice is not.
    EXPECT_NE(parse({"--icd=" + icd, "--icd=system"}, o).find("--icd given twice"), std::string::npos);
    EXPECT_NE(parse({"--icd=" + icd, "--icd=reference"}, o).find("--icd given twice"), std::string::npos);
    ASSERT_EQ(parse({"--icd=" + icd, "--icd=" + icd}, o), "");
    EXPECT_EQ(o.icd_library, dir + "/libdriver.so");
}

// Workers and the printed rerun command may run from another directory: the paths are made absolute.
TEST_F(IcdOption, RelativePathsBecomeAbsolute) {
    write("rel.icd", "./libdriver.so\n");
    char cwd[PATH_MAX];
    ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
    ASSERT_EQ(chdir(dir.c_str()), 0);
    Options o;
    std::string err = parse({"--icd=rel.icd"}, o);
    ASSERT_EQ(chdir(cwd), 0);
    ASSERT_EQ(err, "");
    char real[PATH_MAX];
    ASSERT_NE(realpath(dir.c_str(), real), nullptr);
    EXPECT_EQ(o.icd_file, std::string(real) + "/rel.icd");
    EXPECT_EQ(o.icd_library.rfind('/', 0), 0u) << o.icd_library;
    EXPECT_NE(o.icd_library.find("/libdriver.so"), std::string::npos);
}

TEST_F(IcdOption, BadFilesAreOneLineUsageErrors) {
    std::vector<std::pair<std::string, std::string>> bad = {
        {dir + "/missing.icd", "no such file (--icd takes reference, system or an .icd file)"},
        {"nope", "no such file"},
        {"", "expected reference, system or an .icd file"},
        {write("empty.icd", ""), "the file is empty"},
        {write("blank.icd", " \n\n"), "the first line is blank"},
        // The library on a later line is not read by the loaders either; the file is not empty.
        {write("first_blank.icd", "\n/usr/lib/libx.so\n"), "the first line is blank"},
        {write("gone.icd", dir + "/libgone.so\n"), "names " + dir + "/libgone.so, which does not exist"},
        {write("dir.icd", dir + "\n"), "which is not a file"},
        {dir, "it is a directory"},
        {write("lib.icd", std::string("\x7f") + "ELF\x02\x01\x01"), "it is a shared library"},
        // /dev/zero has no first line: reading it never ended.
        {"/dev/zero", "not a regular file"},
        {write("long.icd", std::string(8192, 'x')), "the first line is longer than 4096 bytes"},
    };
    for (const auto& [path, want] : bad) {
        Options o;
        std::string err = parse({"--icd=" + path}, o);
        EXPECT_NE(err.find(want), std::string::npos) << path << ": " << err;
        EXPECT_NE(err.find("--icd=" + path), std::string::npos) << err;
        EXPECT_EQ(err.find('\n'), std::string::npos) << err;
    }
    if (geteuid() != 0) {  // root reads any file
        std::string locked = write("locked.icd", dir + "/libdriver.so\n");
        ASSERT_EQ(chmod(locked.c_str(), 0), 0);
        Options o;
        EXPECT_NE(parse({"--icd=" + locked}, o).find("cannot read it"), std::string::npos);
    }
}

TEST(Options, PlatformName) {
    Options o;
    ASSERT_EQ(parse({"--platform-name=Intel(R) OpenCL"}, o), "");
    EXPECT_EQ(o.platform_name, "Intel(R) OpenCL");
    EXPECT_EQ(o.platform, -1);
    // The option wins over the environment's index, as every option does.
    FakeEnv env;
    env.vars["CL_PLATFORM_INDEX"] = "2";
    ASSERT_EQ(parse({"--platform-name", "pocl"}, o, env), "");
    EXPECT_EQ(o.platform_name, "pocl");
    EXPECT_EQ(o.platform, -1);
    ASSERT_EQ(parse({}, o, env), "");
    EXPECT_EQ(o.platform, 2);
    // An explicit index as well is a conflict, in either order.
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"--platform=1", "--platform-name=intel"}, {"--platform-name=intel", "--platform", "0"}}) {
        std::string err = parse(args, o);
        EXPECT_NE(err.find("both choose the platform"), std::string::npos) << err;
    }
    EXPECT_NE(parse({"--platform-name="}, o).find("expected a part of a platform name"), std::string::npos);
}

TEST(Options, OfflineCompilerNeedsATargetAndNoDevice) {
    Options o;
    ASSERT_EQ(parse({"--offline-compiler=ocloc", "--target=pvc", "--timeout=60"}, o), "");
    EXPECT_EQ(o.offline_compiler, "ocloc");
    EXPECT_EQ(o.target, "pvc");
    ASSERT_EQ(parse({"--offline-compiler=/usr/bin/ocloc", "--target", "t/dg2.json"}, o), "");
    EXPECT_EQ(o.target, "t/dg2.json");
    // A program path is a file option: only with '='.
    EXPECT_NE(
        parse({"--offline-compiler", "ocloc", "--target=pvc"}, o).find("--offline-compiler needs =PROGRAM"),
        std::string::npos);
    EXPECT_NE(parse({"--offline-compiler=ocloc"}, o).find("needs --target=NAME"), std::string::npos);
    EXPECT_NE(parse({"--target=pvc"}, o).find("is for --offline-compiler"), std::string::npos);
    EXPECT_NE(parse({"--offline-compiler=", "--target=pvc"}, o).find("expected a program"),
              std::string::npos);
    // Device choices would be silently ignored: each one is refused, the environment's are not looked at.
    for (const char* device : {"--icd=system", "--platform=0", "--platform-name=intel", "--device=1",
                               "--device-type=gpu", "--isolate", "--dump-dir=d"}) {
        std::string err = parse({"--offline-compiler=ocloc", "--target=pvc", device}, o);
        EXPECT_NE(err.find("builds modules without a device: drop"), std::string::npos)
            << device << ": " << err;
    }
    FakeEnv env;
    env.vars["CL_DEVICE_TYPE"] = "gpu";
    EXPECT_EQ(parse({"--offline-compiler=ocloc", "--target=pvc"}, o, env), "");
}

TEST(Retry, Options) {
    auto env = [](const char*) -> const char* { return nullptr; };
    Options o;
    EXPECT_EQ(parseOptions({}, env, o), "");
    EXPECT_EQ(o.retry, 0u);
    EXPECT_FALSE(o.flake_fails);
    Options a;
    EXPECT_EQ(parseOptions({"--retry=10", "--flake-fails"}, env, a), "");
    EXPECT_EQ(a.retry, 10u);
    EXPECT_TRUE(a.flake_fails);
    for (const char* bad : {"--retry=11", "--retry=-1", "--retry=x", "--retry="}) {
        Options b;
        EXPECT_NE(parseOptions({bad}, env, b), "") << bad;
    }
}

}  // namespace
}  // namespace cts
