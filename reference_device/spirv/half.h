// IEEE 754 binary16 conversions with explicit rounding modes (no dependence on host half support).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace refdev::spirv {

// SPIR-V FPRoundingMode values.
enum class Rounding : uint8_t { RTE = 0, RTZ = 1, RTP = 2, RTN = 3 };

inline float halfToFloat(uint16_t h) {
    const uint32_t sign = uint32_t(h >> 15) << 31;
    const uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    uint32_t bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (mant << 13);
    } else if (exp != 0) {
        bits = sign | ((exp + 112) << 23) | (mant << 13);
    } else if (mant == 0) {
        bits = sign;
    } else {  // subnormal half: value = mant * 2^-24, exact in float
        float v = float(mant) * 0x1p-24f;
        std::memcpy(&bits, &v, 4);
        bits |= sign;
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

// Correctly rounded double -> half (float inputs convert to double exactly, so this serves both).
inline uint16_t doubleToHalf(double v, Rounding mode = Rounding::RTE) {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    const uint16_t sign = uint16_t((b >> 63) << 15);
    const int exp = int((b >> 52) & 0x7ff);
    const uint64_t mant = b & ((uint64_t(1) << 52) - 1);
    if (exp == 0x7ff) return mant ? uint16_t(sign | 0x7e00 | (mant >> 42)) : uint16_t(sign | 0x7c00);
    if (exp == 0 && mant == 0) return sign;
    const bool neg = sign != 0;
    const int e = exp == 0 ? -1074 + 52 : exp - 1023;  // double subnormals are far below half's range
    const uint64_t full = exp == 0 ? mant : (mant | (uint64_t(1) << 52));
    int shift = e >= -14 ? 42 : 42 + (-14 - e);
    uint64_t q, rem, halfway;
    bool sticky_only = false;
    if (shift > 63) {
        q = 0;
        rem = 1;
        halfway = 2;  // tiny: below half an ulp, never a tie
        sticky_only = true;
    } else {
        q = full >> shift;
        rem = full & ((uint64_t(1) << shift) - 1);
        halfway = uint64_t(1) << (shift - 1);
    }
    (void)sticky_only;
    bool up = false;
    switch (mode) {
        case Rounding::RTE: up = rem > halfway || (rem == halfway && (q & 1)); break;
        case Rounding::RTZ: up = false; break;
        case Rounding::RTP: up = rem != 0 && !neg; break;
        case Rounding::RTN: up = rem != 0 && neg; break;
    }
    if (up) ++q;
    if (e >= -14) {
        int he = e + 15;
        if (q == (uint64_t(1) << 11)) {
            q >>= 1;
            ++he;
        }
        if (he >= 31) {  // overflow: infinity or the largest finite value, by rounding direction
            bool to_inf =
                mode == Rounding::RTE || (mode == Rounding::RTP && !neg) || (mode == Rounding::RTN && neg);
            return uint16_t(sign | (to_inf ? 0x7c00 : 0x7bff));
        }
        return uint16_t(sign | (he << 10) | (q & 0x3ff));
    }
    return uint16_t(sign | q);  // subnormal (q == 0x400 encodes the smallest normal correctly)
}

inline uint16_t floatToHalf(float v, Rounding mode = Rounding::RTE) {
    return doubleToHalf(double(v), mode);
}

// Correctly rounded double -> float in a directed mode (RTE is the host's default conversion).
inline float doubleToFloat(double v, Rounding mode) {
    float f = float(v);
    if (mode == Rounding::RTE || std::isnan(v) || double(f) == v) return f;
    bool toward_zero_needed = std::fabs(double(f)) > std::fabs(v);
    switch (mode) {
        case Rounding::RTZ:
            if (toward_zero_needed) f = std::nextafter(f, 0.0f);
            break;
        case Rounding::RTP:
            if (double(f) < v) f = std::nextafter(f, INFINITY);
            break;
        case Rounding::RTN:
            if (double(f) > v) f = std::nextafter(f, -INFINITY);
            break;
        default: break;
    }
    return f;
}

}  // namespace refdev::spirv
