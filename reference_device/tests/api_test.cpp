// Platform, device, context, queue, program and event behaviour of the reference device's ICD.
#include <CL/cl_icd.h>
#include <dlfcn.h>

#include <dirent.h>
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>

#include "reference_device/spirv/tokens.h"
#include "reference_device/tests/api_test_util.h"

#ifndef CL_DEVICE_SUB_GROUP_SIZES_INTEL
#define CL_DEVICE_SUB_GROUP_SIZES_INTEL 0x4108
#endif
#define REFDEV_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR 0x12B9
#define REFDEV_SPIRV_EXTENSIONS_KHR 0x12BA
#define REFDEV_SPIRV_CAPABILITIES_KHR 0x12BB

// The profiles report media block IO and MMA only when their op family is built (profile.cpp).
#ifdef REFDEV_HAVE_EXT_MEDIA_BLOCK_IO
constexpr bool kMedia = true;
#else
constexpr bool kMedia = false;
#endif
#ifdef REFDEV_HAVE_EXT_MATRIX_MULTIPLY_ACCUMULATE
constexpr bool kMma = true;
#else
constexpr bool kMma = false;
#endif

namespace refdev_test {
namespace {

std::set<std::string> split(const std::string& s) {
    std::set<std::string> out;
    size_t start = 0;
    while (start < s.size()) {
        size_t end = s.find(' ', start);
        if (end == std::string::npos) end = s.size();
        if (end > start) out.insert(s.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

// What each device class reports (test_conformance/targets/*.json), written out here on its own so that the
// profiles are checked against a second statement of the facts, not against themselves.
struct ClassFacts {
    std::vector<size_t> sub_group_sizes;
    bool fp64, images, khr_subgroups, block_2d, tf32, media;
    bool cpu = false;  // CL_DEVICE_TYPE_CPU, work-groups up to 8192, 256 KiB local memory (else a GPU: 1024,
                       // 64 KiB)
};

const ClassFacts& classFacts(const std::string& profile) {
    static const std::map<std::string, ClassFacts> facts = {
        // sizes           fp64   images khr_sg 2D     tf32   media
        // cl_khr_subgroups: the GPU classes that report it are withheld from it (profile.cpp: no independent
        // forward progress of sub-groups on this device).
        {"xe_hpc", {{16, 32}, true, false, false, true, true, false}},
        {"xe_hpg", {{8, 16, 32}, false, true, false, false, false, true}},
        {"xe2", {{16, 32}, true, true, false, true, true, false}},
        {"xe3", {{16, 32}, true, true, false, true, true, false}},
        {"xe_lpg", {{8, 16, 32}, true, true, false, false, false, true}},
        {"cpu", {{4, 8, 16, 32, 64}, true, true, false, false, false, false, true}},
    };
    auto it = facts.find(profile);
    if (it == facts.end()) {
        ADD_FAILURE() << "no facts written down for profile " << profile;
        static const ClassFacts none{};
        return none;
    }
    return it->second;
}

// MMA: every class with DPAS (all but Xe-LPG and the CPU device), when the family is built.
bool hasMma(const std::string& profile) {
    return kMma && profile != "xe_lpg" && profile != "cpu";
}

TEST_F(ApiTest, PlatformReportsOpenCL30AndIcdSuffix) {
    char version[256] = {};
    ASSERT_EQ(clGetPlatformInfo(platform_, CL_PLATFORM_VERSION, sizeof(version), version, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(std::string(version).rfind("OpenCL 3.0 ", 0), 0u) << version;
    char suffix[64] = {};
    ASSERT_EQ(clGetPlatformInfo(platform_, CL_PLATFORM_ICD_SUFFIX_KHR, sizeof(suffix), suffix, nullptr),
              CL_SUCCESS);
    EXPECT_STRNE(suffix, "");
    // A value buffer smaller than the answer is CL_INVALID_VALUE, not a truncated string.
    EXPECT_EQ(clGetPlatformInfo(platform_, CL_PLATFORM_VERSION, 4, version, nullptr), CL_INVALID_VALUE);
    EXPECT_EQ(clGetPlatformInfo(platform_, 0xdead, sizeof(version), version, nullptr), CL_INVALID_VALUE);
}

TEST_F(ApiTest, DeviceTypesAndCounts) {
    cl_uint n = 0;
    // The type of the class the profile stands for: Intel's CPU device is a CPU, the others GPUs.
    const bool cpu = classFacts(profileName()).cpu;
    const cl_device_type own = cpu ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
    const cl_device_type other = cpu ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_CPU;
    EXPECT_EQ(clGetDeviceIDs(platform_, own, 0, nullptr, &n), CL_SUCCESS);
    EXPECT_EQ(n, 1u);
    cl_device_type reported = 0;
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_TYPE, sizeof(reported), &reported, nullptr), CL_SUCCESS);
    EXPECT_EQ(reported, own);
    EXPECT_EQ(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_DEFAULT, 0, nullptr, &n), CL_SUCCESS);
    EXPECT_EQ(clGetDeviceIDs(platform_, other, 0, nullptr, &n), CL_DEVICE_NOT_FOUND);
    EXPECT_EQ(clGetDeviceIDs(platform_, cl_device_type(1) << 40, 0, nullptr, &n), CL_INVALID_DEVICE_TYPE);
    cl_device_id d = nullptr;
    EXPECT_EQ(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 0, &d, nullptr), CL_INVALID_VALUE);
}

TEST_F(ApiTest, ExtensionStringMatchesExtensionsWithVersion) {
    std::set<std::string> names = split(deviceString(device_, CL_DEVICE_EXTENSIONS));
    size_t size = 0;
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_EXTENSIONS_WITH_VERSION, 0, nullptr, &size), CL_SUCCESS);
    std::vector<cl_name_version> versions(size / sizeof(cl_name_version));
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_EXTENSIONS_WITH_VERSION, size, versions.data(), nullptr),
              CL_SUCCESS);
    std::set<std::string> versioned;
    for (const cl_name_version& nv : versions) versioned.insert(nv.name);
    EXPECT_EQ(names, versioned);
    for (const char* required :
         {"cl_khr_il_program", "cl_khr_spirv_queries", "cl_intel_subgroups", "cl_intel_spirv_subgroups",
          "cl_intel_required_subgroup_size", "cl_intel_subgroups_short", "cl_intel_subgroups_char",
          "cl_intel_subgroups_long", "cl_khr_fp16"})
        EXPECT_TRUE(names.count(required)) << required;
    // As the hardware classes report them (test_conformance/targets).
    const std::string profile = profileName();
    const ClassFacts& f = classFacts(profile);
    EXPECT_EQ(names.count("cl_khr_fp64") == 1, f.fp64) << profile;
    EXPECT_EQ(names.count("cl_khr_subgroups") == 1, f.khr_subgroups) << profile;
    // cl_khr_subgroups requires independent forward progress; a device without it must not claim the
    // extension.
    cl_bool ifp = CL_TRUE;
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, sizeof(ifp), &ifp,
                              nullptr),
              CL_SUCCESS);
    EXPECT_TRUE(ifp == CL_TRUE || names.count("cl_khr_subgroups") == 0)
        << profile << ": cl_khr_subgroups reported with independent forward progress false";
    EXPECT_EQ(names.count("cl_khr_image2d_from_buffer") == 1, f.images) << profile;
    EXPECT_EQ(names.count("cl_intel_subgroup_2d_block_io") == 1, f.block_2d) << profile;
    EXPECT_EQ(names.count("cl_intel_subgroup_matrix_multiply_accumulate") == 1, hasMma(profile)) << profile;
    EXPECT_EQ(names.count("cl_intel_subgroup_matrix_multiply_accumulate_tf32") == 1, f.tf32 && kMma)
        << profile;
    EXPECT_EQ(names.count("cl_intel_spirv_media_block_io") == 1, f.media && kMedia) << profile;
    for (const cl_name_version& nv : versions)
        if (std::string(nv.name) == "cl_intel_subgroup_2d_block_io")
            EXPECT_EQ(nv.version, CL_MAKE_VERSION(1, 1, 0)) << "the OpenCL-Docs spec is at version 1.1.0";
}

TEST_F(ApiTest, SubGroupSizesFollowProfile) {
    size_t size = 0;
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, nullptr, &size), CL_SUCCESS);
    std::vector<size_t> sizes(size / sizeof(size_t));
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_SUB_GROUP_SIZES_INTEL, size, sizes.data(), nullptr),
              CL_SUCCESS);
    const std::vector<size_t>& expected = classFacts(profileName()).sub_group_sizes;
    ASSERT_FALSE(expected.empty());
    EXPECT_EQ(sizes, expected);
    cl_uint max_sub_groups = 0;
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof(max_sub_groups), &max_sub_groups,
                              nullptr),
              CL_SUCCESS);
    EXPECT_EQ(max_sub_groups, (classFacts(profileName()).cpu ? 8192 : 1024) / expected.front());
}

TEST_F(ApiTest, SpirvQueriesListProfileExtensionsAndCapabilities) {
    EXPECT_EQ(deviceString(device_, CL_DEVICE_IL_VERSION),
              "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4");
    size_t size = 0;
    ASSERT_EQ(clGetDeviceInfo(device_, REFDEV_SPIRV_EXTENSIONS_KHR, 0, nullptr, &size), CL_SUCCESS);
    std::vector<const char*> exts(size / sizeof(const char*));
    ASSERT_EQ(clGetDeviceInfo(device_, REFDEV_SPIRV_EXTENSIONS_KHR, size, exts.data(), nullptr), CL_SUCCESS);
    std::set<std::string> spv(exts.begin(), exts.end());
    const std::string profile = profileName();
    const ClassFacts& f = classFacts(profile);
    const bool mma = hasMma(profile), media = f.media && kMedia;
    EXPECT_TRUE(spv.count("SPV_INTEL_subgroups"));
    EXPECT_EQ(spv.count("SPV_INTEL_subgroup_matrix_multiply_accumulate") == 1, mma);
    EXPECT_EQ(spv.count("SPV_INTEL_2d_block_io") == 1, f.block_2d);
    EXPECT_EQ(spv.count("SPV_INTEL_media_block_io") == 1, media);
    ASSERT_EQ(clGetDeviceInfo(device_, REFDEV_SPIRV_CAPABILITIES_KHR, 0, nullptr, &size), CL_SUCCESS);
    std::vector<cl_uint> caps(size / sizeof(cl_uint));
    ASSERT_EQ(clGetDeviceInfo(device_, REFDEV_SPIRV_CAPABILITIES_KHR, size, caps.data(), nullptr),
              CL_SUCCESS);
    auto has = [&](cl_uint c) { return std::find(caps.begin(), caps.end(), c) != caps.end(); };
    EXPECT_TRUE(has(refdev::token(spv::Capability::Kernel)) &&
                has(refdev::token(spv::Capability::SubgroupShuffleINTEL)) &&
                has(refdev::token(spv::Capability::SubgroupBufferBlockIOINTEL)) &&
                has(refdev::token(spv::Capability::SubgroupImageBlockIOINTEL)));
    EXPECT_EQ(has(refdev::token(spv::Capability::SubgroupMatrixMultiplyAccumulateINTEL)), mma);
    EXPECT_EQ(has(refdev::token(spv::Capability::Subgroup2DBlockIOINTEL)) &&
                  has(refdev::token(spv::Capability::Subgroup2DBlockTransformINTEL)) &&
                  has(refdev::token(spv::Capability::Subgroup2DBlockTransposeINTEL)),
              f.block_2d);
    EXPECT_EQ(has(refdev::token(spv::Capability::SubgroupImageMediaBlockIOINTEL)), media);
    EXPECT_EQ(has(refdev::token(spv::Capability::Float64)), f.fp64);
    EXPECT_EQ(has(refdev::token(spv::Capability::ImageBasic)), f.images);
    ASSERT_EQ(clGetDeviceInfo(device_, REFDEV_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR, 0, nullptr, &size),
              CL_SUCCESS);
    std::vector<const char*> sets(size / sizeof(const char*));
    ASSERT_EQ(
        clGetDeviceInfo(device_, REFDEV_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR, size, sets.data(), nullptr),
        CL_SUCCESS);
    ASSERT_EQ(sets.size(), 1u);
    EXPECT_STREQ(sets[0], "OpenCL.std");
}

TEST_F(ApiTest, DeviceLimitsForTheSuite) {
    cl_bool b = CL_TRUE;
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_COMPILER_AVAILABLE, sizeof(b), &b, nullptr), CL_SUCCESS);
    EXPECT_EQ(b, CL_TRUE);  // FULL_PROFILE: OpenCL C through clang-15 (api_program_test.cpp)
    // Xe-HPC has no OpenCL images: every image limit is 0 there (OpenCL 3.0); the others' are 16384 x 16384.
    const ClassFacts& f = classFacts(profileName());
    const bool images = f.images;
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_IMAGE_SUPPORT, sizeof(b), &b, nullptr), CL_SUCCESS);
    EXPECT_EQ(b, images ? CL_TRUE : CL_FALSE);
    size_t s = 0;
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof(s), &s, nullptr), CL_SUCCESS);
    EXPECT_EQ(s, images ? 16384u : 0u);
    cl_uint samplers = 1;
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_MAX_SAMPLERS, sizeof(samplers), &samplers, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(samplers, images ? 16u : 0u);
    // Double precision only with cl_khr_fp64: DG2 reports no double support at all.
    cl_device_fp_config fp = 0;
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(fp), &fp, nullptr), CL_SUCCESS);
    EXPECT_EQ(fp != 0, f.fp64);
    cl_uint width = 7;
    ASSERT_EQ(
        clGetDeviceInfo(device_, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, sizeof(width), &width, nullptr),
        CL_SUCCESS);
    EXPECT_EQ(width, f.fp64 ? 1u : 0u);
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(s), &s, nullptr), CL_SUCCESS);
    EXPECT_EQ(s, f.cpu ? 8192u : 1024u);
    cl_uint u = 0;
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_ADDRESS_BITS, sizeof(u), &u, nullptr), CL_SUCCESS);
    EXPECT_EQ(u, 64u);
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(u), &u, nullptr), CL_SUCCESS);
    EXPECT_EQ(u, 1024u);
    cl_ulong l = 0;
    ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_LOCAL_MEM_SIZE, sizeof(l), &l, nullptr), CL_SUCCESS);
    EXPECT_EQ(l, (f.cpu ? 256u : 64u) * 1024);
    EXPECT_EQ(clGetDeviceInfo(device_, 0x7fff, sizeof(l), &l, nullptr), CL_INVALID_VALUE);
}

TEST_F(ApiTest, ContextAndQueueInfo) {
    cl_uint refs = 0;
    ASSERT_EQ(clGetContextInfo(context_, CL_CONTEXT_REFERENCE_COUNT, sizeof(refs), &refs, nullptr),
              CL_SUCCESS);
    EXPECT_GE(refs, 1u);
    cl_device_id d = nullptr;
    ASSERT_EQ(clGetContextInfo(context_, CL_CONTEXT_DEVICES, sizeof(d), &d, nullptr), CL_SUCCESS);
    EXPECT_EQ(d, device_);
    cl_command_queue_properties props = 0;
    ASSERT_EQ(clGetCommandQueueInfo(queue_, CL_QUEUE_PROPERTIES, sizeof(props), &props, nullptr), CL_SUCCESS);
    EXPECT_EQ(props, cl_command_queue_properties(CL_QUEUE_PROFILING_ENABLE));
    cl_int err = CL_SUCCESS;
    // Out-of-order queues are not reported (CL_DEVICE_QUEUE_ON_HOST_PROPERTIES has only profiling).
    cl_command_queue q =
        clCreateCommandQueue(context_, device_, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    EXPECT_EQ(q, nullptr);
    EXPECT_EQ(err, CL_INVALID_QUEUE_PROPERTIES);
    cl_context_properties bad[] = {0x7777, 1, 0};
    EXPECT_EQ(clCreateContext(bad, 1, &device_, nullptr, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_PROPERTY);
    int user_data = 0;
    EXPECT_EQ(clCreateContext(nullptr, 1, &device_, nullptr, &user_data, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_VALUE);
    EXPECT_EQ(clFinish(queue_), CL_SUCCESS);
    EXPECT_EQ(clFlush(queue_), CL_SUCCESS);
}

// Calls the ICD's dispatch table directly (bypassing the loader, which dereferences handles itself) to check
// that stale and garbage handles are rejected with error codes instead of crashing.
class DirectDispatchTest : public ApiTest {
protected:
    const cl_icd_dispatch* table() { return *reinterpret_cast<cl_icd_dispatch* const*>(platform_); }
};

TEST_F(DirectDispatchTest, GarbageAndReleasedHandlesAreRejected) {
    const cl_icd_dispatch* t = table();
    struct Fake {
        const void* dispatch;
        uint32_t junk[8];
    } fake{t, {0xffffffffu, 1, 2, 3, 4, 5, 6, 7}};
    size_t size = 0;
    EXPECT_EQ(t->clGetContextInfo(reinterpret_cast<cl_context>(&fake), CL_CONTEXT_REFERENCE_COUNT, 0, nullptr,
                                  &size),
              CL_INVALID_CONTEXT);
    EXPECT_EQ(t->clGetMemObjectInfo(reinterpret_cast<cl_mem>(&fake), CL_MEM_SIZE, 0, nullptr, &size),
              CL_INVALID_MEM_OBJECT);
    EXPECT_EQ(t->clRetainKernel(reinterpret_cast<cl_kernel>(&fake)), CL_INVALID_KERNEL);
    EXPECT_EQ(t->clGetDeviceInfo(reinterpret_cast<cl_device_id>(&fake), CL_DEVICE_NAME, 0, nullptr, &size),
              CL_INVALID_DEVICE);
    // A handle of the wrong type: a queue passed where a memory object is expected.
    EXPECT_EQ(t->clGetMemObjectInfo(reinterpret_cast<cl_mem>(queue_), CL_MEM_SIZE, 0, nullptr, &size),
              CL_INVALID_MEM_OBJECT);
    cl_int err = CL_SUCCESS;
    cl_mem buffer = clCreateBuffer(context_, CL_MEM_READ_WRITE, 64, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    ASSERT_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
    EXPECT_EQ(t->clGetMemObjectInfo(buffer, CL_MEM_SIZE, 0, nullptr, &size), CL_INVALID_MEM_OBJECT);
    EXPECT_EQ(t->clReleaseMemObject(buffer), CL_INVALID_MEM_OBJECT);
    EXPECT_EQ(t->clGetContextInfo(nullptr, CL_CONTEXT_REFERENCE_COUNT, 0, nullptr, &size),
              CL_INVALID_CONTEXT);
}

TEST_F(ApiTest, NullHandlesGiveTheSpecErrors) {
    cl_int err = CL_SUCCESS;
    EXPECT_EQ(clCreateBuffer(nullptr, CL_MEM_READ_WRITE, 64, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_CONTEXT);
    EXPECT_EQ(clReleaseKernel(nullptr), CL_INVALID_KERNEL);
    EXPECT_EQ(clReleaseProgram(nullptr), CL_INVALID_PROGRAM);
    EXPECT_EQ(clReleaseEvent(nullptr), CL_INVALID_EVENT);
    EXPECT_EQ(clFinish(nullptr), CL_INVALID_COMMAND_QUEUE);
}

// A source program that does not compile: the compiler's messages (or the missing tool) in the log, no
// kernel.
TEST_F(ApiTest, SourceWithAnErrorFailsWithTheCompilersLog) {
    const char* src = "kernel void k(global int* p) { p[0] = undeclared_name; }";
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(context_, 1, &src, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(clBuildProgram(p, 1, &device_, "", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
    cl_build_status status = CL_BUILD_NONE;
    ASSERT_EQ(clGetProgramBuildInfo(p, device_, CL_PROGRAM_BUILD_STATUS, sizeof(status), &status, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(status, CL_BUILD_ERROR);
    const std::string log = buildLog(p);
    EXPECT_TRUE(log.find("undeclared_name") != std::string::npos ||
                log.find("not installed") != std::string::npos)
        << log;
    EXPECT_EQ(clCreateKernel(p, "k", &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
    EXPECT_EQ(clReleaseProgram(p), CL_SUCCESS);
}

TEST_F(ApiTest, InvalidIlFailsToBuildWithLog) {
    cl_int err = CL_SUCCESS;
    EXPECT_EQ(clCreateProgramWithIL(context_, nullptr, 16, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_VALUE);
    const uint32_t garbage[8] = {0x12345678u, 1, 2, 3, 4, 5, 6, 7};
    cl_program p = clCreateProgramWithIL(context_, garbage, sizeof(garbage), &err);
    ASSERT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
    EXPECT_FALSE(buildLog(p).empty());
    size_t n = 0;
    EXPECT_EQ(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(n), &n, nullptr),
              CL_INVALID_PROGRAM_EXECUTABLE);
    EXPECT_EQ(clReleaseProgram(p), CL_SUCCESS);
    const unsigned char* bin = reinterpret_cast<const unsigned char*>(garbage);
    size_t len = sizeof(garbage);
    cl_int status = CL_SUCCESS;
    EXPECT_EQ(clCreateProgramWithBinary(context_, 1, &device_, &len, &bin, &status, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_BINARY);
}

TEST_F(ApiTest, ProgramFromIlReportsKernelsAndIl) {
    cl_program p = buildFixture("api_kernels.spv");
    size_t n = 0;
    ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof(n), &n, nullptr), CL_SUCCESS);
    EXPECT_EQ(n, 5u);
    char names[256] = {};
    ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof(names), names, nullptr), CL_SUCCESS);
    std::string list = std::string(";") + names + ";";
    for (const char* k : {"copy", "fixed", "images", "unnamed", "undefined_behavior"})
        EXPECT_NE(list.find(std::string(";") + k + ";"), std::string::npos) << names;
    size_t il_size = 0;
    ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_IL, 0, nullptr, &il_size), CL_SUCCESS);
    EXPECT_EQ(il_size, readFixture("api_kernels.spv").size());
    cl_int err = CL_SUCCESS;
    EXPECT_EQ(clCreateKernel(p, "no_such_kernel", &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_KERNEL_NAME);
    cl_kernel k = clCreateKernel(p, "copy", &err);
    ASSERT_EQ(err, CL_SUCCESS);
    // A program with kernels attached cannot be rebuilt.
    EXPECT_EQ(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr), CL_INVALID_OPERATION);
    EXPECT_EQ(clReleaseKernel(k), CL_SUCCESS);
    EXPECT_EQ(clReleaseProgram(p), CL_SUCCESS);
}

TEST_F(ApiTest, IlEntryPointThroughExtensionAddress) {
    auto create = reinterpret_cast<clCreateProgramWithILKHR_fn>(
        clGetExtensionFunctionAddressForPlatform(platform_, "clCreateProgramWithILKHR"));
    ASSERT_NE(create, nullptr);
    std::vector<unsigned char> il = readFixture("api_kernels.spv");
    cl_int err = CL_SUCCESS;
    cl_program p = create(context_, il.data(), il.size(), &err);
    ASSERT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS) << buildLog(p);
    EXPECT_EQ(clReleaseProgram(p), CL_SUCCESS);
}

TEST_F(ApiTest, CapabilityOutsideProfileFailsToBuild) {
    std::vector<unsigned char> il = readFixture("media_block_io_capability.spv");
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithIL(context_, il.data(), il.size(), &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_int built = clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr);
    if (!classFacts(profileName()).media || !kMedia) {
        EXPECT_EQ(built, CL_BUILD_PROGRAM_FAILURE) << "the device does not report media block IO";
        EXPECT_FALSE(buildLog(p).empty());
    } else {
        EXPECT_EQ(built, CL_SUCCESS) << buildLog(p);
    }
    EXPECT_EQ(clReleaseProgram(p), CL_SUCCESS);
}

void CL_CALLBACK countCallback(cl_event, cl_int status, void* data) {
    static_cast<std::vector<cl_int>*>(data)->push_back(status);
}

TEST_F(ApiTest, UserEventsAndCallbacks) {
    cl_int err = CL_SUCCESS;
    cl_event user = clCreateUserEvent(context_, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_int status = 0;
    ASSERT_EQ(clGetEventInfo(user, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(status, CL_SUBMITTED);
    std::vector<cl_int> seen;
    ASSERT_EQ(clSetEventCallback(user, CL_COMPLETE, countCallback, &seen), CL_SUCCESS);
    EXPECT_TRUE(seen.empty());
    EXPECT_EQ(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
    EXPECT_EQ(seen, std::vector<cl_int>{CL_COMPLETE});
    EXPECT_EQ(clSetUserEventStatus(user, CL_COMPLETE), CL_INVALID_OPERATION);
    EXPECT_EQ(clWaitForEvents(1, &user), CL_SUCCESS);
    cl_ulong t = 0;
    EXPECT_EQ(clGetEventProfilingInfo(user, CL_PROFILING_COMMAND_START, sizeof(t), &t, nullptr),
              CL_PROFILING_INFO_NOT_AVAILABLE);
    // A failed user event in a wait list fails the command that waits on it.
    cl_event failed = clCreateUserEvent(context_, &err);
    ASSERT_EQ(clSetUserEventStatus(failed, -42), CL_SUCCESS);
    EXPECT_EQ(clEnqueueMarkerWithWaitList(queue_, 1, &failed, nullptr),
              CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    EXPECT_EQ(clEnqueueMarkerWithWaitList(queue_, 1, nullptr, nullptr), CL_INVALID_EVENT_WAIT_LIST);
    EXPECT_EQ(clReleaseEvent(failed), CL_SUCCESS);
    EXPECT_EQ(clReleaseEvent(user), CL_SUCCESS);
}

}  // namespace
}  // namespace refdev_test
