#include "test_common/harness/case.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace cts {

const char* statusName(Status status) {
    switch (status) {
        case Status::Pass: return "Pass";
        case Status::Fail: return "Fail";
        case Status::NotSupported: return "NotSupported";
        case Status::InternalError: return "InternalError";
        case Status::Crash: return "Crash";
        case Status::Timeout: return "Timeout";
        case Status::Waived: return "Waived";
    }
    return "Unknown";
}

const char* tierName(Tier tier) {
    return tier == Tier::Core ? "core" : "device_specific";
}

bool parseTier(const std::string& text, Tier& out) {
    if (text == "core")
        out = Tier::Core;
    else if (text == "device_specific")
        out = Tier::DeviceSpecific;
    else
        return false;
    return true;
}

std::string firstErrorLine(const std::string& log) {
    auto lower = [](std::string s) {
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    std::vector<std::string> lines;
    std::istringstream in(log);
    for (std::string line; std::getline(in, line);) {
        size_t b = line.find_first_not_of(" \t\r");
        if (b == std::string::npos) continue;
        line = line.substr(b, line.find_last_not_of(" \t\r") - b + 1);
        std::string l = lower(line);
        // "clBuildProgram: CL_BUILD_PROGRAM_FAILURE" is the harness's own prefix, not the compiler's words.
        if (l.rfind("remark", 0) == 0 || l.rfind("warning", 0) == 0 || l.rfind("clbuildprogram:", 0) == 0)
            continue;
        lines.push_back(line);
    }
    for (const char* word : {"error", "fail", "not supported", "unsupported"})
        for (const auto& line : lines)
            if (lower(line).find(word) != std::string::npos) return line;
    if (!lines.empty()) return lines.front();
    // Only the harness's prefix and remarks: the prefix names the CL error at least.
    std::string first = log.substr(0, log.find('\n'));
    return first.empty() ? std::string("(empty build log)") : first;
}

namespace {

[[noreturn]] void badParam(const std::string& key, const std::string& value, const char* want) {
    throw InternalError("case parameter '" + key + "' = '" + value + "' is not " + want);
}

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return "";
    size_t e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

int64_t parseSigned(const std::string& key, const std::string& text) {
    std::string t = trim(text);
    if (t.empty()) badParam(key, text, "an integer");
    errno = 0;
    char* end = nullptr;
    long long v = std::strtoll(t.c_str(), &end, 0);
    if (errno != 0 || *end != '\0') badParam(key, text, "an integer");
    return v;
}

}  // namespace

int64_t Params::i(const std::string& key) const {
    return parseSigned(key, s(key));
}

uint64_t Params::u(const std::string& key) const {
    std::string text = s(key);
    std::string t = trim(text);
    if (t.empty() || t[0] == '-') badParam(key, text, "an unsigned integer");
    errno = 0;
    char* end = nullptr;
    unsigned long long v = std::strtoull(t.c_str(), &end, 0);
    if (errno != 0 || *end != '\0') badParam(key, text, "an unsigned integer");
    return v;
}

std::string Params::s(const std::string& key) const {
    auto it = values_.find(key);
    if (it == values_.end()) throw InternalError("case parameter '" + key + "' is missing");
    return it->second;
}

bool Params::b(const std::string& key) const {
    std::string v = trim(s(key));
    if (v == "true" || v == "1") return true;
    if (v == "false" || v == "0") return false;
    badParam(key, v, "a boolean (true/false/1/0)");
}

std::vector<int64_t> Params::list(const std::string& key) const {
    std::string text = trim(s(key));
    std::string body = text;
    if (!body.empty() && body.front() == '[') {
        if (body.back() != ']') badParam(key, text, "a list of integers");
        body = body.substr(1, body.size() - 2);
    }
    std::vector<int64_t> out;
    if (trim(body).empty()) return out;
    std::stringstream in(body);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (trim(item).empty()) badParam(key, text, "a list of integers");
        out.push_back(parseSigned(key, item));
    }
    return out;
}

Outcome Family::checkSupport(const CaseSpec&, const DeviceInfo&) const {
    return Outcome::pass();
}

void Registry::addFamily(std::unique_ptr<Family> family) {
    if (!family) throw InternalError("Registry::addFamily(nullptr)");
    std::string key = family->name();
    if (families_.count(key)) throw InternalError("family '" + key + "' registered twice");
    families_[key] = std::move(family);
}

void Registry::addCase(CaseSpec spec) {
    if (!families_.count(spec.family))
        throw InternalError("case '" + spec.name + "' names family '" + spec.family +
                            "', which is not registered");
    cases_.push_back(std::move(spec));
}

const Family* Registry::family(const std::string& name) const {
    auto it = families_.find(name);
    return it == families_.end() ? nullptr : it->second.get();
}

}  // namespace cts
