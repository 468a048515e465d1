// The worker processes of --isolate and --jobs: starting one, the lines it writes, how it ended, and stopping
// every one of them at once (SIGINT/SIGTERM to the runner). A worker reads batches of case names on stdin
// (one name a line, a batch ends with an empty line or the end of input), writes "S NAME" when a case
// starts, "R JSON" with its result (its phase times included; the coordinator adds the worker's start-up to
// the first one) and "B" when the batch is done, on file descriptor 3.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <functional>
#include <istream>
#include <string>
#include <vector>

#include "test_common/harness/reports/report.h"

namespace cts {

constexpr int kEventFd = 3;
// Starting a worker (loading the manifest, opening the device) is not part of any case: it gets its own
// allowance so a loaded machine does not turn start-up into a Timeout.
constexpr double kWorkerStartSeconds = 120.0;
// How long a worker that has reported the last case of its batch may take to end (a driver's teardown) before
// it is killed. A driver whose process a waived case damaged can hang in its exit handlers; that is no
// case's result, and waiting a whole case's limit for it cost every run minutes (Intel's CPU runtime).
constexpr double kWorkerExitSeconds = 20.0;
// --jobs above this is refused (options.cpp): every worker has a slot in the table stopWorkers() reads.
constexpr unsigned kMaxJobs = 256;

struct WorkerProcess {
    pid_t pid = -1;
    int input = -1;   // write end of the worker's stdin (-1 once closed)
    int events = -1;  // read end of the worker's fd 3
    size_t slot = 0;  // its entry in the table of running workers
};

// Starts `argv` (this program re-executed) in a process group of its own with SIGKILL as its parent-death
// signal: a worker never outlives the runner, however the runner ends. `slot` < kMaxJobs. `env`: "NAME=VALUE"
// entries set (or replaced) in the worker's environment.
WorkerProcess spawnWorker(const std::vector<std::string>& argv, size_t slot,
                          const std::vector<std::string>& env = {});
// Sends one batch (names and the empty line that ends it); false when the worker is gone.
bool sendBatch(WorkerProcess& w, const std::vector<std::string>& names);
void closeInput(WorkerProcess& w);
// Kills the worker's process group with SIGKILL.
void killWorker(const WorkerProcess& w);
// Waits for the worker (after its events ended or it was killed) and returns its wait status.
int reapWorker(WorkerProcess& w);
// "worker process killed by signal 11 (Segmentation fault)".
std::string describeExit(int wstatus);

// Ends the run early: no worker is started any more and `sig` goes to every running worker's group.
// Async-signal-safe apart from the table read; callable from any thread.
void stopWorkers(int sig);
bool workersStopped();
// The process groups of children that are not workers (the offline compiler, one per compile thread):
// stopWorkers() signals them too, so an interrupted run leaves none of the compiler's own children behind
// (the parent-death signal reaches only the direct child). Remove a group before reaping its leader.
void addChildGroup(pid_t pgid);
void removeChildGroup(pid_t pgid);
// Sends `sig` to every child group added (async-signal-safe).
void signalChildGroups(int sig);

// The result a worker wrote after "R "; an unreadable one is an InternalError of the case `running`.
CaseResult parseWorkerResult(const std::string& json, const std::string& running);
std::string workerResultJson(const CaseResult& r);
bool writeAll(int fd, const std::string& text);

// The next batch of names on `in`; empty at the end of input.
std::vector<std::string> readBatch(std::istream& in);

// The Timeout message, for every place a case is given up on: "no result within the --timeout of 20 s" or,
// when no --timeout was given, "no result within the default limit of 300 s (--timeout=SECONDS to change)".
std::string timeoutMessage(double seconds, bool is_default);

// A case's own per-case limit: a waiver's "timeout_seconds" (waivers.h) for a case whose bug can hang it.
struct CaseLimit {
    double seconds = 0;  // 0: none of its own
    std::string source;  // the waiver entry's FILE:LINE
};
// The own limit of each case, by name; null: no case has one.
using CaseLimits = std::function<CaseLimit(const std::string& case_name)>;
// The limit of a running case: its own when that is lower than the run's (`run_seconds`, 0 = none) or the
// run has none, else the run's.
double caseLimitSeconds(double run_seconds, const CaseLimit& own);
// The Timeout message of a case given up on at caseLimitSeconds: timeoutMessage when the run's limit applied,
// else "no result within the waiver's timeout_seconds of 30 s (FILE:LINE)".
std::string caseTimeoutMessage(double run_seconds, bool run_is_default, const CaseLimit& own);

}  // namespace cts
