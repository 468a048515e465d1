#include "reference_device/texel_conversion.h"

#include <CL/cl.h>

#include <cmath>
#include <cstring>

#include "reference_device/spirv/half.h"

namespace refdev {
namespace {

// float -> binary16, round to nearest even; denormal results flushed to zero (as the faulty path does).
uint16_t toHalfFtz(float f) {
    uint32_t u = 0;
    std::memcpy(&u, &f, 4);
    const uint16_t sign = uint16_t((u >> 16) & 0x8000u);
    if (std::isnan(f)) return uint16_t(sign | 0x7e00u);
    const float a = std::fabs(f);
    if (a >= 65520.0f) return uint16_t(sign | 0x7c00u);
    if (a < 6.103515625e-05f) return sign;  // below the smallest normal half
    int e = 0;
    const float m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
    const uint32_t mant = uint32_t(std::nearbyint((m * 2.0f - 1.0f) * 1024.0f));
    uint32_t bits = (uint32_t(e - 1 + 15) << 10) + mant;  // a carry out of the mantissa bumps the exponent
    return uint16_t(sign | bits);
}

float fromHalfFtz(uint16_t h) {
    const uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
    const float sign = (h & 0x8000u) ? -1.0f : 1.0f;
    if (e == 0) return sign * 0.0f;
    if (e == 31) return m ? NAN : sign * INFINITY;
    return sign * std::ldexp(float(m | 0x400u), int(e) - 25);
}

uint32_t load(const uint8_t* p, uint32_t n) {
    uint32_t v = 0;
    std::memcpy(&v, p, n);
    return v;
}

void store(uint8_t* p, uint32_t n, uint32_t v) {
    std::memcpy(p, &v, n);
}

}  // namespace

uint32_t channelBytes(uint32_t t) {
    switch (t) {
        case CL_UNORM_INT8:
        case CL_SNORM_INT8:
        case CL_SIGNED_INT8:
        case CL_UNSIGNED_INT8: return 1;
        case CL_UNORM_INT16:
        case CL_SNORM_INT16:
        case CL_SIGNED_INT16:
        case CL_UNSIGNED_INT16:
        case CL_HALF_FLOAT: return 2;
        case CL_SIGNED_INT32:
        case CL_UNSIGNED_INT32:
        case CL_FLOAT: return 4;
        default: return 0;
    }
}

bool channelTypeConverts(uint32_t t) {
    return t == CL_UNORM_INT8 || t == CL_UNORM_INT16 || t == CL_SNORM_INT8 || t == CL_SNORM_INT16 ||
           t == CL_HALF_FLOAT || t == CL_FLOAT;
}

void convertChannelRoundTrip(uint32_t t, uint8_t* channel) {
    const uint32_t n = channelBytes(t);
    const uint32_t raw = load(channel, n);
    if (t == CL_UNORM_INT8 || t == CL_UNORM_INT16) {
        const float scale = t == CL_UNORM_INT8 ? 255.0f : 65535.0f;
        const float v = fromHalfFtz(toHalfFtz(float(raw) / scale));
        store(channel, n, uint32_t(std::nearbyint(std::fmin(std::fmax(v, 0.0f), 1.0f) * scale)));
    } else if (t == CL_SNORM_INT8 || t == CL_SNORM_INT16) {
        const float scale = t == CL_SNORM_INT8 ? 127.0f : 32767.0f;
        const int32_t s = t == CL_SNORM_INT8 ? int32_t(int8_t(raw)) : int32_t(int16_t(raw));
        const float v = fromHalfFtz(toHalfFtz(std::fmax(float(s) / scale, -1.0f)));
        store(channel, n, uint32_t(int32_t(std::nearbyint(std::fmin(std::fmax(v, -1.0f), 1.0f) * scale))));
    } else if (t == CL_HALF_FLOAT) {
        const float v = fromHalfFtz(uint16_t(raw));
        store(channel, n, std::isnan(v) ? 0x7e00u : toHalfFtz(v));
    } else if (t == CL_FLOAT) {
        float f = 0;
        std::memcpy(&f, &raw, 4);
        uint32_t out = raw;
        if (std::isnan(f))
            out = 0x7fc00000u;
        else if (std::fpclassify(f) == FP_SUBNORMAL)
            out = raw & 0x80000000u;
        store(channel, n, out);
    }
}

uint32_t channelCount(uint32_t order) {
    switch (order) {
        case CL_R: return 1;
        case CL_RG: return 2;
        case CL_RGBA:
        case CL_BGRA: return 4;
        default: return 0;
    }
}

bool channelTypeIsInteger(uint32_t t) {
    return t == CL_SIGNED_INT8 || t == CL_SIGNED_INT16 || t == CL_SIGNED_INT32 || t == CL_UNSIGNED_INT8 ||
           t == CL_UNSIGNED_INT16 || t == CL_UNSIGNED_INT32;
}

namespace {

uint32_t floatBits(float f) {
    uint32_t u = 0;
    std::memcpy(&u, &f, 4);
    return u;
}

float bitsFloat(uint32_t u) {
    float f = 0;
    std::memcpy(&f, &u, 4);
    return f;
}

// Stored channel index of the kernel's channel c (BGRA keeps blue first).
uint32_t storedChannel(uint32_t order, uint32_t c) {
    return order == CL_BGRA && c != 1 && c != 3 ? 2 - c : c;
}

uint32_t decodeChannel(uint32_t t, uint32_t raw) {
    switch (t) {
        case CL_UNORM_INT8: return floatBits(float(raw) / 255.0f);
        case CL_UNORM_INT16: return floatBits(float(raw) / 65535.0f);
        case CL_SNORM_INT8: return floatBits(std::fmax(float(int8_t(raw)) / 127.0f, -1.0f));
        case CL_SNORM_INT16: return floatBits(std::fmax(float(int16_t(raw)) / 32767.0f, -1.0f));
        case CL_HALF_FLOAT: return floatBits(spirv::halfToFloat(uint16_t(raw)));
        case CL_SIGNED_INT8: return uint32_t(int32_t(int8_t(raw)));
        case CL_SIGNED_INT16: return uint32_t(int32_t(int16_t(raw)));
        default: return raw;  // FLOAT, SIGNED_INT32, UNSIGNED_INT8/16/32
    }
}

// convert_<type>_sat_rte of v * scale: NaN gives 0.
int32_t normalized(float v, float scale, float lo, float hi) {
    if (std::isnan(v)) return 0;
    return int32_t(std::nearbyint(std::fmin(std::fmax(v * scale, lo), hi)));
}

uint32_t encodeChannel(uint32_t t, uint32_t w) {
    const float f = bitsFloat(w);
    const int32_t s = int32_t(w);
    switch (t) {
        case CL_UNORM_INT8: return uint32_t(normalized(f, 255.0f, 0.0f, 255.0f));
        case CL_UNORM_INT16: return uint32_t(normalized(f, 65535.0f, 0.0f, 65535.0f));
        case CL_SNORM_INT8: return uint32_t(normalized(f, 127.0f, -128.0f, 127.0f));
        case CL_SNORM_INT16: return uint32_t(normalized(f, 32767.0f, -32768.0f, 32767.0f));
        case CL_HALF_FLOAT: return spirv::floatToHalf(f);
        case CL_SIGNED_INT8: return uint32_t(s < -128 ? -128 : s > 127 ? 127 : s);
        case CL_SIGNED_INT16: return uint32_t(s < -32768 ? -32768 : s > 32767 ? 32767 : s);
        case CL_UNSIGNED_INT8: return w > 255u ? 255u : w;
        case CL_UNSIGNED_INT16: return w > 65535u ? 65535u : w;
        default: return w;  // FLOAT, SIGNED_INT32, UNSIGNED_INT32
    }
}

}  // namespace

void decodeTexel(uint32_t order, uint32_t t, const uint8_t* texel, uint32_t out[4]) {
    const bool integer = channelTypeIsInteger(t);
    out[0] = out[1] = out[2] = 0;
    out[3] = integer ? 1u : floatBits(1.0f);
    const uint32_t n = channelCount(order), bytes = channelBytes(t);
    for (uint32_t c = 0; c < n; ++c)
        out[c] = decodeChannel(t, load(texel + bytes * storedChannel(order, c), bytes));
}

void encodeTexel(uint32_t order, uint32_t t, const uint32_t in[4], uint8_t* texel) {
    const uint32_t n = channelCount(order), bytes = channelBytes(t);
    for (uint32_t c = 0; c < n; ++c)
        store(texel + bytes * storedChannel(order, c), bytes, encodeChannel(t, in[c]));
}

}  // namespace refdev
