// The device under test and the objects every case shares: one context (with the driver-message sink as
// its pfn_notify), one in-order queue, and the program cache.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "test_common/cl/device_info.h"
#include "test_common/cl/driver_messages.h"
#include "test_common/cl/program_cache.h"
#include "test_common/cl/wrappers.h"
#include "test_common/harness/input/env_lookup.h"

namespace cts {

struct DeviceUnderTest {
    DriverMessages messages;  // declared first: outlives the context that reports into it
    DeviceInfo info;
    ContextHandle context;
    QueueHandle queue;
    std::unique_ptr<ProgramCache> programs;  // declared last: its programs go before the context
    int platform_index = 0, device_index = 0;
    std::string driver_library;  // the library behind the platform (driverLibraryOf); "" when unknown
    // The drivers registered in the loader's vendors directory that yielded no platform (noPlatformText
    // each), for the header: "the system's drivers" must not hide one that is installed but silent.
    std::vector<std::string> silent_drivers;
};

// The platform and device the command line names (--platform, --device, --device-type, --platform-name,
// --icd): -1 / "" = not given (defaults: platform 0, device 0, type "default").
struct DeviceChoice {
    int platform = -1, device = -1;
    std::string device_type, platform_name;
    std::string icd_file, icd_library;  // --icd=FILE.icd and the library it names; "" = not given
};

// Picks the platform and device the choice names and probes it. Returns "" or a message for the user
// (no platform, no platform of that name, index out of range, probe failure).
std::string openDevice(const DeviceChoice& options, DeviceUnderTest& dut);

// Maps a --device-type / CL_DEVICE_TYPE value ("gpu", "CL_DEVICE_TYPE_GPU", ...) to a cl_device_type.
// Returns false for an unknown value.
bool parseDeviceType(const std::string& text, unsigned long long& type);

// "" unless the environment puts Intel's compute-runtime in a mode that executes no kernel: its debug keys
// read (NEOReadDebugKeys=1) with SetCommandStreamReceiver=1, the AUB command stream receiver, which builds
// and answers queries for a ProductFamilyOverride device without a GPU but never runs what is enqueued
// (docs/intel_gpu_nohw.md). Then the reason a run that is not --build-only is refused, in one line.
std::string nonExecutingDriverMode(const EnvLookup& env);

// --device-info: every field of the probe (DeviceInfo) as one JSON object, the extensions with their versions
// ("" when CL_DEVICE_EXTENSIONS_WITH_VERSION does not give one), in the device's order.
std::string deviceInfoJson(const DeviceInfo& d);

}  // namespace cts
