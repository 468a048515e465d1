#include "test_common/harness/selection/manifest.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "test_common/harness/input/json_input.h"
#include "test_common/harness/input/path_guard.h"

namespace cts {

std::string readManifestSha256(const std::string& assets_dir, std::string* hex) {
    const std::string path = assets_dir + "/manifest.sha256";
    // One line of 79 bytes: a special file (/dev/zero, a FIFO) or a huge file is refused unread.
    std::string text;
    if (std::string e = readTextFile(path, &text, kMaxSmallFileBytes); !e.empty())
        return e + " (the manifest's hash, written by the asset build)";
    const std::string line = text.substr(0, text.find('\n'));
    bool ok = line.size() == 64 + 2 + 13 && line.compare(64, std::string::npos, "  manifest.json") == 0;
    for (size_t i = 0; ok && i < 64; ++i)
        ok = std::isxdigit(static_cast<unsigned char>(line[i])) &&
             !std::isupper(static_cast<unsigned char>(line[i]));
    if (!ok) return path + " is not \"<64 hex digits>  manifest.json\" (the asset build writes it)";
    *hex = line.substr(0, 64);
    return "";
}

bool isValidCaseName(std::string_view name) {
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

using ModuleTable = std::map<std::string, std::shared_ptr<const ModuleSignature>>;

// One entry of "modules": {"kernels": {"<entry point>": [["<argument>", "<type>"], ...]}}. Returns "" or
// what is wrong.
std::string readModuleEntry(const nlohmann::json& e, ModuleSignature& out) {
    if (!e.is_object() || !e.contains("kernels") || !e["kernels"].is_object())
        return "has no \"kernels\" object";
    for (auto k = e["kernels"].begin(); k != e["kernels"].end(); ++k) {
        if (!k.value().is_array()) return "kernel " + k.key() + ": the arguments are not an array";
        KernelSignature& args = out[k.key()];
        for (const auto& a : k.value()) {
            if (!a.is_array() || a.size() != 2 || !a[0].is_string() || !a[1].is_string())
                return "kernel " + k.key() + ": an argument is not [\"name\", \"type\"]";
            args.push_back({a[0].get<std::string>(), a[1].get<std::string>()});
        }
    }
    return "";
}

// The "modules" table; a malformed entry is kept out of it (its cases then name it) and reported.
ModuleTable readModuleTable(const nlohmann::json& doc, const std::string& path,
                            std::vector<std::string>& errors) {
    ModuleTable table;
    auto modules = doc.find("modules");
    if (modules == doc.end() || !modules->is_object()) {
        errors.push_back("manifest " + path + " is corrupt: no \"modules\" object");
        return table;
    }
    for (auto it = modules->begin(); it != modules->end(); ++it) {
        auto signature = std::make_shared<ModuleSignature>();
        std::string err = readModuleEntry(it.value(), *signature);
        if (!err.empty())
            errors.push_back("manifest " + path + " module " + it.key() + ": " + err);
        else
            table.emplace(it.key(), std::move(signature));
    }
    return table;
}

ParamType jsonParamType(const nlohmann::json& v) {
    if (v.is_boolean()) return ParamType::Bool;
    if (v.is_number_integer()) return ParamType::Int;
    if (v.is_number()) return ParamType::Number;
    if (v.is_array()) return ParamType::IntList;
    return ParamType::String;
}

bool isValidModuleHash(const std::string& hash) {
    const std::string kind = "crc32:";
    if (hash.size() != kind.size() + 8 || hash.compare(0, kind.size(), kind) != 0) return false;
    for (size_t i = kind.size(); i < hash.size(); ++i)
        if (!((hash[i] >= '0' && hash[i] <= '9') || (hash[i] >= 'a' && hash[i] <= 'f'))) return false;
    return true;
}

// Returns "" or what is wrong with the entry; fills spec.
std::string readEntry(const nlohmann::json& e, const ModuleTable& modules, CaseSpec& spec) {
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
                spec.params.set(it.key(), v.dump(), jsonParamType(v));
            } else if (v.is_array()) {
                for (const auto& x : v)
                    if (!x.is_number_integer())
                        return "param \"" + it.key() + "\" is an array of non-integers";
                spec.params.set(it.key(), v.dump(), ParamType::IntList);
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
        auto module = modules.find(spec.module);
        if (module == modules.end())
            return "module " + spec.module + " is not in the manifest's \"modules\" table";
        if (!module->second->count(spec.kernel))
            return "module " + spec.module + " has no kernel " + spec.kernel +
                   " in the manifest's \"modules\" table";
        spec.module_signature = module->second;
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
    return parseManifestDocument(doc, path);
}

ManifestLoad parseManifestDocument(const nlohmann::json& doc, const std::string& path) {
    ManifestLoad load;
    if (!doc.is_object() || !doc.contains("cases") || !doc["cases"].is_array()) {
        load.errors.push_back("manifest " + path + " is corrupt: no \"cases\" array");
        return load;
    }
    if (!doc.contains("version") || doc["version"] != kManifestVersion) {
        std::string what = doc.contains("version") ? " is version " + doc["version"].dump()
                                                   : std::string(" has no \"version\"");
        load.errors.push_back(
            "manifest " + path + what + "; this runner reads version " + std::to_string(kManifestVersion) +
            " (with a hash, a tier and kernel signatures for every module): rebuild the assets target "
            "(cmake --build <build dir> --target assets)");
        return load;
    }
    const ModuleTable modules = readModuleTable(doc, path, load.errors);
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
        std::string err = readEntry(e, modules, spec);
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
    for (size_t i = open; i < text.size(); ++i) {
        char c = text[i];
        if (c == '"') {
            i = jsonStringEnd(text, i);
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
    std::string text;
    if (!readTextFile(path, &text).empty()) return loadManifest(path);
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
    // The module table comes before "cases": each case's module entry is found by its key there.
    const size_t cases_at = text.find("\"cases\": [");
    if (cases_at == std::string::npos) return loadManifest(path);
    std::string entries, modules;
    std::set<std::string> modules_taken;
    for (const auto& name : names) {
        size_t at = where[name];
        if (at == std::string::npos || at < cases_at) return loadManifest(path);
        size_t open = text.find_last_not_of(" \t\r\n", at - 1);
        if (open == std::string::npos || text[open] != '{') return loadManifest(path);
        size_t end = objectEnd(text, open);
        if (end == std::string::npos) return loadManifest(path);
        std::string entry = text.substr(open, end - open);
        entries += (entries.empty() ? "" : ",") + entry;
        std::string module;
        try {
            auto json = nlohmann::json::parse(entry);
            if (json.contains("module") && json["module"].is_string())
                module = json["module"].get<std::string>();
        } catch (const std::exception&) {
            return loadManifest(path);
        }
        if (module.empty() || !modules_taken.insert(module).second) continue;
        const std::string key = "\"" + module + "\": {";
        size_t module_at = text.find(key);
        if (module_at == std::string::npos || module_at > cases_at) return loadManifest(path);
        size_t module_open = module_at + key.size() - 1, module_end = objectEnd(text, module_open);
        if (module_end == std::string::npos) return loadManifest(path);
        modules += (modules.empty() ? "" : ",") + key.substr(0, key.size() - 1) +
                   text.substr(module_open, module_end - module_open);
    }
    ManifestLoad load = parseManifest("{\"version\": " + std::to_string(kManifestVersion) +
                                          ", \"modules\": {" + modules + "}, \"cases\": [" + entries + "]}",
                                      path);
    if (!load.errors.empty() || load.cases.size() != names.size()) return loadManifest(path);
    for (size_t i = 0; i < names.size(); ++i)
        if (load.cases[i].name != names[i] || !load.cases[i].load_error.empty())
            return loadManifest(path);  // found something else by that name (or a broken entry): parse it all
    return load;
}

std::string caseSpecJson(const CaseSpec& spec) {
    nlohmann::ordered_json params = nlohmann::ordered_json::object();
    for (const auto& [key, value] : spec.params.all())
        params[key] = value.type == ParamType::String ? nlohmann::ordered_json(value.text)
                                                      : nlohmann::ordered_json::parse(value.text);
    nlohmann::ordered_json j = {{"name", spec.name},           {"family", spec.family},
                                {"module", spec.module},       {"module_hash", spec.module_hash},
                                {"kernel", spec.kernel},       {"params", params},
                                {"requires", spec.requires},   {"tags", spec.tags},
                                {"tier", tierName(spec.tier)}, {"origin", spec.origin}};
    return j.dump();
}

ManifestLoad loadManifest(const std::string& path) {
    std::string text;
    if (std::string e = readTextFile(path, &text); !e.empty()) {
        ManifestLoad load;
        load.errors.push_back("manifest " + path + " is missing or unreadable (" + e +
                              "; build the assets target, or pass --assets-dir)");
        return load;
    }
    return parseManifest(text, path);
}

}  // namespace cts
