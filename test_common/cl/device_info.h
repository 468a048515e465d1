// What the suite knows of the device under test: filled once by probeDevice() from device queries only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <CL/cl.h>

// cl_khr_spirv_queries (newer than the installed headers)
#ifndef CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR
#define CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR 0x12B9
#define CL_DEVICE_SPIRV_EXTENSIONS_KHR 0x12BA
#define CL_DEVICE_SPIRV_CAPABILITIES_KHR 0x12BB
#endif
#ifndef CL_DEVICE_SUB_GROUP_SIZES_INTEL
#define CL_DEVICE_SUB_GROUP_SIZES_INTEL 0x4108
#endif

namespace cts {

struct ExtensionVersion {
    std::string name;
    uint32_t major = 0, minor = 0, patch = 0;
    bool version_known = false;  // from CL_DEVICE_EXTENSIONS_WITH_VERSION
};

struct ImageFormat {
    cl_channel_order order;
    cl_channel_type type;
};

struct DeviceInfo {
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    std::string platform_name, platform_version, device_name, device_version, driver_version, vendor;
    cl_device_type type = 0;
    cl_uint vendor_id = 0;  // CL_DEVICE_VENDOR_ID (0x8086 for Intel), matched by waiver files

    std::vector<ExtensionVersion> extensions;
    std::vector<std::string> il_versions;  // e.g. "SPIR-V_1.2"
    std::vector<size_t> sub_group_sizes;   // CL_DEVICE_SUB_GROUP_SIZES_INTEL, empty when not reported
    cl_uint address_bits = 0;
    size_t max_work_group_size = 0;
    bool image_support = false;
    size_t image2d_max_width = 0, image2d_max_height = 0;
    // cl_khr_image2d_from_buffer, in pixels (0 when not reported): row pitch and buffer base alignment
    cl_uint image_pitch_alignment = 0, image_base_address_alignment = 0;
    std::vector<ImageFormat> image2d_rw_formats;  // formats usable read-write (or read and write)
    bool fp16 = false, fp64 = false, int64 = true;
    cl_uint mem_base_addr_align_bits = 0;  // CL_DEVICE_MEM_BASE_ADDR_ALIGN: sub-buffer origin alignment
    cl_uint max_num_sub_groups = 0;        // CL_DEVICE_MAX_NUM_SUB_GROUPS (0 when not reported)
    cl_ulong max_mem_alloc_size = 0;       // CL_DEVICE_MAX_MEM_ALLOC_SIZE: the largest single buffer
    cl_ulong global_mem_size = 0;          // CL_DEVICE_GLOBAL_MEM_SIZE
    cl_device_svm_capabilities svm_capabilities = 0;  // CL_DEVICE_SVM_CAPABILITIES (0: no SVM)

    bool has_spirv_queries = false;  // cl_khr_spirv_queries
    std::vector<std::string> spirv_extensions;
    std::vector<cl_uint> spirv_capabilities;

    // Helpers
    const ExtensionVersion* extension(const std::string& name) const;
    bool hasExtension(const std::string& name, uint32_t min_major = 0, uint32_t min_minor = 0) const;
    bool supportsSpirv(int major, int minor) const;
    size_t minSubGroupSize() const;  // 0 when none reported
    bool hasImageFormat(cl_channel_order order, cl_channel_type type) const;
    // "SPIR-V_1.0 SPIR-V_1.2"-style summary of il_versions, "none" when empty.
    std::string ilVersionsText() const;
};

// Throws cts::InternalError when a mandatory query fails.
DeviceInfo probeDevice(cl_platform_id platform, cl_device_id device);

}  // namespace cts
