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

// Every fault the device knows, from all op families (each family contributes its own list).
const std::vector<FaultInfo>& allFaults();

// Per-family lists (each defined in that family's faults.cpp).
std::vector<FaultInfo> coreFaults();          // reference_device/faults.cpp: hang, crash, device-query bugs
std::vector<FaultInfo> subgroupsFaults();     // reference_device/ext/subgroups/faults.cpp
std::vector<FaultInfo> blockIo2dFaults();     // reference_device/ext/2d_block_io/faults.cpp
std::vector<FaultInfo> mmaFaults();           // reference_device/ext/matrix_multiply_accumulate/faults.cpp
std::vector<FaultInfo> mediaBlockIoFaults();  // reference_device/ext/media_block_io/faults.cpp
// Faults that show only when instructions are combined (workloads.*), in each family's
// composition_faults.cpp.
std::vector<FaultInfo> blockIo2dCompositionFaults();
std::vector<FaultInfo> mmaCompositionFaults();

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
