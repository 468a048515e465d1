// Memory objects (buffers, sub-buffers, images of every type incl. images from buffers) and samplers.
#include <sys/mman.h>

#include <cstdlib>

#include "reference_device/icd/common.h"
#include "reference_device/icd/device_info.h"

namespace refdev::icd {

namespace {

constexpr cl_mem_flags kAccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags kHostAccessFlags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr cl_mem_flags kHostPtrFlags = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
constexpr cl_mem_flags kKnownFlags =
    kAccessFlags | kHostAccessFlags | kHostPtrFlags | CL_MEM_KERNEL_READ_AND_WRITE;

int bitCount(cl_mem_flags f) {
    return __builtin_popcountll(f);
}

// Whether the context's device (the one device of the platform) supports images: the profile says.
bool imagesSupported(cl_context c) {
    return c->device && c->device->platform && c->device->platform->profile &&
           c->device->platform->profile->images;
}

// The flag rules of clCreateBuffer / clCreateImage.
cl_int checkFlags(cl_mem_flags flags, void* host_ptr) {
    if (flags & ~kKnownFlags) return CL_INVALID_VALUE;
    if (bitCount(flags & kAccessFlags) > 1 || bitCount(flags & kHostAccessFlags) > 1) return CL_INVALID_VALUE;
    if ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
        return CL_INVALID_VALUE;
    bool wants_ptr = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
    if (wants_ptr != (host_ptr != nullptr)) return CL_INVALID_HOST_PTR;
    return CL_SUCCESS;
}

// From this size on, storage is an anonymous mapping: the kernel hands out zero pages on first touch, so a
// buffer of several GiB of which a case uses a few rows costs only those rows (no memset of the whole).
constexpr size_t kMappedFrom = size_t(1) << 20;

// Zero-filled storage. Page alignment satisfies CL_DEVICE_MEM_BASE_ADDR_ALIGN and the 64-byte 2D block IO
// base rule. *mapped_bytes is the mapping's length (0 for heap storage, which releaseMem frees).
uint8_t* allocate(size_t bytes, size_t* mapped_bytes) {
    size_t rounded = (bytes + 4095) & ~size_t(4095);
    *mapped_bytes = 0;
    if (rounded >= kMappedFrom) {
        void* p = mmap(nullptr, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
        if (p == MAP_FAILED) return nullptr;
        *mapped_bytes = rounded;
        return static_cast<uint8_t*>(p);
    }
    auto* p = static_cast<uint8_t*>(std::aligned_alloc(4096, rounded ? rounded : 4096));
    if (p) std::memset(p, 0, bytes);
    return p;
}

// Fills storage for a new memory object: the host pointer itself (USE_HOST_PTR) or a fresh allocation.
cl_int attachStorage(cl_mem m, void* host_ptr, size_t bytes) {
    // The planted fault caches USE_HOST_PTR buffers in storage of their own (kernels and transfers use it)
    // and never brings host_ptr up to date: a map returns host_ptr with stale bits (transfer.cpp).
    if ((m->flags & CL_MEM_USE_HOST_PTR) && !thePlatform()->faults.has("use_host_ptr_map_stale")) {
        m->data = static_cast<uint8_t*>(host_ptr);
        m->host_ptr = host_ptr;
        return CL_SUCCESS;
    }
    m->data = allocate(bytes, &m->mapped_bytes);
    if (!m->data) return CL_OUT_OF_HOST_MEMORY;
    m->owns_data = true;
    if (m->flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR)) std::memcpy(m->data, host_ptr, bytes);
    if (m->flags & CL_MEM_USE_HOST_PTR) m->host_ptr = host_ptr;
    return CL_SUCCESS;
}

cl_int checkMemProperties(const cl_mem_properties* props, std::vector<cl_mem_properties>* out) {
    if (!props) return CL_SUCCESS;
    // No memory properties are supported; an empty list (just the terminator) is allowed.
    if (props[0] != 0) return CL_INVALID_PROPERTY;
    out->push_back(0);
    return CL_SUCCESS;
}

cl_mem CL_API_CALL CreateBufferWithProperties(cl_context c, const cl_mem_properties* props,
                                              cl_mem_flags flags, size_t size, void* host_ptr, cl_int* err) {
    Lock lock(apiMutex());
    auto fail = [&](cl_int e) {
        if (err) *err = e;
        return cl_mem(nullptr);
    };
    if (!liveContext(c)) return fail(CL_INVALID_CONTEXT);
    std::vector<cl_mem_properties> plist;
    if (cl_int e = checkMemProperties(props, &plist)) return fail(e);
    if (flags == 0) flags = CL_MEM_READ_WRITE;
    if (cl_int e = checkFlags(flags, host_ptr)) return fail(e);
    if (size == 0 || size > kMaxMemAlloc) return fail(CL_INVALID_BUFFER_SIZE);
    auto* m = new _cl_mem;
    m->context = c;
    m->flags = flags;
    m->size = size;
    m->properties = std::move(plist);
    if (cl_int e = attachStorage(m, host_ptr, size)) {
        delete m;
        return fail(e);
    }
    retainObject(c);
    registerObject(m);
    if (err) *err = CL_SUCCESS;
    return m;
}

cl_mem CL_API_CALL CreateBuffer(cl_context c, cl_mem_flags flags, size_t size, void* host_ptr, cl_int* err) {
    return CreateBufferWithProperties(c, nullptr, flags, size, host_ptr, err);
}

cl_mem CL_API_CALL CreateSubBuffer(cl_mem parent, cl_mem_flags flags, cl_buffer_create_type type,
                                   const void* info, cl_int* err) {
    Lock lock(apiMutex());
    auto fail = [&](cl_int e) {
        if (err) *err = e;
        return cl_mem(nullptr);
    };
    if (!liveMem(parent) || parent->type != CL_MEM_OBJECT_BUFFER || parent->parent)
        return fail(CL_INVALID_MEM_OBJECT);
    if (type != CL_BUFFER_CREATE_TYPE_REGION || !info) return fail(CL_INVALID_VALUE);
    if (flags & (kHostPtrFlags | ~kKnownFlags)) return fail(CL_INVALID_VALUE);
    if (bitCount(flags & kAccessFlags) > 1 || bitCount(flags & kHostAccessFlags) > 1)
        return fail(CL_INVALID_VALUE);
    // Access flags must not widen the parent's: a write-only parent cannot have a readable sub-buffer.
    cl_mem_flags pa = parent->flags & kAccessFlags;
    if (((pa & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
        ((pa & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))))
        return fail(CL_INVALID_VALUE);
    cl_mem_flags ph = parent->flags & kHostAccessFlags;
    if (((ph & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
        ((ph & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
        ((ph & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))))
        return fail(CL_INVALID_VALUE);
    const auto* region = static_cast<const cl_buffer_region*>(info);
    if (region->size == 0) return fail(CL_INVALID_BUFFER_SIZE);
    if (region->origin > parent->size || region->size > parent->size - region->origin)
        return fail(CL_INVALID_VALUE);
    if (region->origin % (kMemBaseAddrAlignBits / 8) != 0) return fail(CL_MISALIGNED_SUB_BUFFER_OFFSET);
    auto* m = new _cl_mem;
    m->context = parent->context;
    // Unspecified access, host-access and host-pointer flags are inherited from the parent.
    m->flags = flags;
    if (!(flags & kAccessFlags)) m->flags |= pa;
    if (!(flags & kHostAccessFlags)) m->flags |= ph;
    m->flags |= parent->flags & kHostPtrFlags;
    m->size = region->size;
    m->data = parent->data + region->origin;
    m->host_ptr = parent->host_ptr ? static_cast<uint8_t*>(parent->host_ptr) + region->origin : nullptr;
    m->parent = parent;
    m->origin = region->origin;
    retainObject(parent);
    retainObject(m->context);
    registerObject(m);
    if (err) *err = CL_SUCCESS;
    return m;
}

// The size limits of each image type: CL_INVALID_IMAGE_SIZE when a dimension is 0 or past the device's
// limit, CL_INVALID_IMAGE_DESCRIPTOR for an unknown type.
cl_int checkImageSize(const cl_image_desc& d) {
    auto within = [](size_t v, size_t max) { return v >= 1 && v <= max; };
    bool ok = false;
    switch (d.image_type) {
        case CL_MEM_OBJECT_IMAGE1D: ok = within(d.image_width, kImage2dMaxSize); break;
        case CL_MEM_OBJECT_IMAGE1D_BUFFER: ok = within(d.image_width, kImageMaxBufferSize); break;
        case CL_MEM_OBJECT_IMAGE1D_ARRAY:
            ok = within(d.image_width, kImage2dMaxSize) && within(d.image_array_size, kImageMaxArraySize);
            break;
        case CL_MEM_OBJECT_IMAGE2D:
            ok = within(d.image_width, kImage2dMaxSize) && within(d.image_height, kImage2dMaxSize);
            break;
        case CL_MEM_OBJECT_IMAGE2D_ARRAY:
            ok = within(d.image_width, kImage2dMaxSize) && within(d.image_height, kImage2dMaxSize) &&
                 within(d.image_array_size, kImageMaxArraySize);
            break;
        case CL_MEM_OBJECT_IMAGE3D:
            ok = within(d.image_width, kImage3dMaxSize) && within(d.image_height, kImage3dMaxSize) &&
                 within(d.image_depth, kImage3dMaxSize);
            break;
        default: return CL_INVALID_IMAGE_DESCRIPTOR;
    }
    return ok ? CL_SUCCESS : CL_INVALID_IMAGE_SIZE;
}

// The descriptor as the image keeps it: the dimensions its type has (others 0, as clGetImageInfo answers),
// and the pitches of its storage (given with a host pointer, else packed). False for pitches the rules
// refuse (too small, not a multiple of the texel or row).
bool settleImageDesc(cl_image_desc* d, size_t texel, bool host_ptr) {
    const cl_mem_object_type t = d->image_type;
    const bool one_d =
        t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER || t == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    const bool layered =
        t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
    if (one_d) d->image_height = 0;
    if (t != CL_MEM_OBJECT_IMAGE3D) d->image_depth = 0;
    if (t != CL_MEM_OBJECT_IMAGE1D_ARRAY && t != CL_MEM_OBJECT_IMAGE2D_ARRAY) d->image_array_size = 0;
    if (!layered) d->image_slice_pitch = 0;
    if (!host_ptr && (d->image_row_pitch != 0 || d->image_slice_pitch != 0)) return false;
    if (d->image_row_pitch == 0) d->image_row_pitch = d->image_width * texel;
    if (d->image_row_pitch < d->image_width * texel || d->image_row_pitch % texel != 0) return false;
    if (!layered) return true;
    const size_t slice =
        t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? d->image_row_pitch : d->image_row_pitch * d->image_height;
    if (d->image_slice_pitch == 0) d->image_slice_pitch = slice;
    return d->image_slice_pitch >= slice && d->image_slice_pitch % d->image_row_pitch == 0;
}

// Bytes of an image's storage with the settled descriptor.
size_t imageBytes(const cl_image_desc& d) {
    switch (d.image_type) {
        case CL_MEM_OBJECT_IMAGE1D_ARRAY:
        case CL_MEM_OBJECT_IMAGE2D_ARRAY: return d.image_slice_pitch * d.image_array_size;
        case CL_MEM_OBJECT_IMAGE3D: return d.image_slice_pitch * d.image_depth;
        case CL_MEM_OBJECT_IMAGE2D: return d.image_row_pitch * d.image_height;
        default: return d.image_row_pitch;
    }
}

// An image viewing a buffer's storage: cl_khr_image2d_from_buffer for 2D, and 1D buffer images. The
// buffer's host-pointer and (unless given) host-access flags carry over.
cl_int viewBuffer(cl_mem m, cl_mem buffer, cl_mem_flags flags, void* host_ptr, size_t texel) {
    cl_image_desc& d = m->desc;
    if (!liveMem(buffer) || buffer->type != CL_MEM_OBJECT_BUFFER) return CL_INVALID_IMAGE_DESCRIPTOR;
    if (host_ptr || (flags & kHostPtrFlags)) return CL_INVALID_VALUE;
    if (d.image_type == CL_MEM_OBJECT_IMAGE2D) {
        size_t pitch = d.image_row_pitch ? d.image_row_pitch : d.image_width * texel;
        if (pitch < d.image_width * texel || pitch % (kImagePitchAlignment * texel) != 0 ||
            pitch * d.image_height > buffer->size)
            return CL_INVALID_IMAGE_DESCRIPTOR;
        if (reinterpret_cast<uintptr_t>(buffer->data) % (kImageBaseAddressAlignment * texel) != 0)
            return CL_INVALID_IMAGE_DESCRIPTOR;
        d.image_row_pitch = pitch;
        m->size = pitch * d.image_height;
    } else {
        if (d.image_row_pitch != 0 || d.image_width * texel > buffer->size)
            return CL_INVALID_IMAGE_DESCRIPTOR;
        d.image_row_pitch = m->size = d.image_width * texel;
        d.image_height = 0;
    }
    d.image_depth = d.image_array_size = d.image_slice_pitch = 0;
    m->flags = flags | (buffer->flags & (kHostPtrFlags | (flags & kHostAccessFlags ? 0 : kHostAccessFlags)));
    m->data = buffer->data;
    m->host_ptr = buffer->host_ptr;
    m->buffer = buffer;
    retainObject(buffer);
    return CL_SUCCESS;
}

cl_mem CL_API_CALL CreateImageWithProperties(cl_context c, const cl_mem_properties* props, cl_mem_flags flags,
                                             const cl_image_format* format, const cl_image_desc* desc,
                                             void* host_ptr, cl_int* err) {
    Lock lock(apiMutex());
    auto fail = [&](cl_int e) {
        if (err) *err = e;
        return cl_mem(nullptr);
    };
    if (!liveContext(c)) return fail(CL_INVALID_CONTEXT);
    // "CL_INVALID_OPERATION if there are no devices in context that support images" (a profile without
    // images).
    if (!imagesSupported(c)) return fail(CL_INVALID_OPERATION);
    std::vector<cl_mem_properties> plist;
    if (cl_int e = checkMemProperties(props, &plist)) return fail(e);
    if (!desc) return fail(CL_INVALID_IMAGE_DESCRIPTOR);
    cl_mem buffer = desc->mem_object;
    if (flags == 0) flags = buffer && liveMem(buffer) ? (buffer->flags & kAccessFlags) : CL_MEM_READ_WRITE;
    if (flags & ~kKnownFlags) return fail(CL_INVALID_VALUE);
    if (bitCount(flags & kAccessFlags) > 1 || bitCount(flags & kHostAccessFlags) > 1)
        return fail(CL_INVALID_VALUE);
    if (!format) return fail(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    size_t texel = texelBytes(*format);
    if (texel == 0) {
        bool valid_order = format->image_channel_order >= CL_R && format->image_channel_order <= CL_ABGR;
        bool valid_type = format->image_channel_data_type >= CL_SNORM_INT8 &&
                          format->image_channel_data_type <= CL_UNORM_INT_101010_2;
        return fail(valid_order && valid_type ? CL_IMAGE_FORMAT_NOT_SUPPORTED
                                              : CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    }
    if (cl_int e = checkImageSize(*desc)) return fail(e);
    if (desc->num_mip_levels != 0 || desc->num_samples != 0) return fail(CL_INVALID_IMAGE_DESCRIPTOR);
    // Only 2D and 1D buffer images view a buffer (no cl_khr_image2d_from_image); a 1D buffer image needs one.
    const bool views_buffer =
        desc->image_type == CL_MEM_OBJECT_IMAGE2D || desc->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER;
    if ((buffer && !views_buffer) || (!buffer && desc->image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER))
        return fail(CL_INVALID_IMAGE_DESCRIPTOR);
    auto* m = new _cl_mem;
    m->context = c;
    m->type = desc->image_type;
    m->format = *format;
    m->desc = *desc;
    m->texel_bytes = texel;
    m->properties = std::move(plist);
    cl_int e = CL_SUCCESS;
    if (buffer) {
        e = viewBuffer(m, buffer, flags, host_ptr, texel);
    } else if (!(e = checkFlags(flags, host_ptr))) {
        if (!settleImageDesc(&m->desc, texel, host_ptr != nullptr)) {
            e = CL_INVALID_IMAGE_DESCRIPTOR;
        } else {
            m->flags = flags;
            m->size = imageBytes(m->desc);
            e = m->size > kMaxMemAlloc ? CL_INVALID_IMAGE_SIZE : attachStorage(m, host_ptr, m->size);
        }
    }
    if (e) {
        delete m;
        return fail(e);
    }
    retainObject(c);
    registerObject(m);
    if (err) *err = CL_SUCCESS;
    return m;
}

cl_mem CL_API_CALL CreateImage(cl_context c, cl_mem_flags flags, const cl_image_format* format,
                               const cl_image_desc* desc, void* host_ptr, cl_int* err) {
    return CreateImageWithProperties(c, nullptr, flags, format, desc, host_ptr, err);
}

cl_mem CL_API_CALL CreateImage2D(cl_context c, cl_mem_flags flags, const cl_image_format* format,
                                 size_t width, size_t height, size_t pitch, void* host_ptr, cl_int* err) {
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = width;
    desc.image_height = height;
    desc.image_row_pitch = pitch;
    return CreateImageWithProperties(c, nullptr, flags, format, &desc, host_ptr, err);
}

cl_mem CL_API_CALL CreateImage3D(cl_context c, cl_mem_flags flags, const cl_image_format* format,
                                 size_t width, size_t height, size_t depth, size_t row_pitch,
                                 size_t slice_pitch, void* host_ptr, cl_int* err) {
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE3D;
    desc.image_width = width;
    desc.image_height = height;
    desc.image_depth = depth;
    desc.image_row_pitch = row_pitch;
    desc.image_slice_pitch = slice_pitch;
    return CreateImageWithProperties(c, nullptr, flags, format, &desc, host_ptr, err);
}

cl_int CL_API_CALL GetSupportedImageFormats(cl_context c, cl_mem_flags flags, cl_mem_object_type type,
                                            cl_uint num_entries, cl_image_format* formats,
                                            cl_uint* num_formats) {
    Lock lock(apiMutex());
    if (!liveContext(c)) return CL_INVALID_CONTEXT;
    if (flags & ~kKnownFlags) return CL_INVALID_VALUE;
    if (num_entries == 0 && formats) return CL_INVALID_VALUE;
    if (!isImageType(type)) return CL_INVALID_VALUE;
    std::vector<cl_image_format> list;
    // Every image type has the same formats, for every access. A device without images supports no format
    // (OpenCL 3.0: the call succeeds with none).
    if (imagesSupported(c)) list = supportedImageFormats();
    if (num_formats) *num_formats = cl_uint(list.size());
    if (formats)
        for (size_t i = 0; i < list.size() && i < num_entries; ++i) formats[i] = list[i];
    return CL_SUCCESS;
}

cl_int CL_API_CALL RetainMemObject(cl_mem m) {
    Lock lock(apiMutex());
    if (!liveMem(m)) return CL_INVALID_MEM_OBJECT;
    retainObject(m);
    return CL_SUCCESS;
}

cl_int CL_API_CALL ReleaseMemObject(cl_mem m) {
    Lock lock(apiMutex());
    if (!liveMem(m)) return CL_INVALID_MEM_OBJECT;
    releaseMem(m);
    return CL_SUCCESS;
}

cl_int CL_API_CALL SetMemObjectDestructorCallback(cl_mem m, void(CL_CALLBACK* fn)(cl_mem, void*),
                                                  void* data) {
    Lock lock(apiMutex());
    if (!liveMem(m)) return CL_INVALID_MEM_OBJECT;
    if (!fn) return CL_INVALID_VALUE;
    m->destructor_callbacks.push_back({fn, data});
    return CL_SUCCESS;
}

cl_int CL_API_CALL GetMemObjectInfo(cl_mem m, cl_mem_info name, size_t size, void* value, size_t* ret) {
    Lock lock(apiMutex());
    if (!liveMem(m)) return CL_INVALID_MEM_OBJECT;
    switch (name) {
        case CL_MEM_TYPE: return infoValue(size, value, ret, m->type);
        case CL_MEM_FLAGS: return infoValue(size, value, ret, m->flags);
        case CL_MEM_SIZE: return infoValue(size, value, ret, m->size);
        case CL_MEM_HOST_PTR:
            return infoValue(size, value, ret, (m->flags & CL_MEM_USE_HOST_PTR) ? m->host_ptr : nullptr);
        case CL_MEM_MAP_COUNT: return infoValue(size, value, ret, m->map_count);
        case CL_MEM_REFERENCE_COUNT: return infoValue<cl_uint>(size, value, ret, m->refs.load());
        case CL_MEM_CONTEXT: return infoValue(size, value, ret, m->context);
        case CL_MEM_ASSOCIATED_MEMOBJECT:
            return infoValue(size, value, ret, m->parent ? m->parent : m->buffer);
        case CL_MEM_OFFSET: return infoValue(size, value, ret, m->origin);
        case CL_MEM_USES_SVM_POINTER: return infoValue<cl_bool>(size, value, ret, CL_FALSE);
        case CL_MEM_PROPERTIES: return infoArray(size, value, ret, m->properties);
        default: return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL GetImageInfo(cl_mem m, cl_image_info name, size_t size, void* value, size_t* ret) {
    Lock lock(apiMutex());
    if (!liveImage(m)) return CL_INVALID_MEM_OBJECT;
    // The settled descriptor has 0 for the dimensions and slice pitch the type lacks.
    switch (name) {
        case CL_IMAGE_FORMAT: return infoValue(size, value, ret, m->format);
        case CL_IMAGE_ELEMENT_SIZE: return infoValue(size, value, ret, m->texel_bytes);
        case CL_IMAGE_ROW_PITCH: return infoValue(size, value, ret, m->desc.image_row_pitch);
        case CL_IMAGE_SLICE_PITCH: return infoValue(size, value, ret, m->desc.image_slice_pitch);
        case CL_IMAGE_WIDTH: return infoValue(size, value, ret, m->desc.image_width);
        case CL_IMAGE_HEIGHT: return infoValue(size, value, ret, m->desc.image_height);
        case CL_IMAGE_DEPTH: return infoValue(size, value, ret, m->desc.image_depth);
        case CL_IMAGE_ARRAY_SIZE: return infoValue(size, value, ret, m->desc.image_array_size);
        case CL_IMAGE_BUFFER: return infoValue(size, value, ret, m->buffer);
        case CL_IMAGE_NUM_MIP_LEVELS:
        case CL_IMAGE_NUM_SAMPLES: return infoValue<cl_uint>(size, value, ret, 0);
        default: return CL_INVALID_VALUE;
    }
}

// --- samplers ---

cl_sampler makeSampler(cl_context c, cl_bool normalized, cl_addressing_mode addressing, cl_filter_mode filter,
                       std::vector<cl_sampler_properties> props, cl_int* err) {
    auto fail = [&](cl_int e) {
        if (err) *err = e;
        return cl_sampler(nullptr);
    };
    if (!liveContext(c)) return fail(CL_INVALID_CONTEXT);
    if (!imagesSupported(c)) return fail(CL_INVALID_OPERATION);  // samplers need image support
    if (normalized != CL_TRUE && normalized != CL_FALSE) return fail(CL_INVALID_VALUE);
    if (addressing < CL_ADDRESS_NONE || addressing > CL_ADDRESS_MIRRORED_REPEAT)
        return fail(CL_INVALID_VALUE);
    if (filter != CL_FILTER_NEAREST && filter != CL_FILTER_LINEAR) return fail(CL_INVALID_VALUE);
    auto* s = new _cl_sampler;
    s->context = c;
    s->normalized_coords = normalized;
    s->addressing = addressing;
    s->filter = filter;
    s->properties = std::move(props);
    retainObject(c);
    registerObject(s);
    if (err) *err = CL_SUCCESS;
    return s;
}

cl_sampler CL_API_CALL CreateSampler(cl_context c, cl_bool normalized, cl_addressing_mode addressing,
                                     cl_filter_mode filter, cl_int* err) {
    Lock lock(apiMutex());
    return makeSampler(c, normalized, addressing, filter, {}, err);
}

cl_sampler CL_API_CALL CreateSamplerWithProperties(cl_context c, const cl_sampler_properties* props,
                                                   cl_int* err) {
    Lock lock(apiMutex());
    cl_bool normalized = CL_TRUE;
    cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
    cl_filter_mode filter = CL_FILTER_NEAREST;
    std::vector<cl_sampler_properties> list;
    if (props) {
        for (size_t i = 0; props[i] != 0; i += 2) {
            switch (props[i]) {
                case CL_SAMPLER_NORMALIZED_COORDS: normalized = cl_bool(props[i + 1]); break;
                case CL_SAMPLER_ADDRESSING_MODE: addressing = cl_addressing_mode(props[i + 1]); break;
                case CL_SAMPLER_FILTER_MODE: filter = cl_filter_mode(props[i + 1]); break;
                default:
                    if (err) *err = CL_INVALID_VALUE;
                    return nullptr;
            }
            list.push_back(props[i]);
            list.push_back(props[i + 1]);
        }
        list.push_back(0);
    }
    return makeSampler(c, normalized, addressing, filter, std::move(list), err);
}

cl_int CL_API_CALL RetainSampler(cl_sampler s) {
    Lock lock(apiMutex());
    if (!liveSampler(s)) return CL_INVALID_SAMPLER;
    retainObject(s);
    return CL_SUCCESS;
}

cl_int CL_API_CALL ReleaseSampler(cl_sampler s) {
    Lock lock(apiMutex());
    if (!liveSampler(s)) return CL_INVALID_SAMPLER;
    if (s->refs.fetch_sub(1) == 1) {
        cl_context c = s->context;
        unregisterObject(s);
        s->magic = 0;
        delete s;
        releaseContext(c);
    }
    return CL_SUCCESS;
}

cl_int CL_API_CALL GetSamplerInfo(cl_sampler s, cl_sampler_info name, size_t size, void* value, size_t* ret) {
    Lock lock(apiMutex());
    if (!liveSampler(s)) return CL_INVALID_SAMPLER;
    switch (name) {
        case CL_SAMPLER_REFERENCE_COUNT: return infoValue<cl_uint>(size, value, ret, s->refs.load());
        case CL_SAMPLER_CONTEXT: return infoValue(size, value, ret, s->context);
        case CL_SAMPLER_NORMALIZED_COORDS: return infoValue(size, value, ret, s->normalized_coords);
        case CL_SAMPLER_ADDRESSING_MODE: return infoValue(size, value, ret, s->addressing);
        case CL_SAMPLER_FILTER_MODE: return infoValue(size, value, ret, s->filter);
        case CL_SAMPLER_PROPERTIES: return infoArray(size, value, ret, s->properties);
        default: return CL_INVALID_VALUE;
    }
}

}  // namespace

void fillMemoryEntries(cl_icd_dispatch& d) {
    d.clCreateBuffer = CreateBuffer;
    d.clCreateBufferWithProperties = CreateBufferWithProperties;
    d.clCreateSubBuffer = CreateSubBuffer;
    d.clCreateImage = CreateImage;
    d.clCreateImageWithProperties = CreateImageWithProperties;
    d.clCreateImage2D = CreateImage2D;
    d.clCreateImage3D = CreateImage3D;
    d.clGetSupportedImageFormats = GetSupportedImageFormats;
    d.clRetainMemObject = RetainMemObject;
    d.clReleaseMemObject = ReleaseMemObject;
    d.clSetMemObjectDestructorCallback = SetMemObjectDestructorCallback;
    d.clGetMemObjectInfo = GetMemObjectInfo;
    d.clGetImageInfo = GetImageInfo;
    d.clCreateSampler = CreateSampler;
    d.clCreateSamplerWithProperties = CreateSamplerWithProperties;
    d.clRetainSampler = RetainSampler;
    d.clReleaseSampler = ReleaseSampler;
    d.clGetSamplerInfo = GetSamplerInfo;
}

}  // namespace refdev::icd
