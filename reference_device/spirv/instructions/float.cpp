// Floating-point arithmetic, comparisons and classification for half, float and double. Half operations
// compute in double (exact for +,-,*; correctly rounded for /) and round once to half.
#include <cmath>

#include "reference_device/spirv/decode.h"
#include "reference_device/spirv/half.h"
#include "reference_device/spirv/interp.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {
namespace {

using K = TypeInfo::Kind;

enum Sub : uint16_t {
    FAdd,
    FSub,
    FMul,
    FDiv,
    FRem,
    FMod,  // binary (VectorTimesScalar is FMul with flags=1)
    FNeg,
    IsNan,
    IsInf,
    IsFinite,
    IsNormal,
    SignBit,  // unary
    OrdEq,
    UnordEq,
    OrdNe,
    UnordNe,
    OrdLt,
    UnordLt,
    OrdGt,
    UnordGt,
    OrdLe,
    UnordLe,
    OrdGe,
    UnordGe,
    Ordered,
    Unordered,
    LessOrGreater
};

template <typename T>
T binary(uint16_t op, T a, T b) {
    switch (op) {
        case FAdd: return a + b;
        case FSub: return a - b;
        case FMul: return a * b;
        case FDiv: return a / b;
        case FRem: return std::fmod(a, b);
        case FMod: {  // sign follows the divisor
            T r = std::fmod(a, b);
            if (r != 0 && ((r < 0) != (b < 0))) r += b;
            return r;
        }
        default: return 0;
    }
}

template <typename T>
bool compare(uint16_t op, T a, T b) {
    const bool unord = std::isnan(a) || std::isnan(b);
    switch (op) {
        case OrdEq: return !unord && a == b;
        case UnordEq: return unord || a == b;
        case OrdNe: return !unord && a != b;
        case UnordNe: return unord || a != b;
        case OrdLt: return !unord && a < b;
        case UnordLt: return unord || a < b;
        case OrdGt: return !unord && a > b;
        case UnordGt: return unord || a > b;
        case OrdLe: return !unord && a <= b;
        case UnordLe: return unord || a <= b;
        case OrdGe: return !unord && a >= b;
        case UnordGe: return unord || a >= b;
        case Ordered: return !unord;
        case Unordered: return unord;
        case LessOrGreater: return !unord && a != b;
        default: return false;
    }
}

template <typename T>
bool classify(uint16_t op, T a) {
    switch (op) {
        case IsNan: return std::isnan(a);
        case IsInf: return std::isinf(a);
        case IsFinite: return std::isfinite(a);
        case IsNormal: return std::isnormal(a);
        case SignBit: return std::signbit(a);
        default: return false;
    }
}

// Storage type S (uint16_t for half) and compute type T.
template <typename S, typename T>
struct FloatIO {
    static T load(const uint8_t* regs, uint32_t off) {
        if constexpr (sizeof(S) == 2)
            return T(halfToFloat(rd<uint16_t>(regs, off)));
        else
            return rd<S>(regs, off);
    }
    static void store(uint8_t* regs, uint32_t off, T v) {
        if constexpr (sizeof(S) == 2)
            wr<uint16_t>(regs, off, doubleToHalf(double(v)));
        else
            wr<S>(regs, off, S(v));
    }
};

template <typename S, typename T>
void execType(const Insn& in, uint8_t* regs) {
    using IO = FloatIO<S, T>;
    const uint32_t w = sizeof(S);
    switch (in.kind) {
        case Kind::FloatBinary:
            for (uint32_t k = 0; k < in.n; ++k) {
                T b = IO::load(regs, in.b + (in.flags ? 0 : k * w));
                IO::store(regs, in.res + k * w, binary<T>(in.sub, IO::load(regs, in.a + k * w), b));
            }
            break;
        case Kind::FloatUnary:
            for (uint32_t k = 0; k < in.n; ++k) {
                if (in.sub == FNeg) {  // sign flip on the bits: exact for NaNs too
                    uint8_t* r = regs + in.res + k * w;
                    std::memmove(r, regs + in.a + k * w, w);
                    r[w - 1] ^= 0x80;  // little-endian: the sign bit is the top bit of the last byte
                } else {
                    regs[in.res + k] = classify<T>(in.sub, IO::load(regs, in.a + k * w));
                }
            }
            break;
        case Kind::FloatCompare:
            for (uint32_t k = 0; k < in.n; ++k)
                regs[in.res + k] =
                    compare<T>(in.sub, IO::load(regs, in.a + k * w), IO::load(regs, in.b + k * w));
            break;
        case Kind::Dot: {
            T sum = 0;
            for (uint32_t k = 0; k < in.n; ++k)
                sum += IO::load(regs, in.a + k * w) * IO::load(regs, in.b + k * w);
            IO::store(regs, in.res, sum);
            break;
        }
        default: break;
    }
}

}  // namespace

void execFloat(const Insn& in, uint8_t* regs) {
    switch (in.width) {
        case 2: execType<uint16_t, double>(in, regs); break;
        case 4: execType<float, float>(in, regs); break;
        default: execType<double, double>(in, regs); break;
    }
}

bool decodeFloat(DecodeCtx& c) {
    const uint32_t op = c.in->opcode;
    Kind kind;
    uint16_t sub;
    bool scalar_b = false;
    switch (op) {
        case token(spv::Op::OpFAdd):
            kind = Kind::FloatBinary;
            sub = FAdd;
            break;
        case token(spv::Op::OpFSub):
            kind = Kind::FloatBinary;
            sub = FSub;
            break;
        case token(spv::Op::OpFMul):
            kind = Kind::FloatBinary;
            sub = FMul;
            break;
        case token(spv::Op::OpFDiv):
            kind = Kind::FloatBinary;
            sub = FDiv;
            break;
        case token(spv::Op::OpFRem):
            kind = Kind::FloatBinary;
            sub = FRem;
            break;
        case token(spv::Op::OpFMod):
            kind = Kind::FloatBinary;
            sub = FMod;
            break;
        case token(spv::Op::OpVectorTimesScalar):
            kind = Kind::FloatBinary;
            sub = FMul;
            scalar_b = true;
            break;
        case token(spv::Op::OpFNegate):
            kind = Kind::FloatUnary;
            sub = FNeg;
            break;
        case token(spv::Op::OpIsNan):
        case token(spv::Op::OpIsInf):
        case token(spv::Op::OpIsFinite):
        case token(spv::Op::OpIsNormal):
        case token(spv::Op::OpSignBitSet):
            kind = Kind::FloatUnary;
            sub = uint16_t(IsNan + (op - 156));
            break;
        case token(spv::Op::OpFOrdEqual):
        case token(spv::Op::OpFUnordEqual):
        case token(spv::Op::OpFOrdNotEqual):
        case token(spv::Op::OpFUnordNotEqual):
        case token(spv::Op::OpFOrdLessThan):
        case token(spv::Op::OpFUnordLessThan):
        case token(spv::Op::OpFOrdGreaterThan):
        case token(spv::Op::OpFUnordGreaterThan):
        case token(spv::Op::OpFOrdLessThanEqual):
        case token(spv::Op::OpFUnordLessThanEqual):
        case token(spv::Op::OpFOrdGreaterThanEqual):
        case token(spv::Op::OpFUnordGreaterThanEqual):
            kind = Kind::FloatCompare;
            sub = uint16_t(OrdEq + (op - 180));
            break;
        case token(spv::Op::OpLessOrGreater):
            kind = Kind::FloatCompare;
            sub = LessOrGreater;
            break;
        case token(spv::Op::OpOrdered):
            kind = Kind::FloatCompare;
            sub = Ordered;
            break;
        case token(spv::Op::OpUnordered):
            kind = Kind::FloatCompare;
            sub = Unordered;
            break;
        case token(spv::Op::OpDot):
            kind = Kind::Dot;
            sub = 0;
            break;
        default: return false;
    }
    const Type& rt = c.type(c.ids[c.word(2)].type);
    uint32_t ta = c.valueType(c.word(3));
    if (ta == UINT32_MAX) return true;
    const Type& a = c.type(ta);
    if (!isFloat(a)) return c.fail("operand is not a float scalar or vector");
    Insn in = c.start(kind);
    in.sub = sub;
    in.res = c.reg(c.word(2));
    in.a = c.reg(c.word(3));
    in.n = a.info.components;
    in.width = uint8_t(componentBytes(a));
    if (kind != Kind::FloatUnary) {
        uint32_t tb = c.valueType(c.word(4));
        if (tb == UINT32_MAX) return true;
        const Type& b = c.type(tb);
        in.b = c.reg(c.word(4));
        if (scalar_b) {
            if (b.info.kind != K::Float || b.info.component_bits != a.info.component_bits)
                return c.fail("Scalar is not a float of the vector's component type");
            in.flags = 1;
        } else if (!sameShape(a, b)) {
            return c.fail("operand types differ");
        }
    }
    if (kind == Kind::FloatBinary || (kind == Kind::FloatUnary && sub == FNeg)) {
        if (!sameShape(a, rt)) return c.fail("operand types do not match the result type " + rt.name);
    } else if (kind == Kind::Dot) {
        if (rt.info.kind != K::Float || rt.info.component_bits != a.info.component_bits)
            return c.fail("result is not the vectors' component type");
    } else if (!isBool(rt) || rt.info.components != a.info.components) {
        return c.fail("result type is not a bool with the operands' component count");
    }
    if (kind == Kind::FloatBinary && in.n == 1 && in.width == 4 && !in.flags) {
        if (sub == FAdd) in.kind = Kind::FAdd32;
        if (sub == FMul) in.kind = Kind::FMul32;
        if (sub == FSub) in.kind = Kind::FSub32;
    }
    if (kind == Kind::FloatCompare && in.n == 1 && in.width == 4 && sub == OrdLt) in.kind = Kind::FLessO32;
    c.emit(in);
    return true;
}

}  // namespace refdev::spirv
