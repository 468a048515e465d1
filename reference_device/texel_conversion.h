// Channel conversions of image texels: what a typed image read or write (OpenCL C 6.15.15, OpenCL API 8.3)
// makes of a texel, and the round trip of the planted faults that make block IO convert texels (a driver
// reading or writing block data through the sampler / typed-store path instead of moving raw bits). Block
// IO itself never converts ("the image data is read without format conversion").
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

// Channels of a CL_* channel order the device has images of (R 1, RG 2, RGBA and BGRA 4; 0 otherwise).
uint32_t channelCount(uint32_t channel_order);

// Integer channel types (CL_SIGNED_INT* / CL_UNSIGNED_INT*): read as int4 / uint4, the others as float4.
bool channelTypeIsInteger(uint32_t channel_type);

// A texel as a kernel sees it: four 32-bit words in R, G, B, A order, float bits for normalized and float
// channel types, int32 / uint32 for integer types. Channels the order lacks read as 0, 0, 0, 1.
void decodeTexel(uint32_t channel_order, uint32_t channel_type, const uint8_t* texel, uint32_t out[4]);

// Stores four such words into a texel: normalized types round to nearest even and saturate (NaN gives 0),
// HALF_FLOAT rounds to nearest even, 8- and 16-bit integer types saturate (signed or unsigned by type).
void encodeTexel(uint32_t channel_order, uint32_t channel_type, const uint32_t in[4], uint8_t* texel);

}  // namespace refdev
