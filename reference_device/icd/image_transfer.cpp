// Image commands for every image type: read, write, copy, fill, copies between images and buffers, map.
#include "reference_device/icd/common.h"
#include "reference_device/texel_conversion.h"

namespace refdev::icd {

namespace {

cl_int checkImage(cl_command_queue q, cl_mem m) {
    if (!liveImage(m)) return CL_INVALID_MEM_OBJECT;
    if (m->context != q->context) return CL_INVALID_CONTEXT;
    return CL_SUCCESS;
}

// Extent of dimension d of the API's origin/region for this image type: a 1D array has its layers in
// dimension 1, a 2D array in dimension 2.
size_t extent(cl_mem m, int d) {
    const cl_image_desc& i = m->desc;
    switch (d) {
        case 0: return i.image_width;
        case 1:
            if (m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY) return i.image_array_size;
            return m->type == CL_MEM_OBJECT_IMAGE1D || m->type == CL_MEM_OBJECT_IMAGE1D_BUFFER
                       ? 1
                       : i.image_height;
        default:
            if (m->type == CL_MEM_OBJECT_IMAGE2D_ARRAY) return i.image_array_size;
            return m->type == CL_MEM_OBJECT_IMAGE3D ? i.image_depth : 1;
    }
}

// origin/region in texels (layers for arrays); dimensions the image lacks need origin 0 and region 1.
cl_int checkRegion(cl_mem m, const size_t* origin, const size_t* region) {
    if (!origin || !region) return CL_INVALID_VALUE;
    for (int d = 0; d < 3; ++d) {
        const size_t e = extent(m, d);
        if (region[d] == 0 || origin[d] > e || region[d] > e - origin[d]) return CL_INVALID_VALUE;
    }
    return CL_SUCCESS;
}

// Byte offset of row y of slice z in linear memory: a 1D array's layers (API dimension 1) are slices.
size_t linearOffset(cl_mem m, size_t y, size_t z, size_t row_pitch, size_t slice_pitch) {
    return m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? y * slice_pitch : y * row_pitch + z * slice_pitch;
}

uint8_t* texelAddress(cl_mem m, size_t x, size_t y, size_t z) {
    return m->data + linearOffset(m, y, z, m->desc.image_row_pitch, m->desc.image_slice_pitch) +
           x * m->texel_bytes;
}

// Host pitches of a region: tightly packed where 0 is given. False for pitches too small for the region.
bool hostPitches(cl_mem m, const size_t* region, size_t* row_pitch, size_t* slice_pitch) {
    const size_t min_row = region[0] * m->texel_bytes;
    if (*row_pitch == 0) *row_pitch = min_row;
    const bool layered = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY || m->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                         m->type == CL_MEM_OBJECT_IMAGE3D;
    const size_t min_slice = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? *row_pitch : *row_pitch * region[1];
    if (*slice_pitch == 0 && layered) *slice_pitch = min_slice;
    return *row_pitch >= min_row && (*slice_pitch == 0 || *slice_pitch >= min_slice);
}

// Copies a region between an image and linear memory laid out with the given pitches.
void imageRows(cl_mem m, const size_t* origin, const size_t* region, uint8_t* linear, size_t row_pitch,
               size_t slice_pitch, bool to_image) {
    const size_t row_bytes = region[0] * m->texel_bytes;
    for (size_t z = 0; z < region[2]; ++z)
        for (size_t y = 0; y < region[1]; ++y) {
            uint8_t* img = texelAddress(m, origin[0], origin[1] + y, origin[2] + z);
            uint8_t* lin = linear + linearOffset(m, y, z, row_pitch, slice_pitch);
            if (to_image)
                std::memmove(img, lin, row_bytes);
            else
                std::memmove(lin, img, row_bytes);
        }
}

// Packed bytes of a region (image <-> buffer copies).
size_t packedBytes(cl_mem m, const size_t* region) {
    return region[0] * region[1] * region[2] * m->texel_bytes;
}

bool hostCanRead(cl_mem m) {
    return !(m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS));
}
bool hostCanWrite(cl_mem m) {
    return !(m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
}

cl_int imageTransfer(cl_command_queue q, cl_mem m, bool read, const size_t* origin, const size_t* region,
                     size_t row_pitch, size_t slice_pitch, void* ptr, cl_uint n, const cl_event* list,
                     cl_event* ev) {
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    if (cl_int e = checkImage(q, m)) return e;
    if (cl_int e = checkRegion(m, origin, region)) return e;
    if (!ptr) return CL_INVALID_VALUE;
    if (!hostPitches(m, region, &row_pitch, &slice_pitch)) return CL_INVALID_VALUE;
    if (read ? !hostCanRead(m) : !hostCanWrite(m)) return CL_INVALID_OPERATION;
    imageRows(m, origin, region, static_cast<uint8_t*>(ptr), row_pitch, slice_pitch, !read);
    completeCommand(q, read ? CL_COMMAND_READ_IMAGE : CL_COMMAND_WRITE_IMAGE, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

cl_int CL_API_CALL EnqueueReadImage(cl_command_queue q, cl_mem m, cl_bool, const size_t* origin,
                                    const size_t* region, size_t row_pitch, size_t slice_pitch, void* ptr,
                                    cl_uint n, const cl_event* list, cl_event* ev) {
    Lock lock(apiMutex());
    return imageTransfer(q, m, true, origin, region, row_pitch, slice_pitch, ptr, n, list, ev);
}

cl_int CL_API_CALL EnqueueWriteImage(cl_command_queue q, cl_mem m, cl_bool, const size_t* origin,
                                     const size_t* region, size_t row_pitch, size_t slice_pitch,
                                     const void* ptr, cl_uint n, const cl_event* list, cl_event* ev) {
    Lock lock(apiMutex());
    return imageTransfer(q, m, false, origin, region, row_pitch, slice_pitch, const_cast<void*>(ptr), n, list,
                         ev);
}

cl_int CL_API_CALL EnqueueCopyImage(cl_command_queue q, cl_mem src, cl_mem dst, const size_t* so,
                                    const size_t* dO, const size_t* region, cl_uint n, const cl_event* list,
                                    cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    if (cl_int e = checkImage(q, src)) return e;
    if (cl_int e = checkImage(q, dst)) return e;
    if (src->format.image_channel_order != dst->format.image_channel_order ||
        src->format.image_channel_data_type != dst->format.image_channel_data_type)
        return CL_IMAGE_FORMAT_MISMATCH;
    if (cl_int e = checkRegion(src, so, region)) return e;
    if (cl_int e = checkRegion(dst, dO, region)) return e;
    if (src == dst) {
        bool disjoint = false;
        for (int d = 0; d < 3; ++d) disjoint |= so[d] + region[d] <= dO[d] || dO[d] + region[d] <= so[d];
        if (!disjoint) return CL_MEM_COPY_OVERLAP;
    }
    // Through packed rows: source and destination may be of different types (a 2D image into a 3D slice).
    std::vector<uint8_t> tmp(packedBytes(src, region));
    const size_t row = region[0] * src->texel_bytes, slice = row * region[1];
    for (size_t z = 0; z < region[2]; ++z)
        for (size_t y = 0; y < region[1]; ++y) {
            uint8_t* t = tmp.data() + z * slice + y * row;
            std::memcpy(t, texelAddress(src, so[0], so[1] + y, so[2] + z), row);
            std::memcpy(texelAddress(dst, dO[0], dO[1] + y, dO[2] + z), t, row);
        }
    completeCommand(q, CL_COMMAND_COPY_IMAGE, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

cl_int CL_API_CALL EnqueueCopyImageToBuffer(cl_command_queue q, cl_mem src, cl_mem dst, const size_t* origin,
                                            const size_t* region, size_t dst_offset, cl_uint n,
                                            const cl_event* list, cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    if (cl_int e = checkImage(q, src)) return e;
    if (!liveMem(dst) || dst->type != CL_MEM_OBJECT_BUFFER) return CL_INVALID_MEM_OBJECT;
    if (dst->context != q->context) return CL_INVALID_CONTEXT;
    if (cl_int e = checkRegion(src, origin, region)) return e;
    size_t bytes = packedBytes(src, region), row = 0, slice = 0;
    if (dst_offset > dst->size || bytes > dst->size - dst_offset) return CL_INVALID_VALUE;
    hostPitches(src, region, &row, &slice);
    imageRows(src, origin, region, dst->data + dst_offset, row, slice, false);
    completeCommand(q, CL_COMMAND_COPY_IMAGE_TO_BUFFER, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

cl_int CL_API_CALL EnqueueCopyBufferToImage(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
                                            const size_t* origin, const size_t* region, cl_uint n,
                                            const cl_event* list, cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    if (!liveMem(src) || src->type != CL_MEM_OBJECT_BUFFER) return CL_INVALID_MEM_OBJECT;
    if (src->context != q->context) return CL_INVALID_CONTEXT;
    if (cl_int e = checkImage(q, dst)) return e;
    if (cl_int e = checkRegion(dst, origin, region)) return e;
    size_t bytes = packedBytes(dst, region), row = 0, slice = 0;
    if (src_offset > src->size || bytes > src->size - src_offset) return CL_INVALID_VALUE;
    hostPitches(dst, region, &row, &slice);
    imageRows(dst, origin, region, src->data + src_offset, row, slice, true);
    completeCommand(q, CL_COMMAND_COPY_BUFFER_TO_IMAGE, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

cl_int CL_API_CALL EnqueueFillImage(cl_command_queue q, cl_mem m, const void* color, const size_t* origin,
                                    const size_t* region, cl_uint n, const cl_event* list, cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    if (cl_int e = checkImage(q, m)) return e;
    if (!color) return CL_INVALID_VALUE;
    if (cl_int e = checkRegion(m, origin, region)) return e;
    // The colour is float4, int4 or uint4 as the channel type reads: the words a kernel would write.
    uint8_t texel[16] = {};
    uint32_t words[4];
    std::memcpy(words, color, sizeof(words));
    encodeTexel(m->format.image_channel_order, m->format.image_channel_data_type, words, texel);
    for (size_t z = 0; z < region[2]; ++z)
        for (size_t y = 0; y < region[1]; ++y)
            for (size_t x = 0; x < region[0]; ++x)
                std::memcpy(texelAddress(m, origin[0] + x, origin[1] + y, origin[2] + z), texel,
                            m->texel_bytes);
    completeCommand(q, CL_COMMAND_FILL_IMAGE, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

void* CL_API_CALL EnqueueMapImage(cl_command_queue q, cl_mem m, cl_bool, cl_map_flags flags,
                                  const size_t* origin, const size_t* region, size_t* row_pitch,
                                  size_t* slice_pitch, cl_uint n, const cl_event* list, cl_event* ev,
                                  cl_int* err) {
    Lock lock(apiMutex());
    auto fail = [&](cl_int e) {
        if (err) *err = e;
        return nullptr;
    };
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return fail(e);
    if (cl_int e = checkImage(q, m)) return fail(e);
    if (cl_int e = checkRegion(m, origin, region)) return fail(e);
    if (!row_pitch) return fail(CL_INVALID_VALUE);
    const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if ((flags & ~known) ||
        ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
        return fail(CL_INVALID_VALUE);
    if (((flags & CL_MAP_READ) && !hostCanRead(m)) ||
        ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && !hostCanWrite(m)))
        return fail(CL_INVALID_OPERATION);
    const bool layered = m->type == CL_MEM_OBJECT_IMAGE1D_ARRAY || m->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                         m->type == CL_MEM_OBJECT_IMAGE3D;
    if (layered && !slice_pitch) return fail(CL_INVALID_VALUE);
    *row_pitch = m->desc.image_row_pitch;
    if (slice_pitch) *slice_pitch = layered ? m->desc.image_slice_pitch : 0;
    ++m->map_count;
    completeCommand(q, CL_COMMAND_MAP_IMAGE, start, CL_SUCCESS, ev);
    if (err) *err = CL_SUCCESS;
    return texelAddress(m, origin[0], origin[1], origin[2]);
}

}  // namespace

void fillImageTransferEntries(cl_icd_dispatch& d) {
    d.clEnqueueReadImage = EnqueueReadImage;
    d.clEnqueueWriteImage = EnqueueWriteImage;
    d.clEnqueueCopyImage = EnqueueCopyImage;
    d.clEnqueueCopyImageToBuffer = EnqueueCopyImageToBuffer;
    d.clEnqueueCopyBufferToImage = EnqueueCopyBufferToImage;
    d.clEnqueueFillImage = EnqueueFillImage;
    d.clEnqueueMapImage = EnqueueMapImage;
}

}  // namespace refdev::icd
