// Planted 2D block IO bugs that show only when instructions are combined (see docs/workloads.md): kept apart
// from faults.cpp, whose faults each 2d_block_io.* case family must catch on its own.
#include "reference_device/faults.h"

namespace refdev {

std::vector<FaultInfo> blockIo2dCompositionFaults() {
    return {
        {"prefetch_serves_next_load",
         "a 2D prefetch leaves its block in a buffer that serves the next 2D load from the same base "
         "address, "
         "whatever that load's Coordinate (a stale prefetch buffer; a prefetch of another tile shows it)"},
    };
}

REFDEV_REGISTER_FAULTS("2d_block_io.composition", blockIo2dCompositionFaults);

}  // namespace refdev
