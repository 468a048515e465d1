// Coarse-grain buffer shared virtual memory (OpenCL 3.0 optional feature, CL_DEVICE_SVM_COARSE_GRAIN_BUFFER).
// The device runs in host memory, so an SVM allocation is host memory the device also accepts as a kernel
// argument (clSetKernelArgSVMPointer, a pointer anywhere inside an allocation); map and unmap order nothing
// and only check their pointer. Fine-grain buffers, system SVM and atomics are not reported.
#include <cstdlib>
#include <cstring>
#include <map>

#include "reference_device/icd/common.h"
#include "reference_device/icd/device_info.h"
#include "reference_device/icd/svm.h"

namespace refdev::icd {

namespace {

// Start -> bytes of every live allocation (under apiMutex()).
std::map<uint8_t*, size_t>& allocations() {
    static std::map<uint8_t*, size_t> live;
    return live;
}

constexpr cl_svm_mem_flags kKnownSvmFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY |
                                            CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;

void* CL_API_CALL SVMAlloc(cl_context c, cl_svm_mem_flags flags, size_t size, cl_uint alignment) {
    Lock lock(apiMutex());
    // "NULL ... if ... values specified in flags are not valid", fine-grain and atomics included (not
    // supported); alignment must be a power of two no larger than the largest supported (128 bytes, the size
    // of long16).
    if (!liveContext(c) || size == 0 || size > kMaxMemAlloc || (flags & ~kKnownSvmFlags) ||
        (flags & (CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS)))
        return nullptr;
    if (__builtin_popcountll(flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)) > 1)
        return nullptr;
    if (alignment & (alignment - 1)) return nullptr;
    size_t align = alignment ? alignment : 128;
    if (align < 128) align = 128;
    if (align > 4096) return nullptr;
    const size_t rounded = (size + align - 1) / align * align;
    auto* p = static_cast<uint8_t*>(std::aligned_alloc(align, rounded));
    if (!p) return nullptr;
    allocations()[p] = size;
    return p;
}

void CL_API_CALL SVMFree(cl_context c, void* p) {
    Lock lock(apiMutex());
    auto it = allocations().find(static_cast<uint8_t*>(p));
    if (!liveContext(c) || it == allocations().end()) return;
    allocations().erase(it);
    std::free(p);
}

cl_int CL_API_CALL EnqueueSVMFree(cl_command_queue q, cl_uint num, void** ptrs,
                                  void(CL_CALLBACK* callback)(cl_command_queue, cl_uint, void**, void*),
                                  void* user, cl_uint n, const cl_event* list, cl_event* ev) {
    {
        Lock lock(apiMutex());
        if (cl_int e = checkQueue(q, n, list)) return e;
        if ((num == 0) != (ptrs == nullptr)) return CL_INVALID_VALUE;
    }
    uint64_t start = nowNs();
    if (callback) {
        callback(q, num, ptrs, user);
    } else {
        for (cl_uint i = 0; i < num; ++i) SVMFree(q->context, ptrs[i]);
    }
    Lock lock(apiMutex());
    completeCommand(q, CL_COMMAND_SVM_FREE, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

cl_int CL_API_CALL EnqueueSVMMemcpy(cl_command_queue q, cl_bool, void* dst, const void* src, size_t bytes,
                                    cl_uint n, const cl_event* list, cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    if (!dst || !src) return CL_INVALID_VALUE;
    const auto* s = static_cast<const uint8_t*>(src);
    auto* d = static_cast<uint8_t*>(dst);
    if ((d < s && d + bytes > s) || (s < d && s + bytes > d) || (bytes && s == d)) return CL_MEM_COPY_OVERLAP;
    std::memcpy(d, s, bytes);
    completeCommand(q, CL_COMMAND_SVM_MEMCPY, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

cl_int CL_API_CALL EnqueueSVMMemFill(cl_command_queue q, void* p, const void* pattern, size_t pattern_size,
                                     size_t bytes, cl_uint n, const cl_event* list, cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    if (!p || !pattern || pattern_size == 0 || pattern_size > 128 || (pattern_size & (pattern_size - 1)) ||
        reinterpret_cast<uintptr_t>(p) % pattern_size || bytes % pattern_size)
        return CL_INVALID_VALUE;
    for (size_t i = 0; i < bytes; i += pattern_size)
        std::memcpy(static_cast<uint8_t*>(p) + i, pattern, pattern_size);
    completeCommand(q, CL_COMMAND_SVM_MEMFILL, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

cl_int CL_API_CALL EnqueueSVMMap(cl_command_queue q, cl_bool, cl_map_flags, void* p, size_t bytes, cl_uint n,
                                 const cl_event* list, cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    uint8_t* base = nullptr;
    size_t left = 0;
    if (!p || bytes == 0 || !svmRange(p, &base, &left) || bytes > left) return CL_INVALID_VALUE;
    completeCommand(q, CL_COMMAND_SVM_MAP, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

cl_int CL_API_CALL EnqueueSVMUnmap(cl_command_queue q, void* p, cl_uint n, const cl_event* list,
                                   cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    uint8_t* base = nullptr;
    size_t left = 0;
    if (!p || !svmRange(p, &base, &left)) return CL_INVALID_VALUE;
    completeCommand(q, CL_COMMAND_SVM_UNMAP, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

cl_int CL_API_CALL EnqueueSVMMigrateMem(cl_command_queue q, cl_uint, const void**, const size_t*,
                                        cl_mem_migration_flags, cl_uint n, const cl_event* list,
                                        cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    completeCommand(q, CL_COMMAND_SVM_MIGRATE_MEM, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

}  // namespace

bool svmRange(const void* p, uint8_t** start, size_t* bytes_left) {
    auto* q = static_cast<uint8_t*>(const_cast<void*>(p));
    auto it = allocations().upper_bound(q);
    if (it == allocations().begin()) return false;
    --it;
    if (q >= it->first + it->second) return false;
    *start = q;
    *bytes_left = size_t(it->first + it->second - q);
    return true;
}

void fillSvmEntries(cl_icd_dispatch& d) {
    d.clSVMAlloc = SVMAlloc;
    d.clSVMFree = SVMFree;
    d.clEnqueueSVMFree = EnqueueSVMFree;
    d.clEnqueueSVMMemcpy = EnqueueSVMMemcpy;
    d.clEnqueueSVMMemFill = EnqueueSVMMemFill;
    d.clEnqueueSVMMap = EnqueueSVMMap;
    d.clEnqueueSVMUnmap = EnqueueSVMUnmap;
    d.clEnqueueSVMMigrateMem = EnqueueSVMMigrateMem;
}

}  // namespace refdev::icd
