// The 2d_block_io.windowed family (block_io_2d_windowed_family.cpp): 2D block IO in buffers past 4 GiB.
#pragma once

#include "test_common/harness/model/case.h"

namespace cts {
void register2dBlockIoWindowedFamily(Registry& registry);
}  // namespace cts
