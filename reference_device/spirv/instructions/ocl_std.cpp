// OpenCL.std extended instructions (OpExtInst): integer and float built-ins, select/bitselect, geometric
// helpers, vloadn/vstoren, the half load/store family and prefetch (printf is in printf.cpp). Floats compute
// in double (long double where the result must be exact) and round once to the result type.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include "reference_device/spirv/decode.h"
#include "reference_device/spirv/half.h"
#include "reference_device/spirv/interp.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {
namespace {

using K = TypeInfo::Kind;

enum Shape : uint8_t {
    IntOp,
    FloatOp,
    SelectOp,
    LoadN,
    StoreN,
    LoadHalf,
    StoreHalf,
    Geometric,
    ScalarInt,
    PtrOut,
    Printf
};

int64_t sext(uint64_t v, unsigned bits) {
    return bits == 64 ? int64_t(v) : int64_t(v << (64 - bits)) >> (64 - bits);
}
uint64_t mask(unsigned bits) {
    return bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
}

uint64_t intOp(uint16_t n, unsigned bits, uint64_t a, uint64_t b, uint64_t c) {
    const uint64_t m = mask(bits);
    const int64_t sa = sext(a, bits), sb = sext(b, bits), sc = sext(c, bits);
    const int64_t smax = int64_t(m >> 1), smin = -smax - 1;
    auto sclamp = [&](__int128 v) { return uint64_t(v > smax ? smax : v < smin ? smin : int64_t(v)); };
    auto uclamp = [&](unsigned __int128 v) { return uint64_t(v > m ? m : uint64_t(v)); };
    switch (n) {
        case OpenCLLIB::SAbs: return uint64_t(sa < 0 ? -sa : sa);
        case OpenCLLIB::UAbs: return a;
        case OpenCLLIB::SAbs_diff:
            return uint64_t(sa > sb ? (unsigned __int128)(sa - (__int128)sb)
                                    : (unsigned __int128)(sb - (__int128)sa));
        case OpenCLLIB::UAbs_diff: return a > b ? a - b : b - a;
        case OpenCLLIB::SAdd_sat: return sclamp((__int128)sa + sb);
        case OpenCLLIB::UAdd_sat: return uclamp((unsigned __int128)a + b);
        case OpenCLLIB::SSub_sat: return sclamp((__int128)sa - sb);
        case OpenCLLIB::USub_sat: return a > b ? a - b : 0;
        case OpenCLLIB::SHadd: return uint64_t(int64_t(((__int128)sa + sb) >> 1));
        case OpenCLLIB::UHadd: return uint64_t(((unsigned __int128)a + b) >> 1);
        case OpenCLLIB::SRhadd: return uint64_t(int64_t(((__int128)sa + sb + 1) >> 1));
        case OpenCLLIB::URhadd: return uint64_t(((unsigned __int128)a + b + 1) >> 1);
        case OpenCLLIB::SClamp: return uint64_t(sa < sb ? sb : sa > sc ? sc : sa);
        case OpenCLLIB::UClamp: return a < b ? b : a > c ? c : a;
        case OpenCLLIB::SMax: return uint64_t(sa > sb ? sa : sb);
        case OpenCLLIB::UMax: return a > b ? a : b;
        case OpenCLLIB::SMin: return uint64_t(sa < sb ? sa : sb);
        case OpenCLLIB::UMin: return a < b ? a : b;
        case OpenCLLIB::Clz: {
            unsigned z = 0;
            for (int i = int(bits) - 1; i >= 0 && !((a >> i) & 1); --i) ++z;
            return z;
        }
        case OpenCLLIB::Ctz: {
            unsigned z = 0;
            for (unsigned i = 0; i < bits && !((a >> i) & 1); ++i) ++z;
            return z;
        }
        case OpenCLLIB::Popcount: return uint64_t(__builtin_popcountll(a & m));
        case OpenCLLIB::SMul_hi: return uint64_t((__int128)sa * sb >> bits);
        case OpenCLLIB::UMul_hi: return uint64_t((unsigned __int128)a * b >> bits);
        case OpenCLLIB::SMad_hi: return uint64_t(((__int128)sa * sb >> bits) + sc);
        case OpenCLLIB::UMad_hi: return uint64_t(((unsigned __int128)a * b >> bits) + c);
        case OpenCLLIB::SMad_sat: return sclamp((__int128)sa * sb + sc);
        case OpenCLLIB::UMad_sat: {
            unsigned __int128 p = (unsigned __int128)a * b;
            return p > m ? m : uclamp(p + c);
        }
        case OpenCLLIB::Rotate: {
            unsigned s = unsigned(b % bits);
            return s ? ((a << s) | (a >> (bits - s))) : a;
        }
        case OpenCLLIB::SMul24: return uint64_t(sext(a, 24) * sext(b, 24));
        case OpenCLLIB::UMul24: return (a & 0xffffff) * (b & 0xffffff);
        case OpenCLLIB::SMad24: return uint64_t(sext(a, 24) * sext(b, 24) + sc);
        case OpenCLLIB::UMad24: return (a & 0xffffff) * (b & 0xffffff) + c;
        case OpenCLLIB::Bitselect: return (a & ~c) | (b & c);
        default: return 0;
    }
}

double floatOp(uint16_t n, double a, double b, double c, int64_t k) {
    switch (n) {
        case OpenCLLIB::Fabs: return std::fabs(a);
        case OpenCLLIB::Floor: return std::floor(a);
        case OpenCLLIB::Ceil: return std::ceil(a);
        case OpenCLLIB::Trunc: return std::trunc(a);
        case OpenCLLIB::Round: return std::round(a);
        case OpenCLLIB::Rint: return std::nearbyint(a);
        case OpenCLLIB::Sqrt:
        case OpenCLLIB::Half_sqrt:
        case OpenCLLIB::Native_sqrt: return std::sqrt(a);
        case OpenCLLIB::Rsqrt:
        case OpenCLLIB::Half_rsqrt:
        case OpenCLLIB::Native_rsqrt: return 1.0 / std::sqrt(a);
        case OpenCLLIB::Half_recip:
        case OpenCLLIB::Native_recip: return 1.0 / a;  // half_recip, native_recip
        case OpenCLLIB::Half_divide:
        case OpenCLLIB::Native_divide: return a / b;  // half_divide, native_divide
        case OpenCLLIB::Fma:
        case OpenCLLIB::Mad: return std::fma(a, b, c);
        case OpenCLLIB::Fmin:
        case OpenCLLIB::FMin_common: return std::isnan(a) ? b : std::isnan(b) ? a : (b < a ? b : a);
        case OpenCLLIB::Fmax:
        case OpenCLLIB::FMax_common: return std::isnan(a) ? b : std::isnan(b) ? a : (a < b ? b : a);
        case OpenCLLIB::FClamp: return std::fmin(std::fmax(a, b), c);
        case OpenCLLIB::Fmod: return std::fmod(a, b);
        case OpenCLLIB::Remainder: return std::remainder(a, b);
        case OpenCLLIB::Copysign: return std::copysign(a, b);
        // A NaN operand gives NaN (as C99 and libclc read "x - y if x > y, +0 if x <= y": neither holds).
        case OpenCLLIB::Fdim: return std::isnan(a) || std::isnan(b) ? a + b : a > b ? a - b : 0.0;
        case OpenCLLIB::Hypot: return std::hypot(a, b);
        case OpenCLLIB::Maxmag:
            return std::fabs(a) > std::fabs(b) ? a : std::fabs(b) > std::fabs(a) ? b : std::fmax(a, b);
        case OpenCLLIB::Minmag:
            return std::fabs(a) < std::fabs(b) ? a : std::fabs(b) < std::fabs(a) ? b : std::fmin(a, b);
        case OpenCLLIB::Exp:
        case OpenCLLIB::Half_exp:
        case OpenCLLIB::Native_exp: return std::exp(a);
        case OpenCLLIB::Exp2:
        case OpenCLLIB::Half_exp2:
        case OpenCLLIB::Native_exp2: return std::exp2(a);
        case OpenCLLIB::Exp10:
        case OpenCLLIB::Half_exp10:
        case OpenCLLIB::Native_exp10: return std::pow(10.0, a);
        case OpenCLLIB::Expm1: return std::expm1(a);
        case OpenCLLIB::Log:
        case OpenCLLIB::Half_log:
        case OpenCLLIB::Native_log: return std::log(a);
        case OpenCLLIB::Log2:
        case OpenCLLIB::Half_log2:
        case OpenCLLIB::Native_log2: return std::log2(a);
        case OpenCLLIB::Log10:
        case OpenCLLIB::Half_log10:
        case OpenCLLIB::Native_log10: return std::log10(a);
        case OpenCLLIB::Log1p: return std::log1p(a);
        case OpenCLLIB::Logb: return std::logb(a);
        case OpenCLLIB::Pow:
        case OpenCLLIB::Powr:
        case OpenCLLIB::Half_powr:
        case OpenCLLIB::Native_powr: return std::pow(a, b);
        case OpenCLLIB::Pown: return std::pow(a, double(k));
        case OpenCLLIB::Rootn:
            return k == 0               ? NAN
                   : (a < 0 && (k & 1)) ? -std::pow(-a, 1.0 / double(k))
                                        : std::pow(a, 1.0 / double(k));
        case OpenCLLIB::Ldexp: return std::ldexp(a, int(k < -100000 ? -100000 : k > 100000 ? 100000 : k));
        case OpenCLLIB::Sin:
        case OpenCLLIB::Half_sin:
        case OpenCLLIB::Native_sin: return std::sin(a);
        case OpenCLLIB::Cos:
        case OpenCLLIB::Half_cos:
        case OpenCLLIB::Native_cos: return std::cos(a);
        case OpenCLLIB::Tan:
        case OpenCLLIB::Half_tan:
        case OpenCLLIB::Native_tan: return std::tan(a);
        case OpenCLLIB::Asin: return std::asin(a);
        case OpenCLLIB::Acos: return std::acos(a);
        case OpenCLLIB::Atan: return std::atan(a);
        case OpenCLLIB::Atan2: return std::atan2(a, b);
        case OpenCLLIB::Sinh: return std::sinh(a);
        case OpenCLLIB::Cosh: return std::cosh(a);
        case OpenCLLIB::Tanh: return std::tanh(a);
        case OpenCLLIB::Cbrt: return std::cbrt(a);
        case OpenCLLIB::Erf: return std::erf(a);
        case OpenCLLIB::Erfc: return std::erfc(a);
        case OpenCLLIB::Tgamma: return std::tgamma(a);
        case OpenCLLIB::Lgamma: return std::lgamma(a);
        case OpenCLLIB::Mix: return a + (b - a) * c;
        case OpenCLLIB::Step: return b < a ? 0.0 : 1.0;  // step(edge, x)
        case OpenCLLIB::Smoothstep: {
            double t = std::fmin(std::fmax((c - a) / (b - a), 0.0), 1.0);
            return t * t * (3 - 2 * t);
        }
        case OpenCLLIB::Sign: return std::isnan(a) ? 0.0 : a > 0 ? 1.0 : a < 0 ? -1.0 : std::copysign(0.0, a);
        case OpenCLLIB::Degrees: return a * (180.0 / M_PI);
        case OpenCLLIB::Radians: return a * (M_PI / 180.0);
        default: return NAN;
    }
}

double loadF(const uint8_t* p, uint32_t w) {
    return w == 2 ? halfToFloat(rd<uint16_t>(p, 0)) : w == 4 ? double(rd<float>(p, 0)) : rd<double>(p, 0);
}
// nextafter in the operands' own precision: stepping a double would move by a double's ulp, which rounds
// back to x for float and half.
double nextAfter(double x, double y, uint32_t w) {
    if (w == 8) return std::nextafter(x, y);
    if (w == 4) return std::nextafter(float(x), float(y));
    if (std::isnan(x) || std::isnan(y)) return x + y;
    if (x == y) return y;
    if (x == 0) return halfToFloat(uint16_t((y < 0 ? 0x8000 : 0) | 1));  // the smallest subnormal toward y
    const uint16_t h = doubleToHalf(x);                                  // exact: x is a half
    return halfToFloat(uint16_t((x < y) == (x > 0) ? h + 1 : h - 1));    // away from or toward zero
}

void storeF(uint8_t* p, uint32_t w, double v) {
    if (w == 2)
        wr<uint16_t>(p, 0, doubleToHalf(v));
    else if (w == 4)
        wr<float>(p, 0, float(v));
    else
        wr<double>(p, 0, v);
}
uint64_t loadU(const uint8_t* p, uint32_t w) {
    uint64_t v = 0;
    std::memcpy(&v, p, w);
    return v;
}

}  // namespace

// Insn layout: sub = instruction number, flags = Shape, width = result component bytes, n = result
// components, aux -> [operand count, (reg, component bytes, components)*], c = literal (n of vloadn, rounding
// mode).
bool execOclStd(const Insn& in, GroupRun& g, Lane& lane) {
    uint8_t* regs = lane.regs;
    const uint32_t* ops = g.m->aux.data() + in.aux;
    const uint32_t count = ops[0];
    auto reg = [&](uint32_t k) { return ops[1 + 3 * k]; };
    auto cw = [&](uint32_t k) { return ops[2 + 3 * k]; };
    auto comps = [&](uint32_t k) { return ops[3 + 3 * k]; };
    const uint32_t w = in.width;
    switch (Shape(in.flags)) {
        case IntOp:
            for (uint32_t i = 0; i < in.n; ++i) {
                uint64_t v[3] = {0, 0, 0};
                for (uint32_t k = 0; k < count && k < 3; ++k)
                    v[k] = loadU(regs + reg(k) + (comps(k) > 1 ? i : 0) * cw(k), cw(k));
                uint64_t r;
                if (in.sub == OpenCLLIB::U_Upsample || in.sub == OpenCLLIB::S_Upsample)
                    r = (v[0] << (8 * cw(0))) | v[1];
                else
                    r = intOp(in.sub, 8 * w, v[0], v[1], v[2]);
                std::memcpy(regs + in.res + i * w, &r, w);
            }
            return true;
        case FloatOp: {
            uint8_t tmp[128];
            for (uint32_t i = 0; i < in.n; ++i) {
                double v[3] = {0, 0, 0};
                int64_t k_int = 0;
                for (uint32_t k = 0; k < count && k < 3; ++k) {
                    const uint8_t* p = regs + reg(k) + (comps(k) > 1 ? i : 0) * cw(k);
                    bool int_operand = (in.sub == OpenCLLIB::Ldexp || in.sub == OpenCLLIB::Pown ||
                                        in.sub == OpenCLLIB::Rootn) &&
                                       k == 1;
                    if (int_operand)
                        k_int = sext(loadU(p, cw(k)), 8 * cw(k));
                    else if (in.sub == OpenCLLIB::Nan)
                        v[k] = 0;
                    else
                        v[k] = loadF(p, cw(k));
                }
                uint8_t* out = tmp + i * w;
                if (in.sub == OpenCLLIB::Fma && w == 4) {
                    wr<float>(out, 0, std::fmaf(float(v[0]), float(v[1]), float(v[2])));
                } else if (in.sub == OpenCLLIB::Nextafter) {
                    storeF(out, w, nextAfter(v[0], v[1], w));
                } else if (in.sub == OpenCLLIB::Ilogb) {
                    int32_t r = std::ilogb(v[0]);
                    std::memcpy(out, &r, 4);
                } else if (in.sub == OpenCLLIB::Nan) {
                    if (w == 2)
                        wr<uint16_t>(out, 0, 0x7e00);
                    else if (w == 4)
                        wr<uint32_t>(out, 0, 0x7fc00000u);
                    else
                        wr<uint64_t>(out, 0, 0x7ff8000000000000ull);
                } else {
                    storeF(out, w, floatOp(in.sub, v[0], v[1], v[2], k_int));
                }
            }
            std::memcpy(regs + in.res, tmp, in.n * w);
            return true;
        }
        case SelectOp: {  // select(a, b, c): per component, c's most significant bit (vectors) or c != 0
                          // (scalars)
            for (uint32_t i = 0; i < in.n; ++i) {
                uint64_t c = loadU(regs + reg(2) + i * cw(2), cw(2));
                bool pick_b = in.n > 1 ? ((c >> (8 * cw(2) - 1)) & 1) : c != 0;
                std::memmove(regs + in.res + i * w, regs + reg(pick_b ? 1 : 0) + i * w, w);
            }
            return true;
        }
        case Geometric: {
            const uint32_t n = comps(0);
            auto comp = [&](uint32_t k, uint32_t i) { return loadF(regs + reg(k) + i * cw(k), cw(k)); };
            switch (in.sub) {
                case OpenCLLIB::Cross: {
                    double a[3] = {comp(0, 0), comp(0, 1), comp(0, 2)},
                           b[3] = {comp(1, 0), comp(1, 1), comp(1, 2)};
                    double r[4] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                                   a[0] * b[1] - a[1] * b[0], 0};
                    for (uint32_t i = 0; i < in.n; ++i) storeF(regs + in.res + i * w, w, r[i]);
                    return true;
                }
                case OpenCLLIB::Length:
                case OpenCLLIB::Fast_length:
                case OpenCLLIB::Distance:
                case OpenCLLIB::Fast_distance: {
                    double s = 0;
                    for (uint32_t i = 0; i < n; ++i) {
                        double d = comp(0, i) -
                                   ((in.sub == OpenCLLIB::Distance || in.sub == OpenCLLIB::Fast_distance)
                                        ? comp(1, i)
                                        : 0.0);
                        s += d * d;
                    }
                    storeF(regs + in.res, w, std::sqrt(s));
                    return true;
                }
                default: {  // normalize
                    double s = 0;
                    for (uint32_t i = 0; i < n; ++i) s += comp(0, i) * comp(0, i);
                    double l = std::sqrt(s);
                    uint8_t tmp[128];
                    for (uint32_t i = 0; i < n; ++i)
                        storeF(tmp + i * w, w, l == 0 ? comp(0, i) : comp(0, i) / l);
                    std::memcpy(regs + in.res, tmp, n * w);
                    return true;
                }
            }
        }
        case PtrOut: {  // fract, modf, sincos (float out); frexp, remquo, lgamma_r (int out): last operand
                        // points to it
            const uint32_t last = count - 1, n = in.n;
            const bool int_out =
                in.sub == OpenCLLIB::Frexp || in.sub == OpenCLLIB::Remquo || in.sub == OpenCLLIB::Lgamma_r;
            const uint32_t out_bytes = int_out ? 4 : w;
            uint8_t* dst = g.access(lane, in, rd<uint64_t>(regs, reg(last)), size_t(n) * out_bytes, true);
            if (!dst) return false;
            uint8_t tmp[128];
            for (uint32_t i = 0; i < n; ++i) {
                const double x = loadF(regs + reg(0) + i * w, w);
                const double y = count > 2 ? loadF(regs + reg(1) + i * w, w) : 0.0;
                double r = 0, second = 0;
                int k = 0;
                switch (in.sub) {
                    case OpenCLLIB::Fract: {
                        // fract returns min(x - floor(x), the largest value below 1) in the result type
                        const double below_one = w == 2   ? 0x1.ffcp-1
                                                 : w == 4 ? double(0x1.fffffep-1f)
                                                          : 0x1.fffffffffffffp-1;
                        second = std::floor(x);
                        r = std::isnan(x)   ? x
                            : std::isinf(x) ? std::copysign(0.0, x)
                                            : std::fmin(x - second, below_one);
                        break;
                    }
                    case OpenCLLIB::Modf: r = std::modf(x, &second); break;
                    case OpenCLLIB::Sincos:
                        r = std::sin(x);
                        second = std::cos(x);
                        break;
                    case OpenCLLIB::Frexp: r = std::frexp(x, &k); break;
                    case OpenCLLIB::Remquo: r = std::remquo(x, y, &k); break;
                    default: r = lgamma_r(x, &k); break;
                }
                storeF(tmp + i * w, w, r);
                if (int_out) {
                    const int32_t k32 = k;
                    std::memcpy(dst + i * 4, &k32, 4);
                } else {
                    storeF(dst + i * w, w, second);
                }
            }
            std::memcpy(regs + in.res, tmp, size_t(n) * w);
            return true;
        }
        case LoadN:
        case LoadHalf: {  // (offset, p): element offset*n from p
            uint64_t offset = loadU(regs + reg(0), cw(0));
            uint64_t p = rd<uint64_t>(regs, reg(1));
            const bool half = in.flags == LoadHalf;
            const uint32_t elem = half ? 2 : w;
            const uint32_t per = in.sub == OpenCLLIB::Vloada_halfn && in.n == 3 ? 4 : in.n;
            const uint8_t* src = g.access(lane, in, p + offset * per * elem, size_t(in.n) * elem, false);
            if (!src) return false;
            for (uint32_t i = 0; i < in.n; ++i) {
                if (half)
                    storeF(regs + in.res + i * w, w, halfToFloat(rd<uint16_t>(src, i * 2)));
                else
                    std::memcpy(regs + in.res + i * w, src + i * w, w);
            }
            return true;
        }
        case StoreN:
        case StoreHalf: {  // (data, offset, p[, mode])
            const uint32_t n = comps(0), dw = cw(0);
            uint64_t offset = loadU(regs + reg(1), cw(1));
            uint64_t p = rd<uint64_t>(regs, reg(2));
            const bool half = in.flags == StoreHalf;
            const uint32_t elem = half ? 2 : dw;
            const uint32_t per = in.sub == OpenCLLIB::Vstorea_halfn && n == 3
                                     ? 4
                                     : (in.sub == OpenCLLIB::Vstorea_halfn_r && n == 3 ? 4 : n);
            uint8_t* dst = g.access(lane, in, p + offset * per * elem, size_t(n) * elem, true);
            if (!dst) return false;
            for (uint32_t i = 0; i < n; ++i) {
                if (half)
                    wr<uint16_t>(dst, i * 2, doubleToHalf(loadF(regs + reg(0) + i * dw, dw), Rounding(in.c)));
                else
                    std::memcpy(dst + i * dw, regs + reg(0) + i * dw, dw);
            }
            return true;
        }
        case Printf: return execPrintf(in, g, lane);
        default: return true;
    }
}

bool decodeOclStd(DecodeCtx& c) {
    if (c.in->opcode != token(spv::Op::OpExtInst)) return false;
    if (c.word(3) != c.opencl_std) return c.fail("extended instruction set is not OpenCL.std");
    const uint32_t number = c.word(4);
    Insn in = c.start(Kind::OclStd);
    in.sub = uint16_t(number);
    if (number == OpenCLLIB::Printf) {
        in.flags = Printf;
        return decodePrintf(c, in);  // printf.cpp
    }
    if (number == OpenCLLIB::Prefetch) {
        // prefetch(const __global gentype* p, size_t num_elements): a hint with no effect here, so nothing
        // is emitted; only its operands are checked.
        if (c.words() != 7) return c.fail("prefetch takes a pointer and a number of elements");
        const uint32_t pt = c.valueType(c.word(5), "pointer"), nt = c.valueType(c.word(6), "num_elements");
        if (pt == UINT32_MAX || nt == UINT32_MAX) return false;
        if (c.type(pt).info.kind != K::Pointer ||
            c.type(pt).info.storage_class != token(spv::StorageClass::CrossWorkgroup))
            return c.fail("prefetch's pointer is not a CrossWorkgroup (global) pointer");
        if (c.type(nt).info.kind != K::Int) return c.fail("prefetch's num_elements is not an integer");
        return true;
    }
    const bool has_literal = number == OpenCLLIB::Vloadn || number == OpenCLLIB::Vload_halfn ||
                             number == OpenCLLIB::Vloada_halfn || number == OpenCLLIB::Vstore_half_r ||
                             number == OpenCLLIB::Vstore_halfn_r || number == OpenCLLIB::Vstorea_halfn_r;
    uint32_t end = c.words() - (has_literal ? 1 : 0);
    if (has_literal) in.c = c.word(c.words() - 1);
    in.aux = uint32_t(c.m.aux.size());
    c.m.aux.push_back(0);
    std::vector<const Type*> ops;
    for (uint32_t w = 5; w < end; ++w) {
        uint32_t t = c.valueType(c.word(w));
        if (t == UINT32_MAX) return true;
        const Type& ty = c.type(t);
        ops.push_back(&ty);
        c.m.aux.insert(c.m.aux.end(), {c.reg(c.word(w)), componentBytes(ty), ty.info.components});
    }
    c.m.aux[in.aux] = uint32_t(ops.size());
    const Type& rt = c.type(c.ids[c.word(2)].type);
    in.res = c.reg(c.word(2));
    in.width = uint8_t(componentBytes(rt));
    in.n = rt.info.components;
    auto need = [&](size_t count) {
        if (ops.size() != count)
            return c.fail("OpenCL.std " + std::to_string(number) + " takes " + std::to_string(count) +
                          " operands");
        return true;
    };
    auto gentype = [&](size_t count, bool is_float) {
        if (!need(count)) return false;
        if (is_float ? !isFloat(rt) : !isInt(rt))
            return c.fail("result type is not " + std::string(is_float ? "a float" : "an integer") + " type");
        for (const Type* t : ops)
            if (t->info.component_bits != rt.info.component_bits ||
                (t->info.components != 1 && t->info.components != rt.info.components) ||
                (is_float ? !isFloat(*t) : !isInt(*t)))
                return c.fail("operand types do not match the result type " + rt.name);
        return true;
    };
    bool ok = false;
    switch (number) {
        case OpenCLLIB::SAbs:
        case OpenCLLIB::UAbs:
        case OpenCLLIB::Clz:
        case OpenCLLIB::Ctz:
        case OpenCLLIB::Popcount:
            in.flags = IntOp;
            ok = gentype(1, false);
            break;
        case OpenCLLIB::SAbs_diff:
        case OpenCLLIB::UAbs_diff:
        case OpenCLLIB::SAdd_sat:
        case OpenCLLIB::UAdd_sat:
        case OpenCLLIB::SSub_sat:
        case OpenCLLIB::USub_sat:
        case OpenCLLIB::SHadd:
        case OpenCLLIB::UHadd:
        case OpenCLLIB::SRhadd:
        case OpenCLLIB::URhadd:
        case OpenCLLIB::SMax:
        case OpenCLLIB::UMax:
        case OpenCLLIB::SMin:
        case OpenCLLIB::UMin:
        case OpenCLLIB::SMul_hi:
        case OpenCLLIB::UMul_hi:
        case OpenCLLIB::Rotate:
        case OpenCLLIB::SMul24:
        case OpenCLLIB::UMul24:
            in.flags = IntOp;
            ok = gentype(2, false);
            break;
        case OpenCLLIB::SClamp:
        case OpenCLLIB::UClamp:
        case OpenCLLIB::SMad_hi:
        case OpenCLLIB::UMad_hi:
        case OpenCLLIB::SMad_sat:
        case OpenCLLIB::UMad_sat:
        case OpenCLLIB::SMad24:
        case OpenCLLIB::UMad24:
        case OpenCLLIB::Bitselect:
            if (number == OpenCLLIB::Bitselect && isFloat(rt)) {
                // bitselect on floats is a bitwise operation: run it on the same-width integers
                in.flags = IntOp;
                ok = need(3);
                break;
            }
            in.flags = IntOp;
            ok = gentype(3, false);
            break;
        case OpenCLLIB::U_Upsample:
        case OpenCLLIB::S_Upsample:
            in.flags = IntOp;
            ok = need(2) && isInt(rt) && ops[0]->info.component_bits * 2 == rt.info.component_bits;
            if (!ok) c.fail("upsample needs two integers of half the result width");
            break;
        case OpenCLLIB::Select:
            in.flags = SelectOp;
            ok = need(3) && ops[2]->info.components == rt.info.components &&
                 ops[2]->info.component_bits == rt.info.component_bits;
            if (!ok) c.fail("select needs (a, b, c) with c an integer of the result's shape");
            break;
        case OpenCLLIB::Cross:
        case OpenCLLIB::Length:
        case OpenCLLIB::Fast_length:
        case OpenCLLIB::Distance:
        case OpenCLLIB::Fast_distance:
        case OpenCLLIB::Normalize:
        case OpenCLLIB::Fast_normalize:
            in.flags = Geometric;
            ok = (number == OpenCLLIB::Cross || number == OpenCLLIB::Distance ||
                  number == OpenCLLIB::Fast_distance)
                     ? need(2)
                     : need(1);
            if (ok && !isFloat(*ops[0])) ok = c.fail("operands must be floats");
            if (ok && number == OpenCLLIB::Cross && ops[0]->info.components < 3)
                ok = c.fail("cross needs 3- or 4-component vectors");
            break;
        case OpenCLLIB::Ilogb:
            in.flags = FloatOp;
            ok = need(1) && isFloat(*ops[0]) && isInt(rt) && rt.info.components == ops[0]->info.components;
            if (ok)
                in.width = 4;
            else
                c.fail("ilogb needs a float operand and an int result");
            // ilogb results are int per component; reuse the float path with the integer width 4
            if (ok) in.width = uint8_t(componentBytes(rt));
            break;
        case OpenCLLIB::Nan:
            in.flags = FloatOp;
            ok = need(1) && isFloat(rt);
            break;
        case OpenCLLIB::Fract:
        case OpenCLLIB::Modf:
        case OpenCLLIB::Sincos:
        case OpenCLLIB::Frexp:
        case OpenCLLIB::Lgamma_r:
        case OpenCLLIB::Remquo: {
            in.flags = PtrOut;
            const size_t count = number == OpenCLLIB::Remquo ? 3 : 2;
            ok = need(count) && isFloat(rt) && ops.back()->info.kind == K::Pointer &&
                 ops.back()->elem != UINT32_MAX;
            for (size_t k = 0; ok && k + 1 < count; ++k) ok = sameShape(*ops[k], rt);
            if (ok) {
                const Type& pointee = c.type(ops.back()->elem);
                const bool int_out = number == OpenCLLIB::Frexp || number == OpenCLLIB::Remquo ||
                                     number == OpenCLLIB::Lgamma_r;
                ok = int_out ? (isInt(pointee) && pointee.info.component_bits == 32 &&
                                pointee.info.components == rt.info.components)
                             : sameShape(pointee, rt);
            }
            if (!ok) c.fail("needs gentype operands and a pointer to the second result");
            break;
        }
        case OpenCLLIB::Ldexp:
        case OpenCLLIB::Pown:
        case OpenCLLIB::Rootn:
            in.flags = FloatOp;
            ok = need(2) && isFloat(rt) && isInt(*ops[1]) && isFloat(*ops[0]) && sameShape(*ops[0], rt);
            if (!ok) c.fail("needs (float x, int k)");
            break;
        case OpenCLLIB::Vloadn:
        case OpenCLLIB::Vload_half:
        case OpenCLLIB::Vload_halfn:
        case OpenCLLIB::Vloada_halfn:
            in.flags = number == OpenCLLIB::Vloadn ? LoadN : LoadHalf;
            ok = need(2) && ops[1]->info.kind == K::Pointer;
            if (!ok) c.fail("needs (offset, pointer)");
            if (ok && number != OpenCLLIB::Vload_half && in.c != in.n)
                ok = c.fail("n does not match the result's component count");
            break;
        case OpenCLLIB::Vstoren:
        case OpenCLLIB::Vstore_half:
        case OpenCLLIB::Vstore_half_r:
        case OpenCLLIB::Vstore_halfn:
        case OpenCLLIB::Vstore_halfn_r:
        case OpenCLLIB::Vstorea_halfn:
        case OpenCLLIB::Vstorea_halfn_r:
            in.flags = number == OpenCLLIB::Vstoren ? StoreN : StoreHalf;
            ok = need(3) && ops[2]->info.kind == K::Pointer;
            if (!ok) c.fail("needs (data, offset, pointer)");
            if (number != OpenCLLIB::Vstore_half_r && number != OpenCLLIB::Vstore_halfn_r &&
                number != OpenCLLIB::Vstorea_halfn_r)
                in.c = 0;
            if (ok && in.c > 3) ok = c.fail("rounding mode " + std::to_string(in.c) + " is not valid");
            break;
        default: {
            static const uint16_t unary[] = {
                OpenCLLIB::Fabs,         OpenCLLIB::Floor,        OpenCLLIB::Ceil,
                OpenCLLIB::Trunc,        OpenCLLIB::Round,        OpenCLLIB::Rint,
                OpenCLLIB::Sqrt,         OpenCLLIB::Rsqrt,        OpenCLLIB::Exp,
                OpenCLLIB::Exp2,         OpenCLLIB::Exp10,        OpenCLLIB::Expm1,
                OpenCLLIB::Log,          OpenCLLIB::Log2,         OpenCLLIB::Log10,
                OpenCLLIB::Log1p,        OpenCLLIB::Logb,         OpenCLLIB::Sin,
                OpenCLLIB::Cos,          OpenCLLIB::Tan,          OpenCLLIB::Asin,
                OpenCLLIB::Acos,         OpenCLLIB::Atan,         OpenCLLIB::Sinh,
                OpenCLLIB::Cosh,         OpenCLLIB::Tanh,         OpenCLLIB::Cbrt,
                OpenCLLIB::Erf,          OpenCLLIB::Erfc,         OpenCLLIB::Tgamma,
                OpenCLLIB::Lgamma,       OpenCLLIB::Sign,         OpenCLLIB::Degrees,
                OpenCLLIB::Radians,      OpenCLLIB::Half_cos,     OpenCLLIB::Half_exp,
                OpenCLLIB::Half_exp2,    OpenCLLIB::Half_exp10,   OpenCLLIB::Half_log,
                OpenCLLIB::Half_log2,    OpenCLLIB::Half_log10,   OpenCLLIB::Half_recip,
                OpenCLLIB::Half_rsqrt,   OpenCLLIB::Half_sin,     OpenCLLIB::Half_sqrt,
                OpenCLLIB::Half_tan,     OpenCLLIB::Native_cos,   OpenCLLIB::Native_exp,
                OpenCLLIB::Native_exp2,  OpenCLLIB::Native_exp10, OpenCLLIB::Native_log,
                OpenCLLIB::Native_log2,  OpenCLLIB::Native_log10, OpenCLLIB::Native_recip,
                OpenCLLIB::Native_rsqrt, OpenCLLIB::Native_sin,   OpenCLLIB::Native_sqrt,
                OpenCLLIB::Native_tan};
            static const uint16_t binary[] = {
                OpenCLLIB::Fmin,          OpenCLLIB::Fmax,        OpenCLLIB::FMin_common,
                OpenCLLIB::FMax_common,   OpenCLLIB::Fmod,        OpenCLLIB::Remainder,
                OpenCLLIB::Copysign,      OpenCLLIB::Fdim,        OpenCLLIB::Hypot,
                OpenCLLIB::Nextafter,     OpenCLLIB::Maxmag,      OpenCLLIB::Minmag,
                OpenCLLIB::Pow,           OpenCLLIB::Powr,        OpenCLLIB::Atan2,
                OpenCLLIB::Step,          OpenCLLIB::Half_divide, OpenCLLIB::Half_powr,
                OpenCLLIB::Native_divide, OpenCLLIB::Native_powr};
            static const uint16_t ternary[] = {OpenCLLIB::Fma, OpenCLLIB::Mad, OpenCLLIB::FClamp,
                                               OpenCLLIB::Mix, OpenCLLIB::Smoothstep};
            auto in_list = [&](const uint16_t* b, size_t len) {
                return std::find(b, b + len, number) != b + len;
            };
            in.flags = FloatOp;
            if (in_list(unary, std::size(unary)))
                ok = gentype(1, true);
            else if (in_list(binary, std::size(binary)))
                ok = gentype(2, true);
            else if (in_list(ternary, std::size(ternary)))
                ok = gentype(3, true);
            else
                return c.fail("OpenCL.std instruction " + std::to_string(number) +
                              " is not supported by this device");
            break;
        }
    }
    if (!ok) return true;
    c.emit(in);
    return true;
}

}  // namespace refdev::spirv
