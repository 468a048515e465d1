// Types (OpenCL C memory layout), constants and the DecodeCtx helpers used by every decoder.
#include <algorithm>
#include <cstring>

#include "reference_device/spirv/decode.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {
namespace {

using K = TypeInfo::Kind;
constexpr uint32_t kMaxTypeBytes = 1u << 28;

uint32_t alignUp(uint32_t v, uint32_t a) {
    return (v + a - 1) / a * a;
}

Type& newType(DecodeCtx& c, uint32_t id, K kind) {
    c.m.types.emplace_back();
    Type& t = c.m.types.back();
    t.id = id;
    t.info.kind = kind;
    t.info.component_kind = kind;
    c.ids[id].what = IdDef::TypeId;
    c.ids[id].type = uint32_t(c.m.types.size() - 1);
    return t;
}

void scalar(Type& t, uint32_t bits) {
    t.info.component_bits = bits;
    t.info.byte_size = t.reg_size = t.mem_size = t.mem_align = bits / 8;
}

// OpenCL C's integer type names by width; any other width prints as long.
const char* intName(uint32_t bits) {
    static const struct {
        uint32_t bits;
        const char* name;
    } kNames[] = {{8, "char"}, {16, "short"}, {32, "int"}};
    for (const auto& n : kNames)
        if (n.bits == bits) return n.name;
    return "long";
}

}  // namespace

bool sameShape(const Type& a, const Type& b) {
    if (&a == &b) return true;
    if (a.info.kind != b.info.kind || a.info.component_kind != b.info.component_kind ||
        a.info.component_bits != b.info.component_bits || a.info.components != b.info.components)
        return false;
    if (a.info.kind == K::Pointer) return a.info.storage_class == b.info.storage_class;
    if (a.info.kind == K::Struct || a.info.kind == K::Array) return a.id == b.id || a.mem_size == b.mem_size;
    return true;
}
bool isInt(const Type& t) {
    return t.info.kind == K::Int || (t.info.kind == K::Vector && t.info.component_kind == K::Int);
}
bool isFloat(const Type& t) {
    return t.info.kind == K::Float || (t.info.kind == K::Vector && t.info.component_kind == K::Float);
}
bool isBool(const Type& t) {
    return t.info.kind == K::Bool || (t.info.kind == K::Vector && t.info.component_kind == K::Bool);
}
uint32_t componentBytes(const Type& t) {
    return t.info.kind == K::Bool ? 1 : t.info.component_bits / 8;
}

uint32_t DecodeCtx::valueType(uint32_t id, const char* what) {
    if (id >= ids.size() || ids[id].what != IdDef::Value) {
        fail(std::string(what) + " %" + std::to_string(id) + " is not a value");
        return UINT32_MAX;
    }
    return ids[id].type;
}

uint32_t DecodeCtx::typeIndex(uint32_t id) {
    if (id >= ids.size() || ids[id].what != IdDef::TypeId) {
        fail("%" + std::to_string(id) + " is not a type");
        return UINT32_MAX;
    }
    return ids[id].type;
}

bool DecodeCtx::intConstant(uint32_t id, uint64_t* value) const {
    if (id >= ids.size() || !ids[id].has_int) return false;
    *value = ids[id].int_value;
    return true;
}

bool DecodeCtx::decorated(uint32_t id, uint32_t decoration, uint32_t* value) const {
    for (const Decoration& d : decorations)
        if (d.target == id && d.decoration == decoration) {
            if (value) *value = d.value;
            return true;
        }
    return false;
}

uint32_t DecodeCtx::variableAlign(uint32_t id, const Type& pointee, uint32_t floor) {
    uint32_t align = std::max(pointee.mem_align, floor), asked = 0;
    if (decorated(id, token(spv::Decoration::Alignment), &asked)) {
        if (asked == 0 || (asked & (asked - 1)) || asked > kMaxVariableAlign) {
            fail("Alignment " + std::to_string(asked) + " of %" + std::to_string(id) +
                 " is not a power of two in 1.." + std::to_string(kMaxVariableAlign));
            return 0;
        }
        align = std::max(align, asked);
    }
    m.var_align = std::max(m.var_align, align);
    return align;
}

uint32_t DecodeCtx::allocReg(uint32_t bytes) {
    uint32_t off = alignUp(reg_size, 8);
    reg_size = off + std::max<uint32_t>(bytes, 1);
    if (m.reg_init.size() < reg_size) m.reg_init.resize(alignUp(reg_size, 8), 0);
    return off;
}

uint32_t DecodeCtx::defineResult(uint32_t type_id) {
    uint32_t t = typeIndex(type_id);
    if (t == UINT32_MAX) return t;
    uint32_t id = word(2);
    ids[id].what = IdDef::Value;
    ids[id].type = t;
    ids[id].reg = allocReg(type(t).reg_size);
    return t;
}

Insn DecodeCtx::start(Kind kind) const {
    Insn i;
    i.kind = kind;
    i.opcode = uint16_t(in->opcode);
    i.word = in->offset;
    return i;
}

bool declareType(DecodeCtx& c) {
    const uint32_t op = c.in->opcode;
    if (op < token(spv::Op::OpTypeVoid) || op > token(spv::Op::OpTypeForwardPointer)) return false;
    const uint32_t id = c.word(1);
    if (c.ids[id].what == IdDef::TypeId && op != token(spv::Op::OpTypePointer))
        return c.fail("type id defined twice");
    auto sub = [&](uint32_t k) { return c.typeIndex(c.word(k)); };
    switch (op) {
        case token(spv::Op::OpTypeVoid): newType(c, id, K::Void).name = "void"; return true;
        case token(spv::Op::OpTypeBool): {
            Type& t = newType(c, id, K::Bool);
            scalar(t, 8);
            t.info.component_bits = 8;
            t.name = "bool";
            return true;
        }
        case token(spv::Op::OpTypeInt): {
            uint32_t bits = c.word(2);
            if (bits != 8 && bits != 16 && bits != 32 && bits != 64)
                return c.fail("integer width " + std::to_string(bits) + " is not supported");
            Type& t = newType(c, id, K::Int);
            scalar(t, bits);
            t.is_signed = c.word(3) != 0;
            t.name = intName(bits);
            return true;
        }
        case token(spv::Op::OpTypeFloat): {
            uint32_t bits = c.word(2);
            if (bits != 16 && bits != 32 && bits != 64)
                return c.fail("float width " + std::to_string(bits) + " is not supported");
            Type& t = newType(c, id, K::Float);
            scalar(t, bits);
            t.name = bits == 16 ? "half" : bits == 32 ? "float" : "double";
            return true;
        }
        case token(spv::Op::OpTypeVector): {
            uint32_t e = sub(2), n = c.word(3);
            if (e == UINT32_MAX) return true;
            const Type comp = c.type(e);
            if (comp.info.kind != K::Int && comp.info.kind != K::Float && comp.info.kind != K::Bool)
                return c.fail("vector component type is not a scalar");
            // VectorAnyINTEL (SPV_INTEL_vector_compute) allows any count; Intel's compiler takes 1, 32 and
            // 64, which Triton's 2D block IO and MMA calls use (64: its 64x128 and 256x256 GEMM tiles).
            const bool any = std::count(c.capabilities.begin(), c.capabilities.end(),
                                        token(spv::Capability::VectorAnyINTEL)) > 0;
            if (n != 2 && n != 3 && n != 4 && n != 8 && n != 16 && !(any && (n == 1 || n == 32 || n == 64)))
                return c.fail("vector component count " + std::to_string(n) + " is not supported" +
                              (n == 1 || n == 32 || n == 64 ? " (without capability VectorAnyINTEL)" : ""));
            Type& t = newType(c, id, K::Vector);
            t.info.component_kind = comp.info.kind;
            t.info.component_bits = comp.info.component_bits;
            t.info.components = n;
            t.elem = e;
            t.stride = comp.mem_size;
            t.info.byte_size = t.reg_size = comp.mem_size * n;
            t.mem_size = t.mem_align = comp.mem_size * (n == 3 ? 4 : n);
            t.name = comp.name + std::to_string(n);
            return true;
        }
        case token(spv::Op::OpTypeImage): {
            if (c.words() < 9) return c.fail("too few operands");
            Type& t = newType(c, id, K::Image);
            t.info.byte_size = t.reg_size = t.mem_size = t.mem_align = 8;
            t.info.component_bits = 64;
            t.access = c.words() > 9 ? c.word(9) : 0;
            static const char* dims[] = {"image1d_t", "image2d_t", "image3d_t", "", "", "image1d_buffer_t"};
            uint32_t dim = c.word(3);
            t.name = dim < 6 ? dims[dim] : "";
            if (c.word(5) && dim == 1) t.name = "image2d_array_t";
            if (c.word(5) && dim == 0) t.name = "image1d_array_t";
            return true;
        }
        case token(spv::Op::OpTypeSampler):
        case token(spv::Op::OpTypeEvent):
        case token(spv::Op::OpTypeDeviceEvent):
        case token(spv::Op::OpTypeReserveId):
        case token(spv::Op::OpTypeQueue): {  // sampler, events, reserve id, queue
            Type& t = newType(c, id,
                              op == token(spv::Op::OpTypeSampler) ? K::Sampler
                              : op == token(spv::Op::OpTypeEvent) ? K::Event
                                                                  : K::Other);
            t.info.byte_size = t.reg_size = t.mem_size = t.mem_align = 8;
            t.info.component_bits = 64;
            t.name = op == token(spv::Op::OpTypeSampler) ? "sampler_t"
                     : op == token(spv::Op::OpTypeEvent) ? "event_t"
                                                         : "";
            return true;
        }
        case token(spv::Op::OpTypeSampledImage): {
            const uint32_t image = sub(2);
            Type& t = newType(c, id, K::SampledImage);
            t.info.byte_size = t.reg_size = t.mem_size = t.mem_align = 16;
            t.elem = image;  // the image type (image instructions read its dimensionality)
            return true;
        }
        case token(spv::Op::OpTypeArray): {
            uint32_t e = sub(2);
            uint64_t len = 0;
            if (e == UINT32_MAX) return true;
            if (!c.intConstant(c.word(3), &len) || len == 0)
                return c.fail("array length is not a positive integer constant");
            const Type elem = c.type(e);
            if (elem.mem_size == 0) return c.fail("array element type has no size");
            if (len * elem.mem_size > kMaxTypeBytes) return c.fail("array is larger than 256 MiB");
            Type& t = newType(c, id, K::Array);
            t.elem = e;
            t.length = uint32_t(len);
            t.stride = elem.mem_size;
            t.mem_align = elem.mem_align;
            t.info.byte_size = t.reg_size = t.mem_size = uint32_t(len) * elem.mem_size;
            t.name = elem.name + "[" + std::to_string(len) + "]";
            return true;
        }
        case token(spv::Op::OpTypeRuntimeArray): return c.fail("runtime arrays are not supported");
        case token(spv::Op::OpTypeStruct): {  // OpTypeStruct, OpenCL C layout unless CPacked
            std::vector<uint32_t> members;
            for (uint32_t k = 2; k < c.words(); ++k) {
                uint32_t m = sub(k);
                if (m == UINT32_MAX) return true;
                if (c.type(m).mem_size == 0) return c.fail("struct member type has no size");
                members.push_back(m);
            }
            bool packed = c.decorated(id, token(spv::Decoration::CPacked));
            uint32_t off = 0, align = 1;
            std::vector<uint32_t> offsets;
            for (uint32_t m : members) {
                const Type& mt = c.type(m);
                uint32_t a = packed ? 1 : mt.mem_align;
                off = alignUp(off, a);
                offsets.push_back(off);
                off += mt.mem_size;
                align = std::max(align, a);
                if (off > kMaxTypeBytes) return c.fail("struct is larger than 256 MiB");
            }
            Type& t = newType(c, id, K::Struct);
            t.members = std::move(members);
            t.offsets = std::move(offsets);
            t.mem_align = align;
            t.info.byte_size = t.reg_size = t.mem_size = std::max<uint32_t>(alignUp(off, align), 1);
            t.name = "struct";
            if (!c.names[id].empty()) t.name = c.names[id];
            return true;
        }
        case token(spv::Op::OpTypeOpaque): {
            Type& t = newType(c, id, K::Other);
            t.info.byte_size = t.reg_size = 0;
            return true;
        }
        case token(spv::Op::OpTypePointer):
        case token(spv::Op::OpTypeForwardPointer): {  // OpTypePointer, OpTypeForwardPointer
            uint32_t storage = op == token(spv::Op::OpTypePointer) ? c.word(2) : c.word(2);
            uint32_t ptr_id = c.word(1);
            Type* t;
            if (c.ids[ptr_id].what == IdDef::TypeId) {
                t = &c.m.types[c.ids[ptr_id].type];
                if (t->info.kind != K::Pointer || t->elem != UINT32_MAX)
                    return c.fail("type id defined twice");
            } else {
                t = &newType(c, ptr_id, K::Pointer);
            }
            t->info.component_bits = 64;
            t->info.byte_size = t->reg_size = t->mem_size = t->mem_align = 8;
            t->info.storage_class = storage;
            if (op == token(spv::Op::OpTypePointer)) {
                uint32_t e = sub(3);
                if (e == UINT32_MAX) return true;
                t->elem = e;
                t->info.pointee = &c.m.types[e].info;
                t->info.pointee_bytes = c.m.types[e].mem_size;
            }
            return true;
        }
        case token(spv::Op::OpTypeFunction): {
            for (uint32_t k = 2; k < c.words(); ++k)
                if (sub(k) == UINT32_MAX) return true;
            newType(c, id, K::Function);
            return true;
        }
        case token(spv::Op::OpTypeMatrix): return c.fail("matrix types are not supported");
        default: return c.fail("type is not supported");
    }
}

// Writes constituent `k` of a composite constant into its register image.
static bool placeConstituent(DecodeCtx& c, const Type& t, uint32_t k, uint32_t src, uint8_t* dst) {
    uint32_t st = c.valueType(src, "constituent");
    if (st == UINT32_MAX) return false;
    // OpUndef is a valid constituent of a composite constant (SPIR-V 2.16.1 lists it among the constant
    // instructions a constituent may come from); its bytes stay zero.
    const bool undef =
        c.ids[src].def < c.raw.size() && c.raw[c.ids[src].def].opcode == token(spv::Op::OpUndef);
    if (c.ids[src].address)
        return c.fail("constituent %" + std::to_string(src) +
                      " depends on a variable's address, known only at launch: not supported in a composite");
    if (!c.ids[src].constant && !undef) return c.fail("constituent is not a constant");
    uint32_t want = UINT32_MAX, off = 0;
    switch (t.info.kind) {
        case K::Vector:
            want = t.elem;
            off = k * t.stride;
            break;
        case K::Array:
            want = t.elem;
            off = k * t.stride;
            break;
        case K::Struct:
            want = t.members[k];
            off = t.offsets[k];
            break;
        default: return c.fail("result type is not a composite");
    }
    if (!sameShape(c.type(st), c.type(want)))
        return c.fail("constituent " + std::to_string(k) + " has the wrong type");
    std::memcpy(dst + off, c.m.reg_init.data() + c.reg(src), c.type(st).reg_size);
    return true;
}

bool declareConstant(DecodeCtx& c) {
    const uint32_t op = c.in->opcode;
    switch (op) {
        case token(spv::Op::OpUndef):
        case token(spv::Op::OpConstantTrue):
        case token(spv::Op::OpConstantFalse):
        case token(spv::Op::OpConstant):
        case token(spv::Op::OpConstantComposite):
        case token(spv::Op::OpConstantSampler):
        case token(spv::Op::OpConstantNull):
        case token(spv::Op::OpSpecConstantTrue):
        case token(spv::Op::OpSpecConstantFalse):
        case token(spv::Op::OpSpecConstant):
        case token(spv::Op::OpSpecConstantComposite): break;
        case token(spv::Op::OpSpecConstantOp): declareSpecConstantOp(c); return true;
        default: return false;
    }
    uint32_t t = c.defineResult(c.word(1));
    if (t == UINT32_MAX) return true;
    const uint32_t id = c.word(2);
    IdDef& def = c.ids[id];
    def.constant = op != token(spv::Op::OpUndef);
    const Type& ty = c.type(t);
    uint8_t* dst = c.m.reg_init.data() + def.reg;
    switch (op) {
        case token(spv::Op::OpConstantTrue):
        case token(spv::Op::OpConstantFalse):
        case token(spv::Op::OpSpecConstantTrue):
        case token(spv::Op::OpSpecConstantFalse):
            if (ty.info.kind != K::Bool) return c.fail("result type is not bool");
            *dst = (op == token(spv::Op::OpConstantTrue) || op == token(spv::Op::OpSpecConstantTrue)) ? 1 : 0;
            return true;
        case token(spv::Op::OpConstant):
        case token(spv::Op::OpSpecConstant): {
            if (ty.info.kind != K::Int && ty.info.kind != K::Float)
                return c.fail("result type is not a scalar number");
            uint32_t need = ty.info.component_bits > 32 ? 2 : 1;
            if (c.words() != 3 + need) return c.fail("literal has the wrong number of words for its type");
            uint64_t v = c.word(3);
            if (need == 2) v |= uint64_t(c.word(4)) << 32;
            std::memcpy(dst, &v, ty.reg_size);
            if (ty.info.kind == K::Int) {
                def.has_int = true;
                def.int_value = ty.reg_size == 8 ? v : (v & ((uint64_t(1) << (8 * ty.reg_size)) - 1));
            }
            return true;
        }
        case token(spv::Op::OpConstantComposite):
        case token(spv::Op::OpSpecConstantComposite): {
            uint32_t n = c.words() - 3;
            uint32_t want = ty.info.kind == K::Vector   ? ty.info.components
                            : ty.info.kind == K::Array  ? ty.length
                            : ty.info.kind == K::Struct ? uint32_t(ty.members.size())
                                                        : UINT32_MAX;
            if (want == UINT32_MAX) return c.fail("result type is not a composite");
            if (n != want)
                return c.fail("has " + std::to_string(n) + " constituents, the type needs " +
                              std::to_string(want));
            for (uint32_t k = 0; k < n; ++k)
                if (!placeConstituent(c, ty, k, c.word(3 + k), c.m.reg_init.data() + def.reg)) return true;
            return true;
        }
        case token(spv::Op::OpConstantSampler): {  // addressing mode, normalized, filter packed into the
                                                   // 8-byte value
            uint64_t v =
                uint64_t(c.word(3)) | (uint64_t(c.word(4)) << 8) | (uint64_t(c.word(5)) << 16) | (1ull << 32);
            std::memcpy(dst, &v, 8);
            return true;
        }
        default:  // OpConstantNull, OpUndef: zero bytes
            return true;
    }
}

}  // namespace refdev::spirv
