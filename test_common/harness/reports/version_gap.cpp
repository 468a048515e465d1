#include "test_common/harness/reports/version_gap.h"

#include <algorithm>

namespace cts {
namespace {

std::string versionText(uint32_t major, uint32_t minor, uint32_t patch) {
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

}  // namespace

std::vector<VersionGapNote> deviceVersionGaps(const DeviceInfo& device, const Registry& registry) {
    std::vector<VersionGapNote> notes;
    for (const auto& p : registry.spirvPromises()) {
        const ExtensionVersion* e = device.extension(p.cl_extension);
        // Without a version the requirement is unmet (requirements.cpp) and api.extension_versions fails:
        // no gap to run across.
        if (!e || !e->version_known || device.hasExtension(p.cl_extension, p.major, p.minor)) continue;
        notes.push_back(
            {p.cl_extension, versionText(e->major, e->minor, e->patch), versionText(p.major, p.minor, 0), 0});
    }
    return notes;
}

void countVersionGaps(std::vector<VersionGapNote>& notes, const std::map<std::string, size_t>& counts,
                      const DeviceInfo& device) {
    for (auto& n : notes) {
        auto it = counts.find(n.extension);
        n.cases = it == counts.end() ? 0 : it->second;
    }
    for (const auto& [ext, count] : counts) {
        if (std::any_of(notes.begin(), notes.end(),
                        [&](const VersionGapNote& n) { return n.extension == ext; }))
            continue;
        const ExtensionVersion* e = device.extension(ext);
        notes.push_back({ext, e ? versionText(e->major, e->minor, e->patch) : "", "", count});
    }
}

std::string versionGapLine(const VersionGapNote& n, bool counted) {
    std::string line = n.extension + " " + n.reported + ": SPIR-V support is promised from " +
                       (n.promised_from.empty() ? std::string("a later version") : n.promised_from);
    if (!counted) return line + "; its cases run as device_specific";
    return line + "; its " + std::to_string(n.cases) + (n.cases == 1 ? " case" : " cases") +
           " ran as device_specific";
}

}  // namespace cts
