// OpenCL.std extended instructions: integer built-ins, float built-ins, select, vloadn/vstoren.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>

#include "reference_device/spirv/test_util.h"

namespace refdev::spirv::test {
namespace {

class OclStd : public ::testing::Test {
protected:
    static void SetUpTestSuite() { module_ = build(assembleFixture("ocl_std.spvasm")); }
    static void TearDownTestSuite() { module_.reset(); }
    static std::shared_ptr<const Module> module_;
};
std::shared_ptr<const Module> OclStd::module_;

uint32_t clz32(uint32_t x) {
    uint32_t n = 0;
    for (int i = 31; i >= 0 && !((x >> i) & 1); --i) ++n;
    return n;
}

TEST_F(OclStd, IntegerBuiltins) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> a = {0, 1, 0xffffffffu, 0x80000000u, 12345, 0xfffffff0u, 200, 77},
                          b = {5, 0xffffffffu, 3, 31, 0x7fffffff, 4, 0xffffff00u, 33};
    std::vector<uint32_t> out(8 * a.size());
    LaunchResult r = run(*module_, "ocl_int", {buffer(a), buffer(b), buffer(out)}, range1(a.size(), 4));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t i = 0; i < a.size(); ++i) {
        const uint32_t x = a[i], y = b[i];
        const int32_t sx = int32_t(x), sy = int32_t(y);
        EXPECT_EQ(out[8 * i + 0], std::min(x, y)) << i;
        EXPECT_EQ(out[8 * i + 1], uint32_t(std::max(sx, sy))) << i;
        EXPECT_EQ(out[8 * i + 2], uint32_t(std::min(std::max(sx, -100), 100))) << i;
        EXPECT_EQ(out[8 * i + 3], uint32_t((uint64_t(x) * y) >> 32)) << i;
        EXPECT_EQ(out[8 * i + 4], uint32_t(__builtin_popcount(x))) << i;
        EXPECT_EQ(out[8 * i + 5], clz32(x)) << i;
        const uint32_t s = y % 32;
        EXPECT_EQ(out[8 * i + 6], s ? (x << s) | (x >> (32 - s)) : x) << i;
        EXPECT_EQ(out[8 * i + 7], uint32_t(std::min<uint64_t>(uint64_t(x) + y, 0xffffffffu))) << i;
    }
}

TEST_F(OclStd, FloatBuiltins) {
    ASSERT_TRUE(module_);
    std::vector<float> a = {1.5f, -2.25f, 0.0f, 1e20f, -0.5f, 7.0f},
                       b = {2.0f, -3.0f, -0.0f, 1e-20f, NAN, 7.0f};
    std::vector<float> out(8 * a.size());
    LaunchResult r = run(*module_, "ocl_float", {buffer(a), buffer(b), buffer(out)}, range1(a.size(), 2));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t i = 0; i < a.size(); ++i) {
        const float x = a[i], y = b[i];
        EXPECT_EQ(out[8 * i + 0], std::fmax(x, y)) << i;  // fmax/fmin return the non-NaN operand
        EXPECT_EQ(out[8 * i + 1], std::fmin(x, y)) << i;
        EXPECT_EQ(out[8 * i + 2], std::fabs(x)) << i;
        EXPECT_EQ(out[8 * i + 3], std::floor(x)) << i;
        EXPECT_EQ(out[8 * i + 4], std::sqrt(std::fabs(x))) << i;
        if (std::isnan(y))
            EXPECT_TRUE(std::isnan(out[8 * i + 5])) << i;
        else
            EXPECT_EQ(out[8 * i + 5], std::fmaf(x, y, 1.0f)) << i;
        const float sel = x < y ? y : x;
        if (std::isnan(sel))
            EXPECT_TRUE(std::isnan(out[8 * i + 6]));
        else
            EXPECT_EQ(out[8 * i + 6], sel) << i;
        EXPECT_EQ(std::signbit(out[8 * i + 7]), std::signbit(y)) << i;
    }
}

TEST_F(OclStd, VloadnAndVstoren) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> in(4 * 10), out(4 * 10, 0);
    for (uint32_t i = 0; i < in.size(); ++i) in[i] = i * 7 + 1;
    LaunchResult r = run(*module_, "vload", {buffer(in), buffer(out)}, range1(10, 5));
    ASSERT_TRUE(r.ok) << r.error;
    for (uint32_t i = 0; i < in.size(); ++i) EXPECT_EQ(out[i], in[i] * 2) << i;
}

TEST_F(OclStd, VloadnOutOfBoundsIsReported) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> in(4 * 10 - 1), out(4 * 10, 0);
    LaunchResult r = run(*module_, "vload", {buffer(in), buffer(out)}, range1(10, 5), 1);
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.error.find("OpExtInst (word "), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("read of 16 bytes"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("global (9,0,0)"), std::string::npos) << r.error;
}

TEST_F(OclStd, VloadHalfAndVstoreHalfWithRounding) {
    ASSERT_TRUE(module_);
    // 1.0, 2049 is not a half (0x6800 is 2048), 0x3555 ~ 1/3, 65504 (times 3 overflows), -0
    std::vector<uint16_t> in = {0x3c00, 0x6800, 0x3555, 0x7bff, 0x8000};
    std::vector<float> f(in.size());
    std::vector<uint16_t> h(in.size());
    LaunchResult r = run(*module_, "halfio", {buffer(in), buffer(f), buffer(h)}, range1(in.size(), 1));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(f[0], 1.0f);
    EXPECT_EQ(f[1], 2048.0f);
    EXPECT_EQ(f[2], 0x1.554p-2f);
    EXPECT_EQ(f[3], 65504.0f);
    EXPECT_TRUE(f[4] == 0.0f && std::signbit(f[4]));
    EXPECT_EQ(h[0], 0x4200);  // 3.0
    EXPECT_EQ(h[1], 0x6e00);  // 6144
    EXPECT_EQ(h[2], 0x3bff);  // 3 * 0x1.554p-2 = 0x1.ffep-1 is exact in half: 0x3bff
    EXPECT_EQ(h[3], 0x7bff);  // toward zero: overflow gives the largest finite half, not infinity
    EXPECT_EQ(h[4], 0x8000);
}

TEST_F(OclStd, FractAndFrexpWriteTheirSecondResultThroughThePointer) {
    ASSERT_TRUE(module_);
    std::vector<float> x = {1.75f, -1.25f, 0.0f, 1024.5f, -0.0f, 3.0f, 1e-3f, -7.5f};
    std::vector<float> fr(16, -9.0f), fl(8, -9.0f);
    std::vector<uint32_t> ex(8, 99);
    LaunchResult r = run(*module_, "ptrout", {buffer(x), buffer(fr), buffer(fl), buffer(ex)}, range1(8, 4));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t i = 0; i < x.size(); ++i) {
        EXPECT_EQ(fl[i], std::floor(x[i])) << i;
        EXPECT_EQ(fr[i], x[i] - std::floor(x[i])) << i;
        int e = 0;
        float m = std::frexp(x[i], &e);
        EXPECT_EQ(fr[8 + i], m) << i;
        EXPECT_EQ(int32_t(ex[i]), e) << i;
    }
}

// The 32-bit integer built-ins of ocl_std_int.spvasm, each against the host (OpenCL C's definitions).
int64_t sat32(int64_t v) {
    return std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
}

TEST(OclStdInt, EveryScalarIntegerBuiltin) {
    auto m = build(assembleFixture("ocl_std_int.spvasm"));
    ASSERT_TRUE(m);
    // Signed and unsigned extremes, both orders of each pair, and clamp bounds in both orders (a clamp whose
    // lower bound is above its upper one is undefined and not checked).
    std::vector<uint32_t> a = {0,           1,           0xffffffffu, 0x80000000u, 0x7fffffffu, 12345,
                               0x80000001u, 0xfffffff0u, 40000,       0x00f00000u, 7,           0x80000000u};
    std::vector<uint32_t> b = {0,           0xffffffffu, 1,     0xffffffffu, 1,           0x7fffffffu,
                               0x80000000u, 0x10u,       70000, 33,          0x80000000u, 0x80000000u};
    std::vector<uint32_t> c = {5,           10,          0x7fffffffu, 0x7fffffffu, 0xffffffffu, 20,
                               0x80000000u, 0xfffffff8u, 3,           0x0000ff00u, 0x80000001u, 1};
    const size_t n = a.size(), k = 29;
    std::vector<uint32_t> out(k * n, 0xdeadbeef);
    LaunchResult r = run(*m, "ocl_int_all", {buffer(a), buffer(b), buffer(c), buffer(out)}, range1(n, 1));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t x = a[i], y = b[i], z = c[i];
        const int64_t sx = int32_t(x), sy = int32_t(y), sz = int32_t(z);
        const uint64_t ux = x, uy = y, uz = z;
        const uint32_t want[] = {
            uint32_t(sx < 0 ? -sx : sx), x, x ? uint32_t(__builtin_ctz(x)) : 32u, clz32(x),
            uint32_t(__builtin_popcount(x)),
            // two operands
            uint32_t(sx > sy ? sx - sy : sy - sx), x > y ? x - y : y - x, uint32_t(sat32(sx + sy)),
            uint32_t(std::min<uint64_t>(ux + uy, 0xffffffffu)), uint32_t(sat32(sx - sy)), x > y ? x - y : 0u,
            uint32_t((sx + sy) >> 1), uint32_t((ux + uy) >> 1), uint32_t((sx + sy + 1) >> 1),
            uint32_t((ux + uy + 1) >> 1), uint32_t(std::max(sx, sy)), std::max(x, y),
            uint32_t(std::min(sx, sy)), std::min(x, y), uint32_t(uint64_t(sx * sy) >> 32),
            uint32_t((ux * uy) >> 32), (x << (y & 31)) | (y & 31 ? x >> (32 - (y & 31)) : 0u),
            // three operands
            uint32_t(std::min(std::max(sx, sy), sz)), std::min(std::max(x, y), z),
            uint32_t((uint64_t(sx * sy) >> 32) + z), uint32_t(((ux * uy) >> 32) + uz),
            uint32_t(sat32(sx * sy + sz)), uint32_t(std::min<uint64_t>(ux * uy + uz, 0xffffffffu)),
            (x & ~z) | (y & z)};
        for (size_t j = 0; j < k; ++j) {
            if (j == 22 && sy > sz) continue;  // s_clamp with its bounds crossed: undefined
            if (j == 23 && y > z) continue;    // u_clamp likewise
            EXPECT_EQ(out[k * i + j], want[j]) << "input " << i << " built-in " << j;
        }
    }
}

TEST(OclStdInt, Mul24AndMad24InTheir24BitRange) {
    auto m = build(assembleFixture("ocl_std_int.spvasm"));
    ASSERT_TRUE(m);
    // Signed operands within [-2^23, 2^23 - 1], unsigned within [0, 2^24 - 1] (outside, OpenCL leaves the
    // result to the implementation): the same words serve both where they fit, others only the unsigned.
    std::vector<uint32_t> a = {3, 0x7fffffu, 0xff800000u, 0xffffffffu, 0xffffffu, 0x123456u};
    std::vector<uint32_t> b = {5, 0x7fffffu, 0x7fffffu, 0xff800000u, 0xffffffu, 0x000100u};
    std::vector<uint32_t> c = {1, 0xffffffffu, 7, 0x80000000u, 2, 0xabcdefu};
    const size_t n = a.size();
    std::vector<uint32_t> out(4 * n, 0xdeadbeef);
    LaunchResult r = run(*m, "ocl_int_24", {buffer(a), buffer(b), buffer(c), buffer(out)}, range1(n, 1));
    ASSERT_TRUE(r.ok) << r.error;
    auto signed24 = [](uint32_t v) { return int32_t(v) >= -(1 << 23) && int32_t(v) < (1 << 23); };
    auto unsigned24 = [](uint32_t v) { return v < (1u << 24); };
    for (size_t i = 0; i < n; ++i) {
        const uint32_t s_mul = uint32_t(int64_t(int32_t(a[i])) * int32_t(b[i])), u_mul = a[i] * b[i];
        if (signed24(a[i]) && signed24(b[i])) {
            EXPECT_EQ(out[4 * i + 0], s_mul) << i;
            EXPECT_EQ(out[4 * i + 2], s_mul + c[i]) << i;
        }
        if (unsigned24(a[i]) && unsigned24(b[i])) {
            EXPECT_EQ(out[4 * i + 1], u_mul) << i;
            EXPECT_EQ(out[4 * i + 3], u_mul + c[i]) << i;
        }
    }
}

// The float built-ins OpenCL defines exactly (0 ulp), of ocl_std_float.spvasm, bit for bit against the host.
bool sameFloat(float x, float y) {
    return (std::isnan(x) && std::isnan(y)) || std::memcmp(&x, &y, sizeof x) == 0;
}

float signOf(float x) {
    return std::isnan(x) ? 0.0f : x > 0 ? 1.0f : x < 0 ? -1.0f : x;  // keeps the zero's sign
}

TEST(OclStdFloat, EveryExactlyDefinedBuiltin) {
    auto m = build(assembleFixture("ocl_std_float.spvasm"));
    ASSERT_TRUE(m);
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    // Halves for the rounding modes, both signs, infinities, NaN, zeros; no input or result is denormal, so
    // a device that flushes denormals gives the same bits.
    std::vector<float> a = {2.5f, -2.5f, 0.5f, -0.5f, 1.5f,  1e10f, -7.25f,
                            inf,  -inf,  nan,  0.0f,  -0.0f, 3.0f,  1.0f};
    std::vector<float> b = {1.5f, 2.0f, -0.75f, 0.5f, 1.5f, -3.0f, 2.5f,
                            1.0f, nan,  2.0f,   5.0f, 4.0f, -3.0f, 2.0f};
    std::vector<float> c = {1.0f, -1.0f, 0.25f, 3.0f,  -2.25f, 1e20f, 0.0f,
                            1.0f, 1.0f,  1.0f,  -0.0f, 2.0f,   1.0f,  -2.0f};
    const size_t n = a.size(), k = 19;
    std::vector<float> out(k * n, 12345.0f);
    LaunchResult r = run(*m, "ocl_float_exact", {buffer(a), buffer(b), buffer(c), buffer(out)}, range1(n, 1));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t i = 0; i < n; ++i) {
        const float x = a[i], y = b[i], z = c[i];
        const float mag = std::fabs(x) > std::fabs(y) ? x : std::fabs(y) > std::fabs(x) ? y : std::fmax(x, y);
        const float min_mag = std::fabs(x) < std::fabs(y)   ? x
                              : std::fabs(y) < std::fabs(x) ? y
                                                            : std::fmin(x, y);
        const float want[] = {std::fabs(x),
                              std::floor(x),
                              std::ceil(x),
                              std::trunc(x),
                              std::round(x),
                              std::nearbyint(x),
                              std::logb(x),
                              signOf(x),
                              std::fmin(x, y),
                              std::fmax(x, y),
                              std::fdim(x, y),
                              std::fmod(x, y),
                              std::remainder(x, y),
                              std::copysign(x, y),
                              mag,
                              min_mag,
                              std::nextafter(x, y),
                              y < x ? 0.0f : 1.0f,
                              std::fma(x, y, z)};
        for (size_t j = 0; j < k; ++j) {
            if (j == 17 && (std::isnan(x) || std::isnan(y))) continue;  // step of a NaN: not defined
            if (j == 16 && x == 0.0f) continue;  // nextafter from zero is a denormal, which may be flushed
            EXPECT_TRUE(sameFloat(out[k * i + j], want[j]))
                << "input " << i << " built-in " << j << ": " << out[k * i + j] << ", want " << want[j];
        }
    }
}

// A half steps by a half's ulp (computing in double and rounding back would return x).
TEST(OclStdFloat, NextafterOnHalves) {
    auto m = build(assembleFixture("ocl_std_float.spvasm"));
    ASSERT_TRUE(m);
    // {x, y, nextafter(x, y)} as half bits: 1 -> 2, 1 -> 0, -1 -> 0, -0.5 -> -1, 65504 -> inf, inf -> 0,
    // 2 -> 2, NaN.
    const uint16_t rows[][3] = {{0x3c00, 0x4000, 0x3c01}, {0x3c00, 0x0000, 0x3bff}, {0xbc00, 0x0000, 0xbbff},
                                {0xb800, 0xbc00, 0xb801}, {0x7bff, 0x7c00, 0x7c00}, {0x7c00, 0x0000, 0x7bff},
                                {0x4000, 0x4000, 0x4000}, {0x7e00, 0x3c00, 0x7e00}};
    std::vector<uint16_t> a, b, out(std::size(rows), 0xdead);
    for (const auto& row : rows) {
        a.push_back(row[0]);
        b.push_back(row[1]);
    }
    LaunchResult r = run(*m, "nextafter_half", {buffer(a), buffer(b), buffer(out)}, range1(a.size(), 1));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t i = 0; i < std::size(rows); ++i) {
        if (rows[i][2] == 0x7e00)
            EXPECT_TRUE((out[i] & 0x7c00) == 0x7c00 && (out[i] & 0x3ff)) << i;  // a NaN: any payload
        else
            EXPECT_EQ(out[i], rows[i][2]) << i << std::hex << ": " << out[i];
    }
}

TEST(OclStdFloat, LdexpAndIlogb) {
    auto m = build(assembleFixture("ocl_std_float.spvasm"));
    ASSERT_TRUE(m);
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> a = {1.0f, -3.0f, 0.75f, 1e30f, 5.0f, inf, 0.0f, nan};
    std::vector<uint32_t> k = {3, uint32_t(-2), 10, 100, uint32_t(-130) + 10, 1, 4, 1};
    std::vector<uint32_t> out(2 * a.size(), 0xdeadbeef);
    LaunchResult r = run(*m, "ocl_float_int", {buffer(a), buffer(k), buffer(out)}, range1(a.size(), 1));
    ASSERT_TRUE(r.ok) << r.error;
    const int32_t int_min = std::numeric_limits<int32_t>::min(),
                  int_max = std::numeric_limits<int32_t>::max();
    for (size_t i = 0; i < a.size(); ++i) {
        float got;
        std::memcpy(&got, &out[2 * i], sizeof got);
        EXPECT_TRUE(sameFloat(got, std::ldexp(a[i], int32_t(k[i])))) << i << ": " << got;
        const int32_t ilogb = int32_t(out[2 * i + 1]);
        if (a[i] == 0.0f)
            EXPECT_TRUE(ilogb == int_min || ilogb == -int_max) << ilogb;  // FP_ILOGB0
        else if (std::isnan(a[i]))
            EXPECT_TRUE(ilogb == int_max || ilogb == int_min) << ilogb;  // FP_ILOGBNAN
        else if (std::isinf(a[i]))
            EXPECT_EQ(ilogb, int_max);
        else
            EXPECT_EQ(ilogb, std::ilogb(a[i])) << i;
    }
}

}  // namespace
}  // namespace refdev::spirv::test
