// The numeric REFDEV_* variables: every value the device cannot honour exactly is refused with the
// variable's name and range, never replaced by a default.
#include "reference_device/env_numbers.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

namespace refdev {
namespace {

// Sets (or with nullptr unsets) one variable for the scope of a test.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old, had_ = true;
        value ? setenv(name, value, 1) : unsetenv(name);
    }
    ~ScopedEnv() { had_ ? setenv(name_, old_.c_str(), 1) : unsetenv(name_); }

private:
    const char* name_;
    std::string old_;
    bool had_ = false;
};

TEST(EnvNumbers, WholeDecimalNumbersInRangeAreAccepted) {
    uint64_t v = 7;
    EXPECT_EQ(parseEnvNumber("X", "0", "things", 0, 10, v), "");
    EXPECT_EQ(v, 0u);
    EXPECT_EQ(parseEnvNumber("X", "10", "things", 0, 10, v), "");
    EXPECT_EQ(v, 10u);
    EXPECT_EQ(parseEnvNumber("X", "007", "things", 0, 10, v), "");
    EXPECT_EQ(v, 7u);
    EXPECT_EQ(parseEnvNumber("X", "18446744073709551615", "things", 0, UINT64_MAX, v), "");
    EXPECT_EQ(v, UINT64_MAX);
}

TEST(EnvNumbers, AnythingElseIsRefusedNamingTheVariableAndRange) {
    for (const char* bad : {"", "abc", "-1", "+1", " 1", "1 ", "1x", "0x10", "1e3", "1.0", "11",
                            "18446744073709551616", "99999999999999999999999"}) {
        uint64_t v = 5;
        EXPECT_EQ(parseEnvNumber("REFDEV_X", bad, "things", 0, 10, v),
                  std::string("REFDEV_X: '") + bad + "' is not a number of things in 0..10")
            << bad;
        EXPECT_EQ(v, 5u) << bad << ": a refused value leaves the output alone";
    }
    uint64_t v = 0;
    EXPECT_NE(parseEnvNumber("X", "0", "things", 1, 10, v), "") << "below the minimum";
}

TEST(EnvNumbers, ThreadsAreOneToMaxOrUnset) {
    unsigned threads = 99;
    {
        ScopedEnv env("REFDEV_THREADS", nullptr);
        EXPECT_EQ(threadsFromEnv(threads), "");
        EXPECT_EQ(threads, 0u) << "unset: the hardware concurrency";
    }
    {
        ScopedEnv env("REFDEV_THREADS", "");
        EXPECT_EQ(threadsFromEnv(threads), "");
        EXPECT_EQ(threads, 0u) << "empty: as unset, like REFDEV_PROFILE";
    }
    for (const char* good : {"1", "1024"}) {
        ScopedEnv env("REFDEV_THREADS", good);
        EXPECT_EQ(threadsFromEnv(threads), "") << good;
        EXPECT_EQ(threads, std::stoul(good));
    }
    for (const char* bad : {"abc", "0", "-1", "1025", "4294967297", "2 "}) {
        ScopedEnv env("REFDEV_THREADS", bad);
        EXPECT_EQ(threadsFromEnv(threads),
                  std::string("REFDEV_THREADS: '") + bad + "' is not a number of worker threads in 1..1024");
    }
}

TEST(EnvNumbers, BranchBudgetIsAnyUnsigned64BitNumber) {
    uint64_t budget = 99;
    {
        ScopedEnv env("REFDEV_BRANCH_BUDGET", nullptr);
        EXPECT_EQ(branchBudgetFromEnv(budget), "");
        EXPECT_EQ(budget, 0u) << "unset: unlimited";
    }
    {
        ScopedEnv env("REFDEV_BRANCH_BUDGET", "5000");
        EXPECT_EQ(branchBudgetFromEnv(budget), "");
        EXPECT_EQ(budget, 5000u);
    }
    for (const char* bad : {"99999999999999999999999", "18446744073709551616", "-1", "5k", "unlimited"}) {
        ScopedEnv env("REFDEV_BRANCH_BUDGET", bad);
        EXPECT_EQ(branchBudgetFromEnv(budget), std::string("REFDEV_BRANCH_BUDGET: '") + bad +
                                                   "' is not a number of branches per work-item in "
                                                   "0..18446744073709551615");
    }
}

}  // namespace
}  // namespace refdev
