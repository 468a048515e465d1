// Result records and the report formats: JSON (CTS CL_CONFORMANCE_RESULTS_FILENAME shape, extended),
// JUnit XML, and the crash-safe line log.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "test_common/harness/model/case.h"

namespace cts {

// Where a case's time went, in milliseconds (phase_clock.h measures build and kernel in the process that ran
// the case): the JSON report's "phases". check_ms is the rest of duration_ms: host setup, data transfer, the
// host reference and the comparison. worker_start_ms: with --isolate/--jobs, the time the worker took from
// its spawn to its first case, charged to that case (0 otherwise). Retries sum their attempts' phases.
struct PhaseTimes {
    double build_ms = 0;  // clCreateProgramWithIL + clBuildProgram (the offline compiler's compile)
    size_t builds = 0, cache_hits = 0;
    double kernel_ms = 0;  // clEnqueueNDRangeKernel .. clFinish
    double check_ms = 0;
    double worker_start_ms = 0;
    PhaseTimes& operator+=(const PhaseTimes& o);
};

// "time by phase: build 12.3 s (410 built, 3200 cached), kernel 4.5 s, check 2.1 s, worker start 0.8 s".
std::string phaseSummary(const PhaseTimes& totals);

struct CaseResult {
    std::string name;
    Status status = Status::Pass;
    std::string message;
    double duration_ms = 0;
    uint64_t seed = 0;
    // Status::Waived only: the status the case had, and the waiver's tracker and reason.
    Status waived_status = Status::Pass;
    std::string waiver_tracker, waiver_reason;
    // Status::Waived only: a waiver's "skip" kept the case from running (no waived_status: it never ran).
    bool not_run = false;
    MismatchPicture picture{};  // written as "mismatches" when not empty
    Tier tier = Tier::Core;
    // The extensions the device reports below the version the case's tokens name (case_runner.h,
    // SupportFacts): the case ran as device_specific because of them. Empty for nearly every case.
    std::vector<std::string> version_gaps;
    // "build" for a core case whose module the device's compiler rejected (build_log holds the log); else "".
    std::string phase, build_log;
    // --retry: every attempt of a case that ran more than once, "STATUS: message" ("Pass" for a pass), in
    // order; empty for a case that ran once.
    std::vector<std::string> attempts;
    PhaseTimes phases;
};

// What selected a run's cases, as given: the JSON report's "selection" object (this shape is read by
// --rerun-failed and the result scripts) and the JUnit properties selection.*. Options given more than once
// (--filter, --caselist-file, --exclude-file) are joined with a newline.
struct SelectionRecord {
    std::vector<std::string> patterns;  // the positional case patterns
    std::string filter, caselist_file, exclude_file;
    std::vector<std::string> tags;  // --tag
    bool quick = false, extended = false, huge = false;
    bool core_only = false;    // "tier": "core" (else "all")
    std::string rerun_failed;  // --rerun-failed's report
    // --run-skipped: the cases of waiver "skip" entries ran; shards with and without it are not one run.
    bool run_skipped = false;
    uint64_t seed = 0;
    std::string suite_version;    // the project version of this runner
    std::string manifest_sha256;  // of the assets' manifest.json (manifest.sha256 beside it)
};

// An extension the device reports below the version that promises its SPIR-V environment (version_gap.h).
struct VersionGapNote {
    std::string extension;
    std::string reported, promised_from;  // "1.0.0", "1.1.0"
    size_t cases = 0;                     // the results that ran as device_specific for it
};

struct RunInfo {
    std::string command;  // the command line, shell-quoted, after the environment variables that shaped it
    std::string platform, device, driver;
    // The installed package of the driver library ("intel-opencl-rt 2026.2.0"; findRuntimePackage), "" when
    // unknown: the driver version alone does not say which build of a runtime was tested.
    std::string runtime_package;
    uint64_t seed = 0;
    bool quick = false;
    std::vector<std::string> errors;            // run-level internal errors (e.g. a broken manifest)
    unsigned shard_index = 0, shard_count = 1;  // --shard=I/N or GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS
    size_t selected = 0;                        // cases selected for this run (this shard)
    // Why the run stopped before every selected case had a result ("" = it did not): "SIGINT", "SIGTERM",
    // "SIGHUP", "SIGQUIT", "timeout" (a case timed out without --isolate) or "device" (no device could be
    // opened).
    std::string aborted;
    std::vector<std::string> not_run;  // selected cases without a result, in selection order
    // Where the run took its kernels and its driver from: the manifest's directory and OCL_ICD_VENDORS as
    // the loader saw it ("" when unset: the system's drivers).
    std::string assets_dir, icd_vendors;
    // The offline-compiler mode (--offline-compiler): the compiler and its versions (offlineCompilerText),
    // the target and its description file; "" on a device.
    std::string offline_compiler, target, target_description;
    std::vector<std::string> waiver_files;   // --waiver-file
    std::vector<std::string> waiver_sha256;  // each waiver file's SHA-256 as read (shards compare contents)
    std::vector<std::string> stale_waivers;  // staleText() of each stale waiver
    SelectionRecord selection;
    std::vector<VersionGapNote> version_gaps;  // of the device or target; counted at the end of the run
    bool flake_fails = false;                  // --flake-fails: a Flake is a JUnit failure
    // --build-only: no case launched a kernel; a Pass means built and kernel queries right
    // (build_only_launch.h)
    bool build_only = false;
};

// "3 of 40 selected case(s) (7.5%) skipped by waiver \"skip\" entries": cases recorded Waived without
// running, said in the header, the summary and the exit policy's note alike.
std::string skippedShareText(size_t skipped, size_t selected);
// How many results a waiver's "skip" recorded Waived without running (CaseResult::not_run): the JSON
// report's "waived_not_run", the JUnit property of that name.
size_t waivedNotRun(const std::vector<CaseResult>& results);

// "run interrupted by SIGTERM: 3 of 5 selected case(s) not run"; "" when the run was not aborted.
std::string abortMessage(const RunInfo& info);

struct Tally {
    size_t passed = 0, failed = 0, skipped = 0, internal = 0, crashed = 0, timed_out = 0, waived = 0;
    size_t flaky = 0;           // Flake: passed on a retry (counted apart from `passed`)
    size_t build_failed = 0;    // of `failed`: in phase "build"
    size_t not_run_waived = 0;  // of `waived`: not run, a waiver's "skip" (CaseResult::not_run)
    PhaseTimes phases;          // summed over the results added with add(const CaseResult&)
    void add(Status s);
    void add(const CaseResult& r);
    size_t total() const {
        return passed + failed + skipped + internal + crashed + timed_out + waived + flaky;
    }
    // A Flake does not make a run bad; --flake-fails does (exitPolicy).
    bool allGood() const { return failed + internal + crashed + timed_out == 0; }
    std::string summary() const;  // "3 passed, 1 failed, 2 skipped[, N internal errors, ...]"
};

// What a Waived result was: "NotRun" for a case a waiver's "skip" kept from running, else
// statusName(waived_status) ("Fail", "Crash", "Timeout").
const char* waivedStatusName(const CaseResult& result);

// "pass", "fail" or "skip": the CTS results vocabulary. A Waived case is "fail": it failed on the device.
const char* ctsResultWord(Status s);

std::string jsonReport(const RunInfo& info, const std::vector<CaseResult>& results);
std::string junitReport(const RunInfo& info, const std::vector<CaseResult>& results);

// Escapes text for XML character data and attribute values. Bytes XML 1.0 cannot carry are written as the
// visible text \xNN: control characters, and every byte of an invalid UTF-8 sequence (a driver message in
// Latin-1, a truncated or overlong sequence, an encoded surrogate, U+FFFE/U+FFFF), so the document stays
// well-formed UTF-8 whatever the message holds.
std::string xmlEscape(const std::string& text);

// `text` as it may go into a one-line message on the console or in the log: printable ASCII and valid UTF-8
// as they are; control characters (NUL, newline, ESC, C1 controls) and every byte of an invalid UTF-8
// sequence as the text \xNN, so a file's bytes or a variable's value can neither forge a line nor drive the
// terminal.
std::string printable(std::string_view text);

// The length in bytes of the invisible format character at text[i], else 0: a bidi control (U+061C,
// U+200E/F, U+202A..U+202E, U+2066..U+2069: they reorder the text around them, "Trojan Source"), a zero-width
// character (U+200B..U+200D, U+2060..U+2064, U+FEFF) or a line or paragraph separator (U+2028, U+2029).
// printable() writes them as \xNN too; waiver text refuses them. *code_point gets the character when not 0.
size_t invisibleFormatAt(std::string_view text, size_t i, uint32_t* code_point = nullptr);

// Quotes one word for a POSIX shell when needed.
std::string shellQuote(const std::string& word);

// A report file (--json, --junit). prepare() checks before the run that the file can be written without
// touching an existing file (a temporary file is created and removed beside it); write() replaces it
// atomically (a temporary file in the same directory, then rename), so an interrupted or crashed run never
// leaves a truncated report or destroys an earlier one. A path that exists and is not a regular file
// (/dev/null, a terminal; parseOptions refuses FIFOs and sockets) is opened by prepare() and written in
// place. Symbolic links to a regular file are followed: the file they point to is replaced.
class ReportFile {
public:
    ReportFile() = default;
    ~ReportFile();
    ReportFile(const ReportFile&) = delete;
    ReportFile& operator=(const ReportFile&) = delete;
    // Returns "" when `path` can be written, else why not (strerror text).
    std::string prepare(const std::string& path);
    bool active() const { return !path_.empty(); }
    const std::string& path() const { return path_; }
    // Writes the whole report; returns "" on success, else why it failed (the earlier file is left as it
    // was). Only the first call writes.
    std::string write(const std::string& text);

private:
    std::string path_;    // as given
    std::string target_;  // the regular file to replace
    unsigned mode_ = 0644;
    FILE* direct_ = nullptr;
    bool written_ = false;
};

// One line per event, flushed at once, so a crash leaves the name of the case that was running. A failed
// write is remembered (error()): a log that cannot be written fails the run.
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
    // "" while every line was written, else why the first write failed (strerror text).
    const std::string& error() const { return error_; }

private:
    void flushLine(int printed);
    FILE* file_ = nullptr;
    std::string error_;
};

// "2.5 s": a duration in seconds without trailing zeros.
std::string secondsText(double seconds);

// Replaces newlines and tabs so a message stays on one log line.
std::string oneLine(const std::string& text);

}  // namespace cts
