// Runs independent jobs (work-groups) on a number of threads; the calling thread takes part.
#pragma once

#include <cstddef>
#include <functional>

namespace refdev::spirv {

// Threads to use when the caller passes 0: the hardware concurrency (the ICD passes REFDEV_THREADS).
unsigned defaultThreadCount();

// Calls job(index, worker) for every index in [0, count) on up to `threads` workers; stops handing out
// indexes once stop() returns true.
void parallelFor(unsigned threads, size_t count, const std::function<void(size_t, unsigned)>& job,
                 const std::function<bool()>& stop);

}  // namespace refdev::spirv
