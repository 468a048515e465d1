// intel_sub_group_<a>_<b>_matrix_mad_k<K> chained over K (cl_intel_subgroup_matrix_multiply_accumulate), the
// kernel ABI of matrix_multiply_accumulate's chained kernel (scripts/assets/generators/matrix_multiply_accumulate.py):
// a, b, c, out, steps. Lane s = g * SG + lane: acc = c[s]; for t < steps: acc = MAD(a[s * steps + t],
// b[s * steps + t], acc); out[s] = acc. Built with MAD (the built-in), A_ARG and B_ARG (its A and B parameter
// types: short8 or ushort8, int8 or uint8) and ACC (float8 or int8). llvm-spirv-15 does not know the MMA
// extension: the call stays a call of an imported function.
#include "common.h"

ACC OVLD MAD(A_ARG a, B_ARG b, ACC acc);

static ACC mad_step(const global ushort8* a, const global uint8* b, uint i, ACC acc) {
    return MAD(CAT(as_, A_ARG)(a[i]), CAT(as_, B_ARG)(b[i]), acc);
}

REQD_SG kernel void test(const global ushort8* a, const global uint8* b, const global ACC* c, global ACC* out,
                         uint steps) {
    const uint s = block_index() * SG + get_sub_group_local_id();
    ACC acc = c[s];
    for (uint t = 0; t < steps; ++t) acc = mad_step(a, b, s * steps + t, acc);
    out[s] = acc;
}
