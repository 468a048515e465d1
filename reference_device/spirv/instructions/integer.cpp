// Integer arithmetic, bitwise, shifts, comparisons, logical ops and OpSelect (8/16/32/64-bit, wrapping).
#include <limits>
#include <type_traits>

#include "reference_device/spirv/decode.h"
#include "reference_device/spirv/interp.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {
namespace {

using K = TypeInfo::Kind;

enum Sub : uint16_t {
    Add,
    SubOp,
    Mul,
    UDiv,
    SDiv,
    UMod,
    SRem,
    SMod,
    Shl,
    ShrL,
    ShrA,
    Or,
    Xor,
    And,  // binary
    SNeg,
    Not,
    BitReverse,
    BitCount,  // unary
    Eq,
    Ne,
    UGt,
    SGt,
    UGe,
    SGe,
    ULt,
    SLt,
    ULe,
    SLe,  // compare
    LEq,
    LNe,
    LOr,
    LAnd,
    LNot,
    AnyOp,
    AllOp,  // logical
    AddCarry,
    SubBorrow,
    UMulExt,
    SMulExt,
    BfInsert,
    BfSExtract,
    BfUExtract  // extended
};

template <typename U>
U binary(uint16_t op, U a, U b) {
    using S = std::make_signed_t<U>;
    constexpr unsigned bits = sizeof(U) * 8;
    const S sa = S(a), sb = S(b);
    switch (op) {
        case Add: return U(a + b);
        case SubOp: return U(a - b);
        case Mul: return U(a * b);
        // Division by zero gives an undefined value in SPIR-V; 0 keeps the host safe.
        case UDiv: return b ? U(a / b) : U(0);
        case SDiv:
            return (b == 0 || (sb == -1 && sa == std::numeric_limits<S>::min())) ? (b ? a : U(0))
                                                                                 : U(sa / sb);
        case UMod: return b ? U(a % b) : U(0);
        case SRem: return (b == 0 || sb == -1) ? U(0) : U(sa % sb);
        case SMod: {
            if (b == 0 || sb == -1) return U(0);
            S r = S(sa % sb);
            if (r != 0 && ((r < 0) != (sb < 0))) r = S(r + sb);
            return U(r);
        }
        // Shift counts >= the width are undefined in SPIR-V; OpenCL C masks them, and so does this device.
        case Shl: return U(a << (b & (bits - 1)));
        case ShrL: return U(a >> (b & (bits - 1)));
        case ShrA: return U(S(sa >> (b & (bits - 1))));
        case Or: return U(a | b);
        case Xor: return U(a ^ b);
        case And: return U(a & b);
        default: return 0;
    }
}

template <typename U>
U unary(uint16_t op, U a) {
    switch (op) {
        case SNeg: return U(U(0) - a);
        case Not: return U(~a);
        case BitReverse: {
            U r = 0;
            for (unsigned i = 0; i < sizeof(U) * 8; ++i)
                r = U(r | (((a >> i) & 1) << (sizeof(U) * 8 - 1 - i)));
            return r;
        }
        case BitCount: return U(__builtin_popcountll(uint64_t(a)));
        default: return 0;
    }
}

template <typename U>
bool compare(uint16_t op, U a, U b) {
    using S = std::make_signed_t<U>;
    switch (op) {
        case Eq: return a == b;
        case Ne: return a != b;
        case UGt: return a > b;
        case SGt: return S(a) > S(b);
        case UGe: return a >= b;
        case SGe: return S(a) >= S(b);
        case ULt: return a < b;
        case SLt: return S(a) < S(b);
        case ULe: return a <= b;
        case SLe: return S(a) <= S(b);
        default: return false;
    }
}

template <typename U>
void extended(const Insn& in, uint8_t* regs) {
    using S = std::make_signed_t<U>;
    constexpr unsigned bits = sizeof(U) * 8;
    for (uint32_t k = 0; k < in.n; ++k) {
        U a = rd<U>(regs, in.a + k * sizeof(U)), b = rd<U>(regs, in.b + k * sizeof(U)), lo = 0, hi = 0;
        switch (in.sub) {
            case AddCarry:
                lo = U(a + b);
                hi = lo < a;
                break;
            case SubBorrow:
                lo = U(a - b);
                hi = a < b;
                break;
            case UMulExt: {
                unsigned __int128 p = (unsigned __int128)a * b;
                lo = U(p);
                hi = U(p >> bits);
                break;
            }
            case SMulExt: {
                __int128 p = (__int128)S(a) * S(b);
                lo = U(p);
                hi = U((unsigned __int128)p >> bits);
                break;
            }
            case BfInsert:
            case BfSExtract:
            case BfUExtract: {
                // Offset/Count are scalars (in.c holds Offset, Count follows in aux-free layout: see decode)
                break;
            }
        }
        wr<U>(regs, in.res + k * sizeof(U), lo);
        wr<U>(regs, in.res + in.flags * 1u + in.c + k * sizeof(U), hi);
    }
}

template <typename U>
void bitField(const Insn& in, uint8_t* regs, uint32_t offset, uint32_t count, uint32_t insert_reg) {
    constexpr unsigned bits = sizeof(U) * 8;
    if (offset > bits) offset = bits;
    if (count > bits - offset) count = bits - offset;
    const U mask = count >= bits ? U(~U(0)) : U(((U(1) << count) - 1) << offset);
    for (uint32_t k = 0; k < in.n; ++k) {
        U base = rd<U>(regs, in.a + k * sizeof(U)), r;
        if (in.sub == BfInsert) {
            U ins = rd<U>(regs, insert_reg + k * sizeof(U));
            r = U((base & ~mask) | (U(ins << offset) & mask));
        } else {
            U field = count == 0 ? U(0) : U((base & mask) >> offset);
            if (in.sub == BfSExtract && count && count < bits && ((field >> (count - 1)) & 1))
                field = U(field | U(U(~U(0)) << count));
            r = field;
        }
        wr<U>(regs, in.res + k * sizeof(U), r);
    }
}

template <typename U>
void execWidth(const Insn& in, uint8_t* regs) {
    const uint32_t w = sizeof(U);
    switch (in.kind) {
        case Kind::IntBinary: {
            if (in.flags) {  // shift count of another width
                for (uint32_t k = 0; k < in.n; ++k) {
                    uint64_t s = 0;
                    std::memcpy(&s, regs + in.b + k * in.flags, in.flags);
                    wr<U>(regs, in.res + k * w,
                          binary<U>(in.sub, rd<U>(regs, in.a + k * w), U(s & (sizeof(U) * 8 - 1))));
                }
                break;
            }
            for (uint32_t k = 0; k < in.n; ++k)
                wr<U>(regs, in.res + k * w,
                      binary<U>(in.sub, rd<U>(regs, in.a + k * w), rd<U>(regs, in.b + k * w)));
            break;
        }
        case Kind::IntUnary:
            for (uint32_t k = 0; k < in.n; ++k)
                wr<U>(regs, in.res + k * w, unary<U>(in.sub, rd<U>(regs, in.a + k * w)));
            break;
        case Kind::IntCompare:
            for (uint32_t k = 0; k < in.n; ++k)
                regs[in.res + k] = compare<U>(in.sub, rd<U>(regs, in.a + k * w), rd<U>(regs, in.b + k * w));
            break;
        case Kind::IntExtended:
            if (in.sub >= BfInsert) {
                // a: base, b: Insert (BfInsert only), aux: offset reg, c: count reg, flags: offset/count
                // widths
                auto scalar = [&](uint32_t reg, uint32_t bytes) -> uint32_t {
                    uint64_t v = 0;
                    std::memcpy(&v, regs + reg, bytes);
                    return v > 1024 ? 1024u : uint32_t(v);
                };
                bitField<U>(in, regs, scalar(in.aux, in.flags & 0xf), scalar(in.c, in.flags >> 4), in.b);
            } else {
                extended<U>(in, regs);
            }
            break;
        default: break;
    }
}

}  // namespace

void execInteger(const Insn& in, uint8_t* regs) {
    switch (in.kind) {
        case Kind::Logical:
            switch (in.sub) {
                case LNot:
                    for (uint32_t k = 0; k < in.n; ++k) regs[in.res + k] = !regs[in.a + k];
                    return;
                case AnyOp:
                case AllOp: {
                    bool any = false, all = true;
                    for (uint32_t k = 0; k < in.n; ++k) {
                        any |= regs[in.a + k] != 0;
                        all &= regs[in.a + k] != 0;
                    }
                    regs[in.res] = in.sub == AnyOp ? any : all;
                    return;
                }
                default:
                    for (uint32_t k = 0; k < in.n; ++k) {
                        bool a = regs[in.a + k] != 0, b = regs[in.b + k] != 0;
                        regs[in.res + k] = in.sub == LEq   ? a == b
                                           : in.sub == LNe ? a != b
                                           : in.sub == LOr ? (a || b)
                                                           : (a && b);
                    }
                    return;
            }
        case Kind::Select:
            if (in.n == 0) {  // scalar condition selects the whole object
                std::memmove(regs + in.res, regs + (regs[in.a] ? in.b : in.c), in.aux);
            } else {
                for (uint32_t k = 0; k < in.n; ++k)
                    std::memmove(regs + in.res + k * in.width,
                                 regs + (regs[in.a + k] ? in.b : in.c) + k * in.width, in.width);
            }
            return;
        default: break;
    }
    switch (in.width) {
        case 1: execWidth<uint8_t>(in, regs); break;
        case 2: execWidth<uint16_t>(in, regs); break;
        case 4: execWidth<uint32_t>(in, regs); break;
        default: execWidth<uint64_t>(in, regs); break;
    }
}

namespace {

// One row per instruction this file decodes.
constexpr OpRow kIntegerOps[] = {
    {spv::Op::OpSNegate, Kind::IntUnary, SNeg},
    {spv::Op::OpNot, Kind::IntUnary, Not},
    {spv::Op::OpBitReverse, Kind::IntUnary, BitReverse},
    {spv::Op::OpBitCount, Kind::IntUnary, BitCount},
    {spv::Op::OpIAdd, Kind::IntBinary, Add},
    {spv::Op::OpISub, Kind::IntBinary, SubOp},
    {spv::Op::OpIMul, Kind::IntBinary, Mul},
    {spv::Op::OpUDiv, Kind::IntBinary, UDiv},
    {spv::Op::OpSDiv, Kind::IntBinary, SDiv},
    {spv::Op::OpUMod, Kind::IntBinary, UMod},
    {spv::Op::OpSRem, Kind::IntBinary, SRem},
    {spv::Op::OpSMod, Kind::IntBinary, SMod},
    {spv::Op::OpShiftRightLogical, Kind::IntBinary, ShrL},
    {spv::Op::OpShiftRightArithmetic, Kind::IntBinary, ShrA},
    {spv::Op::OpShiftLeftLogical, Kind::IntBinary, Shl},
    {spv::Op::OpBitwiseOr, Kind::IntBinary, Or},
    {spv::Op::OpBitwiseXor, Kind::IntBinary, Xor},
    {spv::Op::OpBitwiseAnd, Kind::IntBinary, And},
    {spv::Op::OpIEqual, Kind::IntCompare, Eq},
    {spv::Op::OpINotEqual, Kind::IntCompare, Ne},
    {spv::Op::OpUGreaterThan, Kind::IntCompare, UGt},
    {spv::Op::OpSGreaterThan, Kind::IntCompare, SGt},
    {spv::Op::OpUGreaterThanEqual, Kind::IntCompare, UGe},
    {spv::Op::OpSGreaterThanEqual, Kind::IntCompare, SGe},
    {spv::Op::OpULessThan, Kind::IntCompare, ULt},
    {spv::Op::OpSLessThan, Kind::IntCompare, SLt},
    {spv::Op::OpULessThanEqual, Kind::IntCompare, ULe},
    {spv::Op::OpSLessThanEqual, Kind::IntCompare, SLe},
    {spv::Op::OpLogicalEqual, Kind::Logical, LEq},
    {spv::Op::OpLogicalNotEqual, Kind::Logical, LNe},
    {spv::Op::OpLogicalOr, Kind::Logical, LOr},
    {spv::Op::OpLogicalAnd, Kind::Logical, LAnd},
    {spv::Op::OpLogicalNot, Kind::Logical, LNot},
    {spv::Op::OpAny, Kind::Logical, AnyOp},
    {spv::Op::OpAll, Kind::Logical, AllOp},
    {spv::Op::OpSelect, Kind::Select, 0},
    {spv::Op::OpIAddCarry, Kind::IntExtended, AddCarry},
    {spv::Op::OpISubBorrow, Kind::IntExtended, SubBorrow},
    {spv::Op::OpUMulExtended, Kind::IntExtended, UMulExt},
    {spv::Op::OpSMulExtended, Kind::IntExtended, SMulExt},
    {spv::Op::OpBitFieldInsert, Kind::IntExtended, BfInsert},
    {spv::Op::OpBitFieldSExtract, Kind::IntExtended, BfSExtract},
    {spv::Op::OpBitFieldUExtract, Kind::IntExtended, BfUExtract},
};

}  // namespace

bool decodeInteger(DecodeCtx& c) {
    const OpRow* row = findOpRow(kIntegerOps, c.in->opcode);
    if (!row) return false;
    const Kind kind = row->kind;
    const uint16_t sub = row->sub;
    const Type& rt = c.type(c.ids[c.word(2)].type);
    Insn in = c.start(kind);
    in.sub = sub;
    in.res = c.reg(c.word(2));
    uint32_t ta = c.valueType(c.word(3));
    if (ta == UINT32_MAX) return true;
    const Type& a = c.type(ta);
    in.a = c.reg(c.word(3));
    in.n = a.info.components;
    in.width = uint8_t(componentBytes(a));
    const bool unary_op = kind == Kind::IntUnary || (kind == Kind::Logical && sub >= LNot);
    const Type* b = nullptr;
    if (!unary_op && kind != Kind::IntExtended) {
        uint32_t tb = c.valueType(c.word(4));
        if (tb == UINT32_MAX) return true;
        b = &c.type(tb);
        in.b = c.reg(c.word(4));
    }
    switch (kind) {
        case Kind::IntUnary:
        case Kind::IntBinary:
            if (!isInt(rt)) return c.fail("result type is not an integer scalar or vector");
            if (b && (sub == Shl || sub == ShrL || sub == ShrA) && isInt(*b) &&
                b->info.components == rt.info.components &&
                b->info.component_bits != rt.info.component_bits) {
                in.flags = uint8_t(componentBytes(*b));  // Shift may be narrower or wider than Base
                b = &a;
            }
            if (!sameShape(a, rt) || (b && !sameShape(*b, rt)))
                return c.fail("operand types do not match the result type " + rt.name);
            break;
        case Kind::IntCompare:
            if (!isInt(a) || !sameShape(a, *b)) return c.fail("operands are not integers of the same type");
            if (!isBool(rt) || rt.info.components != a.info.components)
                return c.fail("result type is not a bool with the operands' component count");
            break;
        case Kind::Logical:
            if (!isBool(a) || (b && !sameShape(a, *b)))
                return c.fail("operands are not bools of the same type");
            if (!isBool(rt) || (sub != AnyOp && sub != AllOp && rt.info.components != a.info.components))
                return c.fail("result type does not match the operands");
            break;
        case Kind::Select: {
            if (!isBool(a)) return c.fail("condition is not a bool");
            uint32_t tc = c.valueType(c.word(5));
            if (tc == UINT32_MAX) return true;
            if (!sameShape(*b, rt) || !sameShape(c.type(tc), rt))
                return c.fail("objects do not match the result type");
            in.c = c.reg(c.word(5));
            if (a.info.kind == K::Vector) {
                if (rt.info.kind != K::Vector || rt.info.components != a.info.components)
                    return c.fail("vector condition needs a vector result with as many components");
                in.n = a.info.components;
                in.width = uint8_t(componentBytes(rt));
            } else {
                in.n = 0;
                in.aux = rt.reg_size;
            }
            break;
        }
        case Kind::IntExtended: {
            if (sub >= BfInsert) {
                if (!isInt(a) || !sameShape(a, rt)) return c.fail("Base does not match the result type");
                uint32_t k = 4;
                if (sub == BfInsert) {
                    uint32_t ti = c.valueType(c.word(4), "Insert");
                    if (ti == UINT32_MAX) return true;
                    if (!sameShape(c.type(ti), rt)) return c.fail("Insert does not match the result type");
                    in.b = c.reg(c.word(4));
                    k = 5;
                }
                uint32_t to = c.valueType(c.word(k), "Offset"), tn = c.valueType(c.word(k + 1), "Count");
                if (to == UINT32_MAX || tn == UINT32_MAX) return true;
                if (c.type(to).info.kind != K::Int || c.type(tn).info.kind != K::Int)
                    return c.fail("Offset and Count must be scalar integers");
                in.aux = c.reg(c.word(k));
                in.c = c.reg(c.word(k + 1));
                in.flags = uint8_t(c.type(to).reg_size | (c.type(tn).reg_size << 4));
                break;
            }
            uint32_t tb = c.valueType(c.word(4));
            if (tb == UINT32_MAX) return true;
            in.b = c.reg(c.word(4));
            if (rt.info.kind != K::Struct || rt.members.size() != 2 || !isInt(a) ||
                !sameShape(a, c.type(tb)) || !sameShape(c.type(rt.members[0]), a) ||
                !sameShape(c.type(rt.members[1]), a))
                return c.fail("result must be a struct of two members of the operands' integer type");
            in.c = rt.offsets[1];  // the high half goes to the second member
            in.flags = 0;
            break;
        }
        default: break;
    }
    if (kind == Kind::IntBinary && in.n == 1 && in.width == 4 && !in.flags) {
        if (sub == Add) in.kind = Kind::IAdd32;
        if (sub == SubOp) in.kind = Kind::ISub32;
        if (sub == Mul) in.kind = Kind::IMul32;
        if (sub == And) in.kind = Kind::IAnd32;
        if (sub == Or) in.kind = Kind::IOr32;
        if (sub == Xor) in.kind = Kind::IXor32;
        if (sub == Shl) in.kind = Kind::IShl32;
        if (sub == ShrL) in.kind = Kind::IShrL32;
    }
    if (kind == Kind::IntCompare && in.n == 1 && in.width == 4) {
        if (sub == Eq) in.kind = Kind::IEq32;
        if (sub == Ne) in.kind = Kind::INe32;
    }
    if (kind == Kind::IntBinary && in.n == 1 && in.width == 8 && sub == Add && !in.flags)
        in.kind = Kind::IAdd64;
    if (kind == Kind::IntCompare && in.n == 1 && in.width == 4) {
        if (sub == SLt) in.kind = Kind::ILessS32;
        if (sub == ULt) in.kind = Kind::ILessU32;
    }
    c.emit(in);
    return true;
}

}  // namespace refdev::spirv
