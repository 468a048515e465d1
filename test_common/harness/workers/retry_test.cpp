#include "test_common/harness/workers/retry.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_common/harness/workers/worker_process.h"

namespace cts {
namespace {

CaseResult result(Status s, const std::string& msg = "") {
    CaseResult r;
    r.name = "a.b";
    r.status = s;
    r.message = msg;
    r.duration_ms = 1;
    r.phases = {0.5, 1, 2, 0.25, 0.125, 0.0625};
    return r;
}

// Runs a case whose attempts give `statuses` in order; returns the combined result and counts the attempts.
CaseResult run(std::vector<Status> statuses, unsigned retries, size_t& made) {
    made = 0;
    return runWithRetries(
        [&] {
            Status s = statuses[std::min(made, statuses.size() - 1)];
            ++made;
            return result(s, "attempt " + std::to_string(made) + " said no");
        },
        retries);
}

TEST(Retry, StatusNameAndTally) {
    EXPECT_STREQ(statusName(Status::Flake), "Flake");
    Tally t;
    t.add(Status::Flake);
    EXPECT_EQ(t.flaky, 1u);
    EXPECT_EQ(t.passed, 0u);
    EXPECT_TRUE(t.allGood());
    EXPECT_EQ(t.summary(), "0 passed, 0 failed, 0 skipped, 1 flaky");
}

TEST(Retry, NoRetriesRunsOnce) {
    size_t made = 0;
    CaseResult r = run({Status::Fail, Status::Pass}, 0, made);
    EXPECT_EQ(made, 1u);
    EXPECT_EQ(r.status, Status::Fail);
    EXPECT_TRUE(r.attempts.empty());
}

TEST(Retry, PassOnRetryIsFlakeWithEveryMessage) {
    size_t made = 0;
    CaseResult r = run({Status::Fail, Status::Fail, Status::Pass}, 5, made);
    EXPECT_EQ(made, 3u);
    EXPECT_EQ(r.status, Status::Flake);
    ASSERT_EQ(r.attempts.size(), 3u);
    EXPECT_EQ(r.attempts[0], "Fail: attempt 1 said no");
    EXPECT_EQ(r.attempts[1], "Fail: attempt 2 said no");
    EXPECT_EQ(r.attempts[2], "Pass");
    EXPECT_NE(r.message.find("passed on attempt 3 of 3"), std::string::npos);
    EXPECT_NE(r.message.find("attempt 2 said no"), std::string::npos);
    EXPECT_DOUBLE_EQ(r.duration_ms, 3);
    // Every attempt's phase times, as its duration.
    EXPECT_DOUBLE_EQ(r.phases.build_ms, 1.5);
    EXPECT_EQ(r.phases.builds, 3u);
    EXPECT_EQ(r.phases.cache_hits, 6u);
    EXPECT_DOUBLE_EQ(r.phases.kernel_ms, 0.75);
    EXPECT_DOUBLE_EQ(r.phases.check_ms, 0.375);
    EXPECT_DOUBLE_EQ(r.phases.worker_start_ms, 0.1875);
}

TEST(Retry, FailingEveryAttemptStaysFail) {
    size_t made = 0;
    CaseResult r = run({Status::Fail}, 2, made);
    EXPECT_EQ(made, 3u);
    EXPECT_EQ(r.status, Status::Fail);
    ASSERT_EQ(r.attempts.size(), 3u);
    EXPECT_NE(r.message.find("failed all 3 attempts"), std::string::npos);
    EXPECT_NE(r.message.find("attempt 1 said no"), std::string::npos);
    EXPECT_NE(r.message.find("attempt 3 said no"), std::string::npos);
}

TEST(Retry, OnlyFailIsRetriedInProcess) {
    for (Status s : {Status::Pass, Status::NotSupported, Status::InternalError}) {
        size_t made = 0;
        CaseResult r = run({s, Status::Pass}, 3, made);
        EXPECT_EQ(made, 1u) << statusName(s);
        EXPECT_EQ(r.status, s);
    }
    EXPECT_TRUE(retryable(Status::Crash));
    EXPECT_TRUE(retryable(Status::Timeout));
    EXPECT_FALSE(retryable(Status::InternalError));
    EXPECT_FALSE(retryable(Status::Waived));
}

TEST(Retry, BookRetriesCrashesUpToTheBudget) {
    RetryBook book(2, nullptr);
    CaseResult crash = result(Status::Crash, "signal 11");
    EXPECT_TRUE(book.again(crash));
    EXPECT_TRUE(book.again(crash));
    EXPECT_FALSE(book.again(crash));  // third attempt: no retry left
    CaseResult last = book.final(crash);
    EXPECT_EQ(last.status, Status::Crash);
    EXPECT_EQ(last.attempts.size(), 3u);
    // A case with no earlier attempt is recorded as it is.
    EXPECT_TRUE(book.final(result(Status::Pass)).attempts.empty());
}

TEST(Retry, BookFoldsAWorkerPassIntoFlake) {
    RetryBook book(1, nullptr);
    EXPECT_TRUE(book.again(result(Status::Timeout, "no result")));
    CaseResult r = book.final(result(Status::Pass));
    EXPECT_EQ(r.status, Status::Flake);
    ASSERT_EQ(r.attempts.size(), 2u);
    EXPECT_EQ(r.attempts[0], "Timeout: no result");
}

TEST(Retry, BookLeavesWaivedAndUnretryableAlone) {
    RetryBook book(3, [](const std::string& n) { return n == "a.b"; });
    EXPECT_FALSE(book.again(result(Status::Crash)));
    RetryBook other(3, nullptr);
    EXPECT_FALSE(other.again(result(Status::InternalError)));
    RetryBook none(0, nullptr);
    EXPECT_FALSE(none.again(result(Status::Crash)));
}

TEST(Retry, WorkerResultKeepsAttempts) {
    size_t made = 0;
    CaseResult r = run({Status::Fail, Status::Pass}, 1, made);
    CaseResult back = parseWorkerResult(workerResultJson(r), "a.b");
    EXPECT_EQ(back.status, Status::Flake);
    EXPECT_EQ(back.attempts, r.attempts);
}

TEST(Retry, ReportsShowFlake) {
    size_t made = 0;
    std::vector<CaseResult> rs = {run({Status::Fail, Status::Pass}, 1, made)};
    RunInfo info;
    auto doc = nlohmann::json::parse(jsonReport(info, rs));
    EXPECT_EQ(doc["cases"][0]["status"], "Flake");
    EXPECT_EQ(doc["cases"][0]["attempts"].size(), 2u);
    std::string x = junitReport(info, rs);
    EXPECT_EQ(x.find("<failure"), std::string::npos);
    EXPECT_NE(x.find("<property name=\"status\" value=\"Flake\"/>"), std::string::npos);
    EXPECT_NE(x.find("<system-out>attempt 1: Fail: attempt 1 said no"), std::string::npos);
    info.flake_fails = true;
    x = junitReport(info, rs);
    EXPECT_NE(x.find("type=\"Flake\""), std::string::npos);
    EXPECT_NE(x.find("failures=\"1\""), std::string::npos);
}

}  // namespace
}  // namespace cts
