// How case families reach the runner. The api.* families (test_conformance/api/) are always built; every
// other top-level group lives in a folder of its own that test_conformance/CMakeLists.txt discovers (a folder
// with a family.json) and links whole, and registers itself from there with CTS_REGISTER_FAMILIES:
//
//     void registerMyGroupFamilies(Registry& registry) { registry.addFamily(...); }
//     CTS_REGISTER_FAMILIES("<group>", registerMyGroupFamilies);
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "test_common/harness/model/case.h"
#include "test_common/harness/runner.h"

namespace cts {

void registerApiFamilies(Registry& registry);

// Every group registered with CTS_REGISTER_FAMILIES: (group name, registration function).
inline std::vector<std::pair<std::string, RegisterFamilies>>& registeredFamilies() {
    static std::vector<std::pair<std::string, RegisterFamilies>> all;
    return all;
}

namespace detail {
struct FamiliesRegistrar {
    FamiliesRegistrar(const char* group, RegisterFamilies add) {
        registeredFamilies().emplace_back(group, add);
    }
};
}  // namespace detail

}  // namespace cts

#define CTS_REGISTER_FAMILIES(group, add)                                   \
    static const ::cts::detail::FamiliesRegistrar cts_families_registrar_ { \
        group, add                                                          \
    }
