// Execute, first part: the device under test (or the offline target), the run's header and the waivers that
// apply to it.
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "test_common/harness/device/runtime_package.h"
#include "test_common/harness/reports/version_gap.h"
#include "test_common/harness/stages/run_reports.h"
#include "test_common/harness/stages/runner_stages.h"

namespace cts {
namespace {

std::string typeName(cl_device_type t) {
    if (t & CL_DEVICE_TYPE_GPU) return "GPU";
    if (t & CL_DEVICE_TYPE_CPU) return "CPU";
    if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
    return "other";
}

void printHeader(const DeviceInfo& d, const Options& o, size_t selected, size_t total,
                 const std::string& library, const RuntimePackage& runtime) {
    std::printf("spirv_intel_cts: %zu of %zu cases selected", selected, total);
    if (o.shard_count > 1) std::printf(" (shard %u/%u)", o.shard_index, o.shard_count);
    std::printf(", seed %llu\n", static_cast<unsigned long long>(o.seed));
    if (o.quick) std::printf("quick run: not for conformance\n");
    if (o.extended) std::printf("extended run (includes extended cases): not for conformance\n");
    if (o.huge) std::printf("huge run: includes the cases tagged huge (buffers of several GiB)\n");
    if (o.build_only)
        std::printf(
            "Build-only run: every module built and its kernel queries checked; no kernel launched, "
            "no result compared\n");
    // The driver's own strings: shown escaped (printable), never obeyed by the terminal.
    std::printf("Platform:  %s (%s)\n", printable(d.platform_name).c_str(),
                printable(d.platform_version).c_str());
    std::printf("Device:    %s [%s], %s\n", printable(d.device_name).c_str(), typeName(d.type).c_str(),
                printable(d.device_version).c_str());
    std::printf("Driver:    %s\n", printable(d.driver_version).c_str());
    std::printf("Library:   %s\n", library.empty() ? "unknown" : library.c_str());
    std::printf("Runtime:   %s (%s)\n", runtime.name.empty() ? "unknown" : runtime.name.c_str(),
                runtime.source.c_str());
    std::printf("IL:        %s\n", d.ilVersionsText().c_str());
    std::string sizes;
    for (size_t s : d.sub_group_sizes) sizes += (sizes.empty() ? "" : ",") + std::to_string(s);
    std::printf("Sub-group sizes: %s\n", sizes.empty() ? "none reported" : sizes.c_str());
    std::printf("Extensions:");
    bool any = false;
    for (const auto& e : d.extensions) {
        bool relevant = e.name.rfind("cl_intel_", 0) == 0 || e.name == "cl_khr_il_program" ||
                        e.name == "cl_khr_spirv_queries" || e.name == "cl_khr_fp16" ||
                        e.name == "cl_khr_fp64";
        if (!relevant) continue;
        any = true;
        if (e.version_known)
            std::printf("\n  %s %u.%u.%u", e.name.c_str(), e.major, e.minor, e.patch);
        else
            std::printf("\n  %s (version not reported)", e.name.c_str());
    }
    std::printf("%s\n", any ? "" : " none relevant");
    if (d.image_support)
        std::printf("Images:    yes, 2D up to %zux%zu, %zu read-write formats\n", d.image2d_max_width,
                    d.image2d_max_height, d.image2d_rw_formats.size());
    else
        std::printf("Images:    no\n");
    std::fflush(stdout);
}

// The device as waivers and reports see it: the one opened, or in the offline mode the target.
const DeviceInfo& deviceOf(const RunEnvironment& env, const DeviceUnderTest& dut) {
    return env.offline ? env.offline_setup.device : dut.info;
}

}  // namespace

DeviceChoice deviceChoice(const Options& opt) {
    DeviceChoice choice;
    choice.platform = opt.platform;
    choice.device = opt.device;
    choice.device_type = opt.device_type;
    choice.platform_name = opt.platform_name;
    choice.icd_file = opt.icd_file;
    choice.icd_library = opt.icd_library;
    return choice;
}

StageResult openDeviceUnderTest(const std::string& program, const Options& opt, const RunEnvironment& env,
                                const ChosenCases& selected, ReportSinks& sinks, DeviceUnderTest& dut) {
    const bool offline = env.offline;
    const bool icd_env_from_user = env.icd_env_from_user;
    const std::string& icd_missing = env.icd_missing;
    RunReports* reports = sinks.reports.get();
    RunInfo& info = sinks.info;
    LineLog& log = sinks.log;
    const std::vector<std::string>& selected_names = selected.selected_names;
    std::string dev_err;
    try {
        if (!offline) dev_err = icd_missing.empty() ? openDevice(deviceChoice(opt), dut) : icd_missing;
    } catch (const std::exception& e) {
        dev_err = e.what();
    }
    // A device that opened but will run nothing: refused before any case (one line, no hint below).
    bool refused = false;
    if (dev_err.empty() && !offline && !opt.build_only && !opt.device_info)
        refused =
            !(dev_err = nonExecutingDriverMode([](const char* name) { return std::getenv(name); })).empty();
    if (!dev_err.empty()) {
        std::fprintf(stderr, "%s: %s\n", program.c_str(), printable(dev_err).c_str());
        if (!refused && !opt.icd_system && opt.icd_file.empty() && !icd_env_from_user && icd_missing.empty())
            std::fprintf(stderr,
                         "%s: the default is the reference device next to this program; "
                         "use --icd=system for the installed OpenCL drivers\n",
                         program.c_str());
        // The reports say that nothing ran and why, instead of keeping (or truncating) an earlier run's.
        info.errors.push_back(dev_err);
        reports->setInfo(info, selected_names);
        log.note("run aborted: no device could be opened: " + dev_err);
        reports->write("device");
        logWriteFailed(program, opt.log_file, log);
        return 1;
    }
    if (opt.device_info) {  // queries only: what the suite reads of the device, then the end of the run
        std::printf("%s\n", deviceInfoJson(dut.info).c_str());
        return 0;
    }
    return std::nullopt;
}

std::vector<Waiver> announceRun(const Options& opt, const RunEnvironment& env, const DeviceUnderTest& dut,
                                const LoadedCases& loaded, const ChosenCases& selected,
                                const std::vector<std::string>& run_errors, ReportSinks& sinks) {
    const bool offline = env.offline;
    const OfflineSetup& offline_setup = env.offline_setup;
    const DeviceInfo& device = deviceOf(env, dut);
    RunReports* reports = sinks.reports.get();
    RunInfo& info = sinks.info;
    LineLog& log = sinks.log;
    const std::vector<std::string>& selected_names = selected.selected_names;
    const std::vector<Waiver>& waivers = selected.waivers;
    info.platform = device.platform_name;
    info.device = device.device_name;
    info.driver = device.driver_version;
    info.version_gaps = deviceVersionGaps(device, loaded.registry);
    if (offline) {
        info.offline_compiler = offlineCompilerText(offline_setup);
        info.target = offline_setup.target.target;
        info.target_description = offline_setup.target.file;
        info.icd_vendors.clear();
        reports->setInfo(info, selected_names);
        std::printf("spirv_intel_cts: %zu of %zu cases selected", selected_names.size(), loaded.heads.size());
        if (opt.shard_count > 1) std::printf(" (shard %u/%u)", opt.shard_index, opt.shard_count);
        std::printf(", seed %llu\n", static_cast<unsigned long long>(opt.seed));
        std::istringstream header(offlineHeader(offline_setup));  // holds the compiler's version text
        for (std::string line; std::getline(header, line);) std::printf("%s\n", printable(line).c_str());
        std::printf("Assets:    %s\n", info.assets_dir.c_str());
    } else {
        RuntimePackage runtime = findRuntimePackage(dut.driver_library, opt.icd_file);
        info.runtime_package = runtime.name;
        reports->setInfo(info, selected_names);
        printHeader(dut.info, opt, selected_names.size(), loaded.heads.size(), dut.driver_library, runtime);
        std::printf("Assets:    %s\nICD:       %s\n", info.assets_dir.c_str(),
                    !opt.icd_file.empty()      ? ("--icd=" + opt.icd_file + ": " + opt.icd_library).c_str()
                    : info.icd_vendors.empty() ? "the system's (OCL_ICD_VENDORS unset)"
                                               : ("OCL_ICD_VENDORS=" + info.icd_vendors).c_str());
        for (const auto& silent : dut.silent_drivers)
            std::printf("           no platform from %s\n", silent.c_str());
    }
    if (opt.build_only)
        log.note("build-only run: modules built and kernel queries checked, no kernel launched");
    // Said where a person looks first: a device that reports an extension below its SPIR-V version runs
    // that extension's cases as device_specific (version_gap.h).
    for (const auto& g : info.version_gaps) {
        std::printf("Version gap: %s\n", versionGapLine(g, false).c_str());
        log.note("version gap: " + versionGapLine(g, false));
    }
    for (const auto& e : run_errors) {
        std::printf("[ INTERR ] %s\n", printable(e).c_str());
        log.note("internal error: " + e);
    }
    // Waiver entries for other devices are left out: they are neither applied nor stale here.
    std::vector<Waiver> device_waivers;
    WaiverDevice waiver_device{device.platform_name, device.device_name, device.driver_version,
                               device.vendor_id};
    for (const auto& w : waivers)
        if (waiverAppliesTo(w, waiver_device)) device_waivers.push_back(w);
    if (!opt.waiver_files.empty())
        std::printf("Waivers:   %zu of %zu entries apply to this device\n", device_waivers.size(),
                    waivers.size());
    for (const auto& w : waivers)
        if (w.every_device) {
            std::printf("%s\n", printable(everyDeviceWarning(w)).c_str());
            log.note(everyDeviceWarning(w));
        }
    if (opt.isolate && opt.timeout_is_default)
        std::printf(
            "Isolation: each case has %s (the default limit of --isolate; --timeout=SECONDS to change)\n",
            secondsText(opt.timeout_seconds).c_str());
    return device_waivers;
}

}  // namespace cts
