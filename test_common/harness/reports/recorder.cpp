#include "test_common/harness/reports/recorder.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
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
        case Status::Flake: return "[ FLAKE  ]";
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
    if (order_.empty()) log_.start(name);  // else with its result, in selection order (setOrder)
    if (tty_) progressLine(index, total_, total_bad_, name);
}

void Recorder::setOrder(const std::vector<std::string>& names) {
    for (size_t i = 0; i < names.size(); ++i) order_.emplace(names[i], i);
}

size_t Recorder::indexOf(const std::string& name) const {
    auto it = order_.find(name);
    return it == order_.end() ? order_.size() : it->second;
}

std::vector<CaseResult> Recorder::ordered() const {
    if (order_.empty()) return results_;
    std::vector<size_t> by(results_.size());
    for (size_t i = 0; i < by.size(); ++i) by[i] = i;
    std::stable_sort(by.begin(), by.end(), [this](size_t a, size_t b) { return indices_[a] < indices_[b]; });
    std::vector<CaseResult> out;
    out.reserve(by.size());
    for (size_t i : by) out.push_back(results_[i]);
    return out;
}

std::vector<CaseResult> Recorder::results() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return ordered();
}

size_t Recorder::count() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return results_.size();
}

std::vector<std::string> Recorder::namesWith(Status status) const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<std::pair<size_t, std::string>> found;  // (selection index, name)
    for (size_t i = 0; i < results_.size(); ++i)
        if (results_[i].status == status)
            found.emplace_back(order_.empty() ? i : indices_[i], results_[i].name);
    std::stable_sort(found.begin(), found.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> out;
    for (auto& f : found) out.push_back(std::move(f.second));
    return out;
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
            out.push_back("  " + r.name + ": " + printable(firstErrorLine(r.build_log)));
    return out;
}

std::vector<CaseResult> Recorder::close() {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    releaseHeld(true);
    return ordered();
}

std::map<std::string, size_t> Recorder::versionGapCounts() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return gap_counts_;
}

void Recorder::finished(CaseResult r) {
    auto tier = tiers_.find(r.name);
    if (tier != tiers_.end()) r.tier = tier->second;
    // A version gap makes a core case device_specific where it ran (case_runner.h, SupportFacts).
    if (!r.version_gaps.empty()) r.tier = Tier::DeviceSpecific;
    applyWaivers(waivers_, r);
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_) return;
    if (results_.empty()) results_.reserve(total_);
    tally_.add(r);
    tier_tallies_[r.tier].add(r);
    for (const auto& ext : r.version_gaps) ++gap_counts_[ext];
    results_.push_back(std::move(r));
    if (order_.empty()) {
        show(results_.back(), false);
        return;
    }
    indices_.push_back(indexOf(results_.back().name));
    held_.emplace(indices_.back(), results_.size() - 1);
    releaseHeld(false);
}

// Parallel runs: the results that complete the selection's prefix go to the log and the console, in
// selection order; at the end (or on an interrupt) `all` releases the rest, gaps left out.
void Recorder::releaseHeld(bool all) {
    while (!held_.empty() && (all || held_.begin()->first <= next_shown_)) {
        auto it = held_.begin();
        next_shown_ = it->first + 1;
        show(results_[it->second], true);
        held_.erase(it);
    }
}

void Recorder::show(const CaseResult& r, bool log_start) {
    ++shown_;
    if (log_start) log_.start(r.name);
    log_.finish(r);
    bool bad = r.status != Status::Pass && r.status != Status::NotSupported;
    if (bad) ++total_bad_;
    if (tty_) {
        if (!bad) {
            progressLine(shown_, total_, total_bad_, r.name);
            return;
        }
        std::printf("\r\033[K");
    }
    std::printf("%s %s (%.0f ms)\n", statusTag(r.status), r.name.c_str(), r.duration_ms);
    if (r.status != Status::Pass) {
        std::istringstream lines(r.message.empty() ? std::string("(no message)") : r.message);
        std::string line;
        // A driver's or compiler's text: escape sequences and invalid bytes are shown, never obeyed.
        while (std::getline(lines, line)) std::printf("    %s\n", printable(line).c_str());
    }
    if (r.status == Status::Waived)
        std::printf("    waived: %s (%s): %s\n", printable(r.waiver_tracker).c_str(), waivedStatusName(r),
                    printable(r.waiver_reason).c_str());
    if (bad) std::printf("    rerun: %s\n", rerun_(r.name).c_str());
    std::fflush(stdout);
}

void Recorder::endProgress() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        releaseHeld(true);
    }
    if (tty_) std::printf("\r\033[K");
    std::fflush(stdout);
}

}  // namespace cts
