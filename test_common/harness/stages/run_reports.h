// The report sinks of a run (JSON, JUnit; the log is ReportSinks::log) and what writes them: at the end of
// the run, on an abort, or on an interrupt (kInterruptSignals).
#pragma once

#include <signal.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "test_common/harness/offline/offline_compiler.h"
#include "test_common/harness/reports/recorder.h"
#include "test_common/harness/reports/report.h"
#include "test_common/harness/stages/options.h"
#include "test_common/harness/workers/supervisor.h"

namespace cts {

// The reports of a run. Their paths are checked before anything runs (a typo in a path costs seconds, not
// a whole run) without touching an earlier report; they are written once, atomically, by whichever comes
// first: the end of the run, an abort (a timeout without --isolate, no device), or an interrupt signal (on
// the interrupt thread, while the main thread may be inside a case). An aborted run's reports hold the
// results that finished and list the selected cases that did not run.
class RunReports {
public:
    ReportFile json, junit;

    explicit RunReports(std::string program) : program_(std::move(program)) {}
    void setLog(LineLog* log) {
        std::lock_guard<std::mutex> lock(mutex_);
        log_ = log;
    }
    void setInfo(const RunInfo& info, const std::vector<std::string>& selected) {
        std::lock_guard<std::mutex> lock(mutex_);
        info_ = info;
        selected_ = selected;
    }
    void setRecorder(Recorder* recorder) {
        std::lock_guard<std::mutex> lock(mutex_);
        recorder_ = recorder;
    }

    // Writes the reports; aborted = "" for a run that reached its end, else RunInfo::aborted. Returns false
    // when a report could not be written (the error is printed). Once an interrupt is being handled this
    // waits for the interrupt thread, which writes the reports and ends the process.
    bool write(const std::string& aborted) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (written_) return true;
            if (!interrupting_.load()) {
                std::string message;
                return writeLocked(aborted, message);
            }
        }
        waitForTheEnd();
    }

    // runnerMain's log and recorder are going away (it returns or throws).
    void detach() {
        std::lock_guard<std::mutex> lock(mutex_);
        log_ = nullptr;
        recorder_ = nullptr;
    }

    // On the interrupt thread, after an interrupt signal: stops the run (and an --isolate worker) and writes
    // the reports of what finished, unless the run had already written complete ones.
    void interrupted(int sig) {
        interrupting_.store(true);  // before the worker dies of the forwarded signal: see write()
        // Workers (and the offline compiler) get SIGINT or SIGTERM: a forwarded SIGQUIT would dump their
        // cores, and a SIGHUP means nothing more to them than "stop".
        stopIsolatedRun(sig == SIGINT ? SIGINT : SIGTERM);
        finishCompilerTempDirs(2.0);  // the offline compiler's, which the process's end would leave
        std::lock_guard<std::mutex> lock(mutex_);
        if (written_) return;
        std::string name = sig == SIGINT    ? "SIGINT"
                           : sig == SIGTERM ? "SIGTERM"
                           : sig == SIGHUP  ? "SIGHUP"
                           : sig == SIGQUIT ? "SIGQUIT"
                                            : "signal " + std::to_string(sig);
        std::string message;
        writeLocked(name, message);
        if (log_) log_->note(message);
        std::printf("\n%s\n", message.c_str());
        std::fflush(stdout);
    }

private:
    [[noreturn]] static void waitForTheEnd() {
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    }

    bool writeLocked(const std::string& aborted, std::string& message) {
        std::vector<CaseResult> results;
        if (recorder_) results = recorder_->close();
        recorder_ = nullptr;  // the recorder lives in runnerMain; this object outlives it
        RunInfo info = info_;
        info.aborted = aborted;
        if (!aborted.empty()) {
            std::set<std::string> done;
            for (const auto& r : results) done.insert(r.name);
            for (const auto& name : selected_)
                if (!done.count(name)) info.not_run.push_back(name);
        }
        message = abortMessage(info);
        written_ = true;
        bool ok = true;
        // The text is made only for a report that was asked for (a 39k-case JSON costs time).
        auto put = [&](ReportFile& file, const char* what, const auto& make_text) {
            if (!file.active()) return;
            std::string err = file.write(make_text());
            if (err.empty()) return;
            std::fprintf(stderr, "%s: cannot write %s report %s: %s\n", program_.c_str(), what,
                         file.path().c_str(), err.c_str());
            ok = false;
        };
        put(json, "JSON", [&] { return jsonReport(info, results); });
        put(junit, "JUnit", [&] { return junitReport(info, results); });
        return ok;
    }

    std::string program_;
    std::atomic<bool> interrupting_{false};
    std::mutex mutex_;  // everything below
    LineLog* log_ = nullptr;
    bool written_ = false;
    RunInfo info_;
    std::vector<std::string> selected_;
    Recorder* recorder_ = nullptr;
};

// The signals that end a run with its reports written: Ctrl-C, kill, an ssh disconnect (SIGHUP), Ctrl-\\.
inline constexpr int kInterruptSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
// These signals write the reports of what finished (RunReports::interrupted), then end the process.
void handleInterrupts(const std::shared_ptr<RunReports>& reports);
// Called as a run ends: when SIGINT/SIGTERM came, waits for the interrupt thread to end the process by that
// signal, so that a run which finishes quickly after the signal does not exit with a status of its own first.
void awaitInterruptEnd();

// What selected the cases, for the reports (with --rerun-failed, after the report's options were taken).
SelectionRecord selectionRecord(const Options& o, const std::string& manifest_sha256);

// A log that could not be written (a full disk, --log=/dev/full) fails the run: one line on stderr.
bool logWriteFailed(const std::string& program, const std::string& path, const LineLog& log);

}  // namespace cts
