#include "test_common/harness/recorder.h"

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
    }
    return "[   ??   ]";
}

void Recorder::started(const std::string& name) {
    log_.start(name);
    if (tty_) {
        std::printf("\r\033[K[%zu/%zu] %s", results_.size() + 1, total_, name.c_str());
        std::fflush(stdout);
    }
}

void Recorder::finished(const CaseResult& r) {
    results_.push_back(r);
    tally_.add(r.status);
    log_.finish(r);
    bool bad = r.status != Status::Pass && r.status != Status::NotSupported;
    if (tty_) {
        std::printf("\r\033[K");
        if (!bad) {
            std::printf("[%zu/%zu] %s", results_.size(), total_, r.name.c_str());
            std::fflush(stdout);
            return;
        }
    }
    std::printf("%s %s (%.0f ms)\n", statusTag(r.status), r.name.c_str(), r.duration_ms);
    if (r.status != Status::Pass) {
        std::istringstream lines(r.message.empty() ? std::string("(no message)") : r.message);
        std::string line;
        while (std::getline(lines, line)) std::printf("    %s\n", line.c_str());
    }
    if (bad) std::printf("    rerun: %s\n", rerun_(r.name).c_str());
    std::fflush(stdout);
}

void Recorder::endProgress() {
    if (tty_) std::printf("\r\033[K");
    std::fflush(stdout);
}

}  // namespace cts
