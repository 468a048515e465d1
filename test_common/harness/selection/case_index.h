// Reads <assets>/manifest.index, the case index scripts/assets/build_assets.py writes beside manifest.json
// (docs/assets.md, "The case index"): every case's name, tier, tags, module and family with the byte range of
// its entry in the manifest, so a run selects on the index, plans a --jobs run from it, and parses only the
// entries it selected (a --jobs run: each worker the entries of its own batches).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "test_common/harness/model/case.h"
#include "test_common/harness/selection/manifest.h"

namespace cts {

inline constexpr int kCaseIndexVersion = 2;
inline constexpr size_t kNoModule = static_cast<size_t>(-1);

struct ByteRange {
    size_t offset = 0, length = 0;
};

struct IndexedCase {
    std::string_view name;  // views into CaseIndex::text
    std::string_view tags;  // comma-separated, "" for none
    Tier tier = Tier::Core;
    ByteRange entry;            // the case's object in manifest.json
    size_t module = kNoModule;  // its module: a position in CaseIndex::modules, kNoModule for none
    std::string_view family;    // "" when the entry has none the index could hold
};

struct IndexedModule {
    std::string_view path;
    ByteRange entry;  // `"<path>": {...}` in the manifest's module table
};

struct CaseIndex {
    std::string text;                    // the index file; the views below point into it
    std::string manifest_path;           // <assets>/manifest.json
    std::vector<IndexedModule> modules;  // sorted by path
    std::vector<IndexedCase> cases;      // sorted by name, names unique
};

// Whether <assets>/manifest.index exists (in any form: a broken one is then an error, not a fallback).
bool hasCaseIndex(const std::string& assets_dir);

// Reads and checks <assets>/manifest.index against manifest.json (its size) and manifest.sha256 (the hash
// the index records): "" or one line saying what is wrong (missing, corrupt, truncated, stale).
std::string readCaseIndex(const std::string& assets_dir, const std::string& manifest_sha256, CaseIndex* out);
// The same checks on index text already read (for tests); manifest_bytes is the manifest's size.
std::string parseCaseIndex(std::string text, size_t manifest_bytes, const std::string& manifest_sha256,
                           CaseIndex* out);

// The manifest entries of `chosen` (cases of `index`), each read from its byte range with its module's
// table entry and checked like a whole-manifest load: a range that does not hold the named case (a stale
// or corrupt index) is an error of the whole load, a malformed entry a case with load_error. With
// `per_case` (a worker's batch), such a range is instead that case's load_error, so the case is an
// InternalError and the batch's other cases still run; the result then has one case per `chosen`, in order.
ManifestLoad loadIndexedCases(const CaseIndex& index, const std::vector<const IndexedCase*>& chosen,
                              bool per_case);
ManifestLoad loadIndexedCases(const CaseIndex& index, const std::vector<const IndexedCase*>& chosen);

}  // namespace cts
