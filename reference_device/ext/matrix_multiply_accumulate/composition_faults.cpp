// Planted MMA bugs that show only when instructions are combined (see docs/workloads.md): kept apart from
// faults.cpp, whose faults each matrix_multiply_accumulate.* case family must catch on its own.
#include "reference_device/faults.h"

namespace refdev {

std::vector<FaultInfo> mmaCompositionFaults() {
    return {
        {"mma_chain_drops_c",
         "an MMA instruction executed again by the same sub-group (a loop over K whose accumulator is the "
         "previous Result) reads Matrix C as zero, so the chain keeps only its last step"},
        {"mma_nan_late_k_step",
         "from the 17th execution of an MMA with fp16 or bf16 A and B by one sub-group on (a GEMM whose K "
         "loop runs past 16 steps: K > 256 for 16-bit data), the Result is NaN (compute-runtime#1000: fp16 "
         "GEMM NaN at 512 x 512, right at 64 x 64)"},
        {"mma_wrong_after_first_workgroup",
         "MMA is right only in work-group 0; in every other work-group row r of the Result uses row r + 1 "
         "(mod M) of Matrix A (intel/llvm#21741: DPAS right for the first work-item only, plausible-looking "
         "values elsewhere)"},
    };
}

REFDEV_REGISTER_FAULTS("matrix_multiply_accumulate.composition", mmaCompositionFaults);

}  // namespace refdev
