// Setting up the offline-compiler mode (--offline-compiler, --target): the compiler, the target description
// and the compiler release it describes, found before any case is selected; and the run header.
#pragma once

#include <string>
#include <vector>

#include "test_common/harness/offline/offline_compiler.h"
#include "test_common/harness/offline/target_description.h"

namespace cts {

struct OfflineSetup {
    OfflineCompiler compiler;
    TargetDescription target;
    CompilerRelease release;  // the release matching the compiler's OCL_DRIVER_VERSION
    DeviceInfo device;        // targetDeviceInfo(target, &release)
};

// --target=VALUE: a file when it holds '/' or ends in ".json", else NAME.json in the targets directory.
std::string targetDescriptionPath(const std::string& value, const std::string& targets_dir);

// Finds the compiler (`search_path`: PATH's value), reads the description and picks the release. Returns ""
// or the one line to print before exit status 2: no such compiler, a missing or malformed description, a
// compiler that does not answer its version query, or a version the description has no release for.
std::string prepareOfflineRun(const std::string& compiler_option, const std::string& target_option,
                              const std::string& targets_dir, const std::vector<std::string>& targets_tried,
                              const std::string& search_path, double query_timeout_seconds,
                              OfflineSetup& out);

// The lines after "N of M cases selected": the compiler, its versions, the target and what it reports.
std::string offlineHeader(const OfflineSetup& setup);

// "ocloc 22.43.24595 (NEO revision 24595), IGC 1.0.12504 (/usr/bin/ocloc)": the report's compiler field.
std::string offlineCompilerText(const OfflineSetup& setup);

}  // namespace cts
