// The driver reports of REFDEV_REPORT_AS (driver_report.h). The compute-runtime facts are read from
// intel/compute-runtime at tag 26.27.39122.14 (docs/reference_device.md, "Reporting as a shipped driver").
#include "reference_device/driver_report.h"

#include <algorithm>
#include <cstdlib>

#include "reference_device/spirv/opencl_capabilities.h"
#include "reference_device/spirv/tokens.h"

namespace refdev {

namespace {

// compute-runtime 26.27 (Debian sid's intel-opencl-icd; IGC 2.40, the offline compiler's "2.40.14" release in
// test_conformance/targets/*.json).
DriverReport neo2627() {
    DriverReport r;
    r.name = "neo-26.27";
    r.device_name_suffix = " (reporting as compute-runtime 26.27)";
    r.as_profile = false;
    // CL_DEVICE_EXTENSIONS_WITH_VERSION: opencl/source/cl_device/cl_device_caps.cpp:363 takes each version
    // from ClDevice::getExtensionVersion (opencl/source/cl_device/cl_device.cpp:269-271), which asks
    // getOclCExtensionVersion(name, CL_MAKE_VERSION(1, 0, 0)) (shared/source/compiler_interface/
    // oclc_extensions.cpp:165-175): 1.0.0 for every extension but these three. None of them is an extension a
    // profile reports, so cl_intel_subgroup_2d_block_io and cl_intel_subgroup_matrix_multiply_accumulate
    // are 1.0.0.
    r.default_major = 1;
    r.default_minor = 0;
    r.default_patch = 0;
    r.version_exceptions = {{"cl_khr_integer_dot_product", 2, 0, 0},
                            {"cl_intel_unified_shared_memory", 1, 2, 0},
                            {"cl_khr_external_memory", 0, 9, 1}};
    // CL_DEVICE_SPIRV_EXTENSIONS_KHR: ClDevice::initializeSpirvQueries (opencl/source/cl_device/
    // cl_device_caps.cpp:399-614) lists a SPIR-V extension only for these OpenCL extensions, in this order.
    // It never lists SPV_INTEL_2d_block_io or SPV_INTEL_subgroup_matrix_multiply_accumulate. Left out: the
    // SPV_EXT_shader_atomic_float* entries, which follow cl_ext_float_atomics and the device's atomic
    // capabilities; no profile reports cl_ext_float_atomics (driver_report_test.cpp checks it).
    r.spirv_extension_of = {
        {"cl_khr_expect_assume", "SPV_KHR_expect_assume"},
        {"cl_khr_extended_bit_ops", "SPV_KHR_bit_instructions"},
        {"cl_khr_integer_dot_product", "SPV_KHR_integer_dot_product"},
        {"cl_khr_kernel_clock", "SPV_KHR_shader_clock"},
        {"cl_khr_spirv_linkonce_odr", "SPV_KHR_linkonce_odr"},
        {"cl_khr_spirv_no_integer_wrap_decoration", "SPV_KHR_no_integer_wrap_decoration"},
        {"cl_khr_subgroup_rotate", "SPV_KHR_subgroup_rotate"},
        {"cl_khr_work_group_uniform_arithmetic", "SPV_KHR_uniform_group_instructions"},
        {"cl_intel_bfloat16_conversions", "SPV_INTEL_bfloat16_conversion"},
        {"cl_intel_spirv_device_side_avc_motion_estimation", "SPV_INTEL_device_side_avc_motion_estimation"},
        {"cl_intel_spirv_media_block_io", "SPV_INTEL_media_block_io"},  // cl_device_caps.cpp:594
        {"cl_intel_spirv_subgroups", "SPV_INTEL_subgroups"},            // cl_device_caps.cpp:599
        {"cl_intel_split_work_group_barrier", "SPV_INTEL_split_barrier"},
        {"cl_intel_subgroup_buffer_prefetch", "SPV_INTEL_subgroup_buffer_prefetch"},
    };
    // CL_DEVICE_SPIRV_CAPABILITIES_KHR: every capability initializeSpirvQueries can push (spv::Capability*
    // values from the release's third_party/spirv_headers spirv.hpp): the base list and the rest. A filter,
    // so the order is not the release's. Its conditions (image support, the extensions) are the profile's
    // already; what the profile reports beyond this list is dropped: Subgroup2DBlockIOINTEL,
    // ...TransformINTEL, ...TransposeINTEL and SubgroupMatrixMultiplyAccumulateINTEL.
    const std::vector<uint32_t> beyond_base = {
        token(spv::Capability::ImageBasic),
        token(spv::Capability::ImageReadWrite),
        token(spv::Capability::ImageMipmap),
        token(spv::Capability::Pipes),
        token(spv::Capability::DeviceEnqueue),
        token(spv::Capability::LiteralSampler),
        token(spv::Capability::Sampled1D),
        token(spv::Capability::Image1D),
        token(spv::Capability::SampledBuffer),
        token(spv::Capability::ImageBuffer),
        token(spv::Capability::NamedBarrier),
        token(spv::Capability::GroupNonUniformClustered),
        token(spv::Capability::UniformDecoration),
        token(spv::Capability::ShaderClockKHR),
        token(spv::Capability::SubgroupShuffleINTEL),
        token(spv::Capability::SubgroupBufferBlockIOINTEL),
        token(spv::Capability::SubgroupImageBlockIOINTEL),
        token(spv::Capability::SubgroupImageMediaBlockIOINTEL),
        token(spv::Capability::AtomicFloat32MinMaxEXT),
        token(spv::Capability::AtomicFloat64MinMaxEXT),
        token(spv::Capability::AtomicFloat16MinMaxEXT),
        token(spv::Capability::ExpectAssumeKHR),
        token(spv::Capability::SubgroupAvcMotionEstimationINTEL),
        token(spv::Capability::SubgroupAvcMotionEstimationIntraINTEL),
        token(spv::Capability::SubgroupAvcMotionEstimationChromaINTEL),
        token(spv::Capability::DotProductInput4x8Bit),
        token(spv::Capability::DotProductInput4x8BitPacked),
        token(spv::Capability::DotProduct),
        token(spv::Capability::BitInstructions),
        token(spv::Capability::GroupNonUniformRotateKHR),
        token(spv::Capability::AtomicFloat32AddEXT),
        token(spv::Capability::AtomicFloat64AddEXT),
        token(spv::Capability::AtomicFloat16AddEXT),
        token(spv::Capability::BFloat16ConversionINTEL),
        token(spv::Capability::SplitBarrierINTEL),
        token(spv::Capability::SubgroupBufferPrefetchINTEL),
        token(spv::Capability::GroupUniformArithmeticKHR),
    };
    r.listable_capabilities = openclBaseCapabilities();
    r.listable_capabilities.insert(r.listable_capabilities.end(), beyond_base.begin(), beyond_base.end());
    return r;
}

std::vector<DriverReport> makeReports() {
    DriverReport spec;
    spec.name = "spec";
    return {spec, neo2627()};
}

}  // namespace

const std::vector<DriverReport>& allDriverReports() {
    static const std::vector<DriverReport> reports = makeReports();
    return reports;
}

namespace {

const DriverReport* findDriverReport(const std::string& name) {
    for (const DriverReport& r : allDriverReports())
        if (r.name == name) return &r;
    return nullptr;
}

}  // namespace

const DriverReport& driverReport(const std::string& name) {
    const DriverReport* r = findDriverReport(name);
    return r ? *r : allDriverReports().front();
}

const DriverReport* driverReportFromEnv(std::string* error) {
    const char* env = std::getenv("REFDEV_REPORT_AS");
    std::string wanted = (env && *env) ? env : "spec";
    if (const DriverReport* r = findDriverReport(wanted)) return r;
    if (error) {
        *error = "REFDEV_REPORT_AS: unknown report '" + wanted + "'; valid:";
        for (const DriverReport& r : allDriverReports()) *error += " " + r.name;
    }
    return nullptr;
}

std::vector<ExtensionEntry> reportedExtensions(const Profile& profile, const DriverReport& report) {
    if (report.as_profile) return profile.extensions;
    std::vector<ExtensionEntry> v;
    for (const ExtensionEntry& e : profile.extensions) {
        ExtensionEntry r{e.name, report.default_major, report.default_minor, report.default_patch};
        for (const ExtensionEntry& x : report.version_exceptions)
            if (x.name == e.name) r = x;
        v.push_back(r);
    }
    return v;
}

std::vector<std::string> reportedSpirvExtensions(const Profile& profile, const DriverReport& report) {
    if (report.as_profile) return profile.spirv_extensions;
    std::vector<std::string> v;
    for (const auto& [cl_extension, spirv_extension] : report.spirv_extension_of)
        if (profile.hasExtension(cl_extension)) v.push_back(spirv_extension);
    return v;
}

std::vector<uint32_t> reportedSpirvCapabilities(const Profile& profile, const DriverReport& report) {
    if (report.as_profile) return profile.spirv_capabilities;
    std::vector<uint32_t> v;
    for (uint32_t cap : profile.spirv_capabilities)
        if (std::count(report.listable_capabilities.begin(), report.listable_capabilities.end(), cap))
            v.push_back(cap);
    return v;
}

std::string reportedDeviceName(const Profile& profile, const DriverReport& report) {
    return profile.device_name + report.device_name_suffix;
}

}  // namespace refdev
