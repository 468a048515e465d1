#include "test_common/harness/workers/work_pool.h"

#include <algorithm>

namespace cts {

WorkPool::WorkPool(const std::vector<Batch>& batches, size_t slots, std::vector<uint32_t> module_of)
    : queue_(batches.begin(), batches.end()), reserved_(slots), module_of_(std::move(module_of)) {}

WorkPool::Chunk WorkPool::next(size_t slot, bool idle) {
    std::deque<size_t>& rest = reserved_.at(slot);
    Chunk chunk;
    if (rest.empty()) {
        if (!queue_.empty() && (idle || !queue_.front().alone)) {
            Batch b = std::move(queue_.front());
            queue_.pop_front();
            rest.assign(b.cases.begin(), b.cases.end());
            chunk.alone = b.alone;
        } else if (!idle || !steal(slot)) {
            return chunk;
        }
    }
    const size_t n = chunk.alone ? rest.size() : std::min(rest.size(), kChunkCases);
    chunk.cases.assign(rest.begin(), rest.begin() + static_cast<long>(n));
    rest.erase(rest.begin(), rest.begin() + static_cast<long>(n));
    return chunk;
}

// The back half moves, so the victim keeps the cases next to what it runs now (its module's, built already)
// and the thief's share is a run of neighbours too. The thief may build a module the victim built: once per
// worker at most, as with any batch.
bool WorkPool::steal(size_t thief) {
    size_t victim = thief;
    for (size_t s = 0; s < reserved_.size(); ++s)
        if (s != thief && (victim == thief || reserved_[s].size() > reserved_[victim].size())) victim = s;
    if (victim == thief || reserved_[victim].size() < kMinStealCases) return false;
    std::deque<size_t>& from = reserved_[victim];
    size_t keep = from.size() - from.size() / 2;
    if (!module_of_.empty()) {
        // The module boundary nearest the half, first towards the back; none: the rest is one module.
        auto boundary = [&](size_t k) {
            const uint32_t a = module_of_.at(from[k - 1]), b = module_of_.at(from[k]);
            return a != b || a == 0;
        };
        size_t k = keep;
        while (k < from.size() && !boundary(k)) ++k;
        if (k == from.size())
            for (k = keep; k > 0 && !boundary(k); --k) {
            }
        if (k == 0 || k == from.size()) return false;
        keep = k;
    }
    reserved_[thief].assign(from.begin() + static_cast<long>(keep), from.end());
    from.erase(from.begin() + static_cast<long>(keep), from.end());
    return true;
}

void WorkPool::putBack(size_t slot, const std::deque<size_t>& unfinished, bool alone) {
    std::deque<size_t>& rest = reserved_.at(slot);
    Batch b;
    b.cases.assign(unfinished.begin(), unfinished.end());
    b.cases.insert(b.cases.end(), rest.begin(), rest.end());
    b.alone = alone;
    rest.clear();
    if (!b.cases.empty()) queue_.push_front(std::move(b));
}

std::vector<size_t> WorkPool::takeRest(size_t slot) {
    std::deque<size_t>& rest = reserved_.at(slot);
    std::vector<size_t> out(rest.begin(), rest.end());
    rest.clear();
    for (const auto& b : queue_) out.insert(out.end(), b.cases.begin(), b.cases.end());
    queue_.clear();
    return out;
}

size_t WorkPool::unsent() const {
    size_t n = 0;
    for (const auto& b : queue_) n += b.cases.size();
    for (const auto& r : reserved_) n += r.size();
    return n;
}

}  // namespace cts
