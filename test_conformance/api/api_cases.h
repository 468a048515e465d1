// Pieces shared by the api.* case files.
#pragma once

#include <cstdint>
#include <vector>

#include "test_common/harness/model/case.h"

namespace cts {

// NotSupported unless the device reports at least one of the four gating OpenCL extensions.
Outcome apiNeedAnyGatingExtension(const CaseSpec& spec, const DeviceInfo& device);

void registerKernelSubGroupQueries(Registry& registry);
void registerMmaQueries(Registry& registry);  // api.mma.*

// The module api.sub_group_sizes.consistent_with_kernel_queries builds (exposed for its unit test).
std::vector<uint32_t> apiRequiredSizeModuleForTest(uint32_t size, bool physical64);

}  // namespace cts
