#include "test_common/cl/image_formats.h"

#include <iterator>

#include "test_common/errors.h"

namespace cts {

const std::vector<NamedImageFormat>& allImageFormats() {
    static const std::vector<NamedImageFormat> formats = [] {
        struct Type {
            const char* suffix;
            cl_channel_type type;
            uint32_t bytes;
        };
        const Type types[] = {
            {"", CL_UNORM_INT8, 1},      {"_snorm", CL_SNORM_INT8, 1}, {"i", CL_SIGNED_INT8, 1},
            {"ui", CL_UNSIGNED_INT8, 1}, {"", CL_UNORM_INT16, 2},      {"_snorm", CL_SNORM_INT16, 2},
            {"i", CL_SIGNED_INT16, 2},   {"ui", CL_UNSIGNED_INT16, 2}, {"f", CL_HALF_FLOAT, 2},
            {"i", CL_SIGNED_INT32, 4},   {"ui", CL_UNSIGNED_INT32, 4}, {"f", CL_FLOAT, 4}};
        struct Order {
            const char* prefix;
            cl_channel_order order;
            uint32_t channels;
        };
        const Order orders[] = {{"r", CL_R, 1}, {"rg", CL_RG, 2}, {"rgba", CL_RGBA, 4}};
        // Names as GLSL / SPIR-V spell image formats: r8, r8_snorm, r8i, r8ui, r16f, rgba32f, ...
        static std::vector<std::string> names;
        names.reserve(std::size(orders) * std::size(types));
        std::vector<NamedImageFormat> list;
        for (const Order& o : orders)
            for (const Type& t : types) {
                names.push_back(std::string(o.prefix) + std::to_string(t.bytes * 8) + t.suffix);
                list.push_back({names.back().c_str(), o.order, t.type, t.bytes * o.channels, t.bytes});
            }
        return list;
    }();
    return formats;
}

const NamedImageFormat& namedImageFormat(const std::string& name) {
    for (const NamedImageFormat& f : allImageFormats())
        if (name == f.name) return f;
    throw InternalError("unknown image format '" + name + "'");
}

const std::vector<uint32_t>& distinctiveChannelValues(cl_channel_type type) {
    // UNORM: no value but 0 and the maximum is an exact float after normalisation; SNORM: -128 / -32768
    // (which a normalising path clamps to -1.0 and writes back as -127 / -32767); half and float: quiet NaNs
    // with payloads, signalling NaNs, negative NaNs, denormals, -0 and infinity.
    static const std::vector<uint32_t> unorm8{0x01, 0x7f, 0x80, 0xfe, 0x55}, snorm8{0x80, 0x81, 0x7f, 0xff},
        int8{0x80, 0xff, 0x7f}, unorm16{0x0001, 0x8000, 0xfffe, 0x1235, 0x7fff},
        snorm16{0x8000, 0x8001, 0x7fff, 0xffff}, int16{0x8000, 0xffff, 0x7fff},
        half{0x7e01, 0x7d00, 0xfc01, 0x0001, 0x83ff, 0x8000, 0x7c00, 0x7fff},
        float32{0x7fc00001, 0x7f800001, 0xffffffff, 0x00000001, 0x807fffff, 0x80000000, 0x7f800000},
        int32{0x80000000, 0xffffffff, 0x7fffffff};
    switch (type) {
        case CL_UNORM_INT8: return unorm8;
        case CL_SNORM_INT8: return snorm8;
        case CL_SIGNED_INT8:
        case CL_UNSIGNED_INT8: return int8;
        case CL_UNORM_INT16: return unorm16;
        case CL_SNORM_INT16: return snorm16;
        case CL_SIGNED_INT16:
        case CL_UNSIGNED_INT16: return int16;
        case CL_HALF_FLOAT: return half;
        case CL_FLOAT: return float32;
        case CL_SIGNED_INT32:
        case CL_UNSIGNED_INT32: return int32;
        default: throw InternalError("no distinctive values for channel type " + std::to_string(type));
    }
}

}  // namespace cts
