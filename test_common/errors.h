// The error types a case may throw, shared by the OpenCL helpers (test_common/cl) and the case runner
// (test_common/harness). It includes nothing of either, so the two layers stay free of an include cycle:
// harness includes cl, cl includes only this header.
#pragma once

#include <stdexcept>
#include <string>

namespace cts {

// Thrown anywhere inside a case for a harness-side problem: missing or corrupt asset, bad manifest
// parameter, CL call failing outside the device-under-test's responsibility. Recorded as InternalError.
struct InternalError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Thrown inside Family::run for a device-side failure that ends the case at once (a CL error from an
// enqueue, a build failure). Recorded as Fail with the message.
struct CaseFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Thrown by createKernel when the device's compiler rejects a module. The case runner decides by the case's
// tier: Fail in phase "build" (core) or NotSupported with the first error line (device_specific).
struct BuildFailure : CaseFailure {
    BuildFailure(const std::string& what, std::string build_log)
        : CaseFailure(what), log(std::move(build_log)) {}
    std::string log;
};

// Thrown by runNDRange in a --build-only run instead of launching: the case was judged up to its launch (the
// module built, its kernel created and its kernel queries right; build_only_launch.h). The case runner
// records Pass with the message, which says what was checked.
struct LaunchWithheld : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace cts
