// Unit tests of the SPV_INTEL_subgroups host reference, one per spec sentence (quoted in each test).
#include "test_common/reference/subgroups.h"

#include <gtest/gtest.h>

namespace cts::reference {
namespace {

ShuffleSource src(uint32_t lane, ShuffleOperand op) {
    return ShuffleSource{lane, op};
}

// "The data that is returned for this invocation is the value of Data for the invocation identified by
// InvocationId."
TEST(SubgroupsReference, ShuffleReturnsDataOfInvocationId) {
    EXPECT_EQ(shuffleSource(0, 16), src(0, ShuffleOperand::Data));
    EXPECT_EQ(shuffleSource(15, 16), src(15, ShuffleOperand::Data));
    EXPECT_FALSE(shuffleSource(16, 16));  // no invocation 16 in a sub-group of at most 16
    EXPECT_FALSE(shuffleSource(0xffffffffu, 16));
}

// "If the shuffle index is less than the SubgroupMaxSize, the result ... is the value of the Current data
// source for the invocation with SubgroupLocalInvocationId equal to the shuffle index."
TEST(SubgroupsReference, ShuffleDownBelowMaxSizeReadsCurrent) {
    EXPECT_EQ(shuffleDownSource(3, 4, 16), src(7, ShuffleOperand::Current));
    EXPECT_EQ(shuffleDownSource(0, 15, 16), src(15, ShuffleOperand::Current));
    EXPECT_EQ(shuffleDownSource(5, 0, 8), src(5, ShuffleOperand::Current));
}

// "If the shuffle index is greater than or equal to the SubgroupMaxSize but less than twice the
// SubgroupMaxSize, the result ... is the value of the Next data source for the invocation with
// SubgroupLocalInvocationId equal to the shuffle index minus the SubgroupMaxSize."
TEST(SubgroupsReference, ShuffleDownAboveMaxSizeReadsNext) {
    EXPECT_EQ(shuffleDownSource(0, 16, 16), src(0, ShuffleOperand::Next));
    EXPECT_EQ(shuffleDownSource(15, 1, 16), src(0, ShuffleOperand::Next));
    EXPECT_EQ(shuffleDownSource(0, 31, 16), src(15, ShuffleOperand::Next));
    EXPECT_EQ(shuffleDownSource(7, 8, 8), src(7, ShuffleOperand::Next));
}

// "All other values of the shuffle index are considered to be out-of-range." (unsigned index)
TEST(SubgroupsReference, ShuffleDownOutOfRange) {
    EXPECT_FALSE(shuffleDownSource(1, 31, 16));
    EXPECT_FALSE(shuffleDownSource(0, 32, 16));
    EXPECT_FALSE(shuffleDownSource(1, 0xffffffffu, 16));  // 1 + 0xffffffff must not wrap to 0
}

// "If the shuffle index is greater than or equal to zero and less than the SubgroupMaxSize, the result ...
// is the value of the Current data source"; "less than zero but greater than or equal to the negative
// SubgroupMaxSize, ... Previous ... equal to the shuffle index plus the SubgroupMaxSize."
TEST(SubgroupsReference, ShuffleUpCurrentAndPrevious) {
    EXPECT_EQ(shuffleUpSource(5, 2, 16), src(3, ShuffleOperand::Current));
    EXPECT_EQ(shuffleUpSource(5, 5, 16), src(0, ShuffleOperand::Current));
    EXPECT_EQ(shuffleUpSource(5, 6, 16), src(15, ShuffleOperand::Previous));
    EXPECT_EQ(shuffleUpSource(0, 16, 16), src(0, ShuffleOperand::Previous));
    EXPECT_EQ(shuffleUpSource(15, 31, 16), src(0, ShuffleOperand::Previous));
    EXPECT_EQ(shuffleUpSource(2, 3, 8), src(7, ShuffleOperand::Previous));
}

TEST(SubgroupsReference, ShuffleUpOutOfRange) {
    EXPECT_FALSE(shuffleUpSource(0, 17, 16));
    EXPECT_FALSE(shuffleUpSource(14, 31, 16));
    EXPECT_FALSE(shuffleUpSource(3, 0x80000000u, 16));  // Delta is not a negative number
}

// "... equal to this invocation's SubgroupLocalInvocationId XOR'd with the specified Value. If the result of
// the XOR is greater than SubgroupMaxSize then it is considered out-of-range."
TEST(SubgroupsReference, ShuffleXor) {
    EXPECT_EQ(shuffleXorSource(5, 3, 16), src(6, ShuffleOperand::Data));
    EXPECT_EQ(shuffleXorSource(0, 15, 16), src(15, ShuffleOperand::Data));
    EXPECT_EQ(shuffleXorSource(9, 0, 16), src(9, ShuffleOperand::Data));
    EXPECT_FALSE(shuffleXorSource(0, 16, 16));  // = SubgroupMaxSize: no such invocation (read as >=)
    EXPECT_FALSE(shuffleXorSource(1, 32, 16));
}

// The rules use SubgroupMaxSize, not the actual size: in a trailing partial sub-group of 5 invocations
// (S = 8), invocation 4 shuffled down by 4 reads Next of invocation 0 only if index 8 >= S; index 6 names
// an invocation that does not exist, so its value is undefined.
TEST(SubgroupsReference, PartialSubgroupUsesMaxSize) {
    std::vector<bool> executed(5, true);
    EXPECT_EQ(definedShuffleSource(ShuffleOp::ShuffleDown, 4, 4, 8, executed), src(0, ShuffleOperand::Next));
    EXPECT_FALSE(definedShuffleSource(ShuffleOp::ShuffleDown, 2, 4, 8, executed));  // lane 6 absent
    EXPECT_FALSE(definedShuffleSource(ShuffleOp::ShuffleXor, 1, 4, 8, executed));   // lane 5 absent
    EXPECT_EQ(definedShuffleSource(ShuffleOp::ShuffleXor, 1, 5, 8, executed), src(4, ShuffleOperand::Data));
}

// Reading from a lane that did not execute the shuffle gives undefined data.
TEST(SubgroupsReference, SourceThatDidNotExecuteIsUndefined) {
    std::vector<bool> executed{true, false, true, true};
    EXPECT_FALSE(definedShuffleSource(ShuffleOp::Shuffle, 0, 1, 4, executed));
    EXPECT_FALSE(definedShuffleSource(ShuffleOp::Shuffle, 1, 0, 4, executed));  // the reader itself
    EXPECT_EQ(definedShuffleSource(ShuffleOp::Shuffle, 0, 3, 4, executed), src(3, ShuffleOperand::Data));
}

TEST(SubgroupsReference, ShuffleSubgroupPicksOperandAndComponents) {
    std::vector<ShuffleLaneOperands> lanes(4);
    for (uint32_t l = 0; l < 4; ++l) {
        lanes[l].index = 2;
        lanes[l].current = {100 + l, 200 + l};
        lanes[l].next = {300 + l, 400 + l};
    }
    auto r = shuffleSubgroup(ShuffleOp::ShuffleDown, lanes, 4, 2);
    EXPECT_EQ(r[0][0], 102u);
    EXPECT_EQ(r[1][1], 203u);
    EXPECT_EQ(r[2][0], 300u);  // index 4 = S: Next of invocation 0
    EXPECT_EQ(r[3][1], 401u);
}

// "The data is read strided, so the first value read is: Ptr[ SubgroupLocalInvocationId ] and the second
// value read is: Ptr[ SubgroupLocalInvocationId + SubgroupMaxSize ] etc."
TEST(SubgroupsReference, BlockReadIsStridedBySubgroupMaxSize) {
    EXPECT_EQ(blockElementIndex(3, 0, 16), 3u);
    EXPECT_EQ(blockElementIndex(3, 1, 16), 19u);
    EXPECT_EQ(blockElementIndex(7, 3, 8), 31u);
    std::vector<uint8_t> mem(64 * 2);
    for (size_t i = 0; i < mem.size(); ++i) mem[i] = uint8_t(i);
    // 16-bit elements, S = 8: lane 2 component 1 is element 10, bytes 20 and 21 (little-endian).
    EXPECT_EQ(blockReadComponent(mem.data(), 2, 2, 1, 8), 0x1514u);
}

// "The data is written strided, so the first value is written to: Ptr[ SubgroupLocalInvocationId ] and the
// second value written is: Ptr[ SubgroupLocalInvocationId + SubgroupMaxSize ]"
TEST(SubgroupsReference, BlockWriteIsStridedBySubgroupMaxSize) {
    std::vector<uint8_t> mem(8 * 3 * 4, 0xee);
    blockWriteLane(mem.data(), 4, 5, {0x11111111, 0x22222222, 0x33333333}, 8);
    EXPECT_EQ(blockReadComponent(mem.data(), 4, 5, 0, 8), 0x11111111u);
    EXPECT_EQ(blockReadComponent(mem.data(), 4, 5, 2, 8), 0x33333333u);
    EXPECT_EQ(mem[(5 + 8) * 4 + 4], 0xee);  // the next lane's element is untouched
}

ImageBytes makeImage(uint32_t w, uint32_t h, uint32_t texel_bytes) {
    ImageBytes img{w, h, texel_bytes, size_t(w) * texel_bytes, {}};
    img.data.resize(img.row_pitch * h);
    for (size_t i = 0; i < img.data.size(); ++i) img.data[i] = uint8_t(i * 7 + 1);
    return img;
}

uint8_t at(const ImageBytes& img, int x_bytes, int y) {
    return img.data[size_t(y) * img.row_pitch + x_bytes];
}

// "Note that the Coordinate is a byte coordinate, not a texel coordinate"; "the first value read is from the
// row specified by the y-component ..., the second value is read from the row ... plus one, etc."
TEST(SubgroupsReference, ImageBlockReadByteCoordinateRowPerComponent) {
    ImageBytes img = makeImage(16, 8, 4);
    // 16-bit elements at x = 6 bytes: lane 3 reads bytes 12, 13 of row y + component.
    auto v = imageBlockReadComponent(img, 6, 2, 3, 1, 2);
    ASSERT_TRUE(v);
    EXPECT_EQ(*v, uint64_t(at(img, 12, 3)) | uint64_t(at(img, 13, 3)) << 8);
}

// Out-of-bounds reads of 4-byte texel formats clamp to the edge texel.
TEST(SubgroupsReference, ImageBlockReadClampsFourByteTexels) {
    ImageBytes img = makeImage(4, 3, 4);
    auto right = imageBlockReadComponent(img, 16, 0, 0, 0, 4);  // texel 4 -> texel 3
    auto below = imageBlockReadComponent(img, 0, 2, 1, 1, 4);   // row 3 -> row 2, texel 1
    auto left = imageBlockReadComponent(img, -8, -1, 0, 0, 4);  // texel -2 -> 0, row -1 -> 0
    ASSERT_TRUE(right && below && left);
    EXPECT_EQ(*right, *imageBlockReadComponent(img, 12, 0, 0, 0, 4));
    EXPECT_EQ(*below, *imageBlockReadComponent(img, 4, 2, 0, 0, 4));
    EXPECT_EQ(*left, *imageBlockReadComponent(img, 0, 0, 0, 0, 4));
    // A byte element beyond the right edge takes the same byte of the edge texel.
    EXPECT_EQ(*imageBlockReadComponent(img, 16, 0, 1, 0, 1), at(img, 13, 0));
}

// Smaller texels out of bounds are undefined; in bounds they are plain bytes (no format conversion).
TEST(SubgroupsReference, ImageBlockReadSmallTexelsOutOfBoundsUndefined) {
    ImageBytes img = makeImage(16, 2, 1);
    EXPECT_FALSE(imageBlockReadComponent(img, 0, 1, 0, 1, 4));   // row 2
    EXPECT_FALSE(imageBlockReadComponent(img, 12, 0, 1, 0, 4));  // bytes 16..19
    EXPECT_EQ(*imageBlockReadComponent(img, 12, 0, 0, 0, 4),
              uint64_t(at(img, 12, 0)) | uint64_t(at(img, 13, 0)) << 8 | uint64_t(at(img, 14, 0)) << 16 |
                  uint64_t(at(img, 15, 0)) << 24);
}

// Out-of-bounds writes of 4-byte texels are dropped; the in-bounds part of a block is written.
TEST(SubgroupsReference, ImageBlockWriteDropsOutOfBounds) {
    ImageBytes img = makeImage(4, 2, 4);
    ImageBytes before = img;
    EXPECT_EQ(imageBlockWriteComponent(img, 8, 1, 1, 0, 4, 0xaabbccdd), ImageWriteEffect::Written);
    EXPECT_EQ(at(img, 12, 1), 0xdd);
    EXPECT_EQ(imageBlockWriteComponent(img, 8, 1, 2, 0, 4, 0x12345678), ImageWriteEffect::Dropped);
    EXPECT_EQ(imageBlockWriteComponent(img, 8, 1, 0, 1, 4, 0x12345678), ImageWriteEffect::Dropped);  // row 2
    EXPECT_EQ(imageBlockWriteComponent(img, 12, 0, 0, 0, 8, 0x1122334455667788ull),
              ImageWriteEffect::PartlyDropped);  // bytes 12..19: texel 3 written, texel 4 dropped
    EXPECT_EQ(at(img, 15, 0), 0x55);
    img.data = before.data;
    EXPECT_EQ(imageBlockWriteComponent(img, 8, 0, 1, 0, 8, 0x1122334455667788ull), ImageWriteEffect::Dropped);
    EXPECT_EQ(img.data, before.data);
    EXPECT_EQ(imageBlockWriteComponent(img, 6, 0, 0, 0, 4, 1), ImageWriteEffect::Undefined);  // x % 4 != 0
}

TEST(SubgroupsReference, ImageBlockWriteSmallTexelsOutOfBoundsUndefined) {
    ImageBytes img = makeImage(8, 2, 2);
    EXPECT_EQ(imageBlockWriteComponent(img, 12, 0, 0, 0, 4, 1), ImageWriteEffect::Written);
    EXPECT_EQ(imageBlockWriteComponent(img, 12, 0, 1, 0, 4, 1), ImageWriteEffect::Undefined);
}

}  // namespace
}  // namespace cts::reference
