// --isolate: the runner re-executes itself as a worker process that runs the remaining cases one after
// another and streams a line per event over a pipe. A worker that dies or exceeds the per-case timeout
// costs only the case it was running: the supervisor records Crash or Timeout and starts a new worker
// for the rest.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "test_common/harness/launch/case_runner.h"
#include "test_common/harness/reports/recorder.h"
#include "test_common/harness/workers/retry.h"
#include "test_common/harness/workers/worker_process.h"

namespace cts {

// worker_argv: program and arguments of the worker (it reads case names on stdin, one per line, and
// writes events to file descriptor 3).
//
// A worker never outlives the runner: it runs in a process group of its own (a Ctrl-C at the terminal
// reaches the runner only, which forwards it, see stopIsolatedRun) and has SIGKILL as its parent-death
// signal, so it dies even when the runner is killed with SIGKILL or crashes.
// own_process(name): the case runs in a worker of its own (a waiver's "own_process": its bug corrupts the
// driver's process); null for none. case_limits(name): a case's own limit (a waiver's "timeout_seconds"),
// which replaces timeout_seconds while that case runs when it is lower (caseLimitSeconds); null for none.
void runIsolated(const std::vector<std::string>& case_names, const std::vector<std::string>& worker_argv,
                 double timeout_seconds, uint64_t run_seed, Recorder& recorder,
                 const std::function<bool(const std::string&)>& own_process = nullptr,
                 bool timeout_is_default = false, RetryBook* retry = nullptr,
                 const CaseLimits& case_limits = nullptr);

// Ends an isolated run early (SIGINT/SIGTERM to the runner): no new worker is started, the end of the
// running worker is not recorded as that case's result, and `sig` is forwarded to the running worker.
// Safe to call from any thread, also before or without runIsolated.
void stopIsolatedRun(int sig);

// The worker side: runs `names`, then each further batch read on stdin (worker_process.h). A batch's cases
// are the registry's (C++ cases) or what load(names of the others) returns for them; each batch's loaded
// cases are dropped when it is done (the program cache keeps the built modules). A Fail runs again up to
// `retries` times unless waived(name) (--retry, retry.h). Returns the process exit status.
int workerMain(const Registry& registry, DeviceUnderTest& dut, const RunSettings& settings,
               std::vector<std::string> names,
               const std::function<std::vector<CaseSpec>(const std::vector<std::string>&)>& load = nullptr,
               unsigned retries = 0, const std::function<bool(const std::string&)>& waived = nullptr);

}  // namespace cts
