// Which profiles report SPV_INTEL_2d_block_io: the Xe-HPC (PVC), Xe2 (BMG, LNL) and Xe3 (PTL) classes, with
// the transform and transpose capabilities; DG2, MTL and Intel's CPU device have no 2D block IO
// (test_conformance/targets/*.json). The same classes' driver reports cl_intel_subgroup_extended_block_read,
// OpenCL C 2D block read functions of the same hardware message: it defines no SPIR-V (no OpExtension,
// capability or instruction; compute-runtime 26.27 lists no SPIR-V extension for it), so reporting it, as the
// driver does, claims nothing a SPIR-V module can use (docs/reference_device.md, "Profiles").
#include "reference_device/profile.h"
#include "reference_device/ext/2d_block_io/block_io_2d_ops.h"

namespace refdev {

namespace {

void report2dBlockIo(Profile& p) {
    if (p.name != "xe_hpc" && p.name != "xe2" && p.name != "xe3") return;
    using namespace spirv::block_io_2d;
    p.extensions.push_back({"cl_intel_subgroup_2d_block_io", 1, 1, 0});
    p.extensions.push_back({"cl_intel_subgroup_extended_block_read", 1, 0, 0});
    p.spirv_extensions.push_back("SPV_INTEL_2d_block_io");
    p.spirv_capabilities.insert(p.spirv_capabilities.end(),
                                {kCapabilityIo, kCapabilityTransform, kCapabilityTranspose});
}

}  // namespace

REFDEV_REGISTER_PROFILE_EXTENSION("2d_block_io", report2dBlockIo);

}  // namespace refdev
