#include "reference_device/env_numbers.h"

#include <cstdlib>

namespace refdev {

std::string parseEnvNumber(const char* variable, const char* text, const char* what, uint64_t min,
                           uint64_t max, uint64_t& value) {
    uint64_t v = 0;
    bool ok = *text != '\0';
    for (const char* c = text; ok && *c; ++c) {
        ok = *c >= '0' && *c <= '9';
        const uint64_t digit = uint64_t(*c - '0');
        if (ok && v > (UINT64_MAX - digit) / 10) ok = false;  // the next digit would overflow
        if (ok) v = v * 10 + digit;
    }
    if (!ok || v < min || v > max)
        return std::string(variable) + ": '" + text + "' is not a number of " + what + " in " +
               std::to_string(min) + ".." + std::to_string(max);
    value = v;
    return "";
}

std::string threadsFromEnv(unsigned& threads) {
    threads = 0;
    const char* env = std::getenv("REFDEV_THREADS");
    if (!env || !*env) return "";
    uint64_t v = 0;
    std::string error = parseEnvNumber("REFDEV_THREADS", env, "worker threads", 1, kMaxThreads, v);
    if (error.empty()) threads = unsigned(v);
    return error;
}

std::string branchBudgetFromEnv(uint64_t& budget) {
    budget = 0;
    const char* env = std::getenv("REFDEV_BRANCH_BUDGET");
    if (!env || !*env) return "";
    return parseEnvNumber("REFDEV_BRANCH_BUDGET", env, "branches per work-item", 0, UINT64_MAX, budget);
}

}  // namespace refdev
