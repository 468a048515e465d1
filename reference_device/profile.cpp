// The built-in platform profiles. Facts per platform class come from the OpenCL extension specs and from
// what Intel's runtime reports (docs/reference_device.md lists them and the choices made here).
#include "reference_device/profile.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace refdev {

namespace {

// SPIR-V capability numbers (SPIR-V 1.4 core + the Intel extensions), named as in the grammar.
enum : uint32_t {
    kAddresses = 4,
    kLinkage = 5,
    kKernel = 6,
    kVector16 = 7,
    kFloat16Buffer = 8,
    kFloat16 = 9,
    kFloat64 = 10,
    kInt64 = 11,
    kInt64Atomics = 12,
    kImageBasic = 13,
    kImageReadWrite = 14,
    kGroups = 18,
    kLiteralSampler = 20,
    kInt16 = 22,
    kGenericPointer = 38,
    kInt8 = 39,
    kSubgroupDispatch = 58,
    kGroupNonUniform = 61,
    kGroupNonUniformVote = 62,
    kGroupNonUniformArithmetic = 63,
    kGroupNonUniformBallot = 64,
    kGroupNonUniformShuffle = 65,
    kGroupNonUniformShuffleRelative = 66,
    kSubgroupShuffleINTEL = 5568,
    kSubgroupBufferBlockIOINTEL = 5569,
    kSubgroupImageBlockIOINTEL = 5570,
};

// The capabilities both profiles report. Float64 is added with cl_khr_fp64 (DG2's compiler rejects double:
// "Double type is not supported on this platform"), the image capabilities with image support, as Intel's
// runtime lists them in CL_DEVICE_SPIRV_CAPABILITIES_KHR (buildsCapability: what a module may declare).
std::vector<uint32_t> commonCapabilities() {
    return {kAddresses,
            kLinkage,
            kKernel,
            kVector16,
            kFloat16Buffer,
            kFloat16,
            kInt64,
            kInt64Atomics,
            kGroups,
            kInt16,
            kGenericPointer,
            kInt8,
            kSubgroupDispatch,
            kGroupNonUniform,
            kGroupNonUniformVote,
            kGroupNonUniformArithmetic,
            kGroupNonUniformBallot,
            kGroupNonUniformShuffle,
            kGroupNonUniformShuffleRelative,
            kSubgroupShuffleINTEL,
            kSubgroupBufferBlockIOINTEL,
            kSubgroupImageBlockIOINTEL};
}

const std::vector<uint32_t> kImageCapabilities = {kImageBasic, kImageReadWrite, kLiteralSampler};

// Extensions both profiles report: the ones the suite looks at that Intel's runtime reports on Xe-HPG and
// Xe-HPC alike (test_conformance/targets/*.json; profile_targets_test.cpp checks each profile against its
// description). Versions follow the extension specs' "Version" sections (KHR extensions without a version
// history are 1.0.0).
std::vector<ExtensionEntry> commonExtensions() {
    return {
        {"cl_khr_byte_addressable_store", 1, 0, 0},
        {"cl_khr_fp16", 1, 0, 0},
        {"cl_khr_global_int32_base_atomics", 1, 0, 0},
        {"cl_khr_global_int32_extended_atomics", 1, 0, 0},
        {"cl_khr_local_int32_base_atomics", 1, 0, 0},
        {"cl_khr_local_int32_extended_atomics", 1, 0, 0},
        {"cl_khr_int64_base_atomics", 1, 0, 0},
        {"cl_khr_int64_extended_atomics", 1, 0, 0},
        {"cl_khr_icd", 1, 0, 0},
        {"cl_khr_il_program", 1, 0, 0},
        {"cl_khr_spirv_queries", 1, 0, 0},
        {"cl_intel_subgroups", 1, 0, 0},
        {"cl_intel_spirv_subgroups", 1, 0, 0},
        {"cl_intel_required_subgroup_size", 1, 0, 0},
        {"cl_intel_subgroups_short", 1, 1, 0},  // v1.1 adds 16-component block reads
        {"cl_intel_subgroups_char", 1, 0, 0},
        {"cl_intel_subgroups_long", 1, 0, 0},
    };
}

std::vector<std::pair<std::string, ExtendProfile>>& profileExtensions() {
    static std::vector<std::pair<std::string, ExtendProfile>> extensions;
    return extensions;
}

std::vector<Profile> makeProfiles() {
    std::vector<Profile> profiles;

    // Xe-HPC class (Ponte Vecchio, test_conformance/targets/pvc.json; 2D block IO and MMA are added by their
    // families, reference_device/ext/*/profile.cpp): sub-group sizes 16 and 32, fp64,
    // cl_khr_subgroups (independent forward progress), 2D block IO, MMA with N = 16 and TF32. No OpenCL
    // images (compute-runtime hw_info_pvc.cpp: supportsImages false), so no image2d_from_buffer and no media
    // block IO.
    Profile hpc;
    hpc.name = "xe_hpc";
    hpc.device_name = "RefDev Xe-HPC-like SPIR-V interpreter";
    hpc.sub_group_sizes = {16, 32};
    hpc.default_sub_group_size = 16;
    hpc.fp64 = true;
    hpc.images = false;
    hpc.extensions = commonExtensions();
    hpc.extensions.push_back({"cl_khr_fp64", 1, 0, 0});
    hpc.extensions.push_back({"cl_khr_subgroups", 1, 0, 0});
    hpc.spirv_extensions = {"SPV_INTEL_subgroups"};
    hpc.spirv_capabilities = commonCapabilities();
    hpc.spirv_capabilities.push_back(kFloat64);
    profiles.push_back(hpc);

    // Xe-HPG class (DG2, test_conformance/targets/dg2-g10.json; media block IO and MMA are added by their
    // families): sub-group sizes 8, 16 and 32, images, media
    // block IO, MMA with N = 8; no fp64 (hw_info_dg2.cpp: ftrSupportsFP64 false), no cl_khr_subgroups (no
    // independent forward progress), no 2D block IO. Intel's compiler picks the size of a kernel without a
    // required size by heuristics; the reference device always uses 16 there, so kernels that depend on the
    // size must require one.
    Profile hpg;
    hpg.name = "xe_hpg";
    hpg.device_name = "RefDev Xe-HPG-like SPIR-V interpreter";
    hpg.sub_group_sizes = {8, 16, 32};
    hpg.default_sub_group_size = 16;
    hpg.fp64 = false;
    hpg.images = true;
    hpg.extensions = commonExtensions();
    hpg.extensions.push_back({"cl_khr_image2d_from_buffer", 1, 0, 0});
    hpg.spirv_extensions = {"SPV_INTEL_subgroups"};
    hpg.spirv_capabilities = commonCapabilities();
    hpg.spirv_capabilities.insert(hpg.spirv_capabilities.end(), kImageCapabilities.begin(),
                                  kImageCapabilities.end());
    profiles.push_back(hpg);

    // The extension families (reference_device/ext/<family>/profile.cpp), in family-name order.
    auto families = profileExtensions();
    std::sort(families.begin(), families.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (Profile& p : profiles)
        for (const auto& family : families) family.second(p);
    return profiles;
}

}  // namespace

void addProfileExtension(const char* family, ExtendProfile extend) {
    profileExtensions().emplace_back(family, extend);
}

bool Profile::hasExtension(const std::string& ext) const {
    return std::any_of(extensions.begin(), extensions.end(),
                       [&](const ExtensionEntry& e) { return e.name == ext; });
}

bool Profile::hasSpirvExtension(const std::string& ext) const {
    return std::find(spirv_extensions.begin(), spirv_extensions.end(), ext) != spirv_extensions.end();
}

bool Profile::hasCapability(uint32_t cap) const {
    return std::find(spirv_capabilities.begin(), spirv_capabilities.end(), cap) != spirv_capabilities.end();
}

bool Profile::buildsCapability(uint32_t cap) const {
    // Intel's compiler builds image instructions for Xe-HPC too (ocloc -device pvc accepts the suite's image
    // block IO modules); the device only has no image objects to bind to them.
    return hasCapability(cap) ||
           std::find(kImageCapabilities.begin(), kImageCapabilities.end(), cap) != kImageCapabilities.end();
}

bool Profile::hasSubGroupSize(uint32_t size) const {
    return std::find(sub_group_sizes.begin(), sub_group_sizes.end(), size) != sub_group_sizes.end();
}

const std::vector<Profile>& allProfiles() {
    static const std::vector<Profile> profiles = makeProfiles();
    return profiles;
}

const Profile* findProfile(const std::string& name) {
    for (const Profile& p : allProfiles())
        if (p.name == name) return &p;
    return nullptr;
}

const Profile* profileFromEnv(std::string* error) {
    const char* env = std::getenv("REFDEV_PROFILE");
    std::string wanted = (env && *env) ? env : "xe_hpc";
    if (const Profile* p = findProfile(wanted)) return p;
    if (error) {
        *error = "REFDEV_PROFILE: unknown profile '" + wanted + "'; valid:";
        for (const Profile& p : allProfiles()) *error += " " + p.name;
    }
    return nullptr;
}

}  // namespace refdev
