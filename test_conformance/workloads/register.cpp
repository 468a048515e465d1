#include "test_conformance/families.h"
#include "test_conformance/workloads/families.h"

namespace cts {

namespace {

void registerWorkloadsFamilies(Registry& registry) {
    registry.addFamily(workloads::makeGemm2dFamily());
    registry.addFamily(workloads::makeGemmBlockReadFamily());
    registry.addFamily(workloads::makeMediaFilterFamily());
    registry.addFamily(workloads::makeImageTile2dFamily());
}

}  // namespace

CTS_REGISTER_FAMILIES("workloads", registerWorkloadsFamilies);

}  // namespace cts
