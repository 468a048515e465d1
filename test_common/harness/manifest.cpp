#include "test_common/harness/manifest.h"

#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

namespace cts {

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
    if (!(err = str("kernel", spec.kernel, false)).empty()) return err;
    if (!(err = str("origin", spec.origin, false)).empty()) return err;
    if (!(err = strings("requires", spec.requires)).empty()) return err;
    if (!(err = strings("tags", spec.tags)).empty()) return err;
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
    if (!doc.contains("version") || doc["version"] != 1) {
        load.errors.push_back("manifest " + path + " has an unsupported \"version\" (expected 1)");
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
