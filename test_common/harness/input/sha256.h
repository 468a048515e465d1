#pragma once
// SHA-256 (FIPS 180-4) of a byte string or a file, as lower-case hex: the runner checks that manifest.json is
// the manifest its manifest.sha256 names before a report repeats that hash (stage_load.cpp,
// stage_verdict.cpp).

#include <cstddef>
#include <string>

namespace cts {

std::string sha256Hex(const void* data, size_t size);

// The hash of the file at `path`, read through the path guard (a regular file of at most `max_bytes`), or ""
// with *error set.
std::string sha256OfFile(const std::string& path, size_t max_bytes, std::string* error);

}  // namespace cts
