// Version gaps: a device that reports an extension below the version from which the extension promises its
// SPIR-V environment (Registry::promiseSpirvFrom, from the family descriptors). Intel's GPU driver reports
// cl_intel_subgroup_2d_block_io and cl_intel_subgroup_matrix_multiply_accumulate at 1.0.0 while its compiler
// accepts their SPIR-V: the cases of such an extension run as device_specific (case_runner.h, SupportFacts),
// and the run says so in its header, its summary and every report (docs/user_guide.md, "Version gaps").
#pragma once

#include <map>
#include <string>
#include <vector>

#include "test_common/cl/device_info.h"
#include "test_common/harness/model/case.h"
#include "test_common/harness/reports/report.h"

namespace cts {

// The gaps the device's reported versions make, in the order the registry's promises were made.
std::vector<VersionGapNote> deviceVersionGaps(const DeviceInfo& device, const Registry& registry);

// The counts of the results (Recorder::versionGapCounts) written into `notes`; an extension counted but not
// among them (a case's token naming a version no descriptor promises) gets a note of its own.
void countVersionGaps(std::vector<VersionGapNote>& notes, const std::map<std::string, size_t>& counts,
                      const DeviceInfo& device);

// "cl_intel_subgroup_2d_block_io 1.0.0: SPIR-V support is promised from 1.1.0; its cases run as
// device_specific" (the header: `counted` false) or "...; its 1277 cases ran as device_specific".
std::string versionGapLine(const VersionGapNote& note, bool counted);

}  // namespace cts
