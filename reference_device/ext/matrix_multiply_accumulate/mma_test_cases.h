// Shared by the MMA unit tests: matrices of small values, packed into lane operands the way the SPIR-V
// spec's "Mapping Matrix Data to Invocations" describes (written here independently of mma_layout.cpp),
// and the expected Result computed with plain loops.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "reference_device/ext/matrix_multiply_accumulate/mma_ops.h"
#include "reference_device/profile.h"

namespace refdev::spirv::mma::test {

inline TypeInfo makeType(char kind, uint32_t bits, uint32_t components) {
    TypeInfo t;
    t.component_kind = kind == 'f' ? TypeInfo::Kind::Float : TypeInfo::Kind::Int;
    t.kind = components == 1 ? t.component_kind : TypeInfo::Kind::Vector;
    t.component_bits = bits;
    t.components = components;
    t.byte_size = bits / 8 * components;
    return t;
}

inline const Profile& productProfile(const std::string& name) {
    for (const Profile& p : allProfiles())
        if (p.name == name) return p;
    ADD_FAILURE() << "no profile " << name;
    return allProfiles().front();
}
inline const Profile& hpc() {
    return productProfile("xe_hpc");  // N = 16 with TF32
}
inline const Profile& hpg() {
    return productProfile("xe_hpg");  // N = 8
}

inline const Profile* profileFor(uint32_t n) {
    return n == 8 ? &hpg() : &hpc();
}

enum class Row { Int8, Int4, Fp16F32, Bf16F32, Fp16F16, Bf16Bf16, Tf32 };
inline const char* rowName(Row r) {
    static const char* kNames[] = {"int8",      "int4",       "fp16->f32", "bf16->f32",
                                   "fp16->f16", "bf16->bf16", "tf32"};
    return kNames[int(r)];
}

struct Case {
    Row row = Row::Int8;
    uint32_t n = 16, m = 4;
    bool a_signed = true, b_signed = true;
    std::vector<int64_t> a, b, c;  // M x K, K x N, M x N values (raw bits for packed integers)

    uint32_t k() const { return row == Row::Int8 ? 32 : row == Row::Int4 ? 64 : row == Row::Tf32 ? 8 : 16; }
    uint32_t elementBits() const {
        return row == Row::Int8 ? 8 : row == Row::Int4 ? 4 : row == Row::Tf32 ? 32 : 16;
    }
    bool integer() const { return row == Row::Int8 || row == Row::Int4; }
    uint32_t operands() const {
        switch (row) {
            case Row::Int8: return 0x30 | (a_signed ? 0x1 : 0) | (b_signed ? 0x2 : 0);
            case Row::Int4: return 0xC0 | (a_signed ? 0x1 : 0) | (b_signed ? 0x2 : 0);
            case Row::Fp16F32:
            case Row::Fp16F16: return 0xC00;
            case Row::Bf16F32: return 0x3000;
            case Row::Bf16Bf16: return 0x300C;
            case Row::Tf32: return 0x300;
        }
        return 0;
    }
    TypeInfo resultType() const {
        if (integer()) return makeType('i', 32, m);
        if (row == Row::Fp16F16) return makeType('f', 16, m);
        if (row == Row::Bf16Bf16) return makeType('i', 16, m);
        return makeType('f', 32, m);
    }
    TypeInfo aType() const {
        if (row == Row::Tf32) return makeType('f', 32, (m + 1) / 2);
        return makeType('i', n == 8 ? 32 : 16, m);
    }
    TypeInfo bType() const { return makeType(row == Row::Tf32 ? 'f' : 'i', 32, 8); }
};

inline uint32_t halfBits(int64_t v) {  // small integers only (exact)
    if (v == 0) return 0;
    uint32_t sign = v < 0 ? 0x8000 : 0, a = uint32_t(v < 0 ? -v : v), e = 0;
    while ((a >> (e + 1)) != 0) ++e;
    return sign | (e + 15) << 10 | (uint32_t((uint64_t(a) << 10) >> e) & 0x3FF);
}
inline uint32_t floatBits(double v) {
    float f = float(v);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}
// Encoding of an A or B element.
inline uint32_t encodeElement(Row row, int64_t v) {
    switch (row) {
        case Row::Int8: return uint32_t(v) & 0xFF;
        case Row::Int4: return uint32_t(v) & 0xF;
        case Row::Fp16F32:
        case Row::Fp16F16: return halfBits(v);
        case Row::Bf16F32:
        case Row::Bf16Bf16: return floatBits(double(v)) >> 16;
        case Row::Tf32: return floatBits(double(v));
    }
    return 0;
}
// Encoding of a C or Result element.
inline uint32_t encodeAcc(Row row, int64_t v) {
    switch (row) {
        case Row::Int8:
        case Row::Int4: return uint32_t(v);
        case Row::Fp16F16: return halfBits(v);
        case Row::Bf16Bf16: return floatBits(double(v)) >> 16;
        default: return floatBits(double(v));
    }
}
inline int64_t elementValue(const Case& cs, int64_t raw, bool is_signed) {
    if (!cs.integer() || !is_signed) return raw;
    return cs.row == Row::Int8 ? int64_t(int8_t(uint8_t(raw))) : (raw & 0x8 ? raw - 16 : raw);
}

inline Case randomCase(Row row, uint32_t n, uint32_t m, uint32_t seed, bool a_signed = true,
                       bool b_signed = true) {
    Case cs;
    cs.row = row, cs.n = n, cs.m = m, cs.a_signed = a_signed, cs.b_signed = b_signed;
    std::mt19937 rng(seed);
    int64_t lo = -8, hi = 8, clo = -100, chi = 100;
    if (row == Row::Int8) lo = 0, hi = 255, clo = -1000000, chi = 1000000;
    if (row == Row::Int4) lo = 0, hi = 15, clo = -1000000, chi = 1000000;
    if (row == Row::Bf16Bf16) lo = -3, hi = 3;  // every sum exact in bf16 (|sum| < 256)
    auto fill = [&](std::vector<int64_t>& v, size_t count, int64_t l, int64_t h) {
        std::uniform_int_distribution<int64_t> d(l, h);
        v.resize(count);
        for (int64_t& x : v) x = d(rng);
    };
    const uint32_t k = cs.k();
    fill(cs.a, size_t(m) * k, lo, hi), fill(cs.b, size_t(k) * n, lo, hi), fill(cs.c, size_t(m) * n, clo, chi);
    return cs;
}

// Every row of the OpenCL environment table as (N, row).
const std::pair<uint32_t, Row> kAllRows[] = {
    {8, Row::Int8},     {8, Row::Int4},      {8, Row::Fp16F32},  {8, Row::Bf16F32},
    {16, Row::Int8},    {16, Row::Int4},     {16, Row::Fp16F32}, {16, Row::Bf16F32},
    {16, Row::Fp16F16}, {16, Row::Bf16Bf16}, {16, Row::Tf32},
};

// Lane i's operands as components zero-extended to 32 bits.
struct LaneOperands {
    std::vector<uint32_t> a, b, c;
};
inline LaneOperands laneOperands(const Case& cs, uint32_t i) {
    const uint32_t n = cs.n, m = cs.m, k = cs.k(), eb = cs.elementBits();
    LaneOperands o;
    o.a.assign(cs.aType().components, 0), o.b.assign(8, 0), o.c.assign(m, 0);
    if (n <= k) {  // lane i: columns [i*p, i*p+p) of row r in component r, lowest column lowest
        const uint32_t p = k / n;
        for (uint32_t r = 0; r < m; ++r)
            for (uint32_t j = 0; j < p; ++j)
                o.a[r] |= encodeElement(cs.row, cs.a[r * k + i * p + j]) << (j * eb);
    } else {  // lane i: component c holds row c * (N/K) + i / K of column i % K
        for (uint32_t comp = 0; comp < o.a.size(); ++comp) {
            const uint32_t r = comp * (n / k) + i / k;
            o.a[comp] = r < m ? encodeElement(cs.row, cs.a[r * k + i % k]) : 0x7F800001u + i;  // ignored
        }
    }
    const uint32_t per = eb <= 16 ? 32 / eb : 1;  // lane i: column i, lowest row in the lowest bits
    for (uint32_t w = 0; w < 8; ++w)
        for (uint32_t j = 0; j < per; ++j)
            o.b[w] |= encodeElement(cs.row, cs.b[(w * per + j) * n + i]) << (j * eb);
    for (uint32_t r = 0; r < m; ++r) o.c[r] = encodeAcc(cs.row, cs.c[r * n + i]);
    return o;
}

// The components as bytes, `bits` wide each.
inline std::vector<uint8_t> toBytes(const std::vector<uint32_t>& words, uint32_t bits) {
    std::vector<uint8_t> v(words.size() * bits / 8);
    for (size_t c = 0; c < words.size(); ++c) std::memcpy(v.data() + c * bits / 8, &words[c], bits / 8);
    return v;
}

using Columns = std::vector<std::vector<uint32_t>>;  // [lane][row]

inline Columns expected(const Case& cs) {
    const uint32_t k = cs.k();
    Columns out(cs.n, std::vector<uint32_t>(cs.m));
    for (uint32_t r = 0; r < cs.m; ++r)
        for (uint32_t col = 0; col < cs.n; ++col) {
            int64_t sum = cs.c[r * cs.n + col];
            for (uint32_t j = 0; j < k; ++j)
                sum += elementValue(cs, cs.a[r * k + j], cs.a_signed) *
                       elementValue(cs, cs.b[j * cs.n + col], cs.b_signed);
            out[col][r] = encodeAcc(cs.row, sum);  // integers: the low 32 bits
        }
    return out;
}

}  // namespace refdev::spirv::mma::test
