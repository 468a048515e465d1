#include "test_common/harness/manifest.h"

#include <cctype>
#include <fstream>
#include <set>
#include <sstream>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace cts {

std::string readManifestSha256(const std::string& assets_dir, std::string* hex) {
    const std::string path = assets_dir + "/manifest.sha256";
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line))
        return "cannot read " + path + " (the manifest's hash, written by the asset build)";
    bool ok = line.size() == 64 + 2 + 13 && line.compare(64, std::string::npos, "  manifest.json") == 0;
    for (size_t i = 0; ok && i < 64; ++i)
        ok = std::isxdigit(static_cast<unsigned char>(line[i])) &&
             !std::isupper(static_cast<unsigned char>(line[i]));
    if (!ok) return path + " is not \"<64 hex digits>  manifest.json\" (the asset build writes it)";
    *hex = line.substr(0, 64);
    return "";
}

bool isValidCaseName(const std::string& name) {
    if (name.empty() || name.front() == '.' || name.back() == '.') return false;
    char prev = 0;
    for (char c : name) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || (c == '.' && prev != '.');
        if (!ok) return false;
        prev = c;
    }
    return true;
}

namespace {

// Version 2 added "module_hash", version 3 "tier"; scripts/spvgen.py MANIFEST_VERSION writes it.
constexpr int kManifestVersion = 3;

bool isValidModuleHash(const std::string& hash) {
    const std::string kind = "crc32:";
    if (hash.size() != kind.size() + 8 || hash.compare(0, kind.size(), kind) != 0) return false;
    for (size_t i = kind.size(); i < hash.size(); ++i)
        if (!((hash[i] >= '0' && hash[i] <= '9') || (hash[i] >= 'a' && hash[i] <= 'f'))) return false;
    return true;
}

// Returns "" or what is wrong with the entry; fills spec.
std::string readEntry(const nlohmann::json& e, CaseSpec& spec) {
    auto str = [&](const char* key, std::string& out, bool required) -> std::string {
        auto it = e.find(key);
        if (it == e.end()) return required ? std::string("missing \"") + key + "\"" : "";
        if (!it->is_string()) return std::string("\"") + key + "\" is not a string";
        out = it->get<std::string>();
        return "";
    };
    auto strings = [&](const char* key, std::vector<std::string>& out) -> std::string {
        auto it = e.find(key);
        if (it == e.end()) return "";
        if (!it->is_array()) return std::string("\"") + key + "\" is not an array";
        for (const auto& v : *it) {
            if (!v.is_string()) return std::string("\"") + key + "\" holds a non-string";
            out.push_back(v.get<std::string>());
        }
        return "";
    };
    std::string err;
    if (!(err = str("family", spec.family, true)).empty()) return err;
    if (!(err = str("module", spec.module, false)).empty()) return err;
    if (!(err = str("module_hash", spec.module_hash, false)).empty()) return err;
    if (!(err = str("kernel", spec.kernel, false)).empty()) return err;
    if (!(err = str("origin", spec.origin, false)).empty()) return err;
    if (!(err = strings("requires", spec.requires)).empty()) return err;
    if (!(err = strings("tags", spec.tags)).empty()) return err;
    std::string tier;
    if (!(err = str("tier", tier, true)).empty()) return err;
    if (!parseTier(tier, spec.tier)) return "\"tier\" '" + tier + "' is not core or device_specific";
    auto params = e.find("params");
    if (params != e.end()) {
        if (!params->is_object()) return "\"params\" is not an object";
        for (auto it = params->begin(); it != params->end(); ++it) {
            const auto& v = it.value();
            if (v.is_string()) {
                spec.params.set(it.key(), v.get<std::string>());
            } else if (v.is_boolean() || v.is_number()) {
                spec.params.set(it.key(), v.dump());
            } else if (v.is_array()) {
                for (const auto& x : v)
                    if (!x.is_number_integer())
                        return "param \"" + it.key() + "\" is an array of non-integers";
                spec.params.set(it.key(), v.dump());
            } else {
                return "param \"" + it.key() + "\" is not a scalar or integer array";
            }
        }
    }
    // A module goes with a kernel and a hash; a case without a module has neither.
    if (!spec.module.empty()) {
        if (spec.kernel.empty()) return "has a \"module\" (" + spec.module + ") but no \"kernel\"";
        if (spec.module_hash.empty()) return "has a \"module\" (" + spec.module + ") but no \"module_hash\"";
        if (!isValidModuleHash(spec.module_hash))
            return "\"module_hash\" '" + spec.module_hash + "' is not crc32:<8 lowercase hex digits>";
    } else {
        if (!spec.kernel.empty()) return "has a \"kernel\" (" + spec.kernel + ") but no \"module\"";
        if (!spec.module_hash.empty()) return "has a \"module_hash\" but no \"module\"";
    }
    return "";
}

}  // namespace

ManifestLoad parseManifest(const std::string& text, const std::string& path) {
    ManifestLoad load;
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const std::exception& ex) {
        load.errors.push_back("manifest " + path + " is corrupt: " + ex.what());
        return load;
    }
    if (!doc.is_object() || !doc.contains("cases") || !doc["cases"].is_array()) {
        load.errors.push_back("manifest " + path + " is corrupt: no \"cases\" array");
        return load;
    }
    if (!doc.contains("version") || doc["version"] != kManifestVersion) {
        std::string what = doc.contains("version") ? " is version " + doc["version"].dump()
                                                   : std::string(" has no \"version\"");
        load.errors.push_back("manifest " + path + what + "; this runner reads version " +
                              std::to_string(kManifestVersion) +
                              " (with a hash and a tier for every module): rebuild the assets target "
                              "(cmake --build <build dir> --target assets)");
        return load;
    }
    std::set<std::string> seen;
    size_t index = 0;
    for (const auto& e : doc["cases"]) {
        std::string where = "manifest " + path + " entry " + std::to_string(index++);
        if (!e.is_object() || !e.contains("name") || !e["name"].is_string()) {
            load.errors.push_back(where + " has no \"name\"");
            continue;
        }
        CaseSpec spec;
        spec.name = e["name"].get<std::string>();
        if (!isValidCaseName(spec.name)) {
            load.errors.push_back(where + ": invalid case name '" + spec.name + "'");
            continue;
        }
        if (!seen.insert(spec.name).second) {
            load.errors.push_back(where + ": duplicate case name '" + spec.name + "'");
            continue;
        }
        std::string err = readEntry(e, spec);
        if (!err.empty()) spec.load_error = where + " ('" + spec.name + "'): " + err;
        if (spec.origin.empty()) spec.origin = path;
        load.cases.push_back(std::move(spec));
    }
    return load;
}

namespace {

// The end (one past the closing brace) of the JSON object that starts at text[open] == '{', or npos.
size_t objectEnd(const std::string& text, size_t open) {
    int depth = 0;
    bool in_string = false;
    for (size_t i = open; i < text.size(); ++i) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{') {
            ++depth;
        } else if (c == '}' && --depth == 0) {
            return i + 1;
        }
    }
    return std::string::npos;
}

}  // namespace

ManifestLoad loadManifestEntries(const std::string& path, const std::vector<std::string>& names) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return loadManifest(path);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    // The header as build_assets.py writes it: {"version": N, "cases": [ ... one object per case, "name"
    // first.
    const std::string version_key = "\"version\": " + std::to_string(kManifestVersion) + ",";
    if (text.find(version_key) == std::string::npos || text.find(version_key) > 64) return loadManifest(path);
    // One pass over the text: where each wanted name first appears as a "name" value.
    std::unordered_map<std::string, size_t> where;
    for (const auto& name : names) {
        if (!isValidCaseName(name)) return loadManifest(path);
        where.emplace(name, std::string::npos);
    }
    const std::string key = "\"name\": \"";
    for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + key.size())) {
        size_t begin = at + key.size(), close = text.find('"', begin);
        if (close == std::string::npos) break;
        auto it = where.find(text.substr(begin, close - begin));
        if (it != where.end() && it->second == std::string::npos) it->second = at;
    }
    ManifestLoad load;
    for (const auto& name : names) {
        size_t at = where[name];
        if (at == std::string::npos) return loadManifest(path);
        size_t open = text.find_last_not_of(" \t\r\n", at - 1);
        if (open == std::string::npos || text[open] != '{') return loadManifest(path);
        size_t end = objectEnd(text, open);
        if (end == std::string::npos) return loadManifest(path);
        ManifestLoad one = parseManifest("{\"version\": " + std::to_string(kManifestVersion) +
                                             ", \"cases\": [" + text.substr(open, end - open) + "]}",
                                         path);
        if (!one.errors.empty() || one.cases.size() != 1 || one.cases[0].name != name ||
            !one.cases[0].load_error.empty())
            return loadManifest(path);  // found something else by that name (or a broken entry): parse it all
        load.cases.push_back(std::move(one.cases[0]));
    }
    return load;
}

ManifestLoad loadManifest(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        ManifestLoad load;
        load.errors.push_back("manifest " + path +
                              " is missing or unreadable (build the assets target, or pass "
                              "--assets-dir)");
        return load;
    }
    std::stringstream text;
    text << in.rdbuf();
    return parseManifest(text.str(), path);
}

}  // namespace cts
