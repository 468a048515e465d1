// Waivers (--waiver-file): known driver failures that still run but do not fail the run. A waived Fail,
// Crash or Timeout is recorded as Waived with its tracker; a waived case that passes, or a waiver entry that
// matches no selected case, is stale. The file format is in docs/user_guide.md ("Known failures: waivers").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "test_common/harness/reports/report.h"
#include "test_common/harness/selection/selection.h"

namespace cts {

// The largest "timeout_seconds" a waiver entry may give (a day): a limit, not a way to run forever.
inline constexpr double kMaxWaiverTimeoutSeconds = 86400;

struct Waiver {
    std::vector<std::string> cases;  // the runner's patterns (* and ?, a dotted prefix selects its subtree)
    // Device conditions; an empty string / has_vendor_id = false is no condition.
    std::string platform, name;          // patterns (* and ?) on CL_PLATFORM_NAME, CL_DEVICE_NAME
    std::string driver_min, driver_max;  // inclusive bounds on CL_DRIVER_VERSION, dotted numbers
    bool has_vendor_id = false;
    uint32_t vendor_id = 0;
    std::string tracker, reason;
    // "own_process": the bug corrupts the driver's process (an unchecked out-of-bounds write), so with
    // --isolate each covered case runs in a worker of its own and no later case inherits the damage.
    bool own_process = false;
    // "intermittent": whether the bug shows depends on memory layout, so a covered case that passes is not a
    // stale waiver (the entry is still stale when it covers no selected case).
    bool intermittent = false;
    // "timeout_seconds": the bug can hang a covered case (a deadlock in the driver), so a case is given up on
    // after this many seconds instead of the run's per-case limit: min(this, the run's limit) when the run
    // has one (--timeout, or --isolate's and --jobs's default), else this. 0: no limit of its own.
    double timeout_seconds = 0;
    // "skip": the bug crashes or hangs a covered case every time, so a run does not spend a worker (or the
    // timeout) on it: the case is recorded Waived without running (CaseResult::not_run) unless the run
    // asks for --run-skipped, the periodic run that finds the stale ones.
    bool skip = false;
    // "device": "*" (or patterns that are all '*' and no other condition): the entry waives its cases on
    // every driver; the runner says so loudly (everyDeviceWarning).
    bool every_device = false;
    std::string source;  // "FILE:LINE" where the entry starts
};

// The identity of the device under test, as far as waivers look at it.
struct WaiverDevice {
    std::string platform, name, driver_version;
    uint32_t vendor_id = 0;
};

// Parses a waiver file's text: {"waivers": [{"cases": [...], "device": {...}, "tracker": "...", "reason":
// "..."}, ...]}. Returns "" on success, else "FILE:LINE: what is wrong" (the line of a JSON syntax error or a
// repeated key, or where the offending entry starts). Every entry names its device ("device" with a
// platform, name or vendor_id, or "*"); tracker and reason are one line without control characters.
std::string parseWaivers(const std::string& text, const std::string& file, std::vector<Waiver>& out);
// Reads and parses a file; an unreadable file or a directory is an error too.
// With `sha256`, also the SHA-256 of the bytes parsed (the report names the file by its contents).
std::string readWaiverFile(const std::string& path, std::vector<Waiver>& out, std::string* sha256 = nullptr);

// Dotted numeric versions ("31.0.101", "1.2"): true and the numbers when `text` is one.
bool parseDottedVersion(const std::string& text, std::vector<uint64_t>& out);
// The first dotted number in a driver's version string ("1.0.0 (refdev)" -> 1.0.0); false when there is none.
bool driverVersionNumbers(const std::string& text, std::vector<uint64_t>& out);
// -1, 0 or 1; missing components count as 0 (1.2 == 1.2.0).
int compareVersions(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b);

// Whether the entry's device conditions hold. A driver bound on a driver version without a number fails.
bool waiverAppliesTo(const Waiver& waiver, const WaiverDevice& device);
// Waiver entries with their case patterns indexed (PatternMatcher), so looking up every case of a run costs
// O(n log n) however many one-case entries a file holds.
class WaiverSet {
public:
    WaiverSet() = default;
    explicit WaiverSet(std::vector<Waiver> entries);
    const std::vector<Waiver>& entries() const { return entries_; }
    bool empty() const { return entries_.empty(); }
    // The first entry (in file order) whose patterns select the case, or null.
    const Waiver* find(std::string_view case_name) const;
    // Calls used(i) for every entry i whose patterns select the case.
    template <class Used>
    void forEachEntry(std::string_view case_name, Used&& used) const {
        matcher_.forEachMatch(case_name, [&](size_t p) { used(entry_of_[p]); });
    }

private:
    std::vector<Waiver> entries_;
    PatternMatcher matcher_;        // every entry's patterns, entry by entry
    std::vector<size_t> entry_of_;  // pattern index -> entry index
};

// The result of a case a "skip" entry covers, in a run without --run-skipped: Waived, not run, with the
// entry's tracker and reason and a message that says how to run it.
CaseResult skippedResult(const Waiver& waiver, const std::string& case_name, uint64_t seed);

// Fail, Crash and Timeout are waivable; InternalError is the harness's fault and never is.
bool waivable(Status status);
// Turns a waivable result of a case an entry selects into Waived (keeping the original status and message).
void applyWaivers(const WaiverSet& waivers, CaseResult& result);

struct StaleWaiver {
    std::string source, tracker;
    std::string case_name;  // the waived case that passed; "" for an entry that matched no selected case
};

// Stale waivers of a run: each waived case that passed, then each entry whose patterns select none of
// `selected`. `waivers` holds only the entries for this device.
std::vector<StaleWaiver> staleWaivers(const WaiverSet& waivers, const std::vector<std::string>& selected,
                                      const std::vector<CaseResult>& results);
// "warning: waiver FILE:LINE (TRACKER) applies to every device ...", for the console and the log.
std::string everyDeviceWarning(const Waiver& waiver);
// "waiver no longer needed: CASE (TRACKER)" or "waiver matches no selected case: FILE:LINE (TRACKER)".
std::string staleText(const StaleWaiver& stale);

}  // namespace cts
