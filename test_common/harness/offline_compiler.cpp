#include "test_common/harness/offline_compiler.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "test_common/harness/report.h"
#include "test_common/harness/worker_process.h"

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

// A temporary directory, removed when this goes out of scope.
class TempDir {
public:
    TempDir() {
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/spirv_intel_cts_ocloc.XXXXXX";
        std::vector<char> buf(pattern.begin(), pattern.end());
        buf.push_back('\0');
        if (mkdtemp(buf.data()))
            path_ = buf.data();
        else
            error_ = std::string("cannot create a temporary directory from ") + pattern + ": " +
                     std::strerror(errno);
    }
    ~TempDir() {
        if (!path_.empty()) removeTree(path_);
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
    std::string output, error;
    double seconds = 0;
};

// Runs argv in `cwd` with stdout and stderr into one pipe, killing its process group at the time limit.
ChildRun runChild(const std::vector<std::string>& argv, const std::string& cwd, double timeout_seconds) {
    ChildRun run;
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) {
        run.error = std::string("pipe: ") + std::strerror(errno);
        return run;
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    auto start = std::chrono::steady_clock::now();
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
    setChildGroup(pid);
    close(out[1]);
    run.started = true;
    const auto deadline = start + std::chrono::duration<double>(timeout_seconds);
    char buf[4096];
    bool open = true;
    while (open) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                                          std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            run.timed_out = true;
            break;
        }
        pollfd p{out[0], POLLIN, 0};
        int r = poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
        if (r < 0 && errno != EINTR) break;
        if (r <= 0) continue;
        ssize_t n = read(out[0], buf, sizeof buf);
        if (n > 0)
            run.output.append(buf, static_cast<size_t>(n));
        else if (n == 0 || errno != EINTR)
            open = false;
    }
    if (run.timed_out) kill(-pid, SIGKILL);
    close(out[0]);
    // The output is closed: the compiler has ended or is about to; a timed-out one was killed above.
    while (waitpid(pid, &run.wstatus, 0) < 0 && errno == EINTR) {
    }
    if (run.timed_out) kill(-pid, SIGKILL);  // anything it started that outlived it
    setChildGroup(0);
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return run;
}

std::string quoted(const std::vector<std::string>& argv) {
    std::string cmd;
    for (const auto& a : argv) cmd += (cmd.empty() ? "" : " ") + shellQuote(a);
    return cmd;
}

// ocloc's query files end in a NUL byte and a space ("22.43.24595\0 " in 22.43).
std::string trimmed(const std::string& text) {
    static const std::string blank(" \t\r\n\0", 5);
    size_t b = text.find_first_not_of(blank);
    if (b == std::string::npos) return "";
    return text.substr(b, text.find_last_not_of(blank) - b + 1);
}

bool anyFileIn(const std::string& dir) {
    bool found = false;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
            std::string name = e->d_name;
            if (name != "." && name != "..") found = true;
        }
        closedir(d);
    }
    return found;
}

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
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    answer = trimmed(text);
    if (WEXITSTATUS(run.wstatus) != 0 || answer.empty())
        return quoted(argv) + ": exit status " + std::to_string(WEXITSTATUS(run.wstatus)) +
               (answer.empty() ? ", no answer written" : "") +
               (trimmed(run.output).empty() ? "" : ": " + oneLine(trimmed(run.output)));
    return "";
}

}  // namespace

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
    std::string err = query(out.path, "OCL_DRIVER_VERSION", timeout_seconds, out.driver_version);
    if (!err.empty()) return err;
    std::string revision;
    if (query(out.path, "NEO_REVISION", timeout_seconds, revision).empty()) out.neo_revision = revision;
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
            anyFileIn(dir.path() + "/out") ? CompileResult::Kind::Built : CompileResult::Kind::Crashed;
    }
    return result;
}

}  // namespace cts
