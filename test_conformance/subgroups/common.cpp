#include "test_conformance/subgroups/common.h"

#include <cmath>
#include <cstring>
#include <set>
#include <utility>

#include "test_common/harness/launch/kernel_util.h"

namespace cts::subgroups {

ComponentType componentType(const std::string& name) {
    static const ComponentType types[] = {
        {"i8", 1, false},  {"i16", 2, false}, {"i32", 4, false}, {"i64", 8, false},
        {"f16", 2, true},  {"f32", 4, true},  {"f64", 8, true},  {"u8", 1, false},
        {"u16", 2, false}, {"u32", 4, false}, {"u64", 8, false},
    };
    for (const ComponentType& t : types)
        if (t.name == name) return t;
    throw InternalError("unknown component type '" + name + "'");
}

uint64_t Rng::next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

bool isPoison(uint64_t value, unsigned bytes) {
    for (unsigned i = 0; i < bytes; ++i)
        if (uint8_t(value >> (8 * i)) != kPoison) return false;
    return true;
}

std::vector<uint8_t> randomComponents(Rng& rng, const ComponentType& type, size_t count) {
    std::vector<uint8_t> out(count * type.bytes);
    for (size_t i = 0; i < count; ++i) {
        uint64_t v = rng.next();
        if (type.is_float) {
            // Clear the top exponent bit when the exponent is all ones (Inf/NaN): values stay finite.
            const unsigned mant = type.bytes == 2 ? 10 : type.bytes == 4 ? 23 : 52;
            const unsigned exp_bits = type.bytes == 2 ? 5 : type.bytes == 4 ? 8 : 11;
            const uint64_t exp_mask = ((1ull << exp_bits) - 1) << mant;
            if ((v & exp_mask) == exp_mask) v &= ~(1ull << (mant + exp_bits - 1));
        }
        if (isPoison(v, type.bytes)) v ^= 1;
        for (unsigned b = 0; b < type.bytes; ++b) out[i * type.bytes + b] = uint8_t(v >> (8 * b));
    }
    return out;
}

uint64_t loadComponent(const uint8_t* base, size_t index, unsigned bytes) {
    uint64_t v = 0;
    for (unsigned b = 0; b < bytes; ++b) v |= uint64_t(base[index * bytes + b]) << (8 * b);
    return v;
}

std::string buildSubgroupMap(const std::vector<uint8_t>& info, size_t local, size_t groups, uint32_t required,
                             SubgroupMap* map) {
    const size_t global = local * groups;
    if (info.size() < global * 16) return "info buffer too small";
    map->items.resize(global);
    map->lanes.assign(groups, {});
    map->max_size = required;
    for (size_t gid = 0; gid < global; ++gid) {
        SubgroupMap::Item& it = map->items[gid];
        std::memcpy(&it, info.data() + gid * 16, 16);
        const std::string who = "work-item " + std::to_string(gid);
        if (isPoison(it.lane, 4) && isPoison(it.sub_group, 4))
            return who + " did not write its SubgroupLocalInvocationId/SubgroupId record";
        if (it.max != required)
            return who + ": SubgroupMaxSize " + std::to_string(it.max) +
                   " but the module requires SubgroupSize " + std::to_string(required);
        if (it.size == 0 || it.size > it.max)
            return who + ": SubgroupSize " + std::to_string(it.size) + " not in [1, SubgroupMaxSize " +
                   std::to_string(it.max) + "]";
        if (it.lane >= it.size)
            return who + ": SubgroupLocalInvocationId " + std::to_string(it.lane) + " >= SubgroupSize " +
                   std::to_string(it.size);
        if (it.sub_group >= local)
            return who + ": SubgroupId " + std::to_string(it.sub_group) + " out of range";
        auto& sgs = map->lanes[gid / local];
        if (sgs.size() <= it.sub_group) sgs.resize(it.sub_group + 1);
        auto& lanes = sgs[it.sub_group];
        if (lanes.empty()) lanes.assign(it.size, SIZE_MAX);
        if (lanes.size() != it.size)
            return who + ": SubgroupSize " + std::to_string(it.size) + " differs from another member's " +
                   std::to_string(lanes.size()) + " in sub-group " + std::to_string(it.sub_group);
        if (lanes[it.lane] != SIZE_MAX)
            return who + " and work-item " + std::to_string(lanes[it.lane]) + " both report sub-group " +
                   std::to_string(it.sub_group) + " lane " + std::to_string(it.lane);
        lanes[it.lane] = gid;
    }
    for (size_t wg = 0; wg < groups; ++wg)
        for (size_t sg = 0; sg < map->lanes[wg].size(); ++sg)
            for (size_t lane = 0; lane < map->lanes[wg][sg].size(); ++lane)
                if (map->lanes[wg][sg][lane] == SIZE_MAX)
                    return "work-group " + std::to_string(wg) + " sub-group " + std::to_string(sg) +
                           " lane " + std::to_string(lane) + " has no work-item (SubgroupIds are not dense)";
    return "";
}

void SubgroupGrid::run(RunContext& ctx, const KernelArgs& args) const {
    const size_t global_size = global();
    runNDRange(ctx, args, 1, &global_size, &local);
}

std::string SubgroupGrid::mapSubGroups(const std::vector<uint8_t>& info, SubgroupMap* map) const {
    std::string bad = buildSubgroupMap(info, local, groups, sg, map);
    return bad.empty() ? bad : "work-item to sub-group mapping: " + bad;
}

std::string SubgroupGrid::partialSubGroup(const SubgroupMap& map) const {
    for (const SubgroupMap::Item& it : map.items)
        if (it.size != sg)
            return "the device formed a partial sub-group (SubgroupSize " + std::to_string(it.size) +
                   ") from work-groups of whole sub-groups; block IO needs full sub-groups";
    return "";
}

std::string where(size_t wg, uint32_t sub_group, uint32_t lane, uint32_t component) {
    return "wg " + std::to_string(wg) + " sg " + std::to_string(sub_group) + " lane " + std::to_string(lane) +
           " comp " + std::to_string(component);
}

static double halfToDouble(uint16_t h) {
    int exp = (h >> 10) & 0x1f;
    int mant = h & 0x3ff;
    double v = exp == 0    ? std::ldexp(mant, -24)
               : exp == 31 ? (mant ? NAN : INFINITY)
                           : std::ldexp(mant + 1024, exp - 25);
    return (h & 0x8000) ? -v : v;
}

static double toDouble(uint64_t bits, unsigned bytes) {
    if (bytes == 2) return halfToDouble(uint16_t(bits));
    if (bytes == 4) {
        float f;
        uint32_t b = uint32_t(bits);
        std::memcpy(&f, &b, 4);
        return f;
    }
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
}

void compare(MismatchLog& log, const std::string& where, const ComponentType& type, uint64_t expected,
             uint64_t actual) {
    log.checked();
    if (expected == actual) return;
    if (type.is_float)
        log.addFloat(where, toDouble(expected, type.bytes), toDouble(actual, type.bytes), expected, actual,
                     type.bytes);
    else
        log.add(where, expected, actual, type.bytes);
}

void compare(MismatchLog& log, const std::string& where, const ComponentType& type, uint64_t expected,
             uint64_t actual, const LaneCell& cell) {
    compare(log, where, type, expected, actual);
    if (expected == actual) return;
    log.mark(GridShape{"work-group " + std::to_string(cell.wg) + " sub-group " +
                           std::to_string(cell.sub_group) + ": lanes x components",
                       cell.lanes, cell.components, "lane", "component"},
             cell.lane, cell.component, expected, actual, type.bytes);
}

}  // namespace cts::subgroups
