// Small text and path helpers the harness's readers share (one-line files, package records, query output).
#pragma once

#include <string>

namespace cts {

// `text` without leading and trailing characters of `blank` (default: ASCII white space).
inline std::string trimmed(const std::string& text, const std::string& blank = " \t\r\n\f\v") {
    size_t begin = text.find_first_not_of(blank);
    if (begin == std::string::npos) return "";
    return text.substr(begin, text.find_last_not_of(blank) - begin + 1);
}

// The directory part of `path` as dirname(1) gives it for paths without trailing slashes: "." without a
// slash, "/" for a file in the root.
inline std::string dirName(const std::string& path) {
    size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// The last component of `path` (all of it without a slash).
inline std::string baseName(const std::string& path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace cts
