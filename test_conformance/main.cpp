// spirv_intel_cts: the conformance runner. Each case family that is built registers itself here.
#include <cstdio>
#include <exception>
#include <vector>

#include "test_common/harness/runner.h"
#include "test_conformance/families.h"

int main(int argc, char** argv) {
    std::vector<cts::RegisterFamilies> families = {cts::registerApiFamilies};
#ifdef CTS_HAVE_FAMILY_SUBGROUPS
    families.push_back(cts::registerSubgroupsFamilies);
#endif
#ifdef CTS_HAVE_FAMILY_2D_BLOCK_IO
    families.push_back(cts::register2dBlockIoFamilies);
#endif
#ifdef CTS_HAVE_FAMILY_MATRIX_MULTIPLY_ACCUMULATE
    families.push_back(cts::registerMatrixMultiplyAccumulateFamilies);
#endif
#ifdef CTS_HAVE_FAMILY_MEDIA_BLOCK_IO
    families.push_back(cts::registerMediaBlockIoFamilies);
#endif
#ifdef CTS_HAVE_FAMILY_WORKLOADS
    families.push_back(cts::registerWorkloadsFamilies);
#endif
    try {
        return cts::runnerMain(argc, argv, families);
    } catch (const std::exception& e) {
        // Registration or setup bugs: an internal error of the run, not a device failure.
        std::fprintf(stderr, "spirv_intel_cts: internal error: %s\n", e.what());
        return 1;
    }
}
