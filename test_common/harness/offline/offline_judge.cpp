#include "test_common/harness/offline/offline_judge.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <set>
#include <thread>

#include "test_common/cl/program_cache.h"
#include "test_common/harness/launch/case_runner.h"
#include "test_common/harness/selection/selection.h"

namespace cts {

std::string OfflineJudge::modulePath(const CaseSpec& spec) const {
    return assets_dir_ + "/modules/" + spec.module;
}

CompileResult OfflineJudge::compileFile(const CaseSpec& spec) const {
    std::string path = modulePath(spec);
    CompileResult result;
    try {
        // The file the manifest hashed, as the online path checks it before a build.
        ProgramCache::readSpirvFile(path, spec.module_hash);
        result = compileModule(compiler_, path, target_, options_, timeout_seconds_);
    } catch (const InternalError& e) {
        result.kind = CompileResult::Kind::NotRun;
        result.log = e.what();
    }
    return result;
}

const CompileResult& OfflineJudge::compile(const CaseSpec& spec) {
    auto found = cache_.find(spec.module);
    if (found != cache_.end()) return found->second;
    return cache_.emplace(spec.module, compileFile(spec)).first->second;
}

void OfflineJudge::compileAhead(const std::vector<const CaseSpec*>& cases, unsigned jobs, bool core_only) {
    // The first supported case of each module not compiled yet, in selection order.
    std::vector<const CaseSpec*> todo;
    std::set<std::string> seen;
    for (const CaseSpec* c : cases) {
        if (c->module.empty() || cache_.count(c->module) || seen.count(c->module)) continue;
        try {
            if (checkCaseSupport(*c, registry_, device_, core_only).status != Status::Pass) continue;
        } catch (const std::exception&) {
            continue;  // judge() reports it
        }
        seen.insert(c->module);
        todo.push_back(c);
    }
    // Batches of modules, each compiled by one compiler process (compileModules): about four per thread so
    // that a slow batch does not leave the others idle, at most 32 modules each.
    const size_t threads = std::min<size_t>(std::max(1u, jobs), std::max<size_t>(todo.size(), 1));
    const size_t per_batch = std::clamp<size_t>((todo.size() + 4 * threads - 1) / (4 * threads), 1, 32);
    std::vector<CompileResult> done(todo.size());
    std::atomic<size_t> next{0};
    auto work = [&]() {
        for (size_t first; (first = next.fetch_add(per_batch)) < todo.size();) {
            const size_t last = std::min(todo.size(), first + per_batch);
            std::vector<std::string> paths;
            std::vector<size_t> index;
            for (size_t i = first; i < last; ++i) {
                try {
                    // The file the manifest hashed, as the online path checks it before a build.
                    ProgramCache::readSpirvFile(modulePath(*todo[i]), todo[i]->module_hash);
                    paths.push_back(modulePath(*todo[i]));
                    index.push_back(i);
                } catch (const InternalError& e) {
                    done[i].kind = CompileResult::Kind::NotRun;
                    done[i].log = e.what();
                }
            }
            std::vector<CompileResult> built =
                compileModules(compiler_, paths, target_, options_, timeout_seconds_);
            for (size_t k = 0; k < index.size(); ++k) done[index[k]] = std::move(built[k]);
        }
    };
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    for (size_t i = 0; i < todo.size(); ++i) cache_.emplace(todo[i]->module, std::move(done[i]));
}

CaseResult OfflineJudge::judge(const CaseSpec& spec, uint64_t run_seed, bool core_only) {
    CaseResult r;
    r.name = spec.name;
    r.seed = caseSeed(spec.name, run_seed);
    auto start = std::chrono::steady_clock::now();
    SupportFacts facts{spec.tier, {}};
    Outcome outcome;
    try {
        outcome = checkCaseSupport(spec, registry_, device_, core_only, &facts);
    } catch (const std::exception& e) {
        outcome = Outcome::internalError(e.what());
    }
    r.tier = facts.tier;
    r.version_gaps = facts.version_gaps;
    if (outcome.status == Status::Pass && spec.module.empty())
        outcome = Outcome::notSupported("runs no module: nothing to compile");
    if (outcome.status == Status::Pass) {
        const CompileResult& c = compile(spec);
        // The compile is the build phase of the first case of its module, a cache hit for the others.
        if (charged_.insert(spec.module).second) {
            r.phases.build_ms = c.seconds * 1000;
            r.phases.builds = 1;
        } else {
            r.phases.cache_hits = 1;
        }
        const std::string what = spec.module + " for " + target_;
        switch (c.kind) {
            case CompileResult::Kind::Built: break;
            case CompileResult::Kind::Rejected:
                // The tier decides, as for an online build (case_runner.cpp).
                if (facts.tier == Tier::DeviceSpecific) {
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
    // compileAhead ran most compiles before this case started: the rest is what the judging took.
    r.phases.check_ms = std::max(0.0, r.duration_ms - r.phases.build_ms);
    return r;
}

}  // namespace cts
