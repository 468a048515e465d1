// manifest_check ASSETS_DIR: the whole-manifest validation a run no longer does at start-up (it reads the
// case index and parses only the entries it selected). Parses all of manifest.json as the runner reads it,
// refuses any malformed entry, and checks that manifest.index lists exactly its cases (names, tiers, tags,
// modules and families: what a --jobs run plans from) with byte ranges that hold them. Run by the build
// (target assets_check) and by CTest assets.manifest_check.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "test_common/harness/selection/case_index.h"
#include "test_common/harness/selection/manifest.h"

namespace {

int fail(const std::vector<std::string>& errors) {
    size_t shown = 0;
    for (const auto& e : errors)
        if (shown++ < 20) std::fprintf(stderr, "manifest_check: error: %s\n", e.c_str());
    if (errors.size() > 20) std::fprintf(stderr, "manifest_check: ... %zu errors in all\n", errors.size());
    return 1;
}

std::string joinedTags(const cts::CaseSpec& c) {
    std::string tags;
    for (const auto& t : c.tags) tags += (tags.empty() ? "" : ",") + t;
    return tags;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr,
                     "usage: manifest_check ASSETS_DIR (holding manifest.json, .sha256 and .index)\n");
        return 2;
    }
    const std::string assets = argv[1];
    std::vector<std::string> errors;
    cts::ManifestLoad whole = cts::loadManifest(assets + "/manifest.json");
    errors = whole.errors;
    for (const auto& c : whole.cases)
        if (!c.load_error.empty()) errors.push_back(c.load_error);
    std::string sha;
    if (std::string e = cts::readManifestSha256(assets, &sha); !e.empty()) errors.push_back(e);
    if (!errors.empty()) return fail(errors);
    cts::CaseIndex index;
    if (std::string e = cts::readCaseIndex(assets, sha, &index); !e.empty()) return fail({e});
    // The manifest lists its cases sorted by name, as the index does.
    if (index.cases.size() != whole.cases.size())
        errors.push_back("manifest.index lists " + std::to_string(index.cases.size()) +
                         " cases, manifest.json " + std::to_string(whole.cases.size()));
    std::vector<const cts::IndexedCase*> all;
    for (size_t i = 0; i < index.cases.size() && i < whole.cases.size(); ++i) {
        const cts::IndexedCase& x = index.cases[i];
        const cts::CaseSpec& c = whole.cases[i];
        const std::string_view module = x.module == cts::kNoModule ? "" : index.modules[x.module].path;
        if (x.name != c.name || x.tier != c.tier || x.tags != joinedTags(c) || module != c.module ||
            x.family != c.family)
            errors.push_back("manifest.index case " + std::to_string(i + 1) + " (" + std::string(x.name) +
                             ") is not manifest.json's " + c.name +
                             " with its tier, tags, module and family");
        all.push_back(&x);
    }
    if (!errors.empty()) return fail(errors);
    cts::ManifestLoad ranged = cts::loadIndexedCases(index, all, false);
    if (!ranged.errors.empty()) return fail(ranged.errors);
    for (size_t i = 0; i < ranged.cases.size(); ++i)
        if (cts::caseSpecJson(ranged.cases[i]) != cts::caseSpecJson(whole.cases[i]))
            errors.push_back("case " + whole.cases[i].name +
                             " read through the index differs from manifest.json");
    if (!errors.empty()) return fail(errors);
    std::printf(
        "manifest_check: %zu cases, %zu modules: manifest.json is well-formed and manifest.index agrees\n",
        whole.cases.size(), index.modules.size());
    return 0;
}
