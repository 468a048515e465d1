// Host reference for SPV_INTEL_media_block_io: which region element each lane's Result / Data component maps
// to, what a media block read returns (edge replication out of bounds) and what a write leaves in the image.
// Pure functions over bytes; no OpenCL, no device code.
//
// Terms follow the spec: the region is Width elements of the component type wide (element_bytes each) and
// Height rows tall, starting at Coordinate x (bytes) and y (rows). The sub-group's values form a destination
// (read) or source (write) region S = SubgroupMaxSize elements wide and `components` rows tall; the region
// is laid into it row-major, each region row starting at a power-of-two byte offset.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cts::reference {

struct MediaBlockShape {
    uint32_t element_bytes = 4;    // component type: 1, 2 or 4
    uint32_t components = 1;       // Result / Data components: 1, 2, 4, 8 or 16
    uint32_t width = 8;            // elements of the component type
    uint32_t height = 1;           // rows
    uint32_t sub_group_size = 16;  // S = SubgroupMaxSize

    std::string str() const;  // e.g. "e2 x4 w16 h8 sg16"
};

// Bytes from one region row's start to the next in the destination/source region: the row's byte width
// rounded up to a power of two.
uint32_t mediaRowStrideBytes(const MediaBlockShape& s);

// Where (lane, component) of the sub-group's values maps in the region; defined = false for slots the spec
// leaves undefined (row padding, or the tail of a region smaller than S x components).
struct MediaSlot {
    bool defined = false;
    uint32_t row = 0, col = 0;  // region row and element column
};
MediaSlot mediaSlot(const MediaBlockShape& s, uint32_t lane, uint32_t component);

// A 2D image as the kernel sees it, read without format conversion.
struct MediaImage {
    uint32_t width = 0;          // texels
    uint32_t height = 0;         // rows
    uint32_t texel_bytes = 4;    // 1, 2 or 4
    size_t row_pitch_bytes = 0;  // >= width * texel_bytes
    std::vector<uint8_t> data;   // height * row_pitch_bytes bytes, row 0 first
};

struct MediaValue {
    bool defined = false;
    uint64_t value = 0;  // element_bytes wide, little-endian
};

// Result of a media block read: [lane][component]. Out-of-bounds texels replicate the nearest edge texel
// (clamped row and column) when texel_bytes <= element_bytes; with larger texels an element touching an
// out-of-bounds byte is undefined.
std::vector<std::vector<MediaValue>> mediaBlockRead(const MediaBlockShape& s, const MediaImage& image,
                                                    int32_t x_bytes, int32_t y);

// A media block write of data[lane][component] (element_bytes wide). Returns the image afterwards; bytes of
// `undefined` (same size as image.data) are 1 where the spec leaves the value undefined (region elements no
// source value maps to when the source region is smaller than the region). Out-of-bounds bytes are dropped.
struct MediaWriteResult {
    MediaImage image;
    std::vector<uint8_t> undefined;
};
MediaWriteResult mediaBlockWrite(const MediaBlockShape& s, const MediaImage& before,
                                 const std::vector<std::vector<uint64_t>>& data, int32_t x_bytes, int32_t y);

// The OpenCL environment's limit on Height for a row of `row_bytes` bytes (4 -> 64, 8 -> 32, 12..16 -> 16,
// 20..32 -> 8); 0 when the row width is not a legal multiple of 4 up to 32.
uint32_t mediaMaxHeight(uint32_t row_bytes);

}  // namespace cts::reference
