// The typed round trip the texel-conversion faults apply: it must change the values the suite fills images
// with (else the faults would be invisible) and leave integer channels and exact values alone.
#include <gtest/gtest.h>

#include <CL/cl.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "reference_device/texel_conversion.h"

namespace refdev {
namespace {

uint32_t roundTrip(uint32_t type, uint32_t value) {
    uint8_t bytes[4];
    std::memcpy(bytes, &value, 4);
    convertChannelRoundTrip(type, bytes);
    uint32_t out = 0;
    std::memcpy(&out, bytes, channelBytes(type));
    return out;
}

TEST(TexelConversion, ChangesSnormMinimumNanPayloadsDenormalsAndUnorm16) {
    EXPECT_EQ(roundTrip(CL_SNORM_INT8, 0x80), 0x81u);       // -128 -> -1.0 -> -127
    EXPECT_EQ(roundTrip(CL_SNORM_INT16, 0x8000), 0x8001u);  // -32768 -> -32767
    EXPECT_EQ(roundTrip(CL_HALF_FLOAT, 0x7e01), 0x7e00u);   // NaN payload lost
    EXPECT_EQ(roundTrip(CL_HALF_FLOAT, 0x0001), 0x0000u);   // denormal flushed
    EXPECT_EQ(roundTrip(CL_HALF_FLOAT, 0x83ff), 0x8000u);
    EXPECT_EQ(roundTrip(CL_FLOAT, 0x7fc00001), 0x7fc00000u);
    EXPECT_EQ(roundTrip(CL_FLOAT, 0x807fffff), 0x80000000u);
    EXPECT_NE(roundTrip(CL_UNORM_INT16, 0x1235), 0x1235u);  // half precision keeps 11 bits
}

TEST(TexelConversion, KeepsIntegersAndExactValues) {
    for (uint32_t type : {CL_SIGNED_INT8, CL_UNSIGNED_INT16, CL_SIGNED_INT32, CL_UNSIGNED_INT32})
        EXPECT_EQ(roundTrip(type, 0x80000000u >> (32 - 8 * channelBytes(type))),
                  0x80000000u >> (32 - 8 * channelBytes(type)));
    for (uint32_t v = 0; v < 256; ++v) EXPECT_EQ(roundTrip(CL_UNORM_INT8, v), v) << v;  // exact via half
    EXPECT_EQ(roundTrip(CL_SNORM_INT8, 0x81), 0x81u);
    EXPECT_EQ(roundTrip(CL_HALF_FLOAT, 0x3c00), 0x3c00u);  // 1.0
    EXPECT_EQ(roundTrip(CL_HALF_FLOAT, 0x7bff), 0x7bffu);  // largest finite
    EXPECT_EQ(roundTrip(CL_HALF_FLOAT, 0xfc00), 0xfc00u);  // -infinity
    EXPECT_EQ(roundTrip(CL_FLOAT, 0x3f800001), 0x3f800001u);
    EXPECT_FALSE(channelTypeConverts(CL_UNSIGNED_INT32));
    EXPECT_TRUE(channelTypeConverts(CL_UNORM_INT8));
}

uint32_t bits(float f) {
    uint32_t u = 0;
    std::memcpy(&u, &f, 4);
    return u;
}

// Typed reads (OpenCL API 8.3.1): normalized channels scaled and SNORM clamped at -1, BGRA swizzled,
// integers extended by signedness, missing channels 0, 0, 0, 1.
TEST(TexelFormat, DecodesAsKernelsRead) {
    uint32_t w[4];
    const uint8_t snorm[2] = {0x80, 0x7f};  // -128 reads -1.0 (not -128/127), 127 reads 1.0
    decodeTexel(CL_RG, CL_SNORM_INT8, snorm, w);
    EXPECT_EQ(w[0], bits(-1.0f));
    EXPECT_EQ(w[1], bits(1.0f));
    EXPECT_EQ(w[2], bits(0.0f));
    EXPECT_EQ(w[3], bits(1.0f));
    const uint8_t bgra[4] = {1, 2, 3, 4};
    decodeTexel(CL_BGRA, CL_UNORM_INT8, bgra, w);
    EXPECT_EQ(w[0], bits(3 / 255.0f));
    EXPECT_EQ(w[2], bits(1 / 255.0f));
    const int16_t s16 = -2;
    decodeTexel(CL_R, CL_SIGNED_INT16, reinterpret_cast<const uint8_t*>(&s16), w);
    EXPECT_EQ(w[0], uint32_t(-2));
    EXPECT_EQ(w[3], 1u);
    const uint16_t u16 = 0xfffe;
    decodeTexel(CL_R, CL_UNSIGNED_INT16, reinterpret_cast<const uint8_t*>(&u16), w);
    EXPECT_EQ(w[0], 0xfffeu);
    const uint16_t half_denormal = 0x0001;
    decodeTexel(CL_R, CL_HALF_FLOAT, reinterpret_cast<const uint8_t*>(&half_denormal), w);
    EXPECT_EQ(w[0], bits(0x1p-24f));
}

// Typed writes (OpenCL API 8.3.2): round to nearest even with saturation, NaN to 0, integers saturated.
TEST(TexelFormat, EncodesWithRoundingAndSaturation) {
    uint8_t t[16] = {};
    const uint32_t unorm[4] = {bits(0.5f), bits(1.5f / 255.0f), bits(-3.0f), bits(NAN)};
    encodeTexel(CL_RGBA, CL_UNORM_INT8, unorm, t);
    EXPECT_EQ(t[0], 128);  // 127.5 to even
    EXPECT_EQ(t[1], 2);    // 1.5 to even
    EXPECT_EQ(t[2], 0);
    EXPECT_EQ(t[3], 0);
    const uint32_t snorm[2] = {bits(-2.0f), bits(2.5f / 32767.0f)};
    encodeTexel(CL_RG, CL_SNORM_INT16, snorm, t);
    int16_t s[2];
    std::memcpy(s, t, 4);
    EXPECT_EQ(s[0], -32768);  // convert_short_sat_rte(-2 * 32767)
    EXPECT_EQ(s[1], 2);
    const uint32_t ints[4] = {uint32_t(-200), 200, 70000, uint32_t(-70000)};
    encodeTexel(CL_RGBA, CL_SIGNED_INT8, ints, t);
    EXPECT_EQ(int8_t(t[0]), -128);
    EXPECT_EQ(int8_t(t[1]), 127);
    encodeTexel(CL_RGBA, CL_UNSIGNED_INT16, ints, t);
    uint16_t u[4];
    std::memcpy(u, t, 8);
    EXPECT_EQ(u[0], 65535);  // uint4 0xffffff38 saturates
    EXPECT_EQ(u[1], 200);
    const uint32_t half[2] = {bits(0x1p-24f), bits(1.0f + 0x1p-11f)};  // a denormal; a tie between halves
    encodeTexel(CL_RG, CL_HALF_FLOAT, half, t);
    uint16_t h[2];
    std::memcpy(h, t, 4);
    EXPECT_EQ(h[0], 0x0001);  // the smallest half denormal survives
    EXPECT_EQ(h[1], 0x3c00);  // to even: 1.0
    const uint32_t rgba[4] = {bits(1.0f), 0, 0, bits(0.0f)};
    encodeTexel(CL_BGRA, CL_UNORM_INT8, rgba, t);
    EXPECT_EQ(t[2], 255);  // red is stored third
    EXPECT_EQ(t[0], 0);
}

}  // namespace
}  // namespace refdev
