#include "test_common/harness/workers/worker_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <nlohmann/json.hpp>

#include "test_common/errors.h"
#include "test_common/harness/reports/mismatch_json.h"

namespace cts {
namespace {

std::atomic<bool> g_stop{false};
std::atomic<pid_t> g_workers[kMaxJobs];  // the running workers (process group ids), 0 = none
// The offline compiler's process groups (addChildGroup): one per compile thread, --jobs of them at once.
std::atomic<pid_t> g_children[kMaxJobs + 1];

}  // namespace

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

WorkerProcess spawnWorker(const std::vector<std::string>& argv, size_t slot,
                          const std::vector<std::string>& env) {
    // Built before fork: the child of a process with threads may only call async-signal-safe functions.
    std::vector<char*> args, envp;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    for (char** e = environ; *e; ++e) {
        std::string entry = *e;
        std::string name = entry.substr(0, entry.find('=') + 1);
        bool replaced =
            std::any_of(env.begin(), env.end(), [&](const std::string& v) { return v.rfind(name, 0) == 0; });
        if (!replaced) envp.push_back(*e);
    }
    for (const auto& v : env) envp.push_back(const_cast<char*>(v.c_str()));
    envp.push_back(nullptr);
    int in[2], ev[2];
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(ev, O_CLOEXEC) != 0)
        throw InternalError(std::string("pipe: ") + std::strerror(errno));
    signal(SIGPIPE, SIG_IGN);  // a worker that died must not take the runner with it on the next batch
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) throw InternalError(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        // Die with the runner, however it ends (the death signal survives execv). The runner may have
        // died between fork and prctl: then this process already has another parent.
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(1);
        signal(SIGPIPE, SIG_DFL);
        dup2(in[0], 0);
        dup2(ev[1], kEventFd);
        dup2(2, 1);  // stray prints from a case must not mix with the supervisor's console
        execve("/proc/self/exe", args.data(), envp.data());
        std::fprintf(stderr, "cannot re-execute /proc/self/exe: %s\n", std::strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);  // also here, so no signal sent to the group can miss the child that has not run yet
    g_workers[slot].store(pid);
    if (g_stop.load()) kill(-pid, SIGKILL);  // stopped while starting: the worker must not run anything
    close(in[0]);
    close(ev[1]);
    return {pid, in[1], ev[0], slot};
}

bool sendBatch(WorkerProcess& w, const std::vector<std::string>& names) {
    std::string list;
    for (const auto& n : names) list += n + "\n";
    return w.input >= 0 && writeAll(w.input, list + "\n");
}

void closeInput(WorkerProcess& w) {
    if (w.input >= 0) close(w.input);
    w.input = -1;
}

void killWorker(const WorkerProcess& w) {
    if (w.pid > 0) kill(-w.pid, SIGKILL);
}

int reapWorker(WorkerProcess& w) {
    int wstatus = 0;
    g_workers[w.slot].store(0);  // reaped, its pid may be reused: no longer signalled
    while (waitpid(w.pid, &wstatus, 0) < 0 && errno == EINTR) {
    }
    closeInput(w);
    if (w.events >= 0) close(w.events);
    w.events = -1;
    w.pid = -1;
    return wstatus;
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

void stopWorkers(int sig) {
    g_stop.store(true);
    for (auto& w : g_workers) {
        pid_t pid = w.load();
        if (pid > 0) kill(-pid, sig);
    }
    signalChildGroups(sig);
}

void signalChildGroups(int sig) {
    for (auto& c : g_children)
        if (pid_t child = c.load(); child > 0) kill(-child, sig);
}

void addChildGroup(pid_t pgid) {
    for (auto& c : g_children) {
        pid_t none = 0;
        if (c.compare_exchange_strong(none, pgid)) break;
    }
    if (g_stop.load()) kill(-pgid, SIGKILL);  // stopped while it started
}

void removeChildGroup(pid_t pgid) {
    for (auto& c : g_children) {
        pid_t mine = pgid;
        if (c.compare_exchange_strong(mine, 0)) break;
    }
}

bool workersStopped() {
    return g_stop.load();
}

namespace {

// Reads a result line's fields straight into a CaseResult (no DOM: the coordinator of a --jobs run reads one
// line a case, tens of thousands a second with many workers). A line with "mismatches" (a failed case's
// grids) is left to the DOM reader: `dom` is set and the parse stops.
class ResultReader : public nlohmann::json_sax<nlohmann::json> {
public:
    explicit ResultReader(CaseResult& r) : r_(r) {}
    bool dom = false;   // the line holds "mismatches": read it as a tree instead
    std::string error;  // why the line is not a result
    bool complete() const { return seen_ == kAll; }

    bool null() override { return wrong(); }
    bool boolean(bool) override { return wrong(); }
    bool number_integer(number_integer_t v) override {
        if (inPhases()) return phase(static_cast<double>(v));
        if (top("status")) return status(v);
        if (top("duration_ms")) return duration(static_cast<double>(v));
        return wrong();
    }
    bool number_unsigned(number_unsigned_t v) override {
        if (inPhases()) return phase(static_cast<double>(v));
        if (top("seed")) {
            r_.seed = v;
            return have(kSeed);
        }
        if (top("status")) return status(static_cast<number_integer_t>(v));
        if (top("duration_ms")) return duration(static_cast<double>(v));
        return wrong();
    }
    bool number_float(number_float_t v, const string_t&) override {
        if (inPhases()) return phase(v);
        return top("duration_ms") ? duration(v) : wrong();
    }
    bool string(string_t& v) override {
        if (depth_ == 2 && key_ == "attempts") {
            r_.attempts.push_back(std::move(v));
            return true;
        }
        if (depth_ == 2 && key_ == "version_gaps") {
            r_.version_gaps.push_back(std::move(v));
            return true;
        }
        if (top("name")) {
            r_.name = std::move(v);
            return have(kName);
        }
        if (top("message")) {
            r_.message = std::move(v);
            return have(kMessage);
        }
        if (top("phase")) {
            r_.phase = std::move(v);
            return true;
        }
        if (top("build_log")) {
            r_.build_log = std::move(v);
            return true;
        }
        return wrong();
    }
    bool binary(binary_t&) override { return wrong(); }
    bool start_object(std::size_t) override {
        if (top("phases"))
            phases_ = true;  // the one nested object of the fast path
        else if (depth_ != 0)
            return wrong();
        ++depth_;
        return true;
    }
    bool key(string_t& k) override {
        key_ = std::move(k);
        dom = depth_ == 1 && key_ == "mismatches";
        return !dom;
    }
    bool end_object() override {
        if (--depth_ == 1) phases_ = false;
        return true;
    }
    bool start_array(std::size_t) override {
        if (!top("attempts") && !top("version_gaps")) return wrong();
        ++depth_;
        return true;
    }
    bool end_array() override {
        --depth_;
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
        error = e.what();
        return false;
    }

private:
    enum : unsigned { kName = 1, kMessage = 2, kDuration = 4, kSeed = 8, kStatus = 16, kAll = 31 };
    bool top(const char* key) const { return depth_ == 1 && key_ == key; }
    bool inPhases() const { return phases_ && depth_ == 2; }
    bool phase(double v) {
        PhaseTimes& p = r_.phases;
        if (key_ == "build_ms")
            p.build_ms = v;
        else if (key_ == "builds")
            p.builds = static_cast<size_t>(v);
        else if (key_ == "cache_hits")
            p.cache_hits = static_cast<size_t>(v);
        else if (key_ == "kernel_ms")
            p.kernel_ms = v;
        else if (key_ == "check_ms")
            p.check_ms = v;
        else if (key_ == "worker_start_ms")
            p.worker_start_ms = v;
        else
            return wrong();
        return true;
    }
    bool have(unsigned field) {
        seen_ |= field;
        return true;
    }
    bool status(number_integer_t v) {
        r_.status = static_cast<Status>(v);
        return have(kStatus);
    }
    bool duration(double v) {
        r_.duration_ms = v;
        return have(kDuration);
    }
    bool wrong() {
        error = "unexpected value for \"" + key_ + "\"";
        return false;
    }
    CaseResult& r_;
    int depth_ = 0;
    bool phases_ = false;  // inside "phases"
    std::string key_;
    unsigned seen_ = 0;
};

PhaseTimes phasesFromJson(const nlohmann::json& j) {
    PhaseTimes p;
    p.build_ms = j.at("build_ms").get<double>();
    p.builds = j.at("builds").get<size_t>();
    p.cache_hits = j.at("cache_hits").get<size_t>();
    p.kernel_ms = j.at("kernel_ms").get<double>();
    p.check_ms = j.at("check_ms").get<double>();
    p.worker_start_ms = j.at("worker_start_ms").get<double>();
    return p;
}

}  // namespace

CaseResult parseWorkerResult(const std::string& json, const std::string& running) {
    CaseResult r;
    ResultReader reader(r);
    if (nlohmann::json::sax_parse(json, &reader) && reader.complete()) return r;
    if (!reader.dom) {
        r = CaseResult{};
        r.name = running;
        r.status = Status::InternalError;
        r.message = "unreadable worker result: " +
                    (reader.error.empty() ? std::string("a field is missing") : reader.error);
        return r;
    }
    r = CaseResult{};
    try {
        auto j = nlohmann::json::parse(json);
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
        if (j.contains("attempts")) r.attempts = j.at("attempts").get<std::vector<std::string>>();
        if (j.contains("version_gaps")) r.version_gaps = j.at("version_gaps").get<std::vector<std::string>>();
        if (j.contains("phases")) r.phases = phasesFromJson(j.at("phases"));
    } catch (const std::exception& e) {
        r = CaseResult{};
        r.name = running;
        r.status = Status::InternalError;
        r.message = std::string("unreadable worker result: ") + e.what();
    }
    return r;
}

std::string workerResultJson(const CaseResult& r) {
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
    if (!r.attempts.empty()) j["attempts"] = r.attempts;
    if (!r.version_gaps.empty()) j["version_gaps"] = r.version_gaps;
    const PhaseTimes& p = r.phases;
    j["phases"] = {{"build_ms", p.build_ms},     {"builds", p.builds},
                   {"cache_hits", p.cache_hits}, {"kernel_ms", p.kernel_ms},
                   {"check_ms", p.check_ms},     {"worker_start_ms", p.worker_start_ms}};
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<std::string> readBatch(std::istream& in) {
    std::vector<std::string> names;
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) {
            if (names.empty()) continue;
            break;
        }
        names.push_back(line);
    }
    return names;
}

std::string timeoutMessage(double seconds, bool is_default) {
    if (is_default)
        return "no result within the default limit of " + secondsText(seconds) +
               " (--timeout=SECONDS to change)";
    return "no result within the --timeout of " + secondsText(seconds);
}

namespace {
bool ownLimitApplies(double run_seconds, const CaseLimit& own) {
    return own.seconds > 0 && (run_seconds <= 0 || own.seconds < run_seconds);
}
}  // namespace

double caseLimitSeconds(double run_seconds, const CaseLimit& own) {
    return ownLimitApplies(run_seconds, own) ? own.seconds : run_seconds;
}

std::string caseTimeoutMessage(double run_seconds, bool run_is_default, const CaseLimit& own) {
    if (!ownLimitApplies(run_seconds, own)) return timeoutMessage(run_seconds, run_is_default);
    return "no result within the waiver's timeout_seconds of " + secondsText(own.seconds) + " (" +
           own.source + ")";
}

}  // namespace cts
