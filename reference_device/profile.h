// Platform profiles of the reference device: which sub-group sizes and extensions it reports.
// Chosen by the environment variable REFDEV_PROFILE: xe_hpc (the default), xe_hpg, xe2, xe3, xe_lpg or cpu.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace refdev {

struct ExtensionEntry {
    std::string name;  // OpenCL extension name, e.g. "cl_intel_subgroup_2d_block_io"
    uint32_t major = 1, minor = 0, patch = 0;
};

struct Profile {
    std::string name;                        // "xe_hpc", "xe_hpg", "xe2", "xe3", "xe_lpg", "cpu"
    std::string class_name;                  // the real device class it stands for
    std::string device_name;                 // shown by clinfo
    std::vector<uint32_t> sub_group_sizes;   // ascending; CL_DEVICE_SUB_GROUP_SIZES_INTEL
    uint32_t default_sub_group_size = 16;    // used when a kernel has no SubgroupSize execution mode
    std::vector<ExtensionEntry> extensions;  // OpenCL extensions reported
    // What the real class reports but this device cannot honour, so it does not report it: {extension, why}.
    std::vector<std::pair<std::string, std::string>> withheld_extensions;
    std::vector<std::string> spirv_extensions;  // OpExtension names the loader accepts
    std::vector<uint32_t> spirv_capabilities;   // OpCapability values reported (buildsCapability: accepted)
    // Accepted in a module but not reported, as Intel's GPU compiler builds them from compiler output
    // (Triton's Intel backend declares them) while compute-runtime 26.27 lists none in
    // CL_DEVICE_SPIRV_EXTENSIONS_KHR / CL_DEVICE_SPIRV_CAPABILITIES_KHR.
    std::vector<std::string> compiler_spirv_extensions;
    std::vector<uint32_t> compiler_capabilities;
    uint32_t mma_n = 0;  // MMA N (0: no MMA)
    bool fp16 = true, fp64 = true, images = true;
    uint32_t max_work_group_size = 1024;  // CL_DEVICE_MAX_WORK_GROUP_SIZE (and each work-item size)
    uint64_t local_mem_size = 64 * 1024;  // CL_DEVICE_LOCAL_MEM_SIZE, bytes
    bool cpu_device = false;              // CL_DEVICE_TYPE_CPU (the GPU classes: CL_DEVICE_TYPE_GPU)

    bool hasExtension(const std::string& ext) const;
    bool hasSpirvExtension(const std::string& ext) const;
    bool buildsSpirvExtension(const std::string& ext) const;  // reported or compiler_spirv_extensions
    bool hasCapability(uint32_t cap) const;                   // reported in CL_DEVICE_SPIRV_CAPABILITIES_KHR
    // Accepted in a module: the reported capabilities, and the image ones on a profile without images too.
    bool buildsCapability(uint32_t cap) const;
    bool hasSubGroupSize(uint32_t size) const;
};

// All built-in profiles: the hardware classes' common part (profile.cpp), then what each op family that is
// built adds to them, in family-name order.
const std::vector<Profile>& allProfiles();

// An op family reports its extension on the profiles whose hardware class has it, from its own folder
// (reference_device/ext/<family>/profile.cpp), so that the device never claims an extension it cannot
// execute:
//
//     void reportMyExtension(Profile& p) { if (p.name == "xe_hpg") p.extensions.push_back(...); }
//     REFDEV_REGISTER_PROFILE_EXTENSION("<family>", reportMyExtension);
using ExtendProfile = void (*)(Profile& profile);
void addProfileExtension(const char* family, ExtendProfile extend);

namespace detail {
struct ProfileExtensionRegistrar {
    ProfileExtensionRegistrar(const char* family, ExtendProfile extend) {
        addProfileExtension(family, extend);
    }
};
}  // namespace detail
// The built-in profile of that name, or nullptr.
const Profile* findProfile(const std::string& name);

// From REFDEV_PROFILE (unset: xe_hpc). Unknown name: returns nullptr and sets *error to a message listing
// the valid names.
const Profile* profileFromEnv(std::string* error);

// One line per built-in profile: its name, the real device class it stands for, and what it has (sub-group
// sizes, fp64, images, the op families); REFDEV_PROFILE=list prints it.
std::string profileTable();

}  // namespace refdev

#define REFDEV_REGISTER_PROFILE_EXTENSION(family, extend)                                \
    static const ::refdev::detail::ProfileExtensionRegistrar refdev_profile_registrar_ { \
        family, extend                                                                   \
    }
