// SPV_INTEL_media_block_io instructions on the reference device, read from the extension's instruction
// descriptions and the OpenCL environment of cl_intel_spirv_media_block_io (row width and height limits,
// images from buffers, out-of-bounds behaviour). This code walks the W x H region element by element and
// computes the slot of the sub-group's S-wide re-tiled region it belongs to; it shares nothing with the
// suite's host reference.
//
// Layout: with S = SubgroupMaxSize, the sub-group's values form a region S elements wide and `components`
// rows high (lane i is column i, component j is row j, slot j*S + i). Region row r starts at slot r * P/eb,
// where P is the row's byte width W*eb rounded up to a power of two ("undefined padding values to make a
// power-of-two row byte width"); slots past S * components are dropped.
#include "reference_device/ext/media_block_io/media_block_io_ops.h"

#include "reference_device/texel_conversion.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace refdev::spirv::media_block_io {
namespace {

using Kind = TypeInfo::Kind;

// Smallest power of two >= v (v is at most 32 here: shapeError bounds the row first). 64-bit, so that it
// would terminate for any 32-bit v.
uint32_t ceilPow2(uint32_t v) {
    uint64_t p = 1;
    while (p < v) p <<= 1;
    return uint32_t(p);
}

int64_t floorDiv(int64_t a, int64_t b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// Bytes the spec leaves undefined (padding, tail components, out-of-bounds texels larger than the
// element) read as 0xDEADBEEF junk, so that nothing can rely on them.
constexpr uint8_t kUndefined[4] = {0xef, 0xbe, 0xad, 0xde};
void fillUndefined(uint8_t* dst, size_t bytes) {
    for (size_t i = 0; i < bytes; ++i) dst[i] = kUndefined[i % 4];
}

bool isIntegerScalarOrVector(const TypeInfo& t) {
    return t.kind == Kind::Int || (t.kind == Kind::Vector && t.component_kind == Kind::Int);
}

// The block read Component Type / block write Component Type as the OpenCL environment allows it: 8-, 16-
// or 32-bit integers (uc, us, ui) with 1, 2, 4, 8 or 16 components (16 only for uc and us).
std::string dataTypeError(const TypeInfo* t, const char* role) {
    if (!t || !isIntegerScalarOrVector(*t) ||
        (t->component_bits != 8 && t->component_bits != 16 && t->component_bits != 32))
        return std::string(role) +
               " must be a scalar or vector of 8-, 16- or 32-bit integers (the OpenCL environment's "
               "uchar, ushort and uint block types)";
    const uint32_t n = t->components;
    if ((n != 1 && n != 2 && n != 4 && n != 8 && n != 16) || (n == 16 && t->component_bits == 32))
        return std::string(role) + " has " + std::to_string(n) +
               " components; the OpenCL environment allows 1, 2, 4, 8 or 16 (16 only for 8- and 16-bit "
               "integers)";
    return "";
}

std::string coordinateError(const TypeInfo* t) {
    if (!t || t->kind != Kind::Vector || t->component_kind != Kind::Int || t->components != 2)
        return "Coordinate must be a vector of two integer components (x in bytes, y in rows)";
    return "";
}

uint32_t firstActive(const OpContext& ctx) {
    for (uint32_t l = 0; l < ctx.lanes(); ++l)
        if (ctx.active(l)) return l;
    return 0;
}

int64_t signedComponent(const OpContext& ctx, uint32_t lane, uint32_t k, uint32_t index) {
    const uint32_t bits = ctx.operandType(k).component_bits;
    switch (bits) {
        case 8: return ctx.get<int8_t>(lane, k, index);
        case 16: return ctx.get<int16_t>(lane, k, index);
        case 64: return ctx.get<int64_t>(lane, k, index);
        default: return ctx.get<int32_t>(lane, k, index);
    }
}

// One instruction's operands after every precondition was checked.
struct Block {
    const ImageDesc* image = nullptr;
    int64_t x_bytes = 0, y = 0;      // Coordinate: byte offset into a row, row
    uint32_t width = 0, height = 0;  // Width (elements of the component type), Height (rows)
    uint32_t element_bytes = 0;      // eb: bytes of the block Component Type
    uint32_t components = 0;         // rows of the sub-group's re-tiled region
    uint32_t lanes = 0;              // S = SubgroupMaxSize: columns of that region
};

// Checks the preconditions of the spec and the OpenCL environment; reports undefined behaviour (and returns
// false) on the first violation.
bool decode(OpContext& ctx, const char* name, const TypeInfo& data_type, const char* data_role, Block* b) {
    const uint32_t lane0 = firstActive(ctx);
    auto ub = [&](const std::string& what) {
        ctx.undefinedBehavior(lane0, std::string(name) + ": " + what);
        return false;
    };
    if (!ctx.fullSubgroup())
        return ub(
            "behavior is undefined unless all invocations of a full sub-group execute this instruction "
            "(partial sub-group or divergent control flow)");
    if (!ctx.uniform(kImageK)) return ub("Image is not dynamically uniform across the sub-group");
    if (!ctx.uniform(kCoordinateK)) return ub("Coordinate is not dynamically uniform across the sub-group");
    if (std::string why = dataTypeError(&data_type, data_role); !why.empty()) return ub(why);
    if (std::string why = coordinateError(&ctx.operandType(kCoordinateK)); !why.empty()) return ub(why);
    if (!ctx.isConstant(kWidthK) || !ctx.isConstant(kHeightK))
        return ub("Width and Height must be constant instructions (compile-time width and height)");

    b->lanes = ctx.maxLanes();
    b->element_bytes = data_type.component_bits / 8;
    b->components = data_type.components;
    const uint64_t width = ctx.getUint(lane0, kWidthK), height = ctx.getUint(lane0, kHeightK);
    if (std::string why = shapeError(width, height, b->element_bytes); !why.empty()) return ub(why);
    b->width = uint32_t(width), b->height = uint32_t(height);
    b->x_bytes = signedComponent(ctx, lane0, kCoordinateK, 0);
    b->y = signedComponent(ctx, lane0, kCoordinateK, 1);
    // Only 64-bit components can go further. Bounding them keeps x + column bytes, y + row (and x times the
    // element size under a fault) far from overflow.
    constexpr int64_t kMin = std::numeric_limits<int32_t>::min(), kMax = std::numeric_limits<int32_t>::max();
    if (b->x_bytes < kMin || b->x_bytes > kMax || b->y < kMin || b->y > kMax)
        return ub("Coordinate (" + std::to_string(b->x_bytes) + ", " + std::to_string(b->y) +
                  ") is outside the 32-bit range of the OpenCL environment's int2 coordinate");
    if (b->x_bytes % 4)
        return ub("Coordinate x is " + std::to_string(b->x_bytes) +
                  " bytes; the OpenCL environment requires a multiple of 4 bytes");

    b->image = ctx.image(lane0, kImageK);
    if (!b->image) return false;
    if (b->image->from_buffer) {
        // OpenCL environment, images created from a buffer (cl_khr_image2d_from_buffer).
        if (b->height > 16)
            return ub("Height " + std::to_string(b->height) +
                      " exceeds 16 rows, the maximum for an image created from a buffer");
        if (b->image->row_pitch % 64)
            return ub("the image was created from a buffer with row pitch " +
                      std::to_string(b->image->row_pitch) + " bytes, which is not a multiple of 64");
    }
    return true;
}

// The image's bytes without format conversion: byte column bx (0 .. width * texel_bytes - 1) of a row.
struct Surface {
    const ImageDesc& img;
    size_t pitch;  // bytes between rows

    Surface(const ImageDesc& image, const Faults& faults)
        : img(image),
          pitch(image.from_buffer && faults.has("media_buffer_image_pitch_from_width")
                    ? image.width * image.texel_bytes
                    : image.row_pitch) {}

    int64_t rowBytes() const { return int64_t(img.width * img.texel_bytes); }
    bool inside(int64_t row, int64_t bx) const {
        return row >= 0 && row < int64_t(img.height) && bx >= 0 && bx < rowBytes();
    }
    uint8_t* at(int64_t row, int64_t bx) const { return img.data + size_t(row) * pitch + size_t(bx); }

    // The same byte of the nearest edge unit of `unit` bytes (a texel): column and row clamped to the image.
    uint8_t* nearestEdge(int64_t row, int64_t bx, int64_t unit) const {
        const int64_t column = floorDiv(bx, unit), within = bx - column * unit;
        const int64_t last = (rowBytes() - 1) / unit;
        int64_t x = std::clamp<int64_t>(column, 0, last) * unit + within;
        x = std::min(x, rowBytes() - 1);  // only a partial last unit (the dword-replication fault) needs this
        return at(std::clamp<int64_t>(row, 0, int64_t(img.height) - 1), x);
    }
};

// The region as the driver lays it out (faults included): elements per region row and slots per region row.
struct Layout {
    uint32_t width = 0;   // elements per row read or written
    uint32_t stride = 0;  // slots from one region row to the next
    int64_t x_bytes = 0;  // byte column of element 0
};

Layout layout(const Block& b, const Faults& faults) {
    Layout l;
    const uint32_t eb = b.element_bytes;
    l.width = faults.has("media_width_as_bytes") ? b.width / eb : b.width;
    l.stride = faults.has("media_padding_not_skipped") ? l.width : ceilPow2(l.width * eb) / eb;
    l.stride = std::max<uint32_t>(l.stride, 1);  // a zero width (only under media_width_as_bytes)
    l.x_bytes = faults.has("media_x_offset_as_elements") ? b.x_bytes * eb : b.x_bytes;
    // An 8-byte (QWORD) addressed block message: x loses its bit 2 (rounded toward minus infinity).
    if (faults.has("media_x_rounded_to_8")) l.x_bytes &= ~int64_t(7);
    return l;
}

// Calls visit(row, column, lane, component) for every region element that has a slot in the sub-group's
// values, in the order rows then columns.
template <typename Visit>
void forEachElement(const Block& b, const Layout& l, bool no_retiling, Visit visit) {
    if (no_retiling) {
        // The planted fault: lane i is column i of a row-major region whatever S and W are.
        for (uint32_t j = 0; j < std::min(b.components, b.height); ++j)
            for (uint32_t i = 0; i < std::min(b.lanes, l.width); ++i) visit(j, i, i, j);
        return;
    }
    const uint64_t slots = uint64_t(b.lanes) * b.components;
    for (uint32_t r = 0; r < b.height; ++r)
        for (uint32_t c = 0; c < l.width; ++c) {
            const uint64_t slot = uint64_t(r) * l.stride + c;
            if (slot >= slots) return;  // "some parts of the 2D region ... will be dropped"
            visit(r, c, uint32_t(slot % b.lanes), uint32_t(slot / b.lanes));
        }
}

}  // namespace

uint32_t maxHeightForRowBytes(uint32_t row_bytes) {
    if (row_bytes == 4) return 64;
    if (row_bytes == 8) return 32;
    if (row_bytes == 12 || row_bytes == 16) return 16;
    if (row_bytes >= 20 && row_bytes <= 32 && row_bytes % 4 == 0) return 8;
    return 0;
}

std::string shapeError(uint64_t width, uint64_t height, uint32_t element_bytes) {
    if (width == 0) return "Width is 0: the block has no columns";
    if (height == 0) return "Height is 0: the block has no rows";
    // Over 32 elements is over 32 bytes for any element size. Said before multiplying, so that a 64-bit
    // Width cannot wrap Width x element size back into range (2^62 + 1 four-byte elements "= 4 bytes").
    if (width > 32 || element_bytes > 32)
        return "Width " + std::to_string(width) + " x " + std::to_string(element_bytes) +
               "-byte elements exceeds the OpenCL environment's maximum block row of 32 bytes";
    const uint64_t row_bytes = width * element_bytes;
    const std::string row = "Width " + std::to_string(width) + " x " + std::to_string(element_bytes) +
                            "-byte elements = " + std::to_string(row_bytes) + " bytes";
    if (row_bytes % 4)
        return row +
               " is not a multiple of 4 bytes (OpenCL environment: the block width in bytes must be a "
               "multiple of 4)";
    if (row_bytes > 32) return row + " exceeds the OpenCL environment's maximum block row of 32 bytes";
    const uint32_t max_height = maxHeightForRowBytes(uint32_t(row_bytes));
    if (height > max_height)
        return "Height " + std::to_string(height) + " exceeds the maximum of " + std::to_string(max_height) +
               " rows for a " + std::to_string(row_bytes) +
               "-byte block row (OpenCL environment: 4 B -> 64 rows, 8 B -> 32, 12-16 B -> 16, 20-32 B -> 8)";
    return "";
}

namespace {

std::string checkBuild(const char* name, const TypeInfo* data, const char* data_role, const ExtBuildView& v) {
    auto fail = [&](const std::string& why) { return std::string(name) + ": " + why; };
    auto type = [&](uint32_t k) { return k < v.operand_types.size() ? v.operand_types[k] : nullptr; };
    auto constant = [&](uint32_t k) { return k < v.int_constant.size() && v.int_constant[k]; };
    if (std::string why = dataTypeError(data, data_role); !why.empty()) return fail(why);
    const TypeInfo* image = type(kImageK);
    if (!image || image->kind != Kind::Image)
        return fail("Image must be an object whose type is OpTypeImage");
    if (std::string why = coordinateError(type(kCoordinateK)); !why.empty()) return fail(why);
    if (!constant(kWidthK))
        return fail(
            "Width must be a constant instruction (the OpenCL environment requires compile-time width and "
            "height)");
    if (!constant(kHeightK))
        return fail(
            "Height must be a constant instruction (the OpenCL environment requires compile-time width and "
            "height)");
    const uint32_t element_bytes = data->component_bits / 8;
    if (std::string why = shapeError(v.int_value[kWidthK], v.int_value[kHeightK], element_bytes);
        !why.empty())
        return fail(why);
    return "";
}

}  // namespace

std::string checkReadBuild(const ExtBuildView& view) {
    return checkBuild(kReadName, view.result, "Result Type", view);
}

std::string checkWriteBuild(const ExtBuildView& view) {
    const TypeInfo* data = kDataK < view.operand_types.size() ? view.operand_types[kDataK] : nullptr;
    return checkBuild(kWriteName, data, "the type of Data", view);
}

void executeRead(OpContext& ctx) {
    Block b;
    if (!decode(ctx, kReadName, ctx.resultType(), "Result Type", &b)) return;
    const Faults& faults = ctx.faults();
    const Surface surface(*b.image, faults);
    const Layout l = layout(b, faults);
    const uint32_t eb = b.element_bytes;
    const int64_t texel = int64_t(b.image->texel_bytes);
    int64_t x0 = l.x_bytes, y0 = b.y;
    if (faults.has("media_negative_coords_clamped"))
        x0 = std::max<int64_t>(x0, 0), y0 = std::max<int64_t>(y0, 0);
    const bool oob_zero = faults.has("media_edge_replicated_as_zero");
    // Byte texels replicated in 4-byte groups (the planted fault).
    const int64_t unit = texel == 1 && faults.has("media_byte_texels_replicated_as_dwords") ? 4 : texel;

    // Slots the region does not reach (padding, tail components) stay undefined.
    for (uint32_t lane = 0; lane < ctx.lanes(); ++lane)
        fillUndefined(ctx.result(lane), size_t(eb) * b.components);
    forEachElement(
        b, l, faults.has("media_no_retiling"), [&](uint32_t r, uint32_t c, uint32_t lane, uint32_t j) {
            uint8_t* out = ctx.result(lane) + size_t(j) * eb;
            const int64_t row = y0 + r;
            for (uint32_t k = 0; k < eb; ++k) {
                const int64_t bx = x0 + int64_t(c) * eb + k;
                if (surface.inside(row, bx))
                    out[k] = *surface.at(row, bx);
                else if (texel > int64_t(eb))
                    out[k] = kUndefined[k % 4];  // texels larger than the element: undefined out of bounds
                else
                    out[k] =
                        oob_zero ? 0 : *surface.nearestEdge(row, bx, unit);  // "replicate the nearest edge"
            }
        });
}

void executeWrite(OpContext& ctx) {
    Block b;
    if (!decode(ctx, kWriteName, ctx.operandType(kDataK), "the type of Data", &b)) return;
    const Faults& faults = ctx.faults();
    const Surface surface(*b.image, faults);
    const Layout l = layout(b, faults);
    const uint32_t eb = b.element_bytes;
    const int64_t texel = int64_t(b.image->texel_bytes);
    const bool clamp_oob = faults.has("media_oob_writes_clamped");
    // The planted fault media_write_converts_texels: every channel written goes through a typed store.
    const uint32_t cb = channelBytes(b.image->channel_type);
    const bool convert =
        faults.has("media_write_converts_texels") && cb != 0 && channelTypeConverts(b.image->channel_type);
    std::vector<uint8_t*> written_channels;

    auto store = [&](uint32_t r, uint32_t c, uint32_t lane, uint32_t j) {
        const uint8_t* src = ctx.operand(lane, kDataK) + size_t(j) * eb;
        const int64_t row = b.y + r;
        for (uint32_t k = 0; k < eb; ++k) {
            const int64_t bx = l.x_bytes + int64_t(c) * eb + k;
            if (surface.inside(row, bx)) {
                *surface.at(row, bx) = src[k];
                if (convert) written_channels.push_back(surface.at(row, bx - bx % cb));
            } else if (clamp_oob)
                *surface.nearestEdge(row, bx, texel) = src[k];
            // else: out of bounds, dropped
        }
    };
    forEachElement(b, l, faults.has("media_no_retiling"), store);

    // The planted fault: the source's slots past the region's last row are written as further rows.
    if (faults.has("media_tail_written") && !faults.has("media_no_retiling")) {
        const uint64_t slots = uint64_t(b.lanes) * b.components;
        for (uint64_t slot = uint64_t(b.height) * l.stride; slot < slots; ++slot) {
            const uint32_t r = uint32_t(slot / l.stride), c = uint32_t(slot % l.stride);
            if (c < l.width) store(r, c, uint32_t(slot % b.lanes), uint32_t(slot / b.lanes));
        }
    }
    std::sort(written_channels.begin(), written_channels.end());
    written_channels.erase(std::unique(written_channels.begin(), written_channels.end()),
                           written_channels.end());
    for (uint8_t* channel : written_channels) convertChannelRoundTrip(b.image->channel_type, channel);
}

}  // namespace refdev::spirv::media_block_io

namespace refdev::spirv {

void registerMediaBlockIoOps(ExtOpTable& table) {
    using namespace media_block_io;
    // Read: Image, Coordinate, Width, Height (after Result Type and Result). Write: ... and Data.
    table.add({kOpRead, kReadName, true, 4, 4, UINT32_MAX, {kCapability}, executeRead, checkReadBuild});
    table.add({kOpWrite, kWriteName, false, 5, 5, UINT32_MAX, {kCapability}, executeWrite, checkWriteBuild});
}

REFDEV_REGISTER_EXT_OPS("media_block_io", registerMediaBlockIoOps);

}  // namespace refdev::spirv
