// Included before every OpenCL C program the reference device compiles (program_source.cpp) and by the
// Khronos CTS's offline compiler (scripts/judges/khronos_cts/offline_compile.py).
//
// OpenCL C defines the work-item functions for any dimension: at or above get_work_dim() (in particular 3 and
// more) get_global_id, get_local_id, get_group_id and get_global_offset return 0 and the sizes return 1.
// llvm-spirv-15 lowers a call whose dimension is not a constant to an OpVectorExtractDynamic of the built-in
// 3-component vector, which SPIR-V leaves undefined for an index of 3 or more (the reference device reports
// it). Each function is wrapped so an out-of-range dimension takes OpenCL C's value before the translator
// sees it; the dimension is evaluated once, and with a constant dimension the optimizer folds the check away.
#define REFDEV_WORK_ITEM_GUARD(name, outside)                                      \
    static inline size_t __attribute__((overloadable)) __refdev_##name(uint dim) { \
        return dim < 3u ? name(dim) : (size_t)(outside);                           \
    }
REFDEV_WORK_ITEM_GUARD(get_global_id, 0)
REFDEV_WORK_ITEM_GUARD(get_local_id, 0)
REFDEV_WORK_ITEM_GUARD(get_group_id, 0)
REFDEV_WORK_ITEM_GUARD(get_global_size, 1)
REFDEV_WORK_ITEM_GUARD(get_local_size, 1)
REFDEV_WORK_ITEM_GUARD(get_num_groups, 1)
#if __OPENCL_C_VERSION__ >= 110
REFDEV_WORK_ITEM_GUARD(get_global_offset, 0)
#endif
#if __OPENCL_C_VERSION__ >= 200
REFDEV_WORK_ITEM_GUARD(get_enqueued_local_size, 1)
#endif
#undef REFDEV_WORK_ITEM_GUARD
#define get_global_id(dim) __refdev_get_global_id(dim)
#define get_local_id(dim) __refdev_get_local_id(dim)
#define get_group_id(dim) __refdev_get_group_id(dim)
#define get_global_size(dim) __refdev_get_global_size(dim)
#define get_local_size(dim) __refdev_get_local_size(dim)
#define get_num_groups(dim) __refdev_get_num_groups(dim)
#if __OPENCL_C_VERSION__ >= 110
#define get_global_offset(dim) __refdev_get_global_offset(dim)
#endif
#if __OPENCL_C_VERSION__ >= 200
#define get_enqueued_local_size(dim) __refdev_get_enqueued_local_size(dim)
#endif
