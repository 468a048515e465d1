// --jobs: what each worker runs next (work_pool.h): chunks of a batch in order, own_process cases whole and
// to an idle worker only, work stealing at the end, a lost worker's cases back at the head of the queue.
#include "test_common/harness/workers/work_pool.h"

#include <gtest/gtest.h>

#include <numeric>
#include <set>

namespace cts {
namespace {

Batch batch(size_t first, size_t count, bool alone = false) {
    Batch b;
    b.cases.resize(count);
    std::iota(b.cases.begin(), b.cases.end(), first);
    b.alone = alone;
    return b;
}

std::vector<size_t> range(size_t first, size_t count) {
    return batch(first, count).cases;
}

TEST(WorkPool, ABatchGoesToItsWorkerAChunkAtATimeInOrder) {
    WorkPool pool({batch(0, 150), batch(150, 10)}, 2);
    EXPECT_EQ(pool.next(0, true).cases, range(0, kChunkCases));
    // The worker's next chunk continues its own batch, busy or not; the other worker starts the next batch.
    EXPECT_EQ(pool.next(0, false).cases, range(kChunkCases, kChunkCases));
    EXPECT_EQ(pool.next(1, true).cases, range(150, 10));
    EXPECT_EQ(pool.next(0, false).cases, range(2 * kChunkCases, 150 - 2 * kChunkCases));
    EXPECT_TRUE(pool.next(0, false).cases.empty());
    EXPECT_TRUE(pool.next(1, true).cases.empty());
    EXPECT_EQ(pool.unsent(), 0u);
}

TEST(WorkPool, AnIdleWorkerTakesTheBackHalfOfTheLargestUnsentRest) {
    WorkPool pool({batch(0, 1000), batch(1000, 100)}, 3);
    ASSERT_EQ(pool.next(0, true).cases.front(), 0u);     // slot 0: 1000 - 64 left
    ASSERT_EQ(pool.next(1, true).cases.front(), 1000u);  // slot 1: 100 - 64 left
    // The queue is empty: a busy worker gets nothing more than its own batch, an idle one steals.
    EXPECT_TRUE(pool.next(2, false).cases.empty());
    WorkPool::Chunk stolen = pool.next(2, true);
    const size_t rest = 1000 - kChunkCases, keep = rest - rest / 2;
    EXPECT_EQ(stolen.cases, range(kChunkCases + keep, kChunkCases));
    EXPECT_FALSE(stolen.alone);
    // The victim keeps the front half; the thief goes on with the back half.
    std::set<size_t> seen(stolen.cases.begin(), stolen.cases.end());
    for (size_t slot : {0u, 1u, 2u})
        for (WorkPool::Chunk c; !(c = pool.next(slot, false)).cases.empty();)
            for (size_t i : c.cases) EXPECT_TRUE(seen.insert(i).second) << i << " handed out twice";
    for (size_t i = 0; i < 1100; ++i)
        if (i >= kChunkCases && !(i >= 1000 && i < 1000 + kChunkCases))
            EXPECT_TRUE(seen.count(i)) << i << " never handed out";
}

TEST(WorkPool, AFewUnsentCasesStayWithTheirWorker) {
    WorkPool pool({batch(0, kChunkCases + kMinStealCases - 1)}, 2);
    ASSERT_EQ(pool.next(0, true).cases.size(), kChunkCases);
    EXPECT_TRUE(pool.next(1, true).cases.empty());
    EXPECT_EQ(pool.next(0, false).cases.size(), kMinStealCases - 1);
}

TEST(WorkPool, AnOwnProcessCaseGoesWholeToAnIdleWorkerOnly) {
    WorkPool pool({batch(0, 3), batch(3, 1, true), batch(4, 2)}, 1);
    EXPECT_EQ(pool.next(0, true).cases, range(0, 3));
    EXPECT_TRUE(pool.next(0, false).cases.empty()) << "the own_process batch waits for the worker to be idle";
    WorkPool::Chunk alone = pool.next(0, true);
    EXPECT_EQ(alone.cases, range(3, 1));
    EXPECT_TRUE(alone.alone);
    EXPECT_EQ(pool.next(0, true).cases, range(4, 2));
}

TEST(WorkPool, ALostWorkersCasesGoBackAheadOfEverythingElse) {
    WorkPool pool({batch(0, 100), batch(100, 5)}, 2);
    ASSERT_EQ(pool.next(0, true).cases.size(), kChunkCases);
    // Its worker died with cases 10..63 without a result: they and its unsent rest (64..99) come next.
    const std::vector<size_t> unfinished = range(10, kChunkCases - 10);
    pool.putBack(0, {unfinished.begin(), unfinished.end()}, false);
    EXPECT_EQ(pool.next(1, true).cases, range(10, kChunkCases));
    EXPECT_EQ(pool.next(1, false).cases, range(10 + kChunkCases, 100 - 10 - kChunkCases));
    EXPECT_EQ(pool.next(0, true).cases, range(100, 5));
    // takeRest: the slot's unsent rest, then the queue.
    WorkPool other({batch(0, 100), batch(100, 5)}, 1);
    other.next(0, true);
    EXPECT_EQ(other.takeRest(0).size(), 100 - kChunkCases + 5);
    EXPECT_EQ(other.unsent(), 0u);
}

// --build-only: with a module per case, a steal moves whole modules only (each module built once in the run),
// at the boundary nearest the half, and none when the rest is one module.
TEST(WorkPool, WithModulesAStealNeverSplitsAModule) {
    // Cases 0..299: module 1 is cases 0..199, module 2 cases 200..239, module 3 cases 240..299.
    std::vector<uint32_t> module_of(300);
    for (size_t i = 0; i < 300; ++i) module_of[i] = i < 200 ? 1 : i < 240 ? 2 : 3;
    WorkPool pool({batch(0, 300)}, 2, module_of);
    ASSERT_EQ(pool.next(0, true).cases, range(0, kChunkCases));  // 236 left: 64..299, half at 182
    // The nearest boundary at or after the half is 200: the thief takes modules 2 and 3 whole.
    EXPECT_EQ(pool.next(1, true).cases, range(200, kChunkCases));
    EXPECT_EQ(pool.next(0, false).cases, range(kChunkCases, kChunkCases));
    EXPECT_EQ(pool.next(0, false).cases, range(2 * kChunkCases, kChunkCases));
    EXPECT_EQ(pool.next(0, false).cases, range(3 * kChunkCases, 200 - 3 * kChunkCases));
    // Slot 1 holds 264..299 (module 3 only): an idle slot 0 finds no boundary and takes nothing.
    EXPECT_TRUE(pool.next(0, true).cases.empty());
    EXPECT_EQ(pool.next(1, false).cases, range(264, 36));

    // Without module numbers the same steal splits module 1 at the half.
    WorkPool plain({batch(0, 300)}, 2);
    plain.next(0, true);
    EXPECT_EQ(plain.next(1, true).cases.front(), 182u);
}

}  // namespace
}  // namespace cts
