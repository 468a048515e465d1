#include "test_conformance/families.h"
#include "test_conformance/workloads/families.h"

namespace cts {

void registerWorkloadsFamilies(Registry& registry) {
    registry.addFamily(workloads::makeGemm2dFamily());
    registry.addFamily(workloads::makeGemmBlockReadFamily());
    registry.addFamily(workloads::makeMediaFilterFamily());
}

}  // namespace cts
