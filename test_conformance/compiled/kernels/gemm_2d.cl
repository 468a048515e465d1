// A GEMM tile as Triton's Intel backend builds it from OpenCL C built-ins: per K step a 2D block read of A
// (intel_sub_group_2d_block_read_16b_8r16x1c), a transform (VNNI) read of row-major B
// (intel_sub_group_2d_block_read_transform_16b_16r16x1c), intel_sub_group_<f16|bf16>_<f16|bf16>_matrix_mad_k16
// into an fp32 accumulator, optionally 2D prefetches of the next K step; then a 2D block write of the 8 x 16
// tile of D (intel_sub_group_2d_block_write_32b_8r16x1c). The kernel ABI of workloads_gemm_2d
// (scripts/assets/generators/workloads.py): a, b, d, done, rows (unused), m, n, k, a_pitch, b_pitch, d_pitch, tiles_n.
// Built with MAD (the matrix-mad built-in) and PREFETCH_NEXT (0 or 1). llvm-spirv-15 knows neither extension:
// every built-in stays a call of an imported function.
#include "common.h"

#define READ_A intel_sub_group_2d_block_read_16b_8r16x1c
#define READ_B intel_sub_group_2d_block_read_transform_16b_16r16x1c
#define WRITE_D intel_sub_group_2d_block_write_32b_8r16x1c
void OVLD READ_A(global void* base, int width, int height, int pitch, int2 coord, private ushort* dst);
void OVLD READ_B(global void* base, int width, int height, int pitch, int2 coord, private uint* dst);
void OVLD WRITE_D(global void* base, int width, int height, int pitch, int2 coord, private uint* src);
void OVLD intel_sub_group_2d_block_prefetch_16b_8r16x1c(global void* base, int width, int height, int pitch,
                                                        int2 coord);
void OVLD intel_sub_group_2d_block_prefetch_16b_16r16x1c(global void* base, int width, int height, int pitch,
                                                         int2 coord);
float8 OVLD MAD(short8 a, int8 b, float8 acc);

// Memory Width of 2-byte data must be a multiple of 4 bytes: A's rows are padded (the host provides zeros).
static int padded_width(uint elements) {
    return (int)((elements * 2 + 3) & ~3u);
}

REQD_SG kernel void test(global uchar* a, global uchar* b, global uchar* d, global uint* done, global uint* rows,
                         uint m, uint n, uint k, uint a_pitch, uint b_pitch, uint d_pitch, uint tiles_n) {
    const uint g = block_index();
    const uint tm = g / tiles_n;
    const int row0 = (int)tm * 8;
    const int col0 = (int)(g - tm * tiles_n) * 16;  // not g % tiles_n: llvm-spirv-15 cannot translate the
                                                    // freeze -O2 inserts for a division and remainder pair
    float8 acc = 0.0f;
    for (uint kk = 0; kk < k; kk += 16) {
        ushort8 av;
        uint8 bv;
#if PREFETCH_NEXT
        intel_sub_group_2d_block_prefetch_16b_8r16x1c(a, padded_width(k), m, a_pitch, (int2)(kk + 16, row0));
        intel_sub_group_2d_block_prefetch_16b_16r16x1c(b, n * 2, k, b_pitch, (int2)(col0, kk + 16));
#endif
        READ_A(a, padded_width(k), m, a_pitch, (int2)(kk, row0), (private ushort*)&av);
        READ_B(b, n * 2, k, b_pitch, (int2)(col0, kk), (private uint*)&bv);
        acc = MAD(as_short8(av), as_int8(bv), acc);
    }
    WRITE_D(d, n * 4, m, d_pitch, (int2)(col0, row0), (private uint*)&acc);
    const uint s = g * SG + get_sub_group_local_id();
    done[s] = s + 0x1000;
}
