// Which profiles report SPV_INTEL_subgroup_matrix_multiply_accumulate: both hardware classes, each with its N
// (the minimum sub-group size: 16 on PVC, with TF32; 8 on DG2).
#include "reference_device/profile.h"
#include "reference_device/ext/matrix_multiply_accumulate/mma_ops.h"

namespace refdev {

namespace {

void reportMatrixMultiplyAccumulate(Profile& p) {
    if (p.name != "xe_hpc" && p.name != "xe_hpg") return;
    p.extensions.push_back({"cl_intel_subgroup_matrix_multiply_accumulate", 1, 1, 0});
    if (p.name == "xe_hpc") {
        // The _tf32 spec also requires accepting SPV_INTEL_tensor_float32_conversion
        // (TensorFloat32RoundingINTEL); the loader has no such instruction yet, so neither is listed.
        p.extensions.push_back({"cl_intel_subgroup_matrix_multiply_accumulate_tf32", 1, 0, 0});
    }
    p.spirv_extensions.push_back("SPV_INTEL_subgroup_matrix_multiply_accumulate");
    p.spirv_capabilities.push_back(spirv::mma::kCapability);
    p.mma_n = p.name == "xe_hpc" ? 16 : 8;
}

}  // namespace

REFDEV_REGISTER_PROFILE_EXTENSION("matrix_multiply_accumulate", reportMatrixMultiplyAccumulate);

}  // namespace refdev
