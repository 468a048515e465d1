// clGetDeviceInfo. Values follow the OpenCL 3.0 minimums for a full-profile device (with images when the
// profile has them), and the profile for everything the four Intel extensions depend on.
#include "reference_device/icd/device_info.h"

#include <algorithm>
#include <cstring>
#include <thread>

#include "reference_device/icd/common.h"
#include "reference_device/spirv/tokens.h"

#ifndef CL_DEVICE_SUB_GROUP_SIZES_INTEL
#define CL_DEVICE_SUB_GROUP_SIZES_INTEL 0x4108
#endif
// cl_khr_spirv_queries (OpenCL-Docs xml/cl.xml): 0x12B9..0x12BB. The 2023 headers predate it.
#ifndef CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR
#define CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR 0x12B9
#define CL_DEVICE_SPIRV_EXTENSIONS_KHR 0x12BA
#define CL_DEVICE_SPIRV_CAPABILITIES_KHR 0x12BB
#endif

namespace refdev::icd {

namespace {

cl_name_version nameVersion(const std::string& name, cl_version version) {
    cl_name_version nv{};
    nv.version = version;
    std::strncpy(nv.name, name.c_str(), CL_NAME_VERSION_MAX_NAME_SIZE - 1);
    return nv;
}

const char* const kIlVersion = "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4";

std::vector<cl_name_version> ilsWithVersion() {
    std::vector<cl_name_version> v;
    for (cl_uint minor = 0; minor <= 4; ++minor)
        v.push_back(nameVersion("SPIR-V", CL_MAKE_VERSION(1, minor, 0)));
    return v;
}

std::vector<cl_name_version> openclCVersions() {
    return {
        nameVersion("OpenCL C", CL_MAKE_VERSION(1, 0, 0)), nameVersion("OpenCL C", CL_MAKE_VERSION(1, 1, 0)),
        nameVersion("OpenCL C", CL_MAKE_VERSION(1, 2, 0)), nameVersion("OpenCL C", CL_MAKE_VERSION(3, 0, 0))};
}

// The OpenCL C features that go with what the profile reports (images and fp64 only where it has them).
std::vector<cl_name_version> openclCFeatures(const Profile& profile) {
    cl_version v = CL_MAKE_VERSION(3, 0, 0);
    std::vector<cl_name_version> f = {nameVersion("__opencl_c_int64", v),
                                      nameVersion("__opencl_c_subgroups", v),
                                      nameVersion("__opencl_c_generic_address_space", v)};
    if (profile.images) {
        f.push_back(nameVersion("__opencl_c_images", v));
        f.push_back(nameVersion("__opencl_c_read_write_images", v));
    }
    if (profile.fp64) f.push_back(nameVersion("__opencl_c_fp64", v));
    return f;
}

// The extensions newer than the runtime's SPIR-V query tables (the known gap of the
// spirv_queries_omit_new_extensions fault): the modules still build, only the queries leave them out.
bool isNewSpirvExtension(const std::string& name) {
    return name == "SPV_INTEL_2d_block_io" || name == "SPV_INTEL_subgroup_matrix_multiply_accumulate";
}

bool isNewSpirvCapability(cl_uint cap) {
    return cap == token(spv::Capability::Subgroup2DBlockIOINTEL) ||
           cap == token(spv::Capability::Subgroup2DBlockTransformINTEL) ||
           cap == token(spv::Capability::Subgroup2DBlockTransposeINTEL) ||
           cap == token(spv::Capability::SubgroupMatrixMultiplyAccumulateINTEL);
}

}  // namespace

std::vector<cl_name_version> extensionsWithVersion(const Profile& profile, const DriverReport& report,
                                                   const Faults& faults) {
    std::vector<cl_name_version> v;
    for (const ExtensionEntry& e : reportedExtensions(profile, report)) {
        // A driver whose versioned list falls out of step with CL_DEVICE_EXTENSIONS: the extension is named
        // there but has no version.
        if (faults.has("extension_version_2d_block_io_unreported") &&
            e.name == "cl_intel_subgroup_2d_block_io")
            continue;
        v.push_back(nameVersion(e.name, CL_MAKE_VERSION(e.major, e.minor, e.patch)));
    }
    return v;
}

const std::vector<cl_image_format>& supportedImageFormats() {
    static const std::vector<cl_image_format> formats = [] {
        std::vector<cl_image_format> f;
        for (cl_channel_order order : {CL_R, CL_RG, CL_RGBA})
            for (cl_channel_type type : {CL_UNORM_INT8, CL_UNORM_INT16, CL_SNORM_INT8, CL_SNORM_INT16,
                                         CL_SIGNED_INT8, CL_SIGNED_INT16, CL_SIGNED_INT32, CL_UNSIGNED_INT8,
                                         CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT, CL_FLOAT})
                f.push_back({order, type});
        f.push_back({CL_BGRA, CL_UNORM_INT8});
        return f;
    }();
    return formats;
}

size_t texelBytes(const cl_image_format& format) {
    bool supported = false;
    for (const cl_image_format& f : supportedImageFormats())
        supported |= f.image_channel_order == format.image_channel_order &&
                     f.image_channel_data_type == format.image_channel_data_type;
    if (!supported) return 0;
    size_t channels = format.image_channel_order == CL_R ? 1 : format.image_channel_order == CL_RG ? 2 : 4;
    size_t bytes = 0;
    switch (format.image_channel_data_type) {
        case CL_UNORM_INT8:
        case CL_SNORM_INT8:
        case CL_SIGNED_INT8:
        case CL_UNSIGNED_INT8: bytes = 1; break;
        case CL_UNORM_INT16:
        case CL_SNORM_INT16:
        case CL_SIGNED_INT16:
        case CL_UNSIGNED_INT16:
        case CL_HALF_FLOAT: bytes = 2; break;
        default: bytes = 4; break;
    }
    return channels * bytes;
}

cl_int deviceInfo(const _cl_platform_id& platform, cl_device_info name, size_t size, void* value,
                  size_t* size_ret) {
    const Profile& prof = *platform.profile;
    const DriverReport& report = *platform.report;
    const Faults& faults = platform.faults;
    const bool omitNewSpirv = faults.has("spirv_queries_omit_new_extensions");
    auto u = [&](cl_uint v) { return infoValue(size, value, size_ret, v); };
    auto ul = [&](cl_ulong v) { return infoValue(size, value, size_ret, v); };
    auto sz = [&](size_t v) { return infoValue(size, value, size_ret, v); };
    auto b = [&](cl_bool v) { return infoValue(size, value, size_ret, v); };
    auto bits = [&](cl_bitfield v) { return infoValue(size, value, size_ret, v); };
    auto str = [&](const std::string& s) { return infoString(size, value, size_ret, s); };
    const cl_uint min_sg = prof.sub_group_sizes.empty() ? 1 : prof.sub_group_sizes.front();
    const cl_device_fp_config fp_full = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
                                        CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA;
    // A device without images reports 0 for every image limit (OpenCL 3.0, clGetDeviceInfo), as Xe-HPC does.
    auto image_u = [&](cl_uint v) { return u(prof.images ? v : 0); };
    auto image_sz = [&](size_t v) { return sz(prof.images ? v : 0); };
    switch (name) {
        case CL_DEVICE_TYPE: return bits(deviceType(prof));
        case CL_DEVICE_VENDOR_ID: return u(0);
        case CL_DEVICE_MAX_COMPUTE_UNITS: return u(std::max(1u, std::thread::hardware_concurrency()));
        case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: return u(3);
        case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
            std::vector<size_t> v(3, maxWorkGroupSize(prof));
            return infoArray(size, value, size_ret, v);
        }
        case CL_DEVICE_MAX_WORK_GROUP_SIZE: return sz(maxWorkGroupSize(prof));
        case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
        case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
        case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
        case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
        case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
        case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
        case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
        case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
        case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
        case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
        case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
        case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: return u(1);
        case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
        case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: return u(prof.fp64 ? 1 : 0);  // 0 without cl_khr_fp64
        case CL_DEVICE_MAX_CLOCK_FREQUENCY: return u(1000);
        case CL_DEVICE_ADDRESS_BITS: return u(64);
        case CL_DEVICE_MAX_READ_IMAGE_ARGS: return image_u(128);
        case CL_DEVICE_MAX_WRITE_IMAGE_ARGS: return image_u(64);
        case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS: return image_u(64);
        case CL_DEVICE_MAX_MEM_ALLOC_SIZE: return ul(kMaxMemAlloc);
        case CL_DEVICE_IMAGE2D_MAX_WIDTH:
        case CL_DEVICE_IMAGE2D_MAX_HEIGHT: return image_sz(kImage2dMaxSize);
        case CL_DEVICE_IMAGE3D_MAX_WIDTH:
        case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
        case CL_DEVICE_IMAGE3D_MAX_DEPTH: return image_sz(kImage3dMaxSize);
        case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: return image_sz(kImageMaxBufferSize);
        case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: return image_sz(kImageMaxArraySize);
        case CL_DEVICE_IMAGE_SUPPORT: return b(prof.images ? CL_TRUE : CL_FALSE);
        case CL_DEVICE_IMAGE_PITCH_ALIGNMENT: return image_u(kImagePitchAlignment);
        case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: return image_u(kImageBaseAddressAlignment);
        case CL_DEVICE_MAX_PARAMETER_SIZE: return sz(2048);
        case CL_DEVICE_MAX_SAMPLERS: return image_u(16);
        case CL_DEVICE_MEM_BASE_ADDR_ALIGN: return u(kMemBaseAddrAlignBits);
        case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: return u(128);
        case CL_DEVICE_SINGLE_FP_CONFIG: return bits(fp_full | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
        case CL_DEVICE_DOUBLE_FP_CONFIG: return bits(prof.fp64 ? fp_full : 0);
        case CL_DEVICE_HALF_FP_CONFIG: return bits(prof.fp16 ? fp_full : 0);
        case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
            return infoValue<cl_device_mem_cache_type>(size, value, size_ret, CL_READ_WRITE_CACHE);
        case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: return u(64);
        case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: return ul(1 << 20);
        case CL_DEVICE_GLOBAL_MEM_SIZE: return ul(kGlobalMemSize);
        case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: return ul(64 * 1024);
        case CL_DEVICE_MAX_CONSTANT_ARGS: return u(8);
        case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE: return sz(0);
        case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE: return sz(0);
        case CL_DEVICE_LOCAL_MEM_TYPE:
            return infoValue<cl_device_local_mem_type>(size, value, size_ret, CL_LOCAL);
        case CL_DEVICE_LOCAL_MEM_SIZE: return ul(localMemSize(prof));
        case CL_DEVICE_ERROR_CORRECTION_SUPPORT: return b(CL_FALSE);
        case CL_DEVICE_HOST_UNIFIED_MEMORY: return b(CL_TRUE);
        case CL_DEVICE_PROFILING_TIMER_RESOLUTION: return sz(1);
        case CL_DEVICE_ENDIAN_LITTLE: return b(CL_TRUE);
        case CL_DEVICE_AVAILABLE: return b(CL_TRUE);
        // A FULL_PROFILE device must have both: OpenCL C goes through clang-15 + llvm-spirv-15 (a build
        // without them fails naming the tool), linking is the device's own (program_link.cpp).
        case CL_DEVICE_COMPILER_AVAILABLE: return b(CL_TRUE);
        case CL_DEVICE_LINKER_AVAILABLE: return b(CL_TRUE);
        case CL_DEVICE_EXECUTION_CAPABILITIES: return bits(CL_EXEC_KERNEL);
        case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES: return bits(CL_QUEUE_PROFILING_ENABLE);
        case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES: return bits(0);
        case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
        case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE: return u(0);
        case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
        case CL_DEVICE_MAX_ON_DEVICE_EVENTS: return u(0);
        case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES: return bits(0);
        case CL_DEVICE_MAX_PIPE_ARGS:
        case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
        case CL_DEVICE_PIPE_MAX_PACKET_SIZE: return u(0);
        case CL_DEVICE_PIPE_SUPPORT: return b(CL_FALSE);
        case CL_DEVICE_BUILT_IN_KERNELS: return str("");
        case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: return setInfo(size, value, size_ret, nullptr, 0);
        case CL_DEVICE_PLATFORM: return infoValue<cl_platform_id>(size, value, size_ret, thePlatform());
        case CL_DEVICE_NAME: return str(reportedDeviceName(prof, report));
        case CL_DEVICE_VENDOR: return str("spirv_intel_cts project");
        case CL_DRIVER_VERSION: return str("1.0.0");
        case CL_DEVICE_PROFILE: return str("FULL_PROFILE");
        case CL_DEVICE_VERSION: return str("OpenCL 3.0 RefDev " + prof.name);
        case CL_DEVICE_NUMERIC_VERSION: return u(CL_MAKE_VERSION(3, 0, 0));
        case CL_DEVICE_OPENCL_C_VERSION: return str("OpenCL C 1.2 ");
        case CL_DEVICE_OPENCL_C_ALL_VERSIONS: return infoArray(size, value, size_ret, openclCVersions());
        case CL_DEVICE_OPENCL_C_FEATURES: return infoArray(size, value, size_ret, openclCFeatures(prof));
        case CL_DEVICE_EXTENSIONS: return str(platform.extensions);
        case CL_DEVICE_EXTENSIONS_WITH_VERSION:
            return infoArray(size, value, size_ret, extensionsWithVersion(prof, report, platform.faults));
        case CL_DEVICE_PRINTF_BUFFER_SIZE: return sz(spirv::kPrintfBufferSize);
        case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: return b(CL_TRUE);
        case CL_DEVICE_PARENT_DEVICE: return infoValue<cl_device_id>(size, value, size_ret, nullptr);
        case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: return u(0);
        case CL_DEVICE_PARTITION_PROPERTIES:
            return infoValue<cl_device_partition_property>(size, value, size_ret, 0);
        case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: return bits(0);
        case CL_DEVICE_PARTITION_TYPE: return setInfo(size, value, size_ret, nullptr, 0);
        case CL_DEVICE_REFERENCE_COUNT: return u(1);
        case CL_DEVICE_SVM_CAPABILITIES: return bits(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER);  // svm.cpp
        case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
        case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
        case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: return u(0);
        case CL_DEVICE_MAX_NUM_SUB_GROUPS: return u(cl_uint(maxWorkGroupSize(prof) / min_sg));
        case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: return b(CL_FALSE);
        case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
            return bits(CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP);
        case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
            return bits(CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                        CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP);
        case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: return b(CL_TRUE);
        case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT: return b(CL_FALSE);
        case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT: return b(CL_TRUE);
        case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: return sz(prof.default_sub_group_size);
        case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: return str("v0000-00-00-00");  // never submitted
        case CL_DEVICE_IL_VERSION: return str(kIlVersion);
        case CL_DEVICE_ILS_WITH_VERSION: return infoArray(size, value, size_ret, ilsWithVersion());
        case CL_DEVICE_SUB_GROUP_SIZES_INTEL: {
            std::vector<size_t> v(prof.sub_group_sizes.begin(), prof.sub_group_sizes.end());
            if (faults.has("sub_group_sizes_unsorted_duplicate") && !v.empty()) {
                // Largest first, the smallest listed twice: a driver that merges per-slice lists unsorted.
                std::reverse(v.begin(), v.end());
                v.push_back(v.back());
            }
            return infoArray(size, value, size_ret, v);
        }
        case CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR: {
            static const char* const sets[] = {"OpenCL.std"};
            return setInfo(size, value, size_ret, sets, sizeof(sets));
        }
        case CL_DEVICE_SPIRV_EXTENSIONS_KHR: {
            // Pointers into the platform, which lives as long as the library.
            std::vector<const char*> v;
            for (const std::string& e : platform.spirv_extensions)
                if (!omitNewSpirv || !isNewSpirvExtension(e)) v.push_back(e.c_str());
            return infoArray(size, value, size_ret, v);
        }
        case CL_DEVICE_SPIRV_CAPABILITIES_KHR: {
            std::vector<cl_uint> v;
            for (cl_uint cap : reportedSpirvCapabilities(prof, report))
                if (!omitNewSpirv || !isNewSpirvCapability(cap)) v.push_back(cap);
            return infoArray(size, value, size_ret, v);
        }
        default: return CL_INVALID_VALUE;
    }
}

}  // namespace refdev::icd
