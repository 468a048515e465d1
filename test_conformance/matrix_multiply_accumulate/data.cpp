// Operand data of the matrix_multiply_accumulate cases (see data.h for the classes).
#include "test_conformance/matrix_multiply_accumulate/data.h"

#include <cmath>
#include <cstdint>

#include "test_common/harness/model/case.h"

namespace cts::mma {
namespace {

using reference::accumulatorBits;
using reference::elementBits;
using reference::MmaAccumulator;
using reference::MmaElement;
using reference::MmaShape;
using reference::RawMatrix;

// The largest integer up to which every integer is exact in the result format (int32: no limit here).
double exactIntegerLimit(MmaAccumulator result) {
    switch (result) {
        case MmaAccumulator::Fp32: return 16777216.0;  // 2^24
        case MmaAccumulator::Fp16: return 2048.0;      // 2^11
        case MmaAccumulator::Bf16: return 256.0;       // 2^8
        case MmaAccumulator::Int32: break;
    }
    return 1e18;
}

uint32_t elementBitsOf(MmaElement e, double v) {
    if (reference::isInteger(e)) return uint32_t(int64_t(v)) & ((1u << elementBits(e)) - 1);
    return reference::encodeExact(e, v);
}

uint32_t accumulatorBitsOf(MmaAccumulator a, double v) {
    if (a == MmaAccumulator::Int32) return uint32_t(int64_t(v));
    return reference::encodeExactAccumulator(a, v);
}

// Integer element range of A (is_a) or B.
void intRange(const MmaShape& s, bool is_a, int64_t* lo, int64_t* hi) {
    MmaElement e = is_a ? s.a : s.b;
    bool sign = is_a ? s.a_signed : s.b_signed;
    uint32_t bits = elementBits(e);
    *lo = sign ? -(int64_t(1) << (bits - 1)) : 0;
    *hi = sign ? (int64_t(1) << (bits - 1)) - 1 : (int64_t(1) << bits) - 1;
}

// +-(1.f) x 2^e with a random significand of `p` bits and e in [e_lo, e_hi]: exact in a format of p bits.
double randomNormal(std::mt19937_64& rng, int p, int e_lo, int e_hi) {
    uint64_t frac = rng() & ((uint64_t(1) << (p - 1)) - 1);
    int e = e_lo + int(rng() % uint64_t(e_hi - e_lo + 1));
    double v = std::ldexp(1.0 + std::ldexp(double(frac), -(p - 1)), e);
    return (rng() & 1) ? -v : v;
}

int significandBits(MmaElement e) {
    return e == MmaElement::Bf16 ? 8 : 11;  // fp16, tf32: 11
}
int significandBits(MmaAccumulator a) {
    return a == MmaAccumulator::Fp32 ? 24 : a == MmaAccumulator::Fp16 ? 11 : 8;
}

template <typename F>
RawMatrix fill(uint32_t rows, uint32_t cols, F value) {
    RawMatrix m(rows, cols);
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t c = 0; c < cols; ++c) m.at(r, c) = value(r, c);
    return m;
}

}  // namespace

DataClass parseDataClass(const std::string& name, const MmaShape& s) {
    const bool integer = reference::isInteger(s.a);
    DataClass d;
    if (name == "exact")
        d = DataClass::Exact;
    else if (name == "full_range")
        d = DataClass::FullRange;
    else if (name == "extremes")
        d = DataClass::Extremes;
    else if (name == "position")
        d = DataClass::Position;
    else if (name == "random")
        d = DataClass::Random;
    else if (name == "near_max")
        d = DataClass::NearMax;
    else
        throw InternalError("matrix_multiply_accumulate: unknown data class '" + name + "'");
    bool ok = (d == DataClass::FullRange || d == DataClass::Extremes) ? integer
              : d == DataClass::Random                                ? !integer
              : d == DataClass::NearMax                               ? s.result == MmaAccumulator::Fp16
                                                                      : true;
    if (!ok)
        throw InternalError("matrix_multiply_accumulate: data class '" + name + "' does not apply to " +
                            s.str());
    return d;
}

int exactElementLimit(const MmaShape& s, uint32_t steps) {
    const double limit = exactIntegerLimit(s.result);
    int l = 3;
    while (l > 1 && double(steps) * s.k * l * l + kExactCLimit > limit) --l;
    if (double(steps) * s.k + kExactCLimit > limit)
        throw InternalError("matrix_multiply_accumulate: no exact data for " + std::to_string(steps) +
                            " chained steps of " + s.str());
    return l;
}

Operands makeOperands(const MmaShape& s, DataClass data, uint32_t steps, uint32_t salt,
                      std::mt19937_64& rng) {
    Operands o;
    const bool integer = reference::isInteger(s.a);
    auto uniform = [&](int64_t lo, int64_t hi) {
        return double(lo + int64_t(rng() % uint64_t(hi - lo + 1)));
    };
    switch (data) {
        case DataClass::Exact: {
            const int l = exactElementLimit(s, steps);
            auto element = [&](bool is_a) {
                bool sign = !integer || (is_a ? s.a_signed : s.b_signed);
                return uniform(sign ? -l : 0, l);
            };
            o.a = fill(s.m, s.k, [&](uint32_t, uint32_t) { return elementBitsOf(s.a, element(true)); });
            o.b = fill(s.k, s.n, [&](uint32_t, uint32_t) { return elementBitsOf(s.b, element(false)); });
            o.c = fill(s.m, s.n, [&](uint32_t, uint32_t) {
                return accumulatorBitsOf(s.c, uniform(-kExactCLimit, kExactCLimit));
            });
            break;
        }
        case DataClass::FullRange: {
            const uint32_t a_mask = (1u << elementBits(s.a)) - 1, b_mask = (1u << elementBits(s.b)) - 1;
            o.a = fill(s.m, s.k, [&](uint32_t, uint32_t) { return uint32_t(rng()) & a_mask; });
            o.b = fill(s.k, s.n, [&](uint32_t, uint32_t) { return uint32_t(rng()) & b_mask; });
            o.c = fill(s.m, s.n, [&](uint32_t, uint32_t) { return uint32_t(rng()); });
            break;
        }
        case DataClass::Extremes: {
            int64_t lo, hi;
            intRange(s, true, &lo, &hi);
            const uint32_t a = elementBitsOf(s.a, double(s.a_signed ? lo : hi));
            intRange(s, false, &lo, &hi);
            const uint32_t b = elementBitsOf(s.b, double(s.b_signed ? lo : hi));
            o.a = fill(s.m, s.k, [&](uint32_t, uint32_t) { return a; });
            o.b = fill(s.k, s.n, [&](uint32_t, uint32_t) { return b; });
            o.c = fill(s.m, s.n, [&](uint32_t r, uint32_t) { return r % 2 ? 0x80000000u : 0x7fffffffu; });
            break;
        }
        case DataClass::Position: {
            if (integer) {
                int64_t a_lo, a_hi, b_lo, b_hi;
                intRange(s, true, &a_lo, &a_hi);
                intRange(s, false, &b_lo, &b_hi);
                o.a = fill(s.m, s.k, [&](uint32_t r, uint32_t k) {
                    return elementBitsOf(s.a,
                                         double(a_lo + (r * 37 + k * 11 + salt * 5) % (a_hi - a_lo + 1)));
                });
                o.b = fill(s.k, s.n, [&](uint32_t k, uint32_t n) {
                    return elementBitsOf(s.b,
                                         double(b_lo + (k * 13 + n * 29 + salt * 3) % (b_hi - b_lo + 1)));
                });
                o.c = fill(s.m, s.n, [&](uint32_t r, uint32_t n) { return (salt << 24) | (r << 12) | n; });
            } else {
                if (double(steps) * s.k * 6 + kExactCLimit > exactIntegerLimit(s.result))
                    throw InternalError("matrix_multiply_accumulate: position data is not exact for " +
                                        s.str());
                o.a = fill(s.m, s.k, [&](uint32_t r, uint32_t k) {
                    return elementBitsOf(s.a, double(int((r * 5 + k * 3 + salt) % 7) - 3));
                });
                o.b = fill(s.k, s.n, [&](uint32_t k, uint32_t n) {
                    return elementBitsOf(s.b, double(int((k * 3 + n * 5 + salt) % 5) - 2));
                });
                o.c = fill(s.m, s.n, [&](uint32_t r, uint32_t n) {
                    return accumulatorBitsOf(s.c, double(int((r * s.n + n + salt) % 41) - kExactCLimit));
                });
            }
            break;
        }
        case DataClass::Random: {
            const int pa = significandBits(s.a), pb = significandBits(s.b), pc = significandBits(s.c);
            o.a = fill(s.m, s.k,
                       [&](uint32_t, uint32_t) { return elementBitsOf(s.a, randomNormal(rng, pa, -3, 3)); });
            o.b = fill(s.k, s.n,
                       [&](uint32_t, uint32_t) { return elementBitsOf(s.b, randomNormal(rng, pb, -3, 3)); });
            o.c = fill(s.m, s.n, [&](uint32_t, uint32_t) {
                return accumulatorBitsOf(s.c, randomNormal(rng, pc, -3, 5));
            });
            break;
        }
        case DataClass::NearMax: {
            // a in [14, 16) (fp16 spacing 2^-7), b in [220, 228) (spacing 1/8), c in [0, 500) (spacing 1/2):
            // 16 products of at most 3648 and c sum to at most 58,868 < 0.9 x 65,504; odd columns negative.
            o.a = fill(s.m, s.k, [&](uint32_t, uint32_t) {
                return elementBitsOf(s.a, 14.0 + std::ldexp(double(rng() % 256), -7));
            });
            o.b = fill(s.k, s.n, [&](uint32_t, uint32_t n) {
                double v = 220.0 + double(rng() % 64) / 8.0;
                return elementBitsOf(s.b, n % 2 ? -v : v);
            });
            o.c = fill(s.m, s.n, [&](uint32_t, uint32_t n) {
                double v = double(rng() % 1000) / 2.0;
                return accumulatorBitsOf(s.c, n % 2 ? -v : v);
            });
            break;
        }
    }
    return o;
}

void poisonIgnoredA(const MmaShape& s, reference::LaneData& lanes) {
    const uint32_t bits = reference::aLayout(s).component_bits;
    for (uint32_t lane = 0; lane < lanes.size(); ++lane)
        for (uint32_t comp = 0; comp < lanes[lane].size(); ++comp) {
            if (!reference::aComponentIgnored(s, lane, comp)) continue;
            lanes[lane][comp] = reference::isInteger(s.a)
                                    ? 0x5A5A5A5Au & (bits >= 32 ? ~0u : (1u << bits) - 1)
                                    : reference::encodeExact(s.a, 2048.0 + 64.0 * lane);
        }
}

}  // namespace cts::mma
