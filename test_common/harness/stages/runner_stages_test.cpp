// The runner's stages, each on state made by hand: no device, no manifest, no process.
#include "test_common/harness/stages/runner_stages.h"

#include <gtest/gtest.h>

#include "test_common/harness/stages/run_reports.h"

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
            state->loaded.registry.mutableCases().push_back(c);
        }
        collectHeads(state->loaded, state->run_errors);
    }

    StageResult choose() {
        RunState& s = *state;
        return chooseCases(s.program, s.opt, s.env, s.run_errors, s.loaded, s.selected);
    }

    StageResult parse() {
        return parseCommandLine(state->program, int(argv.size()), argv.data(), state->opt);
    }
};

TEST(RunnerStages, ChooseCasesSelectsByPatternAndKeepsTheNames) {
    StagedRun run({"--jobs=1", "a.*"}, {"a.one", "a.two", "b.one"});
    ASSERT_FALSE(run.parse().has_value());
    EXPECT_FALSE(run.choose().has_value());
    EXPECT_EQ(run.state->selected.selected_names, (std::vector<std::string>{"a.one", "a.two"}));
    EXPECT_EQ(run.state->selected.sel.cases.size(), 2u);  // an in-process run loads what it runs
}

// --jobs=N>1 runs even a one-batch selection in a worker: the runner loads no entry of it.
TEST(RunnerStages, JobsAboveOneLeavesEvenOneBatchToTheWorkers) {
    StagedRun run({"--jobs=2", "a.*"}, {"a.one", "a.two", "b.one"});
    ASSERT_FALSE(run.parse().has_value());
    EXPECT_FALSE(run.choose().has_value());
    EXPECT_EQ(run.state->selected.selected_names, (std::vector<std::string>{"a.one", "a.two"}));
    EXPECT_TRUE(run.state->selected.sel.cases.empty());
    EXPECT_FALSE(run.state->selected.plan.empty());  // the batches the workers are given
}

TEST(RunnerStages, APatternMatchingNothingEndsTheRunWithStatus2) {
    StagedRun run({"nope.*"}, {"a.one"});
    ASSERT_FALSE(run.parse().has_value());
    testing::internal::CaptureStderr();
    StageResult exit = run.choose();
    std::string err = testing::internal::GetCapturedStderr();
    ASSERT_TRUE(exit.has_value());
    EXPECT_EQ(*exit, 2);
    EXPECT_NE(err.find("spirv_intel_cts: error: "), std::string::npos) << err;
}

TEST(RunnerStages, ABadOptionEndsTheRunAtTheCommandLineWithStatus2) {
    StagedRun run({"--no-such-option"}, {});
    testing::internal::CaptureStderr();
    StageResult exit = run.parse();
    testing::internal::GetCapturedStderr();
    ASSERT_TRUE(exit.has_value());
    EXPECT_EQ(*exit, 2);
}

// A user's --assets-dir that names no directory is a usage error before anything is loaded.
TEST(RunnerStages, AnAssetsDirThatIsNoDirectoryEndsTheRunWithStatus2) {
    Options opt;
    opt.icd_system = true;  // leaves the ICD loader's environment as it is
    opt.assets_dir = "/nonexistent/assets";
    RunEnvironment env;
    testing::internal::CaptureStderr();
    StageResult exit = prepareEnvironment("spirv_intel_cts", opt, env);
    std::string err = testing::internal::GetCapturedStderr();
    ASSERT_TRUE(exit.has_value());
    EXPECT_EQ(*exit, 2);
    EXPECT_NE(err.find("--assets-dir=/nonexistent/assets"), std::string::npos) << err;
    EXPECT_FALSE(env.offline);
}

// Without --assets-dir the assets are looked for next to the program: found or not, the run goes on, and
// when they are missing the reason is kept for the load stage to report.
TEST(RunnerStages, MissingDefaultAssetsAreRecordedNotFatal) {
    Options opt;
    opt.icd_system = true;
    RunEnvironment env;
    EXPECT_FALSE(prepareEnvironment("spirv_intel_cts", opt, env).has_value());
    EXPECT_FALSE(env.assets.empty());
    EXPECT_EQ(env.assets_missing.empty(), !env.defaults.assets_dir.empty());
}

// Without assets the run still loads the families' cases: the reason is a run-level error, not a stop.
TEST(RunnerStages, LoadCasesWithoutAssetsKeepsTheCppCasesAndSaysWhy) {
    RunEnvironment env;
    env.assets = "/nonexistent/assets";
    env.assets_missing = "no SPIR-V assets here";
    RegisterFamilies two = [](Registry& r) {
        for (const char* n : {"a.one", "a.two"}) {
            CaseSpec c;
            c.name = n;
            c.family = "f";
            r.mutableCases().push_back(c);
        }
    };
    Options opt;
    LoadedCases loaded;
    std::vector<std::string> run_errors;
    EXPECT_FALSE(loadCases("spirv_intel_cts", env, {two}, opt, loaded, run_errors).has_value());
    EXPECT_EQ(run_errors, (std::vector<std::string>{"no SPIR-V assets here"}));
    ASSERT_EQ(loaded.heads.size(), 2u);
    EXPECT_EQ(loaded.registry_heads, 2u);
    EXPECT_EQ(loaded.heads[1].name, "a.two");
    EXPECT_FALSE(loaded.manifest_hash.valid());
}

// A report path that cannot be written is a usage error before the device is opened, and no sink is left
// open.
TEST(RunnerStages, AnUnwritableJsonReportEndsTheRunWithStatus2) {
    StagedRun run({"--json=/nonexistent/dir/report.json", "a.*"}, {"a.one"});
    ASSERT_FALSE(run.parse().has_value());
    ASSERT_FALSE(run.choose().has_value());
    RunState& s = *run.state;
    testing::internal::CaptureStderr();
    StageResult exit = openReportSinks(s.program, int(run.argv.size()), run.argv.data(), s.opt, s.env,
                                       s.loaded, s.selected, s.run_errors, s.sinks);
    std::string err = testing::internal::GetCapturedStderr();
    ASSERT_TRUE(exit.has_value());
    EXPECT_EQ(*exit, 2);
    EXPECT_NE(err.find("cannot write JSON report /nonexistent/dir/report.json"), std::string::npos) << err;
    EXPECT_TRUE(s.sinks.info.command.empty());  // stopped before the run's description
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

// A skip waiver of a whole group passed every check: skips above the stated share of the selection fail.
TEST(ExitPolicy, SkipsAboveTheShareFail) {
    ExitPolicyFacts f;
    f.passed = 90;
    f.selected = 100;
    f.skipped_unrun = 10;
    f.max_skipped_share = 10;
    EXPECT_EQ(exitPolicy(f).status, 0);  // at the share
    f.skipped_unrun = 11;
    ExitPolicy p = exitPolicy(f);
    EXPECT_EQ(p.status, 1);
    ASSERT_EQ(p.notes.size(), 1u);
    EXPECT_EQ(
        p.notes[0].rfind("11 of 100 selected case(s) (11.0%) skipped by waiver \"skip\" entries: more than "
                         "the 10% --max-skipped-share allows",
                         0),
        0u)
        << p.notes[0];
    f.max_skipped_share = -1;  // no limit asked for
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

TEST(Retry, ExitPolicyFailsOnFlakesOnlyWhenAsked) {
    ExitPolicyFacts f;
    f.flaky = 1;
    EXPECT_EQ(exitPolicy(f).status, 0);
    f.flake_fails = true;
    ExitPolicy p = exitPolicy(f);
    EXPECT_EQ(p.status, 1);
    ASSERT_EQ(p.notes.size(), 1u);
    EXPECT_EQ(p.notes[0], "1 flaky case(s) and --flake-fails is set");
}

}  // namespace
}  // namespace cts
