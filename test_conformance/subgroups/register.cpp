// Registers the SPV_INTEL_subgroups families; their cases come from the manifest
// (scripts/assets/generators/subgroups.py).
#include "test_conformance/families.h"
#include "test_conformance/subgroups/families.h"

namespace cts {

namespace {

void registerSubgroupsFamilies(Registry& registry) {
    registry.addFamily(subgroups::makeShuffleFamily());
    registry.addFamily(subgroups::makeBlockIoFamily());
    registry.addFamily(subgroups::makeImageBlockIoFamily());
}

}  // namespace

CTS_REGISTER_FAMILIES("subgroups", registerSubgroupsFamilies);

}  // namespace cts
