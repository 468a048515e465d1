// Images of every type through the ICD loader: formats, creation rules, region transfers, copies and maps
// in 1D, arrays and 3D; and kernels reading, writing, querying and sampling them (fixtures/api_images).
#include <cstdlib>
#include <cstring>
#include <string>

#include "reference_device/tests/api_test_util.h"

namespace refdev_test {
namespace {

cl_image_desc imageDesc(cl_mem_object_type type, size_t w, size_t h = 0, size_t depth_or_layers = 0,
                        cl_mem buffer = nullptr) {
    cl_image_desc d{};
    d.image_type = type;
    d.image_width = w;
    d.image_height = h;
    if (type == CL_MEM_OBJECT_IMAGE3D)
        d.image_depth = depth_or_layers;
    else
        d.image_array_size = depth_or_layers;
    d.mem_object = buffer;
    return d;
}

class ImageApiTest : public ApiTest {
protected:
    void SetUp() override {
        ApiTest::SetUp();
        if (HasFatalFailure()) return;
        if (!imageSupport()) GTEST_SKIP() << "no image support on this profile";
    }
    void TearDown() override {
        for (cl_mem m : mems_) EXPECT_EQ(clReleaseMemObject(m), CL_SUCCESS);
        ApiTest::TearDown();
    }
    cl_mem image(const cl_image_format& f, const cl_image_desc& d, cl_mem_flags flags = CL_MEM_READ_WRITE) {
        cl_int err = CL_SUCCESS;
        cl_mem m = clCreateImage(context_, flags, &f, &d, nullptr, &err);
        EXPECT_EQ(err, CL_SUCCESS) << "type " << std::hex << d.image_type;
        if (m) mems_.push_back(m);
        return m;
    }
    size_t imageInfo(cl_mem m, cl_image_info what) {
        size_t v = 12345;
        EXPECT_EQ(clGetImageInfo(m, what, sizeof(v), &v, nullptr), CL_SUCCESS);
        return v;
    }
    std::vector<cl_mem> mems_;
};

// Every image type lists the 2D formats (3D included) and round-trips its whole extent.
TEST_F(ImageApiTest, EveryTypeListsFormatsAndRoundTrips) {
    cl_uint n2d = 0;
    ASSERT_EQ(clGetSupportedImageFormats(context_, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &n2d),
              CL_SUCCESS);
    ASSERT_GT(n2d, 0u);
    cl_mem buffer = clCreateBuffer(context_, CL_MEM_READ_WRITE, 4096, nullptr, nullptr);
    ASSERT_NE(buffer, nullptr);
    mems_.push_back(buffer);
    struct Case {
        cl_mem_object_type type;
        size_t w, h, layers;
        size_t region[3];
    } cases[] = {
        {CL_MEM_OBJECT_IMAGE1D, 7, 0, 0, {7, 1, 1}},       {CL_MEM_OBJECT_IMAGE1D_BUFFER, 7, 0, 0, {7, 1, 1}},
        {CL_MEM_OBJECT_IMAGE1D_ARRAY, 7, 0, 3, {7, 3, 1}}, {CL_MEM_OBJECT_IMAGE2D, 7, 2, 0, {7, 2, 1}},
        {CL_MEM_OBJECT_IMAGE2D_ARRAY, 7, 2, 3, {7, 2, 3}}, {CL_MEM_OBJECT_IMAGE3D, 7, 2, 3, {7, 2, 3}}};
    const cl_image_format fmt{CL_RGBA, CL_UNSIGNED_INT8};
    for (const Case& c : cases) {
        SCOPED_TRACE(std::to_string(c.type));
        for (cl_mem_flags flags : {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE}) {
            cl_uint n = 0;
            ASSERT_EQ(clGetSupportedImageFormats(context_, flags, c.type, 0, nullptr, &n), CL_SUCCESS);
            EXPECT_EQ(n, n2d);
        }
        cl_image_desc d =
            imageDesc(c.type, c.w, c.h, c.layers, c.type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? buffer : nullptr);
        cl_mem img = image(fmt, d);
        ASSERT_NE(img, nullptr);
        EXPECT_EQ(imageInfo(img, CL_IMAGE_WIDTH), c.w);
        EXPECT_EQ(imageInfo(img, CL_IMAGE_HEIGHT), c.h);
        EXPECT_EQ(imageInfo(img, CL_IMAGE_DEPTH), c.type == CL_MEM_OBJECT_IMAGE3D ? c.layers : 0);
        EXPECT_EQ(imageInfo(img, CL_IMAGE_ARRAY_SIZE), c.type == CL_MEM_OBJECT_IMAGE3D ? 0 : c.layers);
        const size_t bytes = 4 * c.region[0] * c.region[1] * c.region[2];
        std::vector<uint8_t> data(bytes), back(bytes, 0);
        for (size_t i = 0; i < bytes; ++i) data[i] = uint8_t(i * 7 + 1);
        const size_t origin[3] = {0, 0, 0};
        ASSERT_EQ(clEnqueueWriteImage(queue_, img, CL_TRUE, origin, c.region, 0, 0, data.data(), 0, nullptr,
                                      nullptr),
                  CL_SUCCESS);
        ASSERT_EQ(clEnqueueReadImage(queue_, img, CL_TRUE, origin, c.region, 0, 0, back.data(), 0, nullptr,
                                     nullptr),
                  CL_SUCCESS);
        EXPECT_EQ(back, data);
        size_t past[3] = {c.region[0], c.region[1], c.region[2]};
        past[c.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : c.type == CL_MEM_OBJECT_IMAGE1D ? 0 : 2] += 1;
        EXPECT_EQ(
            clEnqueueReadImage(queue_, img, CL_TRUE, origin, past, 0, 0, back.data(), 0, nullptr, nullptr),
            CL_INVALID_VALUE);
    }
}

// A 3D image: sub-regions with host pitches, a slice copied into a 2D image and to a buffer, and a map.
TEST_F(ImageApiTest, ThreeDimensionalRegionsCopiesAndMaps) {
    const cl_image_format fmt{CL_R, CL_UNSIGNED_INT32};
    cl_mem vol = image(fmt, imageDesc(CL_MEM_OBJECT_IMAGE3D, 4, 3, 2));
    ASSERT_NE(vol, nullptr);
    EXPECT_EQ(imageInfo(vol, CL_IMAGE_ROW_PITCH), 16u);
    EXPECT_EQ(imageInfo(vol, CL_IMAGE_SLICE_PITCH), 48u);
    std::vector<uint32_t> all(24);
    for (uint32_t i = 0; i < 24; ++i) all[i] = 1000 + i;  // x + 4 y + 12 z
    const size_t origin[3] = {0, 0, 0}, whole[3] = {4, 3, 2};
    ASSERT_EQ(clEnqueueWriteImage(queue_, vol, CL_TRUE, origin, whole, 0, 0, all.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    // A 2x2x2 window at (1, 1, 0) into host rows of 4 words and slices of 12.
    std::vector<uint32_t> window(24, 0);
    const size_t wo[3] = {1, 1, 0}, wr[3] = {2, 2, 2};
    ASSERT_EQ(clEnqueueReadImage(queue_, vol, CL_TRUE, wo, wr, 16, 48, window.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(window[0], 1000u + 1 + 4);
    EXPECT_EQ(window[5], 1000u + 2 + 8);
    EXPECT_EQ(window[12], 1000u + 1 + 4 + 12);
    EXPECT_EQ(window[2], 0u);  // row padding untouched
    // Slice z = 1 into a 2D image, then to a buffer.
    cl_mem flat = image(fmt, imageDesc(CL_MEM_OBJECT_IMAGE2D, 4, 3));
    const size_t slice1[3] = {0, 0, 1}, plane[3] = {4, 3, 1};
    ASSERT_EQ(clEnqueueCopyImage(queue_, vol, flat, slice1, origin, plane, 0, nullptr, nullptr), CL_SUCCESS);
    cl_int err = CL_SUCCESS;
    cl_mem buf = clCreateBuffer(context_, CL_MEM_READ_WRITE, 12 * 4, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    mems_.push_back(buf);
    ASSERT_EQ(clEnqueueCopyImageToBuffer(queue_, flat, buf, origin, plane, 0, 0, nullptr, nullptr),
              CL_SUCCESS);
    std::vector<uint32_t> got(12);
    ASSERT_EQ(clEnqueueReadBuffer(queue_, buf, CL_TRUE, 0, 48, got.data(), 0, nullptr, nullptr), CL_SUCCESS);
    for (uint32_t i = 0; i < 12; ++i) EXPECT_EQ(got[i], 1012u + i);
    // The buffer back into slice 0 of the volume.
    ASSERT_EQ(clEnqueueCopyBufferToImage(queue_, buf, vol, 0, origin, plane, 0, nullptr, nullptr),
              CL_SUCCESS);
    size_t row = 0, slice = 0;
    auto* p = static_cast<uint32_t*>(clEnqueueMapImage(queue_, vol, CL_TRUE, CL_MAP_READ, origin, whole, &row,
                                                       &slice, 0, nullptr, nullptr, &err));
    ASSERT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(row, 16u);
    EXPECT_EQ(slice, 48u);
    EXPECT_EQ(p[0], 1012u);
    EXPECT_EQ(p[12], 1012u);
    EXPECT_EQ(clEnqueueUnmapMemObject(queue_, vol, p, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(clEnqueueMapImage(queue_, vol, CL_TRUE, CL_MAP_READ, origin, whole, &row, nullptr, 0, nullptr,
                                nullptr, &err),
              nullptr);
    EXPECT_EQ(err, CL_INVALID_VALUE);  // a 3D map needs the slice pitch
    // A fill of the box (1..2, 1..2, 1) leaves its neighbours.
    const cl_uint color[4] = {77, 0, 0, 0};
    const size_t fo[3] = {1, 1, 1}, fr[3] = {2, 2, 1};
    ASSERT_EQ(clEnqueueFillImage(queue_, vol, color, fo, fr, 0, nullptr, nullptr), CL_SUCCESS);
    ASSERT_EQ(clEnqueueReadImage(queue_, vol, CL_TRUE, origin, whole, 0, 0, all.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(all[12 + 4 + 1], 77u);
    EXPECT_EQ(all[12 + 8 + 2], 77u);
    EXPECT_EQ(all[12 + 4 + 3], 1012u + 4 + 3);
    EXPECT_EQ(all[4 + 1], 1012u + 4 + 1);  // slice 0 (the buffer's copy) untouched
    ASSERT_EQ(clFinish(queue_), CL_SUCCESS);
}

TEST_F(ImageApiTest, CreationRulesOfTheNewTypes) {
    const cl_image_format fmt{CL_RGBA, CL_FLOAT};
    cl_int err = CL_SUCCESS;
    cl_image_desc d = imageDesc(CL_MEM_OBJECT_IMAGE3D, 2049, 2, 2);
    EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE, &fmt, &d, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_IMAGE_SIZE);
    d = imageDesc(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 0);
    EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE, &fmt, &d, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_IMAGE_SIZE);
    d = imageDesc(CL_MEM_OBJECT_IMAGE1D_BUFFER, 4);  // needs a buffer
    EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE, &fmt, &d, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_IMAGE_DESCRIPTOR);
    // A host pointer with a slice pitch shorter than a slice is refused; a padded one places the slices.
    std::vector<float> host(4 * 2 * 2 * 3, 0.0f);
    host[4 * 2 * 2 + 4] = 9.0f;  // slice 1 starts after 2 rows of 2 texels and one texel of padding
    d = imageDesc(CL_MEM_OBJECT_IMAGE3D, 2, 2, 2);
    d.image_row_pitch = 32;
    d.image_slice_pitch = 16;
    EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &fmt, &d, host.data(), &err),
              nullptr);
    EXPECT_EQ(err, CL_INVALID_IMAGE_DESCRIPTOR);
    d.image_slice_pitch = 96;
    cl_mem vol =
        clCreateImage(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &fmt, &d, host.data(), &err);
    ASSERT_EQ(err, CL_SUCCESS);
    mems_.push_back(vol);
    float texel[4] = {};
    const size_t at[3] = {0, 0, 1}, one[3] = {1, 1, 1};
    ASSERT_EQ(clEnqueueReadImage(queue_, vol, CL_TRUE, at, one, 0, 0, texel, 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(texel[0], 0.0f);
    EXPECT_EQ(imageInfo(vol, CL_IMAGE_SLICE_PITCH), 96u);
}

class ImageKernelTest : public ImageApiTest {
protected:
    void SetUp() override {
        ImageApiTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        if (standIn()) GTEST_SKIP() << "the stand-in interpreter does not execute kernels";
        program_ = buildFixture("api_images.spv");
    }
    void TearDown() override {
        if (program_) EXPECT_EQ(clReleaseProgram(program_), CL_SUCCESS);
        ImageApiTest::TearDown();
    }
    cl_kernel kernel(const char* name) {
        cl_int err = CL_SUCCESS;
        cl_kernel k = clCreateKernel(program_, name, &err);
        EXPECT_EQ(err, CL_SUCCESS) << name;
        return k;
    }
    cl_program program_ = nullptr;
};

TEST_F(ImageKernelTest, Copy3dAndQueries) {
    const cl_image_format fmt{CL_RGBA, CL_UNORM_INT8};
    cl_mem src = image(fmt, imageDesc(CL_MEM_OBJECT_IMAGE3D, 5, 4, 3), CL_MEM_READ_ONLY);
    cl_mem dst = image(fmt, imageDesc(CL_MEM_OBJECT_IMAGE3D, 5, 4, 3), CL_MEM_WRITE_ONLY);
    std::vector<uint8_t> data(5 * 4 * 3 * 4), back(data.size(), 0);
    for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i * 13);
    const size_t origin[3] = {0, 0, 0}, whole[3] = {5, 4, 3};
    ASSERT_EQ(
        clEnqueueWriteImage(queue_, src, CL_TRUE, origin, whole, 0, 0, data.data(), 0, nullptr, nullptr),
        CL_SUCCESS);
    cl_kernel copy = kernel("copy_3d_f");
    ASSERT_EQ(clSetKernelArg(copy, 0, sizeof(cl_mem), &src), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(copy, 1, sizeof(cl_mem), &dst), CL_SUCCESS);
    cl_mem flat = image(fmt, imageDesc(CL_MEM_OBJECT_IMAGE2D, 5, 4));
    EXPECT_EQ(clSetKernelArg(copy, 0, sizeof(cl_mem), &flat), CL_INVALID_ARG_VALUE);  // image3d_t parameter
    ASSERT_EQ(clEnqueueNDRangeKernel(queue_, copy, 3, nullptr, whole, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clEnqueueReadImage(queue_, dst, CL_TRUE, origin, whole, 0, 0, back.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(back, data);  // unorm8 -> float -> unorm8 is exact
    EXPECT_EQ(clReleaseKernel(copy), CL_SUCCESS);

    cl_kernel query = kernel("query_3d");
    cl_int err = CL_SUCCESS;
    cl_mem out = clCreateBuffer(context_, CL_MEM_READ_WRITE, 5 * 4, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    mems_.push_back(out);
    ASSERT_EQ(clSetKernelArg(query, 0, sizeof(cl_mem), &src), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(query, 1, sizeof(cl_mem), &out), CL_SUCCESS);
    const size_t one = 1;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue_, query, 1, nullptr, &one, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    uint32_t got[5] = {};
    ASSERT_EQ(clEnqueueReadBuffer(queue_, out, CL_TRUE, 0, sizeof(got), got, 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(got[0], 5u);
    EXPECT_EQ(got[1], 4u);
    EXPECT_EQ(got[2], 3u);
    // The SPIR-V enumerants: OpenCL C adds CLK_SNORM_INT8 / CLK_R to them.
    EXPECT_EQ(got[3] + CL_SNORM_INT8, cl_uint(CL_UNORM_INT8));
    EXPECT_EQ(got[4] + CL_R, cl_uint(CL_RGBA));
    EXPECT_EQ(clReleaseKernel(query), CL_SUCCESS);
}

// clCreateSampler objects as kernel arguments. Under REFDEV_FAULTS=sampler_clamp_to_edge_as_clamp
// (refdev.<profile>.sampler_clamp_to_edge_as_clamp) the past-the-edge sample must show the border colour.
TEST_F(ImageKernelTest, SamplerArgumentsAddressAndFilter) {
    const char* faults = std::getenv("REFDEV_FAULTS");
    const bool fault = faults && std::string(faults) == "sampler_clamp_to_edge_as_clamp";
    const cl_image_format fmt{CL_RGBA, CL_FLOAT};
    cl_int err = CL_SUCCESS;
    std::vector<float> texels(2 * 2 * 4);
    for (size_t i = 0; i < texels.size(); ++i) texels[i] = float(i);
    cl_image_desc d = imageDesc(CL_MEM_OBJECT_IMAGE2D, 2, 2);
    cl_mem img =
        clCreateImage(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &fmt, &d, texels.data(), &err);
    ASSERT_EQ(err, CL_SUCCESS);
    mems_.push_back(img);
    cl_mem coords = clCreateBuffer(context_, CL_MEM_READ_WRITE, 2 * 16, nullptr, &err);
    mems_.push_back(coords);
    cl_mem out = clCreateBuffer(context_, CL_MEM_READ_WRITE, 2 * 16, nullptr, &err);
    mems_.push_back(out);
    cl_kernel k = kernel("sample_2d");
    auto sample = [&](cl_sampler s, std::vector<float> at) {
        EXPECT_EQ(clEnqueueWriteBuffer(queue_, coords, CL_TRUE, 0, 32, at.data(), 0, nullptr, nullptr),
                  CL_SUCCESS);
        EXPECT_EQ(clSetKernelArg(k, 0, sizeof(cl_mem), &img), CL_SUCCESS);
        EXPECT_EQ(clSetKernelArg(k, 1, sizeof(cl_sampler), &s), CL_SUCCESS);
        EXPECT_EQ(clSetKernelArg(k, 2, sizeof(cl_mem), &coords), CL_SUCCESS);
        EXPECT_EQ(clSetKernelArg(k, 3, sizeof(cl_mem), &out), CL_SUCCESS);
        const size_t two = 2;
        EXPECT_EQ(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &two, nullptr, 0, nullptr, nullptr),
                  CL_SUCCESS);
        std::vector<float> got(8);
        EXPECT_EQ(clEnqueueReadBuffer(queue_, out, CL_TRUE, 0, 32, got.data(), 0, nullptr, nullptr),
                  CL_SUCCESS);
        return got;
    };
    cl_sampler edge = clCreateSampler(context_, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    // (1.5, 0.5) is texel (1, 0); (5, -2) is past the right and top edges: texel (1, 0) again.
    std::vector<float> got = sample(edge, {1.5f, 0.5f, 0, 0, 5.0f, -2.0f, 0, 0});
    EXPECT_EQ(got[0], 4.0f);
    EXPECT_EQ(got[3], 7.0f);
    EXPECT_EQ(got[4], fault ? 0.0f : 4.0f);  // the fault reads the border colour (0, 0, 0, 0)
    EXPECT_EQ(got[7], fault ? 0.0f : 7.0f);
    EXPECT_EQ(clReleaseSampler(edge), CL_SUCCESS);
    if (fault) {
        EXPECT_EQ(clReleaseKernel(k), CL_SUCCESS);
        return;
    }
    // Normalized linear filtering at the centre: the mean of the four texels.
    const cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_TRUE, CL_SAMPLER_FILTER_MODE,
                                           CL_FILTER_LINEAR, 0};
    cl_sampler linear = clCreateSamplerWithProperties(context_, props, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    got = sample(linear, {0.5f, 0.5f, 0, 0, 0.25f, 0.25f, 0, 0});
    EXPECT_FLOAT_EQ(got[0], (0 + 4 + 8 + 12) / 4.0f);
    EXPECT_FLOAT_EQ(got[4], 0.0f);  // texel (0, 0) exactly: CLAMP (the default) weighs no border here
    EXPECT_EQ(clReleaseSampler(linear), CL_SUCCESS);
    EXPECT_EQ(clReleaseKernel(k), CL_SUCCESS);
}

}  // namespace
}  // namespace refdev_test
