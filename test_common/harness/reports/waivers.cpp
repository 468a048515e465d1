#include "test_common/harness/reports/waivers.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>

#include <nlohmann/json.hpp>

#include "test_common/harness/input/json_input.h"
#include "test_common/harness/input/sha256.h"
#include "test_common/harness/selection/selection.h"

namespace cts {
namespace {

// The line of each offset (ascending): one pass over the text, not one per entry.
std::vector<size_t> linesAt(const std::string& text, const std::vector<size_t>& offsets) {
    std::vector<size_t> lines;
    size_t line = 1, pos = 0;
    for (size_t offset : offsets) {
        offset = std::min(offset, text.size());
        line += static_cast<size_t>(std::count(text.begin() + pos, text.begin() + offset, '\n'));
        pos = offset;
        lines.push_back(line);
    }
    return lines;
}

// Byte offsets where the elements of the array under the top-level object's keys start, in order. nlohmann
// keeps no positions, so this small scan (of text nlohmann has already accepted) lets a semantic error name
// the line of its entry. Depth counts the open containers: 1 inside the top object, 2 inside its array.
std::vector<size_t> entryOffsets(const std::string& text) {
    std::vector<size_t> out;
    int depth = 0;
    bool want_element = false;
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
        if (want_element && depth == 2 && c != ']') out.push_back(i);
        want_element = false;
        if (c == '"') {
            i = jsonStringEnd(text, i);
        } else if (c == '{' || c == '[') {
            ++depth;
            want_element = depth == 2 && c == '[';
        } else if (c == '}' || c == ']') {
            --depth;
        } else if (c == ',' && depth == 2) {
            want_element = true;
        }
    }
    return out;
}

// A case pattern can only match names the manifest allows (lowercase letters, digits, '_', '.') plus the
// wildcards; anything else (a space, a ':' of a --filter list, an upper-case letter) is a typo.
bool isValidCasePattern(const std::string& p) {
    if (p.empty()) return false;
    for (char c : p)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '*' ||
              c == '?'))
            return false;
    return true;
}

bool parseVendorId(const nlohmann::json& v, uint32_t& out) {
    if (v.is_number_unsigned()) {
        uint64_t n = v.get<uint64_t>();
        if (n > 0xffffffffu) return false;
        out = static_cast<uint32_t>(n);
        return true;
    }
    if (!v.is_string()) return false;
    std::string s = v.get<std::string>();
    if (s.size() < 3 || s.size() > 10 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return false;
    for (size_t i = 2; i < s.size(); ++i)
        if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
    out = static_cast<uint32_t>(std::strtoul(s.c_str() + 2, nullptr, 16));
    return true;
}

// Fills `w` from one entry; returns "" or what is wrong.
std::string readEntry(const nlohmann::json& e, Waiver& w) {
    if (!e.is_object()) return "a waiver entry is not an object";
    for (const auto& [key, value] : e.items())
        if (key != "cases" && key != "device" && key != "tracker" && key != "reason" &&
            key != "own_process" && key != "intermittent" && key != "timeout_seconds" && key != "skip")
            return "unknown key \"" + key +
                   "\" in a waiver entry (known: cases, device, tracker, reason, own_process, intermittent, "
                   "timeout_seconds, skip)";
    for (const char* key : {"own_process", "intermittent", "skip"})
        if (e.contains(key) && !e[key].is_boolean())
            return std::string("\"") + key + "\" must be true or false";
    w.own_process = e.value("own_process", false);
    w.intermittent = e.value("intermittent", false);
    w.skip = e.value("skip", false);
    if (e.contains("timeout_seconds")) {
        const auto& t = e["timeout_seconds"];
        // A JSON number only (not true, not "30"); nlohmann reads 1e999 as infinity, which the bound rejects.
        double v = t.is_number() ? t.get<double>() : 0;
        if (!t.is_number() || !(v > 0) || !(v <= kMaxWaiverTimeoutSeconds))
            return "\"timeout_seconds\" must be a number of seconds above 0 and at most " +
                   std::to_string(static_cast<long>(kMaxWaiverTimeoutSeconds));
        w.timeout_seconds = v;
    }
    for (const char* key : {"cases", "tracker", "reason"})
        if (!e.contains(key)) return std::string("waiver entry lacks \"") + key + "\"";
    const auto& cases = e["cases"];
    if (!cases.is_array() || cases.empty()) return "\"cases\" must be a non-empty array of case patterns";
    for (const auto& c : cases) {
        if (!c.is_string()) return "\"cases\" holds a non-string";
        std::string p = c.get<std::string>();
        if (!isValidCasePattern(p))
            return "bad case pattern \"" + p + "\" (lowercase case names with * and ?)";
        w.cases.push_back(p);
    }
    for (const char* key : {"tracker", "reason"}) {
        if (!e[key].is_string() || e[key].get<std::string>().empty())
            return std::string("\"") + key + "\" must be a non-empty string";
        // Both are printed on the console and in the log: a newline, ESC or NUL would forge or hide lines,
        // and so would a C1 control (U+0080..U+009F, UTF-8 C2 80..C2 9F: CSI is ESC [ in one character).
        const std::string text = e[key].get<std::string>();
        for (size_t i = 0; i < text.size(); ++i) {
            unsigned char c = static_cast<unsigned char>(text[i]);
            bool c1 = c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xa0;
            if (c < 0x20 || c == 0x7f || c1)
                return std::string("\"") + key + "\" holds a control character (" +
                       (c == '\n'   ? "a newline"
                        : c == 0x1b ? "ESC"
                        : c == 0    ? "NUL"
                        : c1        ? "the C1 control U+00" +
                                   std::string(1, "0123456789ABCDEF"[(text[i + 1] >> 4) & 15]) +
                                   "0123456789ABCDEF"[text[i + 1] & 15]
                             : "code " + std::to_string(c)) +
                       "): one line of text";
            // Invisible, yet they reorder (bidi controls), hide (zero-width) or break (U+2028) what a
            // person reads next to them on the console, in the log and in the reports.
            uint32_t cp = 0;
            if (invisibleFormatAt(text, i, &cp)) {
                char code[16];
                std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(cp));
                return std::string("\"") + key + "\" holds the invisible format character " + code +
                       " (a bidi control, zero-width character or line separator): plain visible text only";
            }
        }
    }
    w.tracker = e["tracker"].get<std::string>();
    w.reason = e["reason"].get<std::string>();
    // A file applied to the wrong driver must not hide its failures: each entry says which devices it is for.
    if (!e.contains("device"))
        return "waiver entry lacks \"device\" (e.g. {\"platform\": \"Intel(R) OpenCL\"}; \"*\" for every "
               "device)";
    const auto& d = e["device"];
    if (d.is_string() && d.get<std::string>() == "*") {
        w.every_device = true;
        return "";
    }
    if (!d.is_object()) return "\"device\" must be an object, or \"*\" for every device";

    for (const auto& [key, value] : d.items()) {
        if (key == "platform" || key == "name") {
            if (!value.is_string() || value.get<std::string>().empty())
                return "\"device\": \"" + key + "\" must be a non-empty pattern";
            (key == "platform" ? w.platform : w.name) = value.get<std::string>();
        } else if (key == "driver_version") {
            if (!value.is_object() || value.empty())
                return "\"device\": \"driver_version\" must be an object with \"min\" and/or \"max\"";
            for (const auto& [bound, v] : value.items()) {
                std::vector<uint64_t> numbers;
                if (bound != "min" && bound != "max")
                    return "\"driver_version\": unknown key \"" + bound + "\" (known: min, max)";
                if (!v.is_string() || !parseDottedVersion(v.get<std::string>(), numbers))
                    return "\"driver_version\": \"" + bound + "\" must be a dotted version such as \"1.2.3\"";
                (bound == "min" ? w.driver_min : w.driver_max) = v.get<std::string>();
            }
        } else if (key == "vendor_id") {
            if (!parseVendorId(value, w.vendor_id))
                return "\"device\": \"vendor_id\" must be a number such as 32902 or a hex string such as "
                       "\"0x8086\"";
            w.has_vendor_id = true;
        } else {
            return "unknown key \"" + key +
                   "\" in \"device\" (known: platform, name, driver_version, vendor_id)";
        }
    }
    if (w.platform.empty() && w.name.empty() && !w.has_vendor_id)
        return "\"device\" must name the device: \"platform\", \"name\" (patterns) or \"vendor_id\"";
    // Conditions every device meets: a pattern of wildcards alone ("*", "?*": names are never empty) and a
    // driver bound of 0 with no upper one (any driver with a version number). An entry of only such
    // conditions waives its cases everywhere and is warned about as "*" is.
    auto everything = [](const std::string& p) { return p.find_first_not_of("*?") == std::string::npos; };
    std::vector<uint64_t> min_numbers;
    bool any_driver =
        w.driver_max.empty() && (w.driver_min.empty() || (parseDottedVersion(w.driver_min, min_numbers) &&
                                                          compareVersions(min_numbers, {0}) == 0));
    w.every_device = everything(w.platform) && everything(w.name) && !w.has_vendor_id && any_driver;
    if (!w.driver_min.empty() && !w.driver_max.empty()) {
        std::vector<uint64_t> lo, hi;
        parseDottedVersion(w.driver_min, lo);
        parseDottedVersion(w.driver_max, hi);
        if (compareVersions(lo, hi) > 0) return "\"driver_version\": \"min\" is above \"max\"";
    }
    return "";
}

}  // namespace

bool parseDottedVersion(const std::string& text, std::vector<uint64_t>& out) {
    out.clear();
    size_t pos = 0;
    while (true) {
        size_t end = pos;
        while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
        if (end == pos || end - pos > 18) return false;
        out.push_back(std::strtoull(text.substr(pos, end - pos).c_str(), nullptr, 10));
        if (end == text.size()) return true;
        if (text[end] != '.') return false;
        pos = end + 1;
    }
}

bool driverVersionNumbers(const std::string& text, std::vector<uint64_t>& out) {
    size_t b = 0;
    while (b < text.size() && !std::isdigit(static_cast<unsigned char>(text[b]))) ++b;
    if (b == text.size()) return false;
    size_t e = b;
    while (e < text.size() && (std::isdigit(static_cast<unsigned char>(text[e])) || text[e] == '.')) ++e;
    std::string run = text.substr(b, e - b);
    while (!run.empty() && run.back() == '.') run.pop_back();
    return parseDottedVersion(run, out);
}

int compareVersions(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
    for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
        uint64_t x = i < a.size() ? a[i] : 0, y = i < b.size() ? b[i] : 0;
        if (x != y) return x < y ? -1 : 1;
    }
    return 0;
}

namespace {

// The entries of a waiver file parsed into `doc` (`text` for the lines they start on).
std::string waiversOf(const nlohmann::json& doc, const std::string& text, const std::string& file,
                      std::vector<Waiver>& out) {
    if (!doc.is_object() || !doc.contains("waivers"))
        return file + ":1: expected an object {\"waivers\": [...]}";
    for (const auto& [key, value] : doc.items())
        if (key != "waivers") return file + ":1: unknown top-level key \"" + key + "\" (known: waivers)";
    if (!doc.at("waivers").is_array()) return file + ":1: \"waivers\" must be an array of entries";
    const std::vector<size_t> lines = linesAt(text, entryOffsets(text));
    std::vector<Waiver> entries;
    const nlohmann::json& listed = doc.at("waivers");
    for (size_t i = 0; i < listed.size(); ++i) {
        Waiver w;
        size_t line = i < lines.size() ? lines[i] : 1;
        w.source = file + ":" + std::to_string(line);
        std::string err = readEntry(listed[i], w);
        if (!err.empty()) return w.source + ": " + err;
        entries.push_back(std::move(w));
    }
    out.insert(out.end(), entries.begin(), entries.end());
    return "";
}

}  // namespace

std::string parseWaivers(const std::string& text, const std::string& file, std::vector<Waiver>& out) {
    nlohmann::json doc;
    if (std::string err = parseJsonFile(text, file, &doc); !err.empty()) return err;
    return waiversOf(doc, text, file, out);
}

std::string readWaiverFile(const std::string& path, std::vector<Waiver>& out, std::string* sha256) {
    JsonFile file;
    if (std::string err = readJsonFile(path, &file); !err.empty()) return err;
    if (sha256) *sha256 = sha256Hex(file.text.data(), file.text.size());
    return waiversOf(file.doc, file.text, path, out);
}

bool waiverAppliesTo(const Waiver& w, const WaiverDevice& d) {
    if (!w.platform.empty() && !globMatch(w.platform, d.platform)) return false;
    if (!w.name.empty() && !globMatch(w.name, d.name)) return false;
    if (w.has_vendor_id && w.vendor_id != d.vendor_id) return false;
    if (w.driver_min.empty() && w.driver_max.empty()) return true;
    std::vector<uint64_t> have, bound;
    if (!driverVersionNumbers(d.driver_version, have)) return false;
    if (!w.driver_min.empty() && parseDottedVersion(w.driver_min, bound) && compareVersions(have, bound) < 0)
        return false;
    if (!w.driver_max.empty() && parseDottedVersion(w.driver_max, bound) && compareVersions(have, bound) > 0)
        return false;
    return true;
}

WaiverSet::WaiverSet(std::vector<Waiver> entries) : entries_(std::move(entries)) {
    std::vector<std::string> patterns;
    for (size_t i = 0; i < entries_.size(); ++i)
        for (const auto& p : entries_[i].cases) {
            patterns.push_back(p);
            entry_of_.push_back(i);
        }
    matcher_ = PatternMatcher(std::move(patterns));
}

const Waiver* WaiverSet::find(std::string_view case_name) const {
    // Patterns are numbered entry by entry, so the lowest pattern is in the first entry.
    size_t p = matcher_.firstMatch(case_name);
    return p == PatternMatcher::npos ? nullptr : &entries_[entry_of_[p]];
}

bool waivable(Status status) {
    return status == Status::Fail || status == Status::Crash || status == Status::Timeout;
}

CaseResult skippedResult(const Waiver& w, const std::string& case_name, uint64_t seed) {
    CaseResult r;
    r.name = case_name;
    r.seed = seed;
    r.status = Status::Waived;
    r.not_run = true;
    r.waiver_tracker = w.tracker;
    r.waiver_reason = w.reason;
    r.message = "not run: waiver " + w.source +
                " skips it (a known crash or hang of this driver; --run-skipped runs it)";
    return r;
}

void applyWaivers(const WaiverSet& waivers, CaseResult& r) {
    if (!waivable(r.status)) return;
    const Waiver* w = waivers.find(r.name);
    if (!w) return;
    r.waived_status = r.status;
    r.status = Status::Waived;
    r.waiver_tracker = w->tracker;
    r.waiver_reason = w->reason;
}

std::vector<StaleWaiver> staleWaivers(const WaiverSet& waivers, const std::vector<std::string>& selected,
                                      const std::vector<CaseResult>& results) {
    std::vector<StaleWaiver> out;
    for (const auto& r : results) {
        if (r.status != Status::Pass) continue;
        // An intermittent bug's symptom depends on memory layout: a pass of one case says nothing.
        if (const Waiver* w = waivers.find(r.name); w && !w->intermittent)
            out.push_back({w->source, w->tracker, r.name});
    }
    std::vector<char> used(waivers.entries().size());
    for (const auto& name : selected) waivers.forEachEntry(name, [&](size_t i) { used[i] = 1; });
    for (size_t i = 0; i < used.size(); ++i)
        if (!used[i]) out.push_back({waivers.entries()[i].source, waivers.entries()[i].tracker, ""});
    return out;
}

std::string everyDeviceWarning(const Waiver& w) {
    return "warning: waiver " + w.source + " (" + w.tracker +
           ") applies to every device (device \"*\"): its cases are waived on any driver";
}

std::string staleText(const StaleWaiver& s) {
    if (!s.case_name.empty()) return "waiver no longer needed: " + s.case_name + " (" + s.tracker + ")";
    return "waiver matches no selected case: " + s.source + " (" + s.tracker + ")";
}

}  // namespace cts
