// Planted MMA bugs that show only when instructions are combined (see docs/workloads.md): kept apart from
// faults.cpp, whose faults each matrix_multiply_accumulate.* case family must catch on its own.
#include "reference_device/faults.h"

namespace refdev {

std::vector<FaultInfo> mmaCompositionFaults() {
    return {
        {"mma_chain_drops_c",
         "an MMA instruction executed again by the same sub-group (a loop over K whose accumulator is the "
         "previous Result) reads Matrix C as zero, so the chain keeps only its last step"},
    };
}

REFDEV_REGISTER_FAULTS("matrix_multiply_accumulate.composition", mmaCompositionFaults);

}  // namespace refdev
