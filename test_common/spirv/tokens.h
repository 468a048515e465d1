// SPIR-V tokens of the four Intel extensions (values from the SPIR-V registry; see
// docs "Tokens"). Kept here because the installed SPIR-V headers predate the 2025 ones.
#pragma once

#include <cstdint>

namespace cts::spv {

// Capabilities
constexpr uint32_t CapabilityKernel = 6;
constexpr uint32_t CapabilityAddresses = 4;
constexpr uint32_t CapabilitySubgroupDispatch = 58;
constexpr uint32_t CapabilitySubgroupShuffleINTEL = 5568;
constexpr uint32_t CapabilitySubgroupBufferBlockIOINTEL = 5569;
constexpr uint32_t CapabilitySubgroupImageBlockIOINTEL = 5570;
constexpr uint32_t CapabilitySubgroupImageMediaBlockIOINTEL = 5579;
constexpr uint32_t CapabilitySubgroup2DBlockIOINTEL = 6228;
constexpr uint32_t CapabilitySubgroup2DBlockTransformINTEL = 6229;
constexpr uint32_t CapabilitySubgroup2DBlockTransposeINTEL = 6230;
constexpr uint32_t CapabilitySubgroupMatrixMultiplyAccumulateINTEL = 6236;

// Opcodes
constexpr uint16_t OpSubgroupShuffleINTEL = 5571;
constexpr uint16_t OpSubgroupShuffleDownINTEL = 5572;
constexpr uint16_t OpSubgroupShuffleUpINTEL = 5573;
constexpr uint16_t OpSubgroupShuffleXorINTEL = 5574;
constexpr uint16_t OpSubgroupBlockReadINTEL = 5575;
constexpr uint16_t OpSubgroupBlockWriteINTEL = 5576;
constexpr uint16_t OpSubgroupImageBlockReadINTEL = 5577;
constexpr uint16_t OpSubgroupImageBlockWriteINTEL = 5578;
constexpr uint16_t OpSubgroupImageMediaBlockReadINTEL = 5580;
constexpr uint16_t OpSubgroupImageMediaBlockWriteINTEL = 5581;
constexpr uint16_t OpSubgroup2DBlockLoadINTEL = 6231;
constexpr uint16_t OpSubgroup2DBlockLoadTransformINTEL = 6232;
constexpr uint16_t OpSubgroup2DBlockLoadTransposeINTEL = 6233;
constexpr uint16_t OpSubgroup2DBlockPrefetchINTEL = 6234;
constexpr uint16_t OpSubgroup2DBlockStoreINTEL = 6235;
constexpr uint16_t OpSubgroupMatrixMultiplyAccumulateINTEL = 6237;

// Execution modes, addressing and memory models
constexpr uint32_t ExecutionModeSubgroupSize = 35;
constexpr uint32_t AddressingModelLogical = 0;
constexpr uint32_t AddressingModelPhysical32 = 1;
constexpr uint32_t AddressingModelPhysical64 = 2;
constexpr uint32_t MemoryModelOpenCL = 2;

// MatrixMultiplyAccumulateOperands bits
constexpr uint32_t MmaASigned = 0x1;
constexpr uint32_t MmaBSigned = 0x2;
constexpr uint32_t MmaCBFloat16 = 0x4;
constexpr uint32_t MmaResultBFloat16 = 0x8;
constexpr uint32_t MmaAPackedInt8 = 0x10;
constexpr uint32_t MmaBPackedInt8 = 0x20;
constexpr uint32_t MmaAPackedInt4 = 0x40;
constexpr uint32_t MmaBPackedInt4 = 0x80;
constexpr uint32_t MmaATF32 = 0x100;
constexpr uint32_t MmaBTF32 = 0x200;
constexpr uint32_t MmaAPackedFloat16 = 0x400;
constexpr uint32_t MmaBPackedFloat16 = 0x800;
constexpr uint32_t MmaAPackedBFloat16 = 0x1000;
constexpr uint32_t MmaBPackedBFloat16 = 0x2000;

}  // namespace cts::spv
