#include "test_common/harness/model/case.h"

#include <cctype>
#include <sstream>
#include <vector>

#include "test_common/cl/build_log.h"
#include "test_common/harness/input/text.h"

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
        case Status::Flake: return "Flake";
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
        line = trimmed(line, " \t\r");
        if (line.empty()) continue;
        std::string l = lower(line);
        // "clBuildProgram: CL_BUILD_PROGRAM_FAILURE" is the harness's own prefix, and ocloc frames every
        // log with lines of its own ("Compilation from IR - skipping loading of FCL", "Build failed with
        // error code: -11", "Command was: ..."): none is the compiler's words, which may hold no keyword at
        // all
        // ("For PVC platform images should not be used").
        if (l.rfind("remark", 0) == 0 || l.rfind("warning", 0) == 0 || l.rfind("clbuildprogram:", 0) == 0 ||
            l.rfind("compilation from ir", 0) == 0 || l.rfind("build failed with error code", 0) == 0 ||
            l.rfind("command was:", 0) == 0)
            continue;
        lines.push_back(line);
    }
    for (const char* word : {"error", "fail", "not supported", "unsupported"})
        for (const auto& line : lines)
            if (lower(line).find(word) != std::string::npos)
                return capText(line, kMessageLineHeadBytes, kMessageLineTailBytes);
    if (!lines.empty()) return capText(lines.front(), kMessageLineHeadBytes, kMessageLineTailBytes);
    // Only the harness's prefix and remarks: the prefix names the CL error at least.
    std::string first = capText(log.substr(0, log.find('\n')), kMessageLineHeadBytes, kMessageLineTailBytes);
    return first.empty() ? std::string("(empty build log)") : first;
}

const ParamSchema& Family::paramSchema() const {
    static const ParamSchema none{};
    return none;
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

void Registry::promiseSpirvFrom(const std::string& cl_extension, uint32_t major, uint32_t minor) {
    for (auto& p : promises_)
        if (p.cl_extension == cl_extension) {
            p.major = major;
            p.minor = minor;
            return;
        }
    promises_.push_back({cl_extension, major, minor});
}

const Family* Registry::family(const std::string& name) const {
    auto it = families_.find(name);
    return it == families_.end() ? nullptr : it->second.get();
}

}  // namespace cts
