// Unit tests of the MMA host reference: every worked example of the SPV_INTEL_subgroup_matrix_multiply_
// accumulate spec (N = 4), then the shapes of the OpenCL environment table (N = 8 and 16), integer
// wrap-around and signedness, float bounds, decoding and encoding.
#include "test_common/reference/mma.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace cts::reference {
namespace {

// Element "r,c" of the spec examples as a distinct non-zero value (fits 8 bits for r, c < 16, r < 15).
uint32_t rc(uint32_t r, uint32_t c) {
    return ((r << 4) | c) + 1;
}

RawMatrix numbered(uint32_t rows, uint32_t cols, uint32_t (*f)(uint32_t, uint32_t) = rc) {
    RawMatrix x(rows, cols);
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t c = 0; c < cols; ++c) x.at(r, c) = f(r, c);
    return x;
}

RawMatrix filled(uint32_t rows, uint32_t cols, uint32_t bits) {
    RawMatrix x(rows, cols);
    for (auto& b : x.bits) b = bits;
    return x;
}

MmaShape shape(uint32_t n, uint32_t k, uint32_t m, MmaElement ab, MmaAccumulator cr) {
    MmaShape s;
    s.n = n;
    s.k = k;
    s.m = m;
    s.a = s.b = ab;
    s.c = s.result = cr;
    return s;
}

// Packing `matrix` gives exactly `lanes`, and unpacking `lanes` gives back `matrix`.
void expectA(const MmaShape& s, const RawMatrix& matrix, const LaneData& lanes) {
    EXPECT_EQ(packA(s, matrix), lanes) << s.str();
    EXPECT_EQ(unpackA(s, lanes).bits, matrix.bits) << s.str();
}
void expectB(const MmaShape& s, const RawMatrix& matrix, const LaneData& lanes) {
    EXPECT_EQ(packB(s, matrix), lanes) << s.str();
    EXPECT_EQ(unpackB(s, lanes).bits, matrix.bits) << s.str();
}
void expectC(const MmaShape& s, const RawMatrix& matrix, const LaneData& lanes) {
    EXPECT_EQ(packC(s, matrix), lanes) << s.str();
    EXPECT_EQ(unpackC(s, lanes).bits, matrix.bits) << s.str();
}

bool sameLayout(OperandLayout l, uint32_t components, uint32_t bits) {
    return l.components == components && l.component_bits == bits;
}

// ---------------------------------------------------------------------------------------------------------
// Spec examples (N = 4).

// "Passing Matrix A with M equal to two, K equal to four, and N equal to four ... each invocation contributes
// a vector representing a single column of Matrix A: Invocation 0 passes a vector consisting of the two
// values 0,0 and 1,0." ... "Invocation 3 passes ... 0,3 and 1,3."
TEST(MmaReference, SpecExampleAM2K4N4OneColumnPerInvocation) {
    MmaShape s = shape(4, 4, 2, MmaElement::Fp16, MmaAccumulator::Fp32);
    EXPECT_TRUE(sameLayout(aLayout(s), 2, 16));
    expectA(s, numbered(2, 4),
            {{rc(0, 0), rc(1, 0)}, {rc(0, 1), rc(1, 1)}, {rc(0, 2), rc(1, 2)}, {rc(0, 3), rc(1, 3)}});
}

// "Passing Matrix A with M equal to two, K equal to eight, and N equal to four ... the first column in the
// lower bits of each vector component and the second column in the upper bits: Invocation 0 passes a vector
// consisting of the two values 0,1 | 0,0 and 1,1 | 1,0." ... "Invocation 3 ... 0,7 | 0,6 and 1.7 | 1,6."
// 8-bit data, so each component is 16 bits.
TEST(MmaReference, SpecExampleAM2K8N4TwoColumnsPerComponent) {
    MmaShape s = shape(4, 8, 2, MmaElement::Int8, MmaAccumulator::Int32);
    EXPECT_TRUE(sameLayout(aLayout(s), 2, 16));
    LaneData lanes;
    for (uint32_t i = 0; i < 4; ++i)
        lanes.push_back({rc(0, 2 * i + 1) << 8 | rc(0, 2 * i), rc(1, 2 * i + 1) << 8 | rc(1, 2 * i)});
    EXPECT_EQ(lanes[0], (std::vector<uint32_t>{0x0201, 0x1211}));  // the values themselves, by hand
    EXPECT_EQ(lanes[3], (std::vector<uint32_t>{0x0807, 0x1817}));
    expectA(s, numbered(2, 8), lanes);
}

// "Passing Matrix A with M equal to four, K equal to two, and N equal to four ... each invocation contributes
// a vector representing every other row of each column of Matrix A: Invocation 0 passes a vector consisting
// of the two values 0,0 and 2,0. Invocation 1 ... 0,1 and 2,1. Invocation 2 ... 1,0 and 3,0. Invocation 3 ...
// 1,1 and 3,1."
TEST(MmaReference, SpecExampleAM4K2N4EveryOtherRow) {
    MmaShape s = shape(4, 2, 4, MmaElement::Tf32, MmaAccumulator::Fp32);
    EXPECT_TRUE(sameLayout(aLayout(s), 2, 32));
    expectA(s, numbered(4, 2),
            {{rc(0, 0), rc(2, 0)}, {rc(0, 1), rc(2, 1)}, {rc(1, 0), rc(3, 0)}, {rc(1, 1), rc(3, 1)}});
}

// "Passing Matrix A with M equal to one, K equal to two, and N equal to four ... Invocation 0 passes the
// value 0,0. Invocation 1 passes the value 0,1. The data from Invocation 2 and Invocation 3 is ignored."
TEST(MmaReference, SpecExampleAM1K2N4IgnoresUpperInvocations) {
    MmaShape s = shape(4, 2, 1, MmaElement::Tf32, MmaAccumulator::Fp32);
    EXPECT_TRUE(sameLayout(aLayout(s), 1, 32));
    RawMatrix a = numbered(1, 2);
    EXPECT_EQ(packA(s, a), (LaneData{{rc(0, 0)}, {rc(0, 1)}, {0}, {0}}));  // nothing maps to lanes 2, 3
    RawMatrix got = unpackA(s, {{rc(0, 0)}, {rc(0, 1)}, {0xDEADBEEF}, {0x12345678}});
    EXPECT_EQ(got.rows, 1u);
    EXPECT_EQ(got.cols, 2u);
    EXPECT_EQ(got.bits, (std::vector<uint32_t>{rc(0, 0), rc(0, 1)}));
}

// "Passing Matrix B with K equal to eight, N equal to four, and 8-bit data ... Invocation 0 passes a vector
// consisting of the two 32-bit values 3,0 | 2,0 | 1,0 | 0,0 and 7,0 | 6,0 | 5,0 | 4,0." ... "Invocation 3
// ... 3,3 | 2,3 | 1,3 | 0,3 and 7,3 | 6,3 | 5,3 | 4,3."
TEST(MmaReference, SpecExampleBK8N4EightBit) {
    MmaShape s = shape(4, 8, 1, MmaElement::Int8, MmaAccumulator::Int32);
    EXPECT_TRUE(sameLayout(bLayout(s), 2, 32));
    LaneData lanes;
    for (uint32_t i = 0; i < 4; ++i)
        lanes.push_back({rc(3, i) << 24 | rc(2, i) << 16 | rc(1, i) << 8 | rc(0, i),
                         rc(7, i) << 24 | rc(6, i) << 16 | rc(5, i) << 8 | rc(4, i)});
    EXPECT_EQ(lanes[0], (std::vector<uint32_t>{0x31211101, 0x71615141}));
    EXPECT_EQ(lanes[3], (std::vector<uint32_t>{0x34241404, 0x74645444}));
    expectB(s, numbered(8, 4), lanes);
}

// "Passing Matrix B with K equal to four, N equal to four, and 16-bit data ... Invocation 0 passes a vector
// consisting of the two 32-bit values 1,0 | 0,0 and 3,0 | 2,0." ... "Invocation 3 ... 1,3 | 0,3 and
// 3,3 | 2,3."
TEST(MmaReference, SpecExampleBK4N4SixteenBit) {
    MmaShape s = shape(4, 4, 1, MmaElement::Bf16, MmaAccumulator::Fp32);
    EXPECT_TRUE(sameLayout(bLayout(s), 2, 32));
    LaneData lanes;
    for (uint32_t i = 0; i < 4; ++i) lanes.push_back({rc(1, i) << 16 | rc(0, i), rc(3, i) << 16 | rc(2, i)});
    EXPECT_EQ(lanes[2], (std::vector<uint32_t>{0x00130003, 0x00330023}));
    expectB(s, numbered(4, 4), lanes);
}

// "Passing Matrix B with K equal to two, N equal to four, and 32-bit data ... Invocation 0 passes a vector
// consisting of the two 32-bit values 0,0 and 1,0." ... "Invocation 3 ... 0,3 and 1,3."
TEST(MmaReference, SpecExampleBK2N4ThirtyTwoBit) {
    MmaShape s = shape(4, 2, 1, MmaElement::Tf32, MmaAccumulator::Fp32);
    EXPECT_TRUE(sameLayout(bLayout(s), 2, 32));
    auto big = [](uint32_t r, uint32_t c) { return rc(r, c) * 0x01010101u; };  // uses all 32 bits
    expectB(s, numbered(2, 4, big),
            {{big(0, 0), big(1, 0)}, {big(0, 1), big(1, 1)}, {big(0, 2), big(1, 2)}, {big(0, 3), big(1, 3)}});
}

// "Passing Matrix C with M equal to two and N equal to four ... Invocation 0 passes a vector consisting of
// the two values 0,0 and 1,0." ... "Invocation 3 ... 0,3 and 1,3."
TEST(MmaReference, SpecExampleCM2N4) {
    MmaShape s = shape(4, 4, 2, MmaElement::Int8, MmaAccumulator::Int32);
    EXPECT_TRUE(sameLayout(cLayout(s), 2, 32));
    expectC(s, numbered(2, 4),
            {{rc(0, 0), rc(1, 0)}, {rc(0, 1), rc(1, 1)}, {rc(0, 2), rc(1, 2)}, {rc(0, 3), rc(1, 3)}});
}

// "Assigning Result with M equal to two and N equal to four ... Invocation 0 is assigned a vector consisting
// of the two values 0,0 and 1,0." ... "Invocation 3 ... 0,3 and 1,3." Result "is assigned to invocations
// the same as the Matrix C operand", so unpackC reads it.
TEST(MmaReference, SpecExampleResultM2N4) {
    MmaShape s = shape(4, 4, 2, MmaElement::Fp16, MmaAccumulator::Fp16);
    EXPECT_TRUE(sameLayout(resultLayout(s), 2, 16));
    RawMatrix r =
        unpackC(s, {{rc(0, 0), rc(1, 0)}, {rc(0, 1), rc(1, 1)}, {rc(0, 2), rc(1, 2)}, {rc(0, 3), rc(1, 3)}});
    EXPECT_EQ(r.bits, numbered(2, 4).bits);
}

// unpackC copies component bits unmasked, so it reads a Result wider than C (C bf16, Result fp32).
TEST(MmaReference, UnpackCReadsAResultWiderThanC) {
    MmaShape s = shape(4, 4, 1, MmaElement::Bf16, MmaAccumulator::Bf16);
    s.result = MmaAccumulator::Fp32;
    EXPECT_TRUE(sameLayout(cLayout(s), 1, 16));
    EXPECT_TRUE(sameLayout(resultLayout(s), 1, 32));
    EXPECT_EQ(unpackC(s, {{0x3F800000}, {0x40000000}, {0xC0400000}, {0x00000001}}).bits,
              (std::vector<uint32_t>{0x3F800000, 0x40000000, 0xC0400000, 0x00000001}));
}

// ---------------------------------------------------------------------------------------------------------
// OpenCL environment table shapes. "A: lane i supplies columns [i*p, i*p+p) of each row, p = K/N, lowest
// column in the lowest bits; component r is row r."

uint32_t byteOf(uint32_t r, uint32_t c) {
    return (r * 32 + c) & 0xFF;  // distinct for r < 8, c < 32
}
uint32_t nibbleOf(uint32_t r, uint32_t c) {
    return (r * 5 + c * 3 + c / 16) & 0xF;
}

TEST(MmaReference, TableInt8N8K32FourPerComponent) {
    for (uint32_t m : {1u, 2u, 4u, 8u}) {
        MmaShape s = shape(8, 32, m, MmaElement::Int8, MmaAccumulator::Int32);
        EXPECT_TRUE(sameLayout(aLayout(s), m, 32)) << m;
        EXPECT_TRUE(sameLayout(bLayout(s), 8, 32)) << m;
        EXPECT_TRUE(sameLayout(cLayout(s), m, 32)) << m;
        EXPECT_TRUE(sameLayout(resultLayout(s), m, 32)) << m;
        RawMatrix a = numbered(m, 32, byteOf);
        LaneData lanes(8);
        for (uint32_t i = 0; i < 8; ++i)
            for (uint32_t r = 0; r < m; ++r)
                lanes[i].push_back(byteOf(r, 4 * i + 3) << 24 | byteOf(r, 4 * i + 2) << 16 |
                                   byteOf(r, 4 * i + 1) << 8 | byteOf(r, 4 * i));
        expectA(s, a, lanes);
        if (m == 8) {
            EXPECT_EQ(lanes[7][7], 0xFFFEFDFCu);  // row 7, columns 28..31
        }
    }
    // B: "int8: 4 rows per word".
    MmaShape s = shape(8, 32, 1, MmaElement::Int8, MmaAccumulator::Int32);
    auto bval = [](uint32_t k, uint32_t n) { return (k * 8 + n) & 0xFF; };
    LaneData lanes(8);
    for (uint32_t i = 0; i < 8; ++i)
        for (uint32_t w = 0; w < 8; ++w)
            lanes[i].push_back(bval(4 * w + 3, i) << 24 | bval(4 * w + 2, i) << 16 | bval(4 * w + 1, i) << 8 |
                               bval(4 * w, i));
    EXPECT_EQ(lanes[1][0], 0x19110901u);
    expectB(s, numbered(32, 8, bval), lanes);
}

TEST(MmaReference, TableInt8N16K32TwoPerSixteenBitComponent) {
    for (uint32_t m : {1u, 2u, 4u, 8u}) {
        MmaShape s = shape(16, 32, m, MmaElement::Int8, MmaAccumulator::Int32);
        EXPECT_TRUE(sameLayout(aLayout(s), m, 16)) << m;
        EXPECT_TRUE(sameLayout(bLayout(s), 8, 32)) << m;
        EXPECT_TRUE(sameLayout(cLayout(s), m, 32)) << m;
        LaneData lanes(16);
        for (uint32_t i = 0; i < 16; ++i)
            for (uint32_t r = 0; r < m; ++r) lanes[i].push_back(byteOf(r, 2 * i + 1) << 8 | byteOf(r, 2 * i));
        expectA(s, numbered(m, 32, byteOf), lanes);
        EXPECT_EQ(lanes[5][0], 0x0B0Au);
    }
    MmaShape s = shape(16, 32, 1, MmaElement::Int8, MmaAccumulator::Int32);
    auto bval = [](uint32_t k, uint32_t n) { return (k * 7 + n * 16) & 0xFF; };
    LaneData lanes(16);
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t w = 0; w < 8; ++w)
            lanes[i].push_back(bval(4 * w + 3, i) << 24 | bval(4 * w + 2, i) << 16 | bval(4 * w + 1, i) << 8 |
                               bval(4 * w, i));
    expectB(s, numbered(32, 16, bval), lanes);
}

// int4 K = 64: N = 8 packs 8 nibbles per 32-bit A component, N = 16 packs 4 per 16 bits; B: "int4: 8".
TEST(MmaReference, TableInt4K64) {
    for (uint32_t n : {8u, 16u})
        for (uint32_t m : {1u, 2u, 4u, 8u}) {
            MmaShape s = shape(n, 64, m, MmaElement::Int4, MmaAccumulator::Int32);
            uint32_t p = 64 / n;
            EXPECT_TRUE(sameLayout(aLayout(s), m, 4 * p)) << n << " " << m;
            EXPECT_TRUE(sameLayout(bLayout(s), 8, 32)) << n << " " << m;
            EXPECT_TRUE(sameLayout(cLayout(s), m, 32)) << n << " " << m;
            LaneData lanes(n);
            for (uint32_t i = 0; i < n; ++i)
                for (uint32_t r = 0; r < m; ++r) {
                    uint32_t v = 0;
                    for (uint32_t j = 0; j < p; ++j) v |= nibbleOf(r, i * p + j) << (4 * j);
                    lanes[i].push_back(v);
                }
            expectA(s, numbered(m, 64, nibbleOf), lanes);
            LaneData blanes(n);
            for (uint32_t i = 0; i < n; ++i)
                for (uint32_t w = 0; w < 8; ++w) {
                    uint32_t v = 0;
                    for (uint32_t j = 0; j < 8; ++j) v |= nibbleOf(8 * w + j, i) << (4 * j);
                    blanes[i].push_back(v);
                }
            expectB(s, numbered(64, n, nibbleOf), blanes);
        }
    // By hand: row 0, columns 0..7 are 0,3,6,9,12,15,2,5 (nibbleOf); lane 0 of N = 8 packs them low first.
    MmaShape s8 = shape(8, 64, 1, MmaElement::Int4, MmaAccumulator::Int32);
    EXPECT_EQ(packA(s8, numbered(1, 64, nibbleOf))[0][0], 0x52FC9630u);
    MmaShape s16 = shape(16, 64, 1, MmaElement::Int4, MmaAccumulator::Int32);
    EXPECT_EQ(packA(s16, numbered(1, 64, nibbleOf))[0][0], 0x9630u);
}

// fp16 / bf16 K = 16: N = 8 packs 2 per 32-bit A component, N = 16 passes 1 per 16 bits; B "fp16/bf16: 2".
TEST(MmaReference, TableHalfK16) {
    for (MmaElement e : {MmaElement::Fp16, MmaElement::Bf16})
        for (uint32_t m : {1u, 2u, 4u, 8u}) {
            MmaShape s8 = shape(8, 16, m, e, MmaAccumulator::Fp32);
            EXPECT_TRUE(sameLayout(aLayout(s8), m, 32)) << m;
            EXPECT_TRUE(sameLayout(bLayout(s8), 8, 32)) << m;
            EXPECT_TRUE(sameLayout(cLayout(s8), m, 32)) << m;
            LaneData l8(8);
            for (uint32_t i = 0; i < 8; ++i)
                for (uint32_t r = 0; r < m; ++r) l8[i].push_back(rc(r, 2 * i + 1) << 16 | rc(r, 2 * i));
            expectA(s8, numbered(m, 16), l8);

            MmaShape s16 = shape(16, 16, m, e, MmaAccumulator::Fp32);
            EXPECT_TRUE(sameLayout(aLayout(s16), m, 16)) << m;
            EXPECT_TRUE(sameLayout(bLayout(s16), 8, 32)) << m;
            LaneData l16(16);
            for (uint32_t i = 0; i < 16; ++i)
                for (uint32_t r = 0; r < m; ++r) l16[i].push_back(rc(r, i));
            expectA(s16, numbered(m, 16), l16);
            LaneData b16(16);
            for (uint32_t i = 0; i < 16; ++i)
                for (uint32_t w = 0; w < 8; ++w) b16[i].push_back(rc(2 * w + 1, i) << 16 | rc(2 * w, i));
            expectB(s16, numbered(16, 16), b16);
        }
    // The fp16-result and bf16-in-i16 rows: 16-bit C and Result components.
    MmaShape h = shape(16, 16, 4, MmaElement::Fp16, MmaAccumulator::Fp16);
    EXPECT_TRUE(sameLayout(cLayout(h), 4, 16));
    EXPECT_TRUE(sameLayout(resultLayout(h), 4, 16));
    MmaShape b = shape(16, 16, 4, MmaElement::Bf16, MmaAccumulator::Bf16);
    EXPECT_TRUE(sameLayout(cLayout(b), 4, 16));
    EXPECT_TRUE(sameLayout(resultLayout(b), 4, 16));
    EXPECT_EQ(packA(shape(8, 16, 1, MmaElement::Fp16, MmaAccumulator::Fp32), numbered(1, 16))[3][0],
              0x00080007u);
}

// tf32 N = 16, K = 8: "When N > K (tf32), lane i supplies row 2c + i/8 of column i%8 in component c";
// A is ceil(M/2) x f32.
TEST(MmaReference, TableTf32N16K8) {
    const uint32_t components[] = {1, 1, 2, 4};
    const uint32_t ms[] = {1, 2, 4, 8};
    for (int t = 0; t < 4; ++t) {
        uint32_t m = ms[t];
        MmaShape s = shape(16, 8, m, MmaElement::Tf32, MmaAccumulator::Fp32);
        EXPECT_TRUE(sameLayout(aLayout(s), components[t], 32)) << m;
        EXPECT_TRUE(sameLayout(bLayout(s), 8, 32)) << m;
        EXPECT_TRUE(sameLayout(cLayout(s), m, 32)) << m;
        LaneData lanes(16);
        for (uint32_t i = 0; i < 16; ++i)
            for (uint32_t c = 0; c < components[t]; ++c) {
                uint32_t row = 2 * c + i / 8;
                lanes[i].push_back(row < m ? rc(row, i % 8) : 0);
            }
        expectA(s, numbered(m, 8), lanes);
        LaneData blanes(16);
        for (uint32_t i = 0; i < 16; ++i)
            for (uint32_t r = 0; r < 8; ++r) blanes[i].push_back(rc(r, i));
        expectB(s, numbered(8, 16), blanes);
    }
    // By hand for M = 4: lane 9 passes (1,1) and (3,1); lane 6 passes (0,6) and (2,6).
    auto lanes = packA(shape(16, 8, 4, MmaElement::Tf32, MmaAccumulator::Fp32), numbered(4, 8));
    EXPECT_EQ(lanes[9], (std::vector<uint32_t>{0x12, 0x32}));
    EXPECT_EQ(lanes[6], (std::vector<uint32_t>{0x07, 0x27}));
    // M = 1: lanes 8..15 map to row 1, which does not exist.
    auto one = packA(shape(16, 8, 1, MmaElement::Tf32, MmaAccumulator::Fp32), numbered(1, 8));
    EXPECT_EQ(one[7], (std::vector<uint32_t>{0x08}));
    EXPECT_EQ(one[8], (std::vector<uint32_t>{0}));
}

// "operand bits (exact)" column of the table.
TEST(MmaReference, OperandsMaskMatchesTable) {
    MmaShape s = shape(8, 32, 8, MmaElement::Int8, MmaAccumulator::Int32);
    EXPECT_EQ(operandsMask(s), 0x30u);  // APackedInt8 | BPackedInt8
    s.a_signed = true;
    EXPECT_EQ(operandsMask(s), 0x31u);
    s.b_signed = true;
    EXPECT_EQ(operandsMask(s), 0x33u);
    s.a_signed = false;
    EXPECT_EQ(operandsMask(s), 0x32u);
    MmaShape i4 = shape(16, 64, 8, MmaElement::Int4, MmaAccumulator::Int32);
    EXPECT_EQ(operandsMask(i4), 0xC0u);
    i4.a_signed = i4.b_signed = true;
    EXPECT_EQ(operandsMask(i4), 0xC3u);
    MmaShape h = shape(16, 16, 8, MmaElement::Fp16, MmaAccumulator::Fp32);
    EXPECT_EQ(operandsMask(h), 0xC00u);
    h.a_signed = h.b_signed = true;  // signedness applies to integers only
    EXPECT_EQ(operandsMask(h), 0xC00u);
    EXPECT_EQ(operandsMask(shape(16, 16, 8, MmaElement::Fp16, MmaAccumulator::Fp16)), 0xC00u);
    EXPECT_EQ(operandsMask(shape(8, 16, 8, MmaElement::Bf16, MmaAccumulator::Fp32)), 0x3000u);
    EXPECT_EQ(operandsMask(shape(16, 16, 8, MmaElement::Bf16, MmaAccumulator::Bf16)), 0x300Cu);
    EXPECT_EQ(operandsMask(shape(16, 8, 8, MmaElement::Tf32, MmaAccumulator::Fp32)), 0x300u);
    MmaShape cOnly = shape(16, 16, 8, MmaElement::Bf16, MmaAccumulator::Fp32);
    cOnly.c = MmaAccumulator::Bf16;
    EXPECT_EQ(operandsMask(cOnly), 0x3004u);
}

TEST(MmaReference, NamesBitsAndStr) {
    EXPECT_EQ(elementBits(MmaElement::Int8), 8u);
    EXPECT_EQ(elementBits(MmaElement::Int4), 4u);
    EXPECT_EQ(elementBits(MmaElement::Fp16), 16u);
    EXPECT_EQ(elementBits(MmaElement::Bf16), 16u);
    EXPECT_EQ(elementBits(MmaElement::Tf32), 32u);
    EXPECT_EQ(accumulatorBits(MmaAccumulator::Int32), 32u);
    EXPECT_EQ(accumulatorBits(MmaAccumulator::Fp32), 32u);
    EXPECT_EQ(accumulatorBits(MmaAccumulator::Fp16), 16u);
    EXPECT_EQ(accumulatorBits(MmaAccumulator::Bf16), 16u);
    EXPECT_STREQ(elementName(MmaElement::Tf32), "tf32");
    EXPECT_STREQ(accumulatorName(MmaAccumulator::Bf16), "bf16");
    EXPECT_TRUE(isInteger(MmaElement::Int4));
    EXPECT_FALSE(isInteger(MmaElement::Bf16));
    MmaShape s;
    s.a_signed = true;
    EXPECT_EQ(s.str(), "n16 k32 m8 A int8 signed, B int8 unsigned, C int32, Result int32");
    EXPECT_EQ(shape(16, 8, 4, MmaElement::Tf32, MmaAccumulator::Fp32).str(),
              "n16 k8 m4 A tf32, B tf32, C fp32, Result fp32");
}

// Shapes the mapping cannot express, wrong lane counts and wrong matrix sizes are caller errors.
TEST(MmaReference, RejectsInvalidShapesAndSizes) {
    EXPECT_THROW(aLayout(shape(16, 24, 1, MmaElement::Int8, MmaAccumulator::Int32)), std::invalid_argument);
    EXPECT_THROW(aLayout(shape(8, 64, 1, MmaElement::Int8, MmaAccumulator::Int32)), std::invalid_argument);
    EXPECT_THROW(aLayout(shape(16, 6, 1, MmaElement::Tf32, MmaAccumulator::Fp32)), std::invalid_argument);
    EXPECT_THROW(aLayout(shape(16, 32, 0, MmaElement::Int8, MmaAccumulator::Int32)), std::invalid_argument);
    EXPECT_THROW(bLayout(shape(4, 2, 1, MmaElement::Int8, MmaAccumulator::Int32)), std::invalid_argument);
    MmaShape s = shape(8, 32, 2, MmaElement::Int8, MmaAccumulator::Int32);
    EXPECT_THROW(unpackA(s, LaneData(7, std::vector<uint32_t>(2))), std::invalid_argument);
    EXPECT_THROW(unpackA(s, LaneData(8, std::vector<uint32_t>(1))), std::invalid_argument);
    EXPECT_THROW(unpackB(s, LaneData(8, std::vector<uint32_t>(7))), std::invalid_argument);
    EXPECT_THROW(unpackC(s, LaneData(16, std::vector<uint32_t>(2))), std::invalid_argument);
    EXPECT_THROW(packA(s, RawMatrix(2, 16)), std::invalid_argument);
    EXPECT_THROW(packB(s, RawMatrix(8, 32)), std::invalid_argument);
    EXPECT_THROW(packC(s, RawMatrix(8, 2)), std::invalid_argument);
    EXPECT_THROW(mmaInteger(s, RawMatrix(2, 32), RawMatrix(32, 8), RawMatrix(1, 8)), std::invalid_argument);
    MmaShape f = shape(8, 16, 2, MmaElement::Fp16, MmaAccumulator::Fp32);
    EXPECT_THROW(mmaInteger(f, RawMatrix(2, 16), RawMatrix(16, 8), RawMatrix(2, 8)), std::invalid_argument);
    EXPECT_THROW(mmaFloat(s, RawMatrix(2, 32), RawMatrix(32, 8), RawMatrix(2, 8)), std::invalid_argument);
    EXPECT_THROW(floatResultAcceptable(MmaAccumulator::Int32, FloatExpectation{}, 0), std::invalid_argument);
}

// Element bits above the element width are dropped on pack (neighbours unharmed) and on unpack.
TEST(MmaReference, PackingMasksToElementWidth) {
    MmaShape s = shape(4, 8, 1, MmaElement::Int8, MmaAccumulator::Int32);
    RawMatrix b(8, 4);
    b.at(0, 0) = 0xFFFFFF80;  // a sign-extended int8 -128
    b.at(1, 0) = 0x01;
    EXPECT_EQ(packB(s, b)[0], (std::vector<uint32_t>{0x0180, 0}));
    RawMatrix a(1, 8);
    a.at(0, 2) = 0x1FF;
    EXPECT_EQ(packA(s, a)[1], (std::vector<uint32_t>{0xFF}));
    EXPECT_EQ(unpackA(s, {{0}, {0xABCD00FF}, {0}, {0}}).at(0, 2), 0xFFu);
    EXPECT_EQ(unpackA(s, {{0}, {0xABCD00FF}, {0}, {0}}).at(0, 3), 0x00u);
}

// ---------------------------------------------------------------------------------------------------------
// Integer results: "The resulting value will equal the low-order N bits of the correct result R".

MmaShape int8Shape(bool a_signed, bool b_signed) {
    MmaShape s = shape(8, 32, 2, MmaElement::Int8, MmaAccumulator::Int32);
    s.a_signed = a_signed;
    s.b_signed = b_signed;
    return s;
}

TEST(MmaReference, IntegerSignedInt8WrapsAtThirtyTwoBits) {
    // -128 * -128 = 16384, times K = 32 = 0x80000; plus INT32_MAX wraps to 0x8007FFFF.
    MmaShape s = int8Shape(true, true);
    RawMatrix r = mmaInteger(s, filled(2, 32, 0x80), filled(32, 8, 0x80), filled(2, 8, 0x7FFFFFFF));
    for (uint32_t v : r.bits) EXPECT_EQ(v, 0x8007FFFFu);
    EXPECT_EQ(r.rows, 2u);
    EXPECT_EQ(r.cols, 8u);
}

TEST(MmaReference, IntegerUnsignedInt8) {
    // 255 * 255 * 32 = 2080800 = 0x1FC020; C = -1 gives 0x1FC01F; C = INT32_MAX wraps to 0x801FC01F.
    MmaShape s = int8Shape(false, false);
    EXPECT_EQ(mmaInteger(s, filled(2, 32, 0xFF), filled(32, 8, 0xFF), filled(2, 8, 0xFFFFFFFF)).at(1, 7),
              0x1FC01Fu);
    EXPECT_EQ(mmaInteger(s, filled(2, 32, 0xFF), filled(32, 8, 0xFF), filled(2, 8, 0x7FFFFFFF)).at(0, 0),
              0x801FC01Fu);
    // The same bits read as signed: (-1) * (-1) * 32 - 1 = 31.
    EXPECT_EQ(
        mmaInteger(int8Shape(true, true), filled(2, 32, 0xFF), filled(32, 8, 0xFF), filled(2, 8, 0xFFFFFFFF))
            .at(0, 3),
        31u);
}

TEST(MmaReference, IntegerInt4SignedAndUnsigned) {
    MmaShape s = shape(8, 64, 1, MmaElement::Int4, MmaAccumulator::Int32);
    s.a_signed = s.b_signed = true;
    // -8 * -8 * 64 = 4096, plus 5.
    EXPECT_EQ(mmaInteger(s, filled(1, 64, 0x8), filled(64, 8, 0x8), filled(1, 8, 5)).at(0, 2), 4101u);
    s.a_signed = s.b_signed = false;
    // 15 * 15 * 64 = 14400, plus -14400.
    EXPECT_EQ(mmaInteger(s, filled(1, 64, 0xF), filled(64, 8, 0xF), filled(1, 8, 0)).at(0, 0), 14400u);
    EXPECT_EQ(mmaInteger(s, filled(1, 64, 0xF), filled(64, 8, 0xF), filled(1, 8, uint32_t(-14400))).at(0, 0),
              0u);
    // A signed (-8), B unsigned (15): -8 * 15 * 64 = -7680 = 0xFFFFE200.
    s.a_signed = true;
    EXPECT_EQ(mmaInteger(s, filled(1, 64, 0x8), filled(64, 8, 0xF), filled(1, 8, 0)).at(0, 5), 0xFFFFE200u);
}

// A = 0xFF, B = 0x80, K = 32: signed x signed (-1)(-128) = 128 -> 4096; signed x unsigned (-1)(128) ->
// -4096; unsigned x signed 255(-128) -> -1044480; unsigned x unsigned 255 * 128 -> 1044480.
TEST(MmaReference, IntegerSignednessCombinationsDiffer) {
    auto run = [](bool as, bool bs) {
        return mmaInteger(int8Shape(as, bs), filled(2, 32, 0xFF), filled(32, 8, 0x80), filled(2, 8, 0))
            .at(1, 4);
    };
    EXPECT_EQ(run(true, true), 0x00001000u);
    EXPECT_EQ(run(true, false), 0xFFFFF000u);
    EXPECT_EQ(run(false, true), 0xFFF01000u);
    EXPECT_EQ(run(false, false), 0x000FF000u);
}

// Result(r, n) = sum_k A(r, k) B(k, n) + C(r, n): A selects row r + 3 of B, so Result(r, n) = B(r + 3, n) +
// C(r, n). Goes through the lane layouts both ways first.
TEST(MmaReference, IntegerRowTimesColumnOrientation) {
    MmaShape s = int8Shape(true, true);
    s.m = 4;
    RawMatrix a(4, 32), b(32, 8), c(4, 8);
    for (uint32_t r = 0; r < 4; ++r) a.at(r, r + 3) = 1;
    for (uint32_t k = 0; k < 32; ++k)
        for (uint32_t n = 0; n < 8; ++n) b.at(k, n) = (k * 8 + n - 128) & 0xFF;  // value k*8+n-128
    for (uint32_t r = 0; r < 4; ++r)
        for (uint32_t n = 0; n < 8; ++n) c.at(r, n) = 1000 * r + n;
    RawMatrix res = mmaInteger(s, unpackA(s, packA(s, a)), unpackB(s, packB(s, b)), unpackC(s, packC(s, c)));
    EXPECT_EQ(res.at(0, 0), uint32_t(-104));  // 24 - 128 + 0
    EXPECT_EQ(res.at(3, 7), 2934u);           // 55 - 128 + 3007
    EXPECT_EQ(res.at(2, 1), uint32_t(41 - 128 + 2001));
    for (uint32_t r = 0; r < 4; ++r)
        for (uint32_t n = 0; n < 8; ++n)
            EXPECT_EQ(int32_t(res.at(r, n)), int32_t((r + 3) * 8 + n) - 128 + int32_t(1000 * r + n))
                << r << n;
}

// ---------------------------------------------------------------------------------------------------------
// Decoding.

TEST(MmaReference, ElementValueDecodesEachFormat) {
    EXPECT_EQ(elementValue(MmaElement::Int8, true, 0x80), -128.0);
    EXPECT_EQ(elementValue(MmaElement::Int8, false, 0x80), 128.0);
    EXPECT_EQ(elementValue(MmaElement::Int8, true, 0x7F), 127.0);
    EXPECT_EQ(elementValue(MmaElement::Int4, true, 0x8), -8.0);
    EXPECT_EQ(elementValue(MmaElement::Int4, true, 0xF), -1.0);
    EXPECT_EQ(elementValue(MmaElement::Int4, false, 0xF), 15.0);
    // fp16, including denormals.
    EXPECT_EQ(elementValue(MmaElement::Fp16, false, 0x0001), std::ldexp(1.0, -24));
    EXPECT_EQ(elementValue(MmaElement::Fp16, false, 0x03FF), std::ldexp(1023.0, -24));
    EXPECT_EQ(elementValue(MmaElement::Fp16, false, 0x0400), std::ldexp(1.0, -14));
    EXPECT_EQ(elementValue(MmaElement::Fp16, false, 0x3C00), 1.0);
    EXPECT_EQ(elementValue(MmaElement::Fp16, false, 0x3C01), 1.0 + std::ldexp(1.0, -10));
    EXPECT_EQ(elementValue(MmaElement::Fp16, false, 0xC000), -2.0);
    EXPECT_EQ(elementValue(MmaElement::Fp16, false, 0x7BFF), 65504.0);
    EXPECT_TRUE(std::signbit(elementValue(MmaElement::Fp16, false, 0x8000)));
    EXPECT_EQ(elementValue(MmaElement::Fp16, false, 0x7C00), std::numeric_limits<double>::infinity());
    EXPECT_TRUE(std::isnan(elementValue(MmaElement::Fp16, false, 0x7E00)));
    // bf16: the top 16 bits of an fp32.
    EXPECT_EQ(elementValue(MmaElement::Bf16, false, 0x3F80), 1.0);
    EXPECT_EQ(elementValue(MmaElement::Bf16, false, 0xC040), -3.0);
    EXPECT_EQ(elementValue(MmaElement::Bf16, false, 0x3F81), 1.0 + std::ldexp(1.0, -7));
    EXPECT_EQ(elementValue(MmaElement::Bf16, false, 0x0001), std::ldexp(1.0, -133));
    EXPECT_EQ(elementValue(MmaElement::Bf16, false, 0x7F7F), std::ldexp(255.0, 120));
    // tf32: an fp32 whose low 13 significand bits are ignored.
    EXPECT_EQ(elementValue(MmaElement::Tf32, false, 0x3F800000), 1.0);
    EXPECT_EQ(elementValue(MmaElement::Tf32, false, 0x3F801FFF), 1.0);
    EXPECT_EQ(elementValue(MmaElement::Tf32, false, 0x3F802000), 1.0 + std::ldexp(1.0, -10));
    EXPECT_EQ(elementValue(MmaElement::Tf32, false, 0xBF803FFF), -(1.0 + std::ldexp(1.0, -10)));
    EXPECT_EQ(elementValue(MmaElement::Tf32, false, 0x00002000), std::ldexp(1.0, -136));
    EXPECT_EQ(elementValue(MmaElement::Tf32, false, 0x00001FFF), 0.0);
}

TEST(MmaReference, AccumulatorValueDecodesEachFormat) {
    EXPECT_EQ(accumulatorValue(MmaAccumulator::Int32, 0xFFFFFFFF), -1.0);
    EXPECT_EQ(accumulatorValue(MmaAccumulator::Int32, 0x80000000), -2147483648.0);
    EXPECT_EQ(accumulatorValue(MmaAccumulator::Int32, 0x7FFFFFFF), 2147483647.0);
    EXPECT_EQ(accumulatorValue(MmaAccumulator::Fp32, 0x3F800001), 1.0 + std::ldexp(1.0, -23));
    EXPECT_EQ(accumulatorValue(MmaAccumulator::Fp32, 0x00000001), std::ldexp(1.0, -149));
    EXPECT_EQ(accumulatorValue(MmaAccumulator::Fp32, 0xC1B80000), -23.0);
    EXPECT_EQ(accumulatorValue(MmaAccumulator::Fp16, 0x4C00), 16.0);
    EXPECT_EQ(accumulatorValue(MmaAccumulator::Fp16, 0x0001), std::ldexp(1.0, -24));
    EXPECT_EQ(accumulatorValue(MmaAccumulator::Bf16, 0x3FC0), 1.5);
    EXPECT_TRUE(std::isinf(accumulatorValue(MmaAccumulator::Fp32, 0xFF800000)));
}

// ---------------------------------------------------------------------------------------------------------
// Float results: exact value, magnitude and bound.

// fp16 inputs, fp32 result, N = 8, K = 16: A(r, k) = r + 1, B(k, n) = k % 4 - 1 (-1, 0, 1, 2), C(r, n) = n.
// Exact (r + 1) * 4 * 2 + n; magnitude (r + 1) * 4 * 4 + n; bound 18 * 2^-23 * magnitude + 18 * 2^-126.
TEST(MmaReference, FloatSmallIntegersAreExactAndBounded) {
    MmaShape s = shape(8, 16, 2, MmaElement::Fp16, MmaAccumulator::Fp32);
    RawMatrix a(2, 16), b(16, 8), c(2, 8);
    for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t k = 0; k < 16; ++k) a.at(r, k) = encodeExact(MmaElement::Fp16, r + 1.0);
    for (uint32_t k = 0; k < 16; ++k)
        for (uint32_t n = 0; n < 8; ++n) b.at(k, n) = encodeExact(MmaElement::Fp16, double(k % 4) - 1);
    for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t n = 0; n < 8; ++n) c.at(r, n) = encodeExactAccumulator(MmaAccumulator::Fp32, n);
    EXPECT_EQ(b.at(0, 0), 0xBC00u);  // -1.0 in fp16
    auto e = mmaFloat(s, a, b, c);
    ASSERT_EQ(e.size(), 16u);
    EXPECT_EQ(e[0].exact, 8.0);
    EXPECT_EQ(e[0].magnitude, 16.0);
    const FloatExpectation& x = e[1 * 8 + 7];  // row 1, column 7
    EXPECT_EQ(x.exact, 23.0);
    EXPECT_EQ(x.magnitude, 39.0);
    EXPECT_EQ(x.bound, std::ldexp(18.0 * 39, -23) + std::ldexp(18.0, -126));
    // 23.0f = 0x41B80000, ulp 2^-19 = 16 * 2^-23; the bound is 702 * 2^-23 (+ 18 * 2^-126): 43 ulps pass,
    // 44 do not, either side.
    EXPECT_TRUE(floatResultAcceptable(MmaAccumulator::Fp32, x, 0x41B80000));
    EXPECT_TRUE(floatResultAcceptable(MmaAccumulator::Fp32, x, 0x41B80000 + 1));
    EXPECT_TRUE(floatResultAcceptable(MmaAccumulator::Fp32, x, 0x41B80000 + 43));
    EXPECT_FALSE(floatResultAcceptable(MmaAccumulator::Fp32, x, 0x41B80000 + 44));
    EXPECT_TRUE(floatResultAcceptable(MmaAccumulator::Fp32, x, 0x41B80000 - 43));
    EXPECT_FALSE(floatResultAcceptable(MmaAccumulator::Fp32, x, 0x41B80000 - 44));
    EXPECT_FALSE(floatResultAcceptable(MmaAccumulator::Fp32, x, 0xC1B80000));  // -23
    EXPECT_FALSE(floatResultAcceptable(MmaAccumulator::Fp32, x, 0x7FC00000));  // NaN
    EXPECT_FALSE(floatResultAcceptable(MmaAccumulator::Fp32, x, 0x7F800000));  // +inf
    EXPECT_FALSE(floatResultAcceptable(MmaAccumulator::Fp32, x, 0xFF800000));  // -inf
    // Every element: exact bits accepted.
    for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t n = 0; n < 8; ++n)
            EXPECT_TRUE(
                floatResultAcceptable(MmaAccumulator::Fp32, e[r * 8 + n],
                                      encodeExactAccumulator(MmaAccumulator::Fp32, 8.0 * (r + 1) + n)));
}

// fp16 result, N = K = 16: sixteen 1 x 1 products give 16 (0x4C00). Bound 18 * 2^-10 * 16 + 18 * 2^-14 =
// 0.28125 + 0.0010986328125. Above 16 the ulp is 2^-6 (18 ulps pass, 19 fail); below it is 2^-7 (36 pass,
// 37 fail).
TEST(MmaReference, FloatFp16ResultBoundInUlps) {
    MmaShape s = shape(16, 16, 1, MmaElement::Fp16, MmaAccumulator::Fp16);
    RawMatrix c(1, 16);
    auto e = mmaFloat(s, filled(1, 16, 0x3C00), filled(16, 16, 0x3C00), c);
    EXPECT_EQ(e[0].exact, 16.0);
    EXPECT_EQ(e[0].magnitude, 16.0);
    EXPECT_EQ(e[0].bound, 0.28125 + 0.0010986328125);
    EXPECT_TRUE(floatResultAcceptable(MmaAccumulator::Fp16, e[0], 0x4C00));
    EXPECT_TRUE(floatResultAcceptable(MmaAccumulator::Fp16, e[0], 0x4C00 + 18));
    EXPECT_FALSE(floatResultAcceptable(MmaAccumulator::Fp16, e[0], 0x4C00 + 19));
    EXPECT_TRUE(floatResultAcceptable(MmaAccumulator::Fp16, e[0], 0x4C00 - 36));
    EXPECT_FALSE(floatResultAcceptable(MmaAccumulator::Fp16, e[0], 0x4C00 - 37));
    EXPECT_FALSE(floatResultAcceptable(MmaAccumulator::Fp16, e[0], 0x7C00));  // inf
    EXPECT_FALSE(floatResultAcceptable(MmaAccumulator::Fp16, e[0], 0x7E00));  // NaN
    // Bits above 16 are ignored when decoding a 16-bit result (a sign-extended read of the component).
    EXPECT_TRUE(floatResultAcceptable(MmaAccumulator::Fp16, e[0], 0xFFFF4C00));
}

// All-zero data: only the denormal term is left, 18 * 2^-14 for an fp16 result (fp16 min normal 2^-14).
TEST(MmaReference, FloatZeroDataBoundIsTheFlushTerm) {
    MmaShape s = shape(16, 16, 1, MmaElement::Fp16, MmaAccumulator::Fp16);
    auto e = mmaFloat(s, RawMatrix(1, 16), RawMatrix(16, 16), RawMatrix(1, 16));
    EXPECT_EQ(e[3].exact, 0.0);
    EXPECT_EQ(e[3].magnitude, 0.0);
    EXPECT_EQ(e[3].bound, std::ldexp(18.0, -14));
    EXPECT_TRUE(floatResultAcceptable(MmaAccumulator::Fp16, e[3], 0x8000));   // -0
    EXPECT_TRUE(floatResultAcceptable(MmaAccumulator::Fp16, e[3], 0x0001));   // a denormal
    EXPECT_TRUE(floatResultAcceptable(MmaAccumulator::Fp16, e[3], 0x1400));   // 2^-10 <= 18 * 2^-14
    EXPECT_FALSE(floatResultAcceptable(MmaAccumulator::Fp16, e[3], 0x1500));  // 1.25 * 2^-10
}

// bf16 pair with bf16 C and Result (the i16 row): 16 * 0.5 * 0.25 - 0.5 = 1.5 (0x3FC0); magnitude 2.5;
// bound 18 * 2^-7 * 2.5 + 18 * 2^-126 = 0.3515625 + tiny: 45 ulps of 2^-7 pass, 46 fail.
TEST(MmaReference, FloatBf16Result) {
    MmaShape s = shape(16, 16, 1, MmaElement::Bf16, MmaAccumulator::Bf16);
    ASSERT_EQ(encodeExact(MmaElement::Bf16, 0.5), 0x3F00u);
    ASSERT_EQ(encodeExact(MmaElement::Bf16, 0.25), 0x3E80u);
    auto e = mmaFloat(s, filled(1, 16, 0x3F00), filled(16, 16, 0x3E80), filled(1, 16, 0xBF00));
    EXPECT_EQ(e[0].exact, 1.5);
    EXPECT_EQ(e[0].magnitude, 2.5);
    EXPECT_EQ(e[0].bound, 0.3515625 + std::ldexp(18.0, -126));
    EXPECT_TRUE(floatResultAcceptable(MmaAccumulator::Bf16, e[0], 0x3FC0));
    EXPECT_TRUE(floatResultAcceptable(MmaAccumulator::Bf16, e[0], 0x3FC0 + 45));
    EXPECT_FALSE(floatResultAcceptable(MmaAccumulator::Bf16, e[0], 0x3FC0 + 46));
    EXPECT_FALSE(floatResultAcceptable(MmaAccumulator::Bf16, e[0], 0x7F80));
}

// tf32, N = 16, K = 8: A = 0x3F801FFF is 1.0 (low 13 bits ignored), B = 2.0, C = 0.5: 8 * 2 + 0.5 = 16.5;
// bound (8 + 2) * 2^-23 * 16.5 + 10 * 2^-126 = 165 * 2^-23 + 10 * 2^-126.
TEST(MmaReference, FloatTf32IgnoresLowBitsAndBoundFormula) {
    MmaShape s = shape(16, 8, 2, MmaElement::Tf32, MmaAccumulator::Fp32);
    auto e = mmaFloat(s, filled(2, 8, 0x3F801FFF), filled(8, 16, 0x40000000), filled(2, 16, 0x3F000000));
    ASSERT_EQ(e.size(), 32u);
    EXPECT_EQ(e[31].exact, 16.5);
    EXPECT_EQ(e[31].magnitude, 16.5);
    EXPECT_EQ(e[31].bound, std::ldexp(165.0, -23) + std::ldexp(10.0, -126));
    EXPECT_TRUE(floatResultAcceptable(MmaAccumulator::Fp32, e[31], 0x41840000));  // 16.5f
}

// The exact value does not depend on summation order: 2^60 + 1 - 2^60 is 1 (a left-to-right double sum
// gives 0); the magnitude 2^61 + 1 rounds to 2^61.
TEST(MmaReference, FloatExactIsIndependentOfOrder) {
    MmaShape s = shape(16, 8, 1, MmaElement::Tf32, MmaAccumulator::Fp32);
    RawMatrix a(1, 8), b(8, 16), c(1, 16);
    const double p30 = std::ldexp(1.0, 30);
    a.at(0, 0) = encodeExact(MmaElement::Tf32, p30);
    b.at(0, 0) = encodeExact(MmaElement::Tf32, p30);
    a.at(0, 1) = encodeExact(MmaElement::Tf32, 1.0);
    b.at(1, 0) = encodeExact(MmaElement::Tf32, 1.0);
    a.at(0, 2) = encodeExact(MmaElement::Tf32, -p30);
    b.at(2, 0) = encodeExact(MmaElement::Tf32, p30);
    auto e = mmaFloat(s, a, b, c);
    EXPECT_EQ(e[0].exact, 1.0);
    EXPECT_EQ(e[0].magnitude, std::ldexp(1.0, 61));
    EXPECT_EQ(e[1].exact, 0.0);  // column 1 of B is zero
}

TEST(MmaReference, FloatRejectsNonFiniteInputs) {
    MmaShape s = shape(16, 16, 1, MmaElement::Fp16, MmaAccumulator::Fp32);
    RawMatrix a(1, 16);
    a.at(0, 5) = 0x7C00;  // inf
    EXPECT_THROW(mmaFloat(s, a, RawMatrix(16, 16), RawMatrix(1, 16)), std::invalid_argument);
    EXPECT_THROW(mmaFloat(s, RawMatrix(1, 16), RawMatrix(16, 16), filled(1, 16, 0x7FC00000)),
                 std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------------------
// Encoding.

TEST(MmaReference, EncodeExactFloatValues) {
    EXPECT_EQ(encodeExact(MmaElement::Fp16, 1.0), 0x3C00u);
    EXPECT_EQ(encodeExact(MmaElement::Fp16, -2.0), 0xC000u);
    EXPECT_EQ(encodeExact(MmaElement::Fp16, 1.0 + std::ldexp(1.0, -10)), 0x3C01u);
    EXPECT_EQ(encodeExact(MmaElement::Fp16, std::ldexp(1.0, -24)), 0x0001u);
    EXPECT_EQ(encodeExact(MmaElement::Fp16, std::ldexp(1023.0, -24)), 0x03FFu);
    EXPECT_EQ(encodeExact(MmaElement::Fp16, 65504.0), 0x7BFFu);
    EXPECT_EQ(encodeExact(MmaElement::Fp16, -0.0), 0x8000u);
    EXPECT_EQ(encodeExact(MmaElement::Fp16, 0.0), 0x0000u);
    EXPECT_EQ(encodeExact(MmaElement::Fp16, std::numeric_limits<double>::infinity()), 0x7C00u);
    EXPECT_THROW(encodeExact(MmaElement::Fp16, 1.0 + std::ldexp(1.0, -11)), std::invalid_argument);
    EXPECT_THROW(encodeExact(MmaElement::Fp16, 65520.0), std::invalid_argument);  // out of range
    EXPECT_THROW(encodeExact(MmaElement::Fp16, 65536.0), std::invalid_argument);
    EXPECT_THROW(encodeExact(MmaElement::Fp16, std::ldexp(1.0, -25)), std::invalid_argument);
    EXPECT_THROW(encodeExact(MmaElement::Fp16, 0.1), std::invalid_argument);
    EXPECT_THROW(encodeExact(MmaElement::Fp16, std::nan("")), std::invalid_argument);

    EXPECT_EQ(encodeExact(MmaElement::Bf16, 1.0), 0x3F80u);
    EXPECT_EQ(encodeExact(MmaElement::Bf16, -3.0), 0xC040u);
    EXPECT_EQ(encodeExact(MmaElement::Bf16, 1.0 + std::ldexp(1.0, -7)), 0x3F81u);
    EXPECT_EQ(encodeExact(MmaElement::Bf16, std::ldexp(1.0, -133)), 0x0001u);
    EXPECT_THROW(encodeExact(MmaElement::Bf16, 1.0 + std::ldexp(1.0, -8)), std::invalid_argument);
    EXPECT_THROW(encodeExact(MmaElement::Bf16, std::ldexp(1.0, 128)), std::invalid_argument);

    EXPECT_EQ(encodeExact(MmaElement::Tf32, 1.0), 0x3F800000u);
    EXPECT_EQ(encodeExact(MmaElement::Tf32, 1.0 + std::ldexp(1.0, -10)), 0x3F802000u);
    EXPECT_EQ(encodeExact(MmaElement::Tf32, std::ldexp(1.0, -136)), 0x00002000u);
    EXPECT_THROW(encodeExact(MmaElement::Tf32, 1.0 + std::ldexp(1.0, -11)), std::invalid_argument);
    EXPECT_THROW(encodeExact(MmaElement::Tf32, std::ldexp(1.0, -149)), std::invalid_argument);

    EXPECT_EQ(encodeExactAccumulator(MmaAccumulator::Fp32, 1.0 + std::ldexp(1.0, -23)), 0x3F800001u);
    EXPECT_EQ(encodeExactAccumulator(MmaAccumulator::Fp32, std::ldexp(1.0, -149)), 0x00000001u);
    EXPECT_EQ(encodeExactAccumulator(MmaAccumulator::Fp32, -23.0), 0xC1B80000u);
    EXPECT_EQ(encodeExactAccumulator(MmaAccumulator::Fp32, std::ldexp(0xFFFFFF, 104)), 0x7F7FFFFFu);
    EXPECT_THROW(encodeExactAccumulator(MmaAccumulator::Fp32, 1.0 + std::ldexp(1.0, -24)),
                 std::invalid_argument);
    EXPECT_THROW(encodeExactAccumulator(MmaAccumulator::Fp32, 1e39), std::invalid_argument);
    EXPECT_THROW(encodeExactAccumulator(MmaAccumulator::Fp32, std::ldexp(1.0, -150)), std::invalid_argument);
    EXPECT_EQ(encodeExactAccumulator(MmaAccumulator::Fp16, 16.0), 0x4C00u);
    EXPECT_EQ(encodeExactAccumulator(MmaAccumulator::Bf16, 1.5), 0x3FC0u);
}

// Integers: two's complement bits masked to the width, for integral values in [-2^(w-1), 2^w - 1] (both
// the signed and the unsigned reading).
TEST(MmaReference, EncodeExactIntegerValues) {
    EXPECT_EQ(encodeExact(MmaElement::Int8, -128), 0x80u);
    EXPECT_EQ(encodeExact(MmaElement::Int8, -1), 0xFFu);
    EXPECT_EQ(encodeExact(MmaElement::Int8, 255), 0xFFu);
    EXPECT_EQ(encodeExact(MmaElement::Int8, 7), 0x07u);
    EXPECT_THROW(encodeExact(MmaElement::Int8, 256), std::invalid_argument);
    EXPECT_THROW(encodeExact(MmaElement::Int8, -129), std::invalid_argument);
    EXPECT_THROW(encodeExact(MmaElement::Int8, 0.5), std::invalid_argument);
    EXPECT_EQ(encodeExact(MmaElement::Int4, -8), 0x8u);
    EXPECT_EQ(encodeExact(MmaElement::Int4, 15), 0xFu);
    EXPECT_THROW(encodeExact(MmaElement::Int4, 16), std::invalid_argument);
    EXPECT_THROW(encodeExact(MmaElement::Int4, -9), std::invalid_argument);
    EXPECT_EQ(encodeExactAccumulator(MmaAccumulator::Int32, -1), 0xFFFFFFFFu);
    EXPECT_EQ(encodeExactAccumulator(MmaAccumulator::Int32, -2147483648.0), 0x80000000u);
    EXPECT_EQ(encodeExactAccumulator(MmaAccumulator::Int32, 4294967295.0), 0xFFFFFFFFu);
    EXPECT_THROW(encodeExactAccumulator(MmaAccumulator::Int32, 4294967296.0), std::invalid_argument);
    EXPECT_THROW(encodeExactAccumulator(MmaAccumulator::Int32, std::nan("")), std::invalid_argument);
}

// decode(encode(v)) == v and encode(decode(bits)) == bits for every non-NaN fp16, bf16 and tf32 code, and a
// sample of fp32 codes.
TEST(MmaReference, EncodeDecodeRoundTrips) {
    for (uint32_t bits = 0; bits < 0x10000; ++bits) {
        double h = elementValue(MmaElement::Fp16, false, bits);
        if (!std::isnan(h)) {
            ASSERT_EQ(encodeExact(MmaElement::Fp16, h), bits) << std::hex << bits;
        }
        double b = elementValue(MmaElement::Bf16, false, bits);
        if (!std::isnan(b)) {
            ASSERT_EQ(encodeExact(MmaElement::Bf16, b), bits) << std::hex << bits;
        }
    }
    for (uint32_t code = 0; code < (1u << 19); ++code) {
        uint32_t bits = code << 13;
        double t = elementValue(MmaElement::Tf32, false, bits | 0x1ABC);  // low bits ignored
        if (!std::isnan(t)) {
            ASSERT_EQ(encodeExact(MmaElement::Tf32, t), bits) << std::hex << bits;
        }
    }
    for (uint64_t bits = 0; bits <= 0xFFFFFFFFu; bits += 65521) {
        double f = accumulatorValue(MmaAccumulator::Fp32, uint32_t(bits));
        if (std::isnan(f)) continue;
        ASSERT_EQ(encodeExactAccumulator(MmaAccumulator::Fp32, f), uint32_t(bits)) << std::hex << bits;
        float as_float;
        uint32_t u = uint32_t(bits);
        std::memcpy(&as_float, &u, 4);
        ASSERT_EQ(f, double(as_float)) << std::hex << bits;  // agrees with the host's fp32
    }
}

}  // namespace
}  // namespace cts::reference
