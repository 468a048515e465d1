// The built-in platform profiles. Facts per platform class come from the OpenCL extension specs and from
// what Intel's runtime reports (docs/reference_device.md lists them and the choices made here).
#include "reference_device/profile.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "reference_device/spirv/tokens.h"

namespace refdev {

namespace {

// SPIR-V capabilities (SPIR-V 1.4 core + the Intel extensions).
enum : uint32_t {
    kAddresses = token(spv::Capability::Addresses),
    kLinkage = token(spv::Capability::Linkage),
    kKernel = token(spv::Capability::Kernel),
    kVector16 = token(spv::Capability::Vector16),
    kFloat16Buffer = token(spv::Capability::Float16Buffer),
    kFloat16 = token(spv::Capability::Float16),
    kFloat64 = token(spv::Capability::Float64),
    kInt64 = token(spv::Capability::Int64),
    kInt64Atomics = token(spv::Capability::Int64Atomics),
    kImageBasic = token(spv::Capability::ImageBasic),
    kImageReadWrite = token(spv::Capability::ImageReadWrite),
    kGroups = token(spv::Capability::Groups),
    kLiteralSampler = token(spv::Capability::LiteralSampler),
    kInt16 = token(spv::Capability::Int16),
    kGenericPointer = token(spv::Capability::GenericPointer),
    kInt8 = token(spv::Capability::Int8),
    kSubgroupDispatch = token(spv::Capability::SubgroupDispatch),
    kGroupNonUniform = token(spv::Capability::GroupNonUniform),
    kGroupNonUniformVote = token(spv::Capability::GroupNonUniformVote),
    kGroupNonUniformArithmetic = token(spv::Capability::GroupNonUniformArithmetic),
    kGroupNonUniformBallot = token(spv::Capability::GroupNonUniformBallot),
    kGroupNonUniformClustered = token(spv::Capability::GroupNonUniformClustered),
    kGroupNonUniformShuffle = token(spv::Capability::GroupNonUniformShuffle),
    kGroupNonUniformShuffleRelative = token(spv::Capability::GroupNonUniformShuffleRelative),
    kSubgroupShuffleINTEL = token(spv::Capability::SubgroupShuffleINTEL),
    kSubgroupBufferBlockIOINTEL = token(spv::Capability::SubgroupBufferBlockIOINTEL),
    kSubgroupImageBlockIOINTEL = token(spv::Capability::SubgroupImageBlockIOINTEL),
};

// The capabilities every profile reports. Float64 is added with cl_khr_fp64 (DG2's compiler rejects double:
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
            kGroupNonUniformClustered,
            kGroupNonUniformShuffle,
            kGroupNonUniformShuffleRelative,
            kSubgroupShuffleINTEL,
            kSubgroupBufferBlockIOINTEL,
            kSubgroupImageBlockIOINTEL};
}

// The OpenCL SPIR-V environment's image capabilities: 2D and 3D images (ImageBasic), read_write images,
// literal samplers, and 1D and 1D buffer images, sampled and not.
const std::vector<uint32_t> kImageCapabilities = {kImageBasic,
                                                  kImageReadWrite,
                                                  kLiteralSampler,
                                                  token(spv::Capability::Sampled1D),
                                                  token(spv::Capability::Image1D),
                                                  token(spv::Capability::SampledBuffer),
                                                  token(spv::Capability::ImageBuffer)};

// Extensions every profile reports: the ones the suite looks at that Intel's runtime reports on every class
// (test_conformance/targets/*.json; profile_targets_test.cpp checks each profile against its description).
// Versions follow the extension specs' "Version" sections (KHR extensions without a version history
// are 1.0.0).
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

// The image capabilities and cl_khr_image2d_from_buffer, on a class with OpenCL images.
void addImages(Profile& p) {
    p.images = true;
    p.extensions.push_back({"cl_khr_image2d_from_buffer", 1, 0, 0});
    p.spirv_capabilities.insert(p.spirv_capabilities.end(), kImageCapabilities.begin(),
                                kImageCapabilities.end());
}

void addFp64(Profile& p) {
    p.fp64 = true;
    p.extensions.push_back({"cl_khr_fp64", 1, 0, 0});
    p.spirv_capabilities.push_back(kFloat64);
}

// cl_khr_subgroups requires CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS to be true. The interpreter
// runs a work-group's sub-groups one after another between barriers (spirv/launch.cpp), so a sub-group that
// waits for another one's store spins forever: the classes that report the extension (their
// supportsIndependentForwardProgress) get OpenCL 3.0's core sub-groups instead, which allow the query false.
void withholdKhrSubgroups(Profile& p) {
    p.withheld_extensions.push_back(
        {"cl_khr_subgroups",
         "requires independent forward progress of sub-groups; the device runs a work-group's sub-groups one "
         "after another between barriers (CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS is false)"});
}

Profile baseProfile(const char* name, const char* class_name, const char* device_name,
                    std::vector<uint32_t> sub_group_sizes) {
    Profile p;
    p.name = name;
    p.class_name = class_name;
    p.device_name = device_name;
    p.sub_group_sizes = std::move(sub_group_sizes);
    p.default_sub_group_size = 16;
    p.fp64 = false;
    p.images = false;
    p.extensions = commonExtensions();
    p.spirv_extensions = {"SPV_INTEL_subgroups"};
    p.spirv_capabilities = commonCapabilities();
    return p;
}

std::vector<Profile> makeProfiles() {
    std::vector<Profile> profiles;

    // Xe-HPC class (Ponte Vecchio, test_conformance/targets/pvc.json; 2D block IO and MMA are added by their
    // families, reference_device/ext/*/profile.cpp): sub-group sizes 16 and 32, fp64,
    // cl_khr_subgroups (withheld, below), 2D block IO, MMA with N = 16 and TF32. No OpenCL
    // images (compute-runtime hw_info_pvc.cpp: supportsImages false), so no image2d_from_buffer and no media
    // block IO.
    Profile hpc = baseProfile("xe_hpc", "Xe-HPC (Ponte Vecchio: Data Center GPU Max)",
                              "RefDev Xe-HPC-like SPIR-V interpreter", {16, 32});
    addFp64(hpc);
    withholdKhrSubgroups(hpc);
    profiles.push_back(hpc);

    // Xe-HPG class (DG2, test_conformance/targets/dg2-g10.json; media block IO and MMA are added by their
    // families): sub-group sizes 8, 16 and 32, images, media
    // block IO, MMA with N = 8; no fp64 (hw_info_dg2.cpp: ftrSupportsFP64 false), no cl_khr_subgroups (no
    // independent forward progress), no 2D block IO. Intel's compiler picks the size of a kernel without a
    // required size by heuristics; the reference device always uses 16 there, so kernels that depend on the
    // size must require one.
    Profile hpg = baseProfile("xe_hpg", "Xe-HPG (DG2: Arc A-series)", "RefDev Xe-HPG-like SPIR-V interpreter",
                              {8, 16, 32});
    addImages(hpg);
    profiles.push_back(hpg);

    // Xe2 class (Battlemage, Lunar Lake: test_conformance/targets/bmg.json and lnl-m.json, which agree on
    // everything a profile reports): sub-group sizes 16 and 32, fp64, cl_khr_subgroups (withheld), OpenCL
    // images, 2D block IO and MMA with N = 16 and TF32 (added by their families), no media block IO
    // (supportsMediaBlock false). The one class with 2D block IO and images on one device.
    Profile xe2 = baseProfile("xe2", "Xe2 (Battlemage: Arc B-series; Lunar Lake)",
                              "RefDev Xe2-like SPIR-V interpreter", {16, 32});
    addFp64(xe2);
    withholdKhrSubgroups(xe2);
    addImages(xe2);
    profiles.push_back(xe2);

    // Xe3 class (Panther Lake, test_conformance/targets/ptl.json): reports nothing Xe2 does not (same sizes,
    // extensions, versions, fp64 and images), so it is Xe2 under its own name, checked against its own
    // description.
    Profile xe3 = xe2;
    xe3.name = "xe3";
    xe3.class_name = "Xe3 (Panther Lake)";
    xe3.device_name = "RefDev Xe3-like SPIR-V interpreter";
    profiles.push_back(xe3);

    // Xe-LPG class (Meteor Lake's integrated GPU, test_conformance/targets/mtl.json): sub-group sizes 8, 16
    // and 32, fp64, OpenCL images and media block IO (added by its family); no cl_khr_subgroups, no 2D block
    // IO, no MMA.
    Profile lpg = baseProfile("xe_lpg", "Xe-LPG (Meteor Lake integrated GPU)",
                              "RefDev Xe-LPG-like SPIR-V interpreter", {8, 16, 32});
    addFp64(lpg);
    addImages(lpg);
    profiles.push_back(lpg);

    // Intel's OpenCL CPU device (PyPI intel-opencl-rt 2026.2.0, test_conformance/targets/runtime/
    // intel-cpu.json, from its own clinfo): a CPU device with sub-group sizes 4, 8, 16, 32 and 64, fp64,
    // OpenCL images, work-groups up to 8192 and 256 KiB of local memory; no media block IO, 2D block IO or
    // MMA, no cl_khr_subgroups; cl_intel_subgroups_short at 1.0.0 as that runtime reports it.
    Profile cpu = baseProfile("cpu", "Intel OpenCL CPU device (intel-opencl-rt 2026.2.0)",
                              "RefDev Intel-CPU-like SPIR-V interpreter", {4, 8, 16, 32, 64});
    addFp64(cpu);
    addImages(cpu);
    for (ExtensionEntry& e : cpu.extensions)
        if (e.name == "cl_intel_subgroups_short") e.minor = 0;
    cpu.cpu_device = true;
    cpu.max_work_group_size = 8192;
    cpu.local_mem_size = 256 * 1024;
    profiles.push_back(cpu);

    // What Intel's GPU compiler builds from compiler output without the runtime reporting it: cache-control
    // decorations (no effect on results here), kernel attributes (MaxWorkgroupSizeINTEL and the like) and
    // VectorAnyINTEL vectors (1 and 32 components, which Triton's 2D block IO and MMA calls use).
    for (Profile& p : profiles) {
        if (p.cpu_device) continue;
        p.compiler_spirv_extensions = {"SPV_INTEL_cache_controls", "SPV_INTEL_kernel_attributes",
                                       "SPV_INTEL_vector_compute"};
        p.compiler_capabilities = {token(spv::Capability::CacheControlsINTEL),
                                   token(spv::Capability::KernelAttributesINTEL),
                                   token(spv::Capability::VectorAnyINTEL)};
    }

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

bool Profile::buildsSpirvExtension(const std::string& ext) const {
    return hasSpirvExtension(ext) ||
           std::find(compiler_spirv_extensions.begin(), compiler_spirv_extensions.end(), ext) !=
               compiler_spirv_extensions.end();
}

bool Profile::hasCapability(uint32_t cap) const {
    return std::find(spirv_capabilities.begin(), spirv_capabilities.end(), cap) != spirv_capabilities.end();
}

bool Profile::buildsCapability(uint32_t cap) const {
    // Intel's compiler builds image instructions for Xe-HPC too (ocloc -device pvc accepts the suite's image
    // block IO modules); the device only has no image objects to bind to them.
    return hasCapability(cap) ||
           std::find(kImageCapabilities.begin(), kImageCapabilities.end(), cap) != kImageCapabilities.end() ||
           std::find(compiler_capabilities.begin(), compiler_capabilities.end(), cap) !=
               compiler_capabilities.end();
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
        if (wanted != "list") *error += " (REFDEV_PROFILE=list describes each)";
    }
    return nullptr;
}

std::string profileTable() {
    std::string out;
    for (const Profile& p : allProfiles()) {
        std::string sizes;
        for (uint32_t s : p.sub_group_sizes) sizes += (sizes.empty() ? "" : ",") + std::to_string(s);
        std::string features = "sizes " + sizes;
        if (p.fp64) features += ", fp64";
        if (p.images) features += ", images";
        if (p.hasSpirvExtension("SPV_INTEL_2d_block_io")) features += ", 2D block IO";
        if (p.mma_n) features += ", MMA N=" + std::to_string(p.mma_n);
        if (p.hasSpirvExtension("SPV_INTEL_media_block_io")) features += ", media block IO";
        for (const auto& w : p.withheld_extensions) features += ", not " + w.first;
        out += "  " + p.name + std::string(p.name.size() < 8 ? 8 - p.name.size() : 1, ' ') + p.class_name +
               ": " + features + (p.name == "xe_hpc" ? " (the default)" : "") + "\n";
    }
    return out;
}

}  // namespace refdev
