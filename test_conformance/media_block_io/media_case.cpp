#include "test_conformance/media_block_io/media_case.h"

#include <algorithm>
#include <numeric>

#include "test_common/errors.h"

namespace cts::media {

const ParamSchema& MediaCase::schema() {
    static const ParamSchema schema{{"op", ParamType::String},
                                    {"format", ParamType::String},
                                    {"backing", ParamType::String},
                                    {"sg", ParamType::UInt},
                                    {"width", ParamType::UInt},
                                    {"height", ParamType::UInt},
                                    {"element_bytes", ParamType::UInt},
                                    {"components", ParamType::UInt},
                                    {"texel_bytes", ParamType::UInt},
                                    {"image_width_bytes", ParamType::UInt},
                                    {"image_height", ParamType::UInt},
                                    {"x", ParamType::Int},
                                    {"y", ParamType::Int},
                                    {"image_size", ParamType::String, kOptional},
                                    {"fill", ParamType::String, kOptional},
                                    {"coords", ParamType::IntList, kOptional}};
    return schema;
}

MediaCase MediaCase::fromParams(const Params& p) {
    MediaCase c;
    const std::string op = p.s("op");
    c.op = op == "read"         ? Op::Read
           : op == "write"      ? Op::Write
           : op == "round_trip" ? Op::RoundTrip
                                : throw InternalError("media_block_io: unknown op '" + op + "'");
    c.shape = {uint32_t(p.u("element_bytes")), uint32_t(p.u("components")), uint32_t(p.u("width")),
               uint32_t(p.u("height")), uint32_t(p.u("sg"))};
    c.format = namedImageFormat(p.s("format"));
    const std::string backing = p.s("backing");
    if (backing != "image" && backing != "buffer")
        throw InternalError("media_block_io: unknown backing '" + backing + "'");
    c.from_buffer = backing == "buffer";
    c.image_width_bytes = uint32_t(p.u("image_width_bytes"));
    c.image_height = uint32_t(p.u("image_height"));
    c.x = int32_t(p.i("x")), c.y = int32_t(p.i("y"));
    if (c.format.texel_bytes != p.u("texel_bytes") || c.image_width_bytes % c.format.texel_bytes)
        throw InternalError("media_block_io: image width is not a whole number of texels");
    if (p.has("image_size")) c.image_size = p.s("image_size");
    if (p.has("fill") && p.s("fill") != "distinctive")
        throw InternalError("media_block_io: unknown fill '" + p.s("fill") + "'");
    c.distinctive = p.has("fill");
    if (c.image_size != "" && c.image_size != "max_width" && c.image_size != "max_height")
        throw InternalError("media_block_io: unknown image_size '" + c.image_size + "'");
    if (p.has("coords")) {
        std::vector<int64_t> xy = p.list("coords");
        if (xy.empty() || xy.size() % 2) throw InternalError("media_block_io: coords must hold (x, y) pairs");
        for (size_t i = 0; i < xy.size(); i += 2) c.coords.push_back({int32_t(xy[i]), int32_t(xy[i + 1])});
    }
    return c;
}

void MediaCase::resolve(const DeviceInfo& device) {
    // cl_khr_image2d_from_buffer: the pitch is also a multiple of CL_DEVICE_IMAGE_PITCH_ALIGNMENT texels.
    pitch_align = std::lcm(kBufferPitchAlign,
                           size_t(std::max<cl_uint>(device.image_pitch_alignment, 1)) * format.texel_bytes);
    if (image_size == "max_width") {
        if (device.image2d_max_width * format.texel_bytes > (size_t(1) << 30))
            throw InternalError("media_block_io: CL_DEVICE_IMAGE2D_MAX_WIDTH too large for int coordinates");
        image_width_bytes = uint32_t(device.image2d_max_width * format.texel_bytes);
        x += int32_t(image_width_bytes);
    } else if (image_size == "max_height") {
        if (device.image2d_max_height > (size_t(1) << 30))
            throw InternalError("media_block_io: CL_DEVICE_IMAGE2D_MAX_HEIGHT too large for int coordinates");
        image_height = uint32_t(device.image2d_max_height);
        y += int32_t(image_height);
    }
    if (coords.empty()) coords.push_back({x, y});
    if (coords.size() > 1 && op == Op::RoundTrip)
        throw InternalError("media_block_io: round trip runs one sub-group");
}

std::string MediaCase::str() const {
    return shape.str() + " " + format.name + (from_buffer ? " image from a buffer" : " image") + " at (" +
           std::to_string(x) + ", " + std::to_string(y) + ")";
}

reference::MediaImage makeImage(const MediaCase& c, std::mt19937_64& rng) {
    reference::MediaImage m;
    m.width = c.image_width_bytes / c.format.texel_bytes;
    m.height = c.image_height;
    m.texel_bytes = c.format.texel_bytes;
    m.row_pitch_bytes = c.pitch();
    m.data.resize(m.row_pitch_bytes * m.height);
    if (c.distinctive)
        fillDistinctiveChannels(c.format, m.data.data(), m.data.size(), rng);
    else
        for (auto& b : m.data) {
            b = uint8_t(1 + rng() % 255);
            if (b == kBufferFill || b == kIgnoredData) b ^= 1;
        }
    return m;
}

uint8_t ignoredDataByte(const reference::MediaImage& image) {
    bool present[256] = {};
    for (uint8_t b : image.data) present[b] = true;
    if (!present[kIgnoredData]) return kIgnoredData;
    for (unsigned v = 1; v < 256; ++v)
        if (!present[v] && v != kBufferFill) return uint8_t(v);
    return kIgnoredData;
}

}  // namespace cts::media
