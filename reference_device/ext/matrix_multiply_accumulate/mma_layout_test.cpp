// The spec's mapping examples (sub-group size 4) on the reference device's MMA unpacking helpers, and its
// float encoding.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>

#include "reference_device/ext/matrix_multiply_accumulate/mma_layout.h"
#include "reference_device/spirv/half.h"

namespace refdev::spirv::mma {
namespace {

// The spec's examples, sub-group size 4. Element (r, c) carries the value 16 * r + c + 1.
uint32_t rc(uint32_t r, uint32_t c) {
    return 16 * r + c + 1;
}

TEST(MmaLayout, SpecExampleAWithNEqualK) {  // M 2, K 4, N 4: invocation i passes (0,i), (1,i)
    LaneData a(4, 2, 16);
    for (uint32_t i = 0; i < 4; ++i) a.at(i, 0) = rc(0, i), a.at(i, 1) = rc(1, i);
    Matrix m = unpackA(a, 2, 4, 16);
    for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t c = 0; c < 4; ++c) EXPECT_EQ(m.at(r, c), rc(r, c)) << r << "," << c;
}

TEST(MmaLayout, SpecExampleAWithNLessThanK) {  // M 2, K 8, N 4: invocation i passes (r,2i+1) | (r,2i)
    LaneData a(4, 2, 16);
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t r = 0; r < 2; ++r) a.at(i, r) = rc(r, 2 * i + 1) << 8 | rc(r, 2 * i);
    Matrix m = unpackA(a, 2, 8, 8);
    for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t c = 0; c < 8; ++c) EXPECT_EQ(m.at(r, c), rc(r, c)) << r << "," << c;
}

TEST(MmaLayout, SpecExampleAWithNGreaterThanK) {  // M 4, K 2, N 4
    LaneData a(4, 2, 32);
    // "Invocation 0 passes ... 0,0 and 2,0. Invocation 1 ... 0,1 and 2,1. Invocation 2 ... 1,0 and 3,0.
    // Invocation 3 ... 1,1 and 3,1."
    const uint32_t passes[4][2][2] = {{{0, 0}, {2, 0}}, {{0, 1}, {2, 1}}, {{1, 0}, {3, 0}}, {{1, 1}, {3, 1}}};
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t c = 0; c < 2; ++c) a.at(i, c) = rc(passes[i][c][0], passes[i][c][1]);
    Matrix m = unpackA(a, 4, 2, 32);
    for (uint32_t r = 0; r < 4; ++r)
        for (uint32_t c = 0; c < 2; ++c) EXPECT_EQ(m.at(r, c), rc(r, c)) << r << "," << c;
}

TEST(MmaLayout, SpecExampleAOneRowIgnoresUpperInvocations) {  // M 1, K 2, N 4
    LaneData a(4, 1, 32);
    a.at(0, 0) = rc(0, 0), a.at(1, 0) = rc(0, 1), a.at(2, 0) = 0xDEAD, a.at(3, 0) = 0xBEEF;
    Matrix m = unpackA(a, 1, 2, 32);
    EXPECT_EQ(m.at(0, 0), rc(0, 0));
    EXPECT_EQ(m.at(0, 1), rc(0, 1));
}

TEST(MmaLayout, SpecExampleB8Bit) {  // K 8, N 4: (3,i)|(2,i)|(1,i)|(0,i) and (7,i)|...|(4,i)
    LaneData b(4, 2, 32);
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t w = 0; w < 2; ++w)
            for (uint32_t j = 0; j < 4; ++j) b.at(i, w) |= rc(4 * w + j, i) << (8 * j);
    Matrix m = unpackB(b, 8, 8);
    for (uint32_t r = 0; r < 8; ++r)
        for (uint32_t c = 0; c < 4; ++c) EXPECT_EQ(m.at(r, c), rc(r, c)) << r << "," << c;
}

TEST(MmaLayout, SpecExampleB16Bit) {  // K 4, N 4: (1,i)|(0,i) and (3,i)|(2,i)
    LaneData b(4, 2, 32);
    for (uint32_t i = 0; i < 4; ++i)
        b.at(i, 0) = rc(1, i) << 16 | rc(0, i), b.at(i, 1) = rc(3, i) << 16 | rc(2, i);
    Matrix m = unpackB(b, 4, 16);
    for (uint32_t r = 0; r < 4; ++r)
        for (uint32_t c = 0; c < 4; ++c) EXPECT_EQ(m.at(r, c), rc(r, c)) << r << "," << c;
}

TEST(MmaLayout, SpecExampleB32Bit) {  // K 2, N 4: (0,i) and (1,i)
    LaneData b(4, 2, 32);
    for (uint32_t i = 0; i < 4; ++i) b.at(i, 0) = rc(0, i) | 0x80000000u, b.at(i, 1) = rc(1, i) | 0x80000000u;
    Matrix m = unpackB(b, 2, 32);
    for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t c = 0; c < 4; ++c) EXPECT_EQ(m.at(r, c), rc(r, c) | 0x80000000u) << r << "," << c;
}

TEST(MmaLayout, SpecExampleCAndResult) {  // M 2, N 4: invocation i passes / is assigned (0,i), (1,i)
    LaneData c(4, 2, 32);
    for (uint32_t i = 0; i < 4; ++i) c.at(i, 0) = rc(0, i), c.at(i, 1) = rc(1, i);
    Matrix m = unpackC(c, 2);
    for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t col = 0; col < 4; ++col) EXPECT_EQ(m.at(r, col), rc(r, col));
    LaneData back = packResult(m, 16);
    EXPECT_EQ(back.lanes, 4u);
    EXPECT_EQ(back.components, 2u);
    EXPECT_EQ(back.words, c.words);
}

TEST(MmaLayout, Int4PacksEightPerWordLowestFirst) {
    LaneData b(2, 8, 32);
    for (uint32_t i = 0; i < 2; ++i)
        for (uint32_t w = 0; w < 8; ++w)
            for (uint32_t j = 0; j < 8; ++j) b.at(i, w) |= ((8 * w + j + i) & 0xF) << (4 * j);
    Matrix m = unpackB(b, 64, 4);
    for (uint32_t r = 0; r < 64; ++r)
        for (uint32_t c = 0; c < 2; ++c) EXPECT_EQ(m.at(r, c), (r + c) & 0xF);
}

TEST(MmaLayout, FloatEncodingRoundsToNearestEven) {
    // fp32: agrees with the host's double -> float conversion (round to nearest even).
    std::mt19937_64 rng(7);
    for (int i = 0; i < 20000; ++i) {
        uint64_t bits = rng();
        double d;
        std::memcpy(&d, &bits, 8);
        if (std::isnan(d)) continue;
        int e;
        d = std::ldexp(std::frexp(d, &e), int(rng() % 300) - 150);
        float f = float(d);
        uint32_t fb;
        std::memcpy(&fb, &f, 4);
        ASSERT_EQ(encodeFloat(d, 8, 23), fb) << std::hexfloat << d;
        ASSERT_EQ(encodeFloat(d, 5, 10), doubleToHalf(d)) << std::hexfloat << d;
        ASSERT_EQ(decodeFloat(fb, 8, 23), double(f));
    }
    EXPECT_EQ(encodeFloat(0x1p-24, 5, 10), 0x0001u);  // smallest fp16 subnormal
    EXPECT_EQ(encodeFloat(0x1p-25, 5, 10), 0x0000u);  // tie to even: zero
    EXPECT_EQ(encodeFloat(0x3p-26, 5, 10), 0x0001u);  // 0.75 ulp
    EXPECT_EQ(encodeFloat(0x3p-25, 5, 10), 0x0002u);  // 1.5 ulp: tie to even
    EXPECT_EQ(encodeFloat(65520.0, 5, 10), 0x7C00u);  // rounds past the largest finite fp16
    EXPECT_EQ(encodeFloat(65519.0, 5, 10), 0x7BFFu);
    EXPECT_EQ(encodeFloat(-0.0, 5, 10), 0x8000u);
    EXPECT_EQ(encodeFloat(1.0 + 0x1p-8, 8, 7), 0x3F80u);  // bf16 tie to even (down)
    EXPECT_EQ(encodeFloat(1.0 + 0x3p-8, 8, 7), 0x3F82u);  // bf16 tie to even (up)
    EXPECT_EQ(encodeFloat(1.0 + 0x1p-8 + 0x1p-20, 8, 7), 0x3F81u);
    EXPECT_EQ(decodeFloat(0x0001, 5, 10), 0x1p-24);
    EXPECT_EQ(decodeFloat(0xC000, 8, 7), -2.0);
}

}  // namespace
}  // namespace refdev::spirv::mma
