// Which profiles report SPV_INTEL_subgroup_matrix_multiply_accumulate: the classes with DPAS, each with its N
// (the minimum sub-group size): 16 with TF32 on Xe-HPC (PVC), Xe2 (BMG, LNL) and Xe3 (PTL); 8 on Xe-HPG
// (DG2). MTL's Xe-LPG and Intel's CPU device have none (test_conformance/targets/*.json). DG2's driver also
// reports cl_intel_subgroup_split_matrix_multiply_accumulate, OpenCL C functions that split A over two
// sub-groups on the same DPAS hardware, with no SPIR-V of their own: a module reaches them as imported
// built-ins, which split_mma.cpp runs (docs/reference_device.md, "Imported OpenCL C built-ins").
#include "reference_device/profile.h"
#include "reference_device/ext/matrix_multiply_accumulate/mma_ops.h"

namespace refdev {

namespace {

void reportMatrixMultiplyAccumulate(Profile& p) {
    const bool n16 = p.name == "xe_hpc" || p.name == "xe2" || p.name == "xe3";
    if (!n16 && p.name != "xe_hpg") return;
    p.extensions.push_back({"cl_intel_subgroup_matrix_multiply_accumulate", 1, 1, 0});
    if (n16) {
        // The _tf32 spec also requires accepting SPV_INTEL_tensor_float32_conversion
        // (TensorFloat32RoundingINTEL); the loader has no such instruction yet, so neither is listed.
        p.extensions.push_back({"cl_intel_subgroup_matrix_multiply_accumulate_tf32", 1, 0, 0});
    }
    if (!n16) p.extensions.push_back({"cl_intel_subgroup_split_matrix_multiply_accumulate", 1, 0, 0});
    p.spirv_extensions.push_back("SPV_INTEL_subgroup_matrix_multiply_accumulate");
    p.spirv_capabilities.push_back(spirv::mma::kCapability);
    p.mma_n = n16 ? 16 : 8;
}

}  // namespace

REFDEV_REGISTER_PROFILE_EXTENSION("matrix_multiply_accumulate", reportMatrixMultiplyAccumulate);

}  // namespace refdev
