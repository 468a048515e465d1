#include "test_common/harness/offline/offline_compiler.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>

#include "test_common/cl/build_log.h"
#include "test_common/harness/input/text.h"
#include "test_common/harness/reports/report.h"
#include "test_common/harness/workers/worker_process.h"

namespace cts {
namespace {

bool isExecutableFile(const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

std::string absolute(const std::string& path) {
    char buf[PATH_MAX];
    return realpath(path.c_str(), buf) ? std::string(buf) : path;
}

// Removes a directory tree the compiler wrote (files and directories only; links are removed, not followed).
void removeTree(const std::string& dir) {
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
            std::string name = e->d_name;
            if (name == "." || name == "..") continue;
            std::string path = dir + "/" + name;
            struct stat st;
            if (lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
                removeTree(path);
            else
                unlink(path.c_str());
        }
        closedir(d);
    }
    rmdir(dir.c_str());
}

// The temporary directories alive (TempDir), so an interrupted run can remove them (finishCompilerTempDirs).
struct LiveDirs {
    std::mutex mutex;
    std::condition_variable gone;
    std::set<std::string> paths;
    bool closed = false;  // the run was interrupted: no new directory
};
LiveDirs& liveDirs() {
    static LiveDirs* dirs = new LiveDirs;  // never destroyed: the interrupt thread may outlive main
    return *dirs;
}

// A temporary directory, removed when this goes out of scope.
class TempDir {
public:
    TempDir() {
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/spirv_intel_cts_ocloc.XXXXXX";
        std::vector<char> buf(pattern.begin(), pattern.end());
        buf.push_back('\0');
        LiveDirs& live = liveDirs();
        std::lock_guard<std::mutex> lock(live.mutex);
        if (live.closed)
            error_ = "the run was interrupted";
        else if (mkdtemp(buf.data()))
            live.paths.insert(path_ = buf.data());
        else
            error_ = std::string("cannot create a temporary directory from ") + pattern + ": " +
                     std::strerror(errno);
    }
    ~TempDir() {
        if (path_.empty()) return;
        removeTree(path_);
        LiveDirs& live = liveDirs();
        std::lock_guard<std::mutex> lock(live.mutex);
        live.paths.erase(path_);
        live.gone.notify_all();
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return path_; }
    const std::string& error() const { return error_; }

private:
    std::string path_, error_;
};

struct ChildRun {
    bool started = false, timed_out = false;
    int wstatus = 0;
    std::string output, error;  // output: as CappedLog keeps it
    double seconds = 0;
};

// How long the output is still read after the compiler has exited: what it wrote just before. A child it
// left running may hold the output open for ever; the compiler's own exit is the verdict.
constexpr double kExitGraceSeconds = 1.0;

// Runs argv in `cwd` with stdout and stderr into one pipe. The time limit holds until the child has exited
// (not until its output ends: it may close it and hang). Its process group is killed at the limit and once it
// has exited (whatever it left running).
ChildRun runChild(const std::vector<std::string>& argv, const std::string& cwd, double timeout_seconds) {
    using Clock = std::chrono::steady_clock;
    ChildRun run;
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) {
        run.error = std::string("pipe: ") + std::strerror(errno);
        return run;
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    auto start = Clock::now();
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        run.error = std::string("fork: ") + std::strerror(errno);
        close(out[0]);
        close(out[1]);
        return run;
    }
    if (pid == 0) {
        // Its own process group (a timeout kills whatever it started), dying with the runner.
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(127);
        dup2(out[1], STDOUT_FILENO);
        dup2(out[1], STDERR_FILENO);
        int null_in = open("/dev/null", O_RDONLY);
        if (null_in >= 0) dup2(null_in, STDIN_FILENO);
        if (chdir(cwd.c_str()) != 0) _exit(126);
        execv(args[0], args.data());
        const char* msg = "exec failed\n";
        ssize_t n = write(STDERR_FILENO, msg, std::strlen(msg));
        (void)n;
        _exit(127);
    }
    setpgid(pid, pid);
    addChildGroup(pid);
    close(out[1]);
    run.started = true;
    // Readable when the child has exited; without pidfds (Linux < 5.3) the loop looks every 10 ms.
    const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
    const auto deadline = start + std::chrono::duration<double>(timeout_seconds);
    auto limit = deadline;  // the deadline, then the end of the grace after the exit
    CappedLog kept;
    std::vector<char> buf(64 * 1024);
    bool open = true, exited = false;
    for (;;) {
        siginfo_t info{};
        if (!exited && waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
            info.si_pid == pid) {
            exited = true;  // not reaped yet: its group id cannot be reused before the kill below
            limit = Clock::now() + std::chrono::duration<double>(kExitGraceSeconds);
        }
        if (exited && !open) break;
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(limit - Clock::now()).count();
        if (left <= 0) {
            run.timed_out = !exited;
            break;
        }
        if (pidfd < 0 && !exited) left = std::min<long long>(left, 10);
        pollfd p[2] = {{open ? out[0] : -1, POLLIN, 0}, {exited ? -1 : pidfd, POLLIN, 0}};
        if (poll(p, 2, static_cast<int>(std::min<long long>(left + 1, 1000))) <= 0 || !p[0].revents) continue;
        ssize_t n = read(out[0], buf.data(), buf.size());
        if (n > 0)
            kept.append(buf.data(), static_cast<size_t>(n));
        else if (n == 0 || errno != EINTR)
            open = false;
    }
    kill(-pid, SIGKILL);
    removeChildGroup(pid);
    while (waitpid(pid, &run.wstatus, 0) < 0 && errno == EINTR) {
    }
    close(out[0]);
    if (pidfd >= 0) close(pidfd);
    run.output = kept.text();
    run.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return run;
}

std::string quoted(const std::vector<std::string>& argv) {
    std::string cmd;
    for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + shellQuote(a);
    return cmd;
}

// ocloc's query files end in a NUL byte and a space ("22.43.24595\0 " in 22.43).
const std::string kQueryBlank(" \t\r\n\0", 5);

// What ocloc writes for a build: NAME_TARGET.bin, the device binary. A directory, a link, an empty file or
// another file (a .spv or .gen it may write beside it) is no binary.
bool deviceBinaryIn(const std::string& dir) {
    bool found = false;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
            std::string name = e->d_name;
            struct stat st;
            if (name.size() > 4 && name.compare(name.size() - 4, 4, ".bin") == 0 &&
                lstat((dir + "/" + name).c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
                found = true;
        }
        closedir(d);
    }
    return found;
}

// While the start-up queries run, no interrupt handler of the run is installed yet: an interrupt kills the
// compiler's group, lets the query return (its temporary directory removed), then ends the process by the
// same signal.
volatile sig_atomic_t g_query_signal = 0;
pid_t g_query_pid = 0;
constexpr int kQuerySignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

extern "C" void onQueryInterrupt(int sig) {
    if (g_query_signal || getpid() != g_query_pid) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    g_query_signal = sig;
    stopWorkers(SIGKILL);  // the compiler's group, and any started from now on
}

class QueryInterrupts {
public:
    QueryInterrupts() {
        g_query_pid = getpid();
        for (size_t i = 0; i < std::size(kQuerySignals); ++i) {
            installed_[i] =
                sigaction(kQuerySignals[i], nullptr, &old_[i]) == 0 && old_[i].sa_handler != SIG_IGN;
            if (!installed_[i]) continue;
            struct sigaction sa {};
            sa.sa_handler = onQueryInterrupt;
            sigemptyset(&sa.sa_mask);
            sigaction(kQuerySignals[i], &sa, nullptr);
        }
    }
    ~QueryInterrupts() {
        for (size_t i = 0; i < std::size(kQuerySignals); ++i)
            if (installed_[i]) sigaction(kQuerySignals[i], &old_[i], nullptr);
        if (int sig = g_query_signal) {
            signal(sig, SIG_DFL);
            raise(sig);
        }
    }
    bool interrupted() const { return g_query_signal != 0; }

private:
    struct sigaction old_[std::size(kQuerySignals)]{};
    bool installed_[std::size(kQuerySignals)] = {};
};

// One `ocloc query NAME`: the answer is the file NAME it writes in its working directory.
std::string query(const std::string& path, const std::string& name, double timeout_seconds,
                  std::string& answer) {
    TempDir dir;
    if (dir.path().empty()) return dir.error();
    std::vector<std::string> argv = {path, "query", name};
    ChildRun run = runChild(argv, dir.path(), timeout_seconds);
    if (!run.started) return quoted(argv) + ": " + run.error;
    if (run.timed_out) return quoted(argv) + ": no answer within " + secondsText(timeout_seconds);
    if (WIFSIGNALED(run.wstatus)) return quoted(argv) + ": " + signalText(WTERMSIG(run.wstatus));
    std::ifstream in(dir.path() + "/" + name);
    std::string text(256, '\0');  // a version; more is no answer
    in.read(&text[0], static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<size_t>(in.gcount()));
    answer = trimmed(text, kQueryBlank);
    if (WEXITSTATUS(run.wstatus) != 0 || answer.empty())
        return quoted(argv) + ": exit status " + std::to_string(WEXITSTATUS(run.wstatus)) +
               (answer.empty() ? ", no answer written" : "") +
               (trimmed(run.output, kQueryBlank).empty()
                    ? ""
                    : ": " + oneLine(capText(trimmed(run.output, kQueryBlank), kMessageLineHeadBytes,
                                             kMessageLineTailBytes)));
    return "";
}

}  // namespace

void finishCompilerTempDirs(double seconds) {
    LiveDirs& live = liveDirs();
    std::unique_lock<std::mutex> lock(live.mutex);
    live.closed = true;
    live.gone.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return live.paths.empty(); });
    signalChildGroups(SIGKILL);
    for (const auto& path : live.paths) removeTree(path);
}

std::string signalText(int sig) {
    const char* name = strsignal(sig);
    return "signal " + std::to_string(sig) + " (" + (name ? name : "unknown") + ")";
}

std::string findOfflineCompiler(const std::string& given, const std::string& search_path,
                                std::string& resolved) {
    if (given.empty()) return "--offline-compiler needs a program: a path or a name on PATH (e.g. ocloc)";
    if (given.find('/') != std::string::npos) {
        if (!isExecutableFile(given)) return given + ": no executable file there";
        resolved = absolute(given);
        return "";
    }
    size_t start = 0;
    while (start <= search_path.size()) {
        size_t colon = search_path.find(':', start);
        if (colon == std::string::npos) colon = search_path.size();
        std::string dir = search_path.substr(start, colon - start);
        std::string candidate = (dir.empty() ? "." : dir) + "/" + given;
        if (isExecutableFile(candidate)) {
            resolved = absolute(candidate);
            return "";
        }
        start = colon + 1;
    }
    return given + ": not found on PATH (" + (search_path.empty() ? "empty" : search_path) + ")";
}

std::string queryOfflineCompiler(OfflineCompiler& out, double timeout_seconds) {
    QueryInterrupts interrupts;
    std::string err = query(out.path, "OCL_DRIVER_VERSION", timeout_seconds, out.driver_version);
    if (!err.empty()) return err;
    std::string revision;
    if (!interrupts.interrupted() && query(out.path, "NEO_REVISION", timeout_seconds, revision).empty())
        out.neo_revision = revision;
    return "";
}

std::vector<std::string> compileArguments(const std::string& module_path, const std::string& target,
                                          const std::string& out_dir, const std::string& options) {
    std::vector<std::string> args = {"compile", "-spirv_input", "-file",    module_path,
                                     "-device", target,         "-out_dir", out_dir};
    if (!options.empty()) {
        args.push_back("-options");
        args.push_back(options);
    }
    return args;
}

CompileResult compileModule(const OfflineCompiler& compiler, const std::string& module_path,
                            const std::string& target, const std::string& options, double timeout_seconds) {
    CompileResult result;
    TempDir dir;
    std::vector<std::string> argv = {compiler.path};
    for (auto& a : compileArguments(absolute(module_path), target, dir.path() + "/out", options))
        argv.push_back(a);
    result.command = quoted(argv);
    if (dir.path().empty()) {
        result.log = dir.error();
        return result;
    }
    ChildRun run = runChild(argv, dir.path(), timeout_seconds);
    result.log = run.output;
    result.seconds = run.seconds;
    if (!run.started) {
        result.log = run.error;
    } else if (run.timed_out) {
        result.kind = CompileResult::Kind::TimedOut;
    } else if (WIFSIGNALED(run.wstatus)) {
        result.kind = CompileResult::Kind::Crashed;
        result.signal = WTERMSIG(run.wstatus);
    } else if (WEXITSTATUS(run.wstatus) != 0) {
        result.kind = CompileResult::Kind::Rejected;
        result.exit_status = WEXITSTATUS(run.wstatus);
    } else {
        // Success is the binary, not the word: an exit status 0 without one is not a build.
        result.kind =
            deviceBinaryIn(dir.path() + "/out") ? CompileResult::Kind::Built : CompileResult::Kind::Crashed;
    }
    return result;
}

namespace {

// A command-file line cannot hold these: ocloc splits a line on spaces and quotes with " or ', no escapes.
bool quotable(const std::string& text) {
    return text.find_first_of("\"'\r\n") == std::string::npos;
}

enum class Section { NotReached, Started, Succeeded, Failed };

// What the batch's output says of each build: "Command number K: " opens build K's section (K from 1),
// "Build succeeded." or "Build failed with error code: N" closes it.
std::vector<Section> readSections(const std::string& output, size_t builds, std::vector<std::string>& logs) {
    std::vector<Section> state(builds, Section::NotReached);
    logs.assign(builds, "");
    size_t current = builds;
    size_t pos = 0;
    while (pos < output.size()) {
        size_t end = output.find('\n', pos);
        if (end == std::string::npos) end = output.size();
        std::string line = output.substr(pos, end - pos);
        pos = end + 1;
        static const std::string head = "Command number ";
        if (line.compare(0, head.size(), head) == 0) {
            char* rest = nullptr;
            unsigned long k = std::strtoul(line.c_str() + head.size(), &rest, 10);
            if (k >= 1 && k <= builds && rest &&
                std::string(rest).find_first_not_of(": ") == std::string::npos) {
                current = k - 1;
                state[current] = Section::Started;
                continue;
            }
        }
        if (current == builds) continue;
        logs[current] += line + "\n";
        if (line == "Build succeeded.")
            state[current] = Section::Succeeded;
        else if (line.compare(0, 29, "Build failed with error code:") == 0)
            state[current] = Section::Failed;
    }
    return state;
}

}  // namespace

std::vector<CompileResult> compileModules(const OfflineCompiler& compiler,
                                          const std::vector<std::string>& module_paths,
                                          const std::string& target, const std::string& options,
                                          double timeout_seconds) {
    std::vector<CompileResult> results(module_paths.size());
    auto alone = [&](size_t i) {
        results[i] = compileModule(compiler, module_paths[i], target, options, timeout_seconds);
    };
    std::vector<std::string> paths(module_paths.size());  // absolute, as the command lines name them
    std::vector<size_t> pending;
    const bool batchable = quotable(options) && quotable(target);
    for (size_t i = 0; i < module_paths.size(); ++i) {
        paths[i] = absolute(module_paths[i]);
        if (batchable && quotable(paths[i]))
            pending.push_back(i);
        else
            alone(i);
    }
    while (pending.size() > 1) {
        TempDir dir;
        if (dir.path().empty()) break;
        const std::string commands = dir.path() + "/commands";
        {
            std::ofstream out(commands);
            for (size_t k = 0; k < pending.size(); ++k) {
                out << "-file \"" << paths[pending[k]] << "\" -spirv_input -device \"" << target
                    << "\" -out_dir \"" << dir.path() << "/o" << k << "\"";
                if (!options.empty()) out << " -options \"" << options << "\"";
                out << "\n";
            }
            if (!out) break;
        }
        const std::vector<std::string> argv = {compiler.path, "multi", commands};
        ChildRun run = runChild(argv, dir.path(), timeout_seconds);
        if (!run.started) break;
        std::vector<std::string> logs;
        std::vector<Section> state = readSections(run.output, pending.size(), logs);
        const size_t reached = pending.size() - std::count(state.begin(), state.end(), Section::NotReached);
        std::vector<size_t> next, again;
        for (size_t k = 0; k < pending.size(); ++k) {
            CompileResult& r = results[pending[k]];
            if (state[k] == Section::NotReached) {
                next.push_back(pending[k]);
            } else if (state[k] == Section::Succeeded &&
                       deviceBinaryIn(dir.path() + "/o" + std::to_string(k))) {
                r.kind = CompileResult::Kind::Built;
                r.log = logs[k];
                r.command = quoted(argv) + " (build " + std::to_string(k + 1) + ")";
                r.seconds = run.seconds / static_cast<double>(reached);
            } else {
                again.push_back(pending[k]);
            }
        }
        for (size_t i : again) alone(i);
        if (reached == 0) break;  // the batch reached no build: each on its own below
        pending = std::move(next);
    }
    for (size_t i : pending) alone(i);
    return results;
}

}  // namespace cts
