// What a format-aware image path does to a channel: for the planted faults that make block IO convert
// texels (a driver reading or writing block data through the sampler / typed-store path instead of moving
// raw bits). Block IO itself never converts ("the image data is read without format conversion").
#pragma once

#include <cstdint>

namespace refdev {

// Bytes of one channel of a CL_* channel type (1, 2 or 4; 0 for types the device has no images of).
uint32_t channelBytes(uint32_t channel_type);

// True for the channel types a format-aware path converts: UNORM/SNORM 8/16, HALF_FLOAT, FLOAT.
bool channelTypeConverts(uint32_t channel_type);

// The channel at `channel` (little-endian, channelBytes wide) after a typed read and write-back through
// half precision for normalized types (UNORM16 loses low bits; SNORM -128 / -32768 become -127 / -32767)
// and single precision for HALF_FLOAT / FLOAT (denormals flushed to zero, NaNs made the default quiet NaN).
// Integer channels are left alone.
void convertChannelRoundTrip(uint32_t channel_type, uint8_t* channel);

}  // namespace refdev
