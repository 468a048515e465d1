// --rerun-failed=REPORT.json: the cases an earlier run did not pass (any status but Pass and NotSupported)
// and those it did not run, with the run seed and --quick of that run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cts {

struct RerunRequest {
    std::vector<std::string> names;  // in report order, each once
    uint64_t seed = 0;
    bool quick = false;
};

// Parses a runner JSON report (one run, or shards merged by scripts/merge_results.py). Returns "" on
// success, else why it cannot be rerun: not JSON, not a runner report, or nothing to rerun.
std::string parseRerunReport(const std::string& text, const std::string& path, RerunRequest& out);
std::string readRerunReport(const std::string& path, RerunRequest& out);

}  // namespace cts
