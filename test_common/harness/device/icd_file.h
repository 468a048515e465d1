// --icd=FILE.icd: the one driver library an .icd file names, checked before anything runs.
#pragma once

#include <string>

namespace cts {

struct IcdFile {
    std::string path;     // the .icd file, absolute
    std::string library;  // its first line, trimmed; made absolute when it holds a '/'
};

// Reads `path` as an ICD loader reads an .icd file: the first line names the library. Returns "" or what
// is wrong, on one line without the path: the file is missing, unreadable, a directory, empty, a shared
// library rather than an .icd file, or names a library path that does not exist. A bare library name (no '/')
// is left to the dynamic linker's search, as the loaders do, and cannot be checked here.
std::string readIcdFile(const std::string& path, IcdFile& out);

// The runtime package file the suite's install scripts write beside an .icd file: FILE.icd ->
// FILE.package (a name without ".icd" gets ".package" appended).
std::string packageFileFor(const std::string& icd_path);

}  // namespace cts
