// Which profiles report SPV_INTEL_media_block_io: the Xe-HPG (DG2) and Xe-LPG (MTL) classes. PVC has no
// OpenCL images, so no media block IO; Xe2, Xe3 and Intel's CPU device have images but no media block IO
// (supportsMediaBlock false; test_conformance/targets/*.json).
#include "reference_device/profile.h"
#include "reference_device/ext/media_block_io/media_block_io_ops.h"

namespace refdev {

namespace {

void reportMediaBlockIo(Profile& p) {
    if (p.name != "xe_hpg" && p.name != "xe_lpg") return;
    p.extensions.push_back({"cl_intel_spirv_media_block_io", 1, 0, 0});
    p.spirv_extensions.push_back("SPV_INTEL_media_block_io");
    p.spirv_capabilities.push_back(spirv::media_block_io::kCapability);
}

}  // namespace

REFDEV_REGISTER_PROFILE_EXTENSION("media_block_io", reportMediaBlockIo);

}  // namespace refdev
