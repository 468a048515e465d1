// spirv_intel_cts: the conformance runner. The api.* families and every group that registered itself
// (CTS_REGISTER_FAMILIES in its own folder) make the case tree.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <vector>

#include "test_common/harness/runner.h"
#include "test_conformance/families.h"

int main(int argc, char** argv) {
    auto groups = cts::registeredFamilies();
    // Static initialisation order is unspecified: register in group-name order so every run builds the same
    // tree.
    std::sort(groups.begin(), groups.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<cts::RegisterFamilies> families = {cts::registerApiFamilies};
    for (const auto& group : groups) families.push_back(group.second);
    try {
        return cts::runnerMain(argc, argv, families);
    } catch (const std::exception& e) {
        // Registration or setup bugs: an internal error of the run, not a device failure.
        std::fprintf(stderr, "spirv_intel_cts: internal error: %s\n", e.what());
        return 1;
    }
}
