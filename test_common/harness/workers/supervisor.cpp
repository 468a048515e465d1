#include "test_common/harness/workers/supervisor.h"

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
#include <string_view>
#include <unordered_map>

#include "test_common/harness/selection/selection.h"
#include "test_common/harness/workers/retry.h"
#include "test_common/harness/workers/worker_process.h"

namespace cts {

void stopIsolatedRun(int sig) {
    stopWorkers(sig);
}

void runIsolated(const std::vector<std::string>& case_names, const std::vector<std::string>& worker_argv,
                 double timeout_seconds, uint64_t run_seed, Recorder& recorder,
                 const std::function<bool(const std::string&)>& own_process, bool timeout_is_default,
                 RetryBook* retry, const CaseLimits& case_limits) {
    using Clock = std::chrono::steady_clock;
    size_t next = 0;  // first case without a result
    while (next < case_names.size() && !workersStopped()) {
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
        const auto spawned = Clock::now();  // before the spawn, as in parallel.cpp
        WorkerProcess w = spawnWorker(worker_argv, 0);
        sendBatch(w, rest);
        closeInput(w);
        recorder.note("worker " + std::to_string(w.pid) + " for " + std::to_string(rest.size()) + " case(s)" +
                      (alone ? " (a waiver's own_process)" : ""));
        std::string buffer, running;
        CaseLimit running_own;  // the running case's own limit (a waiver's timeout_seconds)
        auto started = Clock::now();
        double start_ms =
            -1;  // the worker's start-up, charged to the first case it ran (report.h PhaseTimes)
        auto chargeStart = [&start_ms](CaseResult& r) {
            if (start_ms >= 0) r.phases.worker_start_ms += start_ms;
            start_ms = -1;
        };
        size_t done_by_this_worker = 0;
        bool timed_out = false;
        for (;;) {
            int wait_ms = -1;
            // While a case runs, its limit is the run's or its waiver's (caseLimitSeconds), which applies
            // also when the run has none.
            const double case_limit =
                running.empty() ? timeout_seconds : caseLimitSeconds(timeout_seconds, running_own);
            if (case_limit > 0) {
                // Starting a worker (loading the manifest, opening the device) is not part of any case:
                // it gets its own allowance so a loaded machine does not turn start-up into a Timeout.
                bool starting = running.empty() && done_by_this_worker == 0;
                bool ending = running.empty() && next == end;  // the whole batch reported: only its exit left
                double limit = starting ? std::max(timeout_seconds, kWorkerStartSeconds)
                               : ending ? std::min(timeout_seconds, kWorkerExitSeconds)
                                        : case_limit;
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
                    running_own = case_limits ? case_limits(running) : CaseLimit{};
                    started = Clock::now();
                    if (done_by_this_worker == 0)
                        start_ms = std::chrono::duration<double, std::milli>(started - spawned).count();
                    recorder.started(running);
                } else if (line.rfind("R ", 0) == 0) {
                    CaseResult r = parseWorkerResult(line.substr(2), running);
                    chargeStart(r);
                    recorder.finished(retry ? retry->final(r) : r);
                    running.clear();
                    started = Clock::now();
                    ++next;
                    ++done_by_this_worker;
                }
            }
        }
        if (timed_out) killWorker(w);
        const pid_t pid = w.pid;  // reapWorker forgets it
        int wstatus = reapWorker(w);
        // Stopped (the runner was interrupted): the worker's end is not the running case's result.
        if (next >= case_names.size() || workersStopped()) break;
        // The worker ran its whole batch: how it ended afterwards (a hang in the driver's teardown included,
        // killed after kWorkerExitSeconds) is no case's result, and the next case has not run yet.
        if (next == end && running.empty()) {
            if (timed_out)
                recorder.note("worker " + std::to_string(pid) + " did not end within " +
                              secondsText(std::min(timeout_seconds, kWorkerExitSeconds)) +
                              " after its last case; killed (no case's result)");
            continue;
        }
        // Killed at the limit between two cases of its batch: the next has not started; a new worker starts
        // at it (this one made progress, so the loop ends).
        if (timed_out && running.empty() && done_by_this_worker > 0) {
            recorder.note("worker " + std::to_string(pid) + " killed after " + secondsText(timeout_seconds) +
                          " without starting its next case (no case's result)");
            continue;
        }

        CaseResult r;
        r.name = running.empty() ? case_names[next] : running;
        r.seed = caseSeed(r.name, run_seed);
        r.duration_ms = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
        if (timed_out && !running.empty()) {
            r.status = Status::Timeout;
            r.message = caseTimeoutMessage(timeout_seconds, timeout_is_default, running_own) +
                        "; worker process killed";
        } else if (!running.empty()) {
            r.status = Status::Crash;
            r.message = describeExit(wstatus) + " while running this case";
        }
        if (!running.empty()) chargeStart(r);
        // --retry: the case runs again in the next worker (which starts at it); its record waits for then.
        if (!running.empty() && retry && retry->again(r)) {
            recorder.note("retrying " + r.name + " in a new worker after " + statusName(r.status));
            continue;
        }
        if (!running.empty()) {
            r = retry ? retry->final(r) : r;
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
               std::vector<std::string> names,
               const std::function<std::vector<CaseSpec>(const std::vector<std::string>&)>& load,
               unsigned retries, const std::function<bool(const std::string&)>& waived) {
    std::unordered_map<std::string_view, const CaseSpec*> registered;
    for (const auto& c : registry.cases()) registered.emplace(c.name, &c);
    for (;;) {
        std::vector<std::string> wanted;
        for (const auto& name : names)
            if (!registered.count(name)) wanted.push_back(name);
        const std::vector<CaseSpec> loaded = load && !wanted.empty() ? load(wanted) : std::vector<CaseSpec>();
        std::unordered_map<std::string_view, const CaseSpec*> byName;
        for (const auto& c : loaded) byName.emplace(c.name, &c);
        for (const auto& name : names) {
            if (!writeAll(kEventFd, "S " + name + "\n")) return 1;
            CaseResult r;
            auto it = registered.find(name);
            const CaseSpec* spec = it != registered.end() ? it->second : nullptr;
            if (!spec)
                if (auto l = byName.find(name); l != byName.end()) spec = l->second;
            if (!spec) {
                r.name = name;
                r.seed = caseSeed(name, settings.seed);
                r.status = Status::InternalError;
                r.message = "worker has no case named '" + name + "'";
            } else {
                unsigned k = waived && waived(name) ? 0 : retries;
                r = runWithRetries([&] { return runCase(*spec, registry, dut, settings); }, k);
            }
            if (!writeAll(kEventFd, "R " + workerResultJson(r) + "\n")) return 1;
        }
        if (!writeAll(kEventFd, "B\n")) return 1;
        names = readBatch(std::cin);
        if (names.empty()) return 0;
    }
}

}  // namespace cts
