// Imported OpenCL C built-ins (builtins.cpp): the name grammar against every declaration of the extensions'
// function lists, and a kernel as clang-15 + llvm-spirv-15 emit it (tests/builtin_gemm.spvasm: 2D block
// reads, a transform read, an f16 matrix mad and a 2D block write, all imported calls) built and run on the
// product profiles.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "reference_device/spirv/builtins.h"
#include "reference_device/spirv/half.h"
#include "reference_device/spirv/program.h"
#include "reference_device/spirv/test_util.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {
namespace {

using Kind = BuiltinOperand::Kind;

std::string operandsText(const BuiltinInstruction& in) {
    std::string s;
    for (const BuiltinOperand& o : in.operands)
        s += std::string(s.empty() ? "" : " ") +
             (o.kind == Kind::Argument   ? "a"
              : o.kind == Kind::Constant ? "c"
                                         : "l") +
             std::to_string(o.value);
    return s;
}

TEST(Builtins, DemangledNameIsTheItaniumSourceName) {
    EXPECT_EQ(demangledName("_Z42intel_sub_group_2d_block_read_16b_16r16x2cPU3AS1viiiDv2_iPt"),
              "intel_sub_group_2d_block_read_16b_16r16x2c");
    EXPECT_EQ(demangledName("_Z38intel_sub_group_f16_f16_matrix_mad_k16Dv8_sDv8_iDv8_f"),
              "intel_sub_group_f16_f16_matrix_mad_k16");
    EXPECT_EQ(demangledName("intel_sub_group_shuffle"), "intel_sub_group_shuffle");
    EXPECT_EQ(demangledName("_Z99short"), "_Z99short");  // length past the end: not mangled
}

// Every declaration the extensions list stands for an instruction the name grammar finds.
TEST(Builtins, EveryDeclarationOfTheTableMapsToAnInstruction) {
    ASSERT_GT(kOpenCLBuiltinCount, 300u);
    for (size_t i = 0; i < kOpenCLBuiltinCount; ++i) {
        const BuiltinDecl& d = kOpenCLBuiltins[i];
        BuiltinInstruction in;
        const bool image = std::strncmp(d.params, "image", 5) == 0;
        EXPECT_TRUE(builtinInstruction(d.name, image, 32, 32, &in)) << d.extension << " " << d.name;
        EXPECT_NE(in.opcode, 0u) << d.name;
    }
}

TEST(Builtins, ShapeComesFromTheName) {
    BuiltinInstruction in;
    ASSERT_TRUE(builtinInstruction("intel_sub_group_2d_block_read_16b_16r16x2c", false, 0, 0, &in));
    EXPECT_EQ(in.opcode, token(spv::Op::OpSubgroup2DBlockLoadINTEL));
    // Element Size 2 bytes, Block Width 16, Block Height 16, Block Count 2, then the arguments in order.
    EXPECT_EQ(operandsText(in), "c2 c16 c16 c2 a0 a1 a2 a3 a4 a5");
    ASSERT_TRUE(builtinInstruction("intel_sub_group_2d_block_read_transform_8b_32r16x4c", false, 0, 0, &in));
    EXPECT_EQ(in.opcode, token(spv::Op::OpSubgroup2DBlockLoadTransformINTEL));
    EXPECT_EQ(operandsText(in), "c1 c16 c32 c4 a0 a1 a2 a3 a4 a5");
    ASSERT_TRUE(builtinInstruction("intel_sub_group_2d_block_read_transpose_32b_32r8x1c", false, 0, 0, &in));
    EXPECT_EQ(in.opcode, token(spv::Op::OpSubgroup2DBlockLoadTransposeINTEL));
    EXPECT_EQ(operandsText(in), "c4 c8 c32 c1 a0 a1 a2 a3 a4 a5");
    ASSERT_TRUE(builtinInstruction("intel_sub_group_2d_block_prefetch_8b_8r32x2c", false, 0, 0, &in));
    EXPECT_EQ(in.opcode, token(spv::Op::OpSubgroup2DBlockPrefetchINTEL));
    EXPECT_EQ(operandsText(in), "c1 c32 c8 c2 a0 a1 a2 a3 a4");
    // The store takes Src Pointer (the built-in's last argument) before Dst Base Pointer.
    ASSERT_TRUE(builtinInstruction("intel_sub_group_2d_block_write_32b_8r16x1c", false, 0, 0, &in));
    EXPECT_EQ(in.opcode, token(spv::Op::OpSubgroup2DBlockStoreINTEL));
    EXPECT_EQ(operandsText(in), "c4 c16 c8 c1 a5 a0 a1 a2 a3 a4");
    EXPECT_FALSE(builtinInstruction("intel_sub_group_2d_block_read_16b_16r16x2", false, 0, 0, &in));
    EXPECT_FALSE(builtinInstruction("intel_sub_group_2d_block_load_16b_16r16x2c", false, 0, 0, &in));
}

TEST(Builtins, MatrixMadOperandsComeFromTheName) {
    BuiltinInstruction in;
    ASSERT_TRUE(builtinInstruction("intel_sub_group_i8_u8_matrix_mad_k32", false, 32, 32, &in));
    EXPECT_EQ(in.opcode, token(spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL));
    // ASigned | APackedInt8 | BPackedInt8: B unsigned.
    EXPECT_EQ(operandsText(in), "c32 a0 a1 a2 l49");
    ASSERT_TRUE(builtinInstruction("intel_sub_group_u4_i4_matrix_mad_k64", false, 32, 32, &in));
    EXPECT_EQ(operandsText(in), "c64 a0 a1 a2 l194");  // BSigned | APackedInt4 | BPackedInt4
    ASSERT_TRUE(builtinInstruction("intel_sub_group_f16_f16_matrix_mad_k16", false, 32, 32, &in));
    EXPECT_EQ(operandsText(in), "c16 a0 a1 a2 l3072");
    ASSERT_TRUE(builtinInstruction("intel_sub_group_bf16_bf16_matrix_mad_k16", false, 32, 32, &in));
    EXPECT_EQ(operandsText(in), "c16 a0 a1 a2 l12288");
    // short accumulator and result of a bf16 mad: CBFloat16 | ResultBFloat16.
    ASSERT_TRUE(builtinInstruction("intel_sub_group_bf16_bf16_matrix_mad_k16", false, 16, 16, &in));
    EXPECT_EQ(operandsText(in), "c16 a0 a1 a2 l12300");
    ASSERT_TRUE(builtinInstruction("intel_sub_group_tf32_tf32_matrix_mad_k8", false, 32, 32, &in));
    EXPECT_EQ(operandsText(in), "c8 a0 a1 a2 l768");
    EXPECT_FALSE(builtinInstruction("intel_sub_group_i2_i8_matrix_mad_k32", false, 32, 32, &in));
}

TEST(Builtins, SubgroupAndMediaArgumentsInInstructionOrder) {
    BuiltinInstruction in;
    ASSERT_TRUE(builtinInstruction("intel_sub_group_shuffle_down", false, 32, 32, &in));
    EXPECT_EQ(in.opcode, token(spv::Op::OpSubgroupShuffleDownINTEL));
    EXPECT_EQ(operandsText(in), "a0 a1 a2");
    ASSERT_TRUE(builtinInstruction("intel_sub_group_block_read_us4", false, 16, 0, &in));
    EXPECT_EQ(in.opcode, token(spv::Op::OpSubgroupBlockReadINTEL));
    ASSERT_TRUE(builtinInstruction("intel_sub_group_block_read_us4", true, 16, 0, &in));
    EXPECT_EQ(in.opcode, token(spv::Op::OpSubgroupImageBlockReadINTEL));
    EXPECT_EQ(operandsText(in), "a0 a1");
    ASSERT_TRUE(builtinInstruction("intel_sub_group_block_write_ul2", false, 0, 64, &in));
    EXPECT_EQ(in.opcode, token(spv::Op::OpSubgroupBlockWriteINTEL));
    EXPECT_EQ(operandsText(in), "a0 a1");
    // (coord, width, height, image) -> Image, Coordinate, Width, Height
    ASSERT_TRUE(builtinInstruction("intel_sub_group_media_block_read_us2", false, 16, 32, &in));
    EXPECT_EQ(in.opcode, token(spv::Op::OpSubgroupImageMediaBlockReadINTEL));
    EXPECT_EQ(operandsText(in), "a3 a0 a1 a2");
    // (coord, width, height, data, image) -> Image, Coordinate, Width, Height, Data
    ASSERT_TRUE(builtinInstruction("intel_sub_group_media_block_write_ui", false, 0, 32, &in));
    EXPECT_EQ(operandsText(in), "a4 a0 a1 a2 a3");
}

// The clang-15 + llvm-spirv-15 GEMM tile: A 8 x 16 halves and B 16 x 16 halves in 64-byte rows, C 8 x 16
// floats.
struct Gemm {
    static constexpr size_t kPitchBytes = 64;
    std::vector<uint8_t> a_store, b_store, c_store;
    uint8_t *a, *b, *c;
    Gemm()
        : a_store(8 * kPitchBytes + 64), b_store(16 * kPitchBytes + 64), c_store(8 * kPitchBytes + 64, 0xA5) {
        a = align(a_store), b = align(b_store), c = align(c_store);
        for (int r = 0; r < 8; ++r)
            for (int k = 0; k < 32; ++k) setHalf(a, r, k, float((r * 3 + k) % 7) - 3.0f);
        for (int k = 0; k < 16; ++k)
            for (int n = 0; n < 32; ++n) setHalf(b, k, n, float((k * 5 + n * 3) % 9) - 4.0f);
    }
    static uint8_t* align(std::vector<uint8_t>& v) {
        uintptr_t p = reinterpret_cast<uintptr_t>(v.data());
        return v.data() + ((64 - p % 64) % 64);
    }
    static void setHalf(uint8_t* m, int row, int col, float v) {
        uint16_t h = floatToHalf(v);
        std::memcpy(m + row * kPitchBytes + col * 2, &h, 2);
    }
    static float getHalf(const uint8_t* m, int row, int col) {
        uint16_t h;
        std::memcpy(&h, m + row * kPitchBytes + col * 2, 2);
        return halfToFloat(h);
    }
    float expected(int r, int n) const {
        float s = 0;
        for (int k = 0; k < 16; ++k) s += getHalf(a, r, k) * getHalf(b, k, n);
        return s;
    }
    float result(int r, int n) const {
        float v;
        std::memcpy(&v, c + r * kPitchBytes + n * 4, 4);
        return v;
    }
    std::vector<ArgValue> args(size_t c_offset = 0) {
        auto buf = [](uint8_t* base, size_t size) {
            ArgValue v;
            v.kind = ArgKind::GlobalBuffer, v.base = base, v.size = size;
            return v;
        };
        return {buf(a, 8 * kPitchBytes), buf(b, 16 * kPitchBytes),
                buf(c + c_offset, 8 * kPitchBytes - c_offset)};
    }
};

std::string fixtureText() {
    return test::readText(test::fixturePath("builtin_gemm.spvasm"));
}

std::vector<uint32_t> assembleText(const std::string& text) {
    return test::assembleWith(std::string(REFDEV_SPIRV_AS) + " --target-env spv1.1", text);
}

std::string replaceAll(std::string s, const std::string& from, const std::string& to) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

LaunchResult run(const Module& module, Gemm& g, const Profile& profile, size_t c_offset = 0) {
    NDRange range;
    range.global[0] = range.local[0] = 16;
    return launch(module, "gemm", g.args(c_offset), range, profile, Faults{}, 1);
}

TEST(BuiltinsCompiled, ClangGemmRunsOnEveryProfileWithTheExtensions) {
    const std::vector<uint32_t> words = assembleText(fixtureText());
    int ran = 0;
    for (const char* name : {"xe_hpc", "xe2", "xe3"}) {
        const Profile* profile = findProfile(name);
        ASSERT_NE(profile, nullptr) << name;
        BuildResult b = buildModule(words.data(), words.size(), *profile);
        ASSERT_TRUE(b.module) << name << ":\n" << b.log;
        Gemm g;
        LaunchResult r = run(*b.module, g, *profile);
        ASSERT_TRUE(r.ok) << name << ": " << r.error;
        for (int row = 0; row < 8; ++row)
            for (int n = 0; n < 16; ++n)
                EXPECT_EQ(g.result(row, n), g.expected(row, n)) << name << " C[" << row << "][" << n << "]";
        ++ran;
    }
    EXPECT_EQ(ran, 3);
}

// A built-in of an extension the profile does not report is refused at build, as its instruction is.
TEST(BuiltinsCompiled, RefusedWhereTheProfileHasNoExtension) {
    const std::vector<uint32_t> words = assembleText(fixtureText());
    for (const char* name : {"xe_hpg", "xe_lpg", "cpu"}) {
        BuildResult b = buildModule(words.data(), words.size(), *findProfile(name));
        EXPECT_FALSE(b.module) << name;
        EXPECT_NE(
            b.log.find("calls _Z41intel_sub_group_2d_block_read_16b_8r16x1cPU3AS1viiiDv2_iPt, a built-in "
                       "of cl_intel_subgroup_2d_block_io, which this device does not support (profile " +
                       std::string(name) + ")"),
            std::string::npos)
            << b.log;
    }
}

TEST(BuiltinsCompiled, UnknownImportIsABuildErrorNamingIt) {
    const std::string text =
        replaceAll(fixtureText(), "matrix_mad_k16Dv8_sDv8_iDv8_f", "matrix_mad_k17Dv8_sDv8_iDv8_f");
    const std::vector<uint32_t> words = assembleText(text);
    BuildResult b = buildModule(words.data(), words.size(), *findProfile("xe_hpc"));
    EXPECT_FALSE(b.module);
    EXPECT_NE(
        b.log.find("calls the imported function _Z38intel_sub_group_f16_f16_matrix_mad_k17Dv8_sDv8_iDv8_f, "
                   "which is not a built-in this device implements"),
        std::string::npos)
        << b.log;
}

TEST(BuiltinsCompiled, WrongSignatureIsABuildErrorNamingIt) {
    // The same call under the name of the int8 mad, whose overloads take int accumulators.
    const std::string text = replaceAll(fixtureText(), "_Z38intel_sub_group_f16_f16_matrix_mad_k16",
                                        "_Z36intel_sub_group_i8_i8_matrix_mad_k32");
    const std::vector<uint32_t> words = assembleText(text);
    BuildResult b = buildModule(words.data(), words.size(), *findProfile("xe_hpc"));
    EXPECT_FALSE(b.module);
    EXPECT_NE(
        b.log.find("calls _Z36intel_sub_group_i8_i8_matrix_mad_k32Dv8_sDv8_iDv8_f as 8 x f32 (8 x i16, "
                   "8 x i32, 8 x f32), which matches no overload of intel_sub_group_i8_i8_matrix_mad_k32"),
        std::string::npos)
        << b.log;
    // A 2D block read whose width argument is not an int.
    const std::string wrong_width = replaceAll(
        replaceAll(fixtureText(), "%10 = OpTypeFunction %void %_ptr_CrossWorkgroup_uchar %uint %uint",
                   "%10 = OpTypeFunction %void %_ptr_CrossWorkgroup_uchar %ushort %uint"),
        "%_Z41intel_sub_group_2d_block_read_16b_8r16x1cPU3AS1viiiDv2_iPt %a %uint_64",
        "%_Z41intel_sub_group_2d_block_read_16b_8r16x1cPU3AS1viiiDv2_iPt %a %ushort_64");
    const std::vector<uint32_t> w2 =
        assembleText(replaceAll(wrong_width, "%uint_64 = OpConstant %uint 64",
                                "%uint_64 = OpConstant %uint 64\n%ushort_64 = OpConstant %ushort 64"));
    b = buildModule(w2.data(), w2.size(), *findProfile("xe_hpc"));
    EXPECT_FALSE(b.module);
    EXPECT_NE(
        b.log.find(
            "calls _Z41intel_sub_group_2d_block_read_16b_8r16x1cPU3AS1viiiDv2_iPt as void (pointer (storage "
            "class 5), i16, i32, i32, 2 x i32, pointer (storage class 7)), which matches no overload"),
        std::string::npos)
        << b.log;
}

// The instruction's undefined-behaviour checks run on the built-in: a base address off the 64-byte line.
TEST(BuiltinsCompiled, UndefinedBehaviourChecksOfTheInstructionApply) {
    const std::vector<uint32_t> words = assembleText(fixtureText());
    const Profile& profile = *findProfile("xe_hpc");
    BuildResult b = buildModule(words.data(), words.size(), profile);
    ASSERT_TRUE(b.module) << b.log;
    Gemm g;
    LaunchResult r = run(*b.module, g, profile, 16);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("OpSubgroup2DBlockStoreINTEL"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("64"), std::string::npos) << r.error;
}

// tests/compiler_extras.spvasm: cache controls, kernel attributes, VectorAnyINTEL vectors, debug-information
// sets and OpUndef constituents, built and run on a GPU profile; refused where the profile lacks them.
std::string extrasText() {
    return test::readText(test::fixturePath("compiler_extras.spvasm"));
}

std::vector<uint32_t> assemble14(const std::string& text) {
    return test::assembleWith(std::string(REFDEV_SPIRV_AS) + " --target-env spv1.4", text);
}

TEST(CompilerOutput, ExtrasBuildAndRunOnGpuProfiles) {
    const std::vector<uint32_t> words = assemble14(extrasText());
    for (const char* name : {"xe_hpc", "xe_hpg", "xe2", "xe_lpg"}) {
        const Profile& profile = *findProfile(name);
        BuildResult b = buildModule(words.data(), words.size(), profile);
        ASSERT_TRUE(b.module) << name << ":\n" << b.log;
        std::vector<uint32_t> in(32), out(32, 0);
        for (uint32_t i = 0; i < 32; ++i) in[i] = i * 3;
        NDRange range;
        range.global[0] = 32, range.local[0] = 16;
        LaunchResult r =
            launch(*b.module, "extras", {test::buffer(in), test::buffer(out)}, range, profile, Faults{}, 1);
        ASSERT_TRUE(r.ok) << name << ": " << r.error;
        for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(out[i], i * 3 + 12) << name << " " << i;
    }
}

// MaxWorkgroupSizeINTEL 64 1 1 reaches the kernel's info, which the ICD enforces at enqueue
// (CL_INVALID_WORK_GROUP_SIZE above 64) and reports as CL_KERNEL_WORK_GROUP_SIZE; a size of 0 is refused.
TEST(CompilerOutput, MaxWorkgroupSizeReachesTheKernelInfo) {
    const Profile& profile = *findProfile("xe_hpc");
    const std::vector<uint32_t> words = assemble14(extrasText());
    BuildResult b = buildModule(words.data(), words.size(), profile);
    ASSERT_TRUE(b.module) << b.log;
    const std::vector<KernelInfo>& infos = kernels(*b.module);
    ASSERT_EQ(infos.size(), 1u);
    EXPECT_EQ(infos[0].max_work_group_size[0], 64u);
    EXPECT_EQ(infos[0].max_work_group_size[1], 1u);
    EXPECT_EQ(infos[0].max_work_group_size[2], 1u);
    const std::vector<uint32_t> zero =
        assemble14(replaceAll(extrasText(), "MaxWorkgroupSizeINTEL 64 1 1", "MaxWorkgroupSizeINTEL 64 0 1"));
    BuildResult z = buildModule(zero.data(), zero.size(), profile);
    EXPECT_FALSE(z.module);
    EXPECT_NE(z.log.find("MaxWorkgroupSizeINTEL needs three sizes of at least 1"), std::string::npos)
        << z.log;
}

TEST(CompilerOutput, CpuProfileRefusesTheCompilerExtensions) {
    const std::vector<uint32_t> words = assemble14(extrasText());
    BuildResult b = buildModule(words.data(), words.size(), *findProfile("cpu"));
    EXPECT_FALSE(b.module);
    EXPECT_NE(b.log.find("extension SPV_INTEL_cache_controls is not supported by this device (profile cpu)"),
              std::string::npos)
        << b.log;
}

TEST(CompilerOutput, OddVectorsNeedVectorAnyINTEL) {
    const std::vector<uint32_t> words =
        assemble14(replaceAll(extrasText(), "OpCapability VectorAnyINTEL\n", ""));
    BuildResult b = buildModule(words.data(), words.size(), *findProfile("xe_hpc"));
    EXPECT_FALSE(b.module);
    EXPECT_NE(b.log.find("vector component count 1 is not supported (without capability VectorAnyINTEL)"),
              std::string::npos)
        << b.log;
}

TEST(CompilerOutput, OtherExtendedInstructionSetsStayRefused) {
    const std::vector<uint32_t> words =
        assemble14(replaceAll(extrasText(), "\"NonSemantic.Shader.DebugInfo.100\"", "\"GLSL.std.450\""));
    BuildResult b = buildModule(words.data(), words.size(), *findProfile("xe_hpc"));
    EXPECT_FALSE(b.module);
    EXPECT_NE(b.log.find("extended instruction set \"GLSL.std.450\" is not supported"), std::string::npos)
        << b.log;
}

}  // namespace
}  // namespace refdev::spirv
