// The image formats cases name in their manifest parameters ("format": "r32ui"), with their OpenCL order,
// channel type and texel size: one table for every family that creates images.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <CL/cl.h>

namespace cts {

struct NamedImageFormat {
    const char* name;
    cl_channel_order order;
    cl_channel_type type;
    uint32_t texel_bytes;
    uint32_t channel_bytes;  // bytes of one channel (texel_bytes / channels)
};

// The format named `name`; an unknown name is an InternalError (a manifest the suite does not know).
const NamedImageFormat& namedImageFormat(const std::string& name);

// Every format of the table: CL_R, CL_RG, CL_RGBA x UNORM/SNORM 8/16, SIGNED/UNSIGNED 8/16/32, HALF, FLOAT.
const std::vector<NamedImageFormat>& allImageFormats();

// Fills `bytes` bytes (whole channels of `f`, channel-aligned from `data`) with channel values a format
// conversion would change: every other channel is one of the type's distinctive values (UNORM values that
// are no exact float, SNORM -128 / -32768, half and float NaN payloads, signalling NaNs, denormals, -0),
// the others are random. `random` gives 64 random bits per call.
template <class Rng>
void fillDistinctiveChannels(const NamedImageFormat& f, uint8_t* data, size_t bytes, Rng& random);

// The distinctive values of a channel type (little-endian, channel_bytes wide), for fillDistinctiveChannels.
const std::vector<uint32_t>& distinctiveChannelValues(cl_channel_type type);

template <class Rng>
void fillDistinctiveChannels(const NamedImageFormat& f, uint8_t* data, size_t bytes, Rng& random) {
    const std::vector<uint32_t>& special = distinctiveChannelValues(f.type);
    const size_t cb = f.channel_bytes;
    for (size_t i = 0; i * cb < bytes; ++i) {
        uint32_t v = i % 2 == 0 ? special[(i / 2) % special.size()] : uint32_t(random());
        for (size_t b = 0; b < cb && i * cb + b < bytes; ++b) data[i * cb + b] = uint8_t(v >> (8 * b));
    }
}

}  // namespace cts
