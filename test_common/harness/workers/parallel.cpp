#include "test_common/harness/workers/parallel.h"

#include <poll.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <deque>

#include "test_common/harness/selection/selection.h"
#include "test_common/harness/workers/work_pool.h"
#include "test_common/harness/workers/worker_process.h"

namespace cts {
namespace {

using Clock = std::chrono::steady_clock;

constexpr long kGatherNanoseconds = 2000000;  // 2 ms: at most ~500 wake-ups a second while all are busy
constexpr unsigned kChunksAhead = 2;  // the next chunk waits in the worker's input: no round trip between

struct Slot {
    WorkerProcess w;             // pid -1: no worker
    std::deque<size_t> pending;  // the cases sent to the worker without a result yet, in order
    unsigned chunks = 0;         // chunks sent whose "B" is not read yet
    bool busy() const { return chunks > 0; }
    bool alone = false;  // the worker runs an own_process case: it ends after it
    bool fresh = true;   // no case started in this worker yet
    std::string buffer, running;
    CaseLimit running_own;    // the running case's own limit (a waiver's timeout_seconds)
    Clock::time_point since;  // start of the running case, or of the wait for the next one
    Clock::time_point spawned;
    double start_ms = -1;  // the worker's start-up, until its first case's result is charged with it
};

double elapsedMs(Clock::time_point since) {
    return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

class Coordinator {
public:
    Coordinator(const ParallelRun& run, Recorder& recorder)
        : run_(run),
          recorder_(recorder),
          slots_(std::max(1u, std::min<unsigned>(run.jobs, kMaxJobs))),
          pool_(run.batches, slots_.size(), run.module_of) {
        for (size_t i = 0; i < slots_.size(); ++i) slots_[i].w.slot = i;
    }

    void run() {
        while (!workersStopped()) {
            dispatch();
            if (std::none_of(slots_.begin(), slots_.end(), [](const Slot& s) { return s.busy(); })) break;
            wait();
        }
        for (auto& s : slots_)
            if (s.w.pid > 0) {
                if (workersStopped()) killWorker(s.w);
                closeInput(s.w);
                reapWorker(s.w);
            }
    }

private:
    // Keeps every worker kChunksAhead chunks ahead (work_pool.h says which); a worker with nothing left to do
    // is ended.
    void dispatch() {
        for (auto& s : slots_) {
            while (s.chunks < kChunksAhead && !s.alone) {
                WorkPool::Chunk c = pool_.next(s.w.slot, !s.busy());
                if (c.cases.empty()) break;
                send(s, c);
            }
            if (!s.busy() && s.w.pid > 0) {
                closeInput(s.w);
                reapWorker(s.w);
            }
        }
    }

    // A case that needs a process of its own gets a new worker, which ends after it.
    void send(Slot& s, const WorkPool::Chunk& c) {
        if (c.alone && s.w.pid > 0) {
            closeInput(s.w);
            reapWorker(s.w);
        }
        if (s.w.pid <= 0) {
            // The clock starts before the spawn: the child may run (and start loading) before spawnWorker
            // returns to a busy parent, and its start-up must not be undercounted.
            s.spawned = Clock::now();
            s.w = spawnWorker(run_.worker_argv, s.w.slot, run_.worker_env);
            s.fresh = true;
            s.start_ms = -1;
            // Only these workers are logged: the log of a --jobs run is otherwise that of --jobs=1.
            if (c.alone)
                recorder_.note("worker " + std::to_string(s.w.pid) +
                               " for 1 case(s) (a waiver's own_process)");
        }
        std::vector<std::string> names;
        for (size_t i : c.cases) names.push_back(run_.names[i]);
        if (!s.busy()) {
            s.running.clear();
            s.since = Clock::now();
        }
        s.pending.insert(s.pending.end(), c.cases.begin(), c.cases.end());
        s.alone = c.alone;
        ++s.chunks;
        sendBatch(s.w, names);  // a worker already gone shows as the end of its events
        if (c.alone) closeInput(s.w);
    }

    double limitMs(const Slot& s) const {
        // While a case runs, its limit is the run's or its waiver's, which applies also when the run has
        // none.
        if (!s.running.empty()) {
            double limit = caseLimitSeconds(run_.timeout_seconds, s.running_own);
            return limit > 0 ? 1000.0 * limit : -1;
        }
        if (run_.timeout_seconds <= 0) return -1;
        bool starting = s.fresh;
        return 1000.0 *
               (starting ? std::max(run_.timeout_seconds, kWorkerStartSeconds) : run_.timeout_seconds);
    }

    void wait() {
        std::vector<pollfd> fds;
        std::vector<Slot*> of;
        int wait_ms = -1;
        for (auto& s : slots_) {
            if (!s.busy()) continue;
            fds.push_back(pollfd{s.w.events, POLLIN, 0});
            of.push_back(&s);
            double limit = limitMs(s);
            if (limit < 0) continue;
            double left = limit - elapsedMs(s.since);
            int ms = left <= 0 ? 0 : static_cast<int>(left) + 1;
            wait_ms = wait_ms < 0 ? ms : std::min(wait_ms, ms);
        }
        int ready = poll(fds.data(), fds.size(), wait_ms);
        if (ready < 0) return;  // EINTR: the loop checks for a stop and polls again
        bool read_any = false;
        for (size_t i = 0; i < fds.size(); ++i) {
            Slot& s = *of[i];
            if (fds[i].revents) {
                readEvents(s);
                read_any = true;
            } else {
                double limit = limitMs(s);
                if (limit >= 0 && elapsedMs(s.since) >= limit) workerLost(s, true);
            }
        }
        // Workers write two lines a case, thousands a second: woken for each, the coordinator would take a
        // core's share from the workers in context switches. While every worker is busy, it lets their lines
        // gather for a moment before it reads again (a signal ends the pause; limits are seconds).
        if (read_any && std::all_of(slots_.begin(), slots_.end(), [](const Slot& s) { return s.busy(); })) {
            timespec pause{0, kGatherNanoseconds};
            nanosleep(&pause, nullptr);
        }
    }

    void readEvents(Slot& s) {
        char chunk[65536];
        ssize_t n = read(s.w.events, chunk, sizeof chunk);
        if (n < 0) return;
        if (n == 0) {
            workerLost(s, false);
            return;
        }
        s.buffer.append(chunk, static_cast<size_t>(n));
        // The complete lines, each handled in place; the unfinished last one stays for the next read (erasing
        // each line from the front moved the rest of a 64 KiB read once a line).
        size_t at = 0, nl;
        while ((nl = s.buffer.find('\n', at)) != std::string::npos) {
            std::string line = s.buffer.substr(at, nl - at);
            at = nl + 1;
            if (line.rfind("S ", 0) == 0) {
                s.running = line.substr(2);
                s.running_own = run_.case_limits ? run_.case_limits(s.running) : CaseLimit{};
                if (s.fresh) s.start_ms = elapsedMs(s.spawned);
                s.fresh = false;
                s.since = Clock::now();
                recorder_.started(s.running);
            } else if (line.rfind("R ", 0) == 0) {
                CaseResult r = parseWorkerResult(line.substr(2), s.running);
                chargeStart(s, r);
                recorder_.finished(run_.retry ? run_.retry->final(r) : r);
                if (!s.pending.empty()) s.pending.pop_front();
                s.running.clear();
                s.since = Clock::now();
            } else if (line == "B") {
                if (s.chunks) --s.chunks;
                if (!s.busy()) s.pending.clear();
                if (s.alone) {
                    reapWorker(s.w);
                    s.alone = false;
                }
            }
        }
        s.buffer.erase(0, at);
    }

    // The worker ended (or timed out) before its batch was done: the case it was running gets the blame,
    // the rest of the batch goes back to the front of the queue.
    void workerLost(Slot& s, bool timed_out) {
        const pid_t pid = s.w.pid;
        if (timed_out) killWorker(s.w);
        int wstatus = reapWorker(s.w);
        s.chunks = 0;
        s.buffer.clear();
        if (workersStopped()) return;   // interrupted: the worker's end is not the case's result
        if (s.pending.empty()) return;  // it ran its whole batch; how it ended afterwards is no case's result
        CaseResult r;
        r.name = s.running.empty() ? run_.names[s.pending.front()] : s.running;
        r.seed = caseSeed(r.name, run_.run_seed);
        r.duration_ms = elapsedMs(s.since);
        if (s.running.empty() && s.fresh) {
            // The worker died before starting any case: a new one would too. Give up on the rest.
            std::string why = timed_out ? "worker did not start within " +
                                              secondsText(std::max(run_.timeout_seconds, kWorkerStartSeconds))
                                        : describeExit(wstatus);
            giveUp(s, why + " before running any case");
            return;
        }
        if (timed_out && s.running.empty()) {
            // Killed at the limit between two cases: the one it reported last is recorded and the next has
            // not started, so no case is to blame. The worker made progress (it is not fresh), so handing the
            // rest to a new worker ends: each one runs at least a case.
            recorder_.note("worker " + std::to_string(pid) + " killed after " +
                           secondsText(run_.timeout_seconds) +
                           " without starting its next case (no case's result)");
            pool_.putBack(s.w.slot, s.pending, s.alone);
            s.pending.clear();
            s.alone = false;
            return;
        }
        if (timed_out && !s.running.empty()) {
            r.status = Status::Timeout;
            r.message = caseTimeoutMessage(run_.timeout_seconds, run_.timeout_is_default, s.running_own) +
                        "; worker process killed";
        } else if (!s.running.empty()) {
            r.status = Status::Crash;
            r.message = describeExit(wstatus) + " while running this case";
        } else {
            r.status = Status::InternalError;
            r.message = describeExit(wstatus) + " between cases";
            recorder_.started(r.name);
        }
        if (!s.running.empty()) chargeStart(s, r);
        // --retry: the case stays at the head of the rest of its batch, which a new worker runs.
        bool again = !s.running.empty() && run_.retry && run_.retry->again(r);
        if (again)
            recorder_.note("retrying " + r.name + " in a new worker after " + statusName(r.status));
        else
            recorder_.finished(run_.retry && !s.running.empty() ? run_.retry->final(r) : r);
        if (!again) s.pending.pop_front();
        s.running.clear();
        pool_.putBack(s.w.slot, s.pending, s.alone);  // a retried own_process case keeps a worker to itself
        s.pending.clear();
        s.alone = false;
    }

    // The first case a worker ran carries the worker's start-up (report.h PhaseTimes).
    static void chargeStart(Slot& s, CaseResult& r) {
        if (s.start_ms < 0) return;
        r.phases.worker_start_ms += s.start_ms;
        s.start_ms = -1;
    }

    void giveUp(Slot& s, const std::string& why) {
        std::deque<size_t> left = s.pending;
        for (size_t i : pool_.takeRest(s.w.slot)) left.push_back(i);
        s.pending.clear();
        s.alone = false;
        for (size_t i : left) {
            CaseResult e;
            e.name = run_.names[i];
            e.seed = caseSeed(e.name, run_.run_seed);
            e.status = Status::InternalError;
            e.message = why;
            recorder_.started(e.name);
            recorder_.finished(e);
        }
    }

    const ParallelRun& run_;
    Recorder& recorder_;
    std::vector<Slot> slots_;
    WorkPool pool_;
};

}  // namespace

void runParallel(const ParallelRun& run, Recorder& recorder) {
    Coordinator(run, recorder).run();
}

}  // namespace cts
