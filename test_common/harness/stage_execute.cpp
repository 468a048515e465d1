// Execute: the device under test (or the offline target), the run's header, the waivers that apply to it,
// and the cases: in this process, in --isolate workers, or through the offline compiler.
#include "test_common/harness/runner_stages.h"

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "test_common/harness/case_runner.h"
#include "test_common/harness/offline_judge.h"
#include "test_common/harness/run_reports.h"
#include "test_common/harness/runtime_package.h"
#include "test_common/harness/supervisor.h"

namespace cts {
namespace {

std::string typeName(cl_device_type t) {
    if (t & CL_DEVICE_TYPE_GPU) return "GPU";
    if (t & CL_DEVICE_TYPE_CPU) return "CPU";
    if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
    return "other";
}

void printHeader(const DeviceInfo& d, const Options& o, size_t selected, size_t total,
                 const std::string& library, const RuntimePackage& runtime) {
    std::printf("spirv_intel_cts: %zu of %zu cases selected", selected, total);
    if (o.shard_count > 1) std::printf(" (shard %u/%u)", o.shard_index, o.shard_count);
    std::printf(", seed %llu\n", static_cast<unsigned long long>(o.seed));
    if (o.quick) std::printf("quick run: not for conformance\n");
    if (o.extended) std::printf("extended run (includes extended cases): not for conformance\n");
    if (o.huge) std::printf("huge run: includes the cases tagged huge (buffers of several GiB)\n");
    std::printf("Platform:  %s (%s)\n", d.platform_name.c_str(), d.platform_version.c_str());
    std::printf("Device:    %s [%s], %s\n", d.device_name.c_str(), typeName(d.type).c_str(),
                d.device_version.c_str());
    std::printf("Driver:    %s\n", d.driver_version.c_str());
    std::printf("Library:   %s\n", library.empty() ? "unknown" : library.c_str());
    std::printf("Runtime:   %s (%s)\n", runtime.name.empty() ? "unknown" : runtime.name.c_str(),
                runtime.source.c_str());
    std::printf("IL:        %s\n", d.ilVersionsText().c_str());
    std::string sizes;
    for (size_t s : d.sub_group_sizes) sizes += (sizes.empty() ? "" : ",") + std::to_string(s);
    std::printf("Sub-group sizes: %s\n", sizes.empty() ? "none reported" : sizes.c_str());
    std::printf("Extensions:");
    bool any = false;
    for (const auto& e : d.extensions) {
        bool relevant = e.name.rfind("cl_intel_", 0) == 0 || e.name == "cl_khr_il_program" ||
                        e.name == "cl_khr_spirv_queries" || e.name == "cl_khr_fp16" ||
                        e.name == "cl_khr_fp64";
        if (!relevant) continue;
        any = true;
        if (e.version_known)
            std::printf("\n  %s %u.%u.%u", e.name.c_str(), e.major, e.minor, e.patch);
        else
            std::printf("\n  %s (version not reported)", e.name.c_str());
    }
    std::printf("%s\n", any ? "" : " none relevant");
    if (d.image_support)
        std::printf("Images:    yes, 2D up to %zux%zu, %zu read-write formats\n", d.image2d_max_width,
                    d.image2d_max_height, d.image2d_rw_formats.size());
    else
        std::printf("Images:    no\n");
    std::fflush(stdout);
}

// Runs one case on a thread of its own so the main thread can give up on it after the timeout.
// Returns false on timeout (that thread is abandoned; the caller ends the process).
bool runWithTimeout(const CaseSpec& spec, const Registry& registry, DeviceUnderTest& dut,
                    const RunSettings& settings, double timeout_seconds, CaseResult& out) {
    struct Shared {
        std::mutex m;
        std::condition_variable cv;
        bool done = false;
        CaseResult result;
    };
    auto shared = std::make_shared<Shared>();
    std::thread worker([shared, &spec, &registry, &dut, &settings] {
        CaseResult r = runCase(spec, registry, dut, settings);
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

// The device as waivers and reports see it: the one opened, or in the offline mode the target.
const DeviceInfo& deviceOf(const RunState& s) {
    return s.offline ? s.offline_setup.device : s.dut.info;
}

}  // namespace

StageResult openDeviceUnderTest(RunState& s) {
    const Options& opt = s.opt;
    const std::string& program = s.program;
    const bool offline = s.offline;
    const bool icd_env_from_user = s.icd_env_from_user;
    const std::string& icd_missing = s.icd_missing;
    RunReports* reports = s.reports.get();
    RunInfo& info = s.info;
    LineLog& log = s.log;
    const std::vector<std::string>& selected_names = s.selected_names;
    DeviceUnderTest& dut = s.dut;
    std::string dev_err;
    try {
        if (!offline) dev_err = icd_missing.empty() ? openDevice(opt, dut) : icd_missing;
    } catch (const std::exception& e) {
        dev_err = e.what();
    }
    if (!dev_err.empty()) {
        std::fprintf(stderr, "%s: %s\n", program.c_str(), dev_err.c_str());
        if (!opt.icd_system && opt.icd_file.empty() && !icd_env_from_user && icd_missing.empty())
            std::fprintf(stderr,
                         "%s: the default is the reference device next to this program; "
                         "use --icd=system for the installed OpenCL drivers\n",
                         program.c_str());
        // The reports say that nothing ran and why, instead of keeping (or truncating) an earlier run's.
        info.errors.push_back(dev_err);
        reports->setInfo(info, selected_names);
        log.note("run aborted: no device could be opened: " + dev_err);
        reports->write("device");
        logWriteFailed(program, opt.log_file, log);
        return 1;
    }
    return std::nullopt;
}

void announceRun(RunState& s) {
    const Options& opt = s.opt;
    const bool offline = s.offline;
    const OfflineSetup& offline_setup = s.offline_setup;
    const DeviceUnderTest& dut = s.dut;
    const DeviceInfo& device = deviceOf(s);
    const Selection& sel = s.sel;
    const Registry& registry = s.registry;
    RunReports* reports = s.reports.get();
    RunInfo& info = s.info;
    LineLog& log = s.log;
    const std::vector<std::string>& run_errors = s.run_errors;
    const std::vector<std::string>& selected_names = s.selected_names;
    const std::vector<Waiver>& waivers = s.waivers;
    info.platform = device.platform_name;
    info.device = device.device_name;
    info.driver = device.driver_version;
    if (offline) {
        info.offline_compiler = offlineCompilerText(offline_setup);
        info.target = offline_setup.target.target;
        info.target_description = offline_setup.target.file;
        info.icd_vendors.clear();
        reports->setInfo(info, selected_names);
        std::printf("spirv_intel_cts: %zu of %zu cases selected", sel.cases.size(), s.heads.size());
        if (opt.shard_count > 1) std::printf(" (shard %u/%u)", opt.shard_index, opt.shard_count);
        std::printf(", seed %llu\n%s", static_cast<unsigned long long>(opt.seed),
                    offlineHeader(offline_setup).c_str());
        std::printf("Assets:    %s\n", info.assets_dir.c_str());
    } else {
        RuntimePackage runtime = findRuntimePackage(dut.driver_library, opt.icd_file);
        info.runtime_package = runtime.name;
        reports->setInfo(info, selected_names);
        printHeader(dut.info, opt, sel.cases.size(), s.heads.size(), dut.driver_library, runtime);
        std::printf("Assets:    %s\nICD:       %s\n", info.assets_dir.c_str(),
                    !opt.icd_file.empty()      ? ("--icd=" + opt.icd_file + ": " + opt.icd_library).c_str()
                    : info.icd_vendors.empty() ? "the system's (OCL_ICD_VENDORS unset)"
                                               : ("OCL_ICD_VENDORS=" + info.icd_vendors).c_str());
        for (const auto& silent : dut.silent_drivers)
            std::printf("           no platform from %s\n", silent.c_str());
    }
    for (const auto& e : run_errors) {
        std::printf("[ INTERR ] %s\n", e.c_str());
        log.note("internal error: " + e);
    }
    // Waiver entries for other devices are left out: they are neither applied nor stale here.
    std::vector<Waiver>& device_waivers = s.device_waivers;
    WaiverDevice waiver_device{device.platform_name, device.device_name, device.driver_version,
                               device.vendor_id};
    for (const auto& w : waivers)
        if (waiverAppliesTo(w, waiver_device)) device_waivers.push_back(w);
    if (!opt.waiver_files.empty())
        std::printf("Waivers:   %zu of %zu entries apply to this device\n", device_waivers.size(),
                    waivers.size());
    for (const auto& w : waivers)
        if (w.every_device) {
            std::printf("%s\n", everyDeviceWarning(w).c_str());
            log.note(everyDeviceWarning(w));
        }
    if (opt.isolate && opt.timeout_is_default)
        std::printf(
            "Isolation: each case has %s (the default limit of --isolate; --timeout=SECONDS to change)\n",
            secondsText(opt.timeout_seconds).c_str());
}

void executeCases(RunState& s) {
    const Options& opt = s.opt;
    const std::string& program = s.program;
    const bool offline = s.offline;
    const bool icd_env_from_user = s.icd_env_from_user;
    const OfflineSetup& offline_setup = s.offline_setup;
    DeviceUnderTest& dut = s.dut;
    const Selection& sel = s.sel;
    const Registry& registry = s.registry;
    const std::string& assets = s.assets;
    const std::vector<std::string>& selected_names = s.selected_names;
    const std::vector<Waiver>& device_waivers = s.device_waivers;
    LineLog& log = s.log;
    RunReports* reports = s.reports.get();
    RunSettings settings{opt.seed, opt.quick, assets, opt.dump_dir};
    // The command that re-runs one case: same device, same environment choices, same seed.
    std::string rerun_prefix;
    for (const char* var : {"OCL_ICD_VENDORS", "REFDEV_PROFILE", "REFDEV_FAULTS"}) {
        const char* v = std::getenv(var);
        if (v && (icd_env_from_user || opt.icd_system || std::string(var) != "OCL_ICD_VENDORS"))
            rerun_prefix += std::string(var) + "=" + shellQuote(v) + " ";
    }
    rerun_prefix += shellQuote(program);
    if (offline) {
        rerun_prefix += " --offline-compiler=" + shellQuote(offline_setup.compiler.path) +
                        " --target=" + shellQuote(opt.target);
    } else {
        if (opt.icd_system) rerun_prefix += " --icd=system";
        if (!opt.icd_file.empty()) rerun_prefix += " --icd=" + shellQuote(opt.icd_file);
        if (!opt.platform_name.empty())
            rerun_prefix += " --platform-name=" + shellQuote(opt.platform_name);
        else
            rerun_prefix += " --platform=" + std::to_string(dut.platform_index);
        rerun_prefix += " --device=" + std::to_string(dut.device_index);
        if (!opt.device_type.empty()) rerun_prefix += " --device-type=" + shellQuote(opt.device_type);
    }
    if (!opt.assets_dir.empty()) rerun_prefix += " --assets-dir=" + shellQuote(opt.assets_dir);
    if (opt.quick) rerun_prefix += " --quick";
    if (opt.extended) rerun_prefix += " --extended";
    if (opt.huge) rerun_prefix += " --huge";
    rerun_prefix += " --seed=" + std::to_string(opt.seed);
    auto rerun = [rerun_prefix](const std::string& name) { return rerun_prefix + " " + shellQuote(name); };

    s.recorder = std::make_unique<Recorder>(sel.cases.size(), isatty(STDOUT_FILENO) == 1, log, rerun);
    Recorder& recorder = *s.recorder;
    recorder.setWaivers(device_waivers);
    std::map<std::string, Tier> tiers;
    for (const auto* c : sel.cases) tiers[c->name] = c->tier;
    recorder.setTiers(std::move(tiers));
    reports->setRecorder(&recorder);
    bool& aborted = s.aborted;
    if (offline) {
        // One compile per module, in child processes: a compiler that crashes or hangs costs its case only.
        const double compile_timeout = opt.timeout_seconds > 0 ? opt.timeout_seconds : 300;
        // No build options: the online path builds every module without any (ProgramCache::get).
        OfflineJudge judge(registry, offline_setup.compiler, offline_setup.device,
                           offline_setup.target.target, assets, "", compile_timeout);
        for (const auto* c : sel.cases) {
            recorder.started(c->name);
            recorder.finished(judge.judge(*c, opt.seed));
        }
    } else if (opt.isolate) {
        const std::vector<std::string>& names = selected_names;
        // A worker inherits the environment chosen above (the reference device's OCL_ICD_VENDORS) or
        // re-reads the same --icd file, and takes the platform by the index found here.
        std::vector<std::string> worker = {program,
                                           "--worker",
                                           opt.icd_file.empty() ? "--icd=system" : "--icd=" + opt.icd_file,
                                           "--platform=" + std::to_string(dut.platform_index),
                                           "--device=" + std::to_string(dut.device_index),
                                           "--seed=" + std::to_string(opt.seed),
                                           "--assets-dir=" + assets};
        if (!opt.device_type.empty()) worker.push_back("--device-type=" + opt.device_type);
        if (opt.quick) worker.push_back("--quick");
        if (!opt.dump_dir.empty()) worker.push_back("--dump-dir=" + opt.dump_dir);
        std::fflush(stdout);
        std::vector<Waiver> own_process;
        for (const auto& w : device_waivers)
            if (w.own_process) own_process.push_back(w);
        runIsolated(
            names, worker, opt.timeout_seconds, opt.seed, recorder,
            [&own_process](const std::string& name) { return findWaiver(own_process, name) != nullptr; });
    } else {
        for (const auto* c : sel.cases) {
            recorder.started(c->name);
            CaseResult r;
            if (opt.timeout_seconds > 0) {
                if (!runWithTimeout(*c, registry, dut, settings, opt.timeout_seconds, r)) {
                    r = CaseResult{c->name, Status::Timeout,
                                   "no result within the --timeout of " + secondsText(opt.timeout_seconds), 0,
                                   caseSeed(c->name, opt.seed)};
                    r.duration_ms = opt.timeout_seconds * 1000.0;
                    recorder.finished(r);
                    aborted = true;
                    break;
                }
            } else {
                r = runCase(*c, registry, dut, settings);
            }
            recorder.finished(r);
        }
    }
    recorder.endProgress();
}

}  // namespace cts
