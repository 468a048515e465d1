// Receives case events from the in-process loop or the --isolate supervisor and fans them out to the
// console, the line log and the result list used by the final reports.
#pragma once

#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "test_common/harness/reports/report.h"
#include "test_common/harness/reports/waivers.h"

namespace cts {

class Recorder {
public:
    // rerun(name) gives the command line that re-runs one case.
    Recorder(size_t total, bool tty, LineLog& log, std::function<std::string(const std::string&)> rerun)
        : total_(total), tty_(tty), log_(log), rerun_(std::move(rerun)) {}

    // The waiver entries for this device: a waivable result of a case they cover is recorded as Waived.
    void setWaivers(std::vector<Waiver> waivers) { waivers_ = WaiverSet(std::move(waivers)); }
    // The tier of every selected case: results (also those the supervisor makes up for a crash or a
    // timeout) carry it into the reports and the per-tier counts.
    void setTiers(std::map<std::string, Tier> tiers) { tiers_ = std::move(tiers); }

    // Parallel runs: the selection's order. Results then reach the log and the console in that order (each
    // waits for the cases before it) and results() / close() list them in it, however they completed.
    void setOrder(const std::vector<std::string>& names);

    void started(const std::string& name);
    void finished(CaseResult result);
    void endProgress();                                      // ends the TTY progress line
    void note(const std::string& text) { log_.note(text); }  // a line in the --log file

    // The results so far (a copy: another thread may be recording).
    std::vector<CaseResult> results() const;
    size_t count() const;  // how many results so far
    // The names of the results with `status`, in the order results() lists them.
    std::vector<std::string> namesWith(Status status) const;
    Tally tally() const;
    Tally tally(Tier tier) const;
    // Extension -> how many results ran as device_specific for its version gap (CaseResult::version_gaps).
    std::map<std::string, size_t> versionGapCounts() const;
    // "  NAME: first error line" for every core case that failed in phase build (the console summary).
    std::vector<std::string> buildFailures() const;
    // Stops recording and returns the results so far: events after it are ignored. For the reports of an
    // interrupted run, written on another thread while a case may still be running (or ending because the
    // interrupt killed its worker, which is not that case's result).
    std::vector<CaseResult> close();

private:
    size_t indexOf(const std::string& name) const;   // in the selection order; unknown names last
    std::vector<CaseResult> ordered() const;         // results_ in the selection order (mutex_ held)
    void releaseHeld(bool all);                      // mutex_ held
    void show(const CaseResult& r, bool log_start);  // the log lines and the console lines of a result
    mutable std::mutex mutex_;                       // results_, tally_, closed_
    bool closed_ = false;
    size_t total_;
    size_t total_bad_ = 0;  // cases neither passed nor not supported
    bool tty_;
    LineLog& log_;
    std::function<std::string(const std::string&)> rerun_;
    WaiverSet waivers_;                  // set before the first case, read-only afterwards
    std::map<std::string, Tier> tiers_;  // set before the first case, read-only afterwards
    std::vector<CaseResult> results_;
    Tally tally_;
    std::map<Tier, Tally> tier_tallies_;
    std::map<std::string, size_t> gap_counts_;
    std::map<std::string, size_t> order_;  // set before the first case, read-only afterwards
    std::vector<size_t> indices_;          // of results_ in the selection order (setOrder)
    std::map<size_t, size_t> held_;  // selection index -> results_ position: waiting for an earlier case
    size_t next_shown_ = 0;          // the selection index the log waits for
    size_t shown_ = 0;
};

// "[  PASS  ]"-style tag.
const char* statusTag(Status s);

}  // namespace cts
