// Reads <assets>/manifest.json (written by scripts/assets/build_assets.py) into CaseSpecs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "test_common/harness/model/case.h"

namespace cts {

// Version 2 added "module_hash", version 3 "tier", version 4 the module table ("modules": each module's
// kernel signatures); scripts/assets/spvgen.py MANIFEST_VERSION writes it.
inline constexpr int kManifestVersion = 4;

struct ManifestLoad {
    std::vector<CaseSpec> cases;      // entries with a usable name; a malformed one carries load_error
    std::vector<std::string> errors;  // problems affecting the whole file or entries without a name
};

ManifestLoad loadManifest(const std::string& path);

// The entries of `names` only, found by their "name" in the text, and only they are parsed: for a worker
// whose manifest has no usable case index, or whose index lacks a name (a worker reads its entries through
// the index first: WorkerEntries in stage_load.cpp). Falls back to loadManifest when it does not find every
// name with a well-formed entry.
ManifestLoad loadManifestEntries(const std::string& path, const std::vector<std::string>& names);
ManifestLoad parseManifest(const std::string& text, const std::string& path);  // path: for messages
// The same on a parsed document (the case index assembles one from the selected entries' byte ranges).
ManifestLoad parseManifestDocument(const nlohmann::json& doc, const std::string& path);

// The SHA-256 of manifest.json that scripts/assets/build_assets.py wrote beside it (<assets>/manifest.sha256,
// in sha256sum's format), so the reports can name the manifest without hashing it at start-up. Returns "" and
// the 64 lowercase hex digits, else what is wrong (a missing or ill-formed file: a broken asset build).
std::string readManifestSha256(const std::string& assets_dir, std::string* hex);

// The case as one line of JSON with the manifest's fields (name, family, module, module_hash, kernel, params
// with their JSON types, requires, tags, tier, origin): what `--list --json` prints.
std::string caseSpecJson(const CaseSpec& spec);

// Dotted lowercase name, [a-z0-9_]+ per level.
bool isValidCaseName(std::string_view name);

}  // namespace cts
