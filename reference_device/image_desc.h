// How a 2D image argument looks to the interpreter and the op families.
#pragma once

#include <cstddef>
#include <cstdint>

namespace refdev {

struct ImageDesc {
    uint8_t* data = nullptr;     // first byte of row 0
    size_t width = 0;            // texels
    size_t height = 0;           // rows
    size_t row_pitch = 0;        // bytes between rows
    size_t texel_bytes = 0;      // bytes per texel (all channels)
    uint32_t channel_order = 0;  // CL_R, CL_RG, CL_RGBA, ...
    uint32_t channel_type = 0;   // CL_UNSIGNED_INT8, ...
    bool from_buffer = false;    // created from a buffer (cl_khr_image2d_from_buffer): rows row_pitch apart
};

}  // namespace refdev
