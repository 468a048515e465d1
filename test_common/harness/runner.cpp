#include "test_common/harness/runner.h"

#include <cstdio>
#include <cstdlib>

#include "test_common/harness/stages/run_reports.h"
#include "test_common/harness/stages/runner_stages.h"

namespace cts {

// A run is a sequence of stages (runner_stages.h; docs/architecture.md, "Runner stages"). Each returns an
// exit status to end the run early, or nothing to go on.
int runnerMain(int argc, char** argv, const std::vector<RegisterFamilies>& families) {
    RunState s(argc, argv);
    if (StageResult exit = parseCommandLine(s.program, argc, argv, s.opt)) return *exit;
    if (StageResult exit = prepareEnvironment(s.program, s.opt, s.env)) return *exit;
    if (StageResult exit = loadCases(s.program, s.env, families, s.opt, s.loaded, s.run_errors)) return *exit;
    if (s.opt.worker) return runWorker(s.opt, s.env, s.loaded);
    if (StageResult exit = chooseCases(s.program, s.opt, s.env, s.run_errors, s.loaded, s.selected))
        return *exit;
    if (StageResult exit =
            openReportSinks(s.program, argc, argv, s.opt, s.env, s.loaded, s.selected, s.run_errors, s.sinks))
        return *exit;
    if (StageResult exit = openDeviceUnderTest(s.program, s.opt, s.env, s.selected, s.sinks, s.dut))
        return *exit;
    s.device_waivers = announceRun(s.opt, s.env, s.dut, s.loaded, s.selected, s.run_errors, s.sinks);
    executeCases(s.program, s.opt, s.env, s.dut, s.device_waivers, s.loaded, s.selected, s.sinks, s.executed);
    int status = verdict(s.program, s.opt, s.env, s.dut, s.loaded, s.selected, s.device_waivers, s.executed,
                         s.run_errors, s.sinks);
    awaitInterruptEnd();  // an interrupted run ends by its signal, not by this status
    // A case given up at its --timeout in this process still runs on its thread, on the device and the
    // registry of `s`: returning would destroy them (and the driver's globals) under it.
    if (s.executed.aborted) {
        std::fflush(nullptr);
        std::_Exit(status);
    }
    return status;
}

}  // namespace cts
