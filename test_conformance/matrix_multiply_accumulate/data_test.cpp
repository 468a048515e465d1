// Tests of the MMA cases' operand data: each class keeps the promise data.h makes, measured with the host
// reference (exact data stays exact through a whole chain, extremes are extreme, near_max stays finite).
#include "test_conformance/matrix_multiply_accumulate/data.h"

#include <gtest/gtest.h>

#include <cmath>

#include "test_common/harness/model/case.h"

namespace cts::mma {
namespace {

using reference::MmaAccumulator;
using reference::MmaElement;
using reference::MmaShape;

MmaShape floatShape(MmaElement e, MmaAccumulator acc, uint32_t n, uint32_t k) {
    return MmaShape{n, k, 8, e, e, false, false, acc, acc};
}

// The largest |partial sum| any order of the chain can reach: sum of |a_k b_k| over every step plus |c|.
double chainMagnitude(const MmaShape& s, const std::vector<Operands>& steps) {
    double worst = 0;
    for (uint32_t r = 0; r < s.m; ++r)
        for (uint32_t n = 0; n < s.n; ++n) {
            double m = std::fabs(reference::accumulatorValue(s.c, steps[0].c.at(r, n)));
            for (const Operands& o : steps)
                for (uint32_t k = 0; k < s.k; ++k)
                    m += std::fabs(reference::elementValue(s.a, s.a_signed, o.a.at(r, k)) *
                                   reference::elementValue(s.b, s.b_signed, o.b.at(k, n)));
            worst = std::max(worst, m);
        }
    return worst;
}

TEST(MmaData, ExactChainsStayWithinTheResultFormatsExactIntegers) {
    struct Row {
        MmaShape shape;
        double limit;
    };
    const Row rows[] = {{floatShape(MmaElement::Bf16, MmaAccumulator::Bf16, 16, 16), 256},
                        {floatShape(MmaElement::Fp16, MmaAccumulator::Fp16, 16, 16), 2048},
                        {floatShape(MmaElement::Fp16, MmaAccumulator::Fp32, 8, 16), 16777216},
                        {floatShape(MmaElement::Tf32, MmaAccumulator::Fp32, 16, 8), 16777216}};
    std::mt19937_64 rng(7);
    for (const Row& row : rows)
        for (uint32_t steps : {1u, 4u}) {
            std::vector<Operands> chain;
            for (uint32_t t = 0; t < steps; ++t)
                chain.push_back(makeOperands(row.shape, DataClass::Exact, steps, t, rng));
            EXPECT_LE(chainMagnitude(row.shape, chain), row.limit) << row.shape.str() << " steps " << steps;
        }
    // bf16 results over four steps of K = 16 cannot use elements of 3: the limit shrinks.
    EXPECT_EQ(exactElementLimit(floatShape(MmaElement::Bf16, MmaAccumulator::Bf16, 16, 16), 4), 1);
    EXPECT_EQ(exactElementLimit(floatShape(MmaElement::Fp16, MmaAccumulator::Fp32, 16, 16), 4), 3);
}

TEST(MmaData, ExtremesAreTheRangeEndsAndCWrapsBothWays) {
    std::mt19937_64 rng(1);
    MmaShape s{16,
               32,
               2,
               MmaElement::Int8,
               MmaElement::Int8,
               true,
               false,
               MmaAccumulator::Int32,
               MmaAccumulator::Int32};
    Operands o = makeOperands(s, DataClass::Extremes, 1, 0, rng);
    EXPECT_EQ(o.a.at(1, 31), 0x80u);   // -128, signed
    EXPECT_EQ(o.b.at(31, 15), 0xffu);  // 255, unsigned
    EXPECT_EQ(o.c.at(0, 0), 0x7fffffffu);
    EXPECT_EQ(o.c.at(1, 0), 0x80000000u);
    s.a = s.b = MmaElement::Int4, s.k = 64, s.a_signed = false, s.b_signed = true;
    o = makeOperands(s, DataClass::Extremes, 1, 0, rng);
    EXPECT_EQ(o.a.at(0, 63), 0xfu);  // 15, unsigned
    EXPECT_EQ(o.b.at(0, 0), 0x8u);   // -8, signed
}

TEST(MmaData, NearMaxStaysBelowTheFp16MaximumInEveryOrder) {
    std::mt19937_64 rng(3);
    MmaShape s = floatShape(MmaElement::Fp16, MmaAccumulator::Fp16, 16, 16);
    for (int i = 0; i < 20; ++i) {
        Operands o = makeOperands(s, DataClass::NearMax, 1, 0, rng);
        double m = chainMagnitude(s, {o});
        EXPECT_LT(m, 0.9 * 65504) << i;
        EXPECT_GT(m, 0.75 * 65504) << i;  // near the maximum, not merely finite
    }
}

TEST(MmaData, PositionDataDependsOnRowAndColumn) {
    std::mt19937_64 rng(0);
    MmaShape s{8,
               32,
               4,
               MmaElement::Int8,
               MmaElement::Int8,
               false,
               false,
               MmaAccumulator::Int32,
               MmaAccumulator::Int32};
    Operands o = makeOperands(s, DataClass::Position, 1, 0, rng);
    EXPECT_NE(o.a.at(0, 1), o.a.at(1, 0));
    EXPECT_NE(o.b.at(0, 1), o.b.at(1, 0));
    EXPECT_NE(o.c.at(0, 1), o.c.at(1, 0));
    Operands again = makeOperands(s, DataClass::Position, 1, 0, rng);
    EXPECT_EQ(o.a.bits, again.a.bits);  // from position alone, not from the generator
}

TEST(MmaData, PoisonFillsExactlyTheIgnoredAComponents) {
    // TF32, N = 16, K = 8, M = 1: lanes 8..15 pass row 1, beyond M; each gets its own non-zero poison, and A
    // as the spec reads it is unchanged.
    MmaShape s = floatShape(MmaElement::Tf32, MmaAccumulator::Fp32, 16, 8);
    s.m = 1;
    std::mt19937_64 rng(7);
    const Operands o = makeOperands(s, DataClass::Exact, 1, 0, rng);
    const reference::LaneData clean = reference::packA(s, o.a);
    reference::LaneData poisoned = clean;
    poisonIgnoredA(s, poisoned);
    for (uint32_t lane = 0; lane < 16; ++lane) {
        EXPECT_EQ(poisoned[lane][0] != clean[lane][0], lane >= 8) << "lane " << lane;
        if (lane >= 8) EXPECT_NE(poisoned[lane][0], 0u);
        if (lane > 8) EXPECT_NE(poisoned[lane][0], poisoned[lane - 1][0]);
    }
    EXPECT_EQ(reference::unpackA(s, poisoned).bits, o.a.bits);
    // M = 2 and N = K leave nothing ignored.
    s.m = 2;
    reference::LaneData full = reference::packA(s, makeOperands(s, DataClass::Exact, 1, 0, rng).a);
    reference::LaneData same = full;
    poisonIgnoredA(s, same);
    EXPECT_EQ(same, full);
    MmaShape fp16 = floatShape(MmaElement::Fp16, MmaAccumulator::Fp32, 16, 16);
    reference::LaneData f = reference::packA(fp16, makeOperands(fp16, DataClass::Exact, 1, 0, rng).a), g = f;
    poisonIgnoredA(fp16, g);
    EXPECT_EQ(g, f);
}

TEST(MmaData, ClassesThatDoNotFitTheFormatsAreRefused) {
    MmaShape ints{8,
                  32,
                  1,
                  MmaElement::Int8,
                  MmaElement::Int8,
                  false,
                  false,
                  MmaAccumulator::Int32,
                  MmaAccumulator::Int32};
    EXPECT_THROW(parseDataClass("random", ints), InternalError);
    EXPECT_THROW(parseDataClass("near_max", ints), InternalError);
    EXPECT_THROW(parseDataClass("bogus", ints), InternalError);
    EXPECT_THROW(parseDataClass("full_range", floatShape(MmaElement::Fp16, MmaAccumulator::Fp32, 8, 16)),
                 InternalError);
    EXPECT_EQ(parseDataClass("extremes", ints), DataClass::Extremes);
}

}  // namespace
}  // namespace cts::mma
