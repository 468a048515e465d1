// The runner's stages, each on a RunState made by hand: no device, no manifest, no process.
#include "test_common/harness/stages/runner_stages.h"

#include <gtest/gtest.h>

#include "test_common/harness/reports/run_reports.h"

namespace cts {
namespace {

// A run of `args` (after the program name) whose registry holds the cases `names` and nothing else.
struct StagedRun {
    std::vector<std::string> argv_text;
    std::vector<char*> argv;
    std::unique_ptr<RunState> state;

    StagedRun(std::vector<std::string> args, const std::vector<std::string>& names) {
        argv_text.push_back("spirv_intel_cts");
        for (auto& a : args) argv_text.push_back(a);
        for (auto& a : argv_text) argv.push_back(a.data());
        state = std::make_unique<RunState>(int(argv.size()), argv.data());
        for (const auto& n : names) {
            CaseSpec c;
            c.name = n;
            c.family = "f";
            state->registry.mutableCases().push_back(c);
        }
        collectHeads(*state);
    }
};

TEST(RunnerStages, ChooseCasesSelectsByPatternAndKeepsTheNames) {
    StagedRun run({"--jobs=1", "a.*"}, {"a.one", "a.two", "b.one"});
    ASSERT_FALSE(parseCommandLine(*run.state).has_value());
    EXPECT_FALSE(chooseCases(*run.state).has_value());
    EXPECT_EQ(run.state->selected_names, (std::vector<std::string>{"a.one", "a.two"}));
    EXPECT_EQ(run.state->sel.cases.size(), 2u);  // an in-process run loads what it runs
}

// --jobs=N>1 runs even a one-batch selection in a worker: the runner loads no entry of it.
TEST(RunnerStages, JobsAboveOneLeavesEvenOneBatchToTheWorkers) {
    StagedRun run({"--jobs=2", "a.*"}, {"a.one", "a.two", "b.one"});
    ASSERT_FALSE(parseCommandLine(*run.state).has_value());
    EXPECT_FALSE(chooseCases(*run.state).has_value());
    EXPECT_EQ(run.state->selected_names, (std::vector<std::string>{"a.one", "a.two"}));
    EXPECT_TRUE(run.state->sel.cases.empty());
}

TEST(RunnerStages, APatternMatchingNothingEndsTheRunWithStatus2) {
    StagedRun run({"nope.*"}, {"a.one"});
    ASSERT_FALSE(parseCommandLine(*run.state).has_value());
    testing::internal::CaptureStderr();
    StageResult exit = chooseCases(*run.state);
    std::string err = testing::internal::GetCapturedStderr();
    ASSERT_TRUE(exit.has_value());
    EXPECT_EQ(*exit, 2);
    EXPECT_NE(err.find("spirv_intel_cts: error: "), std::string::npos) << err;
}

TEST(RunnerStages, ABadOptionEndsTheRunAtTheCommandLineWithStatus2) {
    StagedRun run({"--no-such-option"}, {});
    testing::internal::CaptureStderr();
    StageResult exit = parseCommandLine(*run.state);
    testing::internal::GetCapturedStderr();
    ASSERT_TRUE(exit.has_value());
    EXPECT_EQ(*exit, 2);
}

TEST(RunnerStages, SelectionRecordJoinsRepeatedInputsByLine) {
    Options o;
    o.patterns = {"a.*"};
    o.caselist_files = {"one.txt", "two.txt"};
    o.seed = 9;
    o.core_only = true;
    SelectionRecord r = selectionRecord(o, "abc");
    EXPECT_EQ(r.patterns, (std::vector<std::string>{"a.*"}));
    EXPECT_EQ(r.caselist_file, "one.txt\ntwo.txt");
    EXPECT_EQ(r.exclude_file, "");
    EXPECT_EQ(r.seed, 9u);
    EXPECT_TRUE(r.core_only);
    EXPECT_EQ(r.manifest_sha256, "abc");
    EXPECT_FALSE(r.suite_version.empty());
}

TEST(ExitPolicy, AGoodRunIsStatus0WithoutNotes) {
    ExitPolicy p = exitPolicy(ExitPolicyFacts{});
    EXPECT_EQ(p.status, 0);
    EXPECT_TRUE(p.notes.empty());
}

TEST(ExitPolicy, EachRunLevelProblemMakesStatus1) {
    ExitPolicyFacts failed;
    failed.all_good = false;
    ExitPolicyFacts run_error;
    run_error.run_errors = 1;
    ExitPolicyFacts report;
    report.reports_ok = false;
    ExitPolicyFacts log;
    log.log_failed = true;
    for (const auto& f : {failed, run_error, report, log}) {
        ExitPolicy p = exitPolicy(f);
        EXPECT_EQ(p.status, 1);
        EXPECT_TRUE(p.notes.empty());
    }
}

TEST(ExitPolicy, StaleWaiversAndAllSkippedFailOnlyWhenAsked) {
    ExitPolicyFacts f;
    f.stale_waivers = 2;
    f.passed = 0;
    EXPECT_EQ(exitPolicy(f).status, 0);
    f.fail_on_stale_waivers = true;
    f.fail_if_all_skipped = true;
    ExitPolicy p = exitPolicy(f);
    EXPECT_EQ(p.status, 1);
    EXPECT_EQ(p.notes, (std::vector<std::string>{"2 stale waiver(s) and --fail-on-stale-waivers is set",
                                                 "no case passed and --fail-if-all-skipped is set"}));
    f.stale_waivers = 0;
    f.passed = 1;
    EXPECT_EQ(exitPolicy(f).status, 0);
}

TEST(ExitPolicy, AnEmptyShardIsNotAllSkipped) {
    // More shards than cases leaves a shard empty, which the docs call fine; --fail-if-all-skipped used to
    // fail it.
    ExitPolicyFacts f;
    f.fail_if_all_skipped = true;
    f.empty_shard = true;
    EXPECT_EQ(exitPolicy(f).status, 0);
    EXPECT_TRUE(exitPolicy(f).notes.empty());
}

}  // namespace
}  // namespace cts
