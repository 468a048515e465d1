// Registers the SPV_INTEL_subgroups instructions with the interpreter.
#include <cstring>

#include "reference_device/ext/subgroups/subgroups_ops.h"

namespace refdev::spirv {

namespace subgroups {

void fillUndefined(uint8_t* dst, uint32_t bytes) {
    static const uint8_t pattern[4] = {0xef, 0xbe, 0xad, 0xde};
    for (uint32_t i = 0; i < bytes; ++i) dst[i] = pattern[i % 4];
}

bool operandUniform(const OpContext& ctx, uint32_t k) {
    const uint32_t size = ctx.operandType(k).byte_size;
    const uint8_t* first = nullptr;
    for (uint32_t lane = 0; lane < ctx.lanes(); ++lane) {
        if (!ctx.active(lane)) continue;
        const uint8_t* v = ctx.operand(lane, k);
        if (!first)
            first = v;
        else if (std::memcmp(first, v, size) != 0)
            return false;
    }
    return true;
}

bool fullSubgroupActive(const OpContext& ctx) {
    if (ctx.lanes() != ctx.maxLanes()) return false;
    for (uint32_t lane = 0; lane < ctx.lanes(); ++lane)
        if (!ctx.active(lane)) return false;
    return true;
}

uint64_t operandUint(const OpContext& ctx, uint32_t lane, uint32_t k) {
    uint32_t bytes = ctx.operandType(k).component_bits / 8;
    if (bytes == 0 || bytes > 8) bytes = 4;
    uint64_t v = 0;
    std::memcpy(&v, ctx.operand(lane, k), bytes);
    return v;
}

uint32_t firstActiveLane(const OpContext& ctx) {
    for (uint32_t lane = 0; lane < ctx.lanes(); ++lane)
        if (ctx.active(lane)) return lane;
    return 0;
}

}  // namespace subgroups

void registerSubgroupsOps(ExtOpTable& table) {
    using namespace subgroups;
    // Operand counts exclude Result Type and Result (ext_ops.h).
    table.add({kOpShuffle, "OpSubgroupShuffleINTEL", true, 2, 2, UINT32_MAX, {kCapShuffle}, executeShuffle});
    table.add({kOpShuffleDown,
               "OpSubgroupShuffleDownINTEL",
               true,
               3,
               3,
               UINT32_MAX,
               {kCapShuffle},
               executeShuffleDown});
    table.add(
        {kOpShuffleUp, "OpSubgroupShuffleUpINTEL", true, 3, 3, UINT32_MAX, {kCapShuffle}, executeShuffleUp});
    table.add({kOpShuffleXor,
               "OpSubgroupShuffleXorINTEL",
               true,
               2,
               2,
               UINT32_MAX,
               {kCapShuffle},
               executeShuffleXor});
    table.add({kOpBlockRead,
               "OpSubgroupBlockReadINTEL",
               true,
               1,
               1,
               UINT32_MAX,
               {kCapBufferBlockIO},
               executeBlockRead});
    table.add({kOpBlockWrite,
               "OpSubgroupBlockWriteINTEL",
               false,
               2,
               2,
               UINT32_MAX,
               {kCapBufferBlockIO},
               executeBlockWrite});
    table.add({kOpImageBlockRead,
               "OpSubgroupImageBlockReadINTEL",
               true,
               2,
               2,
               UINT32_MAX,
               {kCapImageBlockIO},
               executeImageBlockRead});
    table.add({kOpImageBlockWrite,
               "OpSubgroupImageBlockWriteINTEL",
               false,
               3,
               3,
               UINT32_MAX,
               {kCapImageBlockIO},
               executeImageBlockWrite});
}

}  // namespace refdev::spirv
