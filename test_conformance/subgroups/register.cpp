// Registers the SPV_INTEL_subgroups families; their cases come from the manifest
// (scripts/generators/subgroups.py).
#include "test_conformance/families.h"
#include "test_conformance/subgroups/families.h"

namespace cts {

void registerSubgroupsFamilies(Registry& registry) {
    registry.addFamily(subgroups::makeShuffleFamily());
    registry.addFamily(subgroups::makeBlockIoFamily());
    registry.addFamily(subgroups::makeImageBlockIoFamily());
}

}  // namespace cts
