// A target description (test_conformance/targets/NAME.json): what a real device class reports, written from
// public sources, so that the offline-compiler mode (--offline-compiler, --target) can evaluate a case's
// requirement tokens without a device. The format is in docs/offline_compiler.md.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "test_common/cl/device_info.h"

namespace cts {

// What one compiler release reports for the target, where it differs from the hardware-level description:
// the extensions (with versions) and SPIR-V versions a driver built on that release reports. The offline
// mode judges modules the way a device running that release would see them.
struct CompilerRelease {
    std::string igc_version;           // the key in "compilers", e.g. "1.0.12504"
    std::string ocloc_driver_version;  // what `ocloc query OCL_DRIVER_VERSION` prints for this release
    bool has_extensions = false;       // "extensions" given: replaces the description's list
    std::vector<ExtensionVersion> extensions;
    std::vector<std::string> il_versions;       // empty: the description's
    std::vector<std::string> spirv_extensions;  // the SPIR-V extensions the release's consumer accepts
    // CL_DEVICE_SPIRV_EXTENSIONS_KHR as a driver built on this release reports it (cl_khr_spirv_queries):
    // what the runtime says, which need not be what the consumer accepts (spirv_extensions).
    bool has_reported_spirv_extensions = false;
    std::vector<std::string> reported_spirv_extensions;
    std::vector<std::string> notes;  // what the release rejects, for the report and the docs
};

struct TargetDescription {
    std::string file;         // where it was read from
    std::string target;       // the name given to the offline compiler (ocloc -device NAME)
    std::string device_name;  // a product of the class, e.g. "Intel(R) Arc(TM) A770 Graphics"
    uint32_t vendor_id = 0;
    std::vector<size_t> sub_group_sizes;
    bool fp16 = false, fp64 = false, int64 = true;
    bool images = false;
    size_t image2d_max_width = 0, image2d_max_height = 0;
    std::vector<ImageFormat> image2d_rw_formats;
    std::vector<std::string> il_versions;  // "SPIR-V_1.2"
    std::vector<ExtensionVersion> extensions;
    // The OpenCL extensions the class reports that no case asks for: listed so that a reader sees the whole
    // list, never compared with a reference-device profile.
    std::vector<std::string> other_extensions;
    cl_ulong max_mem_alloc_size = 0, global_mem_size = 0;  // 0: not described (max_alloc= cases unsupported)
    std::vector<CompilerRelease> compilers;                // none for a runtime's device
    // "runtime": the OpenCL runtime (and version) whose device this describes from its own report; such a
    // description has no compiler releases and is not an offline-compiler target.
    std::string runtime;
};

// Parses the text of a description; `file` names it in messages. Returns "" or "FILE: what is wrong".
std::string parseTargetDescription(const std::string& text, const std::string& file, TargetDescription& out);
// Reads and parses a file through the path guard (readJsonFile: "cannot read FILE: why" when it cannot be
// read, "FILE:LINE: not valid JSON: ..." when it is no JSON).
std::string readTargetDescription(const std::string& path, TargetDescription& out);

// The compiler release whose ocloc_driver_version is `ocloc_driver_version`; null when none is.
const CompilerRelease* findCompilerRelease(const TargetDescription& target,
                                           const std::string& ocloc_driver_version);

// The device the requirement tokens are evaluated against: the description, with the release's extensions
// and SPIR-V versions when a release is given. Platform "ocloc", device name the target, driver version the
// IGC version: what waiver entries match (docs/offline_compiler.md).
DeviceInfo targetDeviceInfo(const TargetDescription& target, const CompilerRelease* release);

}  // namespace cts
