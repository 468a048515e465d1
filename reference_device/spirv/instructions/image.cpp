// Image instructions of the OpenCL SPIR-V environment: OpImageRead / OpImageWrite with integer coordinates
// on every image type, the size, format and order queries, and OpSampledImage (sampling itself is in
// image_sampler.cpp). Texel conversions follow OpenCL C 6.15.15 and the API's 8.3 (texel_conversion.h).
#include <CL/cl.h>

#include "reference_device/spirv/decode.h"
#include "reference_device/spirv/half.h"
#include "reference_device/spirv/instructions/image_access.h"
#include "reference_device/texel_conversion.h"

namespace refdev::spirv {

bool sampleImage(const Insn& in, GroupRun& g, Lane& lane);  // image_sampler.cpp

namespace image {

uint32_t clImageType(const std::string& name) {
    if (name == "image1d_t") return CL_MEM_OBJECT_IMAGE1D;
    if (name == "image1d_buffer_t") return CL_MEM_OBJECT_IMAGE1D_BUFFER;
    if (name == "image1d_array_t") return CL_MEM_OBJECT_IMAGE1D_ARRAY;
    if (name == "image2d_t") return CL_MEM_OBJECT_IMAGE2D;
    if (name == "image2d_array_t") return CL_MEM_OBJECT_IMAGE2D_ARRAY;
    if (name == "image3d_t") return CL_MEM_OBJECT_IMAGE3D;
    return 0;
}

Shape shapeOf(uint32_t t) {
    switch (t) {
        case CL_MEM_OBJECT_IMAGE1D:
        case CL_MEM_OBJECT_IMAGE1D_BUFFER: return {1, false};
        case CL_MEM_OBJECT_IMAGE1D_ARRAY: return {1, true};
        case CL_MEM_OBJECT_IMAGE2D_ARRAY: return {2, true};
        case CL_MEM_OBJECT_IMAGE3D: return {3, false};
        default: return {2, false};
    }
}

std::string typeName(uint32_t t) {
    switch (t) {
        case CL_MEM_OBJECT_IMAGE1D: return "1D";
        case CL_MEM_OBJECT_IMAGE1D_BUFFER: return "1D buffer";
        case CL_MEM_OBJECT_IMAGE1D_ARRAY: return "1D array";
        case CL_MEM_OBJECT_IMAGE2D_ARRAY: return "2D array";
        case CL_MEM_OBJECT_IMAGE3D: return "3D";
        default: return "2D";
    }
}

const ImageDesc* imageArg(GroupRun& g, Lane& lane, const Insn& in, uint64_t handle) {
    for (const ImageDesc& d : g.shared->images) {
        if (uint64_t(uintptr_t(&d)) != handle) continue;
        const uint32_t type = d.image_type ? d.image_type : CL_MEM_OBJECT_IMAGE2D;
        if (type == in.aux) return &d;
        g.fail(lane, in,
               "undefined behaviour: the image argument is a " + typeName(type) +
                   " image, the instruction's image type is " + typeName(in.aux));
        return nullptr;
    }
    g.fail(lane, in, "undefined behaviour: the image operand is not an image argument of this launch");
    return nullptr;
}

bool texelKindMatches(const ImageDesc& d, const Insn& in) {
    return channelTypeIsInteger(d.channel_type) == !(in.flags & kFloatTexel);
}

void storeResult(const Insn& in, uint8_t* regs, const uint32_t words[4]) {
    for (int c = 0; c < 4; ++c) {
        if (in.flags & kHalfTexel) {
            float f;
            std::memcpy(&f, &words[c], 4);
            wr<uint16_t>(regs, in.res + 2 * c, floatToHalf(f));
        } else {
            wr<uint32_t>(regs, in.res + 4 * c, words[c]);
        }
    }
}

}  // namespace image

namespace {

using namespace image;
using K = TypeInfo::Kind;

// Integer coordinates of a sampler-less access: x, y and the slice or layer (z), checked against the image.
bool texelCoords(GroupRun& g, Lane& lane, const Insn& in, const ImageDesc& d, int64_t xyz[3]) {
    const Shape s = shapeOf(in.aux);
    int64_t c[4] = {0, 0, 0, 0};
    for (uint32_t k = 0; k < in.n && k < 4; ++k) c[k] = rd<int32_t>(lane.regs, in.b + 4 * k);
    xyz[0] = c[0];
    xyz[1] = s.spatial > 1 ? c[1] : 0;
    xyz[2] = s.spatial > 2 ? c[2] : s.arrayed ? c[s.spatial] : 0;
    const int64_t limits[3] = {int64_t(d.width), s.spatial > 1 ? int64_t(d.height) : 1,
                               s.spatial > 2 ? int64_t(d.depth)
                               : s.arrayed   ? int64_t(d.array_size)
                                             : 1};
    for (int k = 0; k < 3; ++k)
        if (xyz[k] < 0 || xyz[k] >= limits[k]) {
            // OpenCL C 6.15.15.3: a read or write outside the image (without a sampler) is undefined.
            g.fail(lane, in,
                   "undefined behaviour: coordinate (" + std::to_string(xyz[0]) + ", " +
                       std::to_string(xyz[1]) + ", " + std::to_string(xyz[2]) + ") is outside the " +
                       std::to_string(limits[0]) + "x" + std::to_string(limits[1]) + "x" +
                       std::to_string(limits[2]) + " image");
            return false;
        }
    return true;
}

bool kindError(GroupRun& g, Lane& lane, const Insn& in, const ImageDesc& d) {
    g.fail(lane, in,
           std::string("undefined behaviour: ") + (in.flags & kFloatTexel ? "float" : "integer") +
               " texels with an image of " + (channelTypeIsInteger(d.channel_type) ? "integer" : "float") +
               " channel type");
    return false;
}

bool readWrite(const Insn& in, GroupRun& g, Lane& lane) {
    const ImageDesc* d = imageArg(g, lane, in, rd<uint64_t>(lane.regs, in.a));
    if (!d) return false;
    if (!texelKindMatches(*d, in)) return kindError(g, lane, in, *d);
    int64_t xyz[3];
    if (!texelCoords(g, lane, in, *d, xyz)) return false;
    uint8_t* texel = texelAt(*d, xyz[0], xyz[1], xyz[2]);
    uint32_t words[4];
    if (in.sub == Read) {
        decodeTexel(d->channel_order, d->channel_type, texel, words);
        storeResult(in, lane.regs, words);
        return true;
    }
    for (int c = 0; c < 4; ++c) {
        if (in.flags & kHalfTexel) {
            const float f = halfToFloat(rd<uint16_t>(lane.regs, in.c + 2 * c));
            std::memcpy(&words[c], &f, 4);
        } else {
            words[c] = rd<uint32_t>(lane.regs, in.c + 4 * c);
        }
    }
    encodeTexel(d->channel_order, d->channel_type, words, texel);
    return true;
}

bool query(const Insn& in, GroupRun& g, Lane& lane) {
    const ImageDesc* d = imageArg(g, lane, in, rd<uint64_t>(lane.regs, in.a));
    if (!d) return false;
    if (in.sub == QueryFormat || in.sub == QueryOrder) {
        // The SPIR-V Image Channel Data Type / Order enumerants: the CL_ constants less their first value.
        wr<uint32_t>(lane.regs, in.res,
                     in.sub == QueryFormat ? d->channel_type - CL_SNORM_INT8 : d->channel_order - CL_R);
        return true;
    }
    const Shape s = shapeOf(in.aux);
    uint64_t v[4] = {d->width, 0, 0, 0};
    uint32_t k = 1;
    if (s.spatial > 1) v[k++] = d->height;
    if (s.spatial > 2) v[k++] = d->depth;
    if (s.arrayed) v[k++] = d->array_size;
    for (uint32_t i = 0; i < in.n; ++i) {
        if (in.width == 8)
            wr<uint64_t>(lane.regs, in.res + 8 * i, i < 4 ? v[i] : 0);
        else
            wr<uint32_t>(lane.regs, in.res + 4 * i, uint32_t(i < 4 ? v[i] : 0));
    }
    return true;
}

// --- decoding ---

constexpr uint32_t kLod = 0x2, kSignExtend = 0x1000, kZeroExtend = 0x2000, kNontemporal = 0x4000;

// The CL image type of an OpTypeImage operand (0 after logging when it is none).
uint32_t imageOperand(DecodeCtx& c, uint32_t word, const char* what) {
    const uint32_t t = c.valueType(c.word(word), what);
    if (t == UINT32_MAX) return 0;
    const Type& ty = c.type(t);
    const uint32_t cl = ty.info.kind == K::Image ? clImageType(ty.name) : 0;
    if (!cl) c.fail(std::string(what) + " is not an OpenCL image type");
    return cl;
}

// A four-component texel type: float (32 or 16 bits) or 32-bit integer. Sets width and flags.
bool texelType(DecodeCtx& c, const Type& t, Insn* in, const char* what) {
    const bool ok = t.info.kind == K::Vector && t.info.components == 4 &&
                    ((t.info.component_kind == K::Float &&
                      (t.info.component_bits == 32 || t.info.component_bits == 16)) ||
                     (t.info.component_kind == K::Int && t.info.component_bits == 32));
    if (!ok) return c.fail(std::string(what) + " must be a 4-component vector of float, half or 32-bit int");
    in->width = uint8_t(t.info.component_bits / 8);
    if (t.info.component_kind == K::Float) in->flags |= kFloatTexel;
    if (t.info.component_bits == 16) in->flags |= kHalfTexel;
    return true;
}

// Coordinates: `count` or more components of 32-bit int (or float where allowed).
bool coordinates(DecodeCtx& c, uint32_t word, uint32_t count, bool float_ok, Insn* in) {
    const uint32_t t = c.valueType(c.word(word), "Coordinate");
    if (t == UINT32_MAX) return false;
    const Type& ty = c.type(t);
    const bool is_float = ty.info.component_kind == K::Float;
    if (!((ty.info.component_kind == K::Int || (float_ok && is_float)) && ty.info.component_bits == 32))
        return c.fail(std::string("Coordinate must be 32-bit int") + (float_ok ? " or float" : ""));
    if (ty.info.components < count)
        return c.fail("Coordinate has " + std::to_string(ty.info.components) +
                      " components, the image type needs " + std::to_string(count));
    in->b = c.reg(c.word(word));
    in->n = ty.info.components;
    if (is_float) in->flags |= kFloatCoord;
    return true;
}

uint32_t coordinateCount(uint32_t cl_type) {
    const Shape s = shapeOf(cl_type);
    return s.spatial + (s.arrayed ? 1 : 0);
}

// The Lod operand's value is a constant zero (the device has no mipmapped images).
bool lodIsZero(DecodeCtx& c, uint32_t id) {
    if (id >= c.ids.size() || !c.ids[id].constant || c.ids[id].type == UINT32_MAX) return false;
    const Type& t = c.type(c.ids[id].type);
    if (t.info.kind != K::Int && t.info.kind != K::Float) return false;
    uint64_t bits = 0;
    std::memcpy(&bits, c.m.reg_init.data() + c.reg(id), std::min<uint32_t>(t.reg_size, 8));
    return (bits & ~(uint64_t(1) << (t.reg_size * 8 - 1))) == 0;  // +0 or -0
}

// The optional image operands from word k: sign / zero extension and nontemporal hints (no effect here),
// and Lod when constant zero. `need_lod` for the explicit-Lod sampling.
bool imageOperands(DecodeCtx& c, uint32_t k, bool need_lod) {
    if (c.words() <= k) return need_lod ? c.fail("needs the image operand Lod") : true;
    const uint32_t mask = c.word(k);
    if (mask & ~(kLod | kSignExtend | kZeroExtend | kNontemporal))
        return c.fail("image operands 0x" + [&] {
            char b[16];
            std::snprintf(b, sizeof b, "%x", mask);
            return std::string(b);
        }() + " are not supported by this device (Lod, SignExtend, ZeroExtend and Nontemporal are)");
    if (need_lod && !(mask & kLod)) return c.fail("needs the image operand Lod");
    if ((mask & kLod) && !lodIsZero(c, c.word(k + 1)))
        return c.fail("Lod must be a constant 0: this device has no mipmapped images");
    return true;
}

}  // namespace

bool execImage(const Insn& in, GroupRun& g, Lane& lane) {
    switch (in.sub) {
        case SampledImage:
            std::memcpy(lane.regs + in.res, lane.regs + in.a, 8);
            std::memcpy(lane.regs + in.res + 8, lane.regs + in.b, 8);
            return true;
        case Read:
        case Write: return readWrite(in, g, lane);
        case SampleLod: return sampleImage(in, g, lane);
        default: return query(in, g, lane);
    }
}

bool decodeImage(DecodeCtx& c) {
    const uint32_t op = c.in->opcode;
    Insn in = c.start(Kind::Image);
    switch (op) {
        case token(spv::Op::OpSampledImage): {
            in.sub = SampledImage;
            if (!imageOperand(c, 3, "Image")) return false;
            const uint32_t st = c.valueType(c.word(4), "Sampler");
            if (st == UINT32_MAX) return false;
            if (c.type(st).info.kind != K::Sampler) return c.fail("Sampler is not a sampler");
            in.res = c.reg(c.word(2));
            in.a = c.reg(c.word(3));
            in.b = c.reg(c.word(4));
            break;
        }
        case token(spv::Op::OpImageRead): {
            in.sub = Read;
            in.aux = imageOperand(c, 3, "Image");
            if (!in.aux || !texelType(c, c.type(c.ids[c.word(2)].type), &in, "Result Type") ||
                !coordinates(c, 4, coordinateCount(in.aux), false, &in) || !imageOperands(c, 5, false))
                return false;
            in.res = c.reg(c.word(2));
            in.a = c.reg(c.word(3));
            break;
        }
        case token(spv::Op::OpImageWrite): {
            in.sub = Write;
            in.aux = imageOperand(c, 1, "Image");
            if (!in.aux) return false;
            const uint32_t tt = c.valueType(c.word(3), "Texel");
            if (tt == UINT32_MAX || !texelType(c, c.type(tt), &in, "Texel") ||
                !coordinates(c, 2, coordinateCount(in.aux), false, &in) || !imageOperands(c, 4, false))
                return false;
            in.a = c.reg(c.word(1));
            in.c = c.reg(c.word(3));
            break;
        }
        case token(spv::Op::OpImageSampleExplicitLod): {
            in.sub = SampleLod;
            const uint32_t st = c.valueType(c.word(3), "Sampled Image");
            if (st == UINT32_MAX) return false;
            const Type& sampled = c.type(st);
            if (sampled.info.kind != K::SampledImage || sampled.elem == UINT32_MAX)
                return c.fail("Sampled Image is not a sampled image");
            in.aux = clImageType(c.type(sampled.elem).name);
            if (!in.aux) return c.fail("Sampled Image is not of an OpenCL image type");
            if (in.aux == CL_MEM_OBJECT_IMAGE1D_BUFFER) return c.fail("a 1D buffer image cannot be sampled");
            if (!texelType(c, c.type(c.ids[c.word(2)].type), &in, "Result Type") ||
                !coordinates(c, 4, coordinateCount(in.aux), true, &in) || !imageOperands(c, 5, true))
                return false;
            in.res = c.reg(c.word(2));
            in.a = c.reg(c.word(3));
            break;
        }
        case token(spv::Op::OpImageQuerySizeLod):
        case token(spv::Op::OpImageQuerySize): {
            in.sub = op == token(spv::Op::OpImageQuerySize) ? QuerySize : QuerySizeLod;
            in.aux = imageOperand(c, 3, "Image");
            if (!in.aux) return false;
            if (in.sub == QuerySizeLod && !lodIsZero(c, c.word(4)))
                return c.fail("Level of Detail must be a constant 0: this device has no mipmapped images");
            const Type& rt = c.type(c.ids[c.word(2)].type);
            if (rt.info.component_kind != K::Int ||
                (rt.info.component_bits != 32 && rt.info.component_bits != 64))
                return c.fail("Result Type must be a 32- or 64-bit integer scalar or vector");
            in.res = c.reg(c.word(2));
            in.a = c.reg(c.word(3));
            in.n = rt.info.components;
            in.width = uint8_t(rt.info.component_bits / 8);
            break;
        }
        case token(spv::Op::OpImageQueryFormat):
        case token(spv::Op::OpImageQueryOrder): {
            in.sub = op == token(spv::Op::OpImageQueryFormat) ? QueryFormat : QueryOrder;
            in.aux = imageOperand(c, 3, "Image");
            if (!in.aux) return false;
            const Type& rt = c.type(c.ids[c.word(2)].type);
            if (rt.info.kind != K::Int || rt.info.component_bits != 32)
                return c.fail("Result Type must be a 32-bit integer scalar");
            in.res = c.reg(c.word(2));
            in.a = c.reg(c.word(3));
            break;
        }
        default: return false;
    }
    c.emit(in);
    return true;
}

}  // namespace refdev::spirv
