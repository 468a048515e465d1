// How an image argument looks to the interpreter and the op families.
#pragma once

#include <cstddef>
#include <cstdint>

namespace refdev {

struct ImageDesc {
    uint8_t* data = nullptr;     // first byte of row 0
    size_t width = 0;            // texels
    size_t height = 0;           // rows (1 for 1D images and 1D arrays)
    size_t row_pitch = 0;        // bytes between rows
    size_t texel_bytes = 0;      // bytes per texel (all channels)
    uint32_t channel_order = 0;  // CL_R, CL_RG, CL_RGBA, ...
    uint32_t channel_type = 0;   // CL_UNSIGNED_INT8, ...
    bool from_buffer = false;    // created from a buffer (cl_khr_image2d_from_buffer): rows row_pitch apart
    uint32_t image_type = 0;     // CL_MEM_OBJECT_IMAGE1D, ...; 0 means CL_MEM_OBJECT_IMAGE2D
    size_t depth = 1;            // 3D images: slices
    size_t array_size = 1;       // 1D and 2D image arrays: layers
    size_t slice_pitch = 0;      // bytes between 3D slices or array layers
};

}  // namespace refdev
