// --jobs=N: the coordinator of N worker processes (worker_process.h). It hands the batches (scheduler.h) out
// one at a time to whichever worker is idle and collects the results; it holds no lock a worker waits on. A
// worker that crashes or exceeds the per-case timeout costs the case it was running (Crash, Timeout); the
// rest of its batch goes back to the front of the queue for a new worker. One killed at the limit between
// cases costs none. docs/architecture.md, "Parallel
// runs".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "test_common/harness/reports/recorder.h"
#include "test_common/harness/workers/retry.h"
#include "test_common/harness/workers/scheduler.h"
#include "test_common/harness/workers/worker_process.h"

namespace cts {

struct ParallelRun {
    std::vector<std::string> names;  // the selection, in order; Batch::cases index it
    std::vector<Batch> batches;      // in dispatch order
    std::vector<std::string> worker_argv;
    std::vector<std::string> worker_env;  // "NAME=VALUE" for every worker (spawnWorker)
    unsigned jobs = 1;
    double timeout_seconds = 0;  // per case; 0 = none
    bool timeout_is_default = false;
    uint64_t run_seed = 0;
    RetryBook* retry = nullptr;  // --retry: a Crash or Timeout runs again in a new worker (retry.h)
    CaseLimits case_limits;  // a case's own limit (a waiver's timeout_seconds, caseLimitSeconds); null: none
    // A module number per selection index (0: none), or empty: no steal splits a module (WorkPool).
    std::vector<uint32_t> module_of;
};

// Runs every batch; returns when each selected case has a result or the run was stopped (stopWorkers).
void runParallel(const ParallelRun& run, Recorder& recorder);

}  // namespace cts
