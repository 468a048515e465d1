// Unit tests of the 2D block IO host reference: every worked example of the SPV_INTEL_2d_block_io spec
// (sub-group size 4), the three mapping scenarios at sub-group size 32, then the OpenCL environment's lane
// mappings at sub-group size 16.
#include "test_common/reference/block_io_2d.h"

#include <gtest/gtest.h>

namespace cts::reference {
namespace {

// Memory whose element (r, c) holds `encode(r, c)`, element_size bytes each.
std::vector<uint8_t> makeMemory(const Surface2d& m, uint32_t element_size,
                                uint64_t (*encode)(int64_t, int64_t)) {
    std::vector<uint8_t> mem(size_t(m.memory_pitch_bytes * m.memory_height_rows), 0xEE);
    for (int64_t r = 0; r < m.memory_height_rows; ++r)
        for (int64_t c = 0; (c + 1) * element_size <= uint64_t(m.memory_width_bytes); ++c) {
            uint64_t v = encode(r, c);
            for (uint32_t b = 0; b < element_size; ++b)
                mem[size_t(r * m.memory_pitch_bytes + c * element_size + b)] = uint8_t(v >> (8 * b));
        }
    return mem;
}

uint64_t rc16(int64_t r, int64_t c) {
    return uint64_t(r * 16 + c + 1);
}  // "r,c" for 4-byte elements
uint64_t rc8(int64_t r, int64_t c) {
    return uint64_t((r << 8) | c | 0x1000);
}
uint64_t rc4(int64_t r, int64_t c) {
    return uint64_t((r << 4) | c);
}
uint64_t rcByte(int64_t r, int64_t c) {
    return uint64_t((r * 64 + c) & 0xff);
}  // "r,c" for 1-byte elements, unique for rows 0-3 and columns 0-63

const Surface2d kSurface{256, 64, 256};

std::vector<uint64_t> values(const std::vector<LaneElement>& lane) {
    std::vector<uint64_t> v;
    for (const auto& e : lane) v.push_back(e.value);
    return v;
}

// Example 1: Block Width 4, Block Height 2, sub-group size 4, OpSubgroup2DBlockLoadINTEL:
// "Invocation 0 is assigned the values 0,0 and 1,0." ... "Invocation 3 ... 0,3 and 1,3."
TEST(BlockIo2dReference, SpecExample1PaddedWidthEqualsSubgroupSize) {
    BlockIo2dShape s{BlockIo2dOp::Load, 4, 4, 2, 1, 4};
    auto lanes = load2d(s, makeMemory(kSurface, 4, rc16), kSurface, {0, 0});
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(values(lanes[i]), (std::vector<uint64_t>{rc16(0, i), rc16(1, i)})) << i;
}

// Example 2: Block Width 2, Block Height 4: "Invocation 0 is assigned the values 0,0 and 2,0",
// "Invocation 1 ... 0,1 and 2,1", "Invocation 2 ... 1,0 and 3,0", "Invocation 3 ... 1,1 and 3,1".
TEST(BlockIo2dReference, SpecExample2PaddedWidthLessThanSubgroupSize) {
    BlockIo2dShape s{BlockIo2dOp::Load, 4, 2, 4, 1, 4};
    auto lanes = load2d(s, makeMemory(kSurface, 4, rc16), kSurface, {0, 0});
    EXPECT_EQ(values(lanes[0]), (std::vector<uint64_t>{rc16(0, 0), rc16(2, 0)}));
    EXPECT_EQ(values(lanes[1]), (std::vector<uint64_t>{rc16(0, 1), rc16(2, 1)}));
    EXPECT_EQ(values(lanes[2]), (std::vector<uint64_t>{rc16(1, 0), rc16(3, 0)}));
    EXPECT_EQ(values(lanes[3]), (std::vector<uint64_t>{rc16(1, 1), rc16(3, 1)}));
}

// Example 3: Block Width 8, Block Height 2: "Invocation 0 is assigned the values 0,0, 0,1, 1,0, and 1,1."
TEST(BlockIo2dReference, SpecExample3PaddedWidthGreaterThanSubgroupSize) {
    BlockIo2dShape s{BlockIo2dOp::Load, 4, 8, 2, 1, 4};
    auto lanes = load2d(s, makeMemory(kSurface, 4, rc16), kSurface, {0, 0});
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(values(lanes[i]), (std::vector<uint64_t>{rc16(0, 2 * i), rc16(0, 2 * i + 1), rc16(1, 2 * i),
                                                           rc16(1, 2 * i + 1)}))
            << i;
}

// Example 4: Block Width 2, Block Height 4, OpSubgroup2DBlockLoadTransposeINTEL:
// "Invocation 0 is assigned the values 0,0 and 0,1." ... "Invocation 3 ... 3,0 and 3,1."
TEST(BlockIo2dReference, SpecExample4Transpose) {
    BlockIo2dShape s{BlockIo2dOp::LoadTranspose, 4, 2, 4, 1, 4};
    auto lanes = load2d(s, makeMemory(kSurface, 4, rc16), kSurface, {0, 0});
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(values(lanes[i]), (std::vector<uint64_t>{rc16(i, 0), rc16(i, 1)})) << i;
}

// Example 5: two-byte elements, Block Width 4, Block Height 2, transform:
// "Invocation 0 is assigned the 32-bit value 1,0 | 0,0."
TEST(BlockIo2dReference, SpecExample5Transform2Byte) {
    BlockIo2dShape s{BlockIo2dOp::LoadTransform, 2, 4, 2, 1, 4};
    auto lanes = load2d(s, makeMemory(kSurface, 2, rc8), kSurface, {0, 0});
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(values(lanes[i]), (std::vector<uint64_t>{rc8(1, i) << 16 | rc8(0, i)})) << i;
}

// Example 6: one-byte elements, a four row by four column block (the spec text says "Block Height equals
// two", a typo: the block data and the result have four rows). "Invocation 0 is assigned the 32-bit value
// 3,0 | 2,0 | 1,0 | 0,0."
TEST(BlockIo2dReference, SpecExample6Transform1Byte) {
    BlockIo2dShape s{BlockIo2dOp::LoadTransform, 1, 4, 4, 1, 4};
    auto lanes = load2d(s, makeMemory(kSurface, 1, rc4), kSurface, {0, 0});
    for (int i = 0; i < 4; ++i)
        EXPECT_EQ(values(lanes[i]),
                  (std::vector<uint64_t>{rc4(3, i) << 24 | rc4(2, i) << 16 | rc4(1, i) << 8 | rc4(0, i)}))
            << i;
}

// OpenCL environment, padded width 32 (1-byte x 32): two adjacent bytes per lane per row, little-endian.
TEST(BlockIo2dReference, OneByteWidth32PacksTwoBytesPerLane) {
    BlockIo2dShape s{BlockIo2dOp::Load, 1, 32, 2, 2, 16};
    Surface2d m{256, 8, 256};
    auto mem = makeMemory(m, 1, [](int64_t r, int64_t c) { return uint64_t((r * 97 + c) & 0xff); });
    auto lanes = load2d(s, mem, m, {4, 1});
    ASSERT_EQ(laneBytes(s), 8u);  // 2 rows x 2 bytes x 2 blocks
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t b = 0; b < 2; ++b)
            for (uint32_t r = 0; r < 2; ++r)
                for (uint32_t j = 0; j < 2; ++j) {
                    const LaneElement& e = lanes[i][b * 4 + r * 2 + j];
                    EXPECT_EQ(e.value, mem[(1 + r) * 256 + 4 + b * 32 + 2 * i + j])
                        << i << " " << b << " " << r;
                }
}

// Padded width 8 (4-byte x 8): two block rows per sub-group row; with Block Height 1, lanes 8-15 hold
// nothing the spec defines.
// Sub-group size 32, the spec's three scenarios ("Because the padded block width and the subgroup size are
// both powers of two, there are three scenarios") at 32 lanes.
// 1. Padded width equal to the sub-group size: 1-byte x 32 x 4 rows, one byte per lane per row. Lane 0 holds
// (0,0), (1,0), (2,0), (3,0) (IGC before 2.38 gave it (0,0), (0,1), (2,0), (2,1)).
TEST(BlockIo2dReference, Sg32PaddedWidthEqualsSubgroupSize) {
    BlockIo2dShape s{BlockIo2dOp::Load, 1, 32, 4, 1, 32};
    auto lanes = load2d(s, makeMemory(kSurface, 1, rcByte), kSurface, {0, 0});
    ASSERT_EQ(lanes.size(), 32u);
    for (int i = 0; i < 32; ++i)
        EXPECT_EQ(values(lanes[i]),
                  (std::vector<uint64_t>{rcByte(0, i), rcByte(1, i), rcByte(2, i), rcByte(3, i)}))
            << i;
    EXPECT_EQ(laneBytes(s), 4u);
}

// 2. Padded width less than the sub-group size: 2-byte x 16 x 4 rows: "The first row is assigned to the first
// set of invocations, then the next row ... to the next set": lanes 0-15 hold rows 0 and 2, lanes 16-31 rows
// 1 and 3. With one row (2-byte x 16 x 1) lanes 16-31 are assigned nothing.
TEST(BlockIo2dReference, Sg32PaddedWidthLessThanSubgroupSize) {
    BlockIo2dShape s{BlockIo2dOp::Load, 2, 16, 4, 1, 32};
    auto lanes = load2d(s, makeMemory(kSurface, 2, rc8), kSurface, {0, 0});
    for (int i = 0; i < 32; ++i)
        EXPECT_EQ(values(lanes[i]), (std::vector<uint64_t>{rc8(i / 16, i % 16), rc8(2 + i / 16, i % 16)}))
            << i;
    BlockIo2dShape one{BlockIo2dOp::Load, 2, 16, 1, 1, 32};
    auto row = load2d(one, makeMemory(kSurface, 2, rc8), kSurface, {0, 0});
    for (int i = 0; i < 32; ++i) {
        ASSERT_EQ(row[i].size(), 1u);
        EXPECT_EQ(row[i][0].defined, i < 16) << i;
    }
    // Transform 2-byte x 16 x 32: 16 packed rows, two per sub-group row.
    BlockIo2dShape t{BlockIo2dOp::LoadTransform, 2, 16, 32, 1, 32};
    auto packed = load2d(t, makeMemory(kSurface, 2, rc8), kSurface, {0, 0});
    ASSERT_EQ(packed[17].size(), 8u);
    EXPECT_EQ(packed[17][0].value, rc8(2, 1) | rc8(3, 1) << 16);  // packed row 1, column 1
    EXPECT_EQ(packed[17][7].value, rc8(30, 1) | rc8(31, 1) << 16);
    // Transpose 4-byte x 8 x 16: the transposed block is 8 rows of 16 columns, two rows per sub-group row.
    BlockIo2dShape tr{BlockIo2dOp::LoadTranspose, 4, 8, 16, 1, 32};
    auto transposed = load2d(tr, makeMemory(kSurface, 4, rc16), kSurface, {0, 0});
    ASSERT_EQ(transposed[20].size(), 4u);
    EXPECT_EQ(transposed[20][0].value, rc16(4, 1));  // transposed row 1, column 4
    EXPECT_EQ(transposed[20][3].value, rc16(4, 7));
}

// 3. Padded width greater than the sub-group size: 1-byte x 64 x 2 rows, two consecutive bytes per lane per
// row, "the first set of elements are assigned to the first invocation".
TEST(BlockIo2dReference, Sg32PaddedWidthGreaterThanSubgroupSize) {
    BlockIo2dShape s{BlockIo2dOp::Load, 1, 64, 2, 1, 32};
    auto lanes = load2d(s, makeMemory(kSurface, 1, rcByte), kSurface, {0, 0});
    for (int i = 0; i < 32; ++i)
        EXPECT_EQ(values(lanes[i]), (std::vector<uint64_t>{rcByte(0, 2 * i), rcByte(0, 2 * i + 1),
                                                           rcByte(1, 2 * i), rcByte(1, 2 * i + 1)}))
            << i;
    // A store of the same shape writes lane i's elements back to the same places.
    std::vector<std::vector<uint8_t>> data(32, std::vector<uint8_t>(laneBytes(s)));
    for (int i = 0; i < 32; ++i)
        for (int k = 0; k < 4; ++k) data[i][k] = uint8_t(i * 4 + k);
    BlockIo2dShape st = s;
    st.op = BlockIo2dOp::Store;
    std::vector<uint8_t> mem(size_t(kSurface.memory_pitch_bytes * kSurface.memory_height_rows), 0);
    EXPECT_EQ(store2d(st, data, mem, kSurface, {0, 0}), 128u);
    EXPECT_EQ(mem[0], 0);                                           // lane 0, (0, 0)
    EXPECT_EQ(mem[1], 1);                                           // lane 0, (0, 1)
    EXPECT_EQ(mem[size_t(kSurface.memory_pitch_bytes)], 2);         // lane 0, (1, 0)
    EXPECT_EQ(mem[size_t(kSurface.memory_pitch_bytes) + 63], 127);  // lane 31, (1, 63)
}

TEST(BlockIo2dReference, FourByteWidth8HeightOneLeavesUpperLanesUndefined) {
    BlockIo2dShape s{BlockIo2dOp::Load, 4, 8, 1, 2, 16};
    auto lanes = load2d(s, makeMemory(kSurface, 4, rc16), kSurface, {2, 3});
    for (uint32_t i = 0; i < 16; ++i) {
        ASSERT_EQ(lanes[i].size(), 2u);
        for (uint32_t b = 0; b < 2; ++b) {
            EXPECT_EQ(lanes[i][b].defined, i < 8);
            if (i < 8) EXPECT_EQ(lanes[i][b].value, rc16(3, 2 + b * 8 + i));
        }
    }
    BlockIo2dShape h4{BlockIo2dOp::Load, 4, 8, 4, 1, 16};
    auto l4 = load2d(h4, makeMemory(kSurface, 4, rc16), kSurface, {0, 0});
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t k = 0; k < 2; ++k) EXPECT_EQ(l4[i][k].value, rc16(2 * k + i / 8, i % 8));
}

// Transpose 4-byte x 8 x 32: dst[2r + j] = M[y0 + 2i + j][x0 + r].
TEST(BlockIo2dReference, TransposeHeight32Interleave) {
    BlockIo2dShape s{BlockIo2dOp::LoadTranspose, 4, 8, 32, 1, 16};
    auto lanes = load2d(s, makeMemory(kSurface, 4, rc16), kSurface, {1, 2});
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t r = 0; r < 8; ++r)
            for (uint32_t j = 0; j < 2; ++j) EXPECT_EQ(lanes[i][2 * r + j].value, rc16(2 + 2 * i + j, 1 + r));
}

// Transform 2-byte x 16 x 16 x 2 blocks, block-major: dst[b*H/2 + j] = M[2j][x] | M[2j+1][x] << 16.
TEST(BlockIo2dReference, TransformMultiBlockIsBlockMajor) {
    BlockIo2dShape s{BlockIo2dOp::LoadTransform, 2, 16, 16, 2, 16};
    auto lanes = load2d(s, makeMemory(kSurface, 2, rc8), kSurface, {0, 0});
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t b = 0; b < 2; ++b)
            for (uint32_t j = 0; j < 8; ++j)
                EXPECT_EQ(lanes[i][b * 8 + j].value,
                          rc8(2 * j + 1, b * 16 + i) << 16 | rc8(2 * j, b * 16 + i));
}

// Out of bounds (right of Memory Width, below Memory Height, left of and above the origin) loads zero;
// the gap between Memory Width and Memory Pitch is out of bounds too.
TEST(BlockIo2dReference, OutOfBoundsLoadsZero) {
    Surface2d m{64, 5, 128};  // 16 four-byte elements per row, 5 rows, pitch leaves a gap
    auto mem = makeMemory(m, 4, rc16);
    for (size_t r = 0; r < 5; ++r)
        for (size_t b = 64; b < 128; ++b) mem[r * 128 + b] = 0x77;  // gap data must not show
    BlockIo2dShape s{BlockIo2dOp::Load, 4, 16, 8, 1, 16};
    auto lanes = load2d(s, mem, m, {8, -2});
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t r = 0; r < 8; ++r) {
            int64_t row = int64_t(r) - 2, col = 8 + i;
            bool in = row >= 0 && row < 5 && col < 16;
            EXPECT_EQ(lanes[i][r].value, in ? rc16(row, col) : 0) << i << " " << r;
            EXPECT_EQ(lanes[i][r].parts[0].kind == ElementSource::Kind::OutOfBounds, !in);
        }
}

// Transform with Memory Height cutting a packed row group: only the rows past the edge read zero.
TEST(BlockIo2dReference, TransformHeightCutInsidePackedGroup) {
    Surface2d m{64, 6, 64};
    auto mem = makeMemory(m, 1, rc4);
    BlockIo2dShape s{BlockIo2dOp::LoadTransform, 1, 16, 32, 1, 16};
    auto lanes = load2d(s, mem, m, {0, 0});
    // Group 1 holds rows 4..7: rows 4, 5 in bounds, 6, 7 zero.
    for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(lanes[i][1].value, rc4(5, i) << 8 | rc4(4, i));
}

// Padding: a 2-byte block 12 wide is padded to 16; padded columns load zero (lanes 12..15).
TEST(BlockIo2dReference, WidthPaddingLoadsZero) {
    BlockIo2dShape s{BlockIo2dOp::Load, 2, 12, 2, 2, 16};
    auto lanes = load2d(s, makeMemory(kSurface, 2, rc8), kSurface, {0, 0});
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t b = 0; b < 2; ++b)
            for (uint32_t r = 0; r < 2; ++r) {
                EXPECT_EQ(lanes[i][b * 2 + r].value, i < 12 ? rc8(r, b * 12 + i) : 0);
                EXPECT_EQ(lanes[i][b * 2 + r].parts[0].kind == ElementSource::Kind::Padding, i >= 12);
            }
}

// Store: in-bounds elements written, out-of-bounds and padded ones ignored.
TEST(BlockIo2dReference, StoreIgnoresOutOfBoundsAndPadding) {
    Surface2d m{64, 3, 128};
    BlockIo2dShape s{BlockIo2dOp::Store, 2, 12, 4, 1, 16};
    std::vector<std::vector<uint8_t>> data(16, std::vector<uint8_t>(laneBytes(s)));
    for (uint32_t i = 0; i < 16; ++i)
        for (size_t k = 0; k < data[i].size(); ++k) data[i][k] = uint8_t(i * 16 + k + 1);
    std::vector<uint8_t> mem(128 * 3, 0xCC);
    uint64_t written = store2d(s, data, mem, m, {26, 1});
    // Columns 26..31 of rows 1, 2 are inside Memory Width 64 bytes (32 two-byte elements).
    EXPECT_EQ(written, 6u * 2);
    for (int64_t r = 0; r < 3; ++r)
        for (int64_t c = 0; c < 64; ++c) {
            int64_t bc = c - 26, br = r - 1;
            bool written_here = br >= 0 && bc >= 0 && bc < 12 && c < 32;
            uint16_t got = uint16_t(mem[r * 128 + c * 2] | mem[r * 128 + c * 2 + 1] << 8);
            uint16_t want = written_here ? uint16_t(data[bc][br * 2] | data[bc][br * 2 + 1] << 8) : 0xCCCC;
            EXPECT_EQ(got, want) << r << " " << c;
        }
}

TEST(BlockIo2dReference, RejectsBadShapes) {
    std::vector<uint8_t> mem(4096);
    EXPECT_THROW(load2d({BlockIo2dOp::Load, 3, 16, 1, 1, 16}, mem, kSurface, {0, 0}), std::invalid_argument);
    EXPECT_THROW(load2d({BlockIo2dOp::LoadTransform, 4, 16, 2, 1, 16}, mem, kSurface, {0, 0}),
                 std::invalid_argument);
    EXPECT_THROW(load2d({BlockIo2dOp::Store, 4, 16, 2, 1, 16}, mem, kSurface, {0, 0}), std::invalid_argument);
}

}  // namespace
}  // namespace cts::reference
