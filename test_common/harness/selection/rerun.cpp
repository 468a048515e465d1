#include "test_common/harness/selection/rerun.h"

#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "test_common/harness/input/json_input.h"
#include "test_common/harness/model/case.h"

namespace cts {
namespace {

// Reads the report's "selection" record (report.h SelectionRecord) into `out`; "" or what is wrong.
std::string readSelectionRecord(const nlohmann::json& s, RerunRequest& out) {
    if (!s.is_object()) return "\"selection\" is not an object";
    for (const char* key : {"quick", "extended", "huge"})
        if (!s.contains(key) || !s[key].is_boolean())
            return std::string("\"selection\": \"") + key + "\" is not true or false";
    if (!s.contains("tier") || !s["tier"].is_string() || (s["tier"] != "all" && s["tier"] != "core"))
        return "\"selection\": \"tier\" is not \"all\" or \"core\"";
    if (!s.contains("seed") || !s["seed"].is_number_unsigned())
        return "\"selection\": \"seed\" is not an unsigned integer";
    out.has_selection = true;
    out.quick = s["quick"].get<bool>();
    out.extended = s["extended"].get<bool>();
    out.huge = s["huge"].get<bool>();
    out.core_only = s["tier"] == "core";
    out.seed = s["seed"].get<uint64_t>();
    // Older records may lack these two; a wrong type is not a record this runner wrote.
    for (auto [key, field] :
         {std::pair{"suite_version", &out.suite_version}, {"manifest_sha256", &out.manifest_sha256}}) {
        if (!s.contains(key)) continue;
        if (!s[key].is_string()) return std::string("\"selection\": \"") + key + "\" is not a string";
        *field = s[key].get<std::string>();
    }
    return "";
}

}  // namespace

std::string parseRerunReport(const std::string& text, const std::string& path, RerunRequest& out) {
    out = RerunRequest{};
    nlohmann::json doc;
    size_t line = 1;
    if (std::string err = parseJsonInput(text, &doc, &line); !err.empty())
        return path + " is not JSON (line " + std::to_string(line) + ": " + err + ")";
    const char* shape = " is not a spirv_intel_cts --json report: ";
    if (!doc.is_object() || !doc.contains("cases") || !doc["cases"].is_array() || !doc.contains("results"))
        return path + shape + "no \"cases\" list and \"results\" map";
    // Every status the runner writes, Flake included (a report of a --retry run holds it).
    std::set<std::string> statuses;
    for (Status s : kAllStatuses) statuses.insert(statusName(s));
    std::set<std::string> seen;
    auto add = [&](const std::string& name) {
        if (seen.insert(name).second) out.names.push_back(name);
    };
    for (const auto& c : doc["cases"]) {
        if (!c.is_object() || !c.contains("name") || !c["name"].is_string() || !c.contains("status") ||
            !c["status"].is_string() || !statuses.count(c["status"].get<std::string>()))
            return path + shape + "a \"cases\" entry without a name and a known status";
        // A Flake passed on a retry: like Pass and NotSupported it is not rerun.
        std::string status = c["status"].get<std::string>();
        if (status == "Flake")
            ++out.flaky;
        else if (status != "Pass" && status != "NotSupported")
            add(c["name"].get<std::string>());
    }
    if (doc.contains("not_run")) {
        if (!doc["not_run"].is_array()) return path + shape + "\"not_run\" is not a list";
        for (const auto& n : doc["not_run"]) {
            if (!n.is_string()) return path + shape + "\"not_run\" holds a non-string";
            add(n.get<std::string>());
        }
    }
    // A seed the runner cannot have written (negative, fractional, text) would silently become another seed.
    if (doc.contains("seed") && !doc["seed"].is_number_unsigned())
        return path + shape + "\"seed\" is not an unsigned integer";
    if (doc.contains("quick") && !doc["quick"].is_boolean())
        return path + shape + "\"quick\" is not true or false";
    if (doc.contains("selection")) {
        if (std::string err = readSelectionRecord(doc["selection"], out); !err.empty())
            return path + shape + err;
    } else {
        if (doc.contains("seed")) out.seed = doc["seed"].get<uint64_t>();
        if (doc.contains("quick")) out.quick = doc["quick"].get<bool>();
    }
    if (out.names.empty())
        return path + " has nothing to rerun: its " + std::to_string(doc["cases"].size()) +
               " case(s) all passed" +
               (out.flaky ? " (" + std::to_string(out.flaky) + " of them as Flake, on a retry)" : "") +
               " or were not supported, and it lists no case as not run";
    return "";
}

std::string readRerunReport(const std::string& path, RerunRequest& out) {
    std::string text;
    if (std::string err = readTextFile(path, &text); !err.empty()) return err;
    return parseRerunReport(text, path, out);
}

std::string checkRerunSelection(const RerunRequest& rerun, const std::string& path,
                                const std::vector<CaseSpec>& all, SelectionRequest request) {
    std::vector<std::string> storage;
    return checkRerunSelection(rerun, path, caseHeads(all, storage), request);
}

std::string checkRerunSelection(const RerunRequest& rerun, const std::string& path,
                                const std::vector<CaseHead>& all, SelectionRequest request) {
    request.shard_index = 0;
    request.shard_count = 1;
    HeadSelection sel = selectHeads(all, request);
    std::set<std::string, std::less<>> selected;
    for (const auto* c : sel.cases) selected.emplace(c->name);
    std::map<std::string_view, const CaseHead*> by_name;
    for (const auto& c : all) by_name[c.name] = &c;
    std::vector<std::string> dropped;
    bool need_huge = false, need_all_tiers = false;
    for (const auto& name : rerun.names) {
        if (selected.count(name)) continue;
        bool excluded = false;
        for (const auto& p : request.negative) excluded = excluded || patternSelects(p.text, name);
        if (excluded) continue;  // --exclude-file: left out on purpose
        dropped.push_back(name);
        auto it = by_name.find(name);
        if (it == by_name.end()) continue;
        need_huge = need_huge || (!request.huge && hasTag(*it->second, "huge"));
        need_all_tiers = need_all_tiers || (request.core_only && it->second->tier != Tier::Core);
    }
    if (dropped.empty()) return "";
    std::string list;
    for (size_t i = 0; i < dropped.size() && i < 5; ++i) list += (i ? ", " : "") + dropped[i];
    if (dropped.size() > 5) list += ", ... (" + std::to_string(dropped.size() - 5) + " more)";
    std::string fix = need_huge ? "tagged huge: add --huge"
                      : need_all_tiers
                          ? "of tier device_specific: the report's selection record says --tier=core"
                          : "not selected";
    return std::to_string(dropped.size()) + " case(s) " + path + " did not pass would not run (" + fix +
           (rerun.has_selection ? "" : "; the report has no \"selection\" record") + "): " + list;
}

}  // namespace cts
