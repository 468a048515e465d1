#include "test_common/harness/launch/case_runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>

#include "test_common/cl/phase_clock.h"
#include "test_common/harness/model/requirements.h"
#include "test_common/harness/selection/selection.h"

namespace cts {
namespace {

// --dump-dir: the module and the outcome of a case that did not pass, next to whatever the family dumped.
void dumpCase(const CaseSpec& spec, const Outcome& outcome, const RunSettings& settings) {
    std::string base = settings.dump_dir + "/" + spec.name;
    if (FILE* f = std::fopen((base + ".txt").c_str(), "w")) {
        std::fprintf(f, "case: %s\nstatus: %s\nmodule: %s\nkernel: %s\n", spec.name.c_str(),
                     statusName(outcome.status), spec.module.c_str(), spec.kernel.c_str());
        for (const auto& kv : spec.params.all())
            std::fprintf(f, "param %s = %s\n", kv.first.c_str(), kv.second.text.c_str());
        std::fprintf(f, "message:\n%s\n", outcome.message.c_str());
        std::fclose(f);
    }
    if (spec.module.empty()) return;
    std::string module;  // through the path guard: a module that is a FIFO must not hang the dump
    if (!readTextFile(settings.assets_dir + "/modules/" + spec.module, &module).empty()) return;
    std::ofstream(base + ".spv", std::ios::binary) << module;
}

}  // namespace

Outcome checkCaseSupport(const CaseSpec& spec, const Registry& registry, const DeviceInfo& device,
                         bool core_only, SupportFacts* facts) {
    if (facts) *facts = SupportFacts{spec.tier, {}};
    if (!spec.load_error.empty()) return Outcome::internalError(spec.load_error);
    const Family* family = registry.family(spec.family);
    if (!family)
        return Outcome::internalError("unknown family '" + spec.family + "' (case from " +
                                      (spec.origin.empty() ? std::string("C++") : spec.origin) + ")");
    std::string bad_param = family->paramSchema().check(spec.params);
    if (!bad_param.empty())
        return Outcome::internalError("case '" + spec.name + "' (from " +
                                      (spec.origin.empty() ? std::string("C++") : spec.origin) +
                                      "): " + bad_param + " (family " + spec.family + ")");
    std::vector<VersionGap> gaps;
    Outcome req = evaluateRequirements(spec.requires, device, &gaps);
    if (req.status != Status::Pass) return req;
    if (!gaps.empty()) {
        // Below the version that promises the SPIR-V environment, the module may still build: the case runs
        // and is judged in full, with a rejected module NotSupported as for any device-specific case.
        std::string names;
        for (const auto& g : gaps)
            names += (names.empty() ? "" : ", ") + g.extension + " " + g.reportedText();
        if (core_only)
            return Outcome::notSupported(
                "device reports " + names + ", below the version " + gaps.front().needText() +
                " that promises this case's SPIR-V: it runs only as device_specific, "
                "and --tier=core leaves those out");
        if (facts) {
            facts->tier = Tier::DeviceSpecific;
            for (const auto& g : gaps) facts->version_gaps.push_back(g.extension);
        }
    }
    return family->checkSupport(spec, device);
}

CaseResult runCase(const CaseSpec& spec, const Registry& registry, DeviceUnderTest& dut,
                   const RunSettings& settings) {
    CaseResult result;
    result.name = spec.name;
    result.seed = caseSeed(spec.name, settings.seed);
    auto start = std::chrono::steady_clock::now();
    phase_clock::reset();  // the builds and launches from here on are this case's
    dut.messages.take();   // messages from earlier cases belong to them, not to this one

    Outcome outcome;
    SupportFacts facts{spec.tier, {}};
    try {
        outcome = checkCaseSupport(spec, registry, dut.info, settings.core_only, &facts);
        if (outcome.status == Status::Pass) {
            RunContext ctx{dut.info,    dut.context.get(), dut.queue.get(),     *dut.programs,
                           result.seed, settings.quick,    settings.assets_dir, settings.dump_dir,
                           spec.name,   &dut.messages};
            ctx.build_only = settings.build_only;
            if (!spec.module.empty()) {
                ctx.module_hashes[spec.module] = spec.module_hash;
                ctx.module_signatures[spec.module] = spec.module_signature;
            }
            outcome = registry.family(spec.family)->run(spec, ctx);
            // The contract: only the support phases decide NotSupported; a supported case that cannot
            // run is a harness or family bug.
            if (outcome.status == Status::NotSupported)
                outcome = Outcome::internalError(
                    "family '" + spec.family +
                    "' answered NotSupported after its support check: " + outcome.message);
        }
    } catch (const LaunchWithheld& e) {
        outcome = Outcome::pass();  // --build-only: judged up to the launch, which was not made
        outcome.message = e.what();
    } catch (const InternalError& e) {
        outcome = Outcome::internalError(e.what());
    } catch (const BuildFailure& e) {
        // The tier decides what a rejected module means: the environment promised a core module builds.
        if (facts.tier == Tier::DeviceSpecific) {
            outcome = Outcome::notSupported(
                "device-specific module not accepted by this device's compiler: " + firstErrorLine(e.log));
        } else {
            outcome = Outcome::fail(e.what());
            outcome.phase = "build";
            outcome.build_log = e.log;
        }
    } catch (const CaseFailure& e) {
        outcome = Outcome::fail(e.what());
    } catch (const std::exception& e) {
        outcome = Outcome::internalError(std::string("unexpected exception: ") + e.what());
    } catch (...) {
        outcome = Outcome::internalError("unexpected non-standard exception");
    }
    if (outcome.status != Status::Pass && outcome.status != Status::NotSupported) {
        std::string driver = dut.messages.take();
        if (!driver.empty() && outcome.message.find(driver) == std::string::npos)
            outcome.message +=
                (outcome.message.empty() ? "" : "\n") + std::string("driver messages:\n") + driver;
    }
    if (!settings.dump_dir.empty() && outcome.status != Status::Pass &&
        outcome.status != Status::NotSupported)
        dumpCase(spec, outcome, settings);
    result.status = outcome.status;
    result.message = outcome.message;
    result.picture = std::move(outcome.picture);
    result.phase = outcome.phase;
    result.build_log = outcome.build_log;
    result.tier = facts.tier;
    result.version_gaps = std::move(facts.version_gaps);
    result.duration_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const PhaseClockReading spent = phase_clock::read();
    result.phases.build_ms = spent.build_ms;
    result.phases.builds = spent.builds;
    result.phases.cache_hits = spent.cache_hits;
    result.phases.kernel_ms = spent.kernel_ms;
    result.phases.check_ms = std::max(0.0, result.duration_ms - spent.build_ms - spent.kernel_ms);
    return result;
}

}  // namespace cts
