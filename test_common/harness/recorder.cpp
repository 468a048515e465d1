#include "test_common/harness/recorder.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <sstream>

namespace cts {

const char* statusTag(Status s) {
    switch (s) {
        case Status::Pass: return "[  PASS  ]";
        case Status::Fail: return "[  FAIL  ]";
        case Status::NotSupported: return "[  SKIP  ]";
        case Status::InternalError: return "[ INTERR ]";
        case Status::Crash: return "[ CRASH  ]";
        case Status::Timeout: return "[TIMEOUT ]";
        case Status::Waived: return "[ WAIVED ]";
    }
    return "[   ??   ]";
}

namespace {

// One progress line that fits the terminal: a wrapped line could not be overwritten with '\r'.
void progressLine(size_t index, size_t total, size_t bad, const std::string& name) {
    std::string line = "[" + std::to_string(index) + "/" + std::to_string(total);
    if (bad) line += ", not passed: " + std::to_string(bad);
    line += "] " + name;
    winsize ws{};
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 10 && line.size() >= ws.ws_col)
        line = line.substr(0, ws.ws_col - 4) + "...";
    std::printf("\r\033[K%s", line.c_str());
    std::fflush(stdout);
}

}  // namespace

void Recorder::started(const std::string& name) {
    size_t index;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (closed_) return;
        index = results_.size() + 1;
    }
    log_.start(name);
    if (tty_) progressLine(index, total_, total_bad_, name);
}

std::vector<CaseResult> Recorder::results() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return results_;
}

Tally Recorder::tally() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return tally_;
}

Tally Recorder::tally(Tier tier) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = tier_tallies_.find(tier);
    return it == tier_tallies_.end() ? Tally{} : it->second;
}

std::vector<std::string> Recorder::buildFailures() const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::string> out;
    for (const auto& r : results_)
        if (r.phase == "build" && (r.status == Status::Fail || r.status == Status::Waived))
            out.push_back("  " + r.name + ": " + firstErrorLine(r.build_log));
    return out;
}

std::vector<CaseResult> Recorder::close() {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    return results_;
}

void Recorder::finished(const CaseResult& result) {
    CaseResult r = result;
    auto tier = tiers_.find(r.name);
    if (tier != tiers_.end()) r.tier = tier->second;
    applyWaivers(waivers_, r);
    size_t count;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (closed_) return;
        results_.push_back(r);
        tally_.add(r);
        tier_tallies_[r.tier].add(r);
        count = results_.size();
    }
    log_.finish(r);
    bool bad = r.status != Status::Pass && r.status != Status::NotSupported;
    if (bad) ++total_bad_;
    if (tty_) {
        if (!bad) {
            progressLine(count, total_, total_bad_, r.name);
            return;
        }
        std::printf("\r\033[K");
    }
    std::printf("%s %s (%.0f ms)\n", statusTag(r.status), r.name.c_str(), r.duration_ms);
    if (r.status != Status::Pass) {
        std::istringstream lines(r.message.empty() ? std::string("(no message)") : r.message);
        std::string line;
        while (std::getline(lines, line)) std::printf("    %s\n", line.c_str());
    }
    if (r.status == Status::Waived)
        std::printf("    waived: %s (%s): %s\n", r.waiver_tracker.c_str(), statusName(r.waived_status),
                    r.waiver_reason.c_str());
    if (bad) std::printf("    rerun: %s\n", rerun_(r.name).c_str());
    std::fflush(stdout);
}

void Recorder::endProgress() {
    if (tty_) std::printf("\r\033[K");
    std::fflush(stdout);
}

}  // namespace cts
