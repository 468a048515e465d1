// Buffer commands: read, write, copy, fill (+ rectangular forms), map and unmap. All run at enqueue.
#include "reference_device/icd/common.h"

namespace refdev::icd {

namespace {

bool hostCanRead(cl_mem m) {
    return !(m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS));
}
bool hostCanWrite(cl_mem m) {
    return !(m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
}

bool inRange(size_t offset, size_t bytes, size_t size) {
    return offset <= size && bytes <= size - offset;
}

// Common checks for a buffer operand of `q`.
cl_int checkBuffer(cl_command_queue q, cl_mem m) {
    if (!liveMem(m) || m->type != CL_MEM_OBJECT_BUFFER) return CL_INVALID_MEM_OBJECT;
    if (m->context != q->context) return CL_INVALID_CONTEXT;
    return CL_SUCCESS;
}

cl_int CL_API_CALL EnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool, size_t offset, size_t bytes,
                                     void* ptr, cl_uint n, const cl_event* list, cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    if (cl_int e = checkBuffer(q, m)) return e;
    if (!ptr || bytes == 0 || !inRange(offset, bytes, m->size)) return CL_INVALID_VALUE;
    if (!hostCanRead(m)) return CL_INVALID_OPERATION;
    std::memmove(ptr, m->data + offset, bytes);
    if (thePlatform()->faults.has("read_back_corrupt")) static_cast<uint8_t*>(ptr)[bytes - 1] ^= 1;
    completeCommand(q, CL_COMMAND_READ_BUFFER, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

cl_int CL_API_CALL EnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool, size_t offset, size_t bytes,
                                      const void* ptr, cl_uint n, const cl_event* list, cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    if (cl_int e = checkBuffer(q, m)) return e;
    if (!ptr || bytes == 0 || !inRange(offset, bytes, m->size)) return CL_INVALID_VALUE;
    if (!hostCanWrite(m)) return CL_INVALID_OPERATION;
    std::memmove(m->data + offset, ptr, bytes);
    completeCommand(q, CL_COMMAND_WRITE_BUFFER, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

bool overlaps(const uint8_t* a, size_t an, const uint8_t* b, size_t bn) {
    return a < b + bn && b < a + an;
}

cl_int CL_API_CALL EnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
                                     size_t dst_offset, size_t bytes, cl_uint n, const cl_event* list,
                                     cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    if (cl_int e = checkBuffer(q, src)) return e;
    if (cl_int e = checkBuffer(q, dst)) return e;
    if (bytes == 0 || !inRange(src_offset, bytes, src->size) || !inRange(dst_offset, bytes, dst->size))
        return CL_INVALID_VALUE;
    if (overlaps(src->data + src_offset, bytes, dst->data + dst_offset, bytes)) return CL_MEM_COPY_OVERLAP;
    std::memcpy(dst->data + dst_offset, src->data + src_offset, bytes);
    completeCommand(q, CL_COMMAND_COPY_BUFFER, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

cl_int CL_API_CALL EnqueueFillBuffer(cl_command_queue q, cl_mem m, const void* pattern, size_t pattern_size,
                                     size_t offset, size_t bytes, cl_uint n, const cl_event* list,
                                     cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    if (cl_int e = checkBuffer(q, m)) return e;
    bool power_of_two = pattern_size && (pattern_size & (pattern_size - 1)) == 0;
    if (!pattern || !power_of_two || pattern_size > 128) return CL_INVALID_VALUE;
    if (offset % pattern_size || bytes % pattern_size || !inRange(offset, bytes, m->size))
        return CL_INVALID_VALUE;
    for (size_t i = 0; i < bytes; i += pattern_size) std::memcpy(m->data + offset + i, pattern, pattern_size);
    completeCommand(q, CL_COMMAND_FILL_BUFFER, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

// Rectangular regions: pitches of 0 mean tightly packed; the last byte must lie inside the buffer.
struct Rect {
    size_t origin[3], region[3], row_pitch, slice_pitch;
    size_t offset(size_t z, size_t y) const {
        return (origin[2] + z) * slice_pitch + (origin[1] + y) * row_pitch + origin[0];
    }
    size_t lastByte() const { return offset(region[2] - 1, region[1] - 1) + region[0]; }
};

cl_int makeRect(const size_t* origin, const size_t* region, size_t row_pitch, size_t slice_pitch, Rect* r) {
    if (!origin || !region) return CL_INVALID_VALUE;
    for (int i = 0; i < 3; ++i) {
        if (region[i] == 0) return CL_INVALID_VALUE;
        r->origin[i] = origin[i];
        r->region[i] = region[i];
    }
    if (row_pitch == 0) row_pitch = region[0];
    if (slice_pitch == 0) slice_pitch = region[1] * row_pitch;
    if (row_pitch < region[0] || slice_pitch < region[1] * row_pitch || slice_pitch % row_pitch != 0)
        return CL_INVALID_VALUE;
    r->row_pitch = row_pitch;
    r->slice_pitch = slice_pitch;
    return CL_SUCCESS;
}

void copyRect(uint8_t* dst, const Rect& d, const uint8_t* src, const Rect& s) {
    for (size_t z = 0; z < s.region[2]; ++z)
        for (size_t y = 0; y < s.region[1]; ++y)
            std::memmove(dst + d.offset(z, y), src + s.offset(z, y), s.region[0]);
}

cl_int rectTransfer(cl_command_queue q, cl_mem m, bool read, const size_t* buffer_origin,
                    const size_t* host_origin, const size_t* region, size_t brp, size_t bsp, size_t hrp,
                    size_t hsp, void* ptr, cl_uint n, const cl_event* list, cl_event* ev) {
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    if (cl_int e = checkBuffer(q, m)) return e;
    if (!ptr) return CL_INVALID_VALUE;
    Rect b{}, h{};
    if (cl_int e = makeRect(buffer_origin, region, brp, bsp, &b)) return e;
    if (cl_int e = makeRect(host_origin, region, hrp, hsp, &h)) return e;
    if (b.lastByte() > m->size) return CL_INVALID_VALUE;
    if (read ? !hostCanRead(m) : !hostCanWrite(m)) return CL_INVALID_OPERATION;
    auto* host = static_cast<uint8_t*>(ptr);
    if (read)
        copyRect(host, h, m->data, b);
    else
        copyRect(m->data, b, host, h);
    completeCommand(q, read ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT, start, CL_SUCCESS,
                    ev);
    return CL_SUCCESS;
}

cl_int CL_API_CALL EnqueueReadBufferRect(cl_command_queue q, cl_mem m, cl_bool, const size_t* bo,
                                         const size_t* ho, const size_t* region, size_t brp, size_t bsp,
                                         size_t hrp, size_t hsp, void* ptr, cl_uint n, const cl_event* list,
                                         cl_event* ev) {
    Lock lock(apiMutex());
    return rectTransfer(q, m, true, bo, ho, region, brp, bsp, hrp, hsp, ptr, n, list, ev);
}

cl_int CL_API_CALL EnqueueWriteBufferRect(cl_command_queue q, cl_mem m, cl_bool, const size_t* bo,
                                          const size_t* ho, const size_t* region, size_t brp, size_t bsp,
                                          size_t hrp, size_t hsp, const void* ptr, cl_uint n,
                                          const cl_event* list, cl_event* ev) {
    Lock lock(apiMutex());
    return rectTransfer(q, m, false, bo, ho, region, brp, bsp, hrp, hsp, const_cast<void*>(ptr), n, list, ev);
}

cl_int CL_API_CALL EnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst, const size_t* so,
                                         const size_t* dO, const size_t* region, size_t srp, size_t ssp,
                                         size_t drp, size_t dsp, cl_uint n, const cl_event* list,
                                         cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    if (cl_int e = checkBuffer(q, src)) return e;
    if (cl_int e = checkBuffer(q, dst)) return e;
    Rect s{}, d{};
    if (cl_int e = makeRect(so, region, srp, ssp, &s)) return e;
    if (cl_int e = makeRect(dO, region, drp, dsp, &d)) return e;
    if (s.lastByte() > src->size || d.lastByte() > dst->size) return CL_INVALID_VALUE;
    if (src == dst && overlaps(src->data + s.offset(0, 0), s.lastByte() - s.offset(0, 0),
                               dst->data + d.offset(0, 0), d.lastByte() - d.offset(0, 0)))
        return CL_MEM_COPY_OVERLAP;
    copyRect(dst->data, d, src->data, s);
    completeCommand(q, CL_COMMAND_COPY_BUFFER_RECT, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

cl_int checkMapFlags(cl_mem m, cl_map_flags flags) {
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if (flags & ~known) return CL_INVALID_VALUE;
    if ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE)))
        return CL_INVALID_VALUE;
    if ((flags & CL_MAP_READ) && !hostCanRead(m)) return CL_INVALID_OPERATION;
    if ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && !hostCanWrite(m))
        return CL_INVALID_OPERATION;
    return CL_SUCCESS;
}

// Memory objects live in host memory, so a mapping is a pointer into the object (for USE_HOST_PTR objects
// that is the application's own memory, as the spec requires) and unmapping has nothing to copy.
void* CL_API_CALL EnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool, cl_map_flags flags, size_t offset,
                                   size_t bytes, cl_uint n, const cl_event* list, cl_event* ev, cl_int* err) {
    Lock lock(apiMutex());
    auto fail = [&](cl_int e) {
        if (err) *err = e;
        return nullptr;
    };
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return fail(e);
    if (cl_int e = checkBuffer(q, m)) return fail(e);
    if (bytes == 0 || !inRange(offset, bytes, m->size)) return fail(CL_INVALID_VALUE);
    if (cl_int e = checkMapFlags(m, flags)) return fail(e);
    ++m->map_count;
    completeCommand(q, CL_COMMAND_MAP_BUFFER, start, CL_SUCCESS, ev);
    if (err) *err = CL_SUCCESS;
    // Only under the planted fault use_host_ptr_map_stale does a USE_HOST_PTR object have storage apart from
    // host_ptr (memory.cpp); the map then returns host_ptr without copying the latest bits there.
    if ((m->flags & CL_MEM_USE_HOST_PTR) && m->host_ptr && m->data != m->host_ptr)
        return static_cast<uint8_t*>(m->host_ptr) + offset;
    return m->data + offset;
}

cl_int CL_API_CALL EnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void* ptr, cl_uint n,
                                         const cl_event* list, cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    if (!liveMem(m)) return CL_INVALID_MEM_OBJECT;
    if (m->context != q->context) return CL_INVALID_CONTEXT;
    uint8_t* mapped =
        (m->flags & CL_MEM_USE_HOST_PTR) && m->host_ptr ? static_cast<uint8_t*>(m->host_ptr) : m->data;
    if (m->map_count == 0 || !ptr || static_cast<uint8_t*>(ptr) < mapped ||
        static_cast<uint8_t*>(ptr) >= mapped + m->size)
        return CL_INVALID_VALUE;
    --m->map_count;
    completeCommand(q, CL_COMMAND_UNMAP_MEM_OBJECT, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

cl_int CL_API_CALL EnqueueMigrateMemObjects(cl_command_queue q, cl_uint num, const cl_mem* mems,
                                            cl_mem_migration_flags flags, cl_uint n, const cl_event* list,
                                            cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    if (num == 0 || !mems) return CL_INVALID_VALUE;
    if (flags & ~cl_mem_migration_flags(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < num; ++i) {
        if (!liveMem(mems[i])) return CL_INVALID_MEM_OBJECT;
        if (mems[i]->context != q->context) return CL_INVALID_CONTEXT;
    }
    completeCommand(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

}  // namespace

void fillTransferEntries(cl_icd_dispatch& d) {
    d.clEnqueueReadBuffer = EnqueueReadBuffer;
    d.clEnqueueWriteBuffer = EnqueueWriteBuffer;
    d.clEnqueueCopyBuffer = EnqueueCopyBuffer;
    d.clEnqueueFillBuffer = EnqueueFillBuffer;
    d.clEnqueueReadBufferRect = EnqueueReadBufferRect;
    d.clEnqueueWriteBufferRect = EnqueueWriteBufferRect;
    d.clEnqueueCopyBufferRect = EnqueueCopyBufferRect;
    d.clEnqueueMapBuffer = EnqueueMapBuffer;
    d.clEnqueueUnmapMemObject = EnqueueUnmapMemObject;
    d.clEnqueueMigrateMemObjects = EnqueueMigrateMemObjects;
}

}  // namespace refdev::icd
