// The isolated run's supervisor (supervisor.h) with a stand-in worker. Workers are this program re-executed
// (spawnWorker), so the test binary plays the worker when CTS_TEST_FAKE_WORKER is set: it reports every case
// of its batch (names on stdin, "S name" and "R result" lines on file descriptor 3) as passed, then hangs in
// its exit, as a driver whose process a waived case damaged can hang in its teardown, until it is killed.
#include "test_common/harness/supervisor.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "test_common/harness/parallel.h"
#include "test_common/harness/recorder.h"

namespace cts {
namespace {

// CTS_TEST_FAKE_WORKER=between: a --jobs worker (runParallel) that reports the first case of its batch, then
// hangs before starting the next one (between cases), as a worker slow to load its next entries can.
[[noreturn]] void fakeWorkerHangingBetweenCases() {
    bool first = true;
    for (std::string name; std::getline(std::cin, name) && !name.empty(); first = false) {
        if (!first) sleep(60);
        std::string lines = "S " + name + "\nR {\"name\":\"" + name +
                            "\",\"status\":0,\"message\":\"\",\"duration_ms\":1,\"seed\":0}\n";
        if (write(3, lines.data(), lines.size()) < 0) _exit(1);
    }
    if (write(3, "B\n", 2) < 0) _exit(1);
    _exit(0);
}

const bool kFakeWorker = [] {
    const char* mode = std::getenv("CTS_TEST_FAKE_WORKER");
    if (!mode) return false;
    if (std::string(mode) == "between") fakeWorkerHangingBetweenCases();
    for (std::string name; std::getline(std::cin, name) && !name.empty();) {
        std::string lines = "S " + name + "\nR {\"name\":\"" + name +
                            "\",\"status\":0,\"message\":\"\",\"duration_ms\":1,\"seed\":0}\n";
        if (write(3, lines.data(), lines.size()) < 0) _exit(1);
    }
    sleep(60);
    _exit(0);
}();

TEST(Supervisor, AWorkerHangingAfterItsWholeBatchCostsNoCaseAndIsKilledSoon) {
    ASSERT_FALSE(kFakeWorker);
    LineLog log;
    Recorder rec(3, false, log, [](const std::string& n) { return n; });
    auto own_process = [](const std::string& name) { return name == "g.alone"; };
    setenv("CTS_TEST_FAKE_WORKER", "1", 1);
    auto start = std::chrono::steady_clock::now();
    runIsolated({"g.alone", "g.next", "g.last"}, {"cts_harness_test"}, 2.0, 0, rec, own_process, false,
                nullptr);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    unsetenv("CTS_TEST_FAKE_WORKER");
    std::vector<CaseResult> results = rec.close();
    ASSERT_EQ(results.size(), 3u);
    for (const auto& r : results) EXPECT_EQ(r.status, Status::Pass) << r.name << ": " << r.message;
    // Two workers (the own_process case's, then the rest's), each killed at the exit limit (here the case
    // limit of 2 s, below kWorkerExitSeconds), not left to sleep out its 60 s.
    EXPECT_LT(seconds, 20.0);
}

// The same under --isolate (runIsolated): the worker killed between cases charged the next one.
TEST(Supervisor, AKillBetweenCasesChargesNoCase) {
    ASSERT_FALSE(kFakeWorker);
    LineLog log;
    Recorder rec(3, false, log, [](const std::string& n) { return n; });
    setenv("CTS_TEST_FAKE_WORKER", "between", 1);
    runIsolated({"g.a", "g.b", "g.c"}, {"cts_harness_test"}, 1.0, 0, rec, nullptr, false, nullptr);
    unsetenv("CTS_TEST_FAKE_WORKER");
    std::vector<CaseResult> results = rec.close();
    ASSERT_EQ(results.size(), 3u);
    for (const auto& r : results) EXPECT_EQ(r.status, Status::Pass) << r.name << ": " << r.message;
}

// A --jobs worker killed at the limit between two cases (the last reported, the next not started) charged
// the next, never-run case with InternalError "worker process killed by signal 9 between cases". The cases
// not started go back to the queue: each worker here runs one case, then is killed, and every case passes.
TEST(Parallel, AKillBetweenCasesChargesNoCase) {
    ASSERT_FALSE(kFakeWorker);
    LineLog log;
    Recorder rec(3, false, log, [](const std::string& n) { return n; });
    ParallelRun run;
    run.names = {"g.a", "g.b", "g.c"};
    run.batches = {Batch{{0, 1, 2}, 3.0, false}};
    run.worker_argv = {"cts_harness_test"};
    run.jobs = 1;
    run.timeout_seconds = 1.0;
    setenv("CTS_TEST_FAKE_WORKER", "between", 1);
    rec.setOrder(run.names);
    runParallel(run, rec);
    unsetenv("CTS_TEST_FAKE_WORKER");
    std::vector<CaseResult> results = rec.close();
    ASSERT_EQ(results.size(), 3u);
    for (const auto& r : results) EXPECT_EQ(r.status, Status::Pass) << r.name << ": " << r.message;
}

}  // namespace
}  // namespace cts
