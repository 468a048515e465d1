// intel_sub_group_shuffle / _down / _up / _xor, the kernel ABI of subgroups.shuffle
// (test_conformance/subgroups/shuffle_family.cpp): out, info, a, b, index, exec_period, lane_mask.
// Work-groups with WorkgroupId % exec_period == exec_period - 1 run the shuffle in the lanes whose bit is set
// in lane_mask. Built with OP (0 shuffle, 1 down, 2 up, 3 xor) and, for PER_COMPONENT, one scalar shuffle per
// component in a loop over private arrays instead of one vector shuffle; IMPORTED (common.h): the built-ins
// as calls of imported functions.
#include "common.h"

#define SHUFFLE BUILTIN_NAME(intel_sub_group_shuffle)
#define SHUFFLE_DOWN BUILTIN_NAME(intel_sub_group_shuffle_down)
#define SHUFFLE_UP BUILTIN_NAME(intel_sub_group_shuffle_up)
#define SHUFFLE_XOR BUILTIN_NAME(intel_sub_group_shuffle_xor)
#if IMPORTED
VEC OVLD SHUFFLE(VEC data, uint index);
VEC OVLD SHUFFLE_DOWN(VEC current, VEC next, uint delta);
VEC OVLD SHUFFLE_UP(VEC previous, VEC current, uint delta);
VEC OVLD SHUFFLE_XOR(VEC data, uint value);
#if PER_COMPONENT
T OVLD SHUFFLE(T data, uint index);
T OVLD SHUFFLE_DOWN(T current, T next, uint delta);
T OVLD SHUFFLE_UP(T previous, T current, uint delta);
T OVLD SHUFFLE_XOR(T data, uint value);
#endif
#endif

static VEC shuffle_value(VEC data, VEC other, uint index) {
#if OP == 0
    return SHUFFLE(data, index);
#elif OP == 1
    return SHUFFLE_DOWN(data, other, index);  // Current, Next
#elif OP == 2
    return SHUFFLE_UP(data, other, index);  // Previous, Current
#else
    return SHUFFLE_XOR(data, index);
#endif
}

#if PER_COMPONENT
static T shuffle_component(T data, T other, uint index) {
#if OP == 0
    return SHUFFLE(data, index);
#elif OP == 1
    return SHUFFLE_DOWN(data, other, index);
#elif OP == 2
    return SHUFFLE_UP(data, other, index);
#else
    return SHUFFLE_XOR(data, index);
#endif
}
#endif

static bool lane_runs(uint exec_period, uint lane_mask) {
    if (get_group_id(0) % exec_period != exec_period - 1) return false;
    // Walk the mask to this lane's bit: a loop whose trip count depends on the lane (phis at -O2).
    uint mask = lane_mask;
    for (uint l = get_sub_group_local_id() % 32; l > 0; --l) mask >>= 1;
    return (mask & 1) != 0;
}

REQD_SG kernel void test(global T* out, global uint* info, const global T* a, const global T* b,
                         const global uint* index, uint exec_period, uint lane_mask) {
    const size_t gid = get_global_id(0);
    write_info(info, gid);
    if (!lane_runs(exec_period, lane_mask)) return;
    const uint idx = index[gid];
#if PER_COMPONENT
    T data[N], other[N], result[N];
    for (int i = 0; i < N; ++i) {
        data[i] = a[gid * N + i];
        other[i] = b[gid * N + i];
    }
    for (int i = 0; i < N; ++i) result[i] = shuffle_component(data[i], other[i], idx);
    for (int i = 0; i < N; ++i) out[gid * N + i] = result[i];
#else
    store_components(out, gid, shuffle_value(load_components(a, gid), load_components(b, gid), idx));
#endif
}
