// The JSON parser of the runner's input files (waiver files, --rerun-failed reports, target descriptions):
// nlohmann's parser, plus what it lets through silently. A key given twice in one object keeps only its last
// value there ({"waivers": [...], "waivers": []} waives nothing), so it is an error here.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace cts {

// Parses `text` into *doc. Returns "" on success, else what is wrong ("syntax error ...", "key \"k\" appears
// twice in one object") with *line the 1-based line where it is.
std::string parseJsonInput(const std::string& text, nlohmann::json* doc, size_t* line);

}  // namespace cts
