#include "test_common/harness/offline_judge.h"

#include <chrono>

#include "test_common/cl/program_cache.h"
#include "test_common/harness/case_runner.h"
#include "test_common/harness/selection.h"

namespace cts {

const CompileResult& OfflineJudge::compile(const CaseSpec& spec) {
    auto found = cache_.find(spec.module);
    if (found != cache_.end()) return found->second;
    std::string path = assets_dir_ + "/modules/" + spec.module;
    CompileResult result;
    try {
        // The file the manifest hashed, as the online path checks it before a build.
        ProgramCache::readSpirvFile(path, spec.module_hash);
        result = compileModule(compiler_, path, target_, options_, timeout_seconds_);
    } catch (const InternalError& e) {
        result.kind = CompileResult::Kind::NotRun;
        result.log = e.what();
    }
    return cache_.emplace(spec.module, std::move(result)).first->second;
}

CaseResult OfflineJudge::judge(const CaseSpec& spec, uint64_t run_seed) {
    CaseResult r;
    r.name = spec.name;
    r.seed = caseSeed(spec.name, run_seed);
    r.tier = spec.tier;
    auto start = std::chrono::steady_clock::now();
    Outcome outcome = checkCaseSupport(spec, registry_, device_);
    if (outcome.status == Status::Pass && spec.module.empty())
        outcome = Outcome::notSupported("runs no module: nothing to compile");
    if (outcome.status == Status::Pass) {
        const CompileResult& c = compile(spec);
        const std::string what = spec.module + " for " + target_;
        switch (c.kind) {
            case CompileResult::Kind::Built: break;
            case CompileResult::Kind::Rejected:
                // The tier decides, as for an online build (case_runner.cpp).
                if (spec.tier == Tier::DeviceSpecific) {
                    outcome = Outcome::notSupported(
                        "device-specific module not accepted by this device's compiler: " +
                        firstErrorLine(c.log));
                } else {
                    outcome = Outcome::fail("build of " + what + " failed (ocloc exit status " +
                                            std::to_string(c.exit_status) + "): " + firstErrorLine(c.log));
                    outcome.phase = "build";
                    // ocloc names the command in its log when a build fails; say it when it does not.
                    outcome.build_log =
                        c.log.find(c.command) == std::string::npos ? c.command + "\n" + c.log : c.log;
                }
                break;
            case CompileResult::Kind::Crashed:
                outcome = Outcome::make(
                    Status::Crash, c.signal
                                       ? "ocloc ended by " + signalText(c.signal) + " while building " + what
                                       : "ocloc exited 0 without writing a binary for " + what);
                outcome.message += "\ncommand: " + c.command + (c.log.empty() ? "" : "\noutput:\n" + c.log);
                break;
            case CompileResult::Kind::TimedOut:
                outcome = Outcome::make(Status::Timeout, "ocloc still building " + what + " after " +
                                                             secondsText(timeout_seconds_) +
                                                             " (killed)\ncommand: " + c.command);
                break;
            case CompileResult::Kind::NotRun:
                outcome = Outcome::internalError(c.command.empty() ? c.log : c.command + ": " + c.log);
                break;
        }
    }
    r.status = outcome.status;
    r.message = outcome.message;
    r.phase = outcome.phase;
    r.build_log = outcome.build_log;
    r.duration_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return r;
}

}  // namespace cts
