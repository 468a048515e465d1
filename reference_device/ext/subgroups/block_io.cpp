// OpSubgroupBlockReadINTEL / OpSubgroupBlockWriteINTEL on buffers (CrossWorkgroup) and local memory
// (Workgroup, cl_intel_subgroup_local_block_io).
//
// "The data is read strided, so the first value read is: Ptr[ SubgroupLocalInvocationId ] and the second
// value read is: Ptr[ SubgroupLocalInvocationId + SubgroupMaxSize ] etc." (writes likewise).
// The OpenCL environment makes these whole-sub-group operations with a uniform Ptr in uniform control flow,
// 4-byte aligned for reads and 16-byte aligned for writes; with a Workgroup Ptr "The pointer Ptr must be
// 128-bit (16-byte) aligned for both reads and writes" (cl_intel_subgroup_local_block_io). Anything else is
// undefined behaviour, reported.
#include <cstdio>
#include <cstring>

#include "reference_device/ext/subgroups/subgroups_ops.h"

namespace refdev::spirv::subgroups {
namespace {

constexpr uint32_t kStorageWorkgroup = 4;

bool localPtr(const OpContext& ctx) {
    return ctx.operandType(0).storage_class == kStorageWorkgroup;
}

// Checks shared by reads and writes; false after reporting undefined behaviour.
bool checkBlockPreconditions(OpContext& ctx, const char* op, uint32_t alignment) {
    const uint32_t lane = firstActiveLane(ctx);
    if (!requireFullSubgroup(ctx, op)) return false;
    if (!ctx.uniform(0)) {
        ctx.undefinedBehavior(lane, std::string(op) + ": Ptr is not uniform across the sub-group");
        return false;
    }
    uint64_t address = ctx.getUint(lane, 0);
    if (address % alignment != 0) {
        ctx.undefinedBehavior(
            lane, std::string(op) + ": Ptr 0x" +
                      [&] {
                          char buf[32];
                          std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(address));
                          return std::string(buf);
                      }() +
                      " is not " + std::to_string(alignment) + "-byte aligned");
        return false;
    }
    return true;
}

// "its component type must be equal to the type pointed to by Ptr" (Result Type or Data).
bool checkPointee(OpContext& ctx, const char* op, uint32_t component_bytes, const char* what) {
    const uint32_t pointee = ctx.operandType(0).pointee_bytes;
    if (pointee != 0 && pointee != component_bytes) {
        ctx.undefinedBehavior(firstActiveLane(ctx), std::string(op) + ": " + what + " component is " +
                                                        std::to_string(component_bytes) +
                                                        " bytes but Ptr points to " +
                                                        std::to_string(pointee) + " bytes");
        return false;
    }
    return true;
}

}  // namespace

void executeBlockRead(OpContext& ctx) {
    const char* op = "OpSubgroupBlockReadINTEL";
    const bool local = localPtr(ctx);
    if (!checkBlockPreconditions(ctx, op, local ? 16 : 4)) return;
    const TypeInfo& type = ctx.resultType();
    const uint32_t bytes = type.component_bits / 8;
    if (!checkPointee(ctx, op, bytes, "Result Type")) return;
    const Faults& faults = ctx.faults();
    uint64_t base = ctx.getUint(firstActiveLane(ctx), 0);
    // The 16-byte (OWORD) block-read path used for pointers that are only 4-byte aligned.
    if (faults.has("block_read_assumes_16b_alignment")) base &= ~uint64_t(15);
    // A shared-local-memory read addressed from the start of local memory, Ptr's offset dropped.
    if (local && faults.has("local_block_read_ignores_offset")) base = ctx.localMemoryBase();
    uint64_t stride = faults.has("block_read_stride_simd16") ? 16 : ctx.maxLanes();
    if (faults.has("block_read_stride_max_32") && stride > 32) stride = 32;      // lowering sized for SIMD32
    if (ctx.maxLanes() == 4 && faults.has("block_io_sg4_stride_8")) stride = 8;  // 8-wide registers
    const bool split64 = bytes == 8 && faults.has("block_read_64bit_as_2x32");

    for (uint32_t lane = 0; lane < ctx.lanes(); ++lane) {
        uint8_t* dst = ctx.result(lane);
        for (uint32_t j = 0; j < type.components; ++j) {
            if (split64) {
                // The halves come from a 2-component 32-bit block read: words L + 2jS and L + (2j+1)S.
                for (uint32_t half = 0; half < 2; ++half) {
                    uint64_t word = lane + (2 * j + half) * stride;
                    const uint8_t* src = ctx.memory(lane, base + word * 4, 4, false);
                    if (!src) return;
                    std::memcpy(dst + j * 8 + half * 4, src, 4);
                }
                continue;
            }
            uint64_t element = lane + j * stride;
            const uint8_t* src = ctx.memory(lane, base + element * bytes, bytes, false);
            if (!src) return;
            std::memcpy(dst + j * bytes, src, bytes);
        }
    }
}

void executeBlockWrite(OpContext& ctx) {
    const char* op = "OpSubgroupBlockWriteINTEL";
    if (!checkBlockPreconditions(ctx, op, 16)) return;
    const TypeInfo& type = ctx.operandType(1);
    const uint32_t bytes = type.component_bits / 8;
    if (!checkPointee(ctx, op, bytes, "Data")) return;
    uint64_t base = ctx.getUint(firstActiveLane(ctx), 0);
    // A 32-byte (two-OWORD) write path used for pointers that are only 16-byte aligned.
    if (ctx.faults().has("block_write_assumes_32b_alignment")) base &= ~uint64_t(31);
    uint32_t components = type.components;
    if (components > 1 && ctx.faults().has("block_write_drops_last_component")) --components;
    // A sub-group of 4 in 8-wide registers strides by the register width.
    const uint64_t stride =
        ctx.maxLanes() == 4 && ctx.faults().has("block_io_sg4_stride_8") ? 8 : ctx.maxLanes();
    // A shared-local-memory write sized for half the sub-group: lanes S/2 and up write nothing.
    uint32_t lanes = ctx.lanes();
    if (localPtr(ctx) && ctx.faults().has("local_block_write_first_half_only")) lanes = ctx.maxLanes() / 2;

    for (uint32_t lane = 0; lane < lanes; ++lane) {
        const uint8_t* data = ctx.operand(lane, 1);
        for (uint32_t j = 0; j < components; ++j) {
            uint64_t element = lane + uint64_t(j) * stride;
            uint8_t* dst = ctx.memory(lane, base + element * bytes, bytes, true);
            if (!dst) return;
            std::memcpy(dst, data + j * bytes, bytes);
        }
    }
}

}  // namespace refdev::spirv::subgroups
