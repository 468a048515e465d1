// --retry=K: a case whose result is Fail, Crash or Timeout runs again, up to K times; one that then passes is
// Flake. A Fail is retried where it ran (in this process, or in the same worker); a Crash or a Timeout by the
// supervisor or the --jobs coordinator in a new worker (docs/user_guide.md, "Retries and flakes").
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "test_common/harness/reports/report.h"

namespace cts {

// Fail, Crash and Timeout: the statuses a retry may turn into a pass.
bool retryable(Status s);

// "STATUS: message" ("Pass" for a pass): one entry of CaseResult::attempts.
std::string attemptText(const CaseResult& r);

// The result of a case that ran as `earlier` (each retryable) and then as `last`: `last` itself when there
// was no earlier attempt; else Flake when `last` passed, else `last`'s status; attempts lists them all
// (`last`'s own attempts, when it already holds some, follow the earlier ones) and the message says which
// attempt passed or repeats every attempt's message.
CaseResult combineAttempts(const std::vector<CaseResult>& earlier, const CaseResult& last);

// Runs `attempt` once, then again while it returns a Fail and fewer than `retries` retries were made (a
// Crash or Timeout cannot be retried in the process that saw it). Returns the combined result.
CaseResult runWithRetries(const std::function<CaseResult()>& attempt, unsigned retries);

// The --isolate supervisor's and the --jobs coordinator's book of Crash / Timeout attempts: take() a
// result; true means run the case again in a new worker (the attempt is kept), false means record
// `final()`'s result.
class RetryBook {
public:
    // `retries`: --retry; `waived(name)`: a waiver covers the case (never retried).
    RetryBook(unsigned retries, std::function<bool(const std::string&)> waived)
        : retries_(retries), waived_(std::move(waived)) {}
    // A Crash or Timeout of a case: true when it is to run again (the attempt is kept for its record).
    bool again(const CaseResult& r);
    // The result to record for a case's last result (its earlier Crash / Timeout attempts folded in).
    CaseResult final(const CaseResult& r);

private:
    unsigned retries_;
    std::function<bool(const std::string&)> waived_;
    std::map<std::string, std::vector<CaseResult>> earlier_;
};

}  // namespace cts
