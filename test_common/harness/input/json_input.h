// The JSON parser of the runner's input files (waiver files, --rerun-failed reports, target descriptions):
// nlohmann's parser, plus what it lets through silently. A key given twice in one object keeps only its last
// value there ({"waivers": [...], "waivers": []} waives nothing), so it is an error here. The files are read
// through the path guard (path_guard.h) and their errors name the file and line one way.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "test_common/harness/input/path_guard.h"

namespace cts {

// Parses `text` into *doc. Returns "" on success, else what is wrong ("syntax error ...", "key \"k\" appears
// twice in one object") with *line the 1-based line where it is.
std::string parseJsonInput(const std::string& text, nlohmann::json* doc, size_t* line);

// Parses the text of the input file `file` (hand-edited: waiver files, target descriptions) into *doc.
// Returns "" or one line naming the file and line: "FILE:LINE: not valid JSON: syntax error ...",
// "FILE:LINE: not valid JSON: number overflow ..." or "FILE:LINE: key \"k\" appears twice in one object ...".
std::string parseJsonFile(const std::string& text, const std::string& file, nlohmann::json* doc);

// An input file read whole and parsed: its text too, for callers that hash it or find lines in it.
struct JsonFile {
    std::string text;
    nlohmann::json doc;
};

// Reads `path` through the path guard (readTextFile: a regular file of at most max_bytes) and parses it
// (parseJsonFile). Returns "" or one line: readTextFile's "cannot read PATH: why", or parseJsonFile's.
std::string readJsonFile(const std::string& path, JsonFile* out, size_t max_bytes = kMaxInputFileBytes);

// The offset of the '"' that closes the JSON string opening at text[open] ('"'), past its escapes;
// text.size() when it is not closed. For the scans of text nlohmann has accepted that find where something is
// (nlohmann keeps no offsets): a bracket or comma inside a string is no structure.
size_t jsonStringEnd(const std::string& text, size_t open);

}  // namespace cts
