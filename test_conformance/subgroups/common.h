// Pieces shared by the subgroups.* families: component types, seeded data, the launch grid, the
// device-reported work-item to sub-group mapping, and mismatch formatting.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "test_common/harness/launch/kernel_args.h"
#include "test_common/harness/model/case.h"
#include "test_common/harness/model/mismatch.h"

namespace cts::subgroups {

constexpr uint8_t kPoison = 0xA5;  // GuardedBuffer's default fill

struct ComponentType {
    std::string name;  // "i8" ... "f64", "u8" ... "u64"
    unsigned bytes = 4;
    bool is_float = false;
};
// Throws InternalError for an unknown name.
ComponentType componentType(const std::string& name);

// splitmix64: the per-case seed fully determines every input.
class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed) {}
    uint64_t next();
    uint32_t below(uint32_t n) { return n ? uint32_t(next() % n) : 0; }

private:
    uint64_t state_;
};

// `count` random components of `type`: floats are finite (no NaN payload for a device to canonicalise),
// and no component equals the poison pattern, so an unwritten output never matches an expected value.
std::vector<uint8_t> randomComponents(Rng& rng, const ComponentType& type, size_t count);

uint64_t loadComponent(const uint8_t* base, size_t index, unsigned bytes);
bool isPoison(uint64_t value, unsigned bytes);

// Per work-item record the kernels write to the side buffer: SubgroupLocalInvocationId, SubgroupId,
// SubgroupSize, SubgroupMaxSize.
struct SubgroupMap {
    // lanes[wg][sub-group id][lane] = global id (1D launches)
    std::vector<std::vector<std::vector<size_t>>> lanes;
    uint32_t max_size = 0;
    struct Item {
        uint32_t lane = 0, sub_group = 0, size = 0, max = 0;
    };
    std::vector<Item> items;  // by global id
};
// Builds the mapping from the info buffer and checks it is a mapping at all: every record written, lanes
// below SubgroupSize <= SubgroupMaxSize == required size, each (sub-group, lane) once per work-group, every
// sub-group complete. Returns "" or what is wrong (a device failure).
std::string buildSubgroupMap(const std::vector<uint8_t>& info, size_t local, size_t groups, uint32_t required,
                             SubgroupMap* map);

// The 1D launch every subgroups kernel runs: `groups` work-groups of `local` work-items at the module's
// SubgroupSize `sg`, each work-item writing its SubgroupMap record to the kernel's `info` argument.
struct SubgroupGrid {
    uint32_t sg = 0;
    size_t local = 0, groups = 0;

    size_t global() const { return local * groups; }
    size_t subGroupsPerGroup() const { return local / sg; }
    // Enqueues args' kernel over global() work-items in work-groups of `local`, and waits.
    void run(RunContext& ctx, const KernelArgs& args) const;
    // Builds *map from the info buffer's bytes: "" or the Fail message (buildSubgroupMap).
    std::string mapSubGroups(const std::vector<uint8_t>& info, SubgroupMap* map) const;
    // Block IO on work-groups of whole sub-groups: "" when every sub-group is full, else the Fail message (a
    // partial sub-group is undefined for block IO, so nothing else is checked).
    std::string partialSubGroup(const SubgroupMap& map) const;
    // The block of work-item gid's sub-group: WorkgroupId * NumSubgroups + SubgroupId.
    size_t blockOf(const SubgroupMap& map, size_t gid) const {
        return (gid / local) * subGroupsPerGroup() + map.items[gid].sub_group;
    }
};

// Where text: "wg 1 sg 2 lane 5 comp 3".
std::string where(size_t wg, uint32_t sub_group, uint32_t lane, uint32_t component);
// Compares one component; logs expected/actual in hex (floats also %a).
void compare(MismatchLog& log, const std::string& where, const ComponentType& type, uint64_t expected,
             uint64_t actual);
// The same, and a mismatch is marked in the lanes x components picture of its sub-group.
struct LaneCell {
    size_t wg = 0;
    uint32_t sub_group = 0, lane = 0, component = 0;
    uint32_t lanes = 0, components = 0;  // the picture's size: SubgroupMaxSize x components per lane
};
void compare(MismatchLog& log, const std::string& where, const ComponentType& type, uint64_t expected,
             uint64_t actual, const LaneCell& cell);

}  // namespace cts::subgroups
