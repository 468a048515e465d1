// The extensions of this family's hardware messages that a profile reports beside cl_intel_spirv_subgroups:
//
// - cl_intel_subgroup_local_block_io (block IO on Workgroup pointers, block_io.cpp) on every profile: Intel's
//   GPU driver reports it for every class (compute-runtime 26.27's clinfo for pvc, dg2, bmg, lnl-m, ptl, mtl;
//   test_conformance/targets/*.json), and Intel's CPU runtime too (targets/runtime/intel-cpu.json).
// - cl_intel_subgroup_buffer_prefetch with SPV_INTEL_subgroup_buffer_prefetch and SubgroupBufferPrefetchINTEL
//   (prefetch.cpp) on the classes whose driver reports it: Xe-HPC, Xe2, Xe3. Its environment text makes the
//   device accept the SPIR-V extension and the capability, so the profile lists both.
#include "reference_device/profile.h"
#include "reference_device/ext/subgroups/subgroups_ops.h"

namespace refdev {

namespace {

void reportSubgroupBlockExtensions(Profile& p) {
    p.extensions.push_back({"cl_intel_subgroup_local_block_io", 1, 0, 0});
    if (p.name != "xe_hpc" && p.name != "xe2" && p.name != "xe3") return;
    p.extensions.push_back({"cl_intel_subgroup_buffer_prefetch", 1, 0, 0});
    p.spirv_extensions.push_back("SPV_INTEL_subgroup_buffer_prefetch");
    p.spirv_capabilities.push_back(spirv::subgroups::kCapBufferPrefetch);
}

}  // namespace

REFDEV_REGISTER_PROFILE_EXTENSION("subgroups", reportSubgroupBlockExtensions);

}  // namespace refdev
