// The drivers registered with the ICD loader (.icd files in its vendors directory) that yield no platform: a
// GPU driver installed on a machine without its GPU (Debian's intel-opencl-icd on a CPU-only machine) loads
// and reports nothing, so a run on "the system's drivers" would otherwise not mention it at all.
#pragma once

#include <string>
#include <vector>

namespace cts {

struct RegisteredDriver {
    std::string icd_file;  // the .icd file
    std::string library;   // its first line
};

// The directory the loader reads .icd files from: OCL_ICD_VENDORS when it names a directory, the system's
// /etc/OpenCL/vendors when it is unset; "" when it names a file or library (one driver, no directory).
std::string vendorsDirectory(const char* ocl_icd_vendors);

// The .icd files of `dir` (sorted) with the library each names.
std::vector<RegisteredDriver> registeredDrivers(const std::string& dir);

// The drivers whose library is none of `platform_libraries` (the files behind the platforms found). A bare
// library name (no '/') matches a platform library of that file name.
std::vector<RegisteredDriver> driversWithoutPlatform(const std::vector<RegisteredDriver>& drivers,
                                                     const std::vector<std::string>& platform_libraries);

// "/etc/OpenCL/vendors/intel.icd (/usr/lib/.../libigdrcl.so) loads but reports no platform (...)", or why it
// cannot be loaded.
std::string noPlatformText(const RegisteredDriver& driver);

}  // namespace cts
