// OpImageSampleExplicitLod (Lod 0): the sampler's coordinate normalization, addressing mode and filter
// applied as the OpenCL 3.0 API spec's "Image Sampling" section gives them (nearest: floor of the
// coordinate; linear: the two, four or eight texels around u - 0.5 weighted by the fractional part), with
// the border colour for CLAMP and NONE outside the image.
#include <CL/cl.h>

#include <cmath>

#include "reference_device/spirv/instructions/image_access.h"
#include "reference_device/texel_conversion.h"

namespace refdev::spirv {
namespace {

using namespace image;

// SPIR-V SamplerAddressingMode and SamplerFilterMode.
enum Addressing : uint32_t { kNone = 0, kClampToEdge = 1, kClamp = 2, kRepeat = 3, kMirroredRepeat = 4 };
enum Filter : uint32_t { kNearest = 0, kLinear = 1 };

struct Sampler {
    uint32_t addressing = 0;
    bool normalized = false;
    uint32_t filter = 0;
};

// The 8-byte sampler value (OpConstantSampler, spirv/types.cpp, and sampler arguments, kernel_launch.cpp):
// byte 0 addressing mode, byte 1 normalized, byte 2 filter, bit 32 set for a real sampler.
bool decodeSampler(uint64_t v, Sampler* s) {
    s->addressing = uint32_t(v & 0xff);
    s->normalized = ((v >> 8) & 0xff) != 0;
    s->filter = uint32_t((v >> 16) & 0xff);
    return (v >> 32) == 1 && s->addressing <= kMirroredRepeat && s->filter <= kLinear;
}

// The texels along one dimension and the weight of the second (linear) for coordinate s of an image
// `size` texels wide. i1 = i0 for nearest.
struct Axis {
    int64_t i0 = 0, i1 = 0;
    float a = 0;
};

// The fractional part; 0 for NaN and infinities (whose texel indices are outside the image anyway).
float frac(float v) {
    const float f = v - std::floor(v);
    return f >= 0.0f && f < 1.0f ? f : 0.0f;
}

// floor(v) as an index. Coordinates far outside any image (and NaN) become an index outside it: the cast of
// such a float is undefined in C++, and every addressing mode treats the index as past an edge anyway.
int64_t index(float v) {
    const float f = std::floor(v);
    constexpr float kFar = 1073741824.0f;  // 2^30
    return f >= -kFar && f <= kFar ? int64_t(f) : -int64_t(kFar);
}

Axis axis(float s, int64_t size, const Sampler& smp, uint32_t addressing) {
    Axis r;
    const float w = float(size);
    if (addressing == kRepeat || addressing == kMirroredRepeat) {
        float u;
        if (addressing == kRepeat) {
            u = (s - std::floor(s)) * w;
        } else {
            const float m = 2.0f * std::rint(0.5f * s);
            u = std::fabs(s - m) * w;
        }
        if (smp.filter == kNearest) {
            r.i0 = index(u);
            if (addressing == kRepeat && r.i0 > size - 1) r.i0 -= size;
            if (addressing == kMirroredRepeat) r.i0 = std::min(r.i0, size - 1);
            r.i1 = r.i0;
            return r;
        }
        r.i0 = index(u - 0.5f);
        r.i1 = r.i0 + 1;
        r.a = frac(u - 0.5f);
        if (addressing == kRepeat) {
            if (r.i0 < 0) r.i0 += size;
            if (r.i1 > size - 1) r.i1 -= size;
        } else {
            r.i0 = std::max<int64_t>(r.i0, 0);
            r.i1 = std::min(r.i1, size - 1);
        }
        return r;
    }
    const float u = smp.normalized ? s * w : s;
    if (smp.filter == kNearest) {
        r.i0 = r.i1 = index(u);
    } else {
        r.i0 = index(u - 0.5f);
        r.i1 = r.i0 + 1;
        r.a = frac(u - 0.5f);
    }
    if (addressing == kClampToEdge) {
        r.i0 = std::min(std::max<int64_t>(r.i0, 0), size - 1);
        r.i1 = std::min(std::max<int64_t>(r.i1, 0), size - 1);
    }
    return r;  // CLAMP and NONE: indices outside the image read the border colour
}

// Texel (i, j, k) of the layer as four words; the border colour outside the image: (0, 0, 0, 1) for orders
// without alpha (R, RG), (0, 0, 0, 0) for those with it.
void fetch(const ImageDesc& d, const Shape& s, const int64_t ijk[3], int64_t layer, uint32_t out[4]) {
    bool inside = true;
    for (uint32_t k = 0; k < s.spatial; ++k) inside &= ijk[k] >= 0 && ijk[k] < extent(d, k);
    if (inside) {
        const int64_t z = s.spatial > 2 ? ijk[2] : layer;
        decodeTexel(d.channel_order, d.channel_type, texelAt(d, ijk[0], s.spatial > 1 ? ijk[1] : 0, z), out);
        return;
    }
    const bool alpha = d.channel_order != CL_R && d.channel_order != CL_RG;
    const float one = 1.0f;
    out[0] = out[1] = out[2] = 0;
    out[3] = alpha                                  ? 0
             : channelTypeIsInteger(d.channel_type) ? 1u
                                                    : [&] {
                                                          uint32_t b;
                                                          std::memcpy(&b, &one, 4);
                                                          return b;
                                                      }();
}

bool ub(GroupRun& g, Lane& lane, const Insn& in, const std::string& what) {
    g.fail(lane, in, "undefined behaviour: " + what);
    return false;
}

}  // namespace

bool sampleImage(const Insn& in, GroupRun& g, Lane& lane) {
    const ImageDesc* d = imageArg(g, lane, in, rd<uint64_t>(lane.regs, in.a));
    if (!d) return false;
    Sampler smp;
    if (!decodeSampler(rd<uint64_t>(lane.regs, in.a + 8), &smp))
        return ub(g, lane, in, "the sampled image's sampler is not a valid sampler");
    if (!texelKindMatches(*d, in))
        return ub(g, lane, in, "the result type does not match the image's channel type (float or integer)");
    const bool int_coords = !(in.flags & kFloatCoord);
    // OpenCL C 6.15.15.2: integer coordinates need unnormalized coordinates, nearest filtering and an
    // addressing mode other than the repeats; the repeats need normalized coordinates; integer formats are
    // read with nearest filtering only.
    if (int_coords && (smp.normalized || smp.filter != kNearest || smp.addressing >= kRepeat))
        return ub(g, lane, in, "integer coordinates with a sampler that is normalized, linear or repeating");
    if (smp.addressing >= kRepeat && !smp.normalized)
        return ub(g, lane, in, "REPEAT / MIRRORED_REPEAT addressing with unnormalized coordinates");
    if (smp.filter == kLinear && channelTypeIsInteger(d->channel_type))
        return ub(g, lane, in, "linear filtering of an image with an integer channel type");
    // A driver that programs CLAMP_TO_EDGE as CLAMP: coordinates past the edge read the border colour.
    uint32_t addressing = smp.addressing;
    if (addressing == kClampToEdge && g.shared->faults->has("sampler_clamp_to_edge_as_clamp"))
        addressing = kClamp;

    const Shape s = shapeOf(in.aux);
    float coord[4] = {0, 0, 0, 0};
    for (uint32_t k = 0; k < in.n && k < 4; ++k) {
        if (int_coords)
            coord[k] = float(rd<int32_t>(lane.regs, in.b + 4 * k));
        else
            coord[k] = rd<float>(lane.regs, in.b + 4 * k);
    }
    int64_t layer = 0;
    if (s.arrayed) {  // the layer is never normalized: rounded to nearest even and clamped
        layer = index(std::rint(coord[s.spatial]));
        layer = std::min(std::max<int64_t>(layer, 0), int64_t(d->array_size) - 1);
    }
    Axis ax[3];
    for (uint32_t k = 0; k < s.spatial; ++k) {
        if (int_coords) {  // exact: the integer itself, clamped to the edge or bordered
            ax[k].i0 = ax[k].i1 = int64_t(rd<int32_t>(lane.regs, in.b + 4 * k));
            if (addressing == kClampToEdge)
                ax[k].i0 = ax[k].i1 = std::min(std::max<int64_t>(ax[k].i0, 0), extent(*d, k) - 1);
        } else {
            ax[k] = axis(coord[k], extent(*d, k), smp, addressing);
        }
    }
    uint32_t words[4];
    if (smp.filter == kNearest) {
        const int64_t ijk[3] = {ax[0].i0, ax[1].i0, ax[2].i0};
        fetch(*d, s, ijk, layer, words);
        storeResult(in, lane.regs, words);
        return true;
    }
    float sum[4] = {0, 0, 0, 0};
    for (uint32_t corner = 0; corner < (1u << s.spatial); ++corner) {
        int64_t ijk[3] = {0, 0, 0};
        float weight = 1.0f;
        for (uint32_t k = 0; k < s.spatial; ++k) {
            const bool second = (corner >> k) & 1;
            ijk[k] = second ? ax[k].i1 : ax[k].i0;
            weight *= second ? ax[k].a : 1.0f - ax[k].a;
        }
        uint32_t t[4];
        fetch(*d, s, ijk, layer, t);
        for (int c = 0; c < 4; ++c) {
            float f;
            std::memcpy(&f, &t[c], 4);
            sum[c] += weight * f;
        }
    }
    std::memcpy(words, sum, sizeof(words));
    storeResult(in, lane.regs, words);
    return true;
}

}  // namespace refdev::spirv
