// intel_sub_group_block_read / write on local memory (cl_intel_subgroup_local_block_io; _ui, _us, _uc
// variants), the kernel ABI of subgroups.local_block_* (test_conformance/subgroups/block_io_family.cpp,
// storage "workgroup"): out, info, src, offset, stride. Work-group g's window of the global buffer, elements
// [g * NumSubgroups * stride, + offset + NumSubgroups * stride), is mirrored in a local tile of TILE_BYTES,
// so sub-group s block-reads or block-writes the tile at offset + s * stride, the block the buffer case
// accesses. A read copies the window in, a write copies it in (untouched elements keep the buffer's bytes)
// and back out after the block write. Built with WRITE, SUFFIX, TILE_BYTES and IMPORTED (common.h).
#include "common.h"

#if N == 1
#define WIDTH
#else
#define WIDTH N
#endif
#define BLOCK_READ BUILTIN_NAME(CAT(CAT(intel_sub_group_block_read, SUFFIX), WIDTH))
#define BLOCK_WRITE BUILTIN_NAME(CAT(CAT(intel_sub_group_block_write, SUFFIX), WIDTH))
// clang-15's opencl-c.h has no local block IO: declared here in both modes.
VEC OVLD BLOCK_READ(const local T* p);
void OVLD BLOCK_WRITE(local T* p, VEC data);

// Copies elements [first, end) of the window, step apart, between the buffer and the tile.
static void copy_window(global T* buffer, local T* tile, size_t window, size_t first, size_t end, size_t step,
                        bool to_tile) {
    for (size_t k = first; k < end; k += step) {
        if (to_tile)
            tile[k] = buffer[window + k];
        else
            buffer[window + k] = tile[k];
    }
}

REQD_SG kernel void test(global T* out, global uint* info, global T* src, uint offset, uint stride) {
    // 16-byte elements: the tile is 16-byte aligned, as the extension requires of Ptr.
    local uint4 tile_storage[(TILE_BYTES + 15) / 16];
    local T* tile = (local T*)tile_storage;
    const size_t gid = get_global_id(0);
    write_info(info, gid);
    const size_t sub_groups = get_num_sub_groups();
    const size_t window = get_group_id(0) * sub_groups * stride;
    const size_t end = offset + sub_groups * stride;
    // Work-groups are whole sub-groups: no work-item to sub-group mapping is assumed.
    const size_t first = get_sub_group_id() * get_max_sub_group_size() + get_sub_group_local_id();
    const size_t step = sub_groups * get_max_sub_group_size();
    local T* block = tile + offset + get_sub_group_id() * stride;
#if WRITE
    copy_window(out, tile, window, first + offset, end, step, true);
    barrier(CLK_LOCAL_MEM_FENCE);
    BLOCK_WRITE(block, load_components(src, gid));
    barrier(CLK_LOCAL_MEM_FENCE);
    copy_window(out, tile, window, first + offset, end, step, false);
#else
    copy_window(src, tile, window, first, end, step, true);
    barrier(CLK_LOCAL_MEM_FENCE);
    store_components(out, gid, BLOCK_READ(block));
#endif
}
