// Which library implements the platform under test, and which installed package it came from: the report
// names the runtime that was tested, not only the version text the driver gives itself.
#pragma once

#include <CL/cl.h>

#include <string>

namespace cts {

// The file of the driver library behind `platform`, found from the first entry its ICD dispatch table
// points into; "" when that is the ICD loader itself (a loader that dispatches on its own) or unknown.
std::string driverLibraryOf(cl_platform_id platform);

struct RuntimePackage {
    std::string name;    // "intel-opencl-rt 2026.2.0"; "" when unknown
    std::string source;  // where name came from (the .package file; "pip, <prefix>"), or why it is unknown
};

// The package that installed `library`: with an --icd file (icd_file != ""), the first line of its
// FILE.package beside it (packageFileFor), when there is one; else, for a library in <prefix>/lib of a
// Python venv or pip prefix, the distribution whose <prefix>/lib/python3*/site-packages/*.dist-info/RECORD
// lists the library (its METADATA name and version); else unknown.
RuntimePackage findRuntimePackage(const std::string& library, const std::string& icd_file);

}  // namespace cts
