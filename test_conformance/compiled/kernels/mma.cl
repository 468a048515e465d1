// intel_sub_group_<f16|bf16>_<f16|bf16>_matrix_mad_k16 chained over K (cl_intel_subgroup_matrix_multiply_accumulate),
// the kernel ABI of matrix_multiply_accumulate's chained kernel (scripts/generators/matrix_multiply_accumulate.py):
// a, b, c, out, steps. Lane s = g * SG + lane: acc = c[s]; for t < steps: acc = MAD(a[s * steps + t],
// b[s * steps + t], acc); out[s] = acc. Built with MAD (the built-in). llvm-spirv-15 does not know the MMA
// extension: the call stays a call of an imported function.
#include "common.h"

float8 OVLD MAD(short8 a, int8 b, float8 acc);

static float8 mad_step(const global ushort8* a, const global uint8* b, uint i, float8 acc) {
    return MAD(as_short8(a[i]), as_int8(b[i]), acc);
}

REQD_SG kernel void test(const global ushort8* a, const global uint8* b, const global float8* c,
                         global float8* out, uint steps) {
    const uint s = block_index() * SG + get_sub_group_local_id();
    float8 acc = c[s];
    for (uint t = 0; t < steps; ++t) acc = mad_step(a, b, s * steps + t, acc);
    out[s] = acc;
}
