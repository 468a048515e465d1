// OpSubgroupShuffleINTEL, ...DownINTEL, ...UpINTEL, ...XorINTEL.
//
// Every lane that reached the instruction gets the operand bytes of the invocation the index rule names.
// When the rule names no invocation ("considered to be out-of-range"), an invocation beyond the actual
// sub-group size, or one that did not execute the shuffle, the value is undefined: the lane gets junk.
#include <cstring>

#include "reference_device/ext/subgroups/subgroups_ops.h"

namespace refdev::spirv::subgroups {
namespace {

struct Pick {
    bool defined = false;
    uint32_t lane = 0;
    uint32_t operand = 0;  // operand index of the data source
};

// Copies the picked invocation's operand into `lane`'s result (junk when undefined), then applies the
// faults that corrupt the value after the pick.
void deliver(OpContext& ctx, uint32_t lane, Pick pick) {
    const TypeInfo& type = ctx.resultType();
    uint8_t* dst = ctx.result(lane);
    if (pick.defined && ctx.maxLanes() > 32 && ctx.faults().has("shuffle_source_lane_mod_32"))
        pick.lane &= 31u;  // 32-bit lane indices: a sub-group of 64 reads lanes 32-63 from 0-31
    if (pick.defined && ctx.faults().has("shuffle_divergent_compacts_lanes")) {
        // The driver numbers the invocations that reached the shuffle densely and reads the pick-th of them.
        uint32_t nth = pick.lane, found = UINT32_MAX;
        for (uint32_t l = 0; l < ctx.lanes() && found == UINT32_MAX; ++l)
            if (ctx.active(l) && nth-- == 0) found = l;
        pick.defined = found != UINT32_MAX;
        pick.lane = found;
    }
    bool source_ok = pick.defined && pick.lane < ctx.lanes() && ctx.active(pick.lane);
    if (!source_ok) {
        fillUndefined(dst, type.byte_size);
        return;
    }
    if (ctx.faults().has("shuffle_reads_inactive_lane")) {
        // The driver gathers channel pairs and takes the pair's disabled half when the pair is split.
        const uint32_t pair = pick.lane ^ 1u;
        if (pair < ctx.lanes() && !ctx.active(pair)) pick.lane = pair;
    }
    std::memcpy(dst, ctx.operand(pick.lane, pick.operand), type.byte_size);
    const Faults& faults = ctx.faults();
    if (faults.any()) {
        if (faults.has("shuffle_vec3_last_component_own") && type.components == 3) {
            uint32_t comp = type.component_bits / 8;
            std::memcpy(dst + 2 * comp, ctx.operand(lane, pick.operand) + 2 * comp, comp);
        }
        if (faults.has("shuffle_zero_when_some_workgroups") && (ctx.workGroupLinearId() & 1) != 0)
            std::memset(dst, 0, type.byte_size);
    }
}

uint32_t index32(const OpContext& ctx, uint32_t lane, uint32_t k) {
    return uint32_t(ctx.getUint(lane, k));
}

}  // namespace

void executeShuffle(OpContext& ctx) {
    // Operands: Data (0), InvocationId (1).
    const uint64_t max = ctx.maxLanes();
    const bool masked = ctx.faults().has("shuffle_index_masked");
    for (uint32_t lane = 0; lane < ctx.lanes(); ++lane) {
        if (!ctx.active(lane)) continue;
        uint32_t id = index32(ctx, lane, 1);
        if (masked) id &= uint32_t(max / 2 - 1);
        deliver(ctx, lane, Pick{id < max, id, 0});
    }
}

void executeShuffleDown(OpContext& ctx) {
    // Operands: Current (0), Next (1), Delta (2). "the unsigned shuffle index be equivalent to the sum of
    // this invocation's SubgroupLocalInvocationId plus the specified Delta" (64-bit: no wrap-around).
    const uint64_t max = ctx.maxLanes();
    const bool ignores_next = ctx.faults().has("shuffle_down_ignores_next");
    // A sub-group of 4 in 8-wide registers: Current and Next joined at the register width (lanes 4-7 of
    // Current name no invocation, so they read junk).
    const uint64_t window = max == 4 && ctx.faults().has("shuffle_down_sg4_window_8") ? 8 : max;
    for (uint32_t lane = 0; lane < ctx.lanes(); ++lane) {
        if (!ctx.active(lane)) continue;
        uint64_t index = uint64_t(lane) + index32(ctx, lane, 2);
        Pick pick;
        if (index < window)
            pick = Pick{true, uint32_t(index), 0};
        else if (index < 2 * window)
            pick = Pick{true, uint32_t(index - window), ignores_next ? 0u : 1u};
        deliver(ctx, lane, pick);
    }
}

void executeShuffleUp(OpContext& ctx) {
    // Operands: Previous (0), Current (1), Delta (2). "the signed shuffle index be equivalent to this
    // invocation's SubgroupLocalInvocationId minus the specified Delta".
    const int64_t max = ctx.maxLanes();
    const int64_t previous_below = ctx.faults().has("shuffle_up_off_by_one") ? 1 : 0;
    for (uint32_t lane = 0; lane < ctx.lanes(); ++lane) {
        if (!ctx.active(lane)) continue;
        int64_t index = int64_t(lane) - int64_t(index32(ctx, lane, 2));
        Pick pick;
        if (index >= previous_below && index < max)
            pick = Pick{true, uint32_t(index), 1};
        else if (index < previous_below && index >= -max)
            pick = Pick{true, uint32_t(index + max), 0};
        deliver(ctx, lane, pick);
    }
}

void executeShuffleXor(OpContext& ctx) {
    // Operands: Data (0), Value (1). "If the result of the XOR is greater than SubgroupMaxSize then it is
    // considered out-of-range": no invocation has id SubgroupMaxSize either, so >= is out of range.
    const uint32_t max = ctx.maxLanes();
    const bool actual_size_mask = ctx.faults().has("shuffle_xor_uses_actual_size");
    for (uint32_t lane = 0; lane < ctx.lanes(); ++lane) {
        if (!ctx.active(lane)) continue;
        uint32_t value = index32(ctx, lane, 1);
        if (actual_size_mask) value &= ctx.lanes() - 1;
        uint32_t source = lane ^ value;
        deliver(ctx, lane, Pick{source < max, source, 0});
    }
}

}  // namespace refdev::spirv::subgroups
