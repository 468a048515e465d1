// intel_sub_group_media_block_read / write, the kernel ABI of media_block_io
// (test_conformance/media_block_io/media_family.cpp): image, coords, lanes, done. Sub-group g reads or
// writes the WIDTH x HEIGHT region at coords[g] (x bytes, y rows); lane s = g * SG + lane holds lanes[s];
// done[s] = s + 0x1000 is the kernel's last store. Built with WRITE, WIDTH, HEIGHT, SUFFIX (_uc, _us,
// _ui) and IMPORTED (common.h).
#include "common.h"

#if N == 1
#define COUNT
#else
#define COUNT N
#endif
#define MEDIA_READ BUILTIN_NAME(CAT(CAT(intel_sub_group_media_block_read, SUFFIX), COUNT))
#define MEDIA_WRITE BUILTIN_NAME(CAT(CAT(intel_sub_group_media_block_write, SUFFIX), COUNT))
#if IMPORTED
VEC OVLD MEDIA_READ(int2 src_offset, int width, int height, read_only image2d_t image);
void OVLD MEDIA_WRITE(int2 src_offset, int width, int height, VEC pixels, write_only image2d_t image);
#endif

static uint lane_slot(void) {
    return block_index() * SG + get_sub_group_local_id();
}

static void record_done(global uint* done, uint s) {
    done[s] = s + 0x1000;
}

#if WRITE
REQD_SG kernel void test(write_only image2d_t image, const global uint2* coords, global VEC* lanes,
                         global uint* done) {
    const uint s = lane_slot();
    MEDIA_WRITE(as_int2(coords[block_index()]), WIDTH, HEIGHT, lanes[s], image);
    record_done(done, s);
}
#else
REQD_SG kernel void test(read_only image2d_t image, const global uint2* coords, global VEC* lanes,
                         global uint* done) {
    const uint s = lane_slot();
    lanes[s] = MEDIA_READ(as_int2(coords[block_index()]), WIDTH, HEIGHT, image);
    record_done(done, s);
}
#endif
