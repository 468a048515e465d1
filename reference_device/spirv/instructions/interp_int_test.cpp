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

namespace refdev::spirv::test {
namespace {

TEST(InterpInteger, ExtendedArithmeticReturnsStructs) {
    auto m = build(assembleFixture("int_arith.spvasm"));
    ASSERT_TRUE(m);
    std::vector<uint32_t> a = {0xffffffffu, 7, 0x80000000u, 123456789, 0},
                          b = {0xffffffffu, 9, 2, 0xfffffff0u, 1};
    std::vector<uint32_t> out(8 * a.size());
    LaunchResult r = run(*m, "extended", {buffer(a), buffer(b), buffer(out)}, range1(a.size(), 1));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t i = 0; i < a.size(); ++i) {
        const uint64_t u = uint64_t(a[i]) * b[i];
        const int64_t s = int64_t(int32_t(a[i])) * int32_t(b[i]);
        EXPECT_EQ(out[8 * i + 0], uint32_t(u)) << i;
        EXPECT_EQ(out[8 * i + 1], uint32_t(u >> 32)) << i;
        EXPECT_EQ(out[8 * i + 2], a[i] + b[i]) << i;
        EXPECT_EQ(out[8 * i + 3], uint64_t(a[i]) + b[i] > 0xffffffffu ? 1u : 0u) << i;
        EXPECT_EQ(out[8 * i + 4], uint32_t(uint64_t(s))) << i;
        EXPECT_EQ(out[8 * i + 5], uint32_t(uint64_t(s) >> 32)) << i;
        EXPECT_EQ(out[8 * i + 6], a[i] - b[i]) << i;
        EXPECT_EQ(out[8 * i + 7], a[i] < b[i] ? 1u : 0u) << i;
    }
}

TEST(InterpInteger, CopyMemorySizedIsBoundsChecked) {
    auto m = build(assembleFixture("int_arith.spvasm"));
    ASSERT_TRUE(m);
    std::vector<uint32_t> src = {1, 2, 3, 4}, n = {12}, dst(4, 0);
    LaunchResult r = run(*m, "copy_sized", {buffer(src), buffer(n), buffer(dst)}, range1(1, 1));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(dst, (std::vector<uint32_t>{1, 2, 3, 0}));
    n[0] = 20;  // one word past both buffers
    r = run(*m, "copy_sized", {buffer(src), buffer(n), buffer(dst)}, range1(1, 1));
    ASSERT_FALSE(r.ok);
    EXPECT_NE(r.error.find("OpCopyMemorySized (word "), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("write of 20 bytes"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace refdev::spirv::test
