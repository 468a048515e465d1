// Pieces every compiled kernel shares, written as a library would: small helpers the compiler inlines at -O2
// and calls at -O0. The build defines T (component type), N (component count), SG (sub-group size) and
// VEC (T, or its N-component vector).
#pragma once

#include "intel_builtins.h"

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define REQD_SG __attribute__((intel_reqd_sub_group_size(SG)))

// The name a kernel calls a built-in by. IMPORTED (docs/compiled.md, "Imported sub-group, media and local
// block IO built-ins"): a name llvm-spirv-15 does not recognise, declared by the kernel with the built-in's
// parameter types, so the call stays an OpFunctionCall of an import and clang mangles the parameters as for
// the built-in; the generator drops the prefix from the import's name, leaving the built-in's mangled name.
#if IMPORTED
#define BUILTIN_NAME(name) CAT(__imported_, name)
#else
#define BUILTIN_NAME(name) name
#endif

// info[gid * 4 ..]: SubgroupLocalInvocationId, SubgroupId, SubgroupSize, SubgroupMaxSize (the record the
// subgroups.* checkers take the work-item to sub-group mapping from).
static void write_info(global uint* info, size_t gid) {
    const uint record[4] = {get_sub_group_local_id(), get_sub_group_id(), get_sub_group_size(),
                            get_max_sub_group_size()};
    for (int i = 0; i < 4; ++i) info[gid * 4 + i] = record[i];
}

// One block per sub-group: WorkgroupId * NumSubgroups + SubgroupId.
static uint block_index(void) {
    return (uint)get_group_id(0) * get_num_sub_groups() + get_sub_group_id();
}

// N components of work-item gid, through a private array.
static VEC load_components(const global T* base, size_t gid) {
    T parts[N];
    for (int i = 0; i < N; ++i) parts[i] = base[gid * N + i];
#if N == 1
    return parts[0];
#else
    return CAT(vload, N)(0, parts);
#endif
}

static void store_components(global T* base, size_t gid, VEC value) {
#if N == 1
    base[gid] = value;
#else
    CAT(vstore, N)(value, gid, base);
#endif
}
