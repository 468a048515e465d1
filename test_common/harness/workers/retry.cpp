#include "test_common/harness/workers/retry.h"

namespace cts {

bool retryable(Status s) {
    return s == Status::Fail || s == Status::Crash || s == Status::Timeout;
}

std::string attemptText(const CaseResult& r) {
    if (r.status == Status::Pass) return "Pass";
    return std::string(statusName(r.status)) + ": " + (r.message.empty() ? "(no message)" : r.message);
}

CaseResult combineAttempts(const std::vector<CaseResult>& earlier, const CaseResult& last) {
    if (earlier.empty()) return last;
    CaseResult out = last;
    out.attempts.clear();
    for (const auto& e : earlier) {
        if (e.attempts.empty())
            out.attempts.push_back(attemptText(e));
        else
            out.attempts.insert(out.attempts.end(), e.attempts.begin(), e.attempts.end());
    }
    if (last.attempts.empty())
        out.attempts.push_back(attemptText(last));
    else
        out.attempts.insert(out.attempts.end(), last.attempts.begin(), last.attempts.end());
    double ms = last.duration_ms;
    for (const auto& e : earlier) {
        ms += e.duration_ms;
        out.phases += e.phases;  // every attempt's time, as duration_ms
    }
    out.duration_ms = ms;
    const size_t n = out.attempts.size();
    if (last.status == Status::Pass || last.status == Status::Flake) {
        out.status = Status::Flake;
        out.message = "passed on attempt " + std::to_string(n) + " of " + std::to_string(n) + " after:";
        for (size_t i = 0; i + 1 < n; ++i)
            out.message += "\nattempt " + std::to_string(i + 1) + ": " + out.attempts[i];
    } else {
        out.message = "failed all " + std::to_string(n) + " attempts:";
        for (size_t i = 0; i < n; ++i)
            out.message += "\nattempt " + std::to_string(i + 1) + ": " + out.attempts[i];
    }
    return out;
}

CaseResult runWithRetries(const std::function<CaseResult()>& attempt, unsigned retries) {
    std::vector<CaseResult> earlier;
    CaseResult r = attempt();
    while (r.status == Status::Fail && earlier.size() < retries) {
        earlier.push_back(r);
        r = attempt();
    }
    return combineAttempts(earlier, r);
}

bool RetryBook::again(const CaseResult& r) {
    if (!retryable(r.status) || (waived_ && waived_(r.name))) return false;
    std::vector<CaseResult>& e = earlier_[r.name];
    // Attempts already made: the earlier Crash / Timeout ones and this one (with its own Fail retries).
    size_t made = r.attempts.empty() ? 1 : r.attempts.size();
    for (const auto& x : e) made += x.attempts.empty() ? 1 : x.attempts.size();
    if (made > retries_) return false;
    e.push_back(r);
    return true;
}

CaseResult RetryBook::final(const CaseResult& r) {
    auto it = earlier_.find(r.name);
    if (it == earlier_.end()) return r;
    CaseResult out = combineAttempts(it->second, r);
    earlier_.erase(it);
    return out;
}

}  // namespace cts
