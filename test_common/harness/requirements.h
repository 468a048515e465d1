// Evaluates a case's requirement tokens (CaseSpec::requires) against the probed device.
#pragma once

#include <string>
#include <vector>

#include "test_common/cl/device_info.h"
#include "test_common/harness/case.h"

namespace cts {

// Pass when every token holds; NotSupported naming the first missing thing; InternalError for a token
// the harness does not understand (a manifest bug, never the device's fault).
Outcome evaluateRequirements(const std::vector<std::string>& tokens, const DeviceInfo& device);

// "CL_R" -> CL_R, "CL_UNSIGNED_INT8" -> CL_UNSIGNED_INT8; false when unknown.
bool channelOrderFromName(const std::string& name, cl_channel_order& order);
bool channelTypeFromName(const std::string& name, cl_channel_type& type);

}  // namespace cts
