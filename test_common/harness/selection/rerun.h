// --rerun-failed=REPORT.json: the cases an earlier run did not pass (any status but Pass, Flake and
// NotSupported) and those it did not run, with the selection options of that run (its "selection" record).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "test_common/harness/selection/selection.h"

namespace cts {

struct RerunRequest {
    std::vector<std::string> names;  // in report order, each once
    size_t flaky = 0;                // Flake cases: they passed on a retry and are not rerun
    // The earlier run's options that decide which cases run and how: from its "selection" record, or for a
    // report without one (written before the record existed), the top-level "seed" and "quick".
    bool has_selection = false;
    uint64_t seed = 0;
    bool quick = false, extended = false, huge = false, core_only = false;
    // What the earlier run ran: the selection record's suite version and manifest hash ("" when absent).
    std::string suite_version, manifest_sha256;
};

// Parses a runner JSON report (one run, or shards merged by scripts/reports/merge_results.py). Returns "" on
// success, else why it cannot be rerun: not JSON (or a key given twice), not a runner report, a malformed
// selection record or seed, or nothing to rerun.
std::string parseRerunReport(const std::string& text, const std::string& path, RerunRequest& out);
std::string readRerunReport(const std::string& path, RerunRequest& out);

// A rerun must run every case it names that the negative patterns (--exclude-file) do not exclude: one left
// out by the selection (a huge case without --huge) would be silently dropped. `request` is the rerun's
// selection before sharding. Returns "" or one line naming the cases and the option that brings them back.
std::string checkRerunSelection(const RerunRequest& rerun, const std::string& path,
                                const std::vector<CaseSpec>& all, SelectionRequest request);
std::string checkRerunSelection(const RerunRequest& rerun, const std::string& path,
                                const std::vector<CaseHead>& all, SelectionRequest request);

}  // namespace cts
