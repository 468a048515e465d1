// Registers the SPV_INTEL_subgroups instructions with the interpreter.
#include <cstring>
#include <string>

#include "reference_device/ext/subgroups/subgroups_ops.h"

namespace refdev::spirv {

namespace subgroups {

void fillUndefined(uint8_t* dst, uint32_t bytes) {
    static const uint8_t pattern[4] = {0xef, 0xbe, 0xad, 0xde};
    for (uint32_t i = 0; i < bytes; ++i) dst[i] = pattern[i % 4];
}

uint32_t firstActiveLane(const OpContext& ctx) {
    for (uint32_t lane = 0; lane < ctx.lanes(); ++lane)
        if (ctx.active(lane)) return lane;
    return 0;
}

bool requireFullSubgroup(OpContext& ctx, const char* op) {
    if (ctx.fullSubgroup()) return true;
    ctx.undefinedBehavior(firstActiveLane(ctx),
                          std::string(op) + ": executed by a partial sub-group (" +
                              std::to_string(ctx.lanes()) + " invocations of SubgroupMaxSize " +
                              std::to_string(ctx.maxLanes()) + ") or not by every invocation");
    return false;
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
    // Ptr, NumBytes and the grammar's optional Memory Operands (a mask and, for Aligned, its literal).
    ExtOpInfo prefetch{
        kOpBlockPrefetch,    "OpSubgroupBlockPrefetchINTEL", false, 2, 4, 2, {kCapBufferPrefetch},
        executeBlockPrefetch};
    prefetch.check = checkBlockPrefetch;
    table.add(prefetch);
    table.addBuildFault(buildRejectsBlockIoSimd32);
    table.addBuildFault(buildRejectsHalfVectorShuffle);
}

REFDEV_REGISTER_EXT_OPS("subgroups", registerSubgroupsOps);

}  // namespace refdev::spirv
