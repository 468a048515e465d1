// The offline-compiler mode's verdict on one case (--offline-compiler, --target): instead of running it, the
// case's module is built with Intel's offline compiler for the target, and the outcome is recorded as an
// online build would be. Requirements are evaluated against the target description (targetDeviceInfo).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "test_common/cl/device_info.h"
#include "test_common/harness/model/case.h"
#include "test_common/harness/offline/offline_compiler.h"
#include "test_common/harness/reports/report.h"

namespace cts {

class OfflineJudge {
public:
    // `device`: what the target reports (targetDeviceInfo); `options`: the program-build options the online
    // path gives clBuildProgram for a module; `timeout_seconds`: per compile.
    OfflineJudge(const Registry& registry, OfflineCompiler compiler, DeviceInfo device, std::string target,
                 std::string assets_dir, std::string options, double timeout_seconds)
        : registry_(registry),
          compiler_(std::move(compiler)),
          device_(std::move(device)),
          target_(std::move(target)),
          assets_dir_(std::move(assets_dir)),
          options_(std::move(options)),
          timeout_seconds_(timeout_seconds) {}

    // Pass: the module built. Fail (phase "build"): a core case's module was rejected. NotSupported: the
    // target lacks a requirement, a device-specific module was rejected, or the case runs no module. Crash /
    // Timeout: the compiler died or hung on the module. InternalError: the module file is missing or corrupt.
    // `core_only` (--tier=core): a case a version gap makes device_specific is NotSupported.
    CaseResult judge(const CaseSpec& spec, uint64_t run_seed, bool core_only = false);

    // Compiles the modules of the supported cases among `cases` in batches (compileModules), `jobs` batches
    // at a time, so that judge() finds them done. Without it, judge() compiles each module when its first
    // case comes.
    void compileAhead(const std::vector<const CaseSpec*>& cases, unsigned jobs, bool core_only);

    size_t compiles() const { return cache_.size(); }

private:
    const CompileResult& compile(const CaseSpec& spec);
    CompileResult compileFile(const CaseSpec& spec) const;
    std::string modulePath(const CaseSpec& spec) const;

    const Registry& registry_;
    OfflineCompiler compiler_;
    DeviceInfo device_;
    std::string target_, assets_dir_, options_;
    double timeout_seconds_;
    std::map<std::string, CompileResult> cache_;  // module path -> its one compile
    std::set<std::string> charged_;               // modules whose compile a case's build_ms holds
};

}  // namespace cts
