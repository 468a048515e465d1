// Reads <assets>/manifest.json (written by scripts/build_assets.py) into CaseSpecs.
#pragma once

#include <string>
#include <vector>

#include "test_common/harness/case.h"

namespace cts {

struct ManifestLoad {
    std::vector<CaseSpec> cases;      // entries with a usable name; a malformed one carries load_error
    std::vector<std::string> errors;  // problems affecting the whole file or entries without a name
};

ManifestLoad loadManifest(const std::string& path);
ManifestLoad parseManifest(const std::string& text, const std::string& path);  // path: for messages

// Dotted lowercase name, [a-z0-9_]+ per level.
bool isValidCaseName(const std::string& name);

}  // namespace cts
