// Shared by the image instructions (image.cpp, image_sampler.cpp): the image types as the SPIR-V type names
// them, texel addressing, and the conversions between texel words and a result register. Internal.
#pragma once

#include <cstdint>
#include <string>

#include "reference_device/image_desc.h"
#include "reference_device/spirv/interp.h"

namespace refdev::spirv::image {

// Insn::sub of the image instructions (Kind::Image).
enum Sub : uint16_t {
    SampledImage,
    Read,
    Write,
    SampleLod,
    QuerySize,
    QuerySizeLod,
    QueryFormat,
    QueryOrder
};

// Insn::flags: what the texel register (result of a read, operand of a write) holds.
enum Flags : uint8_t { kFloatTexel = 1, kHalfTexel = 2, kFloatCoord = 4 };

// The CL_MEM_OBJECT_IMAGE* type an OpTypeImage declares (from its OpenCL C spelling), 0 if none.
uint32_t clImageType(const std::string& type_name);

// Coordinates the type takes: spatial dimensions (1 to 3) and whether one more selects an array layer.
struct Shape {
    uint32_t spatial = 2;
    bool arrayed = false;
};
Shape shapeOf(uint32_t cl_image_type);

// The image a register names: one of the launch's image arguments of the instruction's type (Insn::aux),
// else nullptr after reporting the undefined behaviour.
const ImageDesc* imageArg(GroupRun& g, Lane& lane, const Insn& in, uint64_t handle);

// Texel at (x, y) of slice or layer z (a 1D array's layer is z); no bounds check.
inline uint8_t* texelAt(const ImageDesc& d, int64_t x, int64_t y, int64_t z) {
    return d.data + size_t(z) * d.slice_pitch + size_t(y) * d.row_pitch + size_t(x) * d.texel_bytes;
}

// Size of spatial dimension k and the layer count.
inline int64_t extent(const ImageDesc& d, uint32_t k) {
    return int64_t(k == 0 ? d.width : k == 1 ? d.height : d.depth);
}

// Whether the image's channel type reads as the texel register holds (float / half vs int): reading or
// writing int4 from a float format, or float4 from an integer one, is undefined.
bool texelKindMatches(const ImageDesc& d, const Insn& in);

// Writes four texel words (decodeTexel's form; floats as float bits) to the result register.
void storeResult(const Insn& in, uint8_t* regs, const uint32_t words[4]);

}  // namespace refdev::spirv::image
