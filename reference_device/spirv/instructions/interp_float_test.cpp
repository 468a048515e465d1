// Float family and conversions: IEEE half conversions (exhaustive round trip, directed rounding, values
// checked against a brute-force nearest-half search), saturating float->int, integer width conversions.
#include <cmath>
#include <random>

#include "reference_device/spirv/test_util.h"

namespace refdev::spirv::test {
namespace {

class FloatConvert : public ::testing::Test {
protected:
    static void SetUpTestSuite() { module_ = build(assembleFixture("float_convert.spvasm")); }
    static void TearDownTestSuite() { module_.reset(); }
    static std::shared_ptr<const Module> module_;
};
std::shared_ptr<const Module> FloatConvert::module_;

// Value of a finite half bit pattern, computed from the format definition.
double halfValue(uint16_t h) {
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -v : v;
}

// Nearest half to x with ties to even, by binary search over the ordered positive half values.
uint16_t nearestHalf(float x) {
    if (std::isnan(x)) return 0x7e00;
    uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    double a = std::fabs(double(x));
    if (a >= 65520.0) return sign | 0x7c00;  // at or beyond the midpoint of 65504 and 2^16
    uint16_t lo = 0, hi = 0x7bff;
    while (lo < hi) {  // largest pattern with value <= a
        uint16_t mid = uint16_t((lo + hi + 1) / 2);
        if (halfValue(mid) <= a)
            lo = mid;
        else
            hi = uint16_t(mid - 1);
    }
    double below = halfValue(lo), above = halfValue(uint16_t(lo + 1));
    uint16_t pick = lo;
    if (lo < 0x7bff && (a - below > above - a || (a - below == above - a && (lo & 1))))
        pick = uint16_t(lo + 1);
    return sign | pick;
}

TEST_F(FloatConvert, FloatToHalfRoundsToNearestEven) {
    ASSERT_TRUE(module_);
    std::vector<float> in = {1.0f,
                             65504.0f,
                             65519.99f,
                             65520.0f,
                             std::ldexp(1.0f, -24),
                             std::ldexp(1.0f, -25),
                             3 * std::ldexp(1.0f, -25),
                             0.1f,
                             -0.0f,
                             -2.5f,
                             INFINITY,
                             -INFINITY,
                             1e-10f};
    std::mt19937 rng(7);
    for (int i = 0; i < 4000; ++i) {
        uint32_t bits = rng();
        float f;
        std::memcpy(&f, &bits, 4);
        if (std::isnan(f)) continue;
        in.push_back(std::ldexp(std::fmod(f, 1.0f), int(rng() % 44) - 28));  // spread over half's range
    }
    std::vector<uint16_t> out(in.size(), 0xdead);
    LaunchResult r = run(*module_, "to_half", {buffer(in), buffer(out)}, range1(in.size(), 1));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t i = 0; i < in.size(); ++i)
        ASSERT_EQ(out[i], nearestHalf(in[i])) << "input " << std::hexfloat << in[i] << " (index " << i << ")";
    EXPECT_EQ(out[0], 0x3c00);
    EXPECT_EQ(out[1], 0x7bff);
    EXPECT_EQ(out[3], 0x7c00);  // the tie at 65520 rounds to even: infinity
    EXPECT_EQ(out[5], 0x0000);  // 2^-25 is a tie between 0 and the smallest subnormal: even is 0
    EXPECT_EQ(out[6], 0x0002);
}

TEST_F(FloatConvert, FloatToHalfTowardZeroFromDecoration) {
    ASSERT_TRUE(module_);
    std::vector<float> in = {65520.0f, 1e9f, -1e9f, 1.0009765625f * 1.0004f, std::ldexp(1.0f, -26)};
    std::vector<uint16_t> out(in.size());
    ASSERT_TRUE(run(*module_, "to_half_rtz", {buffer(in), buffer(out)}, range1(in.size(), 1)).ok);
    EXPECT_EQ(out[0], 0x7bff);
    EXPECT_EQ(out[1], 0x7bff);
    EXPECT_EQ(out[2], 0xfbff);
    EXPECT_EQ(out[3], 0x3c01);
    EXPECT_EQ(out[4], 0x0000);
}

TEST_F(FloatConvert, HalfRoundTripIsExactForEveryPattern) {
    ASSERT_TRUE(module_);
    std::vector<uint16_t> halves(65536);
    for (uint32_t i = 0; i < 65536; ++i) halves[i] = uint16_t(i);
    std::vector<float> floats(65536);
    std::vector<uint16_t> back(65536);
    ASSERT_TRUE(run(*module_, "from_half", {buffer(halves), buffer(floats)}, range1(65536, 256)).ok);
    ASSERT_TRUE(run(*module_, "to_half", {buffer(floats), buffer(back)}, range1(65536, 256)).ok);
    for (uint32_t i = 0; i < 65536; ++i) {
        const bool nan = ((i >> 10) & 0x1f) == 0x1f && (i & 0x3ff);
        if (nan) {
            ASSERT_TRUE(std::isnan(floats[i])) << i;
            ASSERT_TRUE((back[i] & 0x7c00) == 0x7c00 && (back[i] & 0x3ff)) << i;
            continue;
        }
        if (((i >> 10) & 0x1f) != 0x1f) ASSERT_EQ(double(floats[i]), halfValue(uint16_t(i))) << i;
        ASSERT_EQ(back[i], i) << i;
    }
}

TEST_F(FloatConvert, SaturatingFloatToInt) {
    ASSERT_TRUE(module_);
    std::vector<float> in = {3e9f, -3e9f, NAN, -3.7f, 2.5f, 2147483520.0f};
    std::vector<uint32_t> out(2 * in.size());
    ASSERT_TRUE(run(*module_, "f2i_sat", {buffer(in), buffer(out)}, range1(in.size(), 1)).ok);
    EXPECT_EQ(out[0], 0x7fffffffu);
    EXPECT_EQ(out[2], 0x80000000u);
    EXPECT_EQ(out[4], 0u);
    EXPECT_EQ(int32_t(out[6]), -3);
    EXPECT_EQ(int32_t(out[7]), -3);
    EXPECT_EQ(out[8], 2u);
    EXPECT_EQ(out[10], 2147483520u);
}

TEST_F(FloatConvert, IntegerWidthConversions) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> in = {300, 0xffffffffu, 0x80, 0x12345678, 7};
    std::vector<uint32_t> out(4 * in.size());
    ASSERT_TRUE(run(*module_, "int_conv", {buffer(in), buffer(out)}, range1(in.size(), 1)).ok);
    for (size_t i = 0; i < in.size(); ++i) {
        const uint32_t x = in[i];
        EXPECT_EQ(out[4 * i + 0], std::min<uint32_t>(x, 255)) << i;
        EXPECT_EQ(out[4 * i + 1], uint32_t(int32_t(int8_t(uint8_t(x))))) << i;
        float f = float(x);
        uint32_t fb;
        std::memcpy(&fb, &f, 4);
        EXPECT_EQ(out[4 * i + 2], fb) << i;
        EXPECT_EQ(out[4 * i + 3], x & 0xffff) << i;
    }
}

TEST_F(FloatConvert, FloatArithmetic) {
    ASSERT_TRUE(module_);
    std::vector<float> in = {1.5f, -0.0f, 3.0f, 1e30f, -7.25f, std::nextafter(2.0f, 0.0f)};
    std::vector<float> out(4 * in.size());
    ASSERT_TRUE(run(*module_, "float_math", {buffer(in), buffer(out)}, range1(in.size(), 2)).ok);
    for (size_t i = 0; i < in.size(); ++i) {
        const float x = in[i];
        EXPECT_EQ(out[4 * i + 0], x * 2.0f + x) << i;
        EXPECT_EQ(out[4 * i + 1], float(double(x) / 2.0)) << i;
        EXPECT_EQ(out[4 * i + 2], x < 2.0f ? 1.0f : 0.0f) << i;
        EXPECT_EQ(std::signbit(out[4 * i + 3]), !std::signbit(x)) << i;
        EXPECT_EQ(std::fabs(out[4 * i + 3]), std::fabs(x)) << i;
    }
}

}  // namespace
}  // namespace refdev::spirv::test
