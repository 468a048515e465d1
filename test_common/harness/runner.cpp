#include "test_common/harness/runner.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include "test_common/harness/case_runner.h"
#include "test_common/harness/device_under_test.h"
#include "test_common/harness/manifest.h"
#include "test_common/harness/recorder.h"
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

// Report files are opened before anything runs, so a typo in a path costs seconds, not a whole run.
struct ReportFiles {
    FILE* json = nullptr;
    FILE* junit = nullptr;
    ~ReportFiles() {
        if (json) std::fclose(json);
        if (junit) std::fclose(junit);
    }
};

void writeFile(FILE*& f, const std::string& text) {
    if (!f) return;
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    f = nullptr;
}

std::string typeName(cl_device_type t) {
    if (t & CL_DEVICE_TYPE_GPU) return "GPU";
    if (t & CL_DEVICE_TYPE_CPU) return "CPU";
    if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
    return "other";
}

void printHeader(const DeviceInfo& d, const Options& o, size_t selected, size_t total) {
    std::printf("spirv_intel_cts: %zu of %zu cases selected", selected, total);
    if (o.shard_count > 1) std::printf(" (shard %u/%u)", o.shard_index, o.shard_count);
    std::printf(", seed %llu\n", static_cast<unsigned long long>(o.seed));
    if (o.quick) std::printf("quick run: not for conformance\n");
    if (o.extended) std::printf("extended run (includes extended cases): not for conformance\n");
    std::printf("Platform:  %s (%s)\n", d.platform_name.c_str(), d.platform_version.c_str());
    std::printf("Device:    %s [%s], %s\n", d.device_name.c_str(), typeName(d.type).c_str(),
                d.device_version.c_str());
    std::printf("Driver:    %s\n", d.driver_version.c_str());
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

    // The reference device is the default: point the ICD loader at the build tree before any CL call,
    // unless the user already chose the vendors directory.
    bool icd_env_from_user = std::getenv("OCL_ICD_VENDORS") != nullptr;
    if (!opt.icd_system && !icd_env_from_user) setenv("OCL_ICD_VENDORS", (treeRoot() + "/icd").c_str(), 1);

    std::string assets = opt.assets_dir.empty() ? treeRoot() + "/assets" : opt.assets_dir;
    Registry registry;
    for (auto reg : families) reg(registry);
    ManifestLoad manifest = loadManifest(assets + "/manifest.json");
    std::vector<std::string> run_errors = manifest.errors;
    for (auto& c : manifest.cases) {
        bool clash = false;
        for (const auto& existing : registry.cases()) clash = clash || existing.name == c.name;
        if (clash)
            run_errors.push_back("manifest case '" + c.name + "' duplicates a C++ case");
        else
            registry.mutableCases().push_back(std::move(c));
    }

    RunSettings settings{opt.seed, opt.quick, assets, opt.dump_dir};
    if (opt.worker) {
        DeviceUnderTest dut;
        std::string dev_err = openDevice(opt, dut);
        if (!dev_err.empty()) {
            std::fprintf(stderr, "worker: %s\n", dev_err.c_str());
            return 1;
        }
        return workerMain(registry, dut, settings);
    }

    SelectionRequest request;
    request.positive = opt.positive;
    request.negative = opt.negative;
    for (const auto& f : opt.caselist_files) {
        std::string e = readPatternFile(f, request.positive);
        if (!e.empty()) return usageError(program, "--caselist-file: " + e);
    }
    for (const auto& f : opt.exclude_files) {
        std::string e = readPatternFile(f, request.negative);
        if (!e.empty()) return usageError(program, "--exclude-file: " + e);
    }
    request.quick = opt.quick;
    request.extended = opt.extended;
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

    if (opt.list) {
        for (const auto* c : sel.cases) std::printf("%s\n", c->name.c_str());
        for (const auto& e : run_errors)
            std::fprintf(stderr, "%s: internal error: %s\n", program.c_str(), e.c_str());
        return run_errors.empty() ? 0 : 1;
    }

    ReportFiles reports;
    LineLog log;
    if (!opt.json_file.empty() && !(reports.json = std::fopen(opt.json_file.c_str(), "w")))
        return usageError(program, "cannot write JSON report " + opt.json_file + ": " + std::strerror(errno));
    if (!opt.junit_file.empty() && !(reports.junit = std::fopen(opt.junit_file.c_str(), "w")))
        return usageError(program,
                          "cannot write JUnit report " + opt.junit_file + ": " + std::strerror(errno));
    if (!opt.log_file.empty()) {
        FILE* f = std::fopen(opt.log_file.c_str(), "w");
        if (!f) return usageError(program, "cannot write log " + opt.log_file + ": " + std::strerror(errno));
        log.attach(f);
    }
    if (!opt.dump_dir.empty() && !makeDirs(opt.dump_dir))
        return usageError(program, "cannot create dump directory " + opt.dump_dir);

    DeviceUnderTest dut;
    std::string dev_err;
    try {
        dev_err = openDevice(opt, dut);
    } catch (const std::exception& e) {
        dev_err = e.what();
    }
    if (!dev_err.empty()) {
        std::fprintf(stderr, "%s: %s\n", program.c_str(), dev_err.c_str());
        if (!opt.icd_system && !icd_env_from_user)
            std::fprintf(stderr,
                         "%s: the default is the reference device built next to this program; "
                         "use --icd=system for the installed OpenCL drivers\n",
                         program.c_str());
        return 1;
    }

    RunInfo info;
    for (int i = 0; i < argc; ++i) info.command += (i ? " " : "") + shellQuote(argv[i]);
    info.platform = dut.info.platform_name;
    info.device = dut.info.device_name;
    info.driver = dut.info.driver_version;
    info.seed = opt.seed;
    info.quick = opt.quick;
    info.errors = run_errors;

    printHeader(dut.info, opt, sel.cases.size(), registry.cases().size());
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
    if (opt.icd_system) rerun_prefix += " --icd=system";
    rerun_prefix +=
        " --platform=" + std::to_string(dut.platform_index) + " --device=" + std::to_string(dut.device_index);
    if (!opt.device_type.empty()) rerun_prefix += " --device-type=" + shellQuote(opt.device_type);
    if (!opt.assets_dir.empty()) rerun_prefix += " --assets-dir=" + shellQuote(opt.assets_dir);
    if (opt.quick) rerun_prefix += " --quick";
    if (opt.extended) rerun_prefix += " --extended";
    rerun_prefix += " --seed=" + std::to_string(opt.seed);
    auto rerun = [rerun_prefix](const std::string& name) { return rerun_prefix + " " + shellQuote(name); };

    Recorder recorder(sel.cases.size(), isatty(STDOUT_FILENO) == 1, log, rerun);
    bool aborted = false;
    if (opt.isolate) {
        std::vector<std::string> names;
        for (const auto* c : sel.cases) names.push_back(c->name);
        std::vector<std::string> worker = {program,
                                           "--worker",
                                           "--icd=system",
                                           "--platform=" + std::to_string(dut.platform_index),
                                           "--device=" + std::to_string(dut.device_index),
                                           "--seed=" + std::to_string(opt.seed),
                                           "--assets-dir=" + assets};
        if (!opt.device_type.empty()) worker.push_back("--device-type=" + opt.device_type);
        if (opt.quick) worker.push_back("--quick");
        if (!opt.dump_dir.empty()) worker.push_back("--dump-dir=" + opt.dump_dir);
        std::fflush(stdout);
        runIsolated(names, worker, opt.timeout_seconds, opt.seed, recorder);
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

    writeFile(reports.json, jsonReport(info, recorder.results()));
    writeFile(reports.junit, junitReport(info, recorder.results()));
    Tally tally = recorder.tally();
    std::string summary = tally.summary();
    if (!run_errors.empty())
        summary += ", " + std::to_string(run_errors.size()) + " run-level internal errors";
    std::printf("%s\n", summary.c_str());
    bool bad = !tally.allGood() || !run_errors.empty();
    if (opt.fail_if_all_skipped && tally.passed == 0) {
        std::printf("no case passed and --fail-if-all-skipped is set\n");
        bad = true;
    }
    if (aborted) {
        std::printf(
            "run aborted: a case timed out and the process cannot safely continue "
            "(%zu case(s) not run; use --isolate to carry on past hangs)\n",
            sel.cases.size() - recorder.results().size());
        log.note("run aborted after timeout");
        std::fflush(nullptr);
        _exit(1);  // the timed-out case still owns a thread and the device queue
    }
    return bad ? 1 : 0;
}

}  // namespace cts
