// Planted driver bugs for mutation testing of the suite. REFDEV_FAULTS names one or more faults,
// comma-separated; an unknown name is refused with the list of valid names; REFDEV_FAULTS=list (or the
// refdev_faults tool) prints them all.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace refdev {

struct FaultInfo {
    std::string name;         // lowercase_with_underscores, e.g. "shuffle_down_ignores_next"
    std::string description;  // one line: what the bug does
};

// Every fault the device knows: the core ones, then each op family's in family-name order.
const std::vector<FaultInfo>& allFaults();

// hang, crash and the device-query bugs (reference_device/faults.cpp).
std::vector<FaultInfo> coreFaults();

// Op families contribute their faults from their own folder (reference_device/ext/<family>/faults.cpp and,
// for faults that show only when instructions are combined, composition_faults.cpp):
//
//     std::vector<FaultInfo> myFamilyFaults() { return {{"name", "what the bug does"}, ...}; }
//     REFDEV_REGISTER_FAULTS("<family>", myFamilyFaults);
using FaultList = std::vector<FaultInfo> (*)();
void addFaultList(const char* family, FaultList list);

namespace detail {
struct FaultListRegistrar {
    FaultListRegistrar(const char* family, FaultList list) { addFaultList(family, list); }
};
}  // namespace detail

class Faults {
public:
    Faults() = default;
    // Parses "a,b,c". Returns false and sets *error (listing valid names) on an unknown name.
    bool parse(const std::string& spec, std::string* error);
    bool has(std::string_view name) const;
    bool any() const { return !active_.empty(); }
    const std::vector<std::string>& active() const { return active_; }

private:
    std::vector<std::string> active_;
};

}  // namespace refdev

#define REFDEV_REGISTER_FAULTS(family, list)                                     \
    static const ::refdev::detail::FaultListRegistrar refdev_faults_registrar_ { \
        family, list                                                             \
    }
