#include "test_common/harness/offline/offline_compiler.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>

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
            } else if (state[k] == Section::Succeeded && anyFileIn(dir.path() + "/o" + std::to_string(k))) {
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
