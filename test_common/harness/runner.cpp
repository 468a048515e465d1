#include "test_common/harness/runner.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "test_common/harness/case_runner.h"
#include "test_common/harness/device_under_test.h"
#include "test_common/harness/layout.h"
#include "test_common/harness/manifest.h"
#include "test_common/harness/offline_judge.h"
#include "test_common/harness/offline_mode.h"
#include "test_common/harness/recorder.h"
#include "test_common/harness/rerun.h"
#include "test_common/harness/runtime_package.h"
#include "test_common/harness/supervisor.h"

namespace cts {
namespace {

// The build (or install) tree root: the parent of the directory holding the executable.
std::string treeRoot() {
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return "..";
    std::string path(buf, static_cast<size_t>(n));
    for (int up = 0; up < 2; ++up) {
        size_t slash = path.rfind('/');
        if (slash == std::string::npos) return "..";
        path = path.substr(0, slash);
    }
    return path.empty() ? "/" : path;
}

int usageError(const std::string& program, const std::string& what) {
    std::fprintf(stderr, "%s: error: %s\nRun '%s --help' for usage.\n", program.c_str(), what.c_str(),
                 program.c_str());
    return 2;
}

bool makeDirs(const std::string& path) {
    std::string partial;
    size_t pos = 0;
    while (pos != std::string::npos) {
        pos = path.find('/', pos + 1);
        partial = path.substr(0, pos);
        if (partial.empty()) continue;
        if (mkdir(partial.c_str(), 0777) != 0 && errno != EEXIST) return false;
    }
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The reports of a run. Their paths are checked before anything runs (a typo in a path costs seconds, not
// a whole run) without touching an earlier report; they are written once, atomically, by whichever comes
// first: the end of the run, an abort (a timeout without --isolate, no device), or SIGINT/SIGTERM (on the
// interrupt thread, while the main thread may be inside a case). An aborted run's reports hold the results
// that finished and list the selected cases that did not run.
class RunReports {
public:
    ReportFile json, junit;

    explicit RunReports(std::string program) : program_(std::move(program)) {}
    void setLog(LineLog* log) {
        std::lock_guard<std::mutex> lock(mutex_);
        log_ = log;
    }
    void setInfo(const RunInfo& info, const std::vector<std::string>& selected) {
        std::lock_guard<std::mutex> lock(mutex_);
        info_ = info;
        selected_ = selected;
    }
    void setRecorder(Recorder* recorder) {
        std::lock_guard<std::mutex> lock(mutex_);
        recorder_ = recorder;
    }

    // Writes the reports; aborted = "" for a run that reached its end, else RunInfo::aborted. Returns false
    // when a report could not be written (the error is printed). Once an interrupt is being handled this
    // waits for the interrupt thread, which writes the reports and ends the process.
    bool write(const std::string& aborted) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (written_) return true;
            if (!interrupting_.load()) {
                std::string message;
                return writeLocked(aborted, message);
            }
        }
        waitForTheEnd();
    }

    // runnerMain's log and recorder are going away (it returns or throws).
    void detach() {
        std::lock_guard<std::mutex> lock(mutex_);
        log_ = nullptr;
        recorder_ = nullptr;
    }

    // On the interrupt thread, after SIGINT/SIGTERM: stops the run (and an --isolate worker) and writes the
    // reports of what finished, unless the run had already written complete ones.
    void interrupted(int sig) {
        interrupting_.store(true);  // before the worker dies of the forwarded signal: see write()
        stopIsolatedRun(sig);
        std::lock_guard<std::mutex> lock(mutex_);
        if (written_) return;
        std::string name = sig == SIGINT    ? "SIGINT"
                           : sig == SIGTERM ? "SIGTERM"
                                            : "signal " + std::to_string(sig);
        std::string message;
        writeLocked(name, message);
        if (log_) log_->note(message);
        std::printf("\n%s\n", message.c_str());
        std::fflush(stdout);
    }

private:
    [[noreturn]] static void waitForTheEnd() {
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    }

    bool writeLocked(const std::string& aborted, std::string& message) {
        std::vector<CaseResult> results;
        if (recorder_) results = recorder_->close();
        recorder_ = nullptr;  // the recorder lives in runnerMain; this object outlives it
        RunInfo info = info_;
        info.aborted = aborted;
        if (!aborted.empty()) {
            std::set<std::string> done;
            for (const auto& r : results) done.insert(r.name);
            for (const auto& name : selected_)
                if (!done.count(name)) info.not_run.push_back(name);
        }
        message = abortMessage(info);
        written_ = true;
        bool ok = true;
        auto put = [&](ReportFile& file, const char* what, const std::string& text) {
            if (!file.active()) return;
            std::string err = file.write(text);
            if (err.empty()) return;
            std::fprintf(stderr, "%s: cannot write %s report %s: %s\n", program_.c_str(), what,
                         file.path().c_str(), err.c_str());
            ok = false;
        };
        put(json, "JSON", jsonReport(info, results));
        put(junit, "JUnit", junitReport(info, results));
        return ok;
    }

    std::string program_;
    std::atomic<bool> interrupting_{false};
    std::mutex mutex_;  // everything below
    LineLog* log_ = nullptr;
    bool written_ = false;
    RunInfo info_;
    std::vector<std::string> selected_;
    Recorder* recorder_ = nullptr;
};

// SIGINT/SIGTERM: the handler only wakes the interrupt thread through a pipe; that thread writes the
// reports (RunReports::interrupted) and then ends the process by the same signal. A second signal ends
// the process at once. A signal the runner was started with ignored (nohup, background jobs) stays ignored.
int g_interrupt_pipe[2] = {-1, -1};
pid_t g_runner_pid = 0;
volatile sig_atomic_t g_interrupted = 0;

extern "C" void onInterrupt(int sig) {
    int saved = errno;
    if (g_interrupted || getpid() != g_runner_pid) {
        // The second signal, or a forked worker that has not reached execv yet: the default action.
        signal(sig, SIG_DFL);
        raise(sig);
    } else {
        g_interrupted = sig;
        unsigned char b = static_cast<unsigned char>(sig);
        ssize_t n = write(g_interrupt_pipe[1], &b, 1);
        (void)n;
    }
    errno = saved;
}

void handleInterrupts(const std::shared_ptr<RunReports>& reports) {
    if (pipe2(g_interrupt_pipe, O_CLOEXEC) != 0)
        return;  // no reports on interrupt, the signals kill as before
    fcntl(g_interrupt_pipe[1], F_SETFL, O_NONBLOCK);
    g_runner_pid = getpid();
    // The thread keeps the reports alive: a signal may come after runnerMain has returned.
    std::thread([reports] {
        unsigned char b = 0;
        while (read(g_interrupt_pipe[0], &b, 1) < 0 && errno == EINTR) {
        }
        int sig = b;
        if (sig == 0) return;
        reports->interrupted(sig);
        std::fflush(nullptr);
        signal(sig, SIG_DFL);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
        raise(sig);
        _exit(128 + sig);
    }).detach();
    for (int sig : {SIGINT, SIGTERM}) {
        struct sigaction old {};
        if (sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        struct sigaction sa {};
        sa.sa_handler = onInterrupt;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        sigaction(sig, &sa, nullptr);
    }
}

// The command as run: the environment variables that shaped the run (device choice, sharding, reference
// device), then the arguments.
std::string recordedCommand(int argc, char** argv, bool icd_env_from_user) {
    std::string cmd;
    for (const char* var : {"OCL_ICD_VENDORS", "REFDEV_PROFILE", "REFDEV_FAULTS", "CL_PLATFORM_INDEX",
                            "CL_DEVICE_INDEX", "CL_DEVICE_TYPE", "GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX"}) {
        const char* v = std::getenv(var);
        if (!v || !*v || (std::string(var) == "OCL_ICD_VENDORS" && !icd_env_from_user)) continue;
        cmd += std::string(var) + "=" + shellQuote(v) + " ";
    }
    for (int i = 0; i < argc; ++i) cmd += (i ? " " : "") + shellQuote(argv[i]);
    return cmd;
}

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

// What selected the cases, for the reports (with --rerun-failed, after the report's options were taken).
SelectionRecord selectionRecord(const Options& o, const std::string& manifest_sha256) {
    auto joined = [](const std::vector<std::string>& values) {
        std::string out;
        for (const auto& v : values) out += (out.empty() ? "" : "\n") + v;
        return out;
    };
    SelectionRecord r;
    r.patterns = o.patterns;
    r.filter = joined(o.filters);
    r.caselist_file = joined(o.caselist_files);
    r.exclude_file = joined(o.exclude_files);
    r.tags = o.tags;
    r.quick = o.quick;
    r.extended = o.extended;
    r.huge = o.huge;
    r.core_only = o.core_only;
    r.rerun_failed = o.rerun_failed;
    r.seed = o.seed;
    r.suite_version = CTS_SUITE_VERSION;
    r.manifest_sha256 = manifest_sha256;
    return r;
}

// A log that could not be written (a full disk, --log=/dev/full) fails the run: one line on stderr.
bool logWriteFailed(const std::string& program, const std::string& path, const LineLog& log) {
    if (log.error().empty()) return false;
    std::fprintf(stderr, "%s: cannot write log %s: %s\n", program.c_str(), path.c_str(), log.error().c_str());
    return true;
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

}  // namespace

int runnerMain(int argc, char** argv, const std::vector<RegisterFamilies>& families) {
    std::string program = argc > 0 ? argv[0] : "spirv_intel_cts";
    std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
    Options opt;
    std::string err = parseOptions(
        args, [](const char* n) { return std::getenv(n); }, opt);
    if (!err.empty()) return usageError(program, err);
    if (opt.help) {
        std::printf("%s", usageText(program).c_str());
        return 0;
    }

    // The reference device is the default: point the ICD loader at the one next to this program (build or
    // installed tree) before any CL call, unless the user already chose the vendors directory. Without one,
    // the run fails instead of falling back to whatever drivers the system has.
    DefaultPaths defaults = findDefaultPaths(treeRoot());
    // The offline-compiler mode opens no device: its compiler, target description and compiler release are
    // found first, and a problem with any of them is one line and exit status 2.
    const bool offline = !opt.offline_compiler.empty();
    OfflineSetup offline_setup;
    if (offline) {
        const char* search_path = std::getenv("PATH");
        std::string e =
            prepareOfflineRun(opt.offline_compiler, opt.target, defaults.targets_dir, defaults.targets_tried,
                              search_path ? search_path : "", 60, offline_setup);
        if (!e.empty()) {
            std::fprintf(stderr, "%s: %s\n", program.c_str(), e.c_str());
            return 2;
        }
    }
    bool icd_env_from_user = opt.icd_file.empty() && std::getenv("OCL_ICD_VENDORS") != nullptr;
    std::string icd_missing;
    if (offline) {
        // No ICD is loaded in this mode: the loader's environment is left as it was.
    } else if (!opt.icd_file.empty()) {
        // --icd=FILE: exactly the library FILE names, whatever OCL_ICD_VENDORS said. ocl-icd loads an
        // OCL_ICD_VENDORS that is neither a directory nor an .icd file as the one library to use; the
        // Khronos loader loads OCL_ICD_FILENAMES and finds no vendors directory at that path. Naming the
        // library, not the .icd file, keeps the loaders from reading the file their own way (ocl-icd keeps a
        // trailing space or carriage return in the name). Workers (--isolate) are given the same --icd.
        setenv("OCL_ICD_VENDORS", opt.icd_library.c_str(), 1);
        setenv("OCL_ICD_FILENAMES", opt.icd_library.c_str(), 1);
    } else if (!opt.icd_system && !icd_env_from_user) {
        if (defaults.icd_vendors.empty())
            icd_missing = "no reference device next to this program: looked for " +
                          joinTried(defaults.icd_tried) + "; use --icd=system or set OCL_ICD_VENDORS";
        else
            setenv("OCL_ICD_VENDORS", defaults.icd_vendors.c_str(), 1);
        if (!defaults.icd_filenames.empty()) setenv("OCL_ICD_FILENAMES", defaults.icd_filenames.c_str(), 1);
    }

    std::string assets = opt.assets_dir;
    std::string assets_missing;
    if (assets.empty()) {
        assets = defaults.assets_dir.empty() ? defaults.assets_tried.front() : defaults.assets_dir;
        if (defaults.assets_dir.empty())
            assets_missing = "no SPIR-V assets next to this program: looked for manifest.json in " +
                             joinTried(defaults.assets_tried) + "; use --assets-dir=DIR";
    }
    Registry registry;
    for (auto reg : families) reg(registry);
    ManifestLoad manifest;
    // A worker (--isolate) is told its cases on standard input before it loads anything, and loads only
    // their entries: a worker started for each crashing case then costs milliseconds, not a manifest parse.
    std::vector<std::string> worker_names;
    if (opt.worker)
        for (std::string line; std::getline(std::cin, line);)
            if (!line.empty()) worker_names.push_back(line);
    std::vector<std::string> manifest_names;  // the worker's cases that are not C++ cases
    for (const auto& name : worker_names)
        if (std::none_of(registry.cases().begin(), registry.cases().end(),
                         [&](const CaseSpec& c) { return c.name == name; }))
            manifest_names.push_back(name);
    if (assets_missing.empty())
        manifest = opt.worker ? loadManifestEntries(assets + "/manifest.json", manifest_names)
                              : loadManifest(assets + "/manifest.json");
    else
        manifest.errors.push_back(assets_missing);
    std::vector<std::string> run_errors = manifest.errors;
    // The reports name the manifest by the hash the asset build wrote beside it (hashing it here would cost
    // start-up time); a missing or ill-formed one is a broken asset build, like a corrupt manifest.
    std::string manifest_sha256;
    if (!opt.worker && assets_missing.empty())
        if (std::string e = readManifestSha256(assets, &manifest_sha256); !e.empty()) run_errors.push_back(e);
    // The C++ cases' names, looked up once each: comparing every manifest case with every case registered so
    // far was quadratic (three quarters of the start-up time with 39k cases).
    std::set<std::string> cpp_names;
    for (const auto& existing : registry.cases()) cpp_names.insert(existing.name);
    registry.mutableCases().reserve(registry.cases().size() + manifest.cases.size());
    for (auto& c : manifest.cases) {
        if (cpp_names.count(c.name))
            run_errors.push_back("manifest case '" + c.name + "' duplicates a C++ case");
        else
            registry.mutableCases().push_back(std::move(c));
    }

    RerunRequest rerun_request;
    if (!opt.worker && !opt.rerun_failed.empty()) {
        std::string e = readRerunReport(opt.rerun_failed, rerun_request);
        if (!e.empty()) return usageError(program, "--rerun-failed: " + e);
        std::set<std::string> known;
        for (const auto& c : registry.cases()) known.insert(c.name);
        std::string gone;
        size_t gone_count = 0;
        for (const auto& n : rerun_request.names)
            if (!known.count(n)) gone += (gone_count++ ? ", " : "") + n;
        if (gone_count)
            return usageError(program, "--rerun-failed: " + std::to_string(gone_count) + " case(s) of " +
                                           opt.rerun_failed + " no longer exist: " + gone);
        // Reproduce the earlier run: its selection options, its seed (unless --seed says otherwise) and its
        // in-case --quick sweep. --huge given here serves a report without a selection record.
        if (!opt.seed_given) opt.seed = rerun_request.seed;
        opt.quick = rerun_request.quick;
        if (rerun_request.has_selection) {
            opt.extended = rerun_request.extended;
            opt.huge = opt.huge || rerun_request.huge;
            opt.core_only = rerun_request.core_only;
        }
    }

    RunSettings settings{opt.seed, opt.quick, assets, opt.dump_dir};
    if (opt.worker) {
        DeviceUnderTest dut;
        std::string dev_err = openDevice(opt, dut);
        if (!dev_err.empty()) {
            std::fprintf(stderr, "worker: %s\n", dev_err.c_str());
            return 1;
        }
        return workerMain(registry, dut, settings, worker_names);
    }

    if (opt.list_tags) {
        SelectionRequest tags_only;
        tags_only.tags = opt.tags;
        if (!opt.tags.empty())  // --tag=nope is the same usage error here as in a run
            if (Selection s = selectCases(registry.cases(), tags_only); !s.error.empty())
                return usageError(program, s.error);
        for (const auto& [tag, count] : tagCounts(registry.cases()))
            std::printf("%s %zu\n", tag.c_str(), count);
        for (const auto& e : run_errors)
            std::fprintf(stderr, "%s: internal error: %s\n", program.c_str(), e.c_str());
        return run_errors.empty() ? 0 : 1;
    }

    SelectionRequest request;
    request.positive = opt.positive;
    request.negative = opt.negative;
    for (const auto& f : opt.caselist_files) {
        std::string e = readCaseListFile(f, request.positive);
        if (!e.empty()) return usageError(program, "--caselist-file: " + e);
    }
    for (const auto& f : opt.exclude_files) {
        std::string e = readPatternFile(f, request.negative);
        if (!e.empty()) return usageError(program, "--exclude-file: " + e);
    }
    std::vector<Waiver> waivers;
    for (const auto& f : opt.waiver_files) {
        std::string e = readWaiverFile(f, waivers);
        if (!e.empty()) return usageError(program, "--waiver-file: " + e);
    }
    request.names = rerun_request.names;
    request.quick = opt.quick && opt.rerun_failed.empty();
    request.extended = opt.extended;
    request.tags = opt.tags;
    request.huge = opt.huge;
    request.core_only = opt.core_only;
    request.shard_index = opt.shard_index;
    request.shard_count = opt.shard_count;
    Selection sel = selectCases(registry.cases(), request);
    if (!sel.error.empty()) {
        if (!run_errors.empty()) {
            // The pattern may well be right and the broken manifest the reason it matched nothing.
            for (const auto& e : run_errors)
                std::fprintf(stderr, "%s: internal error: %s\n", program.c_str(), e.c_str());
            std::fprintf(stderr, "%s: %s\n", program.c_str(), sel.error.c_str());
            return 1;
        }
        return usageError(program, sel.error);
    }

    if (!opt.rerun_failed.empty())
        if (std::string e = checkRerunSelection(rerun_request, opt.rerun_failed, registry.cases(), request);
            !e.empty())
            return usageError(program, "--rerun-failed: " + e);
    std::vector<std::string> selected_names;
    for (const auto* c : sel.cases) selected_names.push_back(c->name);
    if (std::string e = checkDumpDirInputs(opt, selected_names); !e.empty()) return usageError(program, e);

    if (opt.list) {
        // The tier as a comment, so the list still works as a --caselist-file.
        for (const auto* c : sel.cases) std::printf("%s  # %s\n", c->name.c_str(), tierName(c->tier));
        for (const auto& e : run_errors)
            std::fprintf(stderr, "%s: internal error: %s\n", program.c_str(), e.c_str());
        return run_errors.empty() ? 0 : 1;
    }

    auto reports = std::make_shared<RunReports>(program);
    LineLog log;
    std::string report_err;
    if (!opt.json_file.empty() && !(report_err = reports->json.prepare(opt.json_file)).empty())
        return usageError(program, "cannot write JSON report " + opt.json_file + ": " + report_err);
    if (!opt.junit_file.empty() && !(report_err = reports->junit.prepare(opt.junit_file)).empty())
        return usageError(program, "cannot write JUnit report " + opt.junit_file + ": " + report_err);
    if (!opt.dump_dir.empty() && !makeDirs(opt.dump_dir))
        return usageError(program, "cannot create dump directory " + opt.dump_dir);
    // The log is the one report written in place (line by line, for a crash): it is opened, which empties an
    // earlier log, only after every usage check has passed.
    if (!opt.log_file.empty()) {
        FILE* f = std::fopen(opt.log_file.c_str(), "w");
        if (!f) return usageError(program, "cannot write log " + opt.log_file + ": " + std::strerror(errno));
        log.attach(f);
    }

    RunInfo info;
    info.command = recordedCommand(argc, argv, icd_env_from_user);
    info.seed = opt.seed;
    info.quick = opt.quick;
    info.errors = run_errors;
    info.shard_index = opt.shard_index;
    info.shard_count = opt.shard_count;
    info.selected = sel.cases.size();
    info.assets_dir = assets;
    const char* vendors = std::getenv("OCL_ICD_VENDORS");
    info.icd_vendors = vendors ? vendors : "";
    info.waiver_files = opt.waiver_files;
    info.selection = selectionRecord(opt, manifest_sha256);
    reports->setLog(&log);
    reports->setInfo(info, selected_names);
    struct Detach {
        std::shared_ptr<RunReports> reports;
        ~Detach() { reports->detach(); }
    } detach_on_exit{reports};
    handleInterrupts(reports);

    DeviceUnderTest dut;
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

    // The device as waivers and reports see it: the one opened, or in the offline mode the target.
    const DeviceInfo& device = offline ? offline_setup.device : dut.info;
    info.platform = device.platform_name;
    info.device = device.device_name;
    info.driver = device.driver_version;
    if (offline) {
        info.offline_compiler = offlineCompilerText(offline_setup);
        info.target = offline_setup.target.target;
        info.target_description = offline_setup.target.file;
        info.icd_vendors.clear();
        reports->setInfo(info, selected_names);
        std::printf("spirv_intel_cts: %zu of %zu cases selected", sel.cases.size(), registry.cases().size());
        if (opt.shard_count > 1) std::printf(" (shard %u/%u)", opt.shard_index, opt.shard_count);
        std::printf(", seed %llu\n%s", static_cast<unsigned long long>(opt.seed),
                    offlineHeader(offline_setup).c_str());
        std::printf("Assets:    %s\n", info.assets_dir.c_str());
    } else {
        RuntimePackage runtime = findRuntimePackage(dut.driver_library, opt.icd_file);
        info.runtime_package = runtime.name;
        reports->setInfo(info, selected_names);
        printHeader(dut.info, opt, sel.cases.size(), registry.cases().size(), dut.driver_library, runtime);
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

    // Waiver entries for other devices are left out: they are neither applied nor stale here.
    std::vector<Waiver> device_waivers;
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

    Recorder recorder(sel.cases.size(), isatty(STDOUT_FILENO) == 1, log, rerun);
    recorder.setWaivers(device_waivers);
    std::map<std::string, Tier> tiers;
    for (const auto* c : sel.cases) tiers[c->name] = c->tier;
    recorder.setTiers(std::move(tiers));
    reports->setRecorder(&recorder);
    struct ForgetRecorder {
        RunReports& reports;
        ~ForgetRecorder() { reports.setRecorder(nullptr); }
    } forget_recorder{*reports};
    bool aborted = false;
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

    size_t recorded = recorder.results().size();
    std::vector<StaleWaiver> stale;
    if (!opt.waiver_files.empty() && !aborted) {
        // An entry is stale when it matches no case of the whole selection: shards of one run agree.
        std::vector<std::string> whole = selected_names;
        if (request.shard_count > 1) {
            SelectionRequest unsharded = request;
            unsharded.shard_index = 0;
            unsharded.shard_count = 1;
            whole.clear();
            for (const auto* c : selectCases(registry.cases(), unsharded).cases) whole.push_back(c->name);
        }
        stale = staleWaivers(device_waivers, whole, recorder.results());
        for (const auto& s : stale) info.stale_waivers.push_back(staleText(s));
        reports->setInfo(info, selected_names);
    }
    bool reports_ok = reports->write(aborted ? "timeout" : "");
    Tally tally = recorder.tally();
    std::string summary = tally.summary();
    if (!run_errors.empty())
        summary += ", " + std::to_string(run_errors.size()) + " run-level internal errors";
    std::printf("%s\n", summary.c_str());
    for (Tier t : {Tier::Core, Tier::DeviceSpecific}) {
        Tally tt = recorder.tally(t);
        if (tt.total()) std::printf("  %s: %s\n", tierName(t), tt.summary().c_str());
    }
    std::vector<std::string> build_failures = recorder.buildFailures();
    if (!build_failures.empty()) {
        std::printf("core cases whose module the device's compiler rejected (phase build):\n");
        const size_t shown = std::min<size_t>(build_failures.size(), 20);
        for (size_t i = 0; i < shown; ++i) std::printf("%s\n", build_failures[i].c_str());
        if (shown < build_failures.size())
            std::printf("  ... and %zu more (the JSON report has every build log)\n",
                        build_failures.size() - shown);
    }
    bool bad = !tally.allGood() || !run_errors.empty() || !reports_ok;
    for (const auto& s : info.stale_waivers) {
        std::printf("%s\n", s.c_str());
        log.note(s);
    }
    if (logWriteFailed(program, opt.log_file, log)) bad = true;
    if (opt.fail_on_stale_waivers && !stale.empty()) {
        std::printf("%zu stale waiver(s) and --fail-on-stale-waivers is set\n", stale.size());
        bad = true;
    }
    if (opt.fail_if_all_skipped && tally.passed == 0) {
        std::printf("no case passed and --fail-if-all-skipped is set\n");
        bad = true;
    }
    if (aborted) {
        std::printf(
            "run aborted: a case timed out and the process cannot safely continue "
            "(%zu case(s) not run; use --isolate to carry on past hangs)\n",
            sel.cases.size() - recorded);
        log.note("run aborted after timeout");
        std::fflush(nullptr);
        _exit(1);  // the timed-out case still owns a thread and the device queue
    }
    return bad ? 1 : 0;
}

}  // namespace cts
