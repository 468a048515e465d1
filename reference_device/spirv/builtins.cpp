// Imported OpenCL C built-ins (builtins.h): the name grammar that maps a built-in of the extensions' function
// lists to the instruction it stands for, and the resolution of an OpFunctionCall of an imported function.
#include "reference_device/spirv/builtins.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

#include "reference_device/spirv/decode.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {
namespace {

using K = TypeInfo::Kind;
using Operand = BuiltinOperand;

bool startsWith(const std::string& s, const char* prefix) {
    return s.compare(0, std::strlen(prefix), prefix) == 0;
}

Operand arg(uint32_t k) {
    return {Operand::Kind::Argument, k};
}
Operand constant(uint32_t v) {
    return {Operand::Kind::Constant, v};
}

// Matrix Multiply Accumulate Operands of one matrix of a matrix mad name ("i8", "u4", "bf16", ...): the bits
// SPV_INTEL_subgroup_matrix_multiply_accumulate gives Matrix A; Matrix B's are each shifted left by one.
bool matrixElementBits(const char* element, uint32_t* a_bits) {
    static const struct {
        const char* name;
        uint32_t bits;  // as Matrix A: ASigned 0x1, APackedInt8 0x10, APackedInt4 0x40, ATF32 0x100,
                        // APackedFloat16 0x400, APackedBFloat16 0x1000
    } kElements[] = {{"i8", 0x10 | 0x1}, {"u8", 0x10},     {"i4", 0x40 | 0x1}, {"u4", 0x40},
                     {"f16", 0x400},     {"bf16", 0x1000}, {"tf32", 0x100}};
    for (const auto& e : kElements)
        if (std::strcmp(e.name, element) == 0) {
            *a_bits = e.bits;
            return true;
        }
    return false;
}

// An OpenCL C type spelling of the table against a SPIR-V type: scalars and vectors by kind, width and
// components (signedness is not in SPIR-V), pointers by address space (the pointee is not compared: the
// compilers pass `void*` and casted pointers as whatever pointer type they had), images by kind. `gentype`
// is any integer or floating-point scalar or vector (the instruction's own checks narrow it).
bool matchesSpelling(const Type& t, const std::string& spelling) {
    if (spelling == "void") return t.info.kind == K::Void;
    if (spelling == "gentype")
        return t.info.kind == K::Int || t.info.kind == K::Float ||
               (t.info.kind == K::Vector && t.info.component_kind != K::Bool);
    if (startsWith(spelling, "image")) return t.info.kind == K::Image;
    if (!spelling.empty() && spelling.back() == '*') {
        if (t.info.kind != K::Pointer) return false;
        static const struct {
            const char* space;
            spv::StorageClass storage;
        } kSpaces[] = {{"global ", spv::StorageClass::CrossWorkgroup},
                       {"local ", spv::StorageClass::Workgroup},
                       {"private ", spv::StorageClass::Function},
                       {"constant ", spv::StorageClass::UniformConstant}};
        for (const auto& s : kSpaces)
            if (startsWith(spelling, s.space)) return t.info.storage_class == token(s.storage);
        return false;
    }
    static const struct {
        const char* name;
        K kind;
        uint32_t bits;
    } kScalars[] = {{"char", K::Int, 8},     {"uchar", K::Int, 8},    {"short", K::Int, 16},
                    {"ushort", K::Int, 16},  {"int", K::Int, 32},     {"uint", K::Int, 32},
                    {"long", K::Int, 64},    {"ulong", K::Int, 64},   {"half", K::Float, 16},
                    {"float", K::Float, 32}, {"double", K::Float, 64}};
    size_t digits = spelling.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(spelling[digits - 1]))) --digits;
    const std::string base = spelling.substr(0, digits);
    const uint32_t components = digits == spelling.size() ? 1 : uint32_t(std::stoul(spelling.substr(digits)));
    for (const auto& s : kScalars) {
        if (base != s.name) continue;
        const K kind = components == 1 ? s.kind : K::Vector;
        return t.info.kind == kind && t.info.component_kind == s.kind && t.info.component_bits == s.bits &&
               t.info.components == components;
    }
    return false;
}

std::vector<std::string> splitParams(const char* params) {
    std::vector<std::string> out;
    std::string cur;
    for (const char* p = params; *p; ++p) {
        if (*p == ',') {
            out.push_back(cur);
            cur.clear();
        } else {
            cur.push_back(*p);
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

std::string typeSpelling(const Type& t) {
    switch (t.info.kind) {
        case K::Void: return "void";
        case K::Pointer: return "pointer (storage class " + std::to_string(t.info.storage_class) + ")";
        case K::Image: return "image";
        case K::Int:
        case K::Float:
        case K::Vector: {
            std::string s =
                (t.info.component_kind == K::Float ? "f" : "i") + std::to_string(t.info.component_bits);
            return t.info.components == 1 ? s : std::to_string(t.info.components) + " x " + s;
        }
        default: return t.name.empty() ? "another type" : t.name;
    }
}

}  // namespace

std::string demangledName(const std::string& mangled) {
    if (!startsWith(mangled, "_Z")) return mangled;
    size_t pos = 2, length = 0;
    while (pos < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[pos])))
        length = length * 10 + size_t(mangled[pos++] - '0');
    if (pos == 2 || length == 0 || pos + length > mangled.size()) return mangled;
    return mangled.substr(pos, length);
}

// cl_intel_subgroup_extended_block_read: intel_subgroup_block_read_<shape>(base, width, height, pitch, coord)
// returning the block, as the 2D block loads of the same hardware message: u<bits>_m<rows>k<width>v<count>
// a plain load, transform_u<bits>_k<rows> a transform <sub-group size> wide, transpose_u<bits>_k<width> a
// transpose <sub-group size> tall (the shapes of the driver's implementation, for sub-groups of 16).
bool extendedBlockRead(const std::string& s, BuiltinInstruction* out) {
    unsigned bits = 0, rows = 0, width = 0, count = 0;
    int used = 0;
    const auto whole = [&](int fields, int want) { return fields == want && size_t(used) == s.size(); };
    if (whole(std::sscanf(s.c_str(), "u%u_m%uk%uv%u%n", &bits, &rows, &width, &count, &used), 4)) {
        out->opcode = kOpExtendedBlockRead;
    } else if (whole(std::sscanf(s.c_str(), "transform_u%u_k%u%n", &bits, &rows, &used), 2)) {
        out->opcode = kOpExtendedBlockReadTransform, width = 16, count = 1;
    } else if (whole(std::sscanf(s.c_str(), "transpose_u%u_k%u%n", &bits, &width, &used), 2)) {
        out->opcode = kOpExtendedBlockReadTranspose, rows = 16, count = 1;
    } else {
        return false;
    }
    if (bits % 8 != 0) return false;
    out->operands = {constant(bits / 8), constant(width), constant(rows), constant(count)};
    for (uint32_t a = 0; a < 5; ++a) out->operands.push_back(arg(a));
    return true;
}

bool builtinInstruction(const std::string& name, bool first_argument_is_image, uint32_t result_bits,
                        uint32_t accumulator_bits, BuiltinInstruction* out) {
    using spv::Op;
    out->operands.clear();
    if (startsWith(name, "intel_subgroup_block_read_"))
        return extendedBlockRead(name.substr(std::strlen("intel_subgroup_block_read_")), out);
    const char* kPrefix = "intel_sub_group_";
    if (!startsWith(name, kPrefix)) return false;
    const std::string s = name.substr(std::strlen(kPrefix));
    // cl_intel_subgroup_2d_block_io: intel_sub_group_2d_block_<op>_<bits>b_<rows>r<width>x<count>c, the
    // arguments (base, width, height, pitch, coord[, pointer]); the instruction's shape operands are
    // constants: Element Size in bytes, Block Width, Block Height, Block Count.
    if (startsWith(s, "2d_block_")) {
        static const struct {
            const char* op;
            Op opcode;
        } kOps[] = {{"read_transform_", Op::OpSubgroup2DBlockLoadTransformINTEL},
                    {"read_transpose_", Op::OpSubgroup2DBlockLoadTransposeINTEL},
                    {"read_", Op::OpSubgroup2DBlockLoadINTEL},
                    {"prefetch_", Op::OpSubgroup2DBlockPrefetchINTEL},
                    {"write_", Op::OpSubgroup2DBlockStoreINTEL}};
        const std::string rest = s.substr(std::strlen("2d_block_"));
        for (const auto& k : kOps) {
            if (!startsWith(rest, k.op)) continue;
            unsigned bits = 0, rows = 0, width = 0, count = 0;
            int used = 0;
            const std::string shape = rest.substr(std::strlen(k.op));
            if (std::sscanf(shape.c_str(), "%ub_%ur%ux%uc%n", &bits, &rows, &width, &count, &used) != 4 ||
                size_t(used) != shape.size() || bits % 8 != 0)
                return false;
            out->opcode = token(k.opcode);
            out->operands = {constant(bits / 8), constant(width), constant(rows), constant(count)};
            if (k.opcode == Op::OpSubgroup2DBlockStoreINTEL)  // Src Pointer precedes Dst Base Pointer
                out->operands.push_back(arg(5));
            for (uint32_t a = 0; a < 5; ++a) out->operands.push_back(arg(a));
            if (k.opcode != Op::OpSubgroup2DBlockStoreINTEL && k.opcode != Op::OpSubgroup2DBlockPrefetchINTEL)
                out->operands.push_back(arg(5));
            return true;
        }
        return false;
    }
    // cl_intel_subgroup_matrix_multiply_accumulate: intel_sub_group_<A>_<B>_matrix_mad_k<K>(a, b, acc); the
    // element names give the Matrix Multiply Accumulate Operands, a 16-bit accumulator or result of a bf16
    // mad holds bf16 (CBFloat16 0x4, ResultBFloat16 0x8).
    // cl_intel_subgroup_split_matrix_multiply_accumulate's intel_sub_group_<A>_<B>_split_matrix_mad_k<K>
    // takes the same operands to the device's split mad.
    for (const bool split : {false, true}) {
        char a[8] = {}, b[8] = {};
        unsigned k = 0;
        int used = 0;
        const char* pattern =
            split ? "%7[a-z0-9]_%7[a-z0-9]_split_matrix_mad_k%u%n" : "%7[a-z0-9]_%7[a-z0-9]_matrix_mad_k%u%n";
        if (std::sscanf(s.c_str(), pattern, a, b, &k, &used) == 3 && size_t(used) == s.size()) {
            uint32_t a_bits = 0, b_bits = 0;
            if (!matrixElementBits(a, &a_bits) || !matrixElementBits(b, &b_bits)) return false;
            uint32_t operands = a_bits | b_bits << 1;
            const bool bf16 = std::strcmp(a, "bf16") == 0 && std::strcmp(b, "bf16") == 0;
            if (bf16 && accumulator_bits == 16) operands |= 0x4;
            if (bf16 && result_bits == 16) operands |= 0x8;
            out->opcode = split ? kOpSplitMatrixMad : token(Op::OpSubgroupMatrixMultiplyAccumulateINTEL);
            out->operands = {constant(k), arg(0), arg(1), arg(2), {Operand::Kind::Literal, operands}};
            return true;
        }
    }
    // cl_intel_subgroups (and its _short, _char, _long layers, cl_intel_subgroup_local_block_io): the
    // arguments are the instruction's operands in order.
    static const struct {
        const char* name;
        Op opcode;
        uint32_t arguments;
    } kShuffles[] = {{"shuffle", Op::OpSubgroupShuffleINTEL, 2},
                     {"shuffle_down", Op::OpSubgroupShuffleDownINTEL, 3},
                     {"shuffle_up", Op::OpSubgroupShuffleUpINTEL, 3},
                     {"shuffle_xor", Op::OpSubgroupShuffleXorINTEL, 2}};
    for (const auto& sh : kShuffles)
        if (s == sh.name) {
            out->opcode = token(sh.opcode);
            for (uint32_t a = 0; a < sh.arguments; ++a) out->operands.push_back(arg(a));
            return true;
        }
    if (startsWith(s, "block_read")) {
        out->opcode =
            token(first_argument_is_image ? Op::OpSubgroupImageBlockReadINTEL : Op::OpSubgroupBlockReadINTEL);
        out->operands =
            first_argument_is_image ? std::vector<Operand>{arg(0), arg(1)} : std::vector<Operand>{arg(0)};
        return true;
    }
    if (startsWith(s, "block_write")) {
        out->opcode = token(first_argument_is_image ? Op::OpSubgroupImageBlockWriteINTEL
                                                    : Op::OpSubgroupBlockWriteINTEL);
        out->operands = first_argument_is_image ? std::vector<Operand>{arg(0), arg(1), arg(2)}
                                                : std::vector<Operand>{arg(0), arg(1)};
        return true;
    }
    // cl_intel_media_block_io: (coord, width, height[, data], image); the instruction takes Image,
    // Coordinate, Width, Height[, Data].
    if (startsWith(s, "media_block_read")) {
        out->opcode = token(Op::OpSubgroupImageMediaBlockReadINTEL);
        out->operands = {arg(3), arg(0), arg(1), arg(2)};
        return true;
    }
    if (startsWith(s, "media_block_write")) {
        out->opcode = token(Op::OpSubgroupImageMediaBlockWriteINTEL);
        out->operands = {arg(4), arg(0), arg(1), arg(2), arg(3)};
        return true;
    }
    return false;
}

bool decodeBuiltinCall(DecodeCtx& c, uint32_t callee, const std::vector<uint32_t>& params) {
    auto linkage = c.import_names.find(callee);
    if (linkage == c.import_names.end())
        return c.fail("callee %" + std::to_string(callee) +
                      " has no body and no LinkageAttributes Import name: nothing to resolve it to");
    const std::string& mangled = linkage->second;
    const std::string name = demangledName(mangled);
    std::vector<const BuiltinDecl*> overloads;
    for (size_t i = 0; i < kOpenCLBuiltinCount; ++i)
        if (name == kOpenCLBuiltins[i].name) overloads.push_back(&kOpenCLBuiltins[i]);
    if (overloads.empty())
        return c.fail("calls the imported function " + mangled +
                      ", which is not a built-in this device implements (nor defined in the module)");
    // The call's types: result, then each argument.
    const Type& result = c.type(c.ids[c.word(2)].type);
    std::vector<const Type*> args;
    std::vector<uint32_t> arg_ids;
    for (uint32_t k = 4; k < c.words(); ++k) {
        uint32_t t = c.valueType(c.word(k), "argument");
        if (t == UINT32_MAX) return false;
        args.push_back(&c.type(t));
        arg_ids.push_back(c.word(k));
    }
    if (args.size() != params.size())
        return c.fail("passes " + std::to_string(args.size()) + " arguments to " + mangled +
                      ", declared with " + std::to_string(params.size()) + " parameters");
    const BuiltinDecl* decl = nullptr;
    for (const BuiltinDecl* d : overloads) {
        std::vector<std::string> spelled = splitParams(d->params);
        bool ok = spelled.size() == args.size() && matchesSpelling(result, d->ret);
        for (size_t k = 0; ok && k < args.size(); ++k) ok = matchesSpelling(*args[k], spelled[k]);
        if (ok) {
            decl = d;
            break;
        }
    }
    if (!decl) {
        std::string got = typeSpelling(result) + " (";
        for (size_t k = 0; k < args.size(); ++k) got += (k ? ", " : "") + typeSpelling(*args[k]);
        const BuiltinDecl* d = overloads.front();
        return c.fail("calls " + mangled + " as " + got + "), which matches no overload of " + name + " in " +
                      d->extension + " (for example " + d->ret + " " + name + "(" + d->params + "))");
    }
    BuiltinInstruction insn;
    const bool image = !args.empty() && args[0]->info.kind == K::Image;
    const uint32_t acc_bits = args.size() > 2 ? args[2]->info.component_bits : 0;
    if (!builtinInstruction(name, image, result.info.component_bits, acc_bits, &insn))
        return c.fail("calls " + mangled + ", a built-in of " + decl->extension +
                      " that no instruction of this device implements");
    const ExtOpInfo* info = c.ext.find(insn.opcode);
    bool supported = info && (info->execute || info->execute_pair);
    if (supported && !info->capabilities.empty())
        supported = std::any_of(info->capabilities.begin(), info->capabilities.end(),
                                [&](uint32_t cap) { return c.profile.buildsCapability(cap); });
    // Built-ins without a SPIR-V instruction (no capability to build) need their extension reported.
    if (supported && insn.opcode >= kFirstBuiltinOnlyOpcode)
        supported = c.profile.hasExtension(decl->extension);
    if (!supported)
        return c.fail("calls " + mangled + ", a built-in of " + decl->extension +
                      ", which this device does not support (profile " + c.profile.name + ")");
    if (c.in >= c.raw.data() && c.in < c.raw.data() + c.raw.size())
        c.builtin_calls[static_cast<size_t>(c.in - c.raw.data())] = insn.opcode;
    return decodeExtOpOperands(c, info, info->has_result ? c.word(2) : 0, insn.operands, arg_ids);
}

}  // namespace refdev::spirv
