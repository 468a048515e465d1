// The image formats cases name in their manifest parameters ("format": "r32ui"), with their OpenCL order,
// channel type and texel size: one table for every family that creates images.
#pragma once

#include <cstdint>
#include <string>

#include <CL/cl.h>

namespace cts {

struct NamedImageFormat {
    const char* name;
    cl_channel_order order;
    cl_channel_type type;
    uint32_t texel_bytes;
};

// The format named `name`; an unknown name is an InternalError (a manifest the suite does not know).
const NamedImageFormat& namedImageFormat(const std::string& name);

}  // namespace cts
