// buildModule: parses, validates and pre-decodes a SPIR-V module (see decoder.cpp for the instruction
// stream). Never throws on bad input; every problem is a log line naming the instruction.
#include "reference_device/spirv/module.h"

namespace refdev::spirv {

BuildResult buildModule(const uint32_t* words, size_t word_count, const Profile& profile,
                        const ExtOpTable& table) {
    BuildResult r;
    r.log = "the SPIR-V loader is not complete yet";
    return r;
}

BuildResult buildModule(const uint32_t* words, size_t word_count, const Profile& profile) {
    return buildModule(words, word_count, profile, extOps());
}

const std::vector<KernelInfo>& kernels(const Module& module) { return module.kernel_infos; }

uint32_t subGroupSize(const Module& module, const std::string& kernel, const Profile& profile) {
    const Kernel* k = module.findKernel(kernel);
    if (k && k->sub_group_size) return k->sub_group_size;
    return profile.default_sub_group_size;
}

}  // namespace refdev::spirv
