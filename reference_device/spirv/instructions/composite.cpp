// Composites and vectors: OpCompositeConstruct/Extract/Insert, OpVectorShuffle, OpVectorExtractDynamic,
// OpVectorInsertDynamic, OpCopyObject, OpCopyLogical. Register layout: vectors packed, structs/arrays in
// memory layout.
#include "reference_device/spirv/decode.h"
#include "reference_device/spirv/interp.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {
namespace {

using K = TypeInfo::Kind;

uint64_t readIndex(const uint8_t* regs, uint32_t off, uint32_t bytes) {
    uint64_t v = 0;
    std::memcpy(&v, regs + off, bytes);
    return v;
}

// Member k of a composite type: type index and byte offset; false when k is out of range.
bool member(const DecodeCtx& c, const Type& t, uint32_t k, uint32_t* type, uint32_t* offset) {
    switch (t.info.kind) {
        case K::Vector:
        case K::Array:
            if (k >= (t.info.kind == K::Vector ? t.info.components : t.length)) return false;
            *type = t.elem;
            *offset = k * t.stride;
            return true;
        case K::Struct:
            if (k >= t.members.size()) return false;
            *type = t.members[k];
            *offset = t.offsets[k];
            return true;
        default: return false;
    }
}

// Walks literal indexes starting at word `first`; returns the element type index or UINT32_MAX.
uint32_t walk(DecodeCtx& c, uint32_t type, uint32_t first, uint32_t* offset) {
    *offset = 0;
    for (uint32_t k = first; k < c.words(); ++k) {
        uint32_t t, off;
        if (!member(c, c.type(type), c.word(k), &t, &off)) {
            c.fail("index " + std::to_string(c.word(k)) + " is out of range for " + c.type(type).name);
            return UINT32_MAX;
        }
        *offset += off;
        type = t;
    }
    return type;
}

// OpCopyLogical: appends to aux one (source offset, destination offset, bytes) copy per leaf of two types
// that logically match (SPIR-V 2.2.x "Logically Match": arrays of one length, structs of one member count,
// leaves of one type); false when they do not.
bool logicalCopies(DecodeCtx& c, uint32_t dst_type, uint32_t dst, uint32_t src_type, uint32_t src,
                   uint32_t* n) {
    const Type &d = c.type(dst_type), &s = c.type(src_type);
    if (d.info.kind == K::Array || d.info.kind == K::Struct) {
        if (s.info.kind != d.info.kind) return false;
        const uint32_t count = d.info.kind == K::Array ? d.length : uint32_t(d.members.size());
        if (count != (s.info.kind == K::Array ? s.length : uint32_t(s.members.size()))) return false;
        for (uint32_t k = 0; k < count; ++k) {
            uint32_t dt, doff, st, soff;
            if (!member(c, d, k, &dt, &doff) || !member(c, s, k, &st, &soff) ||
                !logicalCopies(c, dt, dst + doff, st, src + soff, n))
                return false;
        }
        return true;
    }
    if (s.info.kind == K::Array || s.info.kind == K::Struct || !sameShape(d, s)) return false;
    c.m.aux.insert(c.m.aux.end(), {src, dst, d.reg_size});
    ++*n;
    return true;
}

}  // namespace

uint64_t dynamicIndex(const Insn& in, const uint8_t* regs) {
    return readIndex(regs, in.kind == Kind::ExtractDynamic ? in.b : in.c, in.flags);
}

void execComposite(const Insn& in, const Module& m, uint8_t* regs) {
    switch (in.kind) {
        case Kind::CompositeConstruct: {
            const uint32_t* a = m.aux.data() + in.aux;
            for (uint32_t k = 0; k < in.n; ++k)
                std::memmove(regs + in.res + a[3 * k + 1], regs + a[3 * k], a[3 * k + 2]);
            break;
        }
        case Kind::Shuffle: {
            const uint32_t* a = m.aux.data() + in.aux;
            uint8_t tmp[128];
            for (uint32_t k = 0; k < in.n; ++k) {
                if (a[k] == UINT32_MAX)
                    std::memset(tmp + k * in.width, 0, in.width);
                else
                    std::memcpy(tmp + k * in.width, regs + a[k], in.width);
            }
            std::memcpy(regs + in.res, tmp, in.n * in.width);
            break;
        }
        case Kind::ExtractDynamic: {  // the interpreter has reported an out-of-range index
            uint64_t i = dynamicIndex(in, regs);
            if (i < in.n) std::memmove(regs + in.res, regs + in.a + i * in.width, in.width);
            break;
        }
        case Kind::InsertDynamic: {
            uint64_t i = dynamicIndex(in, regs);
            std::memmove(regs + in.res, regs + in.a, size_t(in.n) * in.width);
            if (i < in.n) std::memmove(regs + in.res + i * in.width, regs + in.b, in.width);
            break;
        }
        case Kind::CompositeInsert:
            std::memmove(regs + in.res, regs + in.a, in.n);
            std::memmove(regs + in.res + in.c, regs + in.b, in.aux);
            break;
        default: break;
    }
}

bool decodeComposite(DecodeCtx& c) {
    const uint32_t op = c.in->opcode;
    if (op != token(spv::Op::OpVectorExtractDynamic) && op != token(spv::Op::OpVectorInsertDynamic) &&
        op != token(spv::Op::OpVectorShuffle) && op != token(spv::Op::OpCompositeConstruct) &&
        op != token(spv::Op::OpCompositeExtract) && op != token(spv::Op::OpCompositeInsert) &&
        op != token(spv::Op::OpCopyObject) && op != token(spv::Op::OpCopyLogical))
        return false;
    const uint32_t rti = c.ids[c.word(2)].type;
    const Type& rt = c.type(rti);
    Insn in = c.start(Kind::Copy);
    in.res = c.reg(c.word(2));
    switch (op) {
        case token(spv::Op::OpCopyObject): {
            uint32_t ta = c.valueType(c.word(3));
            if (ta == UINT32_MAX) return true;
            if (!sameShape(c.type(ta), rt)) return c.fail("operand type does not match the result type");
            in.a = c.reg(c.word(3));
            in.n = rt.reg_size;
            break;
        }
        case token(spv::Op::OpCopyLogical): {
            if (c.version < 0x00010400)
                return c.fail("needs SPIR-V 1.4; the module is SPIR-V 1." +
                              std::to_string((c.version >> 8) & 0xff));
            uint32_t ta = c.valueType(c.word(3));
            if (ta == UINT32_MAX) return true;
            if (c.type(ta).id == rt.id) return c.fail("result type is the operand's type (use OpCopyObject)");
            // A leaf-by-leaf copy, as OpCompositeConstruct runs it: the two layouts may differ.
            in.kind = Kind::CompositeConstruct;
            in.aux = uint32_t(c.m.aux.size());
            in.n = 0;
            if (!logicalCopies(c, rti, 0, ta, c.reg(c.word(3)), &in.n))
                return c.fail("operand type does not logically match the result type");
            break;
        }
        case token(spv::Op::OpCompositeExtract): {
            uint32_t ta = c.valueType(c.word(3), "composite");
            if (ta == UINT32_MAX) return true;
            uint32_t off = 0, et = walk(c, ta, 4, &off);
            if (et == UINT32_MAX) return true;
            if (!sameShape(c.type(et), rt)) return c.fail("result type does not match the extracted element");
            in.a = c.reg(c.word(3)) + off;
            in.n = rt.reg_size;
            break;
        }
        case token(spv::Op::OpCompositeInsert): {  // Object, Composite, indexes
            uint32_t to = c.valueType(c.word(3), "object"), tc = c.valueType(c.word(4), "composite");
            if (to == UINT32_MAX || tc == UINT32_MAX) return true;
            if (!sameShape(c.type(tc), rt)) return c.fail("composite type does not match the result type");
            uint32_t off = 0, et = walk(c, tc, 5, &off);
            if (et == UINT32_MAX) return true;
            if (!sameShape(c.type(et), c.type(to))) return c.fail("object type does not match the element");
            in.kind = Kind::CompositeInsert;
            in.a = c.reg(c.word(4));
            in.b = c.reg(c.word(3));
            in.c = off;
            in.n = rt.reg_size;
            in.aux = c.type(to).reg_size;
            break;
        }
        case token(spv::Op::OpCompositeConstruct): {
            in.kind = Kind::CompositeConstruct;
            in.aux = uint32_t(c.m.aux.size());
            uint32_t dst = 0, k = 0;
            for (uint32_t w = 3; w < c.words(); ++w) {
                uint32_t ts = c.valueType(c.word(w), "constituent");
                if (ts == UINT32_MAX) return true;
                const Type& st = c.type(ts);
                if (rt.info.kind == K::Vector) {
                    // scalars or vectors of the component type, concatenated
                    if (st.info.component_kind != rt.info.component_kind ||
                        st.info.component_bits != rt.info.component_bits ||
                        (st.info.kind != K::Vector && st.info.kind != rt.info.component_kind))
                        return c.fail("constituent does not have the vector's component type");
                    if (dst + st.reg_size > rt.reg_size) return c.fail("constituents exceed the vector size");
                    c.m.aux.insert(c.m.aux.end(), {c.reg(c.word(w)), dst, st.reg_size});
                    dst += st.reg_size;
                } else {
                    uint32_t et, off;
                    if (!member(c, rt, k, &et, &off)) return c.fail("too many constituents");
                    if (!sameShape(c.type(et), st))
                        return c.fail("constituent " + std::to_string(k) + " has the wrong type");
                    c.m.aux.insert(c.m.aux.end(), {c.reg(c.word(w)), off, st.reg_size});
                }
                ++k;
            }
            uint32_t want = rt.info.kind == K::Vector   ? rt.reg_size
                            : rt.info.kind == K::Array  ? rt.length
                            : rt.info.kind == K::Struct ? uint32_t(rt.members.size())
                                                        : UINT32_MAX;
            if (want == UINT32_MAX) return c.fail("result type is not a composite");
            if ((rt.info.kind == K::Vector ? dst : k) != want) return c.fail("wrong number of constituents");
            in.n = k;
            break;
        }
        case token(spv::Op::OpVectorShuffle): {
            uint32_t t1 = c.valueType(c.word(3)), t2 = c.valueType(c.word(4));
            if (t1 == UINT32_MAX || t2 == UINT32_MAX) return true;
            const Type &v1 = c.type(t1), &v2 = c.type(t2);
            if (v1.info.kind != K::Vector || v2.info.kind != K::Vector || rt.info.kind != K::Vector ||
                v1.info.component_bits != rt.info.component_bits ||
                v2.info.component_bits != rt.info.component_bits ||
                v1.info.component_kind != rt.info.component_kind ||
                v2.info.component_kind != rt.info.component_kind)
                return c.fail("operands and result must be vectors of one component type");
            if (c.words() - 5 != rt.info.components)
                return c.fail("component count does not match the result type");
            in.kind = Kind::Shuffle;
            in.width = uint8_t(componentBytes(rt));
            in.n = rt.info.components;
            in.aux = uint32_t(c.m.aux.size());
            for (uint32_t w = 5; w < c.words(); ++w) {
                uint32_t s = c.word(w);
                if (s == UINT32_MAX)
                    c.m.aux.push_back(UINT32_MAX);
                else if (s < v1.info.components)
                    c.m.aux.push_back(c.reg(c.word(3)) + s * in.width);
                else if (s < v1.info.components + v2.info.components)
                    c.m.aux.push_back(c.reg(c.word(4)) + (s - v1.info.components) * in.width);
                else
                    return c.fail("component selector " + std::to_string(s) + " is out of range");
            }
            break;
        }
        case token(spv::Op::OpVectorExtractDynamic):
        case token(spv::Op::OpVectorInsertDynamic): {  // OpVectorExtractDynamic / OpVectorInsertDynamic
            uint32_t tv = c.valueType(c.word(3), "vector");
            if (tv == UINT32_MAX) return true;
            const Type& v = c.type(tv);
            if (v.info.kind != K::Vector) return c.fail("operand is not a vector");
            uint32_t idx_word = op == token(spv::Op::OpVectorExtractDynamic) ? 4 : 5;
            uint32_t ti = c.valueType(c.word(idx_word), "index");
            if (ti == UINT32_MAX) return true;
            if (c.type(ti).info.kind != K::Int) return c.fail("index is not a scalar integer");
            in.kind =
                op == token(spv::Op::OpVectorExtractDynamic) ? Kind::ExtractDynamic : Kind::InsertDynamic;
            in.a = c.reg(c.word(3));
            in.width = uint8_t(componentBytes(v));
            in.n = v.info.components;
            in.flags = uint8_t(c.type(ti).reg_size);
            if (op == token(spv::Op::OpVectorExtractDynamic)) {
                if (rt.info.kind != v.info.component_kind || rt.info.component_bits != v.info.component_bits)
                    return c.fail("result is not the vector's component type");
                in.b = c.reg(c.word(4));
            } else {
                uint32_t tc = c.valueType(c.word(4), "component");
                if (tc == UINT32_MAX) return true;
                if (!sameShape(v, rt) || c.type(tc).info.component_bits != v.info.component_bits ||
                    c.type(tc).info.kind != v.info.component_kind)
                    return c.fail("component or result type does not match the vector");
                in.b = c.reg(c.word(4));
                in.c = c.reg(c.word(5));
            }
            break;
        }
    }
    c.emit(in);
    return true;
}

}  // namespace refdev::spirv
