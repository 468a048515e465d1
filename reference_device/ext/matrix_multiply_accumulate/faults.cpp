// Planted MMA bugs: each is a mistake a driver or its compiler could plausibly make, so the suite must catch
// it. Each changes results only in the situation its description names.
#include "reference_device/faults.h"

namespace refdev {

std::vector<FaultInfo> mmaFaults() {
    return {
        {"mma_c_ignored", "MMA treats Matrix C as zero (Result = A x B)"},
        {"mma_a_signed_ignored", "MMA ignores ASigned: packed integer A is read unsigned"},
        {"mma_b_signed_ignored", "MMA ignores BSigned: packed integer B is read unsigned"},
        {"mma_a_columns_reversed",
         "MMA unpacks the columns packed in one A component in reverse order (only when a component packs "
         "more than one column, K > N)"},
        {"mma_b_vnni_rows_swapped",
         "MMA reverses the rows packed in each 32-bit B component (packed formats: int8, int4, fp16, bf16)"},
        {"mma_int4_nibbles_swapped",
         "MMA exchanges the two int4 elements of each byte of A (columns 2j and 2j+1 of each component)"},
        {"mma_tf32_a_interleave_wrong",
         "TF32 MMA pairs neighbouring invocations for A (invocation 2j + h passes column j, rows 2c + h) "
         "instead of invocations j and j + 8"},
        {"mma_m_from_a_components",
         "MMA takes M from A's component count and writes zero to the later Result rows (TF32 with M >= 2)"},
        {"mma_half_k", "MMA accumulates only the first K/2 columns of A and rows of B"},
        {"mma_int_saturate", "integer MMA saturates the Result to the int32 range instead of wrapping"},
        {"mma_bf16_c_as_fp16", "MMA reads a CBFloat16 Matrix C as fp16 instead of bf16"},
        {"mma_second_site_b_zero",
         "the second and later MMA instructions of a module read Matrix B as zero (compiler bug)"},
        {"mma_lane0_broadcast", "MMA gives every invocation invocation 0's Result column"},
        {"mma_n8_uses_16_lane_layout",
         "MMA on an N = 8 device unpacks A as for N = 16: K/16 columns from the low bits of each component, "
         "the rest zero"},
        {"mma_odd_workgroups_zero",
         "MMA returns a zero Result in work-groups with an odd linear id (compiler bug in a branch only "
         "some work-groups take)"},
        {"mma_reads_ignored_a_lane",
         "MMA with N > K and M not filling the last A component (TF32, M = 1) reads column 0 of row M - 1 "
         "from "
         "the invocation passing row M, whose data the spec ignores (invocation 8 instead of 0)"},
    };
}

REFDEV_REGISTER_FAULTS("matrix_multiply_accumulate", mmaFaults);

}  // namespace refdev
