// intel_sub_group_block_read / write on images, the kernel ABI of subgroups.image_block_io
// (test_conformance/subgroups/image_block_io_family.cpp): image, info, data, coords. Sub-group b reads or
// writes the block at (coords[2b] bytes, coords[2b + 1] rows); a read stores each work-item's components at
// data[gid * N ..], a write takes them from there. Built with WRITE, SUFFIX (_us, _ui, or empty for uint)
// and IMPORTED (common.h).
#include "common.h"

#if N == 1
#define WIDTH
#else
#define WIDTH N
#endif
#define BLOCK_READ BUILTIN_NAME(CAT(CAT(intel_sub_group_block_read, SUFFIX), WIDTH))
#define BLOCK_WRITE BUILTIN_NAME(CAT(CAT(intel_sub_group_block_write, SUFFIX), WIDTH))
#if IMPORTED
VEC OVLD BLOCK_READ(read_only image2d_t image, int2 coord);
void OVLD BLOCK_WRITE(write_only image2d_t image, int2 coord, VEC data);
#endif

static int2 block_coord(const global uint* coords) {
    const uint b = block_index();
    return (int2)((int)coords[2 * b], (int)coords[2 * b + 1]);
}

#if WRITE
REQD_SG kernel void test(write_only image2d_t image, global uint* info, global T* data,
                         const global uint* coords) {
    const size_t gid = get_global_id(0);
    write_info(info, gid);
    BLOCK_WRITE(image, block_coord(coords), load_components(data, gid));
}
#else
REQD_SG kernel void test(read_only image2d_t image, global uint* info, global T* data,
                         const global uint* coords) {
    const size_t gid = get_global_id(0);
    write_info(info, gid);
    store_components(data, gid, BLOCK_READ(image, block_coord(coords)));
}
#endif
