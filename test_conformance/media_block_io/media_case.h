// One media_block_io case's parameters (scripts/assets/generators/media_block_io.py) and the image it starts
// from.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "test_common/cl/device_info.h"
#include "test_common/cl/image_formats.h"
#include "test_common/harness/model/params.h"
#include "test_common/reference/media_block_io.h"

namespace cts::media {

constexpr size_t kBufferPitchAlign = 64;  // images from buffers: row pitch a multiple of 64 (OpenCL env)

// GuardedBuffer's fill: the lanes (read destination) and back buffers hold it before the kernel runs.
constexpr uint8_t kBufferFill = 0xA5;
// Preferred fill of the Data slots a write ignores (row padding, the tail of a region smaller than
// S x components): non-zero and not kBufferFill; seeded images never hold it.
constexpr uint8_t kIgnoredData = 0x5A;

enum class Op { Read, Write, RoundTrip };

struct MediaCase {
    Op op = Op::Read;
    reference::MediaBlockShape shape;
    NamedImageFormat format{};
    bool from_buffer = false;
    uint32_t image_width_bytes = 0, image_height = 0;
    int32_t x = 0, y = 0;
    // The scale cases (docs/media_block_io.md, "Scale"): several sub-groups (one per work-group), each at its
    // own Coordinate from `coords`; or an image CL_DEVICE_IMAGE2D_MAX_WIDTH texels wide / MAX_HEIGHT rows
    // high, with x / y counted from its right / bottom edge.
    std::vector<std::pair<int32_t, int32_t>> coords;  // per sub-group; resolve() fills it
    std::string image_size;                           // "", "max_width" or "max_height"
    // "fill": "distinctive": image and data hold channel values of the format that a conversion would change
    // (fillDistinctiveChannels); otherwise seeded non-zero bytes.
    bool distinctive = false;
    size_t pitch_align = kBufferPitchAlign;  // images from buffers: resolve() adds the device's alignment

    // The schema and the reader of the case parameters, both from one field table (media_case.cpp, fields()).
    static const ParamSchema& schema();
    static MediaCase fromParams(const Params& p);

    // The device's maximum image size where the case asks for it, and one Coordinate per sub-group.
    void resolve(const DeviceInfo& device);
    uint32_t subGroups() const { return uint32_t(coords.size()); }

    size_t laneBytes() const { return size_t(shape.components) * shape.element_bytes; }
    size_t pitch() const {
        return from_buffer ? (image_width_bytes + pitch_align - 1) / pitch_align * pitch_align
                           : image_width_bytes;
    }
    // The shape, format, backing and Coordinate: the head of a failure message.
    std::string str() const;
};

// The image (or its buffer) with seeded bytes, never zero so that a zero from a wrong edge rule shows, never
// kBufferFill (a read that leaves a defined element unwritten shows) nor kIgnoredData.
reference::MediaImage makeImage(const MediaCase& c, std::mt19937_64& rng);

// The byte the ignored Data slots hold: kIgnoredData unless the image holds it (distinctive channel fills),
// then the first other non-zero byte the image does not hold and that is not kBufferFill. A device that
// writes an ignored slot then changes every image byte it lands on. Only an image holding all 254 candidate
// bytes falls back to kIgnoredData.
uint8_t ignoredDataByte(const reference::MediaImage& image);

}  // namespace cts::media
