#include "reference_device/spirv/thread_pool.h"

#include <atomic>
#include <thread>
#include <vector>

namespace refdev::spirv {

unsigned defaultThreadCount() {
    unsigned hw = std::thread::hardware_concurrency();
    return hw ? hw : 1;
}

void parallelFor(unsigned threads, size_t count, const std::function<void(size_t, unsigned)>& job,
                 const std::function<bool()>& stop) {
    if (threads == 0) threads = defaultThreadCount();
    if (threads > count) threads = unsigned(count);
    std::atomic<size_t> next{0};
    auto worker = [&](unsigned w) {
        for (;;) {
            if (stop()) return;
            size_t i = next.fetch_add(1);
            if (i >= count) return;
            job(i, w);
        }
    };
    std::vector<std::thread> pool;
    for (unsigned w = 1; w < threads; ++w) pool.emplace_back(worker, w);
    worker(0);
    for (auto& t : pool) t.join();
}

}  // namespace refdev::spirv
