#include "test_conformance/media_block_io/media_case.h"

#include <algorithm>
#include <numeric>
#include <optional>

#include "test_common/errors.h"
#include "test_common/harness/model/param_fields.h"

namespace cts::media {

namespace {

// The manifest's parameters as scripts/assets/generators/media_block_io.py writes them, each declared once in
// fields(): the schema and fromParams' reading follow from that table.
struct MediaParams {
    std::string op, format, backing;
    uint32_t sg = 0, width = 0, height = 0, element_bytes = 0, components = 0;
    uint64_t texel_bytes = 0;
    uint32_t image_width_bytes = 0, image_height = 0;
    int32_t x = 0, y = 0;
    std::optional<std::string> image_size, fill;
    std::optional<std::vector<int64_t>> coords;
};

const ParamFields<MediaParams>& fields() {
    static const ParamFields<MediaParams> fields{{"op", &MediaParams::op},
                                                 {"format", &MediaParams::format},
                                                 {"backing", &MediaParams::backing},
                                                 {"sg", &MediaParams::sg},
                                                 {"width", &MediaParams::width},
                                                 {"height", &MediaParams::height},
                                                 {"element_bytes", &MediaParams::element_bytes},
                                                 {"components", &MediaParams::components},
                                                 {"texel_bytes", &MediaParams::texel_bytes},
                                                 {"image_width_bytes", &MediaParams::image_width_bytes},
                                                 {"image_height", &MediaParams::image_height},
                                                 {"x", &MediaParams::x},
                                                 {"y", &MediaParams::y},
                                                 {"image_size", &MediaParams::image_size},
                                                 {"fill", &MediaParams::fill},
                                                 {"coords", &MediaParams::coords}};
    return fields;
}

}  // namespace

const ParamSchema& MediaCase::schema() {
    static const ParamSchema schema = schemaOf(fields());
    return schema;
}

MediaCase MediaCase::fromParams(const Params& params) {
    const MediaParams p = readFields(params, fields());
    MediaCase c;
    c.op = p.op == "read"         ? Op::Read
           : p.op == "write"      ? Op::Write
           : p.op == "round_trip" ? Op::RoundTrip
                                  : throw InternalError("media_block_io: unknown op '" + p.op + "'");
    c.shape = {p.element_bytes, p.components, p.width, p.height, p.sg};
    c.format = namedImageFormat(p.format);
    if (p.backing != "image" && p.backing != "buffer")
        throw InternalError("media_block_io: unknown backing '" + p.backing + "'");
    c.from_buffer = p.backing == "buffer";
    c.image_width_bytes = p.image_width_bytes;
    c.image_height = p.image_height;
    c.x = p.x, c.y = p.y;
    if (c.format.texel_bytes != p.texel_bytes || c.image_width_bytes % c.format.texel_bytes)
        throw InternalError("media_block_io: image width is not a whole number of texels");
    c.image_size = p.image_size.value_or("");
    if (p.fill && *p.fill != "distinctive")
        throw InternalError("media_block_io: unknown fill '" + *p.fill + "'");
    c.distinctive = p.fill.has_value();
    if (c.image_size != "" && c.image_size != "max_width" && c.image_size != "max_height")
        throw InternalError("media_block_io: unknown image_size '" + c.image_size + "'");
    if (p.coords) {
        const std::vector<int64_t>& xy = *p.coords;
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
