// SPV_INTEL_media_block_io on the reference device: OpSubgroupImageMediaBlockReadINTEL and
// OpSubgroupImageMediaBlockWriteINTEL, their build-time operand checks, undefined-behaviour checks and
// planted faults. registerMediaBlockIoOps (ext_ops.h) adds them to the interpreter's table.
#pragma once

#include <cstdint>
#include <string>

#include "reference_device/spirv/ext_ops.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv::media_block_io {

constexpr uint32_t kCapability = token(spv::Capability::SubgroupImageMediaBlockIOINTEL);
constexpr uint32_t kOpRead = token(spv::Op::OpSubgroupImageMediaBlockReadINTEL);
constexpr uint32_t kOpWrite = token(spv::Op::OpSubgroupImageMediaBlockWriteINTEL);
constexpr const char* kReadName = "OpSubgroupImageMediaBlockReadINTEL";
constexpr const char* kWriteName = "OpSubgroupImageMediaBlockWriteINTEL";

// Operand positions (after Result Type and Result for the read).
constexpr uint32_t kImageK = 0, kCoordinateK = 1, kWidthK = 2, kHeightK = 3, kDataK = 4;

// OpenCL environment: the largest Height for a block row of `row_bytes` bytes (4 -> 64, 8 -> 32, 12 and
// 16 -> 16, 20 to 32 -> 8), or 0 when no height is allowed for that row width.
uint32_t maxHeightForRowBytes(uint32_t row_bytes);

// "" when a block of `width` elements of `element_bytes` bytes and `height` rows is one the OpenCL
// environment allows (width in bytes a multiple of 4 and at most 32, height within the table), else why not
// (without the instruction name).
std::string shapeError(uint64_t width, uint64_t height, uint32_t element_bytes);

// Build-time checks (ExtOpInfo::check): "" accepts the instruction, anything else fails the build.
std::string checkReadBuild(const ExtBuildView& view);
std::string checkWriteBuild(const ExtBuildView& view);

void executeRead(OpContext& ctx);   // OpSubgroupImageMediaBlockReadINTEL
void executeWrite(OpContext& ctx);  // OpSubgroupImageMediaBlockWriteINTEL

}  // namespace refdev::spirv::media_block_io

// The family's instructions and planted faults (registered with the device from this folder; the tests
// call them directly).
namespace refdev {
std::vector<FaultInfo> mediaBlockIoFaults();
}  // namespace refdev

namespace refdev::spirv {
void registerMediaBlockIoOps(ExtOpTable& table);
}  // namespace refdev::spirv
