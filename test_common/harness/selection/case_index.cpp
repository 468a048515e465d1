#include "test_common/harness/selection/case_index.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <set>

#include <nlohmann/json.hpp>

#include "test_common/cl/program_cache.h"
#include "test_common/harness/selection/selection.h"

namespace cts {

namespace {

// Splits `line` at `separator` into exactly `n` fields; false when the count differs.
bool splitFields(std::string_view line, std::string_view* fields, size_t n, char separator = '\t') {
    size_t i = 0;
    for (;;) {
        size_t tab = line.find(separator);
        if (i == n) return false;
        fields[i++] = line.substr(0, tab);
        if (tab == std::string_view::npos) break;
        line.remove_prefix(tab + 1);
    }
    return i == n;
}

bool readNumber(std::string_view text, size_t* out) {
    if (text.empty() || text.size() > 19) return false;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
    return ec == std::errc() && end == text.data() + text.size();
}

// A "key value..." header line: the words after `key`, or false.
bool headerLine(std::string_view line, std::string_view key, std::string_view* rest) {
    if (line.size() <= key.size() || line.compare(0, key.size(), key) != 0 || line[key.size()] != ' ')
        return false;
    *rest = line.substr(key.size() + 1);
    return true;
}

bool validRange(const ByteRange& r, size_t manifest_bytes) {
    return r.length >= 2 && r.offset < manifest_bytes && r.length <= manifest_bytes - r.offset;
}

}  // namespace

// The entries of the index tile the manifest: sorted by offset, the module and case ranges leave between
// them (and before the first, after the last) only the manifest's punctuation, indentation and keys, at
// most kMaxGapBytes (33 in the generated manifest), and no entry of the manifest is that short. So an index
// with a case or module line removed, its count and CRC-32 made consistent again, leaves the removed
// entry's bytes uncovered and is refused here instead of silently dropping the case from every selection
// (manifest_check, which parses the whole manifest, runs only at build time). No manifest byte is read.
constexpr size_t kMaxGapBytes = 64;

template <typename Corrupt>
static std::string checkTiling(const CaseIndex& index, size_t manifest_bytes, const Corrupt& corrupt) {
    std::vector<ByteRange> ranges;
    ranges.reserve(index.modules.size() + index.cases.size());
    for (const auto& m : index.modules) ranges.push_back(m.entry);
    for (const auto& c : index.cases) ranges.push_back(c.entry);
    std::sort(ranges.begin(), ranges.end(),
              [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
    size_t covered_to = 0;  // the end of the previous range
    for (const auto& r : ranges) {
        if (r.offset < covered_to)
            return corrupt("the byte ranges " + std::to_string(r.offset) + "+" + std::to_string(r.length) +
                           " and one ending at " + std::to_string(covered_to) + " overlap");
        if (r.offset - covered_to > kMaxGapBytes)
            return corrupt("no entry covers manifest bytes " + std::to_string(covered_to) + " to " +
                           std::to_string(r.offset) + ": a case or module line is missing");
        covered_to = r.offset + r.length;
    }
    if (manifest_bytes - covered_to > kMaxGapBytes)
        return corrupt("no entry covers manifest bytes " + std::to_string(covered_to) + " to " +
                       std::to_string(manifest_bytes) + ": a case or module line is missing");
    return "";
}

std::string parseCaseIndex(std::string text, size_t manifest_bytes, const std::string& manifest_sha256,
                           CaseIndex* out) {
    const std::string what =
        "case index " + out->manifest_path.substr(0, out->manifest_path.rfind('/') + 1) + "manifest.index";
    auto corrupt = [&](const std::string& why) {
        return what + " is corrupt (" + why +
               "): rebuild the assets target (cmake --build <build dir> --target assets)";
    };
    // The last line, "end crc32:<8 hex digits>", holds the CRC-32 of every byte before it: a truncated or
    // altered index is refused before any of it is believed.
    const size_t end_line = text.size() >= 2 ? text.rfind('\n', text.size() - 2) : std::string::npos;
    if (text.empty() || text.back() != '\n' || end_line == std::string::npos ||
        text.compare(end_line + 1, 10, "end crc32:") != 0)
        return corrupt("no \"end\" line: truncated");
    const std::string crc = text.substr(end_line + 5, text.size() - end_line - 6);
    if (ProgramCache::moduleHash(text.data(), end_line + 1) != crc)
        return corrupt("its CRC-32 is not the one its \"end\" line records");
    out->text = std::move(text);
    std::string_view rest(out->text.data(), end_line + 1);
    auto nextLine = [&](std::string_view* line) {
        size_t nl = rest.find('\n');
        if (nl == std::string_view::npos) return false;
        *line = rest.substr(0, nl);
        rest.remove_prefix(nl + 1);
        return true;
    };
    std::string_view line, words;
    if (!nextLine(&line) || line != "spirv_intel_cts case index " + std::to_string(kCaseIndexVersion))
        return what + " is not a version " + std::to_string(kCaseIndexVersion) +
               " case index: rebuild the assets target (cmake --build <build dir> --target assets)";
    std::string_view fields[7];
    size_t recorded_bytes = 0, count = 0;
    if (!nextLine(&line) || !headerLine(line, "manifest", &words) || !splitFields(words, fields, 2, ' ') ||
        !readNumber(fields[0], &recorded_bytes))
        return corrupt("no \"manifest <bytes> <sha256>\" line");
    if (recorded_bytes != manifest_bytes || fields[1] != manifest_sha256)
        return what + " is stale: it was written for a manifest of " + std::to_string(recorded_bytes) +
               " bytes with sha256 " + std::string(fields[1]) + ", manifest.json has " +
               std::to_string(manifest_bytes) + " bytes and manifest.sha256 says " + manifest_sha256 +
               ": rebuild the assets target (cmake --build <build dir> --target assets)";
    if (!nextLine(&line) || !headerLine(line, "modules", &words) || !readNumber(words, &count))
        return corrupt("no \"modules <count>\" line");
    out->modules.reserve(count);
    for (size_t i = 0; i < count; ++i) {
        IndexedModule m;
        if (!nextLine(&line) || !splitFields(line, fields, 3) || fields[0].empty() ||
            !readNumber(fields[1], &m.entry.offset) || !readNumber(fields[2], &m.entry.length) ||
            !validRange(m.entry, manifest_bytes))
            return corrupt("module line " + std::to_string(i + 1) + " is not \"<path> <offset> <length>\"");
        m.path = fields[0];
        if (!out->modules.empty() && out->modules.back().path >= m.path)
            return corrupt("module " + std::string(m.path) + " is out of order or repeated");
        out->modules.push_back(m);
    }
    if (!nextLine(&line) || !headerLine(line, "cases", &words) || !readNumber(words, &count))
        return corrupt("no \"cases <count>\" line");
    out->cases.reserve(count);
    for (size_t i = 0; i < count; ++i) {
        IndexedCase c;
        if (!nextLine(&line) || !splitFields(line, fields, 7) || !parseTier(std::string(fields[1]), c.tier) ||
            !readNumber(fields[3], &c.entry.offset) || !readNumber(fields[4], &c.entry.length) ||
            !validRange(c.entry, manifest_bytes) ||
            (fields[5] != "-" && (!readNumber(fields[5], &c.module) || c.module >= out->modules.size())) ||
            fields[6].empty())
            return corrupt("case line " + std::to_string(i + 1) +
                           " is not \"<name> <tier> <tags> <offset> <length> <module> <family>\"");
        c.name = fields[0];
        c.tags = fields[2];
        if (fields[6] != "-") c.family = fields[6];
        if (!isValidCaseName(c.name)) return corrupt("invalid case name '" + std::string(c.name) + "'");
        // Sorted by name, so a repeated name is its neighbour's.
        if (!out->cases.empty() && out->cases.back().name >= c.name)
            return corrupt(out->cases.back().name == c.name
                               ? "duplicate case name '" + std::string(c.name) + "'"
                               : "case " + std::string(c.name) + " is out of order");
        out->cases.push_back(c);
    }
    if (!rest.empty()) return corrupt("lines after the last case");
    return checkTiling(*out, manifest_bytes, corrupt);
}

bool hasCaseIndex(const std::string& assets_dir) {
    struct stat st;
    return lstat((assets_dir + "/manifest.index").c_str(), &st) == 0;
}

std::string readCaseIndex(const std::string& assets_dir, const std::string& manifest_sha256, CaseIndex* out) {
    out->manifest_path = assets_dir + "/manifest.json";
    struct stat st;
    if (stat(out->manifest_path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return "manifest " + out->manifest_path +
               " is missing or unreadable (build the assets target, or pass --assets-dir)";
    std::string text;
    if (std::string e = readTextFile(assets_dir + "/manifest.index", &text); !e.empty())
        return "case index: " + e +
               " (the asset build writes it beside manifest.json: rebuild the assets target)";
    return parseCaseIndex(std::move(text), static_cast<size_t>(st.st_size), manifest_sha256, out);
}

namespace {

// The bytes of `r` in the open manifest.
bool readRange(int fd, const ByteRange& r, std::string* out) {
    out->resize(r.length);
    size_t done = 0;
    while (done < r.length) {
        ssize_t n = pread(fd, out->data() + done, r.length - done, static_cast<off_t>(r.offset + done));
        if (n <= 0) return false;
        done += static_cast<size_t>(n);
    }
    return true;
}

}  // namespace

ManifestLoad loadIndexedCases(const CaseIndex& index, const std::vector<const IndexedCase*>& chosen,
                              bool per_case) {
    ManifestLoad load;
    if (chosen.empty()) return load;
    const std::string& path = index.manifest_path;
    const std::string stale =
        "case index " + path.substr(0, path.rfind('/') + 1) + "manifest.index does not match manifest.json (";
    const std::string rebuild = "): rebuild the assets target (cmake --build <build dir> --target assets)";
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        load.errors.push_back("manifest " + path +
                              " is missing or unreadable (build the assets target, or pass "
                              "--assets-dir)");
        return load;
    }
    // Each entry is parsed once, here, and the document parseManifestDocument reads is assembled from the
    // parsed objects (parsing them again as one text cost a whole run's start-up as much again).
    nlohmann::json doc = {{"version", kManifestVersion},
                          {"modules", nlohmann::json::object()},
                          {"cases", nlohmann::json::array()}};
    nlohmann::json& cases = doc["cases"];
    nlohmann::json& modules = doc["modules"];
    std::vector<std::string> range_errors(chosen.size());  // per chosen case: why its range did not load
    std::vector<size_t> at_byte;                           // per entry in doc: its offset in the manifest
    std::string entry;
    // Each module once: a set (a linear search was quadratic, most of a whole run's start-up).
    std::set<size_t> modules_taken;
    for (size_t i = 0; i < chosen.size(); ++i) {
        const IndexedCase* c = chosen[i];
        // The range must hold exactly the object of the case the index names there.
        nlohmann::json object;
        bool ok = readRange(fd, c->entry, &entry);
        try {
            object = ok ? nlohmann::json::parse(entry) : nlohmann::json();
        } catch (const std::exception&) {
            ok = false;
        }
        auto name = object.is_object() ? object.find("name") : object.end();
        if (!ok || !object.is_object() || name == object.end() || !name->is_string() ||
            name->get_ref<const std::string&>() != c->name) {
            range_errors[i] = stale + "the byte range " + std::to_string(c->entry.offset) + "+" +
                              std::to_string(c->entry.length) + " of case '" + std::string(c->name) +
                              "' does not hold that case" + rebuild;
            continue;
        }
        // The module the entry names (the index's number for it is only a planning hint).
        size_t m = kNoModule;
        if (auto mod = object.find("module"); mod != object.end() && mod->is_string()) {
            const std::string& module = mod->get_ref<const std::string&>();
            auto it =
                std::lower_bound(index.modules.begin(), index.modules.end(), module,
                                 [](const IndexedModule& a, const std::string& b) { return a.path < b; });
            if (it != index.modules.end() && it->path == module)
                m = static_cast<size_t>(it - index.modules.begin());
        }
        at_byte.push_back(c->entry.offset);
        cases.push_back(std::move(object));
        // A module missing from the table: parseManifestDocument names it in the case's load error.
        if (m == kNoModule || !modules_taken.insert(m).second) continue;
        const IndexedModule& module = index.modules[m];
        nlohmann::json one;
        ok = readRange(fd, module.entry, &entry);
        try {
            one = ok ? nlohmann::json::parse("{" + entry + "}") : nlohmann::json();
        } catch (const std::exception&) {
            ok = false;
        }
        const std::string key(module.path);
        if (!ok || !one.is_object() || one.size() != 1 || !one.contains(key)) {
            load.errors.push_back(stale + "the byte range " + std::to_string(module.entry.offset) + "+" +
                                  std::to_string(module.entry.length) + " of module " + key +
                                  " does not hold that module" + rebuild);
            continue;
        }
        modules[key] = std::move(one[key]);
    }
    close(fd);
    if (!per_case)
        for (const auto& e : range_errors)
            if (!e.empty()) load.errors.push_back(e);
    if (!load.errors.empty()) return load;
    ManifestLoad parsed = parseManifestDocument(doc, path);
    // parseManifestDocument numbers the entries it was given; name each by where it is in the manifest.
    for (size_t i = 0; i < parsed.cases.size() && i < at_byte.size(); ++i) {
        std::string& e = parsed.cases[i].load_error;
        const std::string was = "manifest " + path + " entry " + std::to_string(i) + " ";
        if (e.compare(0, was.size(), was) == 0)
            e = "manifest " + path + " entry at byte " + std::to_string(at_byte[i]) + " " +
                e.substr(was.size());
    }
    if (!per_case || !parsed.errors.empty() || parsed.cases.size() != at_byte.size()) return parsed;
    // One case per chosen, in order: a range that did not hold its case is that case's load error.
    load.cases.reserve(chosen.size());
    size_t next = 0;
    for (size_t i = 0; i < chosen.size(); ++i) {
        if (range_errors[i].empty() && next < parsed.cases.size()) {
            load.cases.push_back(std::move(parsed.cases[next++]));
            continue;
        }
        CaseSpec spec;
        spec.name = chosen[i]->name;
        spec.family = chosen[i]->family;
        spec.tier = chosen[i]->tier;
        spec.origin = path;
        spec.load_error = range_errors[i].empty() ? "its manifest entry did not load" : range_errors[i];
        load.cases.push_back(std::move(spec));
    }
    return load;
}

}  // namespace cts
