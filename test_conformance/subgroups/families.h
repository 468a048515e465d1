// The subgroups.* case families (one per instruction group); registered by registerSubgroupsFamilies.
#pragma once

#include <memory>

#include "test_common/harness/model/case.h"

namespace cts::subgroups {
std::unique_ptr<Family> makeShuffleFamily();       // "subgroups.shuffle"
std::unique_ptr<Family> makeBlockIoFamily();       // "subgroups.block_io"
std::unique_ptr<Family> makeImageBlockIoFamily();  // "subgroups.image_block_io"
}  // namespace cts::subgroups
