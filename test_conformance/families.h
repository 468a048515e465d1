// Registration entry points of the case families, one per top-level group. main() calls each that is
// built (test_conformance/CMakeLists.txt defines CTS_HAVE_FAMILY_<GROUP> for every group library present).
#pragma once

#include "test_common/harness/case.h"

namespace cts {
void registerApiFamilies(Registry& registry);
void registerSubgroupsFamilies(Registry& registry);
void register2dBlockIoFamilies(Registry& registry);
void registerMatrixMultiplyAccumulateFamilies(Registry& registry);
void registerMediaBlockIoFamilies(Registry& registry);
void registerWorkloadsFamilies(Registry& registry);
}  // namespace cts
