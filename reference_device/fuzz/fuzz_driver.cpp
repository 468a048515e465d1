#include "reference_device/fuzz/fuzz_driver.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "reference_device/fuzz/fuzz_common.h"

namespace refdev::fuzz {

bool parseDriverOptions(int argc, char** argv, bool interpreter_options, DriverOptions& opt) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](const char* name) -> const char* {
            const size_t n = std::strlen(name);
            return a.compare(0, n, name) == 0 ? a.c_str() + n : nullptr;
        };
        if (const char* v = value("--profile=")) {
            opt.profiles.push_back(v);
        } else if (const char* v = value("--seconds=")) {
            opt.seconds = std::atof(v);
        } else if (const char* v = value("--iterations=")) {
            opt.iterations = std::atol(v);
        } else if (const char* v = value("--seed=")) {
            opt.seed = std::strtoull(v, nullptr, 10);
        } else if (const char* v = value("--timeout=")) {
            opt.timeout = std::atof(v);
        } else if (const char* v = interpreter_options ? value("--branch-budget=") : nullptr) {
            opt.branch_budget = std::strtoull(v, nullptr, 10);
        } else if (const char* v = value("--max-kernels=")) {
            opt.max_kernels = uint32_t(std::atoi(v));
        } else if (const char* v = value("--crash-dir=")) {
            opt.crash_dir = v;
        } else if (a == "--replay") {
            opt.replay = true;
        } else if (interpreter_options && a == "--save-slowest") {
            opt.save_slowest = true;
        } else if (a == "--verbose") {
            opt.verbose = true;
        } else if (a.rfind("--", 0) == 0) {
            return false;
        } else {
            opt.paths.push_back(a);
        }
    }
    return true;
}

std::string loadSeeds(const std::vector<std::string>& paths, Seeds& seeds) {
    seeds.files = findSeeds(paths);
    for (const std::string& f : seeds.files) {
        seeds.words.push_back(readWords(f.c_str()));
        if (seeds.words.back().empty()) return "cannot read seed module " + f;
    }
    if (seeds.words.empty())
        return "no seed modules (.spv) found under the given paths (the 'assets' target builds the suite's "
               "modules into <build>/assets/modules)";
    return "";
}

void Stats::countLaunch(bool ran, const std::string& error) {
    ++launches;
    if (ran)
        ++ok;
    else if (error.find("branch budget") != std::string::npos)
        ++budget;
    else if (error.find("undefined behaviour") != std::string::npos)
        ++ub;
    else
        ++other;
}

int fuzzProfile(const char* tool, const std::string& profile, const Seeds& seeds, const DriverOptions& opt,
                const RunInput& run, std::vector<uint32_t>* slowest) {
    Stats seed_stats;
    std::vector<size_t> usable;  // seeds that build on this profile
    const int64_t seed_start = nowMs();
    for (size_t i = 0; i < seeds.words.size(); ++i) {
        g_current.seed_path = seeds.files[i].c_str();
        g_current.iteration = -1;
        g_current.started_ms = nowMs();
        if (opt.replay) std::printf("%s on %s:\n", seeds.files[i].c_str(), profile.c_str());
        std::fflush(stdout);  // a crash or hang loses buffered output
        if (run(seeds.words[i], seed_stats, opt.replay || opt.verbose)) usable.push_back(i);
        g_current.started_ms = -1;
    }
    std::printf(
        "%s (%s): %zu seed modules, %zu build; %ld seed launches (%ld ran, %ld undefined behaviour, %ld "
        "branch "
        "budget, %ld other errors, %ld skipped) in %.1f s\n",
        tool, profile.c_str(), seeds.words.size(), usable.size(), seed_stats.launches, seed_stats.ok,
        seed_stats.ub, seed_stats.budget, seed_stats.other, seed_stats.skipped,
        (nowMs() - seed_start) / 1000.0);
    std::fflush(stdout);
    if (opt.replay) return 0;
    if (usable.empty() || seed_stats.ok == 0) {
        std::fprintf(stderr,
                     "%s (%s): no seed module builds and runs on this profile; the corpus or the argument "
                     "set-up is unusable\n",
                     tool, profile.c_str());
        return 2;
    }

    Rng rng{(opt.seed + std::hash<std::string>()(profile)) * 0x9e3779b97f4a7c15ull + 1};
    Stats st;
    const int64_t start = nowMs();
    for (long n = 0; opt.iterations ? n < opt.iterations : nowMs() - start < opt.seconds * 1000; ++n) {
        const size_t si = usable[rng.below(uint32_t(usable.size()))];
        std::vector<uint32_t> w = seeds.words[si];
        for (uint32_t k = 1 + rng.below(3); k > 0; --k) mutateModule(w, rng);
        g_current.seed_path = seeds.files[si].c_str();
        g_current.iteration = n;
        const int64_t begin = nowMs();
        g_current.started_ms = begin;
        run(w, st, opt.verbose);
        g_current.started_ms = -1;
        g_current.stage = "idle";
        const double took = (nowMs() - begin) / 1000.0;
        if (took > st.longest_s) {
            st.longest_s = took;
            if (opt.save_slowest && slowest) *slowest = w;
        }
        ++st.inputs;
    }
    std::printf(
        "%s (%s): %ld mutated modules in %.1f s (%ld built), %ld launches: %ld ran, %ld undefined behaviour, "
        "%ld branch budget, %ld other errors (%ld kernels skipped); longest input %.2f s (limit %.1f s); no "
        "crash, no hang\n",
        tool, profile.c_str(), st.inputs, (nowMs() - start) / 1000.0, st.built, st.launches, st.ok, st.ub,
        st.budget, st.other, st.skipped, st.longest_s, opt.timeout);
    std::fflush(stdout);
    return 0;
}

}  // namespace refdev::fuzz
