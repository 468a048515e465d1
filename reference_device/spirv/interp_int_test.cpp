// Integer family: arithmetic with wrap-around at 8/32/64 bits, division, shifts, comparisons, select.
#include "reference_device/spirv/test_util.h"

namespace refdev::spirv::test {
namespace {

TEST(InterpInteger, Int32Ops) {
    auto m = build(assembleFixture("int_arith.spvasm"));
    ASSERT_TRUE(m);
    const size_t n = 40;
    std::vector<uint32_t> a(n), b(n), out(8 * n, 0xdeadbeef);
    for (size_t i = 0; i < n; ++i) {
        a[i] = uint32_t(i * 2654435761u);
        b[i] = uint32_t(i % 7 + 1) | (i % 3 == 0 ? 0x80000000u : 0);
    }
    LaunchResult r = run(*m, "int_ops", {buffer(a), buffer(b), buffer(out)}, range1(n, 8));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t x = a[i], y = b[i];
        EXPECT_EQ(out[8 * i + 0], x + y) << i;
        EXPECT_EQ(out[8 * i + 1], x - y) << i;
        EXPECT_EQ(out[8 * i + 2], x * y) << i;
        EXPECT_EQ(out[8 * i + 3], x / y) << i;
        EXPECT_EQ(out[8 * i + 4], uint32_t(int32_t(x) % int32_t(y))) << i;
        EXPECT_EQ(out[8 * i + 5], x << 8) << i;
        EXPECT_EQ(out[8 * i + 6], uint32_t(int32_t(x) >> (y & 31))) << i;
        EXPECT_EQ(out[8 * i + 7], uint32_t(uint8_t(uint8_t(x) + 200))) << i;
    }
}

TEST(InterpInteger, Int64MulAndSignedSelect) {
    auto m = build(assembleFixture("int_arith.spvasm"));
    ASSERT_TRUE(m);
    const size_t n = 33;
    std::vector<uint64_t> a(n), b(n), out(2 * n, 0);
    for (size_t i = 0; i < n; ++i) {
        a[i] = 0x9e3779b97f4a7c15ull * (i + 1);
        b[i] = ~uint64_t(i) * 0x100000001ull;
    }
    LaunchResult r = run(*m, "long_ops", {buffer(a), buffer(b), buffer(out)}, range1(n, 11));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t i = 0; i < n; ++i) {
        EXPECT_EQ(out[2 * i], a[i] * b[i]) << i;
        EXPECT_EQ(out[2 * i + 1], int64_t(a[i]) < int64_t(b[i]) ? a[i] : b[i]) << i;
    }
}

}  // namespace
}  // namespace refdev::spirv::test
