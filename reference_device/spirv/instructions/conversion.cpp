// Conversions: OpConvert*, OpUConvert/OpSConvert/OpFConvert (with SaturatedConversion and FPRoundingMode
// decorations), OpSatConvert*, OpBitcast, pointer <-> integer and generic pointer casts.
#include <cmath>

#include "reference_device/spirv/decode.h"
#include "reference_device/spirv/half.h"
#include "reference_device/spirv/interp.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {
namespace {

using K = TypeInfo::Kind;

enum Sub : uint16_t { FToU, FToS, SToF, UToF, UConv, SConv, FConv, SatSToU, SatUToS };
enum Flag : uint8_t { Saturate = 1, SignedDst = 2 };

int64_t readSigned(const uint8_t* p, uint32_t w) {
    switch (w) {
        case 1: return int8_t(p[0]);
        case 2: return rd<int16_t>(p, 0);
        case 4: return rd<int32_t>(p, 0);
        default: return rd<int64_t>(p, 0);
    }
}
uint64_t readUnsigned(const uint8_t* p, uint32_t w) {
    uint64_t v = 0;
    std::memcpy(&v, p, w);
    return v;
}
long double readFloat(const uint8_t* p, uint32_t w) {
    switch (w) {
        case 2: return halfToFloat(rd<uint16_t>(p, 0));
        case 4: return rd<float>(p, 0);
        default: return rd<double>(p, 0);
    }
}

void writeFloat(uint8_t* p, uint32_t w, long double v, Rounding mode) {
    // long double holds every 64-bit integer and every double exactly, so one rounding happens here
    if (w == 8) {
        double d = double(v);
        if (mode != Rounding::RTE && !std::isnan(d) && (long double)d != v) {
            if (mode == Rounding::RTZ && std::fabs((long double)d) > std::fabs(v)) d = std::nextafter(d, 0.0);
            if (mode == Rounding::RTP && (long double)d < v) d = std::nextafter(d, INFINITY);
            if (mode == Rounding::RTN && (long double)d > v) d = std::nextafter(d, -INFINITY);
        }
        wr<double>(p, 0, d);
    } else if (w == 4) {
        float f = float(v);
        if (mode != Rounding::RTE && !std::isnan(f) && (long double)f != v) {
            if (mode == Rounding::RTZ && std::fabs((long double)f) > std::fabs(v))
                f = std::nextafter(f, 0.0f);
            if (mode == Rounding::RTP && (long double)f < v) f = std::nextafter(f, INFINITY);
            if (mode == Rounding::RTN && (long double)f > v) f = std::nextafter(f, -INFINITY);
        }
        wr<float>(p, 0, f);
    } else {
        // Values reaching half come from floats (exact in double) or integers: |int| < 2^53 is exact in
        // double; larger ones round far beyond half's range anyway.
        wr<uint16_t>(p, 0, doubleToHalf(double(v), mode));
    }
}

void writeInt(uint8_t* p, uint32_t w, uint64_t v) {
    std::memcpy(p, &v, w);
}

// Float -> integer: round by mode, saturate to the destination range, NaN -> 0 (defined when saturating;
// otherwise the value is undefined and this is as good as any).
void floatToInt(uint8_t* p, uint32_t w, bool is_signed, long double v, Rounding mode) {
    if (std::isnan(v)) {
        writeInt(p, w, 0);
        return;
    }
    switch (mode) {
        case Rounding::RTE: v = std::nearbyint(v); break;
        case Rounding::RTZ: v = std::trunc(v); break;
        case Rounding::RTP: v = std::ceil(v); break;
        case Rounding::RTN: v = std::floor(v); break;
    }
    const unsigned bits = w * 8;
    if (is_signed) {
        long double lo = -std::ldexp(1.0L, int(bits - 1)), hi = std::ldexp(1.0L, int(bits - 1)) - 1;
        int64_t r = v <= lo ? int64_t(lo) : v >= hi ? (bits == 64 ? INT64_MAX : int64_t(hi)) : int64_t(v);
        writeInt(p, w, uint64_t(r));
    } else {
        long double hi = std::ldexp(1.0L, int(bits)) - 1;
        uint64_t r = v <= 0 ? 0 : v >= hi ? (bits == 64 ? UINT64_MAX : uint64_t(hi)) : uint64_t(v);
        writeInt(p, w, r);
    }
}

}  // namespace

void execConversion(const Insn& in, uint8_t* regs) {
    const uint32_t sw = in.width, dw = in.c & 0xff;
    const Rounding mode = Rounding((in.c >> 8) & 3);
    const bool sat = in.flags & Saturate;
    for (uint32_t k = 0; k < in.n; ++k) {
        const uint8_t* s = regs + in.a + k * sw;
        uint8_t* d = regs + in.res + k * dw;
        switch (in.sub) {
            case FToU: floatToInt(d, dw, false, readFloat(s, sw), mode); break;
            case FToS: floatToInt(d, dw, true, readFloat(s, sw), mode); break;
            case SToF: writeFloat(d, dw, (long double)readSigned(s, sw), mode); break;
            case UToF: writeFloat(d, dw, (long double)readUnsigned(s, sw), mode); break;
            case FConv: writeFloat(d, dw, readFloat(s, sw), mode); break;
            case UConv:
            case SatUToS: {
                uint64_t v = readUnsigned(s, sw);
                if (sat || in.sub == SatUToS) {
                    uint64_t max = (in.flags & SignedDst) ? (uint64_t(1) << (dw * 8 - 1)) - 1
                                   : dw == 8              ? UINT64_MAX
                                                          : (uint64_t(1) << (dw * 8)) - 1;
                    if (v > max) v = max;
                }
                writeInt(d, dw, v);
                break;
            }
            case SConv:
            case SatSToU: {
                int64_t v = readSigned(s, sw);
                if (in.sub == SatSToU || (sat && !(in.flags & SignedDst))) {
                    uint64_t max = dw == 8 ? UINT64_MAX : (uint64_t(1) << (dw * 8)) - 1;
                    uint64_t u = v < 0 ? 0 : (uint64_t(v) > max ? max : uint64_t(v));
                    writeInt(d, dw, u);
                } else {
                    if (sat && dw < 8) {
                        int64_t hi = (int64_t(1) << (dw * 8 - 1)) - 1, lo = -hi - 1;
                        v = v < lo ? lo : v > hi ? hi : v;
                    }
                    writeInt(d, dw, uint64_t(v));
                }
                break;
            }
        }
    }
}

bool decodeConversion(DecodeCtx& c) {
    const uint32_t op = c.in->opcode;
    if (op < token(spv::Op::OpConvertFToU) || op > token(spv::Op::OpBitcast) ||
        op == token(spv::Op::OpQuantizeToF16))
        return false;
    const uint32_t res_id = c.word(2);
    const Type& rt = c.type(c.ids[res_id].type);
    uint32_t ta = c.valueType(c.word(3));
    if (ta == UINT32_MAX) return true;
    const Type& a = c.type(ta);
    Insn in = c.start(Kind::Convert);
    in.res = c.reg(res_id);
    in.a = c.reg(c.word(3));
    auto copy = [&](uint32_t bytes) {
        in.kind = Kind::Copy;
        in.n = bytes;
        c.emit(in);
        return true;
    };
    const bool ptr_src = a.info.kind == K::Pointer, ptr_dst = rt.info.kind == K::Pointer;
    switch (op) {
        case token(spv::Op::OpBitcast):
            if (a.reg_size != rt.reg_size)
                return c.fail("operand has " + std::to_string(a.reg_size) + " bytes, the result type " +
                              std::to_string(rt.reg_size));
            return copy(rt.reg_size);
        case token(spv::Op::OpPtrCastToGeneric):
        case token(spv::Op::OpGenericCastToPtr):
        case token(spv::Op::OpGenericCastToPtrExplicit):  // generic pointer casts: addresses are the same in
                                                          // every space
            if (!ptr_src || !ptr_dst) return c.fail("operand and result must be pointers");
            return copy(8);
        case token(spv::Op::OpConvertPtrToU):
            if (!ptr_src || rt.info.kind != K::Int)
                return c.fail("needs a pointer operand and an integer result");
            return copy(rt.reg_size);  // truncation of a little-endian address keeps the low bytes
        case token(spv::Op::OpConvertUToPtr):
            if (a.info.kind != K::Int || !ptr_dst)
                return c.fail("needs an integer operand and a pointer result");
            in.sub = UConv;
            in.n = 1;
            in.width = uint8_t(a.reg_size);
            in.c = 8;
            c.emit(in);
            return true;
        default: break;
    }
    if (a.info.components != rt.info.components)
        return c.fail("operand and result have different component counts");
    const bool src_f = isFloat(a), dst_f = isFloat(rt), src_i = isInt(a), dst_i = isInt(rt);
    switch (op) {
        case token(spv::Op::OpConvertFToU):
        case token(spv::Op::OpConvertFToS):
            in.sub = op == token(spv::Op::OpConvertFToU) ? FToU : FToS;
            if (!src_f || !dst_i) return c.fail("needs float -> integer");
            break;
        case token(spv::Op::OpConvertSToF):
        case token(spv::Op::OpConvertUToF):
            in.sub = op == token(spv::Op::OpConvertSToF) ? SToF : UToF;
            if (!src_i || !dst_f) return c.fail("needs integer -> float");
            break;
        case token(spv::Op::OpUConvert):
            in.sub = UConv;
            if (!src_i || !dst_i) return c.fail("needs integer -> integer");
            break;
        case token(spv::Op::OpSConvert):
            in.sub = SConv;
            if (!src_i || !dst_i) return c.fail("needs integer -> integer");
            break;
        case token(spv::Op::OpFConvert):
            in.sub = FConv;
            if (!src_f || !dst_f) return c.fail("needs float -> float");
            break;
        case token(spv::Op::OpSatConvertSToU):
            in.sub = SatSToU;
            if (!src_i || !dst_i) return c.fail("needs integer -> integer");
            break;
        case token(spv::Op::OpSatConvertUToS):
            in.sub = SatUToS;
            in.flags = SignedDst;
            if (!src_i || !dst_i) return c.fail("needs integer -> integer");
            break;
        default: return c.fail("is not supported by this device");
    }
    uint32_t mode = 0;
    Rounding def = (op == token(spv::Op::OpConvertFToU) || op == token(spv::Op::OpConvertFToS))
                       ? Rounding::RTZ
                       : Rounding::RTE;
    if (c.decorated(res_id, token(spv::Decoration::FPRoundingMode), &mode)) {
        if (mode > 3) return c.fail("FPRoundingMode " + std::to_string(mode) + " is not supported");
        def = Rounding(mode);
    }
    if (c.decorated(res_id, token(spv::Decoration::SaturatedConversion))) {
        in.flags |= Saturate;
        // OpenCL convert_<signed>_sat comes as SConvert/FToS; the destination signedness follows the op
        if (op == token(spv::Op::OpSConvert) || op == token(spv::Op::OpConvertFToS)) in.flags |= SignedDst;
    }
    in.n = a.info.components;
    in.width = uint8_t(componentBytes(a));
    in.c = componentBytes(rt) | (uint32_t(def) << 8);
    c.emit(in);
    return true;
}

}  // namespace refdev::spirv
