// Atomic instructions. Work-groups run on several threads, so every atomic takes the launch's mutex;
// the access is bounds-checked like any other.
#include <mutex>

#include "reference_device/spirv/decode.h"
#include "reference_device/spirv/interp.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {
namespace {

using K = TypeInfo::Kind;
enum Sub : uint16_t {
    Load,
    Store,
    Exchange,
    CmpXchg,
    Inc,
    Dec,
    Add,
    SubOp,
    SMin,
    UMin,
    SMax,
    UMax,
    And,
    Or,
    Xor
};

template <typename U>
U apply(uint16_t op, U old, U v) {
    using S = std::make_signed_t<U>;
    switch (op) {
        case Exchange: return v;
        case Inc: return U(old + 1);
        case Dec: return U(old - 1);
        case Add: return U(old + v);
        case SubOp: return U(old - v);
        case SMin: return S(v) < S(old) ? v : old;
        case UMin: return v < old ? v : old;
        case SMax: return S(v) > S(old) ? v : old;
        case UMax: return v > old ? v : old;
        case And: return U(old & v);
        case Or: return U(old | v);
        case Xor: return U(old ^ v);
        default: return old;
    }
}

template <typename U>
void run(const Insn& in, uint8_t* regs, uint8_t* p) {
    U old;
    std::memcpy(&old, p, sizeof(U));
    switch (in.sub) {
        case Load: wr<U>(regs, in.res, old); return;
        case Store: std::memcpy(p, regs + in.b, sizeof(U)); return;
        case CmpXchg: {
            U cmp = rd<U>(regs, in.c);
            if (old == cmp) std::memcpy(p, regs + in.b, sizeof(U));
            wr<U>(regs, in.res, old);
            return;
        }
        default: {
            U nv = apply<U>(in.sub, old, in.sub == Inc || in.sub == Dec ? U(0) : rd<U>(regs, in.b));
            std::memcpy(p, &nv, sizeof(U));
            wr<U>(regs, in.res, old);
            return;
        }
    }
}

}  // namespace

bool execAtomic(const Insn& in, GroupRun& g, Lane& lane) {
    std::lock_guard<std::mutex> lock(g.shared->atomic_mutex);
    uint8_t* p = g.access(lane, in, rd<uint64_t>(lane.regs, in.a), in.width, in.sub != Load);
    if (!p) return false;
    switch (in.width) {
        case 4: run<uint32_t>(in, lane.regs, p); break;
        case 8: run<uint64_t>(in, lane.regs, p); break;
        case 2: run<uint16_t>(in, lane.regs, p); break;
        default: run<uint8_t>(in, lane.regs, p); break;
    }
    return true;
}

namespace {

// One row per instruction this file decodes.
constexpr OpRow kAtomicOps[] = {
    {spv::Op::OpAtomicLoad, Kind::Atomic, Load},
    {spv::Op::OpAtomicStore, Kind::Atomic, Store},
    {spv::Op::OpAtomicExchange, Kind::Atomic, Exchange},
    {spv::Op::OpAtomicCompareExchange, Kind::Atomic, CmpXchg},
    {spv::Op::OpAtomicCompareExchangeWeak, Kind::Atomic, CmpXchg},
    {spv::Op::OpAtomicIIncrement, Kind::Atomic, Inc},
    {spv::Op::OpAtomicIDecrement, Kind::Atomic, Dec},
    {spv::Op::OpAtomicIAdd, Kind::Atomic, Add},
    {spv::Op::OpAtomicISub, Kind::Atomic, SubOp},
    {spv::Op::OpAtomicSMin, Kind::Atomic, SMin},
    {spv::Op::OpAtomicUMin, Kind::Atomic, UMin},
    {spv::Op::OpAtomicSMax, Kind::Atomic, SMax},
    {spv::Op::OpAtomicUMax, Kind::Atomic, UMax},
    {spv::Op::OpAtomicAnd, Kind::Atomic, And},
    {spv::Op::OpAtomicOr, Kind::Atomic, Or},
    {spv::Op::OpAtomicXor, Kind::Atomic, Xor},
};

}  // namespace

bool decodeAtomic(DecodeCtx& c) {
    const uint32_t op = c.in->opcode;
    const OpRow* row = findOpRow(kAtomicOps, op);
    if (!row) return false;
    Insn in = c.start(row->kind);
    in.sub = row->sub;
    const bool has_result = op != token(spv::Op::OpAtomicStore);
    const uint32_t ptr_word = has_result ? 3 : 1;
    uint32_t pt = c.valueType(c.word(ptr_word), "Pointer");
    if (pt == UINT32_MAX) return true;
    const Type& ptr = c.type(pt);
    if (ptr.info.kind != K::Pointer || ptr.elem == UINT32_MAX) return c.fail("Pointer is not a pointer");
    const Type& elem = c.type(ptr.elem);
    const bool int_only = in.sub != Load && in.sub != Store && in.sub != Exchange;
    if (!(elem.info.kind == K::Int || (!int_only && elem.info.kind == K::Float)))
        return c.fail("the pointee must be a scalar integer" + std::string(int_only ? "" : " or float"));
    in.a = c.reg(c.word(ptr_word));
    in.width = uint8_t(elem.reg_size);
    if (has_result) {
        if (!sameShape(c.type(c.ids[c.word(2)].type), elem))
            return c.fail("result type does not match the pointee");
        in.res = c.reg(c.word(2));
    }
    auto value = [&](uint32_t w, const char* what) {
        uint32_t vt = c.valueType(c.word(w), what);
        if (vt == UINT32_MAX) return false;
        if (!sameShape(c.type(vt), elem))
            return c.fail(std::string(what) + " type does not match the pointee");
        return true;
    };
    switch (in.sub) {
        case Load:
        case Inc:
        case Dec: break;
        case Store:
            if (!value(4, "Value")) return true;
            in.b = c.reg(c.word(4));
            break;
        case CmpXchg:
            if (!value(7, "Value") || !value(8, "Comparator")) return true;
            in.b = c.reg(c.word(7));
            in.c = c.reg(c.word(8));
            break;
        default:
            if (!value(6, "Value")) return true;
            in.b = c.reg(c.word(6));
            break;
    }
    c.emit(in);
    return true;
}

}  // namespace refdev::spirv
