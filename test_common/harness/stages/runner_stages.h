// The stages of a run, in the order runnerMain (runner.cpp) calls them; docs/architecture.md, "Runner
// stages". Each stage reads its inputs (const where it only reads them) and fills its result, and returns
// std::nullopt to go on, or the process's exit status to end the run there (a usage error, --help,
// --list, no device).
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "test_common/harness/device/device_under_test.h"
#include "test_common/harness/model/case.h"
#include "test_common/harness/model/layout.h"
#include "test_common/harness/offline/offline_mode.h"
#include "test_common/harness/reports/recorder.h"
#include "test_common/harness/reports/report.h"
#include "test_common/harness/reports/waivers.h"
#include "test_common/harness/selection/case_index.h"
#include "test_common/harness/selection/rerun.h"
#include "test_common/harness/selection/selection.h"
#include "test_common/harness/stages/options.h"
#include "test_common/harness/workers/scheduler.h"

namespace cts {

class RunReports;  // run_reports.h

using StageResult = std::optional<int>;  // std::nullopt: go on to the next stage

// What prepareEnvironment found: where the defaults are, the offline compiler (instead of a device), the ICD
// loader's environment and the assets directory.
struct RunEnvironment {
    DefaultPaths defaults;
    bool offline = false;  // --offline-compiler: no device is opened
    OfflineSetup offline_setup;
    bool icd_env_from_user = false;  // OCL_ICD_VENDORS came from the user, not from this program
    std::string icd_missing;         // why no reference device was found ("" when one was, or not needed)
    std::string assets;
    std::string assets_missing;
};

// What loadCases read: the cases (C++ and, without a case index, the manifest's), the heads selection reads,
// the manifest's hash and the --rerun-failed report.
struct LoadedCases {
    Registry registry;
    std::vector<std::string> worker_names;  // --worker: the cases read from standard input
    std::string manifest_sha256;
    // When a report names the manifest by manifest_sha256: manifest.json's own SHA-256 (or why it could not
    // be read), worked out on a second thread during the run and checked before the reports are written
    // (verdict), so a manifest edited after the asset build is not reported under its old hash.
    std::future<std::pair<std::string, std::string>> manifest_hash;  // {hash, error}
    // What selection reads of every case: first the registry's (C++ cases; every manifest case too when
    // there is no case index), then the case index's, whose full entries only the selected are loaded of.
    CaseIndex index;
    std::vector<CaseHead> heads;
    size_t registry_heads = 0;          // heads[source < registry_heads] are registry.cases()[source]
    std::deque<std::string> head_text;  // the names and tags the registry's heads view
    RerunRequest rerun_request;
};

// What chooseCases chose: the request (the verdict recomputes the unsharded selection from it), the waiver
// files, the selected heads and names, and either their full CaseSpecs or the --jobs plan.
struct ChosenCases {
    SelectionRequest request;
    std::vector<Waiver> waivers;             // every --waiver-file entry
    std::vector<std::string> waiver_sha256;  // each --waiver-file's SHA-256, in order
    HeadSelection chosen;                    // the selected cases' heads, in selection order
    // The selected cases' full CaseSpecs, loaded only when this process runs them or prints them (in-process
    // runs, --list --json, --offline-compiler): a run in worker processes (--jobs with more than one batch,
    // --isolate) leaves each entry to the worker that runs it, so its coordinator starts in milliseconds.
    Selection sel;
    bool entries_loaded = false;
    std::vector<Batch> plan;  // --jobs: the batches, before own_process waivers (empty: no worker batches)
    std::vector<std::string> selected_names;
};

// What openReportSinks opened: the JSON and JUnit reports, the log and the run's description they share;
// the later stages add to all three. RunState's destructor detaches the reports from the log and recorder.
struct ReportSinks {
    std::shared_ptr<RunReports> reports;
    LineLog log;
    RunInfo info;
};

// What executeCases ran: each case's result, and whether a timeout ended the run in this process.
struct ExecutedCases {
    std::unique_ptr<Recorder> recorder;
    bool aborted = false;  // a case timed out without --isolate
};

// The run: each stage's result, and what the whole run shares (the program name, the options, the
// run-level errors), kept together for their lifetime: a case given up at its --timeout still runs on its
// thread on the device and registry, and the reports (interrupt handler) point at the log and recorder
// until the destructor detaches them. The stages are given only the parts they read.
struct RunState {
    RunState(int argc, char** argv);
    ~RunState();  // detaches the reports from the log and recorder below (a signal may come later)

    std::string program;
    Options opt;
    RunEnvironment env;
    // load
    LoadedCases loaded;
    // Run-level internal errors (a broken manifest): load and verdict add, select and the reports read.
    std::vector<std::string> run_errors;
    // select
    ChosenCases selected;
    // report sinks
    ReportSinks sinks;
    // execute
    DeviceUnderTest dut;
    std::vector<Waiver> device_waivers;  // the entries that apply to the device (or target): announceRun's
    ExecutedCases executed;
};

// "PROGRAM: error: WHAT" and the --help hint on stderr; returns 2.
int usageError(const std::string& program, const std::string& what);

// Environment (stage_environment.cpp): the options (--help ends here), the ICD loader's environment, the
// offline compiler and the assets directory.
StageResult parseCommandLine(const std::string& program, int argc, char** argv, Options& opt);
StageResult prepareEnvironment(const std::string& program, const Options& opt, RunEnvironment& env);
// Load (stage_load.cpp): the families, the manifest, the --rerun-failed report; a worker's own loop.
// --rerun-failed rewrites `opt` (the earlier run's seed and selection options); run_errors gets a broken
// manifest or case index.
StageResult loadCases(const std::string& program, const RunEnvironment& env,
                      const std::vector<RegisterFamilies>& families, Options& opt, LoadedCases& out,
                      std::vector<std::string>& run_errors);
// The heads selection reads: the registry's cases, then the case index's (loadCases calls it; run_errors gets
// a manifest case that a C++ case shadows).
void collectHeads(LoadedCases& loaded, std::vector<std::string>& run_errors);
int runWorker(const Options& opt, const RunEnvironment& env, const LoadedCases& loaded);
// Select (stage_select.cpp): --list-tags, case lists, waiver files, the selection and --list.
// `loaded` changes only when this process loads the selected entries (loadSelectedEntries).
StageResult chooseCases(const std::string& program, const Options& opt, const RunEnvironment& env,
                        const std::vector<std::string>& run_errors, LoadedCases& loaded, ChosenCases& out);
// The selected cases as planning reads them (from the C++ cases and the case index; no manifest entry).
std::vector<PlanCase> planCases(const LoadedCases& loaded, const HeadSelection& chosen);
// --jobs, or the usable cores when it was not given.
unsigned runJobs(const Options& opt);
// Loads the selected cases' entries into the registry and chosen.sel (once): "" or the error that stops the
// run.
std::string loadSelectedEntries(const std::string& program, LoadedCases& loaded, ChosenCases& chosen);
// The full CaseSpecs of the selected cases `want` picks: copies of those already loaded, else read through
// the case index now (for a run whose workers read the rest); a load error goes to `error`, the cases that
// loaded are returned.
std::vector<CaseSpec> selectedEntriesOf(const LoadedCases& loaded, const ChosenCases& chosen,
                                        const std::function<bool(std::string_view)>& want,
                                        std::string& error);
// Report sinks (run_reports.cpp): JSON, JUnit, dump directory and log checked and opened; interrupts. argc
// and argv are the command the reports record.
StageResult openReportSinks(const std::string& program, int argc, char** argv, const Options& opt,
                            const RunEnvironment& env, const LoadedCases& loaded, const ChosenCases& selected,
                            const std::vector<std::string>& run_errors, ReportSinks& out);
// Execute (stage_execute.cpp): the device (or target), the header, the waivers for it and the cases.
// openDeviceUnderTest opens `dut` (not in the offline mode); announceRun returns the waiver entries that
// apply to the device (or target); executeCases moves the --jobs plan out of `selected` and, in process,
// loads the selected entries.
StageResult openDeviceUnderTest(const std::string& program, const Options& opt, const RunEnvironment& env,
                                const ChosenCases& selected, ReportSinks& sinks, DeviceUnderTest& dut);
// The device the options name, as openDevice takes it (the device room reads no Options).
DeviceChoice deviceChoice(const Options& opt);
std::vector<Waiver> announceRun(const Options& opt, const RunEnvironment& env, const DeviceUnderTest& dut,
                                const LoadedCases& loaded, const ChosenCases& selected,
                                const std::vector<std::string>& run_errors, ReportSinks& sinks);
void executeCases(const std::string& program, const Options& opt, const RunEnvironment& env,
                  DeviceUnderTest& dut, const std::vector<Waiver>& device_waivers, LoadedCases& loaded,
                  ChosenCases& selected, ReportSinks& sinks, ExecutedCases& out);
// Verdict (stage_verdict.cpp): stale waivers, the reports, the summary and the exit status. `loaded` for
// the manifest hash worked out during the run; run_errors gets a manifest that does not match it.
int verdict(const std::string& program, const Options& opt, const RunEnvironment& env,
            const DeviceUnderTest& dut, LoadedCases& loaded, const ChosenCases& selected,
            const std::vector<Waiver>& device_waivers, const ExecutedCases& executed,
            std::vector<std::string>& run_errors, ReportSinks& sinks);

// The exit policy of a finished run, apart from its printing: bad when a case did not pass (allGood), on
// run-level internal errors, an unwritten report or log, stale waivers with --fail-on-stale-waivers, or no
// pass with --fail-if-all-skipped. `notes` are the lines that explain the last two, in print order.
struct ExitPolicyFacts {
    bool all_good = true;  // Tally::allGood()
    size_t passed = 0;
    size_t run_errors = 0;
    bool reports_ok = true;
    bool log_failed = false;
    size_t stale_waivers = 0;
    bool fail_on_stale_waivers = false;
    bool fail_if_all_skipped = false;
    bool empty_shard = false;  // a shard left without cases (fewer cases than shards): fine, not all-skipped
    size_t flaky = 0;          // Tally::flaky
    bool flake_fails = false;  // --flake-fails: a Flake fails the run
    // Cases a waiver's "skip" recorded Waived without running, of `selected`; the most allowed in percent of
    // the selection (maxSkippedShare, -1: no limit).
    size_t skipped_unrun = 0, selected = 0;
    int max_skipped_share = -1;
};
struct ExitPolicy {
    int status = 0;
    std::vector<std::string> notes;
};
ExitPolicy exitPolicy(const ExitPolicyFacts& facts);

}  // namespace cts
