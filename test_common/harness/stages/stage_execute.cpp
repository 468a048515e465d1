// Execute: the cases, in this process, in --isolate or --jobs worker processes, or through the offline
// compiler. The device was opened and the header printed by stage_device.cpp.
#include "test_common/harness/stages/runner_stages.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "test_common/harness/launch/case_runner.h"
#include "test_common/harness/offline/offline_judge.h"
#include "test_common/harness/stages/option_table.h"
#include "test_common/harness/stages/run_reports.h"
#include "test_common/harness/workers/parallel.h"
#include "test_common/harness/workers/retry.h"
#include "test_common/harness/workers/scheduler.h"
#include "test_common/harness/workers/supervisor.h"
#include "test_common/harness/workers/worker_process.h"

namespace cts {
namespace {

// Runs one case on a thread of its own so the main thread can give up on it after the timeout.
// Returns false on timeout: that thread is abandoned and still runs the case, so it owns copies of the
// case and the settings (the caller's go out of scope while it runs: it read a freed settings.assets_dir and
// aborted the runner with std::bad_alloc), and the caller must end the process with std::_Exit once the
// reports are written (runnerMain), never by destroying the registry and the device under it.
bool runWithTimeout(const CaseSpec& spec, const Registry& registry, DeviceUnderTest& dut,
                    const RunSettings& settings, double timeout_seconds, CaseResult& out) {
    struct Shared {
        std::mutex m;
        std::condition_variable cv;
        bool done = false;
        CaseResult result;
        CaseSpec spec;
        RunSettings settings;
    };
    auto shared = std::make_shared<Shared>();
    shared->spec = spec;
    shared->settings = settings;
    std::thread worker([shared, &registry, &dut] {
        CaseResult r = runCase(shared->spec, registry, dut, shared->settings);
        std::lock_guard<std::mutex> lock(shared->m);
        shared->result = std::move(r);
        shared->done = true;
        shared->cv.notify_all();
    });
    std::unique_lock<std::mutex> lock(shared->m);
    bool finished = shared->cv.wait_for(lock, std::chrono::duration<double>(timeout_seconds),
                                        [&] { return shared->done; });
    if (!finished) {
        worker.detach();
        return false;
    }
    lock.unlock();
    worker.join();
    out = shared->result;
    return true;
}

// The cases `want` picks that the device does not support (requirements and the family's checkSupport, as
// runCase judges them; an entry that does not load counts as unsupported: its run reports why).
std::set<std::string> unsupportedCases(const LoadedCases& loaded, const ChosenCases& selected,
                                       const DeviceInfo& device, bool core_only,
                                       const std::function<bool(std::string_view)>& want) {
    std::string error;
    std::set<std::string> out;
    std::set<std::string> loaded_names;
    for (const CaseSpec& spec : selectedEntriesOf(loaded, selected, want, error)) {
        loaded_names.insert(spec.name);
        Outcome o;
        try {
            o = checkCaseSupport(spec, loaded.registry, device, core_only);
        } catch (const std::exception&) {
            o = Outcome::internalError("support check failed");
        }
        if (o.status != Status::Pass) out.insert(spec.name);
    }
    if (!error.empty())
        for (const auto* h : selected.chosen.cases)
            if (want(h->name) && !loaded_names.count(std::string(h->name))) out.emplace(h->name);
    return out;
}

}  // namespace

void executeCases(const std::string& program, const Options& opt, const RunEnvironment& env,
                  DeviceUnderTest& dut, const std::vector<Waiver>& device_waivers, LoadedCases& loaded,
                  ChosenCases& selected, ReportSinks& sinks, ExecutedCases& out) {
    const bool offline = env.offline;
    const bool icd_env_from_user = env.icd_env_from_user;
    const OfflineSetup& offline_setup = env.offline_setup;
    const Selection& sel = selected.sel;
    const Registry& registry = loaded.registry;
    const std::string& assets = env.assets;
    const std::vector<std::string>& selected_names = selected.selected_names;
    LineLog& log = sinks.log;
    RunReports* reports = sinks.reports.get();
    RunSettings settings{opt.seed, opt.quick, assets, opt.dump_dir, opt.core_only, opt.build_only};
    // The command that re-runs one case: same device, same environment choices, same seed.
    std::string rerun_prefix;
    for (const char* var : {"OCL_ICD_VENDORS", "REFDEV_PROFILE", "REFDEV_REPORT_AS", "REFDEV_FAULTS"}) {
        const char* v = std::getenv(var);
        if (v && (icd_env_from_user || opt.icd_system || std::string(var) != "OCL_ICD_VENDORS"))
            rerun_prefix += std::string(var) + "=" + shellQuote(v) + " ";
    }
    rerun_prefix += shellQuote(program);
    Options again = opt;  // the options the rerun repeats (option_table.cpp), with the device found
    if (offline) {
        again.offline_compiler = offline_setup.compiler.path;
        again.platform = again.device = -1;  // the environment's choice, which the offline mode ignores
        again.device_type.clear();
    } else {
        again.platform = opt.platform_name.empty() ? dut.platform_index : -1;
        again.device = dut.device_index;
    }
    for (const auto& arg : optionArgs(again, OptionUse::Rerun))
        rerun_prefix += " " + arg.name + (arg.value ? "=" + shellQuote(*arg.value) : "");
    auto rerun = [rerun_prefix](const std::string& name) { return rerun_prefix + " " + shellQuote(name); };

    out.recorder = std::make_unique<Recorder>(selected_names.size(), isatty(STDOUT_FILENO) == 1, log, rerun);
    Recorder& recorder = *out.recorder;
    recorder.setWaivers(device_waivers);
    std::map<std::string, Tier> tiers;
    for (const auto* c : selected.chosen.cases)
        tiers.emplace_hint(tiers.end(), std::string(c->name), c->tier);
    recorder.setTiers(std::move(tiers));
    reports->setRecorder(&recorder);
    bool& aborted = out.aborted;
    // --retry: waived cases are never retried.
    const WaiverSet device_set(device_waivers);
    auto waived = [&device_set](const std::string& name) { return device_set.find(name) != nullptr; };
    RetryBook retry(opt.retry, waived);
    // --jobs: worker processes in parallel when the selection makes more than one batch (scheduler.h), one
    // worker when it makes one; a worker is a process of its own anyway, so the run is isolated as with
    // --isolate, with its default limit per case.
    std::vector<Waiver> own_process_waivers;
    for (const auto& w : device_waivers)
        if (w.own_process) own_process_waivers.push_back(w);
    const WaiverSet own_process_set(own_process_waivers);
    std::function<bool(const std::string&)> own_process = [&own_process_set](const std::string& name) {
        return own_process_set.find(name) != nullptr;
    };
    // "timeout_seconds": a covered case's own limit (the first such entry that covers it, in file order).
    std::vector<Waiver> limit_waivers;
    for (const auto& w : device_waivers)
        if (w.timeout_seconds > 0) limit_waivers.push_back(w);
    const WaiverSet limit_set(limit_waivers);
    CaseLimits case_limits;
    if (!limit_waivers.empty())
        case_limits = [&limit_set](const std::string& name) {
            const Waiver* w = limit_set.find(name);
            return w ? CaseLimit{w->timeout_seconds, w->source} : CaseLimit{};
        };
    // "skip" entries: without --run-skipped their cases are recorded Waived without running (a known crash
    // or hang costs no worker and no timeout); the rest of the selection runs as it would without them.
    // A case the device does not support is not skipped: it runs to its NotSupported and reason.
    auto covered = [&](std::string_view name) {
        const Waiver* w = opt.run_skipped ? nullptr : device_set.find(std::string(name));
        return w && w->skip ? w : nullptr;  // the entry applyWaivers would name
    };
    const std::set<std::string> unsupported =
        unsupportedCases(loaded, selected, offline ? offline_setup.device : dut.info, opt.core_only,
                         [&](std::string_view name) { return covered(name) != nullptr; });
    auto skipping = [&](const std::string& name) -> const Waiver* {
        return unsupported.count(name) ? nullptr : covered(name);
    };
    // Records the case's result when a "skip" entry covers it; true when it did.
    auto recordSkipped = [&](const std::string& name) {
        const Waiver* w = skipping(name);
        if (w) recorder.finished(skippedResult(*w, name, caseSeed(name, opt.seed)));
        return w != nullptr;
    };
    std::vector<std::string> run_names;  // selected_names without the skipped cases
    std::vector<size_t> run_index;       // their indices in selected_names
    for (size_t i = 0; i < selected_names.size(); ++i)
        if (!skipping(selected_names[i])) run_names.push_back(selected_names[i]), run_index.push_back(i);
    const bool any_skipped = run_names.size() != selected_names.size();
    if (any_skipped)  // loud before anything runs: a skip can cover any share of the selection
        std::printf(
            "Skipped:   %s: recorded Waived without running (--run-skipped runs them)\n",
            skippedShareText(selected_names.size() - run_names.size(), selected_names.size()).c_str());
    const unsigned jobs = runJobs(opt);
    // The plan of the selection stage, again without the skipped cases and with the own_process waivers
    // when there are any.
    std::vector<Batch> batches = std::move(selected.plan);
    if (!offline && jobs > 1 && (!own_process_waivers.empty() || any_skipped)) {
        std::vector<PlanCase> all = planCases(loaded, selected.chosen), plan;
        for (size_t i : run_index) plan.push_back(all[i]);
        batches = planBatches(plan, jobs, own_process_waivers.empty() ? nullptr : own_process);
    }
    const bool parallel = batches.size() > 1;
    // N > 1 isolates whatever the selection: one batch (a one-module selection, the rerun of one case) runs
    // in one worker as with --isolate, so a case that crashes is still that case's Crash and the reports are
    // written. Before, such a run went in process and a crash took the runner and its reports with it.
    const bool isolated = !offline && (opt.isolate || jobs > 1);
    // An in-process run reads the entries it runs (the selection stage has loaded them unless the run goes
    // to workers).
    if (!offline && !isolated)
        if (std::string e = loadSelectedEntries(program, loaded, selected); !e.empty()) {
            std::fprintf(stderr, "%s: internal error: %s\n", program.c_str(), e.c_str());
            std::exit(1);
        }
    const bool timeout_is_default = opt.timeout_is_default || (isolated && opt.timeout_seconds == 0);
    const double timeout =
        isolated && opt.timeout_seconds == 0 ? kIsolateTimeoutSeconds : opt.timeout_seconds;
    if (offline) {
        // One compile per module, in child processes: a compiler that crashes or hangs costs its case only.
        const double compile_timeout = opt.timeout_seconds > 0 ? opt.timeout_seconds : 300;
        // No build options: the online path builds every module without any (ProgramCache::get).
        OfflineJudge judge(registry, offline_setup.compiler, offline_setup.device,
                           offline_setup.target.target, assets, "", compile_timeout);
        auto cases = sel.cases;
        cases.erase(std::remove_if(cases.begin(), cases.end(),
                                   [&](const auto* c) { return skipping(std::string(c->name)) != nullptr; }),
                    cases.end());
        judge.compileAhead(cases, jobs, opt.core_only);
        for (const auto* c : sel.cases) {
            if (recordSkipped(std::string(c->name))) continue;
            recorder.started(c->name);
            recorder.finished(judge.judge(*c, opt.seed, opt.core_only));
        }
    } else if (isolated) {
        // A worker inherits the environment chosen above (the reference device's OCL_ICD_VENDORS) or
        // re-reads the same --icd file, and takes the platform by the index found here.
        Options to_worker = opt;  // the options a worker takes (option_table.cpp)
        to_worker.worker = true;
        to_worker.icd_system = opt.icd_file.empty();
        to_worker.platform = dut.platform_index;
        to_worker.device = dut.device_index;
        to_worker.assets_dir = assets;
        // The worker reads the waiver files to leave waived cases unretried.
        if (!opt.retry) to_worker.waiver_files.clear();
        std::vector<std::string> worker = {program};
        for (const auto& arg : optionArgs(to_worker, OptionUse::Worker)) worker.push_back(arg.text());
        std::fflush(stdout);
        // The skipped cases' results wait for their turn in the selection order.
        if (any_skipped || parallel) recorder.setOrder(selected_names);
        if (any_skipped)
            for (const auto& name : selected_names) recordSkipped(name);
        if (run_names.empty()) {
            // Every selected case is skipped: no worker to start.
        } else if (parallel) {
            ParallelRun run{run_names, std::move(batches), worker,  {}, jobs,
                            timeout,   timeout_is_default, opt.seed};
            // The reference device runs a kernel's work-groups on a pool of one thread per core: N workers
            // would each start one and oversubscribe the cores. Each gets its share, unless the user chose.
            const char* threads = std::getenv("REFDEV_THREADS");
            if (!threads || !*threads)
                run.worker_env.push_back("REFDEV_THREADS=" +
                                         std::to_string(std::max(1u, usableCores() / jobs)));
            run.retry = &retry;
            run.case_limits = case_limits;
            if (opt.build_only) {
                // Each module built once in the run: no steal splits a module between two workers.
                std::vector<PlanCase> all = planCases(loaded, selected.chosen);
                std::map<std::string_view, uint32_t> numbers;
                for (size_t i : run_index) {
                    const std::string_view module = all[i].module;
                    run.module_of.push_back(
                        module.empty() ? 0
                                       : numbers.emplace(module, static_cast<uint32_t>(numbers.size() + 1))
                                             .first->second);
                }
            }
            runParallel(run, recorder);
        } else {
            runIsolated(run_names, worker, timeout, opt.seed, recorder, own_process, timeout_is_default,
                        &retry, case_limits);
        }
    } else {
        for (const auto* c : sel.cases) {
            if (recordSkipped(std::string(c->name))) continue;
            recorder.started(c->name);
            CaseResult r;
            // A Crash ends this process and a Timeout the run: only a Fail can be retried here.
            const unsigned k = waived(c->name) ? 0 : opt.retry;
            // A waiver's timeout_seconds shortens --timeout here too; without --timeout it does not apply in
            // process: the hung case cannot be killed, so a Timeout ends the run, which only --timeout asks
            // for.
            if (opt.timeout_seconds > 0) {
                const CaseLimit own = case_limits ? case_limits(std::string(c->name)) : CaseLimit{};
                const double limit = caseLimitSeconds(opt.timeout_seconds, own);
                std::vector<CaseResult> earlier;
                bool finished = false;
                while ((finished = runWithTimeout(*c, registry, dut, settings, limit, r)) &&
                       r.status == Status::Fail && earlier.size() < k)
                    earlier.push_back(r);
                if (!finished) {
                    r = CaseResult{c->name, Status::Timeout,
                                   caseTimeoutMessage(opt.timeout_seconds, false, own), 0,
                                   caseSeed(c->name, opt.seed)};
                    r.duration_ms = limit * 1000.0;
                    recorder.finished(combineAttempts(earlier, r));
                    aborted = true;
                    break;
                }
                r = combineAttempts(earlier, r);
            } else {
                r = runWithRetries([&] { return runCase(*c, registry, dut, settings); }, k);
            }
            recorder.finished(r);
        }
    }
    recorder.endProgress();
}

}  // namespace cts
