// Host reference for SPV_INTEL_media_block_io, written from the descriptions of
// OpSubgroupImageMediaBlockReadINTEL and OpSubgroupImageMediaBlockWriteINTEL and the OpenCL environment's
// notes (edge replication, height limits). Comments quote the spec sentence each rule comes from; the worked
// examples and the readings of unclear sentences are in docs/media_block_io_examples.md.
//
// One picture serves both instructions. The region (Width x Height elements at Coordinate) is laid row-major
// into a linear sequence of "slots" with each region row starting at a multiple of the power-of-two row
// stride; the sub-group's values cover slots 0 .. S*components-1, lane i component j being slot j*S + i.
#include "test_common/reference/media_block_io.h"

#include <sstream>
#include <stdexcept>

namespace cts::reference {
namespace {

uint32_t nextPow2(uint64_t v) {
    uint64_t p = 1;
    while (p < v) p <<= 1;
    return uint32_t(p);
}

bool pow2(uint32_t v) {
    return v && !(v & (v - 1));
}

void validate(const MediaBlockShape& s) {
    // The component type is a scalar integer (char, short, int; long is allowed by SPIR-V but not used by
    // OpenCL); values are carried in 64 bits, so 8 is accepted too.
    if (s.element_bytes != 1 && s.element_bytes != 2 && s.element_bytes != 4 && s.element_bytes != 8)
        throw std::invalid_argument("media block IO reference: element_bytes must be 1, 2, 4 or 8: " +
                                    s.str());
    if (!s.components || !s.width || !s.height || !s.sub_group_size)
        throw std::invalid_argument("media block IO reference: zero dimension: " + s.str());
    if (uint64_t(s.width) * s.element_bytes > (1u << 30))
        throw std::invalid_argument("media block IO reference: region row too wide: " + s.str());
}

void validate(const MediaImage& m) {
    if (!pow2(m.texel_bytes) || m.texel_bytes > 16)
        throw std::invalid_argument("media block IO reference: texel_bytes must be 1, 2, 4, 8 or 16");
    if (m.row_pitch_bytes < size_t(m.width) * m.texel_bytes)
        throw std::invalid_argument("media block IO reference: row pitch smaller than a row");
    if (m.height &&
        m.data.size() < size_t(m.height - 1) * m.row_pitch_bytes + size_t(m.width) * m.texel_bytes)
        throw std::invalid_argument("media block IO reference: image data smaller than height x pitch");
}

// Floor division and modulo for the byte coordinate, which may be negative.
int64_t floorDiv(int64_t a, int64_t b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

int64_t clamp(int64_t v, int64_t lo, int64_t hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

bool inBounds(const MediaImage& m, int64_t row, int64_t byte) {
    return row >= 0 && row < int64_t(m.height) && byte >= 0 && byte < int64_t(m.width) * m.texel_bytes;
}

// One byte of a read at image row `row`, byte `byte` (both possibly outside the image), texel_bytes <=
// element_bytes: "reads replicate the nearest edge when the texel is no larger than the element type (byte
// texels repeat the boundary byte, word texels the boundary word)". The texel holding the byte has its row
// and column clamped to the image; the byte keeps its place inside the texel.
uint8_t replicatedByte(const MediaImage& m, int64_t row, int64_t byte) {
    int64_t tb = m.texel_bytes;
    int64_t col = floorDiv(byte, tb);
    int64_t within = byte - col * tb;
    col = clamp(col, 0, int64_t(m.width) - 1);
    row = clamp(row, 0, int64_t(m.height) - 1);
    return m.data[size_t(row) * m.row_pitch_bytes + size_t(col * tb + within)];
}

}  // namespace

std::string MediaBlockShape::str() const {
    std::ostringstream os;
    os << "e" << element_bytes << " x" << components << " w" << width << " h" << height << " sg"
       << sub_group_size;
    return os.str();
}

uint32_t mediaRowStrideBytes(const MediaBlockShape& s) {
    validate(s);
    // "If the source 2D region row byte width is not a power-of-two then the source 2D region row is assigned
    // to the destination 2D region with undefined padding values to make a power-of-two row byte width."
    // (write: "so that each row of the 2D region to write begins at an byte offset that is a power-of-two").
    return nextPow2(uint64_t(s.width) * s.element_bytes);
}

MediaSlot mediaSlot(const MediaBlockShape& s, uint32_t lane, uint32_t component) {
    validate(s);
    if (lane >= s.sub_group_size || component >= s.components)
        throw std::out_of_range("mediaSlot: lane or component outside the sub-group's values: " + s.str());
    // "The width of the destination 2D region is equivalent to SubgroupMaxSize in units of the Component
    // Type, and the height ... to the vector Component Count". "Each invocation in the subgroup is then
    // assigned a Component Type column vector of the reorganized 2D region, i.e. each invocation's subsequent
    // data element's index is strided by the SubgroupMaxSize": lane i, component j is linear slot j*S + i.
    uint64_t slot = uint64_t(component) * s.sub_group_size + lane;
    // "The reorganization assigns rows of the source 2D region to the destination 2D region in row-major
    // order", each row padded to the power-of-two stride (P / element_bytes elements, exact: both are powers
    // of two and P >= element_bytes).
    uint64_t stride_elements = mediaRowStrideBytes(s) / s.element_bytes;
    MediaSlot m;
    m.row = uint32_t(slot / stride_elements);
    m.col = uint32_t(slot % stride_elements);
    // Padding ("undefined padding values") and the tail ("If the size of the requested 2D region to read is
    // smaller than the 2D destination region then some tail components of some Result values will not be
    // assigned values").
    m.defined = m.col < s.width && m.row < s.height;
    return m;
}

std::vector<std::vector<MediaValue>> mediaBlockRead(const MediaBlockShape& s, const MediaImage& image,
                                                    int32_t x_bytes, int32_t y) {
    validate(s);
    validate(image);
    if (!image.width || !image.height)
        throw std::invalid_argument("mediaBlockRead: empty image has no edge to replicate");
    std::vector<std::vector<MediaValue>> out(s.sub_group_size, std::vector<MediaValue>(s.components));
    for (uint32_t lane = 0; lane < s.sub_group_size; ++lane)
        for (uint32_t j = 0; j < s.components; ++j) {
            MediaSlot slot = mediaSlot(s, lane, j);
            if (!slot.defined) continue;
            // "The first component of the Coordinate is a byte coordinate into a row of the Image and is not
            // expressed in units of the block read Component Type. Remaining coordinates are non-normalized
            // texel coordinates": region element (r, c) starts at byte x + c*element_bytes of row y + r.
            int64_t row = int64_t(y) + slot.row;
            int64_t byte0 = int64_t(x_bytes) + int64_t(slot.col) * s.element_bytes;
            MediaValue& v = out[lane][j];
            if (image.texel_bytes > s.element_bytes) {
                // "larger texels undefined": an element touching any out-of-bounds byte has no defined value.
                bool in = inBounds(image, row, byte0) && inBounds(image, row, byte0 + s.element_bytes - 1);
                if (!in) continue;
            }
            v.defined = true;
            for (uint32_t b = 0; b < s.element_bytes; ++b)
                v.value |= uint64_t(replicatedByte(image, row, byte0 + b)) << (8 * b);
        }
    return out;
}

MediaWriteResult mediaBlockWrite(const MediaBlockShape& s, const MediaImage& before,
                                 const std::vector<std::vector<uint64_t>>& data, int32_t x_bytes, int32_t y) {
    validate(s);
    validate(before);
    if (data.size() != s.sub_group_size)
        throw std::invalid_argument("mediaBlockWrite: one Data vector per lane: " + s.str());
    for (const auto& lane : data)
        if (lane.size() < s.components)
            throw std::invalid_argument("mediaBlockWrite: Data has fewer than `components` values: " +
                                        s.str());
    MediaWriteResult r{before, std::vector<uint8_t>(before.data.size(), 0)};
    uint64_t stride_elements = mediaRowStrideBytes(s) / s.element_bytes;
    uint64_t source_slots = uint64_t(s.sub_group_size) * s.components;
    // Walk the region to write and look up each element's source slot; slots in the padding are never
    // visited ("some values from the 2D source region are skipped during assignment").
    for (uint32_t er = 0; er < s.height; ++er)
        for (uint32_t ec = 0; ec < s.width; ++ec) {
            uint64_t slot = er * stride_elements + ec;
            // "If the size of the 2D source region is greater than the size of the 2D region to write then
            // some tail components of some Data values will not be written" (nothing to do: those slots are
            // not reached). The opposite case: "This SPIR-V extension does not require any specific behavior
            // when the size of the 2D source region is smaller than the size of the 2D region to write": the
            // element has no source and its in-bounds bytes are undefined afterwards.
            bool has_source = slot < source_slots;
            uint64_t value = has_source ? data[slot % s.sub_group_size][slot / s.sub_group_size] : 0;
            int64_t row = int64_t(y) + er;
            int64_t byte0 = int64_t(x_bytes) + int64_t(ec) * s.element_bytes;
            for (uint32_t b = 0; b < s.element_bytes; ++b) {
                // Out of bounds: "writes dropped", byte by byte (a texel is wholly in or out, so this is the
                // same as per texel).
                if (!inBounds(before, row, byte0 + b)) continue;
                size_t at = size_t(row) * before.row_pitch_bytes + size_t(byte0 + b);
                if (has_source)
                    r.image.data[at] = uint8_t(value >> (8 * b));
                else
                    r.undefined[at] = 1;
            }
        }
    return r;
}

uint32_t mediaMaxHeight(uint32_t row_bytes) {
    // OpenCL environment: "Maximum height by row width: 4 B -> 64 rows; 8 B -> 32; 12, 16 B -> 16; 20-32 B
    // -> 8", row width a multiple of 4.
    switch (row_bytes) {
        case 4: return 64;
        case 8: return 32;
        case 12:
        case 16: return 16;
        case 20:
        case 24:
        case 28:
        case 32: return 8;
        default: return 0;
    }
}

}  // namespace cts::reference
