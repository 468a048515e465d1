// Verdict: stale waivers, the reports, the summary and the exit status of the run.
#include "test_common/harness/stages/runner_stages.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "test_common/harness/reports/version_gap.h"
#include "test_common/harness/stages/run_reports.h"

namespace cts {

ExitPolicy exitPolicy(const ExitPolicyFacts& f) {
    ExitPolicy p;
    bool bad = !f.all_good || f.run_errors > 0 || !f.reports_ok || f.log_failed;
    if (f.fail_on_stale_waivers && f.stale_waivers > 0) {
        p.notes.push_back(std::to_string(f.stale_waivers) +
                          " stale waiver(s) and --fail-on-stale-waivers is set");
        bad = true;
    }
    if (f.flake_fails && f.flaky > 0) {
        p.notes.push_back(std::to_string(f.flaky) + " flaky case(s) and --flake-fails is set");
        bad = true;
    }
    if (f.fail_if_all_skipped && f.passed == 0 && !f.empty_shard) {
        p.notes.push_back("no case passed and --fail-if-all-skipped is set");
        bad = true;
    }
    if (f.max_skipped_share >= 0 && !f.empty_shard &&
        f.skipped_unrun * 100 > static_cast<size_t>(f.max_skipped_share) * f.selected) {
        p.notes.push_back(
            skippedShareText(f.skipped_unrun, f.selected) + ": more than the " +
            std::to_string(f.max_skipped_share) +
            "% --max-skipped-share allows (a skip covers known crashes and hangs, not a group)");
        bad = true;
    }
    p.status = bad ? 1 : 0;
    return p;
}

int verdict(const std::string& program, const Options& opt, const RunEnvironment& env,
            const DeviceUnderTest& dut, LoadedCases& loaded, const ChosenCases& selected,
            const std::vector<Waiver>& device_waivers, const ExecutedCases& executed,
            std::vector<std::string>& run_errors, ReportSinks& sinks) {
    const SelectionRequest& request = selected.request;
    const std::vector<std::string>& selected_names = selected.selected_names;
    const bool aborted = executed.aborted;
    Recorder& recorder = *executed.recorder;
    RunReports* reports = sinks.reports.get();
    RunInfo& info = sinks.info;
    LineLog& log = sinks.log;
    size_t recorded = recorder.count();
    std::vector<StaleWaiver> stale;
    if (!opt.waiver_files.empty() && !aborted) {
        // An entry is stale when it matches no case of the whole selection: shards of one run agree.
        std::vector<std::string> whole = selected_names;
        if (request.shard_count > 1) {
            SelectionRequest unsharded = request;
            unsharded.shard_index = 0;
            unsharded.shard_count = 1;
            whole.clear();
            for (const auto* c : selectHeads(loaded.heads, unsharded).cases) whole.emplace_back(c->name);
        }
        stale = staleWaivers(WaiverSet(device_waivers), whole, recorder.results());
        for (const auto& w : stale) info.stale_waivers.push_back(staleText(w));
        reports->setInfo(info, selected_names);
    }
    if (!info.version_gaps.empty() || !recorder.versionGapCounts().empty()) {
        countVersionGaps(info.version_gaps, recorder.versionGapCounts(),
                         env.offline ? env.offline_setup.device : dut.info);
        reports->setInfo(info, selected_names);
    }
    if (loaded.manifest_hash.valid()) {
        auto [hash, error] = loaded.manifest_hash.get();
        const std::string path = env.assets + "/manifest.json";
        if (!error.empty())
            run_errors.push_back("cannot hash " + path + " for the report: " + error);
        else if (hash != loaded.manifest_sha256)
            run_errors.push_back(
                path + " is not the manifest its manifest.sha256 and case index describe (its sha256 is " +
                hash + ", manifest.sha256 says " + loaded.manifest_sha256 +
                "): edited after the asset build? Rebuild the assets target (cmake --build <build "
                "dir> --target assets)");
        if (!error.empty() || hash != loaded.manifest_sha256) {
            std::fprintf(stderr, "%s: internal error: %s\n", program.c_str(), run_errors.back().c_str());
            info.errors = run_errors;
            if (error.empty()) info.selection.manifest_sha256 = hash;  // what the run read
            reports->setInfo(info, selected_names);
        }
    }
    bool reports_ok = reports->write(aborted ? "timeout" : "");
    Tally tally = recorder.tally();
    std::string summary = tally.summary();
    if (!run_errors.empty())
        summary += ", " + std::to_string(run_errors.size()) + " run-level internal errors";
    std::printf("%s\n", summary.c_str());
    if (tally.not_run_waived)
        std::printf("not run: %s, recorded Waived (--run-skipped runs them)\n",
                    skippedShareText(tally.not_run_waived, selected_names.size()).c_str());
    if (opt.build_only)
        std::printf("build-only: a Pass is a module built with its kernel queries right; no kernel ran\n");
    std::printf("%s\n", phaseSummary(tally.phases).c_str());
    for (Tier t : {Tier::Core, Tier::DeviceSpecific}) {
        Tally tt = recorder.tally(t);
        if (tt.total()) std::printf("  %s: %s\n", tierName(t), tt.summary().c_str());
    }
    for (const auto& g : info.version_gaps) std::printf("Version gap: %s\n", versionGapLine(g, true).c_str());
    std::vector<std::string> build_failures = recorder.buildFailures();
    if (!build_failures.empty()) {
        std::printf("core cases whose module the device's compiler rejected (phase build):\n");
        const size_t shown = std::min<size_t>(build_failures.size(), 20);
        for (size_t i = 0; i < shown; ++i) std::printf("%s\n", build_failures[i].c_str());
        if (shown < build_failures.size())
            std::printf("  ... and %zu more (the JSON report has every build log)\n",
                        build_failures.size() - shown);
    }
    // Flakes do not fail the run (unless --flake-fails) but are named here.
    std::vector<std::string> flakes = recorder.namesWith(Status::Flake);
    if (!flakes.empty()) {
        std::printf("flaky cases (failed, then passed on a --retry attempt):\n");
        for (const auto& name : flakes) std::printf("  %s\n", name.c_str());
    }
    for (const auto& line : info.stale_waivers) {
        std::printf("%s\n", printable(line).c_str());
        log.note(line);
    }
    ExitPolicyFacts facts;
    facts.all_good = tally.allGood();
    facts.passed = tally.passed;
    facts.run_errors = run_errors.size();
    facts.reports_ok = reports_ok;
    facts.log_failed = logWriteFailed(program, opt.log_file, log);
    facts.stale_waivers = stale.size();
    facts.fail_on_stale_waivers = opt.fail_on_stale_waivers;
    facts.fail_if_all_skipped = opt.fail_if_all_skipped;
    // An empty selection is a usage error long before this: no case here is a shard left empty.
    facts.empty_shard = selected_names.empty();
    facts.flaky = tally.flaky;
    facts.flake_fails = opt.flake_fails;
    facts.skipped_unrun = tally.not_run_waived;
    facts.selected = selected_names.size();
    facts.max_skipped_share = maxSkippedShare(opt);
    ExitPolicy policy = exitPolicy(facts);
    for (const auto& note : policy.notes) std::printf("%s\n", note.c_str());
    if (aborted) {
        std::printf(
            "run aborted: a case timed out and the process cannot safely continue "
            "(%zu case(s) not run; use --isolate to carry on past hangs)\n",
            selected_names.size() - recorded);
        log.note("run aborted after timeout");
        std::fflush(nullptr);
        _exit(1);  // the timed-out case still owns a thread and the device queue
    }
    return policy.status;
}

}  // namespace cts
