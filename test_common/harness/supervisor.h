// --isolate: the runner re-executes itself as a worker process that runs the remaining cases one after
// another and streams a line per event over a pipe. A worker that dies or exceeds the per-case timeout
// costs only the case it was running: the supervisor records Crash or Timeout and starts a new worker
// for the rest.
#pragma once

#include <string>
#include <vector>

#include "test_common/harness/case_runner.h"
#include "test_common/harness/recorder.h"

namespace cts {

// worker_argv: program and arguments of the worker (it reads case names on stdin, one per line, and
// writes events to file descriptor 3).
void runIsolated(const std::vector<std::string>& case_names, const std::vector<std::string>& worker_argv,
                 double timeout_seconds, uint64_t run_seed, Recorder& recorder);

// The worker side; returns the process exit status.
int workerMain(const Registry& registry, DeviceUnderTest& dut, const RunSettings& settings);

}  // namespace cts
