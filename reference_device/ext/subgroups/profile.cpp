// Which profiles report cl_intel_subgroup_local_block_io (SPV_INTEL_subgroups block IO on Workgroup
// pointers): Intel's CPU device (profile cpu), whose runtime lists it at 1.0.0 as every extension
// (test_conformance/targets/runtime/intel-cpu.json). The GPU classes' descriptions keep it among their
// "other_extensions" (reported, not compared): the GPU profiles leave it out, so the local block IO cases
// (subgroups.local_block_*) are NotSupported there and run on cpu.
#include "reference_device/profile.h"

namespace refdev {

namespace {

void reportLocalBlockIo(Profile& p) {
    if (p.name != "cpu") return;
    p.extensions.push_back({"cl_intel_subgroup_local_block_io", 1, 0, 0});
}

}  // namespace

REFDEV_REGISTER_PROFILE_EXTENSION("subgroups", reportLocalBlockIo);

}  // namespace refdev
