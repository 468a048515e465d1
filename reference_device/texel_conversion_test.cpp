// The typed round trip the texel-conversion faults apply: it must change the values the suite fills images
// with (else the faults would be invisible) and leave integer channels and exact values alone.
#include <gtest/gtest.h>

#include <CL/cl.h>

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

}  // namespace
}  // namespace refdev
