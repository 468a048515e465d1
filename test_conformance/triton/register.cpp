#include "test_conformance/families.h"
#include "test_conformance/triton/families.h"

namespace cts {

namespace {

void registerTritonFamilies(Registry& registry) {
    registry.addFamily(triton::makeGemmFamily());
    registry.addFamily(triton::makeRowsFamily());
}

}  // namespace

CTS_REGISTER_FAMILIES("triton", registerTritonFamilies);

}  // namespace cts
