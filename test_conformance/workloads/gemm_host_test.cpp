// The workloads' plain host GEMM against the per-instruction host reference (test_common/reference/mma.h):
// one 8 x 16 tile computed both ways must agree, so each is a check on the other.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "test_common/reference/mma.h"
#include "test_conformance/workloads/gemm_host.h"

namespace cts::workloads {
namespace {

using reference::MmaAccumulator;
using reference::MmaElement;

struct Row {
    const char* format;
    MmaElement element;
    MmaAccumulator accumulator;
    const char* data;
};

void PrintTo(const Row& r, std::ostream* os) {
    *os << r.format << "/" << r.data;
}

class GemmHostVsReference : public ::testing::TestWithParam<Row> {};

TEST_P(GemmHostVsReference, OneTileAgrees) {
    const Row& row = GetParam();
    const FormatInfo& f = gemmFormat(row.format);
    const uint32_t m = 8, n = 16, k = f.k_step;
    std::mt19937_64 rng(42);
    const auto a = makeElements(f, row.data, size_t(m) * k, rng);
    const auto b = makeElements(f, row.data, size_t(k) * n, rng);
    const bool is_signed = f.integer;
    const GemmExpectation host = hostGemm(f, is_signed, std::string(row.data) == "exact", m, n, k, a, b);

    reference::MmaShape s{
        16, k, m, row.element, row.element, is_signed, is_signed, row.accumulator, row.accumulator};
    reference::RawMatrix ra(m, k), rb(k, n), rc(m, n);
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t t = 0; t < k; ++t) ra.at(i, t) = a[size_t(i) * k + t];
    for (uint32_t t = 0; t < k; ++t)
        for (uint32_t j = 0; j < n; ++j) rb.at(t, j) = b[size_t(t) * n + j];
    if (f.integer) {
        const reference::RawMatrix want = reference::mmaInteger(s, ra, rb, rc);
        for (uint32_t i = 0; i < m; ++i)
            for (uint32_t j = 0; j < n; ++j)
                EXPECT_EQ(uint32_t(int32_t(host.value[size_t(i) * n + j])), want.at(i, j)) << i << "," << j;
        return;
    }
    const auto want = reference::mmaFloat(s, ra, rb, rc);
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t j = 0; j < n; ++j) {
            EXPECT_EQ(host.value[size_t(i) * n + j], want[size_t(i) * n + j].exact) << i << "," << j;
            // One MMA step: the host's chained bound is at least the reference's single-MMA bound.
            if (std::string(row.data) != "exact")
                EXPECT_GE(host.bound[size_t(i) * n + j], want[size_t(i) * n + j].bound) << i << "," << j;
        }
}

INSTANTIATE_TEST_SUITE_P(Formats, GemmHostVsReference,
                         ::testing::Values(Row{"int8", MmaElement::Int8, MmaAccumulator::Int32, "full_range"},
                                           Row{"fp16_fp32", MmaElement::Fp16, MmaAccumulator::Fp32, "random"},
                                           Row{"fp16_fp16", MmaElement::Fp16, MmaAccumulator::Fp16, "random"},
                                           Row{"bf16_fp32", MmaElement::Bf16, MmaAccumulator::Fp32, "random"},
                                           Row{"bf16_bf16", MmaElement::Bf16, MmaAccumulator::Bf16, "exact"},
                                           Row{"tf32_fp32", MmaElement::Tf32, MmaAccumulator::Fp32,
                                               "random"}));

TEST(GemmHost, ElementCodecsRoundTrip) {
    for (const char* name : {"fp16_fp32", "bf16_fp32", "tf32_fp32"}) {
        const FormatInfo& f = gemmFormat(name);
        for (double v : {0.0, 1.0, -2.0, 0.5, -1.75, 0.0078125})
            EXPECT_EQ(decodeElement(f, encodeElement(f, v), false), v) << name << " " << v;
    }
    EXPECT_EQ(decodeElement(gemmFormat("int8"), 0x80, true), -128.0);
    EXPECT_EQ(decodeElement(gemmFormat("int8"), 0x80, false), 128.0);
    EXPECT_EQ(encodeElement(gemmFormat("fp16_fp32"), 1.0), 0x3c00u);
    EXPECT_EQ(encodeElement(gemmFormat("bf16_fp32"), 1.0), 0x3f80u);
}

TEST(GemmHost, ExactDataKeepsSixteenBitAccumulatorsExact) {
    // bf16 accumulators hold integers exactly up to 256: the exact class must stay below in any order.
    const FormatInfo& f = gemmFormat("bf16_bf16");
    std::mt19937_64 rng(7);
    const auto a = makeElements(f, "exact", 64, rng);
    double sum = 0;
    for (uint32_t bits : a) sum += std::fabs(decodeElement(f, bits, false)) * 2;  // |b| <= 2
    EXPECT_LE(sum, 256.0);
}

TEST(GemmHost, AcceptsOnlyWithinTheBound) {
    const FormatInfo& f = gemmFormat("fp16_fp32");
    EXPECT_TRUE(accepts(f, 1.0, 0.0, 0x3f800000));
    EXPECT_FALSE(accepts(f, 1.0, 0.0, 0x3f800001));
    EXPECT_TRUE(accepts(f, 1.0, 1e-6, 0x3f800001));
    EXPECT_FALSE(accepts(f, 1.0, 1e30, 0x7fc00000));  // NaN never
    EXPECT_FALSE(accepts(gemmFormat("int8"), -1.0, 0.0, 0xfffffffe));
    EXPECT_TRUE(accepts(gemmFormat("int8"), -1.0, 0.0, 0xffffffff));
}

}  // namespace
}  // namespace cts::workloads
