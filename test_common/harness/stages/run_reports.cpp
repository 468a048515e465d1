#include "test_common/harness/stages/run_reports.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "test_common/harness/stages/runner_stages.h"
#include "test_common/harness/workers/supervisor.h"

namespace cts {
namespace {

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

// SIGINT/SIGTERM/SIGHUP/SIGQUIT: the handler only wakes the interrupt thread through a pipe; that thread
// writes the reports (RunReports::interrupted) and then ends the process by the same signal. A second signal
// ends the process at once. A signal the runner was started with ignored (nohup, background jobs) stays
// ignored.
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

// The command as run: the environment variables that shaped the run (device choice, sharding, reference
// device), then the arguments.
std::string recordedCommand(int argc, char** argv, bool icd_env_from_user) {
    std::string cmd;
    for (const char* var :
         {"OCL_ICD_VENDORS", "REFDEV_PROFILE", "REFDEV_REPORT_AS", "REFDEV_FAULTS", "CL_PLATFORM_INDEX",
          "CL_DEVICE_INDEX", "CL_DEVICE_TYPE", "GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX"}) {
        const char* v = std::getenv(var);
        if (!v || !*v || (std::string(var) == "OCL_ICD_VENDORS" && !icd_env_from_user)) continue;
        cmd += std::string(var) + "=" + shellQuote(v) + " ";
    }
    for (int i = 0; i < argc; ++i) cmd += (i ? " " : "") + shellQuote(argv[i]);
    return cmd;
}

}  // namespace

void awaitInterruptEnd() {
    if (!g_interrupted) return;
    std::fflush(nullptr);
    for (;;) pause();  // the interrupt thread raises the signal (or _exits) once the reports are written
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
        // SIGQUIT's default action dumps core: the reports hold what the run did, a core of the runner adds
        // nothing but a large file in the working directory.
        struct rlimit no_core {};
        if (sig == SIGQUIT) setrlimit(RLIMIT_CORE, &no_core);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, sig);
        pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
        raise(sig);
        _exit(128 + sig);
    }).detach();
    for (int sig : kInterruptSignals) {
        struct sigaction old {};
        if (sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        struct sigaction sa {};
        sa.sa_handler = onInterrupt;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        sigaction(sig, &sa, nullptr);
    }
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
    r.run_skipped = o.run_skipped;
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

RunState::~RunState() {
    if (sinks.reports) sinks.reports->detach();
}

StageResult openReportSinks(const std::string& program, int argc, char** argv, const Options& opt,
                            const RunEnvironment& env, const LoadedCases& loaded, const ChosenCases& selected,
                            const std::vector<std::string>& run_errors, ReportSinks& out) {
    const std::vector<std::string>& selected_names = selected.selected_names;
    const std::string& manifest_sha256 = loaded.manifest_sha256;
    out.reports = std::make_shared<RunReports>(program);
    RunReports* reports = out.reports.get();
    LineLog& log = out.log;
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

    RunInfo& info = out.info;
    info.command = recordedCommand(argc, argv, env.icd_env_from_user);
    info.seed = opt.seed;
    info.quick = opt.quick;
    info.build_only = opt.build_only;
    info.flake_fails = opt.flake_fails;
    info.errors = run_errors;
    info.shard_index = opt.shard_index;
    info.shard_count = opt.shard_count;
    info.selected = selected_names.size();
    info.assets_dir = env.assets;
    const char* vendors = std::getenv("OCL_ICD_VENDORS");
    info.icd_vendors = vendors ? vendors : "";
    info.waiver_files = opt.waiver_files;
    info.waiver_sha256 = selected.waiver_sha256;
    info.selection = selectionRecord(opt, manifest_sha256);
    reports->setLog(&log);
    reports->setInfo(info, selected_names);
    handleInterrupts(out.reports);
    return std::nullopt;
}

}  // namespace cts
