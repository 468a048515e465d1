// Which profiles report SPV_INTEL_2d_block_io: the Xe-HPC (PVC), Xe2 (BMG, LNL) and Xe3 (PTL) classes, with
// the transform and transpose capabilities; DG2, MTL and Intel's CPU device have no 2D block IO
// (test_conformance/targets/*.json). The same classes' driver reports cl_intel_subgroup_extended_block_read,
// OpenCL C 2D block read functions of the same hardware message with no SPIR-V of their own: a module reaches
// them as imported built-ins, which the device runs as its 2D block loads (spirv/builtins.cpp,
// block_io_2d_ops.cpp; docs/reference_device.md, "Imported OpenCL C built-ins").
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
