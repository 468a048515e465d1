// The numeric REFDEV_* variables. Each is parsed strictly, so that a value the device cannot honour exactly
// is refused (the ICD then reports no platform, as for a bad REFDEV_PROFILE) instead of replaced by a
// default.
#pragma once

#include <cstdint>
#include <string>

namespace refdev {

// Parses the whole of `text` as a decimal number in [min, max]: digits only (no sign, blank, base prefix or
// suffix) and no overflow. Returns "" or an error naming `variable`, the value and the accepted range, e.g.
// "REFDEV_THREADS: '0' is not a number of worker threads in 1..1024".
std::string parseEnvNumber(const char* variable, const char* text, const char* what, uint64_t min,
                           uint64_t max, uint64_t& value);

constexpr unsigned kMaxThreads = 1024;

// REFDEV_THREADS: worker threads for work-groups, 1..kMaxThreads; unset or empty: 0 (hardware concurrency).
std::string threadsFromEnv(unsigned& threads);

// REFDEV_BRANCH_BUDGET: taken branches allowed per work-item in one launch, 0..2^64-1 (0: unlimited); unset
// or empty: 0.
std::string branchBudgetFromEnv(uint64_t& budget);

}  // namespace refdev
