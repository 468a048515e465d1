// --jobs: which cases each worker process runs next. The plan's batches (scheduler.h) are handed out in
// order, each a chunk at a time, so that the unsent rest of a batch can still go to another worker: a worker
// left with nothing takes the back half of the unsent rest of the worker with the most (work stealing), and
// the workers' ends meet whatever the plan's cost estimates said. Bookkeeping only: the coordinator
// (parallel.cpp) sends what it hands out. docs/architecture.md, "Parallel runs".
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "test_common/harness/workers/scheduler.h"

namespace cts {

// A chunk of cheap cases takes a worker tens of milliseconds, and each chunk costs it one round trip to the
// coordinator (none while the next one already waits in its input: the coordinator keeps two ahead).
inline constexpr size_t kChunkCases = 64;
// A worker keeps fewer unsent cases than this to itself: moving them would cost the thief a module build.
inline constexpr size_t kMinStealCases = 8;

class WorkPool {
public:
    // `module_of` (optional): a module number per selection index (0: no module). When given, a steal never
    // splits a module's cases between two workers, so every module is built once in the run (--build-only,
    // where the builds are the run).
    WorkPool(const std::vector<Batch>& batches, size_t slots, std::vector<uint32_t> module_of = {});

    struct Chunk {
        std::vector<size_t> cases;  // indices into the selection, in order; empty: nothing for the slot now
        bool alone = false;         // an own_process case: a new worker of its own, which ends after it
    };

    // The next chunk for `slot`: the next kChunkCases of its batch, else the next batch's first (an
    // own_process batch, whole, and only to an `idle` slot, whose worker has nothing outstanding), else, for
    // an idle slot, the back half of the largest unsent rest of another slot's batch.
    Chunk next(size_t slot, bool idle);

    // A lost worker's cases without a result, in order: they and the slot's unsent rest go back to the head
    // of the queue as one batch (`alone`: it keeps a worker of its own).
    void putBack(size_t slot, const std::deque<size_t>& unfinished, bool alone);

    // The slot's unsent rest and the whole queue, in order; the pool holds neither afterwards.
    std::vector<size_t> takeRest(size_t slot);

    // The cases not handed out yet (queued, or the unsent rest of a slot's batch).
    size_t unsent() const;

private:
    bool steal(size_t thief);

    std::deque<Batch> queue_;
    std::vector<std::deque<size_t>> reserved_;  // per slot: the rest of its batch, not handed out yet
    std::vector<uint32_t> module_of_;
};

}  // namespace cts
