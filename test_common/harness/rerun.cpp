#include "test_common/harness/rerun.h"

#include <set>

#include <nlohmann/json.hpp>

#include "test_common/harness/selection.h"

namespace cts {

std::string parseRerunReport(const std::string& text, const std::string& path, RerunRequest& out) {
    out = RerunRequest{};
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        return path + " is not JSON (" + e.what() + ")";
    }
    const char* shape = " is not a spirv_intel_cts --json report: ";
    if (!doc.is_object() || !doc.contains("cases") || !doc["cases"].is_array() || !doc.contains("results"))
        return path + shape + "no \"cases\" list and \"results\" map";
    static const std::set<std::string> kStatuses = {"Pass",  "Fail",    "NotSupported", "InternalError",
                                                    "Crash", "Timeout", "Waived"};
    std::set<std::string> seen;
    auto add = [&](const std::string& name) {
        if (seen.insert(name).second) out.names.push_back(name);
    };
    for (const auto& c : doc["cases"]) {
        if (!c.is_object() || !c.contains("name") || !c["name"].is_string() || !c.contains("status") ||
            !c["status"].is_string() || !kStatuses.count(c["status"].get<std::string>()))
            return path + shape + "a \"cases\" entry without a name and a known status";
        std::string status = c["status"].get<std::string>();
        if (status != "Pass" && status != "NotSupported") add(c["name"].get<std::string>());
    }
    if (doc.contains("not_run")) {
        if (!doc["not_run"].is_array()) return path + shape + "\"not_run\" is not a list";
        for (const auto& n : doc["not_run"]) {
            if (!n.is_string()) return path + shape + "\"not_run\" holds a non-string";
            add(n.get<std::string>());
        }
    }
    if (doc.contains("seed") && doc["seed"].is_number_unsigned()) out.seed = doc["seed"].get<uint64_t>();
    if (doc.contains("quick") && doc["quick"].is_boolean()) out.quick = doc["quick"].get<bool>();
    if (out.names.empty())
        return path + " has nothing to rerun: its " + std::to_string(doc["cases"].size()) +
               " case(s) all passed or were not supported, and it lists no case as not run";
    return "";
}

std::string readRerunReport(const std::string& path, RerunRequest& out) {
    std::string text;
    if (std::string err = readTextFile(path, &text); !err.empty()) return err;
    return parseRerunReport(text, path, out);
}

}  // namespace cts
