// The two OpenCL C-only extensions the GPU profiles report, through their imported built-ins:
// cl_intel_subgroup_extended_block_read (tests/builtin_ext_read.spvasm: six reads, as clang-15 +
// llvm-spirv-15 emit them) on xe_hpc, xe2 and xe3, and cl_intel_subgroup_split_matrix_multiply_accumulate
// (tests/builtin_split_mma.spvasm: an int8 and an fp16 split mad) on xe_hpg. The expected values are written
// here from the shapes (element per work item), not taken from the device's code.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "reference_device/spirv/builtins.h"
#include "reference_device/spirv/ext_ops.h"
#include "reference_device/spirv/half.h"
#include "reference_device/spirv/program.h"
#include "reference_device/spirv/test_util.h"

namespace refdev::spirv {
namespace {

std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

std::vector<uint32_t> assemble(const std::string& text) {
    return test::assembleWith(std::string(REFDEV_SPIRV_AS) + " --target-env spv1.1", text);
}

std::string operandsText(const BuiltinInstruction& in) {
    std::string s;
    for (const BuiltinOperand& o : in.operands)
        s += std::string(s.empty() ? "" : " ") +
             (o.kind == BuiltinOperand::Kind::Argument   ? "a"
              : o.kind == BuiltinOperand::Kind::Constant ? "c"
                                                         : "l") +
             std::to_string(o.value);
    return s;
}

TEST(BuiltinsExt, ExtendedBlockReadShapesComeFromTheName) {
    BuiltinInstruction in;
    // Element Size, Block Width, Block Height, Block Count; then base, width, height, pitch, coord.
    ASSERT_TRUE(builtinInstruction("intel_subgroup_block_read_u8_m4k32v2", false, 16, 0, &in));
    EXPECT_EQ(in.opcode, kOpExtendedBlockRead);
    EXPECT_EQ(operandsText(in), "c1 c32 c4 c2 a0 a1 a2 a3 a4");
    ASSERT_TRUE(builtinInstruction("intel_subgroup_block_read_u16_m8k16v2", false, 16, 0, &in));
    EXPECT_EQ(operandsText(in), "c2 c16 c8 c2 a0 a1 a2 a3 a4");
    // Transforms are 16 (the sub-group) wide, transposes 16 tall.
    ASSERT_TRUE(builtinInstruction("intel_subgroup_block_read_transform_u8_k32", false, 32, 0, &in));
    EXPECT_EQ(in.opcode, kOpExtendedBlockReadTransform);
    EXPECT_EQ(operandsText(in), "c1 c16 c32 c1 a0 a1 a2 a3 a4");
    ASSERT_TRUE(builtinInstruction("intel_subgroup_block_read_transpose_u64_k4", false, 64, 0, &in));
    EXPECT_EQ(in.opcode, kOpExtendedBlockReadTranspose);
    EXPECT_EQ(operandsText(in), "c8 c4 c16 c1 a0 a1 a2 a3 a4");
    EXPECT_FALSE(builtinInstruction("intel_subgroup_block_read_u8_m4k32", false, 16, 0, &in));
    EXPECT_FALSE(builtinInstruction("intel_subgroup_block_read_transpose_u12_k4", false, 16, 0, &in));
}

TEST(BuiltinsExt, SplitMadTakesTheMatrixMadOperands) {
    BuiltinInstruction in;
    ASSERT_TRUE(builtinInstruction("intel_sub_group_i8_u8_split_matrix_mad_k32", false, 32, 32, &in));
    EXPECT_EQ(in.opcode, kOpSplitMatrixMad);
    EXPECT_EQ(operandsText(in), "c32 a0 a1 a2 l49");  // ASigned | APackedInt8 | BPackedInt8
    ASSERT_TRUE(builtinInstruction("intel_sub_group_bf16_bf16_split_matrix_mad_k16", false, 32, 32, &in));
    EXPECT_EQ(operandsText(in), "c16 a0 a1 a2 l12288");
}

// The transposes 64 bytes wide (u32_k16, u64_k8) are beyond this device's 2D block reads: a build error.
TEST(BuiltinsExt, WideTransposesFailTheBuild) {
    const ExtOpInfo* info = extOps().find(kOpExtendedBlockReadTranspose);
    ASSERT_NE(info, nullptr);
    ASSERT_NE(info->check, nullptr);
    ExtBuildView view;
    view.int_constant = {true, true, true, true};
    view.int_value = {4, 8, 16, 1};
    EXPECT_EQ(info->check(view), "");
    view.int_value = {4, 16, 16, 1};
    EXPECT_NE(info->check(view).find("block shape not supported by this device"), std::string::npos);
    view.int_value = {8, 8, 16, 1};
    EXPECT_NE(info->check(view).find("block shape not supported by this device"), std::string::npos);
}

// A 128-byte-wide, 40-row byte matrix (pitch 128) in 64-byte aligned memory.
struct Surface {
    static constexpr int kWidth = 128, kHeight = 40, kPitch = 128;
    std::vector<uint8_t> store = std::vector<uint8_t>(kPitch * kHeight + 64);
    uint8_t* m;
    Surface() {
        m = store.data() + (64 - reinterpret_cast<uintptr_t>(store.data()) % 64) % 64;
        for (int r = 0; r < kHeight; ++r)
            for (int c = 0; c < kPitch; ++c) m[r * kPitch + c] = uint8_t(r * 37 + c * 11 + 5);
    }
    // Out of bounds (outside width x height) reads as 0.
    uint64_t at(int row, int element, int bytes) const {
        if (row < 0 || row >= kHeight || element < 0 || (element + 1) * bytes > kWidth) return 0;
        uint64_t v = 0;
        std::memcpy(&v, m + row * kPitch + element * bytes, bytes);
        return v;
    }
};

constexpr size_t kOutBytes = 176;  // per work item (ext_read.cl)

// What work item `l` of the sub-group of 16 receives from ext_read at byte x, row y.
std::vector<uint8_t> expectedRead(const Surface& s, int x, int y, int l) {
    std::vector<uint8_t> out(kOutBytes, 0);
    auto put = [&](size_t at, uint64_t v, int bytes) { std::memcpy(out.data() + at, &v, bytes); };
    for (int b = 0; b < 2; ++b)
        for (int r = 0; r < 8; ++r) put(size_t(b * 8 + r) * 2, s.at(y + r, x / 2 + 16 * b + l, 2), 2);
    for (int b = 0; b < 2; ++b)  // u8_m4k32v2: two consecutive bytes of each row per work item
        for (int r = 0; r < 4; ++r)
            for (int j = 0; j < 2; ++j)
                put(32 + size_t(b * 8 + r * 2 + j), s.at(y + r, x + 32 * b + 2 * l + j, 1), 1);
    for (int r = 0; r < 8; ++r) {
        uint32_t w = 0;  // transform_u8_k32: four rows of column l, the lower row in the lower byte
        for (int i = 0; i < 4; ++i) w |= uint32_t(s.at(y + 4 * r + i, x + l, 1)) << (8 * i);
        put(48 + size_t(r) * 4, w, 4);
        w = uint32_t(s.at(y + 2 * r, x / 2 + l, 2)) | uint32_t(s.at(y + 2 * r + 1, x / 2 + l, 2)) << 16;
        put(80 + size_t(r) * 4, w, 4);
        put(112 + size_t(r) * 4, s.at(y + l, x / 4 + r, 4), 4);  // transpose: row l of the block
    }
    for (int r = 0; r < 4; ++r) put(144 + size_t(r) * 8, s.at(y + l, x / 8 + r, 8), 8);
    return out;
}

std::string readFixture() {
    return test::readText(test::fixturePath("builtin_ext_read.spvasm"));
}

LaunchResult runRead(const Module& module, const Profile& profile, Surface& s, uint8_t* base, int x, int y,
                     std::vector<uint8_t>& out) {
    ArgValue m;
    m.kind = ArgKind::GlobalBuffer, m.base = base, m.size = s.store.size() - size_t(base - s.store.data());
    return launch(module, "ext_read",
                  {m, test::value(int32_t(Surface::kWidth)), test::value(int32_t(Surface::kHeight)),
                   test::value(int32_t(Surface::kPitch)), test::value(int32_t(x)), test::value(int32_t(y)),
                   test::buffer(out)},
                  test::range1(16, 16), profile, Faults{}, 1);
}

TEST(BuiltinsExt, ExtendedBlockReadsRunWhereReported) {
    const std::vector<uint32_t> words = assemble(readFixture());
    for (const char* name : {"xe_hpc", "xe2", "xe3"}) {
        const Profile& profile = *findProfile(name);
        BuildResult b = buildModule(words.data(), words.size(), profile);
        ASSERT_TRUE(b.module) << name << ":\n" << b.log;
        // In bounds, then from row 30 (the transforms and transposes run past row 40: zeros).
        for (int y : {2, 30}) {
            Surface s;
            std::vector<uint8_t> out(16 * kOutBytes, 0xA5);
            LaunchResult r = runRead(*b.module, profile, s, s.m, 16, y, out);
            ASSERT_TRUE(r.ok) << name << ": " << r.error;
            for (int l = 0; l < 16; ++l) {
                const std::vector<uint8_t> want = expectedRead(s, 16, y, l);
                for (size_t k = 0; k < kOutBytes; ++k)
                    ASSERT_EQ(out[l * kOutBytes + k], want[k])
                        << name << " y " << y << " lane " << l << " byte " << k;
            }
        }
    }
}

TEST(BuiltinsExt, ExtendedBlockReadRefusedWhereNotReported) {
    const std::vector<uint32_t> words = assemble(readFixture());
    for (const char* name : {"xe_hpg", "xe_lpg", "cpu"}) {
        BuildResult b = buildModule(words.data(), words.size(), *findProfile(name));
        EXPECT_FALSE(b.module) << name;
        EXPECT_NE(
            b.log.find("calls intel_subgroup_block_read_u16_m8k16v2, a built-in of "
                       "cl_intel_subgroup_extended_block_read, which this device does not support (profile " +
                       std::string(name) + ")"),
            std::string::npos)
            << b.log;
    }
}

// The 2D block reads' undefined-behaviour checks apply: a base off the 64-byte line; and the built-ins'
// shapes are those of sub-groups of 16.
TEST(BuiltinsExt, ExtendedBlockReadUndefinedBehaviour) {
    const Profile& profile = *findProfile("xe_hpc");
    const std::vector<uint32_t> words = assemble(readFixture());
    BuildResult b = buildModule(words.data(), words.size(), profile);
    ASSERT_TRUE(b.module) << b.log;
    Surface s;
    std::vector<uint8_t> out(16 * kOutBytes);
    LaunchResult r = runRead(*b.module, profile, s, s.m + 16, 16, 2, out);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("intel_subgroup_block_read (cl_intel_subgroup_extended_block_read): the base "
                           "address"),
              std::string::npos)
        << r.error;
    EXPECT_NE(r.error.find("is not cache-line aligned (64 bytes)"), std::string::npos) << r.error;

    const std::vector<uint32_t> sg32 =
        assemble(replaceAll(readFixture(), "SubgroupSize 16", "SubgroupSize 32"));
    BuildResult b32 = buildModule(sg32.data(), sg32.size(), profile);
    ASSERT_TRUE(b32.module) << b32.log;
    std::vector<uint8_t> out32(32 * kOutBytes);
    ArgValue m;
    m.kind = ArgKind::GlobalBuffer, m.base = s.m, m.size = Surface::kPitch * Surface::kHeight;
    r = launch(*b32.module, "ext_read",
               {m, test::value(int32_t(128)), test::value(int32_t(40)), test::value(int32_t(128)),
                test::value(int32_t(16)), test::value(int32_t(2)), test::buffer(out32)},
               test::range1(32, 32), profile, Faults{}, 1);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("shaped for sub-groups of 16 work-items, this sub-group has 32"),
              std::string::npos)
        << r.error;
}

// Split mads: work item i of a work-group of `local` gets A's rows 0-3 from the even sub-group of its pair
// (sub-groups 2p and 2p + 1) and rows 4-7 from the odd one, B and C its own.
std::string splitFixture() {
    return test::readText(test::fixturePath("builtin_split_mma.spvasm"));
}

struct SplitI8 {
    std::vector<int32_t> a, b, c, r;  // int4, int8, int8, int8 per work item
    explicit SplitI8(size_t items) : a(items * 4), b(items * 8), c(items * 8), r(items * 8, 0x5A5A5A5A) {
        for (size_t i = 0; i < a.size(); ++i) a[i] = int32_t(uint32_t(i * 2654435761u) ^ 0x3C3C3C3Cu);
        for (size_t i = 0; i < b.size(); ++i) b[i] = int32_t(uint32_t(i * 40503u + 7) * 2246822519u);
        for (size_t i = 0; i < c.size(); ++i) c[i] = int32_t(i * 1000) - 30000;
    }
    static int32_t byte(int32_t word, int k) { return int8_t(uint8_t(uint32_t(word) >> (8 * k))); }
    int32_t expected(size_t i, int row, size_t local) const {
        const size_t group = i / local * local, in_group = i % local;
        const size_t first = group + (in_group / 8 & ~size_t(1)) * 8;
        const size_t source = row < 4 ? first : first + 8;
        int32_t sum = c[i * 8 + row];
        for (int k = 0; k < 32; ++k) {
            const int32_t a_elem = byte(a[(source + k / 4) * 4 + row % 4], k % 4);
            const int32_t b_elem = byte(b[i * 8 + k / 4], k % 4);
            sum += a_elem * b_elem;
        }
        return sum;
    }
};

LaunchResult runSplitI8(const Module& module, const Profile& profile, SplitI8& d, size_t global,
                        size_t local) {
    return launch(module, "split_i8",
                  {test::buffer(d.a), test::buffer(d.b), test::buffer(d.c), test::buffer(d.r)},
                  test::range1(global, local), profile, Faults{}, 1);
}

TEST(BuiltinsExt, SplitMadRunsOnXeHpg) {
    const Profile& profile = *findProfile("xe_hpg");
    const std::vector<uint32_t> words = assemble(splitFixture());
    BuildResult b = buildModule(words.data(), words.size(), profile);
    ASSERT_TRUE(b.module) << b.log;
    // Two work-groups of 32 (four sub-groups, two pairs each), then one work-group of 16.
    for (size_t local : {32, 16}) {
        SplitI8 d(64);
        LaunchResult r = runSplitI8(*b.module, profile, d, local == 32 ? 64 : 16, local);
        ASSERT_TRUE(r.ok) << r.error;
        for (size_t i = 0; i < (local == 32 ? 64u : 16u); ++i)
            for (int row = 0; row < 8; ++row)
                ASSERT_EQ(d.r[i * 8 + row], d.expected(i, row, local))
                    << "local " << local << " item " << i << " row " << row;
    }
    // fp16: A halves (rows 0-1 from sub-group 0, rows 2-3 from sub-group 1), B 16 halves, float accumulators.
    std::vector<int32_t> a(16 * 2), bv(16 * 8);
    std::vector<float> c(16 * 4), res(16 * 4, -1.0f);
    auto half = [](float v) { return uint32_t(floatToHalf(v)); };
    for (size_t i = 0; i < a.size(); ++i)
        a[i] = int32_t(half(float(i % 7) - 3.0f) | half(float(i % 5) * 0.5f) << 16);
    for (size_t i = 0; i < bv.size(); ++i)
        bv[i] = int32_t(half(float(i % 9) - 4.0f) | half(float(i % 3) + 1.0f) << 16);
    for (size_t i = 0; i < c.size(); ++i) c[i] = float(i) * 0.25f;
    LaunchResult r = launch(*b.module, "split_f16",
                            {test::buffer(a), test::buffer(bv), test::buffer(c), test::buffer(res)},
                            test::range1(16, 16), profile, Faults{}, 1);
    ASSERT_TRUE(r.ok) << r.error;
    auto elem = [](int32_t word, int k) { return halfToFloat(uint16_t(uint32_t(word) >> (16 * k))); };
    for (size_t i = 0; i < 16; ++i)
        for (int row = 0; row < 4; ++row) {
            const size_t source = row < 2 ? 0 : 8;
            double sum = c[i * 4 + row];
            for (int k = 0; k < 16; ++k)
                sum +=
                    double(elem(a[(source + k / 2) * 2 + row % 2], k % 2)) * elem(bv[i * 8 + k / 2], k % 2);
            EXPECT_EQ(res[i * 4 + row], float(sum)) << "item " << i << " row " << row;
        }
}

TEST(BuiltinsExt, SplitMadRefusedWhereNotReported) {
    // At sub-group size 16, which every profile supports (xe_hpc and xe2 have no 8).
    const std::vector<uint32_t> words =
        assemble(replaceAll(splitFixture(), "SubgroupSize 8", "SubgroupSize 16"));
    for (const char* name : {"xe_hpc", "xe2", "xe_lpg", "cpu"}) {
        BuildResult b = buildModule(words.data(), words.size(), *findProfile(name));
        EXPECT_FALSE(b.module) << name;
        EXPECT_NE(
            b.log.find("calls _Z42intel_sub_group_i8_i8_split_matrix_mad_k32Dv4_iDv8_iS0_, a built-in of "
                       "cl_intel_subgroup_split_matrix_multiply_accumulate, which this device does not "
                       "support (profile " +
                       std::string(name) + ")"),
            std::string::npos)
            << b.log;
    }
}

// A sub-group without a partner (three sub-groups), and a partner that is not a full sub-group.
TEST(BuiltinsExt, SplitMadNeedsBothSubgroupsOfAPair) {
    const Profile& profile = *findProfile("xe_hpg");
    const std::vector<uint32_t> words = assemble(splitFixture());
    BuildResult b = buildModule(words.data(), words.size(), profile);
    ASSERT_TRUE(b.module) << b.log;
    SplitI8 d(24);
    LaunchResult r = runSplitI8(*b.module, profile, d, 24, 24);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(
        r.error.find("sub-group 2 reached it, its partner sub-group 3 does not exist (the work-group has 3 "
                     "sub-groups)"),
        std::string::npos)
        << r.error;
    r = runSplitI8(*b.module, profile, d, 12, 12);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("must be encountered by every work item of both sub-groups"), std::string::npos)
        << r.error;
}

}  // namespace
}  // namespace refdev::spirv
