// Memory: function-scope OpVariable, OpLoad, OpStore, OpCopyMemory(Sized), access chains and pointer
// comparisons. Every access goes through GroupRun::access (bounds and constness checks).
#include "reference_device/spirv/decode.h"
#include "reference_device/spirv/interp.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {
namespace {

using K = TypeInfo::Kind;
enum Sub : uint16_t { PtrEq, PtrNe, PtrDiff };

int64_t readIndex(const uint8_t* regs, uint32_t off, uint32_t bytes) {
    switch (bytes) {
        case 1: return int8_t(regs[off]);
        case 2: return rd<int16_t>(regs, off);
        case 4: return rd<int32_t>(regs, off);
        default: return rd<int64_t>(regs, off);
    }
}

// Pointee type index of a pointer value, or UINT32_MAX after logging.
uint32_t pointee(DecodeCtx& c, uint32_t id, const char* what) {
    uint32_t t = c.valueType(id, what);
    if (t == UINT32_MAX) return t;
    const Type& pt = c.type(t);
    if (pt.info.kind != K::Pointer || pt.elem == UINT32_MAX) {
        c.fail(std::string(what) + " is not a pointer");
        return UINT32_MAX;
    }
    return pt.elem;
}

}  // namespace

bool execMemory(const Insn& in, GroupRun& g, Lane& lane) {
    uint8_t* regs = lane.regs;
    switch (in.kind) {
        case Kind::Variable: {
            uint8_t* p = lane.priv + in.a;
            wr<uint64_t>(regs, in.res, uint64_t(uintptr_t(p)));
            if (in.b != UINT32_MAX) std::memcpy(p, regs + in.b, in.n);
            return true;
        }
        case Kind::Load: {
            const uint8_t* p = g.access(lane, in, rd<uint64_t>(regs, in.a), in.n, false);
            if (!p) return false;
            std::memcpy(regs + in.res, p, in.n);
            return true;
        }
        case Kind::Store: {
            uint8_t* p = g.access(lane, in, rd<uint64_t>(regs, in.a), in.n, true);
            if (!p) return false;
            std::memcpy(p, regs + in.b, in.n);
            return true;
        }
        case Kind::CopyMemory: {
            uint64_t bytes = in.n;
            if (in.flags) {
                bytes = 0;
                std::memcpy(&bytes, regs + in.c, in.flags);
            }
            if (bytes == 0) return true;
            uint8_t* dst = g.access(lane, in, rd<uint64_t>(regs, in.a), bytes, true);
            if (!dst) return false;
            const uint8_t* src = g.access(lane, in, rd<uint64_t>(regs, in.b), bytes, false);
            if (!src) return false;
            std::memmove(dst, src, bytes);
            return true;
        }
        case Kind::AccessChain: {
            const uint32_t* a = g.m->aux.data() + in.aux;
            uint64_t addr = rd<uint64_t>(regs, in.a) + (uint64_t(a[0]) | (uint64_t(a[1]) << 32));
            for (uint32_t k = 0; k < in.n; ++k) {
                const uint32_t* s = a + 2 + 3 * k;
                addr += uint64_t(readIndex(regs, s[0], s[1])) *
                        uint64_t(int64_t(s[2]));  // wraps like the hardware
            }
            wr<uint64_t>(regs, in.res, addr);
            return true;
        }
        case Kind::PtrCompare: {
            uint64_t x = rd<uint64_t>(regs, in.a), y = rd<uint64_t>(regs, in.b);
            if (in.sub == PtrEq)
                regs[in.res] = x == y;
            else if (in.sub == PtrNe)
                regs[in.res] = x != y;
            else {
                int64_t d = in.c ? int64_t(x - y) / int64_t(in.c) : 0;
                std::memcpy(regs + in.res, &d, in.width);
            }
            return true;
        }
        default: return true;
    }
}

bool decodeMemory(DecodeCtx& c) {
    const uint32_t op = c.in->opcode;
    Insn in = c.start(Kind::Load);
    switch (op) {
        case token(spv::Op::OpLoad): {
            uint32_t pt = pointee(c, c.word(3), "Pointer");
            if (pt == UINT32_MAX) return true;
            const Type& rt = c.type(c.ids[c.word(2)].type);
            if (!sameShape(c.type(pt), rt)) return c.fail("result type does not match the pointee type");
            in.res = c.reg(c.word(2));
            in.a = c.reg(c.word(3));
            in.n = rt.reg_size;
            if (in.n == 4) in.kind = Kind::Load4;
            c.emit(in);
            return true;
        }
        case token(spv::Op::OpStore): {
            uint32_t pt = pointee(c, c.word(1), "Pointer");
            if (pt == UINT32_MAX) return true;
            uint32_t vt = c.valueType(c.word(2), "Object");
            if (vt == UINT32_MAX) return true;
            if (!sameShape(c.type(pt), c.type(vt)))
                return c.fail("object type does not match the pointee type");
            in.kind = c.type(vt).reg_size == 4 ? Kind::Store4 : Kind::Store;
            in.a = c.reg(c.word(1));
            in.b = c.reg(c.word(2));
            in.n = c.type(vt).reg_size;
            c.emit(in);
            return true;
        }
        case token(spv::Op::OpCopyMemory):
        case token(spv::Op::OpCopyMemorySized): {  // OpCopyMemory, OpCopyMemorySized
            uint32_t tt = pointee(c, c.word(1), "Target"), st = pointee(c, c.word(2), "Source");
            if (tt == UINT32_MAX || st == UINT32_MAX) return true;
            in.kind = Kind::CopyMemory;
            in.a = c.reg(c.word(1));
            in.b = c.reg(c.word(2));
            if (op == token(spv::Op::OpCopyMemory)) {
                if (!sameShape(c.type(tt), c.type(st)))
                    return c.fail("Target and Source pointee types differ");
                const Type& t = c.type(tt);
                in.n = t.info.kind == K::Vector ? t.reg_size : t.mem_size;
            } else {
                uint32_t zt = c.valueType(c.word(3), "Size");
                if (zt == UINT32_MAX) return true;
                if (c.type(zt).info.kind != K::Int) return c.fail("Size is not an integer");
                in.c = c.reg(c.word(3));
                in.flags = uint8_t(c.type(zt).reg_size);
            }
            c.emit(in);
            return true;
        }
        case token(spv::Op::OpAccessChain):
        case token(spv::Op::OpInBoundsAccessChain):
        case token(spv::Op::OpPtrAccessChain):
        case token(spv::Op::OpInBoundsPtrAccessChain): {  // access chains
            const bool ptr_chain =
                op == token(spv::Op::OpPtrAccessChain) || op == token(spv::Op::OpInBoundsPtrAccessChain);
            uint32_t t = pointee(c, c.word(3), "Base");
            if (t == UINT32_MAX) return true;
            const Type& rt = c.type(c.ids[c.word(2)].type);
            if (rt.info.kind != K::Pointer) return c.fail("result type is not a pointer");
            int64_t const_off = 0;
            std::vector<uint32_t> dyn;
            auto index = [&](uint32_t w, uint64_t stride) -> bool {
                uint32_t it = c.valueType(c.word(w), "index");
                if (it == UINT32_MAX) return false;
                if (c.type(it).info.kind != K::Int) return c.fail("index is not a scalar integer");
                uint64_t v;
                if (c.intConstant(c.word(w), &v)) {
                    uint32_t bytes = c.type(it).reg_size;
                    int64_t sv = bytes == 8 ? int64_t(v) : int64_t(v << (64 - 8 * bytes)) >> (64 - 8 * bytes);
                    const_off = int64_t(uint64_t(const_off) + uint64_t(sv) * stride);
                } else {
                    dyn.insert(dyn.end(), {c.reg(c.word(w)), c.type(it).reg_size, uint32_t(stride)});
                }
                return true;
            };
            uint32_t w = 4;
            if (ptr_chain) {
                if (c.words() < 5) return c.fail("missing Element operand");
                uint32_t stride = c.type(t).mem_size, deco;
                if (c.decorated(c.ids[c.word(3)].type, token(spv::Decoration::ArrayStride), &deco))
                    stride = deco;  // ArrayStride on the pointer type
                if (!index(w++, stride)) return true;
            }
            for (; w < c.words(); ++w) {
                const Type& cur = c.type(t);
                if (cur.info.kind == K::Struct) {
                    uint64_t k;
                    if (!c.intConstant(c.word(w), &k))
                        return c.fail("struct index is not an integer constant");
                    if (k >= cur.members.size())
                        return c.fail("struct index " + std::to_string(k) + " is out of range");
                    const_off += cur.offsets[k];
                    t = cur.members[k];
                } else if (cur.info.kind == K::Array || cur.info.kind == K::Vector) {
                    if (!index(w, cur.stride)) return true;
                    t = cur.elem;
                } else {
                    return c.fail("too many indexes: " + cur.name + " is not a composite");
                }
            }
            if (rt.elem == UINT32_MAX || !sameShape(c.type(rt.elem), c.type(t)))
                return c.fail("result type does not point to the indexed element type");
            in.kind = Kind::AccessChain;
            in.res = c.reg(c.word(2));
            in.a = c.reg(c.word(3));
            in.n = uint32_t(dyn.size() / 3);
            in.aux = uint32_t(c.m.aux.size());
            c.m.aux.push_back(uint32_t(uint64_t(const_off)));
            c.m.aux.push_back(uint32_t(uint64_t(const_off) >> 32));
            c.m.aux.insert(c.m.aux.end(), dyn.begin(), dyn.end());
            if (in.n == 0 && const_off == 0) {
                in.kind = Kind::Copy;
                in.n = 8;
            }
            c.emit(in);
            return true;
        }
        case token(spv::Op::OpPtrEqual):
        case token(spv::Op::OpPtrNotEqual):
        case token(spv::Op::OpPtrDiff): {
            uint32_t t1 = pointee(c, c.word(3), "Operand 1"), t2 = pointee(c, c.word(4), "Operand 2");
            if (t1 == UINT32_MAX || t2 == UINT32_MAX) return true;
            in.kind = Kind::PtrCompare;
            in.sub = op == token(spv::Op::OpPtrEqual)      ? PtrEq
                     : op == token(spv::Op::OpPtrNotEqual) ? PtrNe
                                                           : PtrDiff;
            in.res = c.reg(c.word(2));
            in.a = c.reg(c.word(3));
            in.b = c.reg(c.word(4));
            in.c = c.type(t1).mem_size;
            in.width = uint8_t(c.type(c.ids[c.word(2)].type).reg_size);
            c.emit(in);
            return true;
        }
        default: return false;
    }
}

}  // namespace refdev::spirv
