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

#include "test_common/harness/recorder.h"

namespace cts {
namespace {

const bool kFakeWorker = [] {
    if (!std::getenv("CTS_TEST_FAKE_WORKER")) return false;
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

}  // namespace
}  // namespace cts
