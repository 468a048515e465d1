// Internal declarations of the SPV_INTEL_subgroups op family (reference_device/ext/subgroups/).
#pragma once

#include <cstdint>
#include <string>

#include "reference_device/spirv/ext_ops.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv::subgroups {

// Opcodes and capabilities of SPV_INTEL_subgroups.
constexpr uint32_t kCapShuffle = token(spv::Capability::SubgroupShuffleINTEL);
constexpr uint32_t kCapBufferBlockIO = token(spv::Capability::SubgroupBufferBlockIOINTEL);
constexpr uint32_t kCapImageBlockIO = token(spv::Capability::SubgroupImageBlockIOINTEL);
constexpr uint32_t kOpShuffle = token(spv::Op::OpSubgroupShuffleINTEL);
constexpr uint32_t kOpShuffleDown = token(spv::Op::OpSubgroupShuffleDownINTEL);
constexpr uint32_t kOpShuffleUp = token(spv::Op::OpSubgroupShuffleUpINTEL);
constexpr uint32_t kOpShuffleXor = token(spv::Op::OpSubgroupShuffleXorINTEL);
constexpr uint32_t kOpBlockRead = token(spv::Op::OpSubgroupBlockReadINTEL);
constexpr uint32_t kOpBlockWrite = token(spv::Op::OpSubgroupBlockWriteINTEL);
constexpr uint32_t kOpImageBlockRead = token(spv::Op::OpSubgroupImageBlockReadINTEL);
constexpr uint32_t kOpImageBlockWrite = token(spv::Op::OpSubgroupImageBlockWriteINTEL);
// SPV_INTEL_subgroup_buffer_prefetch (extends SPV_INTEL_subgroups: prefetch.cpp).
constexpr uint32_t kCapBufferPrefetch = token(spv::Capability::SubgroupBufferPrefetchINTEL);
constexpr uint32_t kOpBlockPrefetch = token(spv::Op::OpSubgroupBlockPrefetchINTEL);

void executeShuffle(OpContext& ctx);
void executeShuffleDown(OpContext& ctx);
void executeShuffleUp(OpContext& ctx);
void executeShuffleXor(OpContext& ctx);
void executeBlockRead(OpContext& ctx);
void executeBlockWrite(OpContext& ctx);
void executeImageBlockRead(OpContext& ctx);
void executeImageBlockWrite(OpContext& ctx);
void executeBlockPrefetch(OpContext& ctx);
std::string checkBlockPrefetch(const ExtBuildView& view);

// Planted compiler bugs, run at clBuildProgram (build_faults.cpp; ExtOpTable::addBuildFault).
std::string buildRejectsBlockIoSimd32(const KernelBuildView& kernel, const Faults& faults);
std::string buildRejectsHalfVectorShuffle(const KernelBuildView& kernel, const Faults& faults);

// Fills an undefined result with a recognisable junk pattern (bytes of 0xDEADBEEF, little-endian), so a
// checker that wrongly compares an undefined value sees something no correct value equals.
void fillUndefined(uint8_t* dst, uint32_t bytes);

// The first active lane (for reporting), or 0.
uint32_t firstActiveLane(const OpContext& ctx);
// Block IO needs the whole sub-group: false after reporting undefined behaviour when it is partial.
bool requireFullSubgroup(OpContext& ctx, const char* op);

}  // namespace refdev::spirv::subgroups

// The family's instructions and planted faults (registered with the device from this folder; the tests
// call them directly).
namespace refdev {
std::vector<FaultInfo> subgroupsFaults();
}  // namespace refdev

namespace refdev::spirv {
void registerSubgroupsOps(ExtOpTable& table);
}  // namespace refdev::spirv
