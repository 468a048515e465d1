// The worker protocol's result lines (worker_process.h): what a worker writes, the coordinator reads back
// whole, and a line it cannot read is the running case's InternalError.
#include "test_common/harness/workers/worker_process.h"

#include <gtest/gtest.h>

namespace cts {
namespace {

CaseResult full() {
    CaseResult r;
    r.name = "subgroups.shuffle.i32.v1";
    r.status = Status::Fail;
    r.message = "lane 3: \"0x5a\" \\ expected\n\tsecond line \x01 caf\xc3\xa9";
    r.duration_ms = 12.0625;
    r.seed = ~uint64_t{0} - 7;
    r.phase = "build";
    r.build_log = "error: no <such> symbol\n";
    r.attempts = {"Fail: first", "Fail: second"};
    r.version_gaps = {"cl_intel_subgroup_2d_block_io", "cl_intel_subgroup_matrix_multiply_accumulate"};
    r.phases = {3.125, 1, 2, 0.5, 8.4375, 0.25};
    return r;
}

void expectSame(const CaseResult& back, const CaseResult& r) {
    EXPECT_EQ(back.name, r.name);
    EXPECT_EQ(back.status, r.status);
    EXPECT_EQ(back.message, r.message);
    EXPECT_EQ(back.duration_ms, r.duration_ms);
    EXPECT_EQ(back.seed, r.seed);
    EXPECT_EQ(back.phase, r.phase);
    EXPECT_EQ(back.build_log, r.build_log);
    EXPECT_EQ(back.attempts, r.attempts);
    EXPECT_EQ(back.version_gaps, r.version_gaps);
    EXPECT_EQ(back.picture.empty(), r.picture.empty());
    // The phase times cross the protocol (the fast reader and, with "mismatches", the tree reader).
    EXPECT_EQ(back.phases.build_ms, r.phases.build_ms);
    EXPECT_EQ(back.phases.builds, r.phases.builds);
    EXPECT_EQ(back.phases.cache_hits, r.phases.cache_hits);
    EXPECT_EQ(back.phases.kernel_ms, r.phases.kernel_ms);
    EXPECT_EQ(back.phases.check_ms, r.phases.check_ms);
    EXPECT_EQ(back.phases.worker_start_ms, r.phases.worker_start_ms);
}

TEST(WorkerResult, EveryFieldReadsBack) {
    CaseResult r = full();
    expectSame(parseWorkerResult(workerResultJson(r), "x"), r);
    CaseResult plain;
    plain.name = "api.a";
    plain.status = Status::NotSupported;
    plain.duration_ms = 0;
    expectSame(parseWorkerResult(workerResultJson(plain), "x"), plain);
}

TEST(WorkerResult, MismatchGridsReadBack) {
    CaseResult r = full();
    r.picture.mark(GridShape{"sub-group 0: block", 8, 16, "row", "column"}, 2, 5, 0, 0xa5, 1);
    CaseResult back = parseWorkerResult(workerResultJson(r), "x");
    expectSame(back, r);
    EXPECT_EQ(workerResultJson(back), workerResultJson(r));
}

TEST(WorkerResult, AnUnreadableLineIsTheRunningCasesInternalError) {
    const std::string good = workerResultJson(full());
    for (const std::string& line :
         {std::string("not json"), good.substr(0, good.size() / 2), std::string("{\"name\": \"a.b\"}"),
          std::string("{\"name\": 3, \"message\": \"\", \"duration_ms\": 1, \"seed\": 1, \"status\": 0}"),
          std::string(
              "{\"name\": \"a\", \"message\": \"\", \"duration_ms\": 1, \"seed\": -1, \"status\": 0}"),
          std::string("{\"name\": \"a\", \"message\": \"\", \"duration_ms\": 1, \"seed\": 1, \"status\": 0, "
                      "\"phases\": {\"bogus_ms\": 1}}"),
          std::string("[1, 2]")}) {
        CaseResult r = parseWorkerResult(line, "running.case");
        EXPECT_EQ(r.status, Status::InternalError) << line;
        EXPECT_EQ(r.name, "running.case") << line;
        EXPECT_NE(r.message.find("unreadable worker result"), std::string::npos) << r.message;
    }
}

}  // namespace
}  // namespace cts
