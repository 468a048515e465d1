// SPV_INTEL_2d_block_io on the reference device: the five sub-group instructions, their undefined-behaviour
// checks and planted faults. register2dBlockIoOps (ext_ops.h) adds them to the interpreter's table.
#pragma once

#include <cstdint>
#include <string>

#include "reference_device/spirv/ext_ops.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv::block_io_2d {

constexpr uint32_t kCapabilityIo = token(spv::Capability::Subgroup2DBlockIOINTEL);
constexpr uint32_t kCapabilityTransform = token(spv::Capability::Subgroup2DBlockTransformINTEL);
constexpr uint32_t kCapabilityTranspose = token(spv::Capability::Subgroup2DBlockTransposeINTEL);
constexpr uint32_t kOpLoad = token(spv::Op::OpSubgroup2DBlockLoadINTEL);
constexpr uint32_t kOpLoadTransform = token(spv::Op::OpSubgroup2DBlockLoadTransformINTEL);
constexpr uint32_t kOpLoadTranspose = token(spv::Op::OpSubgroup2DBlockLoadTransposeINTEL);
constexpr uint32_t kOpPrefetch = token(spv::Op::OpSubgroup2DBlockPrefetchINTEL);
constexpr uint32_t kOpStore = token(spv::Op::OpSubgroup2DBlockStoreINTEL);
// cl_intel_subgroup_extended_block_read's built-ins (no SPIR-V instruction: the device's own opcodes, see
// ext_ops.h): the loads above with the block returned as the result.
constexpr uint32_t kOpExtendedRead = kOpExtendedBlockRead;
constexpr uint32_t kOpExtendedReadTransform = kOpExtendedBlockReadTransform;
constexpr uint32_t kOpExtendedReadTranspose = kOpExtendedBlockReadTranspose;

constexpr uint32_t kStorageCrossWorkgroup = token(spv::StorageClass::CrossWorkgroup);
constexpr uint32_t kStorageFunction = token(spv::StorageClass::Function);

// The shapes this device accepts beyond the OpenCL environment table (device-specific, as the SPIR-V spec
// allows): a padded block row of at most 64 bytes over all blocks, at most 32 rows (8 for stores), block
// count 1, 2 or 4 (1 for stores and transposes), transform for 1/2-byte and transpose for 4/8-byte data.
// Returns "" when supported, else why not. Any 32-bit values are safe: out-of-range ones are rejected
// before they are computed with.
std::string unsupportedShape(uint32_t opcode, uint32_t element_size, uint32_t block_width,
                             uint32_t block_height, uint32_t block_count);

void executeLoad(OpContext& ctx);  // OpSubgroup2DBlockLoadINTEL, LoadTransform, LoadTranspose, extended reads
void executePrefetch(OpContext& ctx);  // OpSubgroup2DBlockPrefetchINTEL
void executeStore(OpContext& ctx);     // OpSubgroup2DBlockStoreINTEL

}  // namespace refdev::spirv::block_io_2d

// The family's instructions and planted faults (registered with the device from this folder; the tests
// call them directly).
namespace refdev {
std::vector<FaultInfo> blockIo2dFaults();
std::vector<FaultInfo> blockIo2dCompositionFaults();
}  // namespace refdev

namespace refdev::spirv {
void register2dBlockIoOps(ExtOpTable& table);
}  // namespace refdev::spirv
