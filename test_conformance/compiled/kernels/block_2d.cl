// intel_sub_group_2d_block_read / read_transform / read_transpose / write / prefetch (cl_intel_subgroup_2d_block_io),
// the kernel ABI of 2d_block_io (scripts/assets/generators/2d_block_io.py): surface, lanes, coords, memory_width_bytes,
// memory_height_rows, memory_pitch_bytes, base_offset_bytes, done. Sub-group g = block_index() accesses the
// block at coords[g]; lane s = g * SG + lane owns lanes[s * N .. + N); done[s] = s + 0x1000 is the last store.
// Built with BUILTIN (the built-in's name, which gives the shape), WRITE, PREFETCH (1: PREFETCH_BUILTIN of the
// same region runs before the load), T (lane element type), N (elements a lane), POISON.
// llvm-spirv-15 does not know SPV_INTEL_2d_block_io: the calls stay calls of imported functions.
#include "common.h"

void OVLD BUILTIN(global void* base, int width, int height, int pitch, int2 coord, private T* data);
#if PREFETCH
void OVLD PREFETCH_BUILTIN(global void* base, int width, int height, int pitch, int2 coord);
#endif

// The block's base: surface + base_offset_bytes, through a helper as a library computes it.
static global void* block_base(global uchar* surface, uint base_offset_bytes) {
    return surface + base_offset_bytes;
}

REQD_SG kernel void test(global uchar* surface, global T* lanes, const global uint2* coords,
                         uint memory_width_bytes, uint memory_height_rows, uint memory_pitch_bytes,
                         uint base_offset_bytes, global uint* done) {
    const uint g = block_index();
    const uint s = g * SG + get_sub_group_local_id();
    global void* base = block_base(surface, base_offset_bytes);
    const int2 coord = as_int2(coords[g]);
    T data[N];
#if WRITE
    for (int i = 0; i < N; ++i) data[i] = lanes[s * N + i];
    BUILTIN(base, memory_width_bytes, memory_height_rows, memory_pitch_bytes, coord, data);
#else
    // Poison first, so elements the built-in leaves unwritten show.
    for (int i = 0; i < N; ++i) data[i] = POISON;
#if PREFETCH
    PREFETCH_BUILTIN(base, memory_width_bytes, memory_height_rows, memory_pitch_bytes, coord);
#endif
    BUILTIN(base, memory_width_bytes, memory_height_rows, memory_pitch_bytes, coord, data);
    for (int i = 0; i < N; ++i) lanes[s * N + i] = data[i];
#endif
    done[s] = s + 0x1000;
}
