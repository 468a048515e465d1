// The isolated run's supervisor (supervisor.h) with a stand-in worker. Workers are this program re-executed
// (spawnWorker), so the test binary plays the worker when CTS_TEST_FAKE_WORKER is set: it reports every case
// of its batch (names on stdin, "S name" and "R result" lines on file descriptor 3) as passed, then hangs in
// its exit, as a driver whose process a waived case damaged can hang in its teardown, until it is killed.
#include "test_common/harness/workers/supervisor.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "test_common/harness/reports/recorder.h"
#include "test_common/harness/workers/parallel.h"

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

// CTS_TEST_FAKE_WORKER=hang: a worker that hangs in every case whose name ends in ".hang" (a driver
// deadlock), and passes the others.
[[noreturn]] void fakeWorkerHangingInCases() {
    for (std::string name; std::getline(std::cin, name) && !name.empty();) {
        std::string started = "S " + name + "\n";
        if (write(3, started.data(), started.size()) < 0) _exit(1);
        if (name.size() > 5 && name.compare(name.size() - 5, 5, ".hang") == 0) sleep(60);
        std::string lines =
            "R {\"name\":\"" + name + "\",\"status\":0,\"message\":\"\",\"duration_ms\":1,\"seed\":0}\n";
        if (write(3, lines.data(), lines.size()) < 0) _exit(1);
    }
    if (write(3, "B\n", 2) < 0) _exit(1);
    _exit(0);
}

// CTS_TEST_FAKE_WORKER=phases: a worker that takes 50 ms to start (as one loading the manifest and opening
// the device does), then passes every case with the phase times of a case that built its module.
[[noreturn]] void fakeWorkerWithPhases() {
    usleep(50000);
    for (std::string name; std::getline(std::cin, name) && !name.empty();) {
        std::string lines = "S " + name + "\nR {\"name\":\"" + name +
                            "\",\"status\":0,\"message\":\"\",\"duration_ms\":4,\"seed\":0,\"phases\":{"
                            "\"build_ms\":2.5,\"builds\":1,\"cache_hits\":3,\"kernel_ms\":1,\"check_ms\":0.5,"
                            "\"worker_start_ms\":0}}\n";
        if (write(3, lines.data(), lines.size()) < 0) _exit(1);
    }
    if (write(3, "B\n", 2) < 0) _exit(1);
    _exit(0);
}

const bool kFakeWorker = [] {
    const char* mode = std::getenv("CTS_TEST_FAKE_WORKER");
    if (!mode) return false;
    if (std::string(mode) == "phases") fakeWorkerWithPhases();
    if (std::string(mode) == "between") fakeWorkerHangingBetweenCases();
    if (std::string(mode) == "hang") fakeWorkerHangingInCases();
    for (std::string name; std::getline(std::cin, name) && !name.empty();) {
        std::string lines = "S " + name + "\nR {\"name\":\"" + name +
                            "\",\"status\":0,\"message\":\"\",\"duration_ms\":1,\"seed\":0}\n";
        if (write(3, lines.data(), lines.size()) < 0) _exit(1);
    }
    sleep(60);
    _exit(0);
}();

// Runs `names` under --isolate (runIsolated) with the stand-in worker `mode` and returns their results;
// `seconds` gets the run's wall time.
std::vector<CaseResult> runFakeIsolated(const std::vector<std::string>& names, const char* mode,
                                        double timeout,
                                        const std::function<bool(const std::string&)>& own_process,
                                        const CaseLimits& limits = nullptr, double* seconds = nullptr) {
    LineLog log;
    Recorder rec(names.size(), false, log, [](const std::string& n) { return n; });
    setenv("CTS_TEST_FAKE_WORKER", mode, 1);
    auto start = std::chrono::steady_clock::now();
    runIsolated(names, {"cts_harness_test"}, timeout, 0, rec, own_process, false, nullptr, limits);
    if (seconds) *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    unsetenv("CTS_TEST_FAKE_WORKER");
    return rec.close();
}

// The same for a --jobs run (runParallel) of `run` (names, batches, jobs, limits set by the test).
std::vector<CaseResult> runFakeParallel(ParallelRun run, const char* mode, double* seconds = nullptr) {
    LineLog log;
    Recorder rec(run.names.size(), false, log, [](const std::string& n) { return n; });
    run.worker_argv = {"cts_harness_test"};
    setenv("CTS_TEST_FAKE_WORKER", mode, 1);
    rec.setOrder(run.names);
    auto start = std::chrono::steady_clock::now();
    runParallel(run, rec);
    if (seconds) *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    unsetenv("CTS_TEST_FAKE_WORKER");
    return rec.close();
}

TEST(Supervisor, AWorkerHangingAfterItsWholeBatchCostsNoCaseAndIsKilledSoon) {
    ASSERT_FALSE(kFakeWorker);
    auto own_process = [](const std::string& name) { return name == "g.alone"; };
    double seconds = 0;
    std::vector<CaseResult> results =
        runFakeIsolated({"g.alone", "g.next", "g.last"}, "1", 2.0, own_process, nullptr, &seconds);
    ASSERT_EQ(results.size(), 3u);
    for (const auto& r : results) EXPECT_EQ(r.status, Status::Pass) << r.name << ": " << r.message;
    // Two workers (the own_process case's, then the rest's), each killed at the exit limit (here the case
    // limit of 2 s, below kWorkerExitSeconds), not left to sleep out its 60 s.
    EXPECT_LT(seconds, 20.0);
}

// The same under --isolate (runIsolated): the worker killed between cases charged the next one.
TEST(Supervisor, AKillBetweenCasesChargesNoCase) {
    ASSERT_FALSE(kFakeWorker);
    std::vector<CaseResult> results = runFakeIsolated({"g.a", "g.b", "g.c"}, "between", 1.0, nullptr);
    ASSERT_EQ(results.size(), 3u);
    for (const auto& r : results) EXPECT_EQ(r.status, Status::Pass) << r.name << ": " << r.message;
}

// A --jobs worker killed at the limit between two cases (the last reported, the next not started) charged
// the next, never-run case with InternalError "worker process killed by signal 9 between cases". The cases
// not started go back to the queue: each worker here runs one case, then is killed, and every case passes.
TEST(Parallel, AKillBetweenCasesChargesNoCase) {
    ASSERT_FALSE(kFakeWorker);
    ParallelRun run;
    run.names = {"g.a", "g.b", "g.c"};
    run.batches = {Batch{{0, 1, 2}, 3.0, false}};
    run.jobs = 1;
    run.timeout_seconds = 1.0;
    std::vector<CaseResult> results = runFakeParallel(run, "between");
    ASSERT_EQ(results.size(), 3u);
    for (const auto& r : results) EXPECT_EQ(r.status, Status::Pass) << r.name << ": " << r.message;
}

// The phase times a worker reports reach the recorder, and the worker's start-up (spawn to its first case) is
// charged to the first case it ran, not to the others.
void expectWorkerPhases(const std::vector<CaseResult>& results) {
    ASSERT_EQ(results.size(), 3u);
    for (const auto& r : results) {
        EXPECT_EQ(r.status, Status::Pass) << r.name << ": " << r.message;
        EXPECT_EQ(r.phases.build_ms, 2.5) << r.name;
        EXPECT_EQ(r.phases.builds, 1u) << r.name;
        EXPECT_EQ(r.phases.cache_hits, 3u) << r.name;
        EXPECT_EQ(r.phases.kernel_ms, 1.0) << r.name;
        EXPECT_EQ(r.phases.check_ms, 0.5) << r.name;
    }
    EXPECT_GE(results[0].phases.worker_start_ms, 50.0);
    EXPECT_EQ(results[1].phases.worker_start_ms, 0.0);
    EXPECT_EQ(results[2].phases.worker_start_ms, 0.0);
}

TEST(Supervisor, PhaseTimesAndTheWorkersStartCrossTheProtocol) {
    ASSERT_FALSE(kFakeWorker);
    expectWorkerPhases(runFakeIsolated({"g.a", "g.b", "g.c"}, "phases", 10.0, nullptr));
}

TEST(Parallel, PhaseTimesAndTheWorkersStartCrossTheProtocol) {
    ASSERT_FALSE(kFakeWorker);
    ParallelRun run;
    run.names = {"g.a", "g.b", "g.c"};
    run.batches = {Batch{{0, 1, 2}, 3.0, false}};
    run.jobs = 1;
    run.timeout_seconds = 10.0;
    expectWorkerPhases(runFakeParallel(run, "phases"));
}

// A waiver's timeout_seconds (CaseLimits): the covered case that hangs is given up on at its own limit, not
// the run's, and the message names the waiver; the other cases keep the run's limit.
CaseLimit hangLimit(const std::string& name) {
    return name == "g.a.hang" ? CaseLimit{1.0, "w.json:7"} : CaseLimit{};
}

void expectTimedOutAtTheWaiversLimit(const std::vector<CaseResult>& results, double seconds) {
    ASSERT_EQ(results.size(), 3u);
    EXPECT_EQ(results[0].name, "g.a.hang");
    EXPECT_EQ(results[0].status, Status::Timeout);
    EXPECT_EQ(results[0].message,
              "no result within the waiver's timeout_seconds of 1 s (w.json:7); worker process killed");
    EXPECT_EQ(results[1].status, Status::Pass) << results[1].message;
    EXPECT_EQ(results[2].status, Status::Pass) << results[2].message;
    EXPECT_LT(seconds, 20.0);  // the run's limit is 60 s
}

TEST(Supervisor, AWaiversTimeoutSecondsReplacesTheRunsLimitForItsCase) {
    ASSERT_FALSE(kFakeWorker);
    double seconds = 0;
    std::vector<CaseResult> results =
        runFakeIsolated({"g.a.hang", "g.b", "g.c"}, "hang", 60.0, nullptr, hangLimit, &seconds);
    expectTimedOutAtTheWaiversLimit(results, seconds);
}

TEST(Parallel, AWaiversTimeoutSecondsReplacesTheRunsLimitForItsCase) {
    ASSERT_FALSE(kFakeWorker);
    ParallelRun run;
    run.names = {"g.a.hang", "g.b", "g.c"};
    run.batches = {Batch{{0, 1}, 2.0, false}, Batch{{2}, 1.0, false}};
    run.jobs = 2;
    run.timeout_seconds = 60.0;
    run.case_limits = hangLimit;
    double seconds = 0;
    std::vector<CaseResult> results = runFakeParallel(run, "hang", &seconds);
    expectTimedOutAtTheWaiversLimit(results, seconds);
}

TEST(CaseLimits, TheLowerLimitAppliesAndTheMessageNamesIt) {
    const CaseLimit own{30, "docs/waivers/w.json:12"};
    EXPECT_EQ(caseLimitSeconds(300, own), 30);
    EXPECT_EQ(caseLimitSeconds(10, own), 10);  // --timeout below the waiver's: --timeout
    EXPECT_EQ(caseLimitSeconds(30, own), 30);  // equal: the run's
    EXPECT_EQ(caseLimitSeconds(0, own), 30);   // the run has none: the waiver's
    EXPECT_EQ(caseLimitSeconds(300, CaseLimit{}), 300);
    EXPECT_EQ(caseTimeoutMessage(300, true, own),
              "no result within the waiver's timeout_seconds of 30 s (docs/waivers/w.json:12)");
    EXPECT_EQ(caseTimeoutMessage(10, false, own), "no result within the --timeout of 10 s");
    EXPECT_EQ(caseTimeoutMessage(300, true, CaseLimit{}),
              "no result within the default limit of 300 s (--timeout=SECONDS to change)");
}

}  // namespace
}  // namespace cts
