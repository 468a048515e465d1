// ExtOpTable and the OpContext helpers; extOps() holds every op family that registered itself.
#include "reference_device/spirv/ext_ops.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

namespace refdev::spirv {

void ExtOpTable::add(ExtOpInfo info) {
    auto it = std::lower_bound(ops_.begin(), ops_.end(), info.opcode,
                               [](const ExtOpInfo& a, uint32_t op) { return a.opcode < op; });
    if (it != ops_.end() && it->opcode == info.opcode) {
        *it = std::move(info);  // a later registration replaces an earlier one
        return;
    }
    ops_.insert(it, std::move(info));
}

const ExtOpInfo* ExtOpTable::find(uint32_t opcode) const {
    auto it = std::lower_bound(ops_.begin(), ops_.end(), opcode,
                               [](const ExtOpInfo& a, uint32_t op) { return a.opcode < op; });
    return it != ops_.end() && it->opcode == opcode ? &*it : nullptr;
}

namespace {

std::vector<std::pair<std::string, RegisterExtOps>>& opFamilies() {
    static std::vector<std::pair<std::string, RegisterExtOps>> families;
    return families;
}

}  // namespace

void addExtOpFamily(const char* family, RegisterExtOps add) {
    opFamilies().emplace_back(family, add);
}

const ExtOpTable& extOps() {
    static const ExtOpTable table = [] {
        auto families = opFamilies();
        // Static initialisation order is unspecified: register by family name so every build is the same.
        std::sort(families.begin(), families.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
        ExtOpTable t;
        for (const auto& family : families) family.second(t);
        return t;
    }();
    return table;
}

uint64_t OpContext::getUint(uint32_t lane, uint32_t k) const {
    const TypeInfo& t = operandType(k);
    uint32_t bytes = t.kind == TypeInfo::Kind::Bool ? 1 : t.component_bits / 8;
    if (bytes == 0 || bytes > 8) bytes = 4;
    uint64_t v = 0;
    std::memcpy(&v, operand(lane, k), bytes);  // little-endian host: low bytes first
    return v;
}

bool OpContext::uniform(uint32_t k) const {
    const uint32_t size = operandType(k).byte_size;
    const uint8_t* first = nullptr;
    for (uint32_t lane = 0; lane < lanes(); ++lane) {
        if (!active(lane)) continue;
        const uint8_t* v = operand(lane, k);
        if (!first)
            first = v;
        else if (std::memcmp(first, v, size) != 0)
            return false;
    }
    return true;
}

bool OpContext::allActive() const {
    for (uint32_t lane = 0; lane < lanes(); ++lane)
        if (!active(lane)) return false;
    return true;
}

}  // namespace refdev::spirv
