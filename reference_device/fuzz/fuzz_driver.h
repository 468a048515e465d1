// The skeleton both launch fuzz drivers share (launch_fuzz.cpp: the interpreter API, one process for every
// profile; icd_fuzz.cpp: the OpenCL API, one profile per process): options, seed loading, launch counts, and
// per profile the seed pass and the timed mutation loop. Each driver supplies how one input is built and
// launched.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace refdev::fuzz {

struct DriverOptions {
    std::vector<std::string> profiles;  // --profile= values, in order given
    double seconds = 20;                // per profile
    long iterations = 0;                // per profile; 0: until --seconds
    uint64_t seed = 1;
    double timeout = 10;            // seconds per input (build + every launch)
    uint64_t branch_budget = 5000;  // per work-item (the suite's kernels loop a few dozen times)
    uint32_t max_kernels = 4;       // launched per module
    std::string crash_dir = ".";
    bool replay = false;        // run each seed once as it is, printing every launch's outcome
    bool save_slowest = false;  // keep the slowest mutated input (fuzzProfile's *slowest)
    bool verbose = false;
    std::vector<std::string> paths;  // seed directories and files
};

// Parses the command line; false on an option it does not know (the caller prints its usage, exit 2).
// --branch-budget= and --save-slowest are accepted only when `interpreter_options` is set.
bool parseDriverOptions(int argc, char** argv, bool interpreter_options, DriverOptions& opt);

struct Seeds {
    std::vector<std::string> files;
    std::vector<std::vector<uint32_t>> words;
};
// Reads every seed module; "" or the message (exit 2) naming the unreadable seed, or saying none was found.
std::string loadSeeds(const std::vector<std::string>& paths, Seeds& seeds);

struct Stats {
    long inputs = 0, built = 0, launches = 0, ok = 0, ub = 0, budget = 0, other = 0, skipped = 0;
    double longest_s = 0;
    // Counts one launch by the device's error text: ran, hit the branch budget, undefined behaviour, other.
    void countLaunch(bool ran, const std::string& error);
};

// Builds and launches one input, counting in stats, printing each launch when `print`; true when it built.
using RunInput = std::function<bool(const std::vector<uint32_t>& words, Stats& stats, bool print)>;

// The seed pass (the seeds that build), then --seconds or --iterations of mutations of them, for one profile,
// with the summary lines of `tool` ("launch fuzz"). Returns 2 when no seed builds and runs, else 0; a crash
// or hang never returns (the watchdog and crash handlers of fuzz_common.h). With save_slowest, *slowest
// receives the slowest mutated input.
int fuzzProfile(const char* tool, const std::string& profile, const Seeds& seeds, const DriverOptions& opt,
                const RunInput& run, std::vector<uint32_t>* slowest = nullptr);

}  // namespace refdev::fuzz
