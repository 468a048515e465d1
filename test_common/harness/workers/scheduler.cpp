#include "test_common/harness/workers/scheduler.h"

#include <sched.h>

#include <algorithm>
#include <map>

namespace cts {

PlanCase planCase(const CaseSpec& c) {
    return PlanCase{c.name, c.module, c.family};
}

double caseCost(const PlanCase& c) {
    return c.module.empty() ? 0.1 : 1.0;
}

std::vector<Batch> planBatches(const std::vector<PlanCase>& cases, unsigned jobs,
                               const std::function<bool(const std::string&)>& own_process) {
    // Groups that must not be split, in order of their first case.
    struct Group {
        std::vector<size_t> cases;
        double cost = 0;
    };
    std::vector<Group> groups;
    std::vector<Batch> batches;
    std::map<std::string, size_t> group_of;  // "m:" module or "f:" family of the module-less cases
    for (size_t i = 0; i < cases.size(); ++i) {
        const PlanCase& c = cases[i];
        if (own_process && own_process(std::string(c.name))) {
            batches.push_back(Batch{{i}, caseCost(c) + (c.module.empty() ? 0 : kModuleBuildCost), true});
            continue;
        }
        std::string key = c.module.empty() ? "f:" + std::string(c.family) : "m:" + std::string(c.module);
        auto it = group_of.find(key);
        if (it == group_of.end()) {
            it = group_of.emplace(key, groups.size()).first;
            groups.push_back(Group{{}, c.module.empty() ? 0 : kModuleBuildCost});
        }
        groups[it->second].cases.push_back(i);
        groups[it->second].cost += caseCost(c);
    }
    double total = 0;
    for (const auto& g : groups) total += g.cost;
    const double target = total / (std::max(1u, jobs) * 4.0);
    // Consecutive groups (in selection order, so a batch's modules are neighbours) fill a batch up to the
    // target; a group bigger than the target is a batch of its own.
    Batch open;
    for (const auto& g : groups) {
        if (!open.cases.empty() && open.cost + g.cost > target) {
            batches.push_back(std::move(open));
            open = Batch{};
        }
        open.cases.insert(open.cases.end(), g.cases.begin(), g.cases.end());
        open.cost += g.cost;
    }
    if (!open.cases.empty()) batches.push_back(std::move(open));
    for (auto& b : batches) std::sort(b.cases.begin(), b.cases.end());
    std::stable_sort(batches.begin(), batches.end(), [](const Batch& a, const Batch& b) {
        if (a.cost != b.cost) return a.cost > b.cost;
        return a.cases.front() < b.cases.front();
    });
    return batches;
}

unsigned usableCores() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    int n = CPU_COUNT(&set);
    return n > 0 ? static_cast<unsigned>(n) : 1;
}

}  // namespace cts
