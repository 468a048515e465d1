// OpSubgroupImageBlockReadINTEL / OpSubgroupImageBlockWriteINTEL.
//
// "Note that the Coordinate is a byte coordinate, not a texel coordinate. Also note that the image data is
// read without format conversion"; "the first value read is from the row specified by the y-component of
// the provided Coordinate, the second value is read from the row ... plus one, etc." Invocation L's element
// of a row starts L elements right of x. Out of bounds (OpenCL environment): 4-byte texel formats clamp
// reads to the edge texel and drop writes; other texel sizes are undefined (junk on reads, undefined
// behaviour reported on writes). Writes need x to be a multiple of 4.
#include <cstdint>
#include <cstring>

#include "reference_device/ext/subgroups/subgroups_ops.h"
#include "reference_device/texel_conversion.h"

namespace refdev::spirv::subgroups {
namespace {

struct BlockOrigin {
    const ImageDesc* image = nullptr;
    int64_t x_bytes = 0, y = 0;
};

bool prepare(OpContext& ctx, const char* op, BlockOrigin* origin) {
    const uint32_t lane = firstActiveLane(ctx);
    if (!requireFullSubgroup(ctx, op)) return false;
    if (!ctx.uniform(0)) {
        ctx.undefinedBehavior(lane, std::string(op) + ": Image is not uniform across the sub-group");
        return false;
    }
    if (!ctx.uniform(1)) {
        ctx.undefinedBehavior(lane, std::string(op) + ": Coordinate is not uniform across the sub-group");
        return false;
    }
    origin->image = ctx.image(lane, 0);
    if (!origin->image) return false;
    const TypeInfo& coord = ctx.operandType(1);
    // Each component at its own width (a 32-bit read of a narrower one would take in the next component's
    // bytes, and a truncated 64-bit one would land back in the image).
    const uint32_t bits = coord.component_bits;
    if (coord.component_kind != TypeInfo::Kind::Int ||
        (bits != 8 && bits != 16 && bits != 32 && bits != 64)) {
        ctx.undefinedBehavior(lane, std::string(op) + ": Coordinate must be an integer vector");
        return false;
    }
    int64_t xy[2] = {0, 0};
    for (uint32_t i = 0; i < 2 && i < coord.components; ++i) {
        const uint8_t* p = ctx.operand(lane, 1) + size_t(i) * bits / 8;
        int64_t v = 0;
        std::memcpy(&v, p, bits / 8);
        xy[i] = bits == 64 ? v : int64_t(uint64_t(v) << (64 - bits)) >> (64 - bits);  // sign-extend
    }
    // Only 64-bit components can go further; bounding them keeps x + lane bytes and y + rows (and x times
    // the element size under a fault) far from overflow.
    for (int64_t v : xy)
        if (v < INT32_MIN || v > INT32_MAX) {
            ctx.undefinedBehavior(lane, std::string(op) + ": Coordinate (" + std::to_string(xy[0]) + ", " +
                                            std::to_string(xy[1]) +
                                            ") is outside the 32-bit range of the OpenCL environment's int2 "
                                            "coordinate");
            return false;
        }
    origin->x_bytes = xy[0];
    origin->y = xy[1];
    return true;
}

// Bytes between rows: the row pitch, or (planted fault) width * texel size on an image from a buffer.
size_t rowPitch(const ImageDesc& img, const Faults& faults) {
    return img.from_buffer && faults.has("image_from_buffer_pitch_ignored") ? img.width * img.texel_bytes
                                                                            : img.row_pitch;
}

// The image byte at `offset` (from the first byte of row 0, `within_row` bytes into its row) as a read gives
// it: raw, or (planted fault image_block_converts_texels) after a typed read of its channel.
uint8_t readByte(const ImageDesc& img, size_t offset, size_t within_row, bool convert) {
    const uint32_t cb = channelBytes(img.channel_type);
    if (!convert || cb == 0 || !channelTypeConverts(img.channel_type)) return img.data[offset];
    uint8_t channel[4];
    const size_t first = offset - within_row % cb;
    std::memcpy(channel, img.data + first, cb);
    convertChannelRoundTrip(img.channel_type, channel);
    return channel[offset - first];
}

bool inside(const ImageDesc& img, int64_t byte_x, int64_t row) {
    return byte_x >= 0 && byte_x < int64_t(img.width * img.texel_bytes) && row >= 0 &&
           row < int64_t(img.height);
}

}  // namespace

void executeImageBlockRead(OpContext& ctx) {
    BlockOrigin o;
    if (!prepare(ctx, "OpSubgroupImageBlockReadINTEL", &o)) return;
    const ImageDesc& img = *o.image;
    const TypeInfo& type = ctx.resultType();
    const int64_t bytes = type.component_bits / 8;
    const Faults& faults = ctx.faults();
    const int64_t x0 = faults.has("image_block_read_x_in_elements") ? o.x_bytes * bytes : o.x_bytes;
    // image_block_read_via_2d_load: where the device has 2D block IO, the read goes through the untyped
    // 2D block load, which reads 0 out of bounds.
    const bool via_2d_load = faults.has("image_block_read_via_2d_load") && ctx.profile() &&
                             ctx.profile()->hasSpirvExtension("SPV_INTEL_2d_block_io");
    const bool oob_zero = faults.has("image_block_read_oob_zero") || via_2d_load;
    const int64_t texel = int64_t(img.texel_bytes);
    const size_t pitch = rowPitch(img, faults);
    const bool convert = faults.has("image_block_converts_texels");

    for (uint32_t lane = 0; lane < ctx.lanes(); ++lane) {
        uint8_t* dst = ctx.result(lane);
        for (uint32_t j = 0; j < type.components; ++j) {
            int64_t row = o.y + j;
            for (int64_t b = 0; b < bytes; ++b) {
                int64_t bx = x0 + int64_t(lane) * bytes + b;
                uint8_t* out = dst + j * bytes + b;
                if (inside(img, bx, row)) {
                    *out = readByte(img, size_t(row) * pitch + size_t(bx), size_t(bx), convert);
                } else if (texel != 4) {
                    fillUndefined(dst + j * bytes, uint32_t(bytes));  // undefined for this texel size
                    break;
                } else if (oob_zero) {
                    *out = 0;
                } else {
                    // Clamp to the edge texel; the byte keeps its position inside the texel.
                    int64_t t = bx >= 0 ? bx / texel : -((-bx + texel - 1) / texel);
                    int64_t within = bx - t * texel;
                    t = t < 0 ? 0 : (t >= int64_t(img.width) ? int64_t(img.width) - 1 : t);
                    int64_t r = row < 0 ? 0 : (row >= int64_t(img.height) ? int64_t(img.height) - 1 : row);
                    *out = readByte(img, size_t(r) * pitch + size_t(t * texel + within),
                                    size_t(t * texel + within), convert);
                }
            }
        }
    }
}

void executeImageBlockWrite(OpContext& ctx) {
    const char* op = "OpSubgroupImageBlockWriteINTEL";
    BlockOrigin o;
    if (!prepare(ctx, op, &o)) return;
    const uint32_t first = firstActiveLane(ctx);
    if (o.x_bytes % 4 != 0) {
        ctx.undefinedBehavior(first, std::string(op) + ": Coordinate x " + std::to_string(o.x_bytes) +
                                         " bytes is not a multiple of 4");
        return;
    }
    const ImageDesc& img = *o.image;
    const TypeInfo& type = ctx.operandType(2);
    const int64_t bytes = type.component_bits / 8;
    const bool no_x_clip = ctx.faults().has("image_block_write_no_x_clip");
    const int64_t x0 = ctx.faults().has("image_block_write_x_in_elements") ? o.x_bytes * bytes : o.x_bytes;
    const uint32_t rows = type.components > 1 && ctx.faults().has("image_block_write_drops_last_row")
                              ? type.components - 1
                              : type.components;
    const size_t image_bytes = img.row_pitch * img.height;
    const size_t pitch = rowPitch(img, ctx.faults());

    // Undefined writes are found before anything is written, so a reported launch leaves the image alone.
    if (img.texel_bytes != 4) {
        int64_t last_x = o.x_bytes + int64_t(ctx.lanes()) * bytes - 1;
        int64_t last_row = o.y + type.components - 1;
        if (!inside(img, o.x_bytes, o.y) || !inside(img, last_x, last_row)) {
            ctx.undefinedBehavior(first, std::string(op) + ": block at (" + std::to_string(o.x_bytes) +
                                             " bytes, " + std::to_string(o.y) +
                                             ") is out of bounds of an image with " +
                                             std::to_string(img.texel_bytes) +
                                             "-byte texels (only 4-byte texel formats drop such writes)");
            return;
        }
    }
    for (uint32_t lane = 0; lane < ctx.lanes(); ++lane) {
        const uint8_t* data = ctx.operand(lane, 2);
        for (uint32_t j = 0; j < rows; ++j) {
            int64_t row = o.y + j;
            for (int64_t b = 0; b < bytes; ++b) {
                int64_t bx = x0 + int64_t(lane) * bytes + b;
                if (inside(img, bx, row)) {
                    img.data[size_t(row) * pitch + size_t(bx)] = data[j * bytes + b];
                } else if (no_x_clip && row >= 0 && row < int64_t(img.height) && bx >= 0) {
                    size_t offset = size_t(row) * pitch + size_t(bx);
                    if (offset < image_bytes) img.data[offset] = data[j * bytes + b];
                }
                // else: dropped ("out-of-bounds writes are ignored" for 4-byte texels)
            }
        }
    }
}

}  // namespace refdev::spirv::subgroups
