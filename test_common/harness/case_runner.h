// Runs one case through its phases: manifest checks -> the family's parameter schema -> requirement tokens ->
// Family::checkSupport -> Family::run, turning exceptions into statuses.
#pragma once

#include <string>

#include "test_common/harness/case.h"
#include "test_common/harness/device_under_test.h"
#include "test_common/harness/report.h"

namespace cts {

struct RunSettings {
    uint64_t seed = 0;
    bool quick = false;
    std::string assets_dir, dump_dir;
};

CaseResult runCase(const CaseSpec& spec, const Registry& registry, DeviceUnderTest& dut,
                   const RunSettings& settings);

// Support phases only (no device objects needed): NotSupported/InternalError, or Pass when the case may run.
Outcome checkCaseSupport(const CaseSpec& spec, const Registry& registry, const DeviceInfo& device);

}  // namespace cts
