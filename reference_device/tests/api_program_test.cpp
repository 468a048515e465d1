// Programs beyond clBuildProgram of one module: specialization constants
// (clSetProgramSpecializationConstant), clCompileProgram + clLinkProgram of SPIR-V modules with Linkage,
// OpenCL C source through clang-15 + llvm-spirv-15, and the compiler/linker queries a FULL_PROFILE device
// must answer alike. Kernels run only on the real interpreter; the stand-in checks the API.
// SpecConstantTest.ValuesReachTheKernel, DoubleWhereTheDeviceHasFp64 and DerivedByOpSpecConstantOp also run
// under REFDEV_FAULTS=spec_constant_ignored (CMakeLists.txt), where they expect the defaults the fault
// leaves.
#include <cstdlib>
#include <cstring>
#include <string>

#include "reference_device/tests/api_test_util.h"

namespace refdev_test {
namespace {

bool faultActive(const char* name) {
    const char* f = std::getenv("REFDEV_FAULTS");
    return f && std::string(f) == name;
}

class ProgramTest : public ApiTest {
protected:
    cl_program ilProgram(const std::string& fixture) {
        std::vector<unsigned char> il = readFixture(fixture);
        EXPECT_FALSE(il.empty()) << "missing fixture " << fixture;
        cl_int err = CL_SUCCESS;
        cl_program p = clCreateProgramWithIL(context_, il.data(), il.size(), &err);
        EXPECT_EQ(err, CL_SUCCESS);
        return p;
    }
    cl_program compiled(const std::string& fixture) {
        cl_program p = ilProgram(fixture);
        EXPECT_EQ(clCompileProgram(p, 1, &device_, "", 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS)
            << buildLog(p);
        return p;
    }
    // Builds OpenCL C `src` with `options`; *p is left null (and the program released) when the tool chain is
    // not installed, so the caller can skip.
    cl_int buildSource(const char* src, const char* options, cl_program* p) {
        cl_int err = CL_SUCCESS;
        *p = clCreateProgramWithSource(context_, 1, &src, nullptr, &err);
        EXPECT_EQ(err, CL_SUCCESS);
        const cl_int built = clBuildProgram(*p, 1, &device_, options, nullptr, nullptr);
        if (built == CL_BUILD_PROGRAM_FAILURE && buildLog(*p).find("not installed") != std::string::npos) {
            clReleaseProgram(*p);
            *p = nullptr;
        }
        return built;
    }
    cl_program_binary_type binaryType(cl_program p) {
        cl_program_binary_type t = 0;
        EXPECT_EQ(clGetProgramBuildInfo(p, device_, CL_PROGRAM_BINARY_TYPE, sizeof t, &t, nullptr),
                  CL_SUCCESS);
        return t;
    }
    // Runs kernel `name` of p on one work-item with one buffer of `count` elements of T, returned.
    template <typename T>
    std::vector<T> run(cl_program p, const char* name, size_t count) {
        std::vector<T> out(count, T(0));
        cl_int err = CL_SUCCESS;
        cl_kernel k = clCreateKernel(p, name, &err);
        EXPECT_EQ(err, CL_SUCCESS);
        if (!k) return out;
        cl_mem b = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, count * sizeof(T),
                                  out.data(), &err);
        EXPECT_EQ(err, CL_SUCCESS);
        EXPECT_EQ(clSetKernelArg(k, 0, sizeof b, &b), CL_SUCCESS);
        size_t one = 1;
        EXPECT_EQ(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &one, &one, 0, nullptr, nullptr), CL_SUCCESS);
        EXPECT_EQ(
            clEnqueueReadBuffer(queue_, b, CL_TRUE, 0, count * sizeof(T), out.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
        clReleaseMemObject(b);
        clReleaseKernel(k);
        return out;
    }
};

using SpecConstantTest = ProgramTest;

// Every width, the booleans, and values derived from a specialised constant (arithmetic, a composite).
TEST_F(SpecConstantTest, ValuesReachTheKernel) {
    cl_program p = ilProgram("spec_constants.spv");
    const cl_uchar u8 = 200;
    const cl_ushort u16 = 60000;
    const cl_uint u32 = 0xdeadbeefu;
    const cl_ulong u64 = 0x123456789abcdef0ull;
    const cl_float f32 = 2.25f;
    const cl_half f16 = 0x4000;  // 2.0
    const cl_uchar off = 0, on = 1;
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 1, sizeof u8, &u8), CL_SUCCESS);
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 2, sizeof u16, &u16), CL_SUCCESS);
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 3, sizeof u32, &u32), CL_SUCCESS);
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 4, sizeof u64, &u64), CL_SUCCESS);
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 5, sizeof f32, &f32), CL_SUCCESS);
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 6, sizeof f16, &f16), CL_SUCCESS);
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 7, 1, &off), CL_SUCCESS);  // default true
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 8, 1, &on), CL_SUCCESS);   // default false
    ASSERT_EQ(clBuildProgram(p, 1, &device_, "", nullptr, nullptr), CL_SUCCESS) << buildLog(p);
    if (standIn()) {
        clReleaseProgram(p);
        GTEST_SKIP() << "the stand-in interpreter runs no kernels";
    }
    std::vector<cl_ulong> out = run<cl_ulong>(p, "spec", 10);
    cl_uint f32_bits = 0;
    std::memcpy(&f32_bits, &f32, 4);
    std::vector<cl_ulong> want = {u8, u16, u32, u64, f32_bits, f16, 0, 1, cl_ulong(u32 + 1u), u32};
    if (faultActive("spec_constant_ignored"))  // the planted fault: every default stays
        want = {1, 2, 3, 4, 0x3fc00000u, 0x3c00, 1, 0, 4, 3};
    EXPECT_EQ(out, want);
    clReleaseProgram(p);
}

// OpSpecConstantOp results are computed from the specialised values, not the defaults (n = 4, flag = false
// give {13, 100, 8}).
TEST_F(SpecConstantTest, DerivedByOpSpecConstantOp) {
    cl_program p = ilProgram("spec_constant_op.spv");
    const cl_uint n = 10;
    const cl_uchar on = 1;
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 1, sizeof n, &n), CL_SUCCESS);
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 2, 1, &on), CL_SUCCESS);
    ASSERT_EQ(clBuildProgram(p, 1, &device_, "", nullptr, nullptr), CL_SUCCESS) << buildLog(p);
    if (standIn()) {
        clReleaseProgram(p);
        GTEST_SKIP() << "the stand-in interpreter runs no kernels";
    }
    std::vector<cl_uint> want = {31, 10, 20};
    if (faultActive("spec_constant_ignored")) want = {13, 100, 8};
    EXPECT_EQ(run<cl_uint>(p, "derived", 3), want);
    clReleaseProgram(p);
}

TEST_F(SpecConstantTest, DefaultsWithoutValues) {
    if (standIn()) GTEST_SKIP() << "the stand-in interpreter runs no kernels";
    cl_program p = buildFixture("spec_constants.spv");
    std::vector<cl_ulong> want = {1, 2, 3, 4, 0x3fc00000u, 0x3c00, 1, 0, 4, 3};
    EXPECT_EQ(run<cl_ulong>(p, "spec", 10), want);
    clReleaseProgram(p);
}

TEST_F(SpecConstantTest, DoubleWhereTheDeviceHasFp64) {
    cl_device_fp_config fp64 = 0;
    clGetDeviceInfo(device_, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, nullptr);
    if (!fp64) GTEST_SKIP() << "no cl_khr_fp64 on this profile";
    cl_program p = ilProgram("spec_constant_double.spv");
    const cl_double d = -3.5;
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 1, 4, &d), CL_INVALID_VALUE);
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 1, sizeof d, &d), CL_SUCCESS);
    ASSERT_EQ(clBuildProgram(p, 1, &device_, "", nullptr, nullptr), CL_SUCCESS) << buildLog(p);
    if (!standIn()) {
        cl_ulong bits = 0;
        std::memcpy(&bits, &d, 8);
        EXPECT_EQ(run<cl_ulong>(p, "spec", 1)[0],
                  faultActive("spec_constant_ignored") ? 0x3fe0000000000000ull : bits);
    }
    clReleaseProgram(p);
}

TEST_F(SpecConstantTest, BadIdSizeValueAndProgram) {
    cl_program p = ilProgram("spec_constants.spv");
    const cl_ulong v = 0;
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 9, 4, &v), CL_INVALID_SPEC_ID);  // not declared
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 0, 1, &v), CL_INVALID_SPEC_ID);
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 3, 8, &v), CL_INVALID_VALUE);  // uint takes 4
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 2, 4, &v), CL_INVALID_VALUE);  // ushort takes 2
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 7, 4, &v), CL_INVALID_VALUE);  // a bool takes 1
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 6, 2, nullptr), CL_INVALID_VALUE);
    EXPECT_EQ(clSetProgramSpecializationConstant(p, 6, 2, &v), CL_SUCCESS);
    EXPECT_EQ(clSetProgramSpecializationConstant(nullptr, 6, 2, &v), CL_INVALID_PROGRAM);
    const char* src = "kernel void k(global int* p) { p[0] = 1; }";
    cl_int err = CL_SUCCESS;
    cl_program source = clCreateProgramWithSource(context_, 1, &src, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(clSetProgramSpecializationConstant(source, 1, 1, &v), CL_INVALID_PROGRAM);  // not IL
    clReleaseProgram(source);
    clReleaseProgram(p);
}

TEST_F(ProgramTest, CompilerAndLinkerQueriesAgreeWithTheProfile) {
    cl_bool compiler = CL_FALSE, linker = CL_FALSE;
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_COMPILER_AVAILABLE, sizeof compiler, &compiler, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_LINKER_AVAILABLE, sizeof linker, &linker, nullptr),
              CL_SUCCESS);
    // Only an EMBEDDED_PROFILE device may lack them (OpenCL 3.0, clGetDeviceInfo).
    EXPECT_EQ(deviceString(device_, CL_DEVICE_PROFILE), "FULL_PROFILE");
    EXPECT_EQ(compiler, CL_TRUE);
    EXPECT_EQ(linker, CL_TRUE);
}

TEST_F(ProgramTest, CompileThenLinkTwoModules) {
    cl_program exporter = compiled("link_export.spv");
    cl_program importer = compiled("link_import.spv");
    EXPECT_EQ(binaryType(importer), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));
    size_t kernels = 0;
    EXPECT_EQ(clGetProgramInfo(importer, CL_PROGRAM_NUM_KERNELS, sizeof kernels, &kernels, nullptr),
              CL_INVALID_PROGRAM_EXECUTABLE);  // an object is not an executable
    cl_program inputs[] = {importer, exporter};
    cl_int err = CL_SUCCESS;
    cl_program linked = clLinkProgram(context_, 1, &device_, "", 2, inputs, nullptr, nullptr, &err);
    if (standIn()) {  // the stand-in links one module only
        EXPECT_EQ(err, CL_LINK_PROGRAM_FAILURE);
    } else {
        ASSERT_EQ(err, CL_SUCCESS) << (linked ? buildLog(linked) : "");
        EXPECT_EQ(binaryType(linked), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
        EXPECT_EQ(clGetProgramInfo(linked, CL_PROGRAM_NUM_KERNELS, sizeof kernels, &kernels, nullptr),
                  CL_SUCCESS);
        EXPECT_EQ(kernels, 1u);
        std::vector<cl_uint> want = {15, 1234};
        EXPECT_EQ(run<cl_uint>(linked, "k", 2), want);
        EXPECT_EQ(clBuildProgram(linked, 1, &device_, "", nullptr, nullptr), CL_INVALID_OPERATION);
    }
    if (linked) clReleaseProgram(linked);
    clReleaseProgram(importer);
    clReleaseProgram(exporter);
}

TEST_F(ProgramTest, LibraryThenExecutable) {
    if (standIn()) GTEST_SKIP() << "the stand-in interpreter links one module only";
    cl_program exporter = compiled("link_export.spv");
    cl_int err = CL_SUCCESS;
    EXPECT_EQ(
        clLinkProgram(context_, 1, &device_, "-enable-link-options", 1, &exporter, nullptr, nullptr, &err),
        nullptr);
    EXPECT_EQ(err, CL_INVALID_LINKER_OPTIONS);  // only with -create-library
    EXPECT_EQ(clLinkProgram(context_, 1, &device_, "-no-such-option", 1, &exporter, nullptr, nullptr, &err),
              nullptr);
    EXPECT_EQ(err, CL_INVALID_LINKER_OPTIONS);
    cl_program library = clLinkProgram(context_, 1, &device_, "-create-library -enable-link-options", 1,
                                       &exporter, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(binaryType(library), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_LIBRARY));
    cl_program importer = compiled("link_import.spv");
    cl_program inputs[] = {library, importer};
    cl_program linked = clLinkProgram(context_, 0, nullptr, nullptr, 2, inputs, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS) << (linked ? buildLog(linked) : "");
    std::vector<cl_uint> want = {15, 1234};
    EXPECT_EQ(run<cl_uint>(linked, "k", 2), want);
    cl_program not_compiled = ilProgram("link_export.spv");  // never compiled: no object to link
    EXPECT_EQ(clLinkProgram(context_, 0, nullptr, nullptr, 1, &not_compiled, nullptr, nullptr, &err),
              nullptr);
    EXPECT_EQ(err, CL_INVALID_OPERATION);
    for (cl_program p : {linked, importer, library, exporter, not_compiled}) clReleaseProgram(p);
}

TEST_F(ProgramTest, UnresolvedImportFailsTheLinkNamingIt) {
    if (standIn()) GTEST_SKIP() << "the stand-in interpreter does not resolve imports";
    cl_program importer = compiled("link_import.spv");
    cl_int err = CL_SUCCESS;
    cl_program linked = clLinkProgram(context_, 1, &device_, "", 1, &importer, nullptr, nullptr, &err);
    EXPECT_EQ(err, CL_LINK_PROGRAM_FAILURE);
    ASSERT_NE(linked, nullptr);  // the program carries the log
    const std::string log = buildLog(linked);
    EXPECT_NE(log.find("unresolved import \"add_ten\""), std::string::npos) << log;
    EXPECT_NE(log.find("unresolved import \"magic\""), std::string::npos) << log;
    cl_build_status status = CL_BUILD_NONE;
    clGetProgramBuildInfo(linked, device_, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr);
    EXPECT_EQ(status, CL_BUILD_ERROR);
    cl_kernel k = clCreateKernel(linked, "k", &err);
    EXPECT_EQ(k, nullptr);
    EXPECT_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
    // The same module as a library keeps its imports for a later link.
    cl_program library =
        clLinkProgram(context_, 1, &device_, "-create-library", 1, &importer, nullptr, nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS) << (library ? buildLog(library) : "");
    for (cl_program p : {linked, library, importer})
        if (p) clReleaseProgram(p);
}

// OpenCL C goes through clang-15 and llvm-spirv-15 when they are installed; without them the build fails and
// the log names the missing tool.
TEST_F(ProgramTest, SourceBuildsWithClangOrNamesTheMissingTool) {
    const char* src = "kernel void k(global uint* p) { p[0] = ADD + 40; }";
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(context_, 1, &src, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(clBuildProgram(p, 1, &device_, "-no-such-option", nullptr, nullptr), CL_INVALID_BUILD_OPTIONS);
    setenv("REFDEV_CLANG", "/nonexistent/clang-15", 1);
    EXPECT_EQ(clBuildProgram(p, 1, &device_, "-DADD=2", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
    unsetenv("REFDEV_CLANG");
    EXPECT_NE(buildLog(p).find("needs clang-15"), std::string::npos) << buildLog(p);
    cl_int built = clBuildProgram(p, 1, &device_, "-DADD=2 -cl-std=CL1.2", nullptr, nullptr);
    if (built == CL_BUILD_PROGRAM_FAILURE && buildLog(p).find("not installed") != std::string::npos) {
        clReleaseProgram(p);
        GTEST_SKIP() << buildLog(p);
    }
    ASSERT_EQ(built, CL_SUCCESS) << buildLog(p);
    EXPECT_EQ(binaryType(p), cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_EXECUTABLE));
    if (!standIn()) EXPECT_EQ(run<cl_uint>(p, "k", 1)[0], 42u);
    // Compiled separately and linked as one object.
    ASSERT_EQ(clCompileProgram(p, 0, nullptr, "-DADD=3", 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS)
        << buildLog(p);
    cl_program linked = clLinkProgram(context_, 0, nullptr, "", 1, &p, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS) << (linked ? buildLog(linked) : "");
    if (!standIn()) EXPECT_EQ(run<cl_uint>(linked, "k", 1)[0], 43u);
    clReleaseProgram(linked);
    clReleaseProgram(p);
}

// OpenCL C defines the work-item functions for every dimension (0 beyond the last, sizes 1); llvm-spirv-15
// leaves a dimension the compiler cannot see undefined, so the device's prelude (icd/opencl_c_prelude.h)
// guards it. And the feature macros follow what the device reports.
TEST_F(ProgramTest, SourceSeesOpenCLCsWorkItemValuesAndTheReportedFeatures) {
    const char* src =
        "kernel void k(global uint* p) {\n"
        "  volatile uint d = 3;\n"  // not a constant to the compiler
        "  p[0] = get_global_id(d) + 10; p[1] = get_global_size(d); p[2] = get_local_size(d + 1);\n"
        "  p[3] = get_num_groups(d); p[4] = get_group_id(d) + 10; p[5] = get_global_id(d - 3) + 20;\n"
        "#ifdef __IMAGE_SUPPORT__\n  p[6] = 1;\n#endif\n"
        "#ifdef cl_khr_fp64\n  p[7] = 1;\n#endif\n"
        "}\n";
    for (const char* options : {"-cl-std=CL1.2", "-cl-std=CL3.0 -cl-opt-disable"}) {
        cl_program p = nullptr;
        const cl_int built = buildSource(src, options, &p);
        if (!p) GTEST_SKIP() << "clang-15 or llvm-spirv-15 not installed";
        ASSERT_EQ(built, CL_SUCCESS) << options << ": " << buildLog(p);
        if (!standIn()) {
            const std::vector<cl_uint> out = run<cl_uint>(p, "k", 8);
            cl_bool images = CL_FALSE;
            ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, nullptr),
                      CL_SUCCESS);
            const bool fp64 =
                deviceString(device_, CL_DEVICE_EXTENSIONS).find("cl_khr_fp64") != std::string::npos;
            EXPECT_EQ(out, (std::vector<cl_uint>{10, 1, 1, 1, 10, 20, images ? 1u : 0u, fp64 ? 1u : 0u}))
                << options;
        }
        clReleaseProgram(p);
    }
}

// A private array filled from global memory becomes a memcpy at -O2, which llvm-spirv-15 translates only from
// typed pointers (clang-15 must be told -no-opaque-pointers, else the translator asserts), and which it emits
// with the array's OpVariable after a bitcast: the device takes that module as it comes.
TEST_F(ProgramTest, SourceCopyingGlobalIntoAPrivateArrayBuildsAndRuns) {
    const char* src =
        "kernel void k(global float* p) {\n"
        "  private float s[32];\n"
        "  for (int i = 0; i < 32; i++) s[i] = p[i];\n"
        "  p[40] = vload2(1, s + 1).y + 2.0f;\n"
        "}\n";
    for (const char* options : {"", "-cl-opt-disable"}) {
        cl_program p = nullptr;
        const cl_int built = buildSource(src, options, &p);
        if (!p) GTEST_SKIP() << "clang-15 or llvm-spirv-15 not installed";
        ASSERT_EQ(built, CL_SUCCESS) << "'" << options << "': " << buildLog(p);
        if (!standIn()) EXPECT_EQ(run<cl_float>(p, "k", 48)[40], 2.0f) << options;
        clReleaseProgram(p);
    }
}

}  // namespace
}  // namespace refdev_test
