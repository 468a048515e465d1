#include "test_conformance/workloads/gemm_host.h"

#include <cmath>
#include <cstring>

#include "test_common/harness/model/case.h"

namespace cts::workloads {
namespace {

const FormatInfo kFormats[] = {
    {GemmFormat::Int8, "int8", 1, 4, 32, true},
    {GemmFormat::Fp16Fp32, "fp16_fp32", 2, 4, 16, false},
    {GemmFormat::Fp16Fp16, "fp16_fp16", 2, 2, 16, false},
    {GemmFormat::Bf16Fp32, "bf16_fp32", 2, 4, 16, false},
    {GemmFormat::Bf16Bf16, "bf16_bf16", 2, 2, 16, false},
    {GemmFormat::Tf32Fp32, "tf32_fp32", 4, 4, 8, false},
};

bool fp16Elements(const FormatInfo& f) {
    return f.format == GemmFormat::Fp16Fp32 || f.format == GemmFormat::Fp16Fp16;
}
bool bf16Elements(const FormatInfo& f) {
    return f.format == GemmFormat::Bf16Fp32 || f.format == GemmFormat::Bf16Bf16;
}

double fromFloatBits(uint32_t bits) {
    float v;
    std::memcpy(&v, &bits, 4);
    return v;
}

uint32_t floatBits(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return bits;
}

// IEEE binary16: 1 sign, 5 exponent (bias 15), 10 fraction bits.
double fromHalfBits(uint32_t h) {
    const int exponent = int(h >> 10) & 0x1f;
    const double fraction = double(h & 0x3ff);
    const double sign = (h & 0x8000) ? -1.0 : 1.0;
    if (exponent == 0) return sign * std::ldexp(fraction, -24);
    if (exponent == 31) return fraction ? NAN : sign * INFINITY;
    return sign * std::ldexp(1024.0 + fraction, exponent - 25);
}

uint32_t halfBits(double v) {
    uint32_t sign = std::signbit(v) ? 0x8000 : 0;
    v = std::fabs(v);
    if (v == 0) return sign;
    int e;
    const double mant = std::frexp(v, &e);                         // v = mant * 2^e, mant in [0.5, 1)
    const int exponent = e + 14;                                   // biased exponent of 1.xxx * 2^(e-1)
    if (exponent <= 0) return sign | uint32_t(std::ldexp(v, 24));  // subnormal
    return sign | uint32_t(exponent) << 10 | (uint32_t(std::ldexp(mant, 11)) & 0x3ff);
}

}  // namespace

const FormatInfo& gemmFormat(const std::string& name) {
    for (const FormatInfo& f : kFormats)
        if (name == f.name) return f;
    throw InternalError("workloads: unknown GEMM format '" + name + "'");
}

double decodeElement(const FormatInfo& f, uint32_t bits, bool is_signed) {
    if (f.integer) return is_signed ? double(int8_t(uint8_t(bits))) : double(uint8_t(bits));
    if (fp16Elements(f)) return fromHalfBits(bits & 0xffff);
    if (bf16Elements(f)) return fromFloatBits((bits & 0xffff) << 16);
    return fromFloatBits(bits);  // tf32 values are fp32 whose low 13 fraction bits are zero
}

double decodeAccumulator(const FormatInfo& f, uint32_t bits) {
    switch (f.format) {
        case GemmFormat::Int8: return double(int32_t(bits));
        case GemmFormat::Fp16Fp16: return fromHalfBits(bits & 0xffff);
        case GemmFormat::Bf16Bf16: return fromFloatBits((bits & 0xffff) << 16);
        default: return fromFloatBits(bits);
    }
}

uint32_t encodeElement(const FormatInfo& f, double value) {
    if (f.integer) return uint32_t(int64_t(value)) & 0xff;
    if (fp16Elements(f)) return halfBits(value);
    if (bf16Elements(f)) return floatBits(float(value)) >> 16;
    return floatBits(float(value));
}

std::vector<uint32_t> makeElements(const FormatInfo& f, const std::string& data, size_t count,
                                   std::mt19937_64& rng) {
    std::vector<uint32_t> out(count);
    if (data == "full_range" && f.integer) {
        for (auto& v : out) v = uint32_t(rng() & 0xff);
        return out;
    }
    if (data == "exact" && !f.integer) {
        // |partial sums| stay below 2^8 (bf16 accumulator) or 2^11 (fp16) for the generator's k.
        const int top = f.accumulator_bytes == 2 ? 2 : 4;
        for (auto& v : out) v = encodeElement(f, double(int(rng() % (2 * top + 1)) - top));
        return out;
    }
    if (data == "random" && !f.integer) {
        // Values in (-2, 2) with as many significant bits as the element format holds.
        const int bits = bf16Elements(f) ? 8 : 11;
        const int top = (1 << bits) - 1;
        for (auto& v : out)
            v = encodeElement(f, std::ldexp(double(int(rng() % (2 * top + 1)) - top), 1 - bits));
        return out;
    }
    throw InternalError("workloads: data class '" + data + "' does not fit format " + f.name);
}

GemmExpectation hostGemm(const FormatInfo& f, bool is_signed, bool exact_data, uint32_t m, uint32_t n,
                         uint32_t k, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b) {
    GemmExpectation e;
    e.value.assign(size_t(m) * n, 0.0);
    e.bound.assign(size_t(m) * n, 0.0);
    const uint32_t steps = (k + f.k_step - 1) / f.k_step;
    // Accumulator precision: eps = 2^-(p-1) and the smallest normal.
    const double eps = f.accumulator_bytes == 4           ? std::ldexp(1.0, -23)
                       : f.format == GemmFormat::Fp16Fp16 ? std::ldexp(1.0, -10)
                                                          : std::ldexp(1.0, -7);
    const double min_normal = f.format == GemmFormat::Fp16Fp16 ? std::ldexp(1.0, -14) : std::ldexp(1.0, -126);
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t j = 0; j < n; ++j) {
            if (f.integer) {
                int64_t sum = 0;
                for (uint32_t t = 0; t < k; ++t)
                    sum += int64_t(decodeElement(f, a[size_t(i) * k + t], is_signed)) *
                           int64_t(decodeElement(f, b[size_t(t) * n + j], is_signed));
                e.value[size_t(i) * n + j] = double(int32_t(uint32_t(uint64_t(sum))));
                continue;
            }
            double sum = 0, magnitude = 0;
            for (uint32_t t = 0; t < k; ++t) {
                const double p = decodeElement(f, a[size_t(i) * k + t], false) *
                                 decodeElement(f, b[size_t(t) * n + j], false);
                sum += p;
                magnitude += std::fabs(p);
            }
            e.value[size_t(i) * n + j] = sum;
            if (!exact_data)
                e.bound[size_t(i) * n + j] =
                    double(f.k_step + 2) * double(steps + 1) * eps * magnitude * 1.0001 +
                    double(f.k_step + 2) * steps * min_normal;
        }
    return e;
}

bool accepts(const FormatInfo& f, double expected, double bound, uint32_t actual_bits) {
    if (f.integer) return uint32_t(int32_t(expected)) == actual_bits;
    const double actual = decodeAccumulator(f, actual_bits);
    if (std::isnan(actual)) return false;
    return std::fabs(actual - expected) <= bound;
}

}  // namespace cts::workloads
