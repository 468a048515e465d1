// Runs one case through its phases: manifest checks -> the family's parameter schema -> requirement tokens ->
// Family::checkSupport -> Family::run, turning exceptions into statuses.
#pragma once

#include <string>

#include "test_common/harness/device/device_under_test.h"
#include "test_common/harness/model/case.h"
#include "test_common/harness/reports/report.h"

namespace cts {

struct RunSettings {
    uint64_t seed = 0;
    bool quick = false;
    std::string assets_dir, dump_dir;
    bool core_only = false;   // --tier=core: a case a version gap makes device_specific is NotSupported
    bool build_only = false;  // --build-only: judged up to the launch, never launched (build_only_launch.h)
};

CaseResult runCase(const CaseSpec& spec, const Registry& registry, DeviceUnderTest& dut,
                   const RunSettings& settings);

// What the support phases decide beside the outcome: the tier the case runs at, which is device_specific
// when the device reports an extension the case needs below the version its token names (a version gap).
struct SupportFacts {
    Tier tier = Tier::Core;
    std::vector<std::string> version_gaps;  // the extensions of those tokens
};

// Support phases only (no device objects needed): NotSupported/InternalError, or Pass when the case may run.
// `core_only` (--tier=core): a case that a version gap makes device_specific is NotSupported.
Outcome checkCaseSupport(const CaseSpec& spec, const Registry& registry, const DeviceInfo& device,
                         bool core_only = false, SupportFacts* facts = nullptr);

}  // namespace cts
