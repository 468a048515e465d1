// Image instructions (image.cpp, image_sampler.cpp) on images described by hand: reads and writes of every
// image type with the OpenCL conversions, the queries, and sampling (image.spvasm).
#include <CL/cl.h>

#include <cmath>
#include <cstring>

#include "reference_device/faults.h"
#include "reference_device/spirv/half.h"
#include "reference_device/spirv/test_util.h"
#include "reference_device/texel_conversion.h"

namespace refdev::spirv::test {
namespace {

const Profile& imageProfile() {
    static const Profile p = [] {
        Profile p = testProfile();
        for (spv::Capability c :
             {spv::Capability::ImageBasic, spv::Capability::ImageReadWrite, spv::Capability::LiteralSampler,
              spv::Capability::Sampled1D, spv::Capability::Image1D, spv::Capability::SampledBuffer,
              spv::Capability::ImageBuffer})
            p.spirv_capabilities.push_back(token(c));
        return p;
    }();
    return p;
}

// An image in host memory with padded rows and slices (so that pitches, not widths, must place texels).
struct TestImage {
    std::vector<uint8_t> bytes;
    ImageDesc d;

    TestImage(uint32_t type, uint32_t order, uint32_t channel_type, size_t w, size_t h = 1,
              size_t layers = 1) {
        d.image_type = type;
        d.channel_order = order;
        d.channel_type = channel_type;
        d.texel_bytes = channelCount(order) * channelBytes(channel_type);
        d.width = w;
        d.height = h;
        if (type == CL_MEM_OBJECT_IMAGE3D)
            d.depth = layers;
        else
            d.array_size = layers;
        d.row_pitch = w * d.texel_bytes + 8;
        d.slice_pitch = d.row_pitch * h + 16;
        bytes.assign(d.slice_pitch * layers, 0);
        d.data = bytes.data();
    }
    uint8_t* at(size_t x, size_t y = 0, size_t z = 0) {
        return d.data + z * d.slice_pitch + y * d.row_pitch + x * d.texel_bytes;
    }
    ArgValue arg() const {
        ArgValue a;
        a.kind = ArgKind::Image;
        a.image = d;
        return a;
    }
};

// The 8-byte sampler value: SPIR-V addressing mode, normalized, filter (as clCreateSampler's arguments).
ArgValue sampler(uint32_t addressing, bool normalized, uint32_t filter) {
    ArgValue a = value<uint64_t>(uint64_t(addressing) | uint64_t(normalized) << 8 | uint64_t(filter) << 16 |
                                 uint64_t(1) << 32);
    a.kind = ArgKind::Sampler;
    return a;
}
enum { kNone, kClampToEdge, kClamp, kRepeat, kMirrored };
enum { kNearest, kLinear };

class Image : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        const std::vector<uint32_t> words = assembleFixture("image.spvasm");
        BuildResult r = buildModule(words.data(), words.size(), imageProfile());
        ASSERT_TRUE(r.module) << r.log;
        module_ = r.module;
    }
    static void TearDownTestSuite() { module_.reset(); }
    LaunchResult launchN(const std::string& kernel, const std::vector<ArgValue>& args, size_t n,
                         const char* fault = nullptr) {
        Faults faults;
        std::string error;
        if (fault) EXPECT_TRUE(faults.parse(fault, &error)) << error;
        return launch(*module_, kernel, args, range1(n, 1), imageProfile(), faults, 2);
    }
    static std::shared_ptr<const Module> module_;
};
std::shared_ptr<const Module> Image::module_;

float asFloat(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// Every image type: a uint4 read and write at every texel, through the type's coordinates.
TEST_F(Image, CopiesEveryTypeTexelByTexel) {
    struct Case {
        const char* kernel;
        uint32_t type;
        size_t w, h, layers;
    } cases[] = {{"copy_1d", CL_MEM_OBJECT_IMAGE1D, 5, 1, 1},
                 {"copy_1db", CL_MEM_OBJECT_IMAGE1D_BUFFER, 5, 1, 1},
                 {"copy_1da", CL_MEM_OBJECT_IMAGE1D_ARRAY, 5, 1, 3},
                 {"copy_2d", CL_MEM_OBJECT_IMAGE2D, 5, 3, 1},
                 {"copy_2da", CL_MEM_OBJECT_IMAGE2D_ARRAY, 5, 3, 2},
                 {"copy_3d", CL_MEM_OBJECT_IMAGE3D, 5, 3, 2}};
    for (const Case& c : cases) {
        SCOPED_TRACE(c.kernel);
        TestImage src(c.type, CL_RGBA, CL_UNSIGNED_INT8, c.w, c.h, c.layers);
        TestImage dst(c.type, CL_RGBA, CL_UNSIGNED_INT8, c.w, c.h, c.layers);
        const bool one_d_array = c.type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
        std::vector<uint32_t> coords;
        for (size_t z = 0; z < c.layers; ++z)
            for (size_t y = 0; y < c.h; ++y)
                for (size_t x = 0; x < c.w; ++x) {
                    for (int ch = 0; ch < 4; ++ch)
                        src.at(x, y, z)[ch] = uint8_t(200 + x + 10 * y + 20 * z + ch);
                    coords.insert(coords.end(), {uint32_t(x), uint32_t(one_d_array ? z : y), uint32_t(z), 0});
                }
        const size_t n = coords.size() / 4;
        std::vector<uint32_t> out(4 * n, 0xdeadu);
        LaunchResult r = launchN(c.kernel, {src.arg(), dst.arg(), buffer(coords), buffer(out)}, n);
        ASSERT_TRUE(r.ok) << r.error;
        size_t i = 0;
        for (size_t z = 0; z < c.layers; ++z)
            for (size_t y = 0; y < c.h; ++y)
                for (size_t x = 0; x < c.w; ++x, ++i) {
                    EXPECT_EQ(std::memcmp(dst.at(x, y, z), src.at(x, y, z), 4), 0)
                        << x << "," << y << "," << z;
                    EXPECT_EQ(out[4 * i], uint32_t(200 + x + 10 * y + 20 * z)) << i;  // zero-extended
                    EXPECT_EQ(out[4 * i + 3], uint32_t(203 + x + 10 * y + 20 * z)) << i;
                }
    }
}

// float4 reads of normalized formats (c / 255, BGRA swizzled, missing channels 0, 0, 0, 1) and writes that
// round to nearest even and saturate (NaN gives 0).
TEST_F(Image, NormalizedReadsAndSaturatingWrites) {
    TestImage bgra(CL_MEM_OBJECT_IMAGE2D, CL_BGRA, CL_UNORM_INT8, 1);
    const uint8_t stored[4] = {10, 20, 30, 40};  // B, G, R, A
    std::memcpy(bgra.at(0), stored, 4);
    TestImage dst(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_SNORM_INT8, 1);
    std::vector<uint32_t> coords = {0, 0, 0, 0};
    std::vector<float> out(4);
    LaunchResult r = launchN("copy_2d_f", {bgra.arg(), dst.arg(), buffer(coords), buffer(out)}, 1);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(out[0], 30 / 255.0f);
    EXPECT_EQ(out[1], 20 / 255.0f);
    EXPECT_EQ(out[2], 10 / 255.0f);
    EXPECT_EQ(out[3], 40 / 255.0f);
    EXPECT_EQ(int8_t(dst.at(0)[0]), int8_t(std::nearbyint(30 / 255.0f * 127)));

    TestImage r16(CL_MEM_OBJECT_IMAGE2D, CL_R, CL_UNORM_INT16, 1);
    const uint16_t v = 65535;
    std::memcpy(r16.at(0), &v, 2);
    TestImage fdst(CL_MEM_OBJECT_IMAGE2D, CL_R, CL_FLOAT, 1);
    r = launchN("copy_2d_f", {r16.arg(), fdst.arg(), buffer(coords), buffer(out)}, 1);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(out[0], 1.0f);
    EXPECT_EQ(out[1], 0.0f);
    EXPECT_EQ(out[2], 0.0f);
    EXPECT_EQ(out[3], 1.0f);

    TestImage f32(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, 1);
    const float values[4] = {2.0f, -1.0f, NAN, 0.5f};  // 0.5 * 255 = 127.5: to even, 128
    std::memcpy(f32.at(0), values, 16);
    TestImage u8(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNORM_INT8, 1);
    r = launchN("copy_2d_f", {f32.arg(), u8.arg(), buffer(coords), buffer(out)}, 1);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(u8.at(0)[0], 255);
    EXPECT_EQ(u8.at(0)[1], 0);
    EXPECT_EQ(u8.at(0)[2], 0);
    EXPECT_EQ(u8.at(0)[3], 128);
}

TEST_F(Image, HalfTexelsAndSignedIntegers) {
    TestImage h(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_HALF_FLOAT, 1);
    const uint16_t halves[4] = {0x3c00, 0xc000, 0x0001, 0x7bff};  // 1, -2, smallest denormal, 65504
    std::memcpy(h.at(0), halves, 8);
    TestImage hdst(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_HALF_FLOAT, 1);
    std::vector<uint32_t> coords = {0, 0, 0, 0};
    std::vector<uint16_t> hout(4);
    LaunchResult r = launchN("copy_2d_h", {h.arg(), hdst.arg(), buffer(coords), buffer(hout)}, 1);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(std::memcmp(hout.data(), halves, 8), 0);
    EXPECT_EQ(std::memcmp(hdst.at(0), halves, 8), 0);

    TestImage s32(CL_MEM_OBJECT_IMAGE2D, CL_RG, CL_SIGNED_INT32, 1);
    const int32_t ints[2] = {300, -300};
    std::memcpy(s32.at(0), ints, 8);
    TestImage s8(CL_MEM_OBJECT_IMAGE2D, CL_RG, CL_SIGNED_INT8, 1);
    std::vector<uint32_t> out(4);
    r = launchN("copy_2d", {s32.arg(), s8.arg(), buffer(coords), buffer(out)}, 1);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(int8_t(s8.at(0)[0]), 127);  // saturated
    EXPECT_EQ(int8_t(s8.at(0)[1]), -128);
    EXPECT_EQ(out[2], 0u);
    EXPECT_EQ(out[3], 1u);  // missing alpha of an integer format
    r = launchN("copy_2d", {s8.arg(), s32.arg(), buffer(coords), buffer(out)}, 1);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(out[1], uint32_t(-128));  // sign-extended
}

TEST_F(Image, ReadWriteImageAndUndefinedAccesses) {
    TestImage img(CL_MEM_OBJECT_IMAGE2D, CL_R, CL_FLOAT, 3, 2);
    const float v = 7.25f;
    std::memcpy(img.at(1, 1), &v, 4);
    std::vector<uint32_t> from = {1, 1, 0, 0}, to = {2, 0, 0, 0};
    LaunchResult r = launchN("rw_2d", {img.arg(), buffer(from), buffer(to)}, 1);
    ASSERT_TRUE(r.ok) << r.error;
    float seen = 0;
    std::memcpy(&seen, img.at(2, 0), 4);
    EXPECT_EQ(seen, 7.25f);

    to = {3, 0, 0, 0};  // past the width: a sampler-less write outside the image is undefined
    r = launchN("rw_2d", {img.arg(), buffer(from), buffer(to)}, 1);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("undefined behaviour: coordinate (3, 0, 0) is outside the 3x2x1 image"),
              std::string::npos)
        << r.error;

    TestImage u8(CL_MEM_OBJECT_IMAGE2D, CL_R, CL_UNSIGNED_INT8, 3, 2);
    r = launchN("rw_2d", {u8.arg(), buffer(from), buffer(from)}, 1);  // float4 from an integer format
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("float texels with an image of integer channel type"), std::string::npos)
        << r.error;

    TestImage three(CL_MEM_OBJECT_IMAGE3D, CL_RGBA, CL_UNSIGNED_INT8, 3, 2, 2);
    std::vector<uint32_t> out(4);
    r = launchN("copy_2d", {three.arg(), three.arg(), buffer(from), buffer(out)}, 1);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("the image argument is a 3D image, the instruction's image type is 2D"),
              std::string::npos)
        << r.error;
}

TEST_F(Image, QueriesSizesFormatAndOrder) {
    TestImage i1(CL_MEM_OBJECT_IMAGE1D, CL_R, CL_FLOAT, 11);
    TestImage i1a(CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_R, CL_FLOAT, 12, 1, 3);
    TestImage i2(CL_MEM_OBJECT_IMAGE2D, CL_R, CL_FLOAT, 13, 4);
    TestImage i2a(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_R, CL_FLOAT, 14, 5, 6);
    TestImage i3(CL_MEM_OBJECT_IMAGE3D, CL_BGRA, CL_UNORM_INT8, 15, 7, 8);
    std::vector<uint32_t> out(13);
    LaunchResult r = launchN("query", {i1.arg(), i1a.arg(), i2.arg(), i2a.arg(), i3.arg(), buffer(out)}, 1);
    ASSERT_TRUE(r.ok) << r.error;
    const std::vector<uint32_t> want = {
        11, 12, 3, 13, 4, 14, 5, 6, 15, 7, 8, CL_UNORM_INT8 - CL_SNORM_INT8, CL_BGRA - CL_R};
    EXPECT_EQ(out, want);
}

// A 1D CL_FLOAT R image of 10, 20, 30, 40 sampled with nearest filtering in each addressing mode.
TEST_F(Image, NearestSamplingAddressingModes) {
    TestImage img(CL_MEM_OBJECT_IMAGE1D, CL_R, CL_FLOAT, 4);
    for (int x = 0; x < 4; ++x) {
        const float v = 10.0f * (x + 1);
        std::memcpy(img.at(x), &v, 4);
    }
    const std::vector<float> s = {-0.1f, 0.1f, 0.6f, 1.2f};
    std::vector<float> coords;
    for (float c : s) coords.insert(coords.end(), {c, 0, 0, 0});
    struct Case {
        uint32_t addressing;
        std::vector<float> want;  // R of each coordinate; 0 is the border
    } cases[] = {{kClampToEdge, {10, 10, 30, 40}},
                 {kClamp, {0, 10, 30, 0}},
                 {kRepeat, {40, 10, 30, 10}},
                 {kMirrored, {10, 10, 30, 40}}};
    for (const Case& c : cases) {
        std::vector<float> out(4 * s.size());
        LaunchResult r = launchN(
            "sample_1d", {img.arg(), sampler(c.addressing, true, kNearest), buffer(coords), buffer(out)},
            s.size());
        ASSERT_TRUE(r.ok) << r.error;
        for (size_t i = 0; i < s.size(); ++i) {
            EXPECT_EQ(out[4 * i], c.want[i]) << "addressing " << c.addressing << " s " << s[i];
            EXPECT_EQ(out[4 * i + 3], 1.0f);  // alpha of R, and of R's border colour
        }
    }
    // NaN and coordinates beyond any image read the border in CLAMP (no index is made of them).
    std::vector<float> far = {NAN, 0, 0, 0, 1e30f, 0, 0, 0, -INFINITY, 0, 0, 0};
    std::vector<float> far_out(12, 5.0f);
    LaunchResult fr =
        launchN("sample_1d", {img.arg(), sampler(kClamp, true, kLinear), buffer(far), buffer(far_out)}, 3);
    ASSERT_TRUE(fr.ok) << fr.error;
    for (int i = 0; i < 3; ++i) EXPECT_EQ(far_out[4 * i], 0.0f) << i;
    // Unnormalized coordinates count texels.
    coords = {5.5f, 0, 0, 0, 2.99f, 0, 0, 0};
    std::vector<float> out(8);
    LaunchResult r = launchN(
        "sample_1d", {img.arg(), sampler(kClampToEdge, false, kNearest), buffer(coords), buffer(out)}, 2);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(out[0], 40.0f);
    EXPECT_EQ(out[4], 30.0f);
}

// Linear filtering: weights (1 - a) and a of the texels around u - 0.5, the border in CLAMP.
TEST_F(Image, LinearSampling2dAnd3d) {
    TestImage img(CL_MEM_OBJECT_IMAGE2D, CL_R, CL_FLOAT, 2, 2);
    const float t[2][2] = {{4, 8}, {12, 16}};  // [y][x]
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 2; ++x) std::memcpy(img.at(x, y), &t[y][x], 4);
    std::vector<float> coords = {1.0f, 1.0f, 0, 0, 0.75f, 1.0f, 0, 0, 0.25f, 0.25f, 0, 0};
    std::vector<float> out(12);
    LaunchResult r = launchN(
        "sample_2d", {img.arg(), sampler(kClampToEdge, false, kLinear), buffer(coords), buffer(out)}, 3);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_FLOAT_EQ(out[0], 10.0f);  // the mean
    EXPECT_FLOAT_EQ(out[4], 0.75f * 0.5f * 4 + 0.25f * 0.5f * 8 + 0.75f * 0.5f * 12 + 0.25f * 0.5f * 16);
    EXPECT_FLOAT_EQ(out[8], 4.0f);  // every neighbour clamped to texel (0, 0)
    r = launchN("sample_2d", {img.arg(), sampler(kClamp, false, kLinear), buffer(coords), buffer(out)}, 3);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_FLOAT_EQ(out[8], 0.75f * 0.75f * 4);  // three neighbours are the border colour (0)
    EXPECT_FLOAT_EQ(out[11], 1.0f);

    TestImage cube(CL_MEM_OBJECT_IMAGE3D, CL_R, CL_FLOAT, 2, 2, 2);
    for (int i = 0; i < 8; ++i) {
        const float v = float(i);
        std::memcpy(cube.at(i & 1, (i >> 1) & 1, i >> 2), &v, 4);
    }
    coords = {0.5f, 0.5f, 0.5f, 0};  // normalized centre: the mean of the eight
    r = launchN("sample_3d", {cube.arg(), sampler(kClampToEdge, true, kLinear), buffer(coords), buffer(out)},
                1);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_FLOAT_EQ(out[0], 3.5f);
}

TEST_F(Image, ArrayLayersAndIntegerCoordinates) {
    TestImage layers(CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_R, CL_FLOAT, 2, 2, 3);
    for (int z = 0; z < 3; ++z) {
        const float v = float(100 * z);
        std::memcpy(layers.at(1, 1, z), &v, 4);
    }
    // The layer is rounded to nearest even and clamped; x and y are normalized.
    std::vector<float> coords = {0.9f, 0.9f, 0.6f, 0, 0.9f, 0.9f, 7.0f, 0, 0.9f, 0.9f, 2.5f, 0};
    std::vector<float> out(12);
    LaunchResult r = launchN(
        "sample_2da", {layers.arg(), sampler(kClampToEdge, true, kNearest), buffer(coords), buffer(out)}, 3);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(out[0], 100.0f);
    EXPECT_EQ(out[4], 200.0f);
    EXPECT_EQ(out[8], 200.0f);

    TestImage row(CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_R, CL_FLOAT, 2, 1, 2);
    const float v = 5.0f;
    std::memcpy(row.at(0, 0, 1), &v, 4);
    coords = {0.0f, 1.0f, 0, 0};
    r = launchN("sample_1da", {row.arg(), sampler(kClamp, false, kNearest), buffer(coords), buffer(out)}, 1);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(out[0], 5.0f);

    // Integer coordinates: exact texels; CLAMP gives the border (0, 0, 0, 0 for RGBA) outside.
    TestImage u8(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_UNSIGNED_INT8, 2, 2);
    u8.at(1, 0)[3] = 9;
    std::vector<uint32_t> icoords = {1, 0, 0, 0, uint32_t(-1), 0, 0, 0};
    std::vector<uint32_t> iout(8, 0xdead);
    r = launchN("sample_2d_int", {u8.arg(), sampler(kClamp, false, kNearest), buffer(icoords), buffer(iout)},
                2);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(iout[3], 9u);
    EXPECT_EQ(iout[7], 0u);
    r = launchN("sample_2d_int", {u8.arg(), sampler(kClamp, false, kLinear), buffer(icoords), buffer(iout)},
                1);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("undefined behaviour: integer coordinates with a sampler"), std::string::npos)
        << r.error;
}

// OpConstantSampler ClampToEdge, unnormalized, Nearest; and the planted fault that addresses it as CLAMP.
TEST_F(Image, ConstantSamplerAndClampToEdgeFault) {
    TestImage img(CL_MEM_OBJECT_IMAGE2D, CL_RGBA, CL_FLOAT, 2, 2);
    const float edge[4] = {1, 2, 3, 4};
    std::memcpy(img.at(1, 0), edge, 16);
    std::vector<float> coords = {9.0f, -3.0f, 0, 0};
    std::vector<float> out(4);
    LaunchResult r = launchN("sample_const", {img.arg(), buffer(coords), buffer(out)}, 1);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(out, std::vector<float>(edge, edge + 4));
    r = launchN("sample_const", {img.arg(), buffer(coords), buffer(out)}, 1,
                "sampler_clamp_to_edge_as_clamp");
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(out, std::vector<float>(4, 0.0f));  // the border colour of RGBA
}

}  // namespace
}  // namespace refdev::spirv::test
