// Internal declarations of the SPV_INTEL_subgroups op family (reference_device/ext/subgroups/).
#pragma once

#include <cstdint>
#include <string>

#include "reference_device/spirv/ext_ops.h"

namespace refdev::spirv::subgroups {

// Opcodes and capabilities from the SPV_INTEL_subgroups token table.
constexpr uint32_t kCapShuffle = 5568, kCapBufferBlockIO = 5569, kCapImageBlockIO = 5570;
constexpr uint32_t kOpShuffle = 5571, kOpShuffleDown = 5572, kOpShuffleUp = 5573, kOpShuffleXor = 5574;
constexpr uint32_t kOpBlockRead = 5575, kOpBlockWrite = 5576, kOpImageBlockRead = 5577,
                   kOpImageBlockWrite = 5578;

void executeShuffle(OpContext& ctx);
void executeShuffleDown(OpContext& ctx);
void executeShuffleUp(OpContext& ctx);
void executeShuffleXor(OpContext& ctx);
void executeBlockRead(OpContext& ctx);
void executeBlockWrite(OpContext& ctx);
void executeImageBlockRead(OpContext& ctx);
void executeImageBlockWrite(OpContext& ctx);

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
