// Evaluates a case's requirement tokens (CaseSpec::requires) against the probed device.
#pragma once

#include <string>
#include <vector>

#include "test_common/cl/device_info.h"
#include "test_common/harness/model/case.h"

namespace cts {

// An ext=NAME@M.m token that the device meets in name only: it reports NAME, with a version, below M.m. The
// token names the extension version whose SPIR-V environment the case relies on; below it the device has
// not promised the case's module, but its compiler may accept it (docs/user_guide.md, "Version gaps").
struct VersionGap {
    std::string extension;
    uint32_t reported_major = 0, reported_minor = 0, reported_patch = 0;
    uint32_t need_major = 0, need_minor = 0;
    std::string reportedText() const;  // "1.0.0"
    std::string needText() const;      // "1.1.0"
};

// Pass when every token holds; NotSupported naming the first missing thing; InternalError for a token
// the harness does not understand (a manifest bug, never the device's fault). With `gaps`, a version token
// the device meets in name only is not a NotSupported: it is added to *gaps and the evaluation goes on.
Outcome evaluateRequirements(const std::vector<std::string>& tokens, const DeviceInfo& device,
                             std::vector<VersionGap>* gaps = nullptr);

// "CL_R" -> CL_R, "CL_UNSIGNED_INT8" -> CL_UNSIGNED_INT8; false when unknown.
bool channelOrderFromName(const std::string& name, cl_channel_order& order);
bool channelTypeFromName(const std::string& name, cl_channel_type& type);

}  // namespace cts
