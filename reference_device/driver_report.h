// How the reference device reports itself: as the extension specs describe a profile ("spec", the default) or
// as a release of Intel's compute-runtime reports the same device class (REFDEV_REPORT_AS=neo-26.27). Only
// the answers to the device queries change: extension versions, CL_DEVICE_SPIRV_EXTENSIONS_KHR and
// CL_DEVICE_SPIRV_CAPABILITIES_KHR. What the device builds and runs is always the profile's (the SPIR-V
// loader accepts the profile's spirv_extensions and capabilities, as Intel's compiler accepts 2D block IO and
// MMA modules whatever the runtime's queries list).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "reference_device/profile.h"

namespace refdev {

struct DriverReport {
    std::string name;  // the REFDEV_REPORT_AS value: "spec", "neo-26.27"
    // Appended to CL_DEVICE_NAME (empty for "spec"), so that clinfo and the runner's header show it.
    std::string device_name_suffix;
    bool as_profile = true;  // "spec": every answer is the profile's own

    // The rest describes a driver release (as_profile false).
    // CL_DEVICE_EXTENSIONS_WITH_VERSION: every extension at default_version, but for the named exceptions.
    uint32_t default_major = 1, default_minor = 0, default_patch = 0;
    std::vector<ExtensionEntry> version_exceptions;
    // CL_DEVICE_SPIRV_EXTENSIONS_KHR: for each OpenCL extension the device reports, the SPIR-V extension the
    // release lists with it, in the release's order ({OpenCL extension, SPIR-V extension}).
    std::vector<std::pair<std::string, std::string>> spirv_extension_of;
    // CL_DEVICE_SPIRV_CAPABILITIES_KHR: the profile's capabilities that the release can list at all.
    std::vector<uint32_t> listable_capabilities;
};

// All reports, "spec" first.
const std::vector<DriverReport>& allDriverReports();
const DriverReport& driverReport(const std::string& name);  // a name of allDriverReports(); else "spec"

// From REFDEV_REPORT_AS (unset or empty: "spec"). Unknown value: returns nullptr and sets *error to a message
// listing the valid values.
const DriverReport* driverReportFromEnv(std::string* error);

// What a device with this profile reports under this report.
std::vector<ExtensionEntry> reportedExtensions(const Profile& profile, const DriverReport& report);
std::vector<std::string> reportedSpirvExtensions(const Profile& profile, const DriverReport& report);
std::vector<uint32_t> reportedSpirvCapabilities(const Profile& profile, const DriverReport& report);
std::string reportedDeviceName(const Profile& profile, const DriverReport& report);

}  // namespace refdev
