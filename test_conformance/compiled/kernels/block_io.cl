// intel_sub_group_block_read / write on buffers (_us, _uc variants), the kernel ABI of subgroups.block_io
// (test_conformance/subgroups/block_io_family.cpp): out, info, src, offset, stride. The block of sub-group b
// starts at element offset + b * stride; a read stores each work-item's components at out[gid * N ..], a
// write takes them from src[gid * N ..]. Built with WRITE, SUFFIX naming the variant (_ui, _us, _uc or empty)
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
VEC OVLD BLOCK_READ(const global T* p);
void OVLD BLOCK_WRITE(global T* p, VEC data);
#endif

static size_t block_start(uint offset, uint stride) {
    return offset + (size_t)block_index() * stride;
}

REQD_SG kernel void test(global T* out, global uint* info, global T* src, uint offset, uint stride) {
    const size_t gid = get_global_id(0);
    write_info(info, gid);
#if WRITE
    BLOCK_WRITE(out + block_start(offset, stride), load_components(src, gid));
#else
    const VEC value = BLOCK_READ(src + block_start(offset, stride));
    store_components(out, gid, value);
#endif
}
