// --jobs: how the selected cases are cut into batches for the worker processes. The cases of one module stay
// in one batch (each worker builds a program at most once), batches are handed out longest first, and every
// batch lists its cases in selection order. docs/architecture.md, "Parallel runs".
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "test_common/harness/model/case.h"

namespace cts {

// What planning reads of a selected case: its name, module ("" for none) and family. The coordinator of a
// --jobs run takes them from the case index (and the C++ cases), so it never parses a manifest entry.
struct PlanCase {
    std::string_view name;
    std::string_view module;
    std::string_view family;
};
PlanCase planCase(const CaseSpec& c);

struct Batch {
    std::vector<size_t> cases;  // indices into the selection, ascending
    double cost = 0;            // estimated cost (caseCost units)
    bool alone = false;         // a waiver's own_process case: a worker of its own, then no other case
};

// The estimated cost of a case, in units of one kernel launch: a case with a module also pays for its share
// of the module's build (kModuleBuildCost, counted once per module by planBatches), one without (a device
// query) costs a tenth. On the reference device a build costs about as much as a few launches; what matters
// for the order is only that batches of big modules go first.
constexpr double kModuleBuildCost = 4.0;
double caseCost(const PlanCase& c);

// Cuts `cases` (the selection, in order) into batches for `jobs` workers: each module's cases together,
// modules (and the module-less cases of one family) packed into batches of about total / (jobs * 4) cost so
// that dynamic dispatch can balance the workers' ends, each own_process case alone. Sorted by cost,
// largest first; equal costs keep selection order, so the plan depends on the selection only.
std::vector<Batch> planBatches(const std::vector<PlanCase>& cases, unsigned jobs,
                               const std::function<bool(const std::string&)>& own_process = nullptr);

// The usable cores of this process (sched_getaffinity), at least 1: the default of --jobs.
unsigned usableCores();

}  // namespace cts
