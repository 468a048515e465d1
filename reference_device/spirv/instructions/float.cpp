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

namespace {

// One row per instruction this file decodes (OpVectorTimesScalar is FMul with a scalar second operand).
constexpr OpRow kFloatOps[] = {
    {spv::Op::OpFAdd, Kind::FloatBinary, FAdd},
    {spv::Op::OpFSub, Kind::FloatBinary, FSub},
    {spv::Op::OpFMul, Kind::FloatBinary, FMul},
    {spv::Op::OpFDiv, Kind::FloatBinary, FDiv},
    {spv::Op::OpFRem, Kind::FloatBinary, FRem},
    {spv::Op::OpFMod, Kind::FloatBinary, FMod},
    {spv::Op::OpVectorTimesScalar, Kind::FloatBinary, FMul},
    {spv::Op::OpFNegate, Kind::FloatUnary, FNeg},
    {spv::Op::OpIsNan, Kind::FloatUnary, IsNan},
    {spv::Op::OpIsInf, Kind::FloatUnary, IsInf},
    {spv::Op::OpIsFinite, Kind::FloatUnary, IsFinite},
    {spv::Op::OpIsNormal, Kind::FloatUnary, IsNormal},
    {spv::Op::OpSignBitSet, Kind::FloatUnary, SignBit},
    {spv::Op::OpFOrdEqual, Kind::FloatCompare, OrdEq},
    {spv::Op::OpFUnordEqual, Kind::FloatCompare, UnordEq},
    {spv::Op::OpFOrdNotEqual, Kind::FloatCompare, OrdNe},
    {spv::Op::OpFUnordNotEqual, Kind::FloatCompare, UnordNe},
    {spv::Op::OpFOrdLessThan, Kind::FloatCompare, OrdLt},
    {spv::Op::OpFUnordLessThan, Kind::FloatCompare, UnordLt},
    {spv::Op::OpFOrdGreaterThan, Kind::FloatCompare, OrdGt},
    {spv::Op::OpFUnordGreaterThan, Kind::FloatCompare, UnordGt},
    {spv::Op::OpFOrdLessThanEqual, Kind::FloatCompare, OrdLe},
    {spv::Op::OpFUnordLessThanEqual, Kind::FloatCompare, UnordLe},
    {spv::Op::OpFOrdGreaterThanEqual, Kind::FloatCompare, OrdGe},
    {spv::Op::OpFUnordGreaterThanEqual, Kind::FloatCompare, UnordGe},
    {spv::Op::OpLessOrGreater, Kind::FloatCompare, LessOrGreater},
    {spv::Op::OpOrdered, Kind::FloatCompare, Ordered},
    {spv::Op::OpUnordered, Kind::FloatCompare, Unordered},
    {spv::Op::OpDot, Kind::Dot, 0},
};

}  // namespace

bool decodeFloat(DecodeCtx& c) {
    const OpRow* row = findOpRow(kFloatOps, c.in->opcode);
    if (!row) return false;
    const Kind kind = row->kind;
    const uint16_t sub = row->sub;
    const bool scalar_b = row->op == spv::Op::OpVectorTimesScalar;
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
