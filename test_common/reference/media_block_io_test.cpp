// Unit tests of the media block IO host reference: worked examples derived from the SPV_INTEL_media_block_io
// descriptions of OpSubgroupImageMediaBlockReadINTEL / WriteINTEL and the OpenCL environment's notes, at
// small sub-group sizes (4, 8) and at the OpenCL ones (8, 16, 32). docs/media_block_io_examples.md writes
// each of them down with its tables.
#include "test_common/reference/media_block_io.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

namespace cts::reference {
namespace {

constexpr uint8_t kGap = 0xEE;  // bytes between width * texel_bytes and the row pitch

// Texel (r, c) of a test image: a value naming its position.
//   1-byte texels: 0x80 | r << 4 | c   (0xAB = row 2, column 11)
//   2-byte texels: 0xC000 | r << 8 | c (0xC104 = row 1, column 4)
//   4-byte texels: 0xA0B00000 | r << 8 | c (0xA0B00203 = row 2, column 3; bytes c, r, 0xB0, 0xA0)
uint64_t texel(uint32_t tb, uint32_t r, uint32_t c) {
    switch (tb) {
        case 1: return 0x80u | r << 4 | c;
        case 2: return 0xC000u | r << 8 | c;
        default: return 0xA0B00000u | r << 8 | c;
    }
}

MediaImage makeImage(uint32_t width, uint32_t height, uint32_t tb, size_t pitch = 0) {
    if (tb == 1) EXPECT_TRUE(height <= 8 && width <= 16);
    if (tb != 1) EXPECT_TRUE(height <= 64 && width <= 256);
    MediaImage m;
    m.width = width;
    m.height = height;
    m.texel_bytes = tb;
    m.row_pitch_bytes = pitch ? pitch : size_t(width) * tb;
    m.data.assign(m.row_pitch_bytes * height, kGap);
    for (uint32_t r = 0; r < height; ++r)
        for (uint32_t c = 0; c < width; ++c)
            for (uint32_t b = 0; b < tb; ++b)
                m.data[r * m.row_pitch_bytes + c * tb + b] = uint8_t(texel(tb, r, c) >> (8 * b));
    return m;
}

// An image of `width` x `height` texels filled with `fill`.
MediaImage flatImage(uint32_t width, uint32_t height, uint32_t tb, uint8_t fill, size_t pitch = 0) {
    MediaImage m;
    m.width = width;
    m.height = height;
    m.texel_bytes = tb;
    m.row_pitch_bytes = pitch ? pitch : size_t(width) * tb;
    m.data.assign(m.row_pitch_bytes * height, fill);
    return m;
}

// (row, col) of the region element a (lane, component) slot holds; (-1, -1) = undefined.
using RC = std::pair<int, int>;
const RC kUndef{-1, -1};

// Checks mediaSlot for every lane/component against `want` ([component][lane]) and the read at (x, y) of an
// image whose texel_bytes == element_bytes: a defined slot (r, c) must hold texel (y + r, x/eb + c).
void expectLayout(const MediaBlockShape& s, const std::vector<std::vector<RC>>& want, const MediaImage& img,
                  int32_t x, int32_t y) {
    ASSERT_EQ(want.size(), s.components) << s.str();
    ASSERT_EQ(img.texel_bytes, s.element_bytes);
    auto got = mediaBlockRead(s, img, x, y);
    ASSERT_EQ(got.size(), s.sub_group_size) << s.str();
    for (uint32_t j = 0; j < s.components; ++j) {
        ASSERT_EQ(want[j].size(), s.sub_group_size) << s.str();
        for (uint32_t i = 0; i < s.sub_group_size; ++i) {
            ASSERT_EQ(got[i].size(), s.components);
            const RC& w = want[j][i];
            MediaSlot slot = mediaSlot(s, i, j);
            const MediaValue& v = got[i][j];
            if (w == kUndef) {
                EXPECT_FALSE(slot.defined) << s.str() << " lane " << i << " component " << j;
                EXPECT_FALSE(v.defined) << s.str() << " lane " << i << " component " << j;
                continue;
            }
            EXPECT_TRUE(slot.defined) << s.str() << " lane " << i << " component " << j;
            EXPECT_EQ(RC(slot.row, slot.col), w) << s.str() << " lane " << i << " component " << j;
            EXPECT_TRUE(v.defined) << s.str() << " lane " << i << " component " << j;
            EXPECT_EQ(v.value, texel(s.element_bytes, y + w.first, x / s.element_bytes + w.second))
                << s.str() << " lane " << i << " component " << j;
        }
    }
}

TEST(MediaBlockIoReference, ShapeStrAndRowStride) {
    EXPECT_EQ((MediaBlockShape{2, 4, 16, 8, 16}).str(), "e2 x4 w16 h8 sg16");
    // "each row of the 2D region to write begins at an byte offset that is a power-of-two"
    EXPECT_EQ(mediaRowStrideBytes({4, 1, 8, 1, 8}), 32u);    // 32 B: already a power of two
    EXPECT_EQ(mediaRowStrideBytes({4, 1, 4, 1, 8}), 16u);    // 16 B
    EXPECT_EQ(mediaRowStrideBytes({1, 1, 12, 1, 16}), 16u);  // 12 B -> 16
    EXPECT_EQ(mediaRowStrideBytes({4, 1, 3, 1, 4}), 16u);    // 12 B -> 16
    EXPECT_EQ(mediaRowStrideBytes({4, 1, 5, 1, 8}), 32u);    // 20 B -> 32
    EXPECT_EQ(mediaRowStrideBytes({4, 1, 6, 1, 8}), 32u);    // 24 B -> 32
    EXPECT_EQ(mediaRowStrideBytes({2, 1, 14, 1, 16}), 32u);  // 28 B -> 32
    EXPECT_EQ(mediaRowStrideBytes({1, 1, 4, 1, 16}), 4u);
    EXPECT_EQ(mediaRowStrideBytes({4, 1, 16, 1, 16}), 64u);
}

// (a) Width == S, 4-byte elements: region row j is component j, column i is lane i.
// "Each invocation in the subgroup is then assigned a Component Type column vector of the reorganized 2D
// region, i.e. each invocation's subsequent data element's index is strided by the SubgroupMaxSize".
TEST(MediaBlockIoReference, A_WidthEqualsSubgroupSizeLaneIsColumnComponentIsRow) {
    MediaImage img = makeImage(40, 8, 4);
    for (uint32_t sg : {4u, 8u, 16u, 32u})
        for (uint32_t comps : {1u, 2u, 4u}) {
            MediaBlockShape s{4, comps, sg, comps, sg};  // H = components: region == destination region
            std::vector<std::vector<RC>> want(comps);
            for (uint32_t j = 0; j < comps; ++j)
                for (uint32_t i = 0; i < sg; ++i) want[j].push_back(RC(j, i));
            expectLayout(s, want, img, 8, 1);
        }
    // Spot values at S = 4, float2-like (x2), Coordinate (8 bytes, 1): lane 3 component 1 is region (1, 3),
    // image row 2, texel column 8/4 + 3 = 5.
    auto v = mediaBlockRead({4, 2, 4, 2, 4}, img, 8, 1);
    EXPECT_EQ(v[0][0].value, 0xA0B00102u);
    EXPECT_EQ(v[3][0].value, 0xA0B00105u);
    EXPECT_EQ(v[3][1].value, 0xA0B00205u);
    // Scalar with H = 1 at S = 8 (32-byte rows: an OpenCL-legal shape).
    auto sc = mediaBlockRead({4, 1, 8, 1, 8}, img, 0, 3);
    for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(sc[i][0].value, 0xA0B00300u + i) << i;
    // OpenCL-legal at S = 16: 2-byte elements, W = 16 (32 B rows), ushort2.
    MediaImage img2 = makeImage(20, 4, 2);
    std::vector<std::vector<RC>> want2(2);
    for (uint32_t j = 0; j < 2; ++j)
        for (uint32_t i = 0; i < 16; ++i) want2[j].push_back(RC(j, i));
    expectLayout({2, 2, 16, 2, 16}, want2, img2, 4, 2);
    EXPECT_EQ(mediaBlockRead({2, 2, 16, 2, 16}, img2, 4, 2)[15][1].value, 0xC311u);  // row 3, column 2 + 15
}

// (b) Width == S/2 of 4-byte elements: a region row is 2S bytes (a power of two), so one destination row
// holds two region rows. "The reorganization assigns rows of the source 2D region to the destination 2D
// region in row-major order."
TEST(MediaBlockIoReference, B_HalfWidthPacksTwoRegionRowsPerComponent) {
    MediaImage img = makeImage(40, 12, 4);
    // S = 8, W = 4 (16 B), H = 4, uint2: written out in full.
    expectLayout({4, 2, 4, 4, 8},
                 {{RC(0, 0), RC(0, 1), RC(0, 2), RC(0, 3), RC(1, 0), RC(1, 1), RC(1, 2), RC(1, 3)},
                  {RC(2, 0), RC(2, 1), RC(2, 2), RC(2, 3), RC(3, 0), RC(3, 1), RC(3, 2), RC(3, 3)}},
                 img, 12, 2);
    // S = 4, W = 2 (8 B), H = 2, scalar.
    expectLayout({4, 1, 2, 2, 4}, {{RC(0, 0), RC(0, 1), RC(1, 0), RC(1, 1)}}, img, 0, 0);
    // OpenCL sizes: S = 16, W = 8 (32 B), H = 2 and H = 8 (the limit for 32 B rows); S = 32, W = 16.
    const std::vector<std::pair<uint32_t, uint32_t>> sizes = {{16, 1}, {16, 4}, {32, 1}, {32, 2}, {8, 4}};
    for (auto [sg, comps] : sizes) {
        MediaBlockShape s{4, comps, sg / 2, 2 * comps, sg};
        std::vector<std::vector<RC>> want(comps);
        for (uint32_t j = 0; j < comps; ++j)
            for (uint32_t i = 0; i < sg; ++i) want[j].push_back(RC(2 * j + i / (sg / 2), i % (sg / 2)));
        expectLayout(s, want, img, 4, 1);
    }
    auto v = mediaBlockRead({4, 1, 8, 2, 16}, img, 4, 1);
    EXPECT_EQ(v[7][0].value, 0xA0B00108u);  // row 0 of the region = image row 1, column 1 + 7
    EXPECT_EQ(v[8][0].value, 0xA0B00201u);  // lane 8 starts region row 1 = image row 2, column 1
}

// (c) Non-power-of-two row: "If the source 2D region row byte width is not a power-of-two then the source 2D
// region row is assigned to the destination 2D region with undefined padding values to make a power-of-two
// row byte width."
TEST(MediaBlockIoReference, C_NonPowerOfTwoRowIsPaddedWithUndefinedSlots) {
    MediaImage img1 = makeImage(16, 4, 1);
    // 1-byte elements, W = 12 (12 B padded to 16), S = 16, H = 2, uchar2: row 1 starts at slot 16 =
    // component 1, lane 0; slots 12..15 and 28..31 are padding.
    std::vector<std::vector<RC>> want(2);
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 16; ++i) want[j].push_back(i < 12 ? RC(j, i) : kUndef);
    expectLayout({1, 2, 12, 2, 16}, want, img1, 0, 0);
    auto v = mediaBlockRead({1, 2, 12, 2, 16}, img1, 0, 0);
    EXPECT_EQ(v[11][0].value, 0x8Bu);
    EXPECT_EQ(v[0][1].value, 0x90u);  // slot 16: row 1, column 0
    EXPECT_EQ(v[11][1].value, 0x9Bu);
    // The same region at S = 8, uchar4: a padded row (16 slots) spans two components.
    expectLayout({1, 4, 12, 2, 8},
                 {{RC(0, 0), RC(0, 1), RC(0, 2), RC(0, 3), RC(0, 4), RC(0, 5), RC(0, 6), RC(0, 7)},
                  {RC(0, 8), RC(0, 9), RC(0, 10), RC(0, 11), kUndef, kUndef, kUndef, kUndef},
                  {RC(1, 0), RC(1, 1), RC(1, 2), RC(1, 3), RC(1, 4), RC(1, 5), RC(1, 6), RC(1, 7)},
                  {RC(1, 8), RC(1, 9), RC(1, 10), RC(1, 11), kUndef, kUndef, kUndef, kUndef}},
                 img1, 0, 1);
    // 4-byte elements, W = 3 (12 B -> 16 B = 4 elements), S = 4, H = 2: lane 3 is padding in each row.
    MediaImage img4 = makeImage(8, 4, 4);
    expectLayout({4, 2, 3, 2, 4},
                 {{RC(0, 0), RC(0, 1), RC(0, 2), kUndef}, {RC(1, 0), RC(1, 1), RC(1, 2), kUndef}}, img4, 4,
                 1);
    // OpenCL sizes: W = 6 (24 B -> 32 B = 8 elements), S = 8: lanes 6, 7 padding; W = 5 (20 B) at S = 16:
    // two padded rows per component, row 1 at slot 8.
    expectLayout({4, 2, 6, 2, 8},
                 {{RC(0, 0), RC(0, 1), RC(0, 2), RC(0, 3), RC(0, 4), RC(0, 5), kUndef, kUndef},
                  {RC(1, 0), RC(1, 1), RC(1, 2), RC(1, 3), RC(1, 4), RC(1, 5), kUndef, kUndef}},
                 img4, 0, 0);
    std::vector<std::vector<RC>> w5(1);
    for (int i = 0; i < 16; ++i) w5[0].push_back(i % 8 < 5 ? RC(i / 8, i % 8) : kUndef);
    expectLayout({4, 1, 5, 2, 16}, w5, img4, 8, 2);
}

// (d) "If the size of the requested 2D region to read is smaller than the 2D destination region then some
// tail components of some Result values will not be assigned values."
TEST(MediaBlockIoReference, D_SmallerRegionLeavesTailUndefined) {
    MediaImage img = makeImage(16, 8, 4);
    // W = S = 8, H = 1, uint4: components 1..3 of every lane are tail.
    std::vector<std::vector<RC>> want(4, std::vector<RC>(8, kUndef));
    for (int i = 0; i < 8; ++i) want[0][i] = RC(0, i);
    expectLayout({4, 4, 8, 1, 8}, want, img, 0, 0);
    // W = 4, H = 1, scalar, S = 8: the region fills half of component 0; lanes 4..7 are tail.
    expectLayout({4, 1, 4, 1, 8}, {{RC(0, 0), RC(0, 1), RC(0, 2), RC(0, 3), kUndef, kUndef, kUndef, kUndef}},
                 img, 4, 3);
    // W = 3 (padded to 4), H = 2, S = 4, uint4: padding in lane 3 of components 0, 1; components 2, 3 tail.
    expectLayout({4, 4, 3, 2, 4},
                 {{RC(0, 0), RC(0, 1), RC(0, 2), kUndef},
                  {RC(1, 0), RC(1, 1), RC(1, 2), kUndef},
                  {kUndef, kUndef, kUndef, kUndef},
                  {kUndef, kUndef, kUndef, kUndef}},
                 img, 0, 0);
}

// (e) Read: "If the size of the 2D region to read is larger than the 2D destination region then some parts
// of the 2D region to read will be not be assigned and will be dropped."
TEST(MediaBlockIoReference, E_LargerRegionDropsTailOnRead) {
    MediaImage img = makeImage(16, 8, 4);
    // W = S = 4, H = 4, uint2: rows 2, 3 are dropped, every value is defined.
    expectLayout({4, 2, 4, 4, 4},
                 {{RC(0, 0), RC(0, 1), RC(0, 2), RC(0, 3)}, {RC(1, 0), RC(1, 1), RC(1, 2), RC(1, 3)}}, img, 0,
                 2);
    // W = 8 > S = 4 (32 B rows, 8 slots each), H = 2, uint2: row 0 alone fills both components; row 1
    // dropped.
    expectLayout({4, 2, 8, 2, 4},
                 {{RC(0, 0), RC(0, 1), RC(0, 2), RC(0, 3)}, {RC(0, 4), RC(0, 5), RC(0, 6), RC(0, 7)}}, img, 4,
                 0);
    auto v = mediaBlockRead({4, 2, 8, 2, 4}, img, 4, 0);
    EXPECT_EQ(v[0][1].value, 0xA0B00005u);  // region (0, 4) = image column 1 + 4
}

// (e) Write: a source region smaller than the region to write: "This SPIR-V extension does not require any
// specific behavior when the size of the 2D source region is smaller than the size of the 2D region to
// write": region rows 2, 3 get no Data and their in-bounds bytes are undefined afterwards.
TEST(MediaBlockIoReference, E_LargerRegionLeavesElementsUndefinedOnWrite) {
    MediaImage before = makeImage(8, 6, 4);
    MediaBlockShape s{4, 2, 4, 4, 4};  // W = S = 4, H = 4, uint2
    std::vector<std::vector<uint64_t>> data(4, std::vector<uint64_t>(2));
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t j = 0; j < 2; ++j) data[i][j] = 0x11110000u | j << 8 | i;
    auto w = mediaBlockWrite(s, before, data, 4, 1);
    ASSERT_EQ(w.image.data.size(), before.data.size());
    ASSERT_EQ(w.undefined.size(), before.data.size());
    for (uint32_t r = 0; r < 6; ++r)
        for (uint32_t c = 0; c < 8; ++c) {
            uint32_t got = 0;
            bool und = false;
            for (uint32_t b = 0; b < 4; ++b) {
                got |= uint32_t(w.image.data[r * 32 + c * 4 + b]) << (8 * b);
                und = und || w.undefined[r * 32 + c * 4 + b];
            }
            bool in_cols = c >= 1 && c <= 4;
            if (in_cols && (r == 1 || r == 2)) {
                EXPECT_EQ(got, 0x11110000u | (r - 1) << 8 | (c - 1)) << r << " " << c;  // written
                EXPECT_FALSE(und) << r << " " << c;
            } else if (in_cols && (r == 3 || r == 4)) {
                EXPECT_TRUE(und) << r << " " << c;  // region rows 2, 3: no source value
                EXPECT_EQ(got, texel(4, r, c)) << r << " " << c;
            } else {
                EXPECT_FALSE(und) << r << " " << c;
                EXPECT_EQ(got, texel(4, r, c)) << r << " " << c;  // outside the region: untouched
            }
        }
}

// (e) Write with a larger source region: "If the size of the 2D source region is greater than the size of
// the 2D region to write then some tail components of some Data values will not be written." And padding:
// "If the row byte width of the 2D region to write is not a power-of-two, then some values from the 2D source
// region are skipped during assignment".
TEST(MediaBlockIoReference, E_WriteSkipsPaddingAndTail) {
    // 1-byte, W = 12, S = 16, H = 2, uchar4: lanes 12..15 of components 0, 1 are skipped (padding);
    // components 2, 3 are never written (tail).
    MediaImage before = flatImage(16, 3, 1, 0x55);
    std::vector<std::vector<uint64_t>> data(16, std::vector<uint64_t>(4));
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t j = 0; j < 4; ++j) data[i][j] = 0x20 + 0x10 * j + i;
    auto w = mediaBlockWrite({1, 4, 12, 2, 16}, before, data, 0, 0);
    std::vector<uint8_t> want = {
        0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x2B, 0x55, 0x55, 0x55, 0x55,  //
        0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x3B, 0x55, 0x55, 0x55, 0x55,  //
        0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55};
    EXPECT_EQ(w.image.data, want);
    EXPECT_EQ(w.undefined, std::vector<uint8_t>(48, 0));
    // Same region at S = 8, uchar4: component 1 lanes 4..7 and component 3 lanes 4..7 are skipped.
    std::vector<std::vector<uint64_t>> d8(8, std::vector<uint64_t>(4));
    for (uint32_t i = 0; i < 8; ++i)
        for (uint32_t j = 0; j < 4; ++j) d8[i][j] = 0x20 + 0x10 * j + i;
    auto w8 = mediaBlockWrite({1, 4, 12, 2, 8}, before, d8, 4, 1);
    std::vector<uint8_t> want8(48, 0x55);
    for (int c = 0; c < 12; ++c) {
        want8[16 + 4 + c] = uint8_t(c < 8 ? 0x20 + c : 0x30 + c - 8);  // row 1: components 0, 1
        if (4 + c < 16) want8[32 + 4 + c] = uint8_t(c < 8 ? 0x40 + c : 0x50 + c - 8);  // row 2, cut at 16
    }
    EXPECT_EQ(w8.image.data, want8);
}

// (f) OpenCL: "reads replicate the nearest edge when the texel is no larger than the element type (byte
// texels repeat the boundary byte, word texels the boundary word)".
TEST(MediaBlockIoReference, F_ByteTexelsRepeatBoundaryByte) {
    MediaImage img = makeImage(10, 2, 1);  // row 0 = 0x80..0x89
    auto v = mediaBlockRead({4, 1, 4, 1, 4}, img, 4, 0);
    EXPECT_EQ(v[0][0].value, 0x87868584u);  // bytes 4..7, in bounds
    EXPECT_EQ(v[1][0].value, 0x89898988u);  // bytes 8, 9 in; 10, 11 repeat byte 9
    EXPECT_EQ(v[2][0].value, 0x89898989u);  // bytes 12..15 all beyond the edge
    EXPECT_EQ(v[3][0].value, 0x89898989u);
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(v[i][0].defined);
    // 2-byte elements below the bottom edge repeat row 1.
    auto b = mediaBlockRead({2, 2, 4, 2, 4}, img, 2, 1);
    EXPECT_EQ(b[0][0].value, 0x9392u);
    EXPECT_EQ(b[3][0].value, 0x9998u);
    EXPECT_EQ(b[0][1].value, 0x9392u);  // region row 1 = image row 2 -> row 1
    EXPECT_EQ(b[3][1].value, 0x9998u);
}

TEST(MediaBlockIoReference, F_WordTexelsRepeatBoundaryWord) {
    MediaImage img = makeImage(5, 2, 2);  // 10 bytes a row
    auto v = mediaBlockRead({4, 1, 4, 1, 4}, img, 4, 1);
    EXPECT_EQ(v[0][0].value, 0xC103C102u);  // texels 2, 3
    EXPECT_EQ(v[1][0].value, 0xC104C104u);  // texel 4 and texel 5 -> 4 (the word, not the byte 0xC1)
    EXPECT_EQ(v[2][0].value, 0xC104C104u);
    EXPECT_EQ(v[3][0].value, 0xC104C104u);
}

TEST(MediaBlockIoReference, F_NegativeCoordinatesClampToTopLeft) {
    MediaImage img = makeImage(8, 3, 1);
    // W = 2 (8 B rows, 2 slots), S = 4, H = 4, uint2: lane i component j is region row 2j + i/2, column i%2.
    // x = -4, y = -2: column 0 is bytes -4..-1 (all clamp to byte 0), column 1 bytes 0..3; rows -2, -1, 0, 1.
    auto v = mediaBlockRead({4, 2, 2, 4, 4}, img, -4, -2);
    EXPECT_EQ(v[0][0].value, 0x80808080u);  // (row -2, bytes -4..-1)
    EXPECT_EQ(v[1][0].value, 0x83828180u);  // (row -2, bytes 0..3)
    EXPECT_EQ(v[2][0].value, 0x80808080u);  // row -1
    EXPECT_EQ(v[3][0].value, 0x83828180u);
    EXPECT_EQ(v[0][1].value, 0x80808080u);  // row 0
    EXPECT_EQ(v[1][1].value, 0x83828180u);
    EXPECT_EQ(v[2][1].value, 0x90909090u);  // row 1
    EXPECT_EQ(v[3][1].value, 0x93929190u);
    // 2-byte texels left of the edge repeat word 0 of the row.
    MediaImage img2 = makeImage(4, 2, 2);
    auto w = mediaBlockRead({4, 1, 2, 1, 2}, img2, -4, 1);
    EXPECT_EQ(w[0][0].value, 0xC100C100u);
    EXPECT_EQ(w[1][0].value, 0xC101C100u);
}

TEST(MediaBlockIoReference, F_FullyOutsideReadsCornerTexel) {
    MediaImage img = makeImage(8, 3, 1);
    // Below right -> row 2, column 7; above left -> row 0, column 0; and the other two corners.
    const std::vector<std::tuple<int32_t, int32_t, uint64_t>> cases = {
        {64, 10, 0xA7A7A7A7u}, {-64, -10, 0x80808080u}, {64, -10, 0x87878787u}, {-64, 10, 0xA0A0A0A0u}};
    for (auto [x, y, corner] : cases) {
        auto v = mediaBlockRead({4, 2, 4, 2, 4}, img, x, y);
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 2; ++j) {
                EXPECT_TRUE(v[i][j].defined);
                EXPECT_EQ(v[i][j].value, corner) << x << " " << y << " " << i << " " << j;
            }
    }
    MediaImage img2 = makeImage(5, 2, 2);
    auto w = mediaBlockRead({4, 1, 4, 1, 4}, img2, 100, 7);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(w[i][0].value, 0xC104C104u);
    MediaImage img4 = makeImage(3, 2, 4);
    auto q = mediaBlockRead({4, 1, 4, 1, 4}, img4, 64, 5);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(q[i][0].value, 0xA0B00102u);
}

// (f) "larger texels undefined": a 4-byte texel image read with 1- or 2-byte elements.
TEST(MediaBlockIoReference, F_LargerTexelOutOfBoundsIsUndefined) {
    MediaImage img = makeImage(2, 2, 4);  // 8 bytes a row: row 0 = 00 00 B0 A0 01 00 B0 A0
    auto v = mediaBlockRead({1, 1, 16, 1, 16}, img, 0, 0);
    const uint64_t row0[8] = {0x00, 0x00, 0xB0, 0xA0, 0x01, 0x00, 0xB0, 0xA0};
    for (int i = 0; i < 16; ++i) {
        EXPECT_EQ(v[i][0].defined, i < 8) << i;
        if (i < 8) EXPECT_EQ(v[i][0].value, row0[i]) << i;
    }
    // Negative x: bytes -4..-1 undefined, 0..7 defined, 8.. undefined. Below the image: all undefined.
    auto n = mediaBlockRead({1, 1, 16, 1, 16}, img, -4, 1);
    for (int i = 0; i < 16; ++i) {
        EXPECT_EQ(n[i][0].defined, i >= 4 && i < 12) << i;
        if (i == 8) EXPECT_EQ(n[i][0].value, 0x01u);  // row 1, byte 4 = column 1
        if (i == 5) EXPECT_EQ(n[i][0].value, 0x01u);  // row 1, byte 1 = row number
    }
    auto b = mediaBlockRead({2, 2, 4, 2, 4}, img, 0, 1);
    for (int i = 0; i < 4; ++i) {
        EXPECT_TRUE(b[i][0].defined);
        EXPECT_FALSE(b[i][1].defined);  // row 2
    }
    EXPECT_EQ(b[1][0].value, 0xA0B0u);
    EXPECT_EQ(b[2][0].value, 0x0101u);
}

// (g) OpenCL: "writes dropped" out of bounds, byte by byte, including left of and above the image.
TEST(MediaBlockIoReference, G_WriteDropsOutOfBoundsBytes) {
    MediaImage before = flatImage(6, 2, 1, 0x55);
    // Byte b of lane i, component j is 0x10*j + 4*i + b.
    std::vector<std::vector<uint64_t>> data = {{0x03020100, 0x13121110},
                                               {0x07060504, 0x17161514},
                                               {0x0B0A0908, 0x1B1A1918},
                                               {0x0F0E0D0C, 0x1F1E1D1C}};
    MediaBlockShape s{4, 2, 4, 2, 4};  // W = S: component j -> region row j, lane i -> column i
    // x = -4, y = -1: region row 0 is image row -1 (dropped); row 1 is image row 0, bytes -4..11.
    auto w = mediaBlockWrite(s, before, data, -4, -1);
    EXPECT_EQ(w.image.data, (std::vector<uint8_t>{0x14, 0x15, 0x16, 0x17, 0x18, 0x19,  //
                                                  0x55, 0x55, 0x55, 0x55, 0x55, 0x55}));
    EXPECT_EQ(w.undefined, std::vector<uint8_t>(12, 0));
    // x = 4, y = 1: region row 0 is image row 1, bytes 4..19 (4, 5 in bounds); row 1 is image row 2.
    auto e = mediaBlockWrite(s, before, data, 4, 1);
    EXPECT_EQ(e.image.data, (std::vector<uint8_t>{0x55, 0x55, 0x55, 0x55, 0x55, 0x55,  //
                                                  0x55, 0x55, 0x55, 0x55, 0x00, 0x01}));
    // Entirely outside: nothing changes.
    EXPECT_EQ(mediaBlockWrite(s, before, data, 64, 0).image.data, before.data);
    EXPECT_EQ(mediaBlockWrite(s, before, data, 0, -2).image.data, before.data);
    // 2-byte texels, 6 bytes a row: lane 1's element (bytes 4..7) keeps its in-bounds word, drops the rest.
    MediaImage b2 = flatImage(3, 1, 2, 0x55);
    auto w2 =
        mediaBlockWrite({4, 1, 4, 1, 4}, b2, {{0xA3A2A1A0}, {0xB3B2B1B0}, {0xC3C2C1C0}, {0xD3D2D1D0}}, 0, 0);
    EXPECT_EQ(w2.image.data, (std::vector<uint8_t>{0xA0, 0xA1, 0xA2, 0xA3, 0xB0, 0xB1}));
}

// (h) Images created from a buffer: "row pitch multiple of 64". Rows are row_pitch_bytes apart and the gap
// after width * texel_bytes is neither read (edge replication uses the last texel) nor written.
TEST(MediaBlockIoReference, H_RowPitchIsHonoured) {
    MediaImage img = makeImage(4, 3, 4, 64);  // 16 B of texels, 48 B of gap (0xEE) per row
    // S = 8, W = 4 (16 B), H = 4, uint2: lane i component j = region (2j + i/4, i%4); x = 8 -> column 2.
    auto v = mediaBlockRead({4, 2, 4, 4, 8}, img, 8, 0);
    for (uint32_t i = 0; i < 8; ++i)
        for (uint32_t j = 0; j < 2; ++j) {
            uint32_t row = std::min(2 * j + i / 4, 2u), col = std::min(2 + i % 4, 3u);
            EXPECT_EQ(v[i][j].value, texel(4, row, col)) << i << " " << j;
        }
    EXPECT_EQ(v[1][0].value, 0xA0B00003u);
    EXPECT_EQ(v[2][0].value, 0xA0B00003u);  // column 4 would be gap bytes 0xEEEEEEEE; replicated column 3
    EXPECT_EQ(v[7][1].value, 0xA0B00203u);  // row 3 -> 2, column 5 -> 3
    EXPECT_EQ(v[4][0].value, 0xA0B00102u);  // row 1 starts 64 bytes after row 0

    MediaImage before = makeImage(4, 3, 4, 64);
    std::vector<std::vector<uint64_t>> data(4, std::vector<uint64_t>(2));
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t j = 0; j < 2; ++j) data[i][j] = 0x77770000u | j << 8 | i;
    auto w = mediaBlockWrite({4, 2, 4, 2, 4}, before, data, 8, 1);
    std::vector<uint8_t> want = before.data;
    auto put = [&](size_t at, uint32_t v) {
        for (int b = 0; b < 4; ++b) want[at + b] = uint8_t(v >> (8 * b));
    };
    put(64 + 8, 0x77770000u);   // row 1, column 2: lane 0 component 0
    put(64 + 12, 0x77770001u);  // row 1, column 3: lane 1
    put(128 + 8, 0x77770100u);  // row 2: component 1
    put(128 + 12, 0x77770101u);
    EXPECT_EQ(w.image.data, want);  // lanes 2, 3 (columns 4, 5) fall in the gap: dropped, gap unchanged
}

// A write followed by a read of the same region returns every defined slot (OpenCL sizes: S = 16, 2-byte
// W = 10 = 20 B rows padded to 32, H = 4 within the 8-row limit for 20 B).
TEST(MediaBlockIoReference, WriteThenReadRoundTrip) {
    MediaBlockShape s{2, 4, 10, 4, 16};
    MediaImage before = flatImage(32, 8, 2, 0x00);
    std::vector<std::vector<uint64_t>> data(16, std::vector<uint64_t>(4));
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t j = 0; j < 4; ++j) data[i][j] = 0x5000 + j * 0x100 + i;
    auto w = mediaBlockWrite(s, before, data, 12, 3);
    auto r = mediaBlockRead(s, w.image, 12, 3);
    int defined = 0;
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t j = 0; j < 4; ++j) {
            EXPECT_EQ(r[i][j].defined, i % 16 < 10 && (j * 16 + i) / 16 < 4) << i << " " << j;
            if (r[i][j].defined) {
                ++defined;
                EXPECT_EQ(r[i][j].value, data[i][j]) << i << " " << j;
            }
        }
    EXPECT_EQ(defined, 40);
}

// (i) OpenCL: "Maximum height by row width: 4 B -> 64 rows; 8 B -> 32; 12, 16 B -> 16; 20-32 B -> 8."
TEST(MediaBlockIoReference, I_MaxHeightTable) {
    for (uint32_t b = 0; b <= 64; ++b) {
        uint32_t want = b == 4                               ? 64
                        : b == 8                             ? 32
                        : (b == 12 || b == 16)               ? 16
                        : (b >= 20 && b <= 32 && b % 4 == 0) ? 8
                                                             : 0;
        EXPECT_EQ(mediaMaxHeight(b), want) << b;
    }
    EXPECT_EQ(mediaMaxHeight(4), 64u);
    EXPECT_EQ(mediaMaxHeight(12), 16u);
    EXPECT_EQ(mediaMaxHeight(28), 8u);
    EXPECT_EQ(mediaMaxHeight(36), 0u);
    EXPECT_EQ(mediaMaxHeight(6), 0u);
}

TEST(MediaBlockIoReference, RejectsBadInputs) {
    MediaImage img = makeImage(8, 2, 4);
    EXPECT_THROW(mediaBlockRead({3, 1, 4, 1, 4}, img, 0, 0), std::invalid_argument);
    EXPECT_THROW(mediaBlockRead({4, 1, 0, 1, 4}, img, 0, 0), std::invalid_argument);
    EXPECT_THROW(mediaSlot({4, 1, 4, 1, 4}, 4, 0), std::out_of_range);
    EXPECT_THROW(mediaSlot({4, 1, 4, 1, 4}, 0, 1), std::out_of_range);
    EXPECT_THROW(mediaBlockWrite({4, 1, 4, 1, 4}, img, {{1}, {2}, {3}}, 0, 0), std::invalid_argument);
    EXPECT_THROW(mediaBlockWrite({4, 2, 4, 1, 4}, img, {{1}, {2}, {3}, {4}}, 0, 0), std::invalid_argument);
    MediaImage small = img;
    small.data.resize(40);
    EXPECT_THROW(mediaBlockRead({4, 1, 4, 1, 4}, small, 0, 0), std::invalid_argument);
    MediaImage empty = flatImage(0, 0, 4, 0);
    EXPECT_THROW(mediaBlockRead({4, 1, 4, 1, 4}, empty, 0, 0), std::invalid_argument);
}

}  // namespace
}  // namespace cts::reference
