#include "test_common/harness/report.h"

#include <cctype>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace cts {

void Tally::add(Status s) {
    switch (s) {
        case Status::Pass: ++passed; break;
        case Status::Fail: ++failed; break;
        case Status::NotSupported: ++skipped; break;
        case Status::InternalError: ++internal; break;
        case Status::Crash: ++crashed; break;
        case Status::Timeout: ++timed_out; break;
    }
}

std::string Tally::summary() const {
    std::string s = std::to_string(passed) + " passed, " + std::to_string(failed) + " failed, " +
                    std::to_string(skipped) + " skipped";
    if (internal) s += ", " + std::to_string(internal) + " internal errors";
    if (crashed) s += ", " + std::to_string(crashed) + " crashed";
    if (timed_out) s += ", " + std::to_string(timed_out) + " timed out";
    return s;
}

const char* ctsResultWord(Status s) {
    switch (s) {
        case Status::Pass: return "pass";
        case Status::NotSupported: return "skip";
        default: return "fail";
    }
}

std::string jsonReport(const RunInfo& info, const std::vector<CaseResult>& results) {
    nlohmann::ordered_json doc;
    doc["cmd"] = info.command;
    doc["results"] = nlohmann::ordered_json::object();
    for (const auto& r : results) doc["results"][r.name] = ctsResultWord(r.status);
    doc["cases"] = nlohmann::ordered_json::array();
    for (const auto& r : results) {
        doc["cases"].push_back({{"name", r.name},
                                {"status", statusName(r.status)},
                                {"message", r.message},
                                {"duration_ms", r.duration_ms},
                                {"seed", r.seed}});
    }
    doc["platform"] = info.platform;
    doc["device"] = info.device;
    doc["driver"] = info.driver;
    doc["seed"] = info.seed;
    doc["quick"] = info.quick;
    doc["errors"] = info.errors;
    // Driver and case messages may hold arbitrary bytes: replace invalid UTF-8 instead of throwing.
    return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string xmlEscape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (unsigned char c : text) {
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
        total_ms += r.duration_ms;
    }
    size_t errors = t.internal + t.crashed + t.timed_out + info.errors.size();
    char time[32];
    std::snprintf(time, sizeof time, "%.3f", total_ms / 1000.0);
    std::string head = "tests=\"" + std::to_string(results.size() + info.errors.size()) + "\" failures=\"" +
                       std::to_string(t.failed) + "\" errors=\"" + std::to_string(errors) + "\" skipped=\"" +
                       std::to_string(t.skipped) + "\" time=\"" + time + "\"";
    std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    x += "<testsuites name=\"spirv_intel_cts\" " + head + ">\n";
    x += "  <testsuite name=\"spirv_intel_cts\" " + head + ">\n";
    x += "    <properties>\n";
    auto prop = [&](const char* k, const std::string& v) {
        x += "      <property name=\"" + std::string(k) + "\" value=\"" + xmlEscape(v) + "\"/>\n";
    };
    prop("cmd", info.command);
    prop("platform", info.platform);
    prop("device", info.device);
    prop("driver", info.driver);
    prop("seed", std::to_string(info.seed));
    prop("quick", info.quick ? "true" : "false");
    x += "    </properties>\n";
    for (const auto& e : info.errors)
        x += "    <testcase classname=\"harness\" name=\"setup\" time=\"0\">\n      <error message=\"" +
             xmlEscape(e) + "\" type=\"InternalError\">" + xmlEscape(e) + "</error>\n    </testcase>\n";
    for (const auto& r : results) {
        size_t dot = r.name.rfind('.');
        std::string cls = dot == std::string::npos ? r.name : r.name.substr(0, dot);
        std::snprintf(time, sizeof time, "%.3f", r.duration_ms / 1000.0);
        x += "    <testcase classname=\"" + xmlEscape(cls) + "\" name=\"" + xmlEscape(r.name) + "\" time=\"" +
             time + "\"";
        std::string msg = xmlEscape(r.message);
        switch (r.status) {
            case Status::Pass: x += "/>\n"; continue;
            case Status::NotSupported: x += ">\n      <skipped message=\"" + msg + "\"/>\n"; break;
            case Status::Fail:
                x += ">\n      <failure message=\"" + msg + "\" type=\"Fail\">" + msg + "</failure>\n";
                break;
            default:
                x += ">\n      <error message=\"" + msg + "\" type=\"" + statusName(r.status) + "\">" + msg +
                     "</error>\n";
        }
        x += "    </testcase>\n";
    }
    x += "  </testsuite>\n</testsuites>\n";
    return x;
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

void LineLog::start(const std::string& name) {
    if (!file_) return;
    std::fprintf(file_, "start\t%s\n", name.c_str());
    std::fflush(file_);
}

void LineLog::finish(const CaseResult& r) {
    if (!file_) return;
    std::fprintf(file_, "%s\t%s\t%.0f ms\tseed=%llu\t%s\n", statusName(r.status), r.name.c_str(),
                 r.duration_ms, static_cast<unsigned long long>(r.seed), oneLine(r.message).c_str());
    std::fflush(file_);
}

void LineLog::note(const std::string& text) {
    if (!file_) return;
    std::fprintf(file_, "note\t%s\n", oneLine(text).c_str());
    std::fflush(file_);
}

}  // namespace cts
