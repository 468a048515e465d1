#include "test_common/harness/reports/report.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "test_common/harness/input/text.h"
#include "test_common/harness/reports/mismatch_json.h"
#include "test_common/harness/reports/version_gap.h"

namespace cts {

void Tally::add(Status s) {
    switch (s) {
        case Status::Pass: ++passed; break;
        case Status::Fail: ++failed; break;
        case Status::NotSupported: ++skipped; break;
        case Status::InternalError: ++internal; break;
        case Status::Crash: ++crashed; break;
        case Status::Timeout: ++timed_out; break;
        case Status::Waived: ++waived; break;
        case Status::Flake: ++flaky; break;
    }
}

PhaseTimes& PhaseTimes::operator+=(const PhaseTimes& o) {
    build_ms += o.build_ms;
    builds += o.builds;
    cache_hits += o.cache_hits;
    kernel_ms += o.kernel_ms;
    check_ms += o.check_ms;
    worker_start_ms += o.worker_start_ms;
    return *this;
}

std::string phaseSummary(const PhaseTimes& t) {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "time by phase: build %.1f s (%zu built, %zu cached), kernel %.1f s, check %.1f s, "
                  "worker start %.1f s",
                  t.build_ms / 1000, t.builds, t.cache_hits, t.kernel_ms / 1000, t.check_ms / 1000,
                  t.worker_start_ms / 1000);
    return buf;
}

void Tally::add(const CaseResult& r) {
    phases += r.phases;
    add(r.status);
    if (r.status == Status::Fail && r.phase == "build") ++build_failed;
    if (r.status == Status::Waived && r.not_run) ++not_run_waived;
}

const char* waivedStatusName(const CaseResult& r) {
    return r.not_run ? "NotRun" : statusName(r.waived_status);
}

std::string Tally::summary() const {
    std::string s = std::to_string(passed) + " passed, " + std::to_string(failed) + " failed";
    if (build_failed) s += " (" + std::to_string(build_failed) + " in phase build)";
    s += ", " + std::to_string(skipped) + " skipped";
    if (internal) s += ", " + std::to_string(internal) + " internal errors";
    if (crashed) s += ", " + std::to_string(crashed) + " crashed";
    if (timed_out) s += ", " + std::to_string(timed_out) + " timed out";
    if (waived) s += ", " + std::to_string(waived) + " waived";
    if (not_run_waived) s += " (" + std::to_string(not_run_waived) + " not run: a waiver skips them)";
    if (flaky) s += ", " + std::to_string(flaky) + " flaky";
    return s;
}

std::string skippedShareText(size_t skipped, size_t selected) {
    char share[32];
    std::snprintf(share, sizeof share, "%.1f%%", selected ? 100.0 * skipped / selected : 0.0);
    return std::to_string(skipped) + " of " + std::to_string(selected) + " selected case(s) (" + share +
           ") skipped by waiver \"skip\" entries";
}

size_t waivedNotRun(const std::vector<CaseResult>& results) {
    return static_cast<size_t>(
        std::count_if(results.begin(), results.end(), [](const CaseResult& r) { return r.not_run; }));
}

const char* ctsResultWord(Status s) {
    switch (s) {
        case Status::Pass: return "pass";
        case Status::Flake: return "pass";  // it passed on a retry; "status" says Flake
        case Status::NotSupported: return "skip";
        default: return "fail";
    }
}

namespace {

// "run interrupted by SIGTERM", "run aborted after a timeout (without --isolate)", ...
std::string abortReason(const std::string& aborted) {
    if (aborted.rfind("SIG", 0) == 0) return "run interrupted by " + aborted;
    if (aborted == "timeout") return "run aborted after a case timed out (without --isolate)";
    if (aborted == "device") return "run aborted: no device could be opened";
    return "run aborted (" + aborted + ")";
}

}  // namespace

std::string abortMessage(const RunInfo& info) {
    if (info.aborted.empty()) return "";
    return abortReason(info.aborted) + ": " + std::to_string(info.not_run.size()) + " of " +
           std::to_string(info.selected) + " selected case(s) not run";
}

namespace {

constexpr auto kReplace = nlohmann::ordered_json::error_handler_t::replace;

// `text` as a JSON string, exactly as nlohmann's dump writes it (no \u escape beyond control characters,
// invalid UTF-8 replaced): printable ASCII directly, anything else through nlohmann.
void appendJsonString(std::string& out, const std::string& text) {
    bool plain = true;
    for (unsigned char c : text)
        if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
            plain = false;
            break;
        }
    if (!plain) {
        out += nlohmann::ordered_json(text).dump(-1, ' ', false, kReplace);
        return;
    }
    out += '"';
    out += text;
    out += '"';
}

// A phase time as written: to the microsecond (the clocks say no more, and 17 digits a value would grow a
// 39k-case report by megabytes).
double phaseMs(double ms) {
    return std::round(ms * 1000) / 1000;
}

nlohmann::ordered_json phasesJson(const PhaseTimes& p) {
    return {{"build_ms", phaseMs(p.build_ms)}, {"builds", p.builds},
            {"cache_hits", p.cache_hits},      {"kernel_ms", phaseMs(p.kernel_ms)},
            {"check_ms", phaseMs(p.check_ms)}, {"worker_start_ms", phaseMs(p.worker_start_ms)}};
}

// One element of "cases" at the depth the document gives it (the object 4 spaces in, its members 6).
void appendCase(std::string& out, const CaseResult& r) {
    const bool plain = r.phase.empty() && r.status != Status::Waived && r.picture.empty() &&
                       r.attempts.empty() && r.version_gaps.empty();
    if (plain) {
        // Nearly every case: written directly, as dump(2) writes the object built below.
        out += "    {\n      \"name\": ";
        appendJsonString(out, r.name);
        out += ",\n      \"status\": \"";
        out += statusName(r.status);
        out += "\",\n      \"message\": ";
        appendJsonString(out, r.message);
        out += ",\n      \"duration_ms\": ";
        out += nlohmann::ordered_json(r.duration_ms).dump();
        out += ",\n      \"phases\": {\n        \"build_ms\": ";
        out += nlohmann::ordered_json(phaseMs(r.phases.build_ms)).dump();
        out += ",\n        \"builds\": ";
        out += std::to_string(r.phases.builds);
        out += ",\n        \"cache_hits\": ";
        out += std::to_string(r.phases.cache_hits);
        out += ",\n        \"kernel_ms\": ";
        out += nlohmann::ordered_json(phaseMs(r.phases.kernel_ms)).dump();
        out += ",\n        \"check_ms\": ";
        out += nlohmann::ordered_json(phaseMs(r.phases.check_ms)).dump();
        out += ",\n        \"worker_start_ms\": ";
        out += nlohmann::ordered_json(phaseMs(r.phases.worker_start_ms)).dump();
        out += "\n      },\n      \"seed\": ";
        out += std::to_string(r.seed);
        out += ",\n      \"tier\": \"";
        out += tierName(r.tier);
        out += "\"\n    }";
        return;
    }
    nlohmann::ordered_json c = {{"name", r.name},
                                {"status", statusName(r.status)},
                                {"message", r.message},
                                {"duration_ms", r.duration_ms},
                                {"phases", phasesJson(r.phases)},
                                {"seed", r.seed},
                                {"tier", tierName(r.tier)}};
    if (!r.phase.empty()) {
        c["phase"] = r.phase;
        c["build_log"] = r.build_log;
    }
    if (r.status == Status::Waived) {
        c["original_status"] = waivedStatusName(r);
        c["waiver"] = {{"tracker", r.waiver_tracker}, {"reason", r.waiver_reason}};
    }
    if (!r.picture.empty()) c["mismatches"] = pictureJson(r.picture);
    if (!r.attempts.empty()) c["attempts"] = r.attempts;
    if (!r.version_gaps.empty()) c["version_gaps"] = r.version_gaps;
    // dump(2) at the top level, moved 4 spaces in (a JSON string holds no raw line end).
    const std::string text = c.dump(2, ' ', false, kReplace);
    out += "    ";
    for (char ch : text) {
        out += ch;
        if (ch == '\n') out += "    ";
    }
}

}  // namespace

// nlohmann builds the document with "results" and "cases" empty; those two, a line or an object a case, are
// written into their places directly: a tree of 39k objects, built and dumped, took a quarter of a second of
// every whole run. The text is dump(2) of the whole tree, byte for byte (report_test.cpp compares them).
std::string jsonReport(const RunInfo& info, const std::vector<CaseResult>& results) {
    nlohmann::ordered_json doc;
    doc["cmd"] = info.command;
    doc["results"] = nlohmann::ordered_json::object();
    doc["cases"] = nlohmann::ordered_json::array();
    doc["platform"] = info.platform;
    doc["device"] = info.device;
    doc["driver"] = info.driver;
    doc["runtime_package"] = info.runtime_package;
    if (!info.offline_compiler.empty())
        doc["offline_compiler"] = {{"compiler", info.offline_compiler},
                                   {"target", info.target},
                                   {"target_description", info.target_description}};
    doc["assets_dir"] = info.assets_dir;
    doc["icd_vendors"] = info.icd_vendors;
    doc["seed"] = info.seed;
    doc["quick"] = info.quick;
    doc["build_only"] = info.build_only;
    doc["shard"] = {{"index", info.shard_index}, {"count", info.shard_count}};
    doc["selected"] = info.selected;
    // Loud, beside "selected": a skip can keep any share of a run from running (the gate's exit policy).
    doc["waived_not_run"] = waivedNotRun(results);
    PhaseTimes totals;  // the run's time by phase, summed over its cases
    for (const auto& r : results) totals += r.phases;
    doc["phase_totals"] = phasesJson(totals);
    const SelectionRecord& sel = info.selection;
    doc["selection"] = {{"patterns", sel.patterns},
                        {"filter", sel.filter},
                        {"caselist_file", sel.caselist_file},
                        {"exclude_file", sel.exclude_file},
                        {"tags", sel.tags},
                        {"quick", sel.quick},
                        {"extended", sel.extended},
                        {"huge", sel.huge},
                        {"tier", sel.core_only ? "core" : "all"},
                        {"rerun_failed", sel.rerun_failed},
                        {"run_skipped", sel.run_skipped},
                        {"seed", sel.seed},
                        {"suite_version", sel.suite_version},
                        {"manifest_sha256", sel.manifest_sha256}};
    // An aborted run says so, and which selected cases it never ran; the abort is a run-level error too,
    // so a reader that only looks at "errors" does not take the report for a complete run.
    doc["aborted"] =
        info.aborted.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(info.aborted);
    doc["not_run"] = info.not_run;
    doc["errors"] = info.errors;
    if (!info.aborted.empty()) doc["errors"].push_back(abortMessage(info));
    if (!info.waiver_files.empty())
        doc["waivers"] = {
            {"files", info.waiver_files}, {"sha256", info.waiver_sha256}, {"stale", info.stale_waivers}};
    if (!info.version_gaps.empty()) {
        nlohmann::ordered_json gaps = nlohmann::ordered_json::array();
        for (const auto& g : info.version_gaps)
            gaps.push_back({{"extension", g.extension},
                            {"reported", g.reported},
                            {"promised_from", g.promised_from},
                            {"cases", g.cases}});
        doc["version_gaps"] = gaps;
    }
    // Driver and case messages may hold arbitrary bytes: replace invalid UTF-8 instead of throwing.
    std::string text = doc.dump(2, ' ', false, kReplace) + "\n";
    if (results.empty()) return text;
    // The two empty members as dump(2) writes them at the top level: a JSON string holds no raw line end, so
    // each occurs once, in this order.
    const std::string results_at = "\n  \"results\": {}", cases_at = "\n  \"cases\": []";
    const size_t r = text.find(results_at), c = text.find(cases_at);
    if (r == std::string::npos || c == std::string::npos || c < r)
        throw std::logic_error("jsonReport: the document lost its \"results\" or \"cases\" member");
    std::string out;
    out.reserve(text.size() + results.size() * 320);
    out.append(text, 0, r);
    out += "\n  \"results\": {";
    for (size_t i = 0; i < results.size(); ++i) {
        out += i ? ",\n    " : "\n    ";
        appendJsonString(out, results[i].name);
        out += ": \"";
        out += ctsResultWord(results[i].status);
        out += '"';
    }
    out += "\n  }";
    out.append(text, r + results_at.size(), c - r - results_at.size());
    out += "\n  \"cases\": [";
    for (size_t i = 0; i < results.size(); ++i) {
        out += i ? ",\n" : "\n";
        appendCase(out, results[i]);
    }
    out += "\n  ]";
    out.append(text, c + cases_at.size(), std::string::npos);
    return out;
}

namespace {

// The length of the UTF-8 sequence starting at text[i] when it is valid and encodes a character XML 1.0
// allows (no surrogate, no U+FFFE/U+FFFF, at most U+10FFFF, shortest form); else 0. ASCII is length 1.
size_t xmlCharLength(const std::string& text, size_t i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) return 1;
    size_t n;
    uint32_t cp;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2, cp = c & 0x1fu;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3, cp = c & 0x0fu;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4, cp = c & 0x07u;
    } else {
        return 0;  // a continuation byte, 0xc0/0xc1 (always overlong) or 0xf5..0xff
    }
    if (i + n > text.size()) return 0;
    for (size_t k = 1; k < n; ++k) {
        unsigned char d = static_cast<unsigned char>(text[i + k]);
        if ((d & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (d & 0x3fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff))) return 0;
    if ((cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff) return 0;
    return n;
}

}  // namespace

size_t invisibleFormatAt(std::string_view text, size_t i, uint32_t* code_point) {
    auto at = [&](size_t k) { return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0u; };
    uint32_t cp = 0;
    size_t n = 0;
    if (at(0) == 0xd8 && at(1) == 0x9c) {
        cp = 0x61c, n = 2;
    } else if ((at(0) == 0xe2 && (at(1) == 0x80 || at(1) == 0x81) && at(2) >= 0x80 && at(2) <= 0xbf) ||
               (at(0) == 0xef && at(1) == 0xbb && at(2) == 0xbf)) {
        cp = ((at(0) & 0x0fu) << 12) | ((at(1) & 0x3fu) << 6) | (at(2) & 0x3fu), n = 3;
        const bool invisible = (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) ||
                               (cp >= 0x2060 && cp <= 0x2069) || cp == 0xfeff;
        if (!invisible) return 0;
    }
    if (n && code_point) *code_point = cp;
    return n;
}

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        size_t n = c >= 0x80 ? xmlCharLength(std::string(text.substr(i, 4)), 0) : 1;
        // U+0080..U+009F (C2 80..C2 9F) are the C1 controls, terminal commands as much as ESC is.
        bool c1 = n == 2 && c == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0;
        if (n == 0 || c1 || c < 0x20 || c == 0x7f || invisibleFormatAt(text, i)) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else {
            out.append(text.substr(i, n));
            i += n - 1;
        }
    }
    return out;
}

std::string xmlEscape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80) {
            size_t n = xmlCharLength(text, i);
            if (n == 0) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\x%02x", c);
                out += buf;
            } else {
                out.append(text, i, n);
                i += n - 1;
            }
            continue;
        }
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            case '\n': out += "&#10;"; break;
            case '\r': out += "&#13;"; break;
            case '\t': out += "&#9;"; break;
            default:
                if (c < 0x20 || c == 0x7f) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\x%02x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c);
                }
        }
    }
    return out;
}

std::string junitReport(const RunInfo& info, const std::vector<CaseResult>& results) {
    Tally t;
    double total_ms = 0;
    for (const auto& r : results) {
        t.add(r.status);
        if (r.status == Status::Flake && info.flake_fails) ++t.failed;
        total_ms += r.duration_ms;
    }
    // An aborted run adds one error (harness.aborted) and a <skipped message="not run: ..."> per case it
    // never ran, so the counts cover every selected case.
    size_t aborted = info.aborted.empty() ? 0 : 1;
    size_t errors = t.internal + t.crashed + t.timed_out + info.errors.size() + aborted;
    char time[32];
    std::snprintf(time, sizeof time, "%.3f", total_ms / 1000.0);
    std::string head = "tests=\"" +
                       std::to_string(results.size() + info.errors.size() + aborted + info.not_run.size()) +
                       "\" failures=\"" + std::to_string(t.failed) + "\" errors=\"" + std::to_string(errors) +
                       "\" skipped=\"" + std::to_string(t.skipped + t.waived + info.not_run.size()) +
                       "\" time=\"" + time + "\"";
    std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    x += "<testsuites name=\"spirv_intel_cts\" " + head + ">\n";
    x += "  <testsuite name=\"spirv_intel_cts\" " + head + ">\n";
    x += "    <properties>\n";
    auto prop = [&](const std::string& k, const std::string& v) {
        x += "      <property name=\"" + k + "\" value=\"" + xmlEscape(v) + "\"/>\n";
    };
    prop("cmd", info.command);
    prop("platform", info.platform);
    prop("device", info.device);
    prop("driver", info.driver);
    prop("runtime_package", info.runtime_package);
    prop("build_only", info.build_only ? "true" : "false");
    if (!info.offline_compiler.empty()) {
        prop("offline_compiler", info.offline_compiler);
        prop("target", info.target);
        prop("target_description", info.target_description);
    }
    prop("assets_dir", info.assets_dir);
    prop("icd_vendors", info.icd_vendors);
    prop("seed", std::to_string(info.seed));
    prop("quick", info.quick ? "true" : "false");
    prop("shard", std::to_string(info.shard_index) + "/" + std::to_string(info.shard_count));
    prop("selected", std::to_string(info.selected));
    prop("waived_not_run", std::to_string(waivedNotRun(results)));
    for (const auto& g : info.version_gaps) prop("version_gap." + g.extension, versionGapLine(g, true));
    // The selection record, lists as JSON arrays.
    const SelectionRecord& sel = info.selection;
    auto flag = [](bool b) { return b ? "true" : "false"; };
    prop("selection.patterns", nlohmann::json(sel.patterns).dump());
    prop("selection.filter", sel.filter);
    prop("selection.caselist_file", sel.caselist_file);
    prop("selection.exclude_file", sel.exclude_file);
    prop("selection.tags", nlohmann::json(sel.tags).dump());
    prop("selection.quick", flag(sel.quick));
    prop("selection.extended", flag(sel.extended));
    prop("selection.huge", flag(sel.huge));
    prop("selection.tier", sel.core_only ? "core" : "all");
    prop("selection.rerun_failed", sel.rerun_failed);
    prop("selection.run_skipped", flag(sel.run_skipped));
    prop("selection.seed", std::to_string(sel.seed));
    prop("selection.suite_version", sel.suite_version);
    prop("selection.manifest_sha256", sel.manifest_sha256);
    if (aborted) {
        prop("aborted", info.aborted);
        prop("not_run", std::to_string(info.not_run.size()));
    }
    x += "    </properties>\n";
    for (const auto& e : info.errors)
        x += "    <testcase classname=\"harness\" name=\"setup\" time=\"0\">\n      <error message=\"" +
             xmlEscape(e) + "\" type=\"InternalError\">" + xmlEscape(e) + "</error>\n    </testcase>\n";
    if (aborted) {
        std::string e = xmlEscape(abortMessage(info));
        x += "    <testcase classname=\"harness\" name=\"aborted\" time=\"0\">\n      <error message=\"" + e +
             "\" type=\"Aborted\">" + e + "</error>\n    </testcase>\n";
    }
    for (const auto& r : results) {
        size_t dot = r.name.rfind('.');
        std::string cls = dot == std::string::npos ? r.name : r.name.substr(0, dot);
        std::snprintf(time, sizeof time, "%.3f", r.duration_ms / 1000.0);
        x += "    <testcase classname=\"" + xmlEscape(cls) + "\" name=\"" + xmlEscape(r.name) + "\" time=\"" +
             time + "\"";
        std::string tier_prop = std::string("      <properties><property name=\"tier\" value=\"") +
                                tierName(r.tier) + "\"/></properties>\n";
        std::string msg = xmlEscape(r.message);
        if (!r.attempts.empty()) {  // --retry: the attempts as a property and as system-out
            std::string all;
            for (size_t i = 0; i < r.attempts.size(); ++i)
                all += "attempt " + std::to_string(i + 1) + ": " + r.attempts[i] + "\n";
            tier_prop = std::string("      <properties><property name=\"tier\" value=\"") + tierName(r.tier) +
                        "\"/><property name=\"status\" value=\"" + statusName(r.status) +
                        "\"/><property name=\"attempts\" value=\"" + std::to_string(r.attempts.size()) +
                        "\"/></properties>\n      <system-out>" + xmlEscape(all) + "</system-out>\n";
        }
        switch (r.status) {
            case Status::Pass: x += ">\n" + tier_prop + "    </testcase>\n"; continue;
            case Status::Flake:  // passed on a retry: a failure only when flakes fail the run
                if (info.flake_fails)
                    x += ">\n      <failure message=\"" + msg + "\" type=\"Flake\">" + msg + "</failure>\n";
                else
                    x += ">\n";
                break;
            case Status::NotSupported: x += ">\n      <skipped message=\"" + msg + "\"/>\n"; break;
            case Status::Waived:
                x += ">\n      <skipped message=\"" +
                     xmlEscape("waived: " + r.waiver_tracker + " (" + waivedStatusName(r) +
                               "): " + r.message) +
                     "\"/>\n";
                break;
            case Status::Fail:
                if (r.phase == "build")  // the compiler's first error line as the message, the log as text
                    x += ">\n      <failure message=\"" + xmlEscape(firstErrorLine(r.build_log)) +
                         "\" type=\"build\">" +
                         (r.message.find(r.build_log) == std::string::npos
                              ? xmlEscape(r.message + "\n" + r.build_log)
                              : msg) +
                         "</failure>\n";
                else
                    x += ">\n      <failure message=\"" + msg + "\" type=\"Fail\">" + msg + "</failure>\n";
                break;
            default:
                x += ">\n      <error message=\"" + msg + "\" type=\"" + statusName(r.status) + "\">" + msg +
                     "</error>\n";
        }
        x += tier_prop + "    </testcase>\n";
    }
    std::string not_run = xmlEscape("not run: " + abortReason(info.aborted));
    for (const auto& name : info.not_run) {
        size_t dot = name.rfind('.');
        std::string cls = dot == std::string::npos ? name : name.substr(0, dot);
        x += "    <testcase classname=\"" + xmlEscape(cls) + "\" name=\"" + xmlEscape(name) +
             "\" time=\"0\">\n      <skipped message=\"" + not_run + "\"/>\n    </testcase>\n";
    }
    x += "  </testsuite>\n</testsuites>\n";
    return x;
}

namespace {

// Creates a temporary file in the directory of `target`: ".NAME.tmp.XXXXXX". Returns its descriptor, or -1
// with errno set.
int makeTemp(const std::string& target, std::string& tmp) {
    std::string pattern = dirName(target) + "/." + baseName(target) + ".tmp.XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    int fd = mkostemp(buf.data(), O_CLOEXEC);
    if (fd >= 0) tmp = buf.data();
    return fd;
}

}  // namespace

ReportFile::~ReportFile() {
    if (direct_) std::fclose(direct_);
}

std::string ReportFile::prepare(const std::string& path) {
    if (direct_) std::fclose(direct_);
    direct_ = nullptr;
    path_.clear();
    target_.clear();
    written_ = false;
    struct stat st;
    if (stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) return std::strerror(EISDIR);
        if (!S_ISREG(st.st_mode)) {
            // A device or pipe: nothing to preserve and nowhere to put a temporary file.
            if (!(direct_ = std::fopen(path.c_str(), "w"))) return std::strerror(errno);
            path_ = path;
            return "";
        }
        if (access(path.c_str(), W_OK) != 0) return std::strerror(errno);
        char* real = realpath(path.c_str(), nullptr);
        if (!real) return std::strerror(errno);
        target_ = real;
        std::free(real);
        mode_ = st.st_mode & 0777;
    } else if (errno == ENOENT) {
        target_ = path;
        mode_t mask = umask(0);
        umask(mask);
        mode_ = 0666 & ~mask;
    } else {
        return std::strerror(errno);
    }
    // Can a file be created beside it? (The earlier report, if any, is not touched.)
    std::string tmp;
    int fd = makeTemp(target_, tmp);
    if (fd < 0) return std::strerror(errno);
    close(fd);
    unlink(tmp.c_str());
    path_ = path;
    return "";
}

std::string ReportFile::write(const std::string& text) {
    if (path_.empty() || written_) return "";
    written_ = true;
    if (direct_) {
        bool ok =
            std::fwrite(text.data(), 1, text.size(), direct_) == text.size() && std::fflush(direct_) == 0;
        int err = errno;
        ok = std::fclose(direct_) == 0 && ok;
        direct_ = nullptr;
        return ok ? "" : std::strerror(err ? err : EIO);
    }
    std::string tmp;
    int fd = makeTemp(target_, tmp);
    if (fd < 0) return std::strerror(errno);
    int err = 0;
    for (size_t done = 0; done < text.size();) {
        ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            err = n < 0 ? errno : EIO;
            break;
        }
        done += static_cast<size_t>(n);
    }
    if (!err && fchmod(fd, mode_) != 0) err = errno;
    if (!err && fsync(fd) != 0) err = errno;
    if (close(fd) != 0 && !err) err = errno;
    if (!err && rename(tmp.c_str(), target_.c_str()) != 0) err = errno;
    if (err) {
        unlink(tmp.c_str());
        return std::strerror(err);
    }
    return "";
}

std::string shellQuote(const std::string& word) {
    if (word.empty()) return "''";
    bool plain = true;
    for (unsigned char c : word)
        if (!(std::isalnum(c) || std::string("_./=:@%+,-").find(static_cast<char>(c)) != std::string::npos))
            plain = false;
    if (plain) return word;
    std::string out = "'";
    for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string secondsText(double seconds) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g s", seconds);
    return buf;
}

std::string oneLine(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += ' ';
        else if (c == '\r')
            continue;
        else
            out += c;
    }
    return out;
}

LineLog::~LineLog() {
    if (file_) std::fclose(file_);
}

void LineLog::flushLine(int printed) {
    int err = printed < 0 ? errno : 0;
    if (std::fflush(file_) != 0 && !err) err = errno;
    if (err && error_.empty()) error_ = std::strerror(err);
}

void LineLog::start(const std::string& name) {
    if (!file_) return;
    flushLine(std::fprintf(file_, "start\t%s\n", printable(name).c_str()));
}

void LineLog::finish(const CaseResult& r) {
    if (!file_) return;
    flushLine(std::fprintf(file_, "%s\t%s\t%.0f ms\tseed=%llu\t%s\n", statusName(r.status),
                           printable(r.name).c_str(), r.duration_ms, static_cast<unsigned long long>(r.seed),
                           printable(oneLine(r.message)).c_str()));
}

void LineLog::note(const std::string& text) {
    if (!file_) return;
    flushLine(std::fprintf(file_, "note\t%s\n", printable(oneLine(text)).c_str()));
}

}  // namespace cts
