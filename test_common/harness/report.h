// Result records and the report formats: JSON (CTS CL_CONFORMANCE_RESULTS_FILENAME shape, extended),
// JUnit XML, and the crash-safe line log.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "test_common/harness/case.h"

namespace cts {

struct CaseResult {
    std::string name;
    Status status = Status::Pass;
    std::string message;
    double duration_ms = 0;
    uint64_t seed = 0;
};

struct RunInfo {
    std::string command;  // the command line, shell-quoted
    std::string platform, device, driver;
    uint64_t seed = 0;
    bool quick = false;
    std::vector<std::string> errors;  // run-level internal errors (e.g. a broken manifest)
};

struct Tally {
    size_t passed = 0, failed = 0, skipped = 0, internal = 0, crashed = 0, timed_out = 0;
    void add(Status s);
    size_t total() const { return passed + failed + skipped + internal + crashed + timed_out; }
    bool allGood() const { return failed + internal + crashed + timed_out == 0; }
    std::string summary() const;  // "3 passed, 1 failed, 2 skipped[, N internal errors, ...]"
};

// "pass", "fail" or "skip": the CTS results vocabulary.
const char* ctsResultWord(Status s);

std::string jsonReport(const RunInfo& info, const std::vector<CaseResult>& results);
std::string junitReport(const RunInfo& info, const std::vector<CaseResult>& results);

// Escapes text for XML character data and attribute values; control characters that XML 1.0 cannot
// carry at all are written as the visible text \xNN.
std::string xmlEscape(const std::string& text);

// Quotes one word for a POSIX shell when needed.
std::string shellQuote(const std::string& word);

// One line per event, flushed at once, so a crash leaves the name of the case that was running.
class LineLog {
public:
    LineLog() = default;
    ~LineLog();
    LineLog(const LineLog&) = delete;
    LineLog& operator=(const LineLog&) = delete;
    void attach(FILE* file) { file_ = file; }
    void start(const std::string& name);
    void finish(const CaseResult& result);
    void note(const std::string& text);

private:
    FILE* file_ = nullptr;
};

// "2.5 s": a duration in seconds without trailing zeros.
std::string secondsText(double seconds);

// Replaces newlines and tabs so a message stays on one log line.
std::string oneLine(const std::string& text);

}  // namespace cts
