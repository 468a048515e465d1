// Every row of the decoders' opcode tables (kIntegerOps, kFloatOps, kAtomicOps: one row per instruction)
// runs once in tests/op_rows.spvasm and is checked against the host, so a row that decodes an instruction
// to the wrong operation (a swapped signed/unsigned or ordered/unordered pair) fails here.
#include <algorithm>
#include <cmath>
#include <limits>

#include "reference_device/spirv/test_util.h"

namespace refdev::spirv::test {
namespace {

TEST(OpRows, IntegerComparisonsAndLogicalOps) {
    auto m = build(assembleFixture("op_rows.spvasm"));
    ASSERT_TRUE(m);
    // Pairs where signed and unsigned order differ, equal pairs, and both parities for the logical ops.
    std::vector<uint32_t> a = {1, 2, 2, 0x80000000u, 1, 0xffffffffu, 0, 7, 0x7fffffffu, 3};
    std::vector<uint32_t> b = {2, 1, 2, 1, 0x80000000u, 0, 0xffffffffu, 7, 0x80000000u, 5};
    const size_t n = a.size(), k = 15;
    std::vector<uint32_t> out(k * n, 0xdeadbeef);
    LaunchResult r = run(*m, "int_compare", {buffer(a), buffer(b), buffer(out)}, range1(n, 1));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t x = a[i], y = b[i];
        const int32_t sx = int32_t(x), sy = int32_t(y);
        const bool p = x & 1, q = y & 1;
        const bool want[] = {x == y, x != y,   x > y,  sx > sy, x >= y, sx >= sy, x < y, sx < sy,
                             x <= y, sx <= sy, p == q, p != q,  p || q, p && q,   !p};
        for (size_t j = 0; j < k; ++j)
            EXPECT_EQ(out[k * i + j], want[j] ? 1u : 0u) << "pair " << i << " op " << j;
    }
}

TEST(OpRows, FloatComparisonsAndClassTests) {
    auto m = build(assembleFixture("op_rows.spvasm"));
    ASSERT_TRUE(m);
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    // Ordered and unordered pairs, signed zeros, infinities and a denormal (not normal; compared with 1 only,
    // so flushing it to zero changes no comparison).
    std::vector<float> a = {1, 2, 1, nan, 1, -0.0f, inf, -inf, 1e-40f, -3.5f, nan};
    std::vector<float> b = {2, 1, 1, 1, nan, 0.0f, 1, -inf, 1, 2, nan};
    const size_t n = a.size(), k = 20;
    std::vector<uint32_t> out(k * n, 0xdeadbeef);
    LaunchResult r = run(*m, "float_compare", {buffer(a), buffer(b), buffer(out)}, range1(n, 1));
    ASSERT_TRUE(r.ok) << r.error;
    for (size_t i = 0; i < n; ++i) {
        const float x = a[i], y = b[i];
        const bool unord = std::isnan(x) || std::isnan(y), ord = !unord;
        const bool want[] = {ord && x == y,
                             unord || x == y,
                             ord && x != y,
                             unord || x != y,
                             ord && x < y,
                             unord || x < y,
                             ord && x > y,
                             unord || x > y,
                             ord && x <= y,
                             unord || x <= y,
                             ord && x >= y,
                             unord || x >= y,
                             ord && x != y,
                             ord,
                             unord,
                             std::isnan(x),
                             std::isinf(x),
                             std::isfinite(x),
                             std::isnormal(x),
                             std::signbit(x)};
        for (size_t j = 0; j < k; ++j)
            EXPECT_EQ(out[k * i + j], want[j] ? 1u : 0u) << "pair " << i << " op " << j;
    }
}

TEST(OpRows, EveryAtomicInstruction) {
    auto m = build(assembleFixture("op_rows.spvasm"));
    ASSERT_TRUE(m);
    // mem[k] before, arg[k] the value, arg[16 + k] the comparator (compare-exchange: k = 3 matches, 4 not).
    // 0x80000005 is negative as a signed int: the signed and unsigned minimum and maximum differ.
    const uint32_t big = 0x80000005u;
    std::vector<uint32_t> mem = {11, 12,  13,  14,  15,  16,      17,      18,
                                 19, big, big, big, big, 0xf0f0u, 0xf0f0u, 0xf0f0u};
    std::vector<uint32_t> arg(32, 0);
    for (uint32_t k = 0; k < 16; ++k) arg[k] = 7;
    arg[13] = arg[14] = arg[15] = 0xff00u;
    arg[16 + 3] = 14;  // matches mem[3]
    arg[16 + 4] = 99;  // does not match mem[4]
    const std::vector<uint32_t> before = mem;
    std::vector<uint32_t> out(16, 0xdeadbeef);
    LaunchResult r = run(*m, "atomic_ops", {buffer(mem), buffer(arg), buffer(out)}, range1(1, 1));
    ASSERT_TRUE(r.ok) << r.error;
    const int32_t sbig = int32_t(big);
    const uint32_t left[16] = {11,
                               7,
                               7,
                               7,
                               15,
                               17,
                               16,
                               18 + 7,
                               19 - 7,
                               uint32_t(std::min(sbig, 7)),
                               std::min(big, 7u),
                               uint32_t(std::max(sbig, 7)),
                               std::max(big, 7u),
                               0xf0f0u & 0xff00u,
                               0xf0f0u | 0xff00u,
                               0xf0f0u ^ 0xff00u};
    for (uint32_t k = 0; k < 16; ++k) {
        EXPECT_EQ(mem[k], left[k]) << "instruction " << k;
        // Every instruction but OpAtomicStore (k = 1: it returns nothing, the kernel stores 0) returns the
        // value before.
        EXPECT_EQ(out[k], k == 1 ? 0u : before[k]) << "instruction " << k;
    }
}

}  // namespace
}  // namespace refdev::spirv::test

namespace refdev::spirv::test {
namespace {

// OpPtrEqual, OpPtrNotEqual and OpPtrDiff come with SPIR-V 1.4: their fixture's first line asks for it.
TEST(OpRows, PointerComparisons) {
    auto m = build(assembleFixture("ptr_compare.spvasm"));
    ASSERT_TRUE(m);
    std::vector<uint32_t> data(8, 0);
    std::vector<uint64_t> out(4, 0xdeadbeef);
    LaunchResult r = run(*m, "ptr_compare", {buffer(data), buffer(out)}, range1(1, 1));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(out, (std::vector<uint64_t>{1, 1, 0, 3}));
}

}  // namespace
}  // namespace refdev::spirv::test
