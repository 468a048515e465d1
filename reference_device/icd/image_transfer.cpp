// 2D image commands: read, write, copy, fill, copies between images and buffers, map.
#include <cmath>

#include "reference_device/icd/common.h"

namespace refdev::icd {

namespace {

cl_int checkImage(cl_command_queue q, cl_mem m) {
    if (!liveMem(m) || m->type != CL_MEM_OBJECT_IMAGE2D) return CL_INVALID_MEM_OBJECT;
    if (m->context != q->context) return CL_INVALID_CONTEXT;
    return CL_SUCCESS;
}

// origin/region in texels; a 2D image needs origin[2] == 0 and region[2] == 1.
cl_int checkRegion(cl_mem m, const size_t* origin, const size_t* region) {
    if (!origin || !region) return CL_INVALID_VALUE;
    if (region[0] == 0 || region[1] == 0 || region[2] != 1 || origin[2] != 0) return CL_INVALID_VALUE;
    if (origin[0] > m->desc.image_width || region[0] > m->desc.image_width - origin[0])
        return CL_INVALID_VALUE;
    if (origin[1] > m->desc.image_height || region[1] > m->desc.image_height - origin[1])
        return CL_INVALID_VALUE;
    return CL_SUCCESS;
}

uint8_t* texelAddress(cl_mem m, size_t x, size_t y) {
    return m->data + y * m->desc.image_row_pitch + x * m->texel_bytes;
}

// Copies a region between an image and linear memory with `pitch` bytes per row.
void imageRows(cl_mem m, const size_t* origin, const size_t* region, uint8_t* linear, size_t pitch,
               bool to_image) {
    size_t row_bytes = region[0] * m->texel_bytes;
    for (size_t y = 0; y < region[1]; ++y) {
        uint8_t* img = texelAddress(m, origin[0], origin[1] + y);
        if (to_image)
            std::memmove(img, linear + y * pitch, row_bytes);
        else
            std::memmove(linear + y * pitch, img, row_bytes);
    }
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
    size_t min_pitch = region[0] * m->texel_bytes;
    if (row_pitch == 0) row_pitch = min_pitch;
    if (row_pitch < min_pitch || (slice_pitch != 0 && slice_pitch < row_pitch * region[1]))
        return CL_INVALID_VALUE;
    if (read ? !hostCanRead(m) : !hostCanWrite(m)) return CL_INVALID_OPERATION;
    imageRows(m, origin, region, static_cast<uint8_t*>(ptr), row_pitch, !read);
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
    if (src->data == dst->data) {
        bool disjoint = so[0] + region[0] <= dO[0] || dO[0] + region[0] <= so[0] ||
                        so[1] + region[1] <= dO[1] || dO[1] + region[1] <= so[1];
        if (!disjoint) return CL_MEM_COPY_OVERLAP;
    }
    std::vector<uint8_t> tmp(region[0] * region[1] * src->texel_bytes);
    size_t pitch = region[0] * src->texel_bytes;
    imageRows(src, so, region, tmp.data(), pitch, false);
    imageRows(dst, dO, region, tmp.data(), pitch, true);
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
    size_t bytes = region[0] * region[1] * src->texel_bytes;
    if (dst_offset > dst->size || bytes > dst->size - dst_offset) return CL_INVALID_VALUE;
    imageRows(src, origin, region, dst->data + dst_offset, region[0] * src->texel_bytes, false);
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
    size_t bytes = region[0] * region[1] * dst->texel_bytes;
    if (src_offset > src->size || bytes > src->size - src_offset) return CL_INVALID_VALUE;
    imageRows(dst, origin, region, src->data + src_offset, region[0] * dst->texel_bytes, true);
    completeCommand(q, CL_COMMAND_COPY_BUFFER_TO_IMAGE, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

uint16_t floatToHalf(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = int32_t((x >> 23) & 0xff) - 127 + 15;
    uint32_t mant = x & 0x7fffffu;
    if (((x >> 23) & 0xff) == 0xff) return uint16_t(sign | 0x7c00u | (mant ? 0x200u : 0));
    if (exp >= 31) return uint16_t(sign | 0x7c00u);
    if (exp <= 0) {
        if (exp < -10) return uint16_t(sign);
        mant |= 0x800000u;
        uint32_t shift = uint32_t(14 - exp);
        uint32_t half = mant >> shift, rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1))) ++half;
        return uint16_t(sign | half);
    }
    uint32_t half = sign | uint32_t(exp) << 10 | mant >> 13;
    uint32_t rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (half & 1)))
        ++half;  // round to nearest even (may carry into exp)
    return uint16_t(half);
}

// Converts a fill colour (float4, int4 or uint4 as the data type demands) into one texel.
void encodeTexel(const cl_image_format& f, const void* color, uint8_t* out) {
    const auto* fc = static_cast<const float*>(color);
    const auto* ic = static_cast<const int32_t*>(color);
    const auto* uc = static_cast<const uint32_t*>(color);
    int channels = f.image_channel_order == CL_R ? 1 : f.image_channel_order == CL_RG ? 2 : 4;
    for (int c = 0; c < channels; ++c) {
        int src = (f.image_channel_order == CL_BGRA) ? (c == 0 ? 2 : c == 2 ? 0 : c) : c;  // stored B,G,R,A
        auto clampf = [](float v, float lo, float hi) {
            return std::isnan(v) ? 0.0f : std::fmin(std::fmax(v, lo), hi);
        };
        switch (f.image_channel_data_type) {
            case CL_UNORM_INT8: out[c] = uint8_t(std::lrint(clampf(fc[src], 0, 1) * 255)); break;
            case CL_SNORM_INT8: out[c] = uint8_t(int8_t(std::lrint(clampf(fc[src], -1, 1) * 127))); break;
            case CL_UNORM_INT16: {
                uint16_t v = uint16_t(std::lrint(clampf(fc[src], 0, 1) * 65535));
                std::memcpy(out + 2 * c, &v, 2);
                break;
            }
            case CL_SNORM_INT16: {
                int16_t v = int16_t(std::lrint(clampf(fc[src], -1, 1) * 32767));
                std::memcpy(out + 2 * c, &v, 2);
                break;
            }
            case CL_HALF_FLOAT: {
                uint16_t v = floatToHalf(fc[src]);
                std::memcpy(out + 2 * c, &v, 2);
                break;
            }
            case CL_FLOAT: std::memcpy(out + 4 * c, &fc[src], 4); break;
            case CL_SIGNED_INT8: out[c] = uint8_t(int8_t(std::min(127, std::max(-128, ic[src])))); break;
            case CL_SIGNED_INT16: {
                int16_t v = int16_t(std::min(32767, std::max(-32768, ic[src])));
                std::memcpy(out + 2 * c, &v, 2);
                break;
            }
            case CL_SIGNED_INT32: std::memcpy(out + 4 * c, &ic[src], 4); break;
            case CL_UNSIGNED_INT8: out[c] = uint8_t(std::min(255u, uc[src])); break;
            case CL_UNSIGNED_INT16: {
                uint16_t v = uint16_t(std::min(65535u, uc[src]));
                std::memcpy(out + 2 * c, &v, 2);
                break;
            }
            case CL_UNSIGNED_INT32: std::memcpy(out + 4 * c, &uc[src], 4); break;
            default: break;
        }
    }
}

cl_int CL_API_CALL EnqueueFillImage(cl_command_queue q, cl_mem m, const void* color, const size_t* origin,
                                    const size_t* region, cl_uint n, const cl_event* list, cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    if (cl_int e = checkImage(q, m)) return e;
    if (!color) return CL_INVALID_VALUE;
    if (cl_int e = checkRegion(m, origin, region)) return e;
    uint8_t texel[16] = {};
    encodeTexel(m->format, color, texel);
    for (size_t y = 0; y < region[1]; ++y)
        for (size_t x = 0; x < region[0]; ++x)
            std::memcpy(texelAddress(m, origin[0] + x, origin[1] + y), texel, m->texel_bytes);
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
    *row_pitch = m->desc.image_row_pitch;
    if (slice_pitch) *slice_pitch = 0;
    ++m->map_count;
    completeCommand(q, CL_COMMAND_MAP_IMAGE, start, CL_SUCCESS, ev);
    if (err) *err = CL_SUCCESS;
    return texelAddress(m, origin[0], origin[1]);
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
