#include "test_common/harness/supervisor.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "test_common/harness/mismatch_json.h"
#include "test_common/harness/selection.h"

namespace cts {
namespace {

constexpr int kEventFd = 3;

std::atomic<bool> g_stop{false};
std::atomic<pid_t> g_worker{-1};  // the running worker, until it has ended (not yet reaped)

bool writeAll(int fd, const std::string& text) {
    size_t done = 0;
    while (done < text.size()) {
        ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<size_t>(n);
    }
    return true;
}

struct Worker {
    pid_t pid = -1;
    int events = -1;  // read end of the worker's fd 3
};

// Starts a worker that will run `names`. The list goes through stdin and the worker reads it to the
// end before running anything, so neither side can block the other on a full pipe.
Worker spawn(const std::vector<std::string>& argv, const std::vector<std::string>& names) {
    int in[2], ev[2];
    if (pipe(in) != 0 || pipe(ev) != 0) throw InternalError(std::string("pipe: ") + std::strerror(errno));
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) throw InternalError(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        // Die with the runner, however it ends (the death signal survives execv). The runner may have
        // died between fork and prctl: then this process already has another parent.
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(1);
        dup2(in[0], 0);
        dup2(ev[1], kEventFd);
        dup2(2, 1);  // stray prints from a case must not mix with the supervisor's console
        for (int fd : {in[0], in[1], ev[0], ev[1]})
            if (fd > kEventFd) close(fd);
        std::vector<char*> args;
        for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execv("/proc/self/exe", args.data());
        std::fprintf(stderr, "cannot re-execute /proc/self/exe: %s\n", std::strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);  // also here, so no signal sent to the group can miss the child that has not run yet
    g_worker.store(pid);
    if (g_stop.load()) kill(pid, SIGKILL);  // stopped while starting: the worker must not run anything
    close(in[0]);
    close(ev[1]);
    std::string list;
    for (const auto& n : names) list += n + "\n";
    signal(SIGPIPE, SIG_IGN);
    writeAll(in[1], list);
    close(in[1]);
    return {pid, ev[0]};
}

std::string describeExit(int wstatus) {
    if (WIFSIGNALED(wstatus)) {
        int sig = WTERMSIG(wstatus);
        return "worker process killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
    }
    if (WIFEXITED(wstatus))
        return "worker process exited with status " + std::to_string(WEXITSTATUS(wstatus));
    return "worker process ended";
}

constexpr double kWorkerStartSeconds = 120.0;

// Waits for the worker after its events ended; it may no longer be signalled by pid once reaped.
int reap(Worker& w) {
    int wstatus = 0;
    g_worker.store(-1);
    while (waitpid(w.pid, &wstatus, 0) < 0 && errno == EINTR) {
    }
    close(w.events);
    return wstatus;
}

}  // namespace

void stopIsolatedRun(int sig) {
    g_stop.store(true);
    pid_t pid = g_worker.load();
    if (pid > 0) kill(pid, sig);
}

void runIsolated(const std::vector<std::string>& case_names, const std::vector<std::string>& worker_argv,
                 double timeout_seconds, uint64_t run_seed, Recorder& recorder,
                 const std::function<bool(const std::string&)>& own_process) {
    using Clock = std::chrono::steady_clock;
    size_t next = 0;  // first case without a result
    while (next < case_names.size() && !g_stop.load()) {
        // A worker runs the cases up to the next one that needs a process of its own; that one gets a worker
        // to itself, so the damage its bug does to the driver's process reaches no other case.
        size_t end = next;
        bool alone = own_process && own_process(case_names[next]);
        if (alone)
            end = next + 1;
        else
            while (end < case_names.size() && !(own_process && own_process(case_names[end]))) ++end;
        std::vector<std::string> rest(case_names.begin() + static_cast<long>(next),
                                      case_names.begin() + static_cast<long>(end));
        Worker w = spawn(worker_argv, rest);
        recorder.note("worker " + std::to_string(w.pid) + " for " + std::to_string(rest.size()) + " case(s)" +
                      (alone ? " (a waiver's own_process)" : ""));
        std::string buffer, running;
        auto started = Clock::now();
        size_t done_by_this_worker = 0;
        bool timed_out = false;
        for (;;) {
            int wait_ms = -1;
            if (timeout_seconds > 0) {
                // Starting a worker (loading the manifest, opening the device) is not part of any case:
                // it gets its own allowance so a loaded machine does not turn start-up into a Timeout.
                bool starting = running.empty() && done_by_this_worker == 0;
                double limit = starting ? std::max(timeout_seconds, kWorkerStartSeconds) : timeout_seconds;
                double left = limit * 1000.0 -
                              std::chrono::duration<double, std::milli>(Clock::now() - started).count();
                wait_ms = left <= 0 ? 0 : static_cast<int>(left) + 1;
            }
            pollfd p{w.events, POLLIN, 0};
            int ready = poll(&p, 1, wait_ms);
            if (ready < 0 && errno == EINTR) continue;
            if (ready == 0) {
                timed_out = true;
                break;
            }
            char chunk[4096];
            ssize_t n = read(w.events, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;  // the worker ended (normally or not)
            buffer.append(chunk, static_cast<size_t>(n));
            size_t nl;
            while ((nl = buffer.find('\n')) != std::string::npos) {
                std::string line = buffer.substr(0, nl);
                buffer.erase(0, nl + 1);
                if (line.rfind("S ", 0) == 0) {
                    running = line.substr(2);
                    started = Clock::now();
                    recorder.started(running);
                } else if (line.rfind("R ", 0) == 0) {
                    CaseResult r;
                    try {
                        auto j = nlohmann::json::parse(line.substr(2));
                        r.name = j.at("name").get<std::string>();
                        r.message = j.at("message").get<std::string>();
                        r.duration_ms = j.at("duration_ms").get<double>();
                        r.seed = j.at("seed").get<uint64_t>();
                        r.status = static_cast<Status>(j.at("status").get<int>());
                        if (j.contains("mismatches")) r.picture = pictureFromJson(j.at("mismatches"));
                        if (j.contains("phase")) {
                            r.phase = j.at("phase").get<std::string>();
                            r.build_log = j.at("build_log").get<std::string>();
                        }
                    } catch (const std::exception& e) {
                        r.name = running;
                        r.status = Status::InternalError;
                        r.message = std::string("unreadable worker result: ") + e.what();
                    }
                    recorder.finished(r);
                    running.clear();
                    started = Clock::now();
                    ++next;
                    ++done_by_this_worker;
                }
            }
        }
        if (timed_out) kill(w.pid, SIGKILL);
        int wstatus = reap(w);
        // Stopped (the runner was interrupted): the worker's end is not the running case's result.
        if (next >= case_names.size() || g_stop.load()) break;
        // The worker ran its whole batch: how it ended afterwards is no case's result.
        if (next == end && running.empty() && !timed_out) continue;

        CaseResult r;
        r.name = running.empty() ? case_names[next] : running;
        r.seed = caseSeed(r.name, run_seed);
        r.duration_ms = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
        if (timed_out && !running.empty()) {
            r.status = Status::Timeout;
            r.message = "no result within the --timeout of " + secondsText(timeout_seconds) +
                        "; worker process killed";
        } else if (!running.empty()) {
            r.status = Status::Crash;
            r.message = describeExit(wstatus) + " while running this case";
        } else if (done_by_this_worker == 0) {
            // The worker died before starting any case: a new one would too. Give up on the rest.
            std::string why = timed_out ? "worker did not start within " +
                                              secondsText(std::max(timeout_seconds, kWorkerStartSeconds))
                                        : describeExit(wstatus);
            for (; next < case_names.size(); ++next) {
                CaseResult e;
                e.name = case_names[next];
                e.seed = caseSeed(e.name, run_seed);
                e.status = Status::InternalError;
                e.message = why + " before running any case";
                recorder.started(e.name);
                recorder.finished(e);
            }
            break;
        } else {
            r.status = Status::InternalError;
            r.message = describeExit(wstatus) + " between cases";
            recorder.started(r.name);
        }
        recorder.finished(r);
        ++next;
    }
}

int workerMain(const Registry& registry, DeviceUnderTest& dut, const RunSettings& settings,
               const std::vector<std::string>& names) {
    std::map<std::string, const CaseSpec*> byName;
    for (const auto& c : registry.cases()) byName[c.name] = &c;
    for (const auto& name : names) {
        if (!writeAll(kEventFd, "S " + name + "\n")) return 1;
        CaseResult r;
        auto it = byName.find(name);
        if (it == byName.end()) {
            r.name = name;
            r.seed = caseSeed(name, settings.seed);
            r.status = Status::InternalError;
            r.message = "worker has no case named '" + name + "'";
        } else {
            r = runCase(*it->second, registry, dut, settings);
        }
        nlohmann::json j = {{"name", r.name},
                            {"status", static_cast<int>(r.status)},
                            {"message", r.message},
                            {"duration_ms", r.duration_ms},
                            {"seed", r.seed}};
        if (!r.picture.empty()) j["mismatches"] = pictureJson(r.picture);
        if (!r.phase.empty()) {
            j["phase"] = r.phase;
            j["build_log"] = r.build_log;
        }
        if (!writeAll(kEventFd,
                      "R " + j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n"))
            return 1;
    }
    return 0;
}

}  // namespace cts
