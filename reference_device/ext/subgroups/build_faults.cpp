// Planted compiler bugs of the SPV_INTEL_subgroups family, judged at clBuildProgram: modelled on Intel's GPU
// compiler (IGC), which rejects these valid modules, so the suite can tell a build failure it must report
// from one it may call not supported.
#include "reference_device/ext/subgroups/subgroups_ops.h"

namespace refdev::spirv::subgroups {
namespace {

constexpr uint32_t kOpMediaBlockRead =
    token(spv::Op::OpSubgroupImageMediaBlockReadINTEL);  // SPV_INTEL_media_block_io
constexpr uint32_t kOpMediaBlockWrite = token(spv::Op::OpSubgroupImageMediaBlockWriteINTEL);

const char* opName(uint32_t opcode) {
    switch (opcode) {
        case kOpShuffle: return "OpSubgroupShuffleINTEL";
        case kOpShuffleDown: return "OpSubgroupShuffleDownINTEL";
        case kOpShuffleUp: return "OpSubgroupShuffleUpINTEL";
        case kOpShuffleXor: return "OpSubgroupShuffleXorINTEL";
        case kOpBlockRead: return "OpSubgroupBlockReadINTEL";
        case kOpBlockWrite: return "OpSubgroupBlockWriteINTEL";
        case kOpImageBlockRead: return "OpSubgroupImageBlockReadINTEL";
        case kOpImageBlockWrite: return "OpSubgroupImageBlockWriteINTEL";
        case kOpMediaBlockRead: return "OpSubgroupImageMediaBlockReadINTEL";
        case kOpMediaBlockWrite: return "OpSubgroupImageMediaBlockWriteINTEL";
        default: return "?";
    }
}

}  // namespace

// IGC on DG2: "Block reads not supported in SIMD32".
std::string buildRejectsBlockIoSimd32(const KernelBuildView& kernel, const Faults& faults) {
    if (!faults.has("build_rejects_block_io_simd32") || kernel.sub_group_size != 32) return "";
    for (const KernelBuildView::Use& u : kernel.uses)
        if ((u.opcode >= kOpBlockRead && u.opcode <= kOpImageBlockWrite) || u.opcode == kOpMediaBlockRead ||
            u.opcode == kOpMediaBlockWrite)
            return std::string(opName(u.opcode)) +
                   ": sub-group block read/write is not supported at SubgroupSize 32 (planted fault "
                   "build_rejects_block_io_simd32)";
    return "";
}

// IGC has no built-in for shuffles of half vectors: "undefined reference to
// `__builtin_spirv_OpSubgroupShuffleINTEL_v4f16_i32`". Half scalars and 16-bit integer vectors build.
std::string buildRejectsHalfVectorShuffle(const KernelBuildView& kernel, const Faults& faults) {
    if (!faults.has("build_rejects_half_vector_shuffle")) return "";
    for (const KernelBuildView::Use& u : kernel.uses) {
        if (u.opcode < kOpShuffle || u.opcode > kOpShuffleXor || !u.result) continue;
        const TypeInfo& t = *u.result;
        if (t.kind != TypeInfo::Kind::Vector || t.component_kind != TypeInfo::Kind::Float ||
            t.component_bits != 16)
            continue;
        const std::string v = "v" + std::to_string(t.components) + "f16";
        // Down and Up take two data operands (Current, Next / Previous, Current).
        const bool two = u.opcode == kOpShuffleDown || u.opcode == kOpShuffleUp;
        return "undefined reference to `__builtin_spirv_" + std::string(opName(u.opcode)) + "_" + v + "_" +
               (two ? v + "_" : "") + "i32` (planted fault build_rejects_half_vector_shuffle)";
    }
    return "";
}

}  // namespace refdev::spirv::subgroups
