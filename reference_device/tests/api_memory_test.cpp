// Buffers, sub-buffers and 2D images: creation rules, transfers and their error codes.
#include <numeric>

#include "reference_device/tests/api_test_util.h"

namespace refdev_test {
namespace {

std::vector<uint32_t> iota(size_t n, uint32_t start) {
    std::vector<uint32_t> v(n);
    std::iota(v.begin(), v.end(), start);
    return v;
}

TEST_F(ApiTest, BufferCreationRules) {
    cl_int err = CL_SUCCESS;
    uint32_t host[16] = {};
    EXPECT_EQ(clCreateBuffer(context_, CL_MEM_READ_WRITE, 0, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_BUFFER_SIZE);
    EXPECT_EQ(clCreateBuffer(context_, CL_MEM_USE_HOST_PTR, sizeof(host), nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_HOST_PTR);
    EXPECT_EQ(clCreateBuffer(context_, CL_MEM_READ_WRITE, sizeof(host), host, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_HOST_PTR);
    EXPECT_EQ(clCreateBuffer(context_, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_VALUE);
    EXPECT_EQ(clCreateBuffer(context_, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, sizeof(host), host, &err),
              nullptr);
    EXPECT_EQ(err, CL_INVALID_VALUE);
    EXPECT_EQ(clCreateBuffer(context_, cl_mem_flags(1) << 40, 64, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_VALUE);
    EXPECT_EQ(clCreateBuffer(context_, CL_MEM_READ_WRITE, size_t(1) << 40, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_BUFFER_SIZE);
}

TEST_F(ApiTest, BufferRoundTripsAndHostPointers) {
    cl_int err = CL_SUCCESS;
    std::vector<uint32_t> init = iota(64, 1000);
    cl_mem copy = clCreateBuffer(context_, CL_MEM_COPY_HOST_PTR, init.size() * 4, init.data(), &err);
    ASSERT_EQ(err, CL_SUCCESS);
    init[0] = 7;  // COPY_HOST_PTR copied at creation: later host changes are not seen
    std::vector<uint32_t> out(64, 0);
    ASSERT_EQ(clEnqueueReadBuffer(queue_, copy, CL_TRUE, 0, out.size() * 4, out.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(out, iota(64, 1000));

    std::vector<uint32_t> shared(64, 0);
    cl_mem use = clCreateBuffer(context_, CL_MEM_USE_HOST_PTR, shared.size() * 4, shared.data(), &err);
    ASSERT_EQ(err, CL_SUCCESS);
    std::vector<uint32_t> data = iota(16, 5);
    ASSERT_EQ(
        clEnqueueWriteBuffer(queue_, use, CL_TRUE, 16, data.size() * 4, data.data(), 0, nullptr, nullptr),
        CL_SUCCESS);
    EXPECT_EQ(shared[4], 5u);
    EXPECT_EQ(shared[19], 20u);
    void* host_ptr = nullptr;
    ASSERT_EQ(clGetMemObjectInfo(use, CL_MEM_HOST_PTR, sizeof(host_ptr), &host_ptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(host_ptr, shared.data());

    EXPECT_EQ(clEnqueueReadBuffer(queue_, copy, CL_TRUE, 4, 64 * 4, out.data(), 0, nullptr, nullptr),
              CL_INVALID_VALUE);
    EXPECT_EQ(clEnqueueReadBuffer(queue_, copy, CL_TRUE, 0, 4, nullptr, 0, nullptr, nullptr),
              CL_INVALID_VALUE);

    // Copy, fill, and overlap detection.
    ASSERT_EQ(clEnqueueCopyBuffer(queue_, copy, use, 0, 0, 64, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(shared[0], 1000u);
    EXPECT_EQ(shared[15], 1015u);
    EXPECT_EQ(clEnqueueCopyBuffer(queue_, use, use, 0, 8, 64, 0, nullptr, nullptr), CL_MEM_COPY_OVERLAP);
    uint16_t pattern = 0xabcd;
    ASSERT_EQ(clEnqueueFillBuffer(queue_, use, &pattern, 2, 8, 16, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(shared[2], 0xabcdabcdu);
    EXPECT_EQ(shared[5], 0xabcdabcdu);
    EXPECT_EQ(shared[6], 1006u);
    EXPECT_EQ(clEnqueueFillBuffer(queue_, use, &pattern, 3, 0, 12, 0, nullptr, nullptr), CL_INVALID_VALUE);
    EXPECT_EQ(clReleaseMemObject(copy), CL_SUCCESS);
    EXPECT_EQ(clReleaseMemObject(use), CL_SUCCESS);
}

TEST_F(ApiTest, HostAccessFlagsAreEnforced) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(context_, CL_MEM_HOST_WRITE_ONLY, 64, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    uint32_t v[16] = {};
    EXPECT_EQ(clEnqueueReadBuffer(queue_, m, CL_TRUE, 0, 64, v, 0, nullptr, nullptr), CL_INVALID_OPERATION);
    EXPECT_EQ(clEnqueueWriteBuffer(queue_, m, CL_TRUE, 0, 64, v, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(clReleaseMemObject(m), CL_SUCCESS);
}

TEST_F(ApiTest, RectTransfersAndMapping) {
    cl_int err = CL_SUCCESS;
    std::vector<uint8_t> backing(16 * 8, 0);
    cl_mem m = clCreateBuffer(context_, CL_MEM_USE_HOST_PTR, backing.size(), backing.data(), &err);
    ASSERT_EQ(err, CL_SUCCESS);
    // Write a 4x3 byte block at (2, 1) of a buffer with 16-byte rows, from a host block with 5-byte rows.
    std::vector<uint8_t> host(5 * 3);
    std::iota(host.begin(), host.end(), uint8_t(1));
    size_t bo[3] = {2, 1, 0}, ho[3] = {0, 0, 0}, region[3] = {4, 3, 1};
    ASSERT_EQ(clEnqueueWriteBufferRect(queue_, m, CL_TRUE, bo, ho, region, 16, 0, 5, 0, host.data(), 0,
                                       nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(backing[1 * 16 + 2], 1);
    EXPECT_EQ(backing[1 * 16 + 5], 4);
    EXPECT_EQ(backing[1 * 16 + 6], 0);
    EXPECT_EQ(backing[3 * 16 + 2], 11);
    std::vector<uint8_t> back(4 * 3, 0);
    ASSERT_EQ(clEnqueueReadBufferRect(queue_, m, CL_TRUE, bo, ho, region, 16, 0, 0, 0, back.data(), 0,
                                      nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(back[4], 6);  // row 1 of the block
    size_t too_far[3] = {14, 7, 0};
    EXPECT_EQ(clEnqueueReadBufferRect(queue_, m, CL_TRUE, too_far, ho, region, 16, 0, 0, 0, back.data(), 0,
                                      nullptr, nullptr),
              CL_INVALID_VALUE);

    auto* p = static_cast<uint8_t*>(clEnqueueMapBuffer(queue_, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 16, 32,
                                                       0, nullptr, nullptr, &err));
    ASSERT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(p, backing.data() + 16);  // USE_HOST_PTR maps to the application's memory
    cl_uint maps = 0;
    ASSERT_EQ(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof(maps), &maps, nullptr), CL_SUCCESS);
    EXPECT_EQ(maps, 1u);
    EXPECT_EQ(clEnqueueUnmapMemObject(queue_, m, p, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(clEnqueueUnmapMemObject(queue_, m, p, 0, nullptr, nullptr), CL_INVALID_VALUE);
    EXPECT_EQ(clReleaseMemObject(m), CL_SUCCESS);
}

TEST_F(ApiTest, SubBufferOriginRuleAndAliasing) {
    cl_int err = CL_SUCCESS;
    cl_mem parent = clCreateBuffer(context_, CL_MEM_READ_WRITE, 1024, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_uint align_bits = 0;
    ASSERT_EQ(
        clGetDeviceInfo(device_, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(align_bits), &align_bits, nullptr),
        CL_SUCCESS);
    const size_t align = align_bits / 8;
    cl_buffer_region misaligned{align / 2, 64};
    EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &misaligned, &err), nullptr);
    EXPECT_EQ(err, CL_MISALIGNED_SUB_BUFFER_OFFSET);
    cl_buffer_region outside{align, 1024};
    EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &outside, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_VALUE);
    cl_buffer_region empty{0, 0};
    EXPECT_EQ(clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &empty, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_BUFFER_SIZE);
    cl_buffer_region region{align, 64};
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_buffer_region inner{0, 16};
    EXPECT_EQ(clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &inner, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_MEM_OBJECT);
    uint32_t value = 0x5eed1234;
    ASSERT_EQ(clEnqueueWriteBuffer(queue_, sub, CL_TRUE, 4, 4, &value, 0, nullptr, nullptr), CL_SUCCESS);
    uint32_t seen = 0;
    ASSERT_EQ(clEnqueueReadBuffer(queue_, parent, CL_TRUE, align + 4, 4, &seen, 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(seen, value);
    cl_mem assoc = nullptr;
    size_t offset = 0;
    ASSERT_EQ(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(assoc), &assoc, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof(offset), &offset, nullptr), CL_SUCCESS);
    EXPECT_EQ(assoc, parent);
    EXPECT_EQ(offset, align);
    // The sub-buffer keeps its parent alive.
    EXPECT_EQ(clReleaseMemObject(parent), CL_SUCCESS);
    ASSERT_EQ(clEnqueueReadBuffer(queue_, sub, CL_TRUE, 4, 4, &seen, 0, nullptr, nullptr), CL_SUCCESS);
    EXPECT_EQ(seen, value);
    EXPECT_EQ(clReleaseMemObject(sub), CL_SUCCESS);
}

cl_image_desc desc2d(size_t w, size_t h, size_t pitch = 0, cl_mem buffer = nullptr) {
    cl_image_desc d{};
    d.image_type = CL_MEM_OBJECT_IMAGE2D;
    d.image_width = w;
    d.image_height = h;
    d.image_row_pitch = pitch;
    d.mem_object = buffer;
    return d;
}

// A device without images (Xe-HPC) lists no image format and refuses image and sampler objects with the
// error OpenCL 3.0 gives for a context whose devices support no images.
TEST_F(ApiTest, ImageObjectsAreRefusedWithoutImageSupport) {
    if (imageSupport()) GTEST_SKIP() << "this profile has images";
    cl_uint n = 7;
    ASSERT_EQ(clGetSupportedImageFormats(context_, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &n),
              CL_SUCCESS);
    EXPECT_EQ(n, 0u);
    cl_int err = CL_SUCCESS;
    cl_image_format fmt{CL_R, CL_UNSIGNED_INT32};
    cl_image_desc d = desc2d(8, 4);
    EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE, &fmt, &d, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_OPERATION);
    EXPECT_EQ(clCreateSampler(context_, CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST, &err),
              nullptr);
    EXPECT_EQ(err, CL_INVALID_OPERATION);
    // A module with image instructions still builds, as Intel's compiler builds it for Xe-HPC.
    cl_program p = buildFixture("api_kernels.spv");
    EXPECT_EQ(clReleaseProgram(p), CL_SUCCESS);
}

TEST_F(ApiTest, SupportedImageFormatsCoverTheSuite) {
    if (!imageSupport()) GTEST_SKIP() << "no image support on this profile (Xe-HPC has no OpenCL images)";
    cl_uint n = 0;
    ASSERT_EQ(clGetSupportedImageFormats(context_, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &n),
              CL_SUCCESS);
    std::vector<cl_image_format> formats(n);
    ASSERT_EQ(clGetSupportedImageFormats(context_, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, n,
                                         formats.data(), nullptr),
              CL_SUCCESS);
    for (cl_channel_order order : {CL_R, CL_RG, CL_RGBA})
        for (cl_channel_type type : {CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_SIGNED_INT8,
                                     CL_SIGNED_INT16, CL_SIGNED_INT32, CL_UNORM_INT8, CL_FLOAT}) {
            bool found = false;
            for (const cl_image_format& f : formats)
                found |= f.image_channel_order == order && f.image_channel_data_type == type;
            EXPECT_TRUE(found) << std::hex << order << " " << type;
        }
}

TEST_F(ApiTest, ImageCreationRules) {
    if (!imageSupport()) GTEST_SKIP() << "no image support on this profile (Xe-HPC has no OpenCL images)";
    cl_int err = CL_SUCCESS;
    cl_image_format fmt{CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc d = desc2d(0, 4);
    EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE, &fmt, &d, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_IMAGE_SIZE);
    d = desc2d(16385, 4);
    EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE, &fmt, &d, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_IMAGE_SIZE);
    d = desc2d(16, 4, 64);  // a row pitch needs a host pointer
    EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE, &fmt, &d, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_IMAGE_DESCRIPTOR);
    cl_image_format bad{0x1234, CL_UNSIGNED_INT8};
    d = desc2d(16, 4);
    EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE, &bad, &d, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
    cl_image_format unsupported{CL_RGB, CL_UNORM_SHORT_565};
    EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE, &unsupported, &d, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_IMAGE_FORMAT_NOT_SUPPORTED);
    EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE, nullptr, &d, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
}

TEST_F(ApiTest, ImageRoundTripFillAndCopy) {
    if (!imageSupport()) GTEST_SKIP() << "no image support on this profile (Xe-HPC has no OpenCL images)";
    cl_int err = CL_SUCCESS;
    cl_image_format fmt{CL_R, CL_UNSIGNED_INT32};
    cl_image_desc d = desc2d(8, 4);
    cl_mem img = clCreateImage(context_, CL_MEM_READ_WRITE, &fmt, &d, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    size_t elem = 0, pitch = 0, width = 0;
    ASSERT_EQ(clGetImageInfo(img, CL_IMAGE_ELEMENT_SIZE, sizeof(elem), &elem, nullptr), CL_SUCCESS);
    ASSERT_EQ(clGetImageInfo(img, CL_IMAGE_ROW_PITCH, sizeof(pitch), &pitch, nullptr), CL_SUCCESS);
    ASSERT_EQ(clGetImageInfo(img, CL_IMAGE_WIDTH, sizeof(width), &width, nullptr), CL_SUCCESS);
    EXPECT_EQ(elem, 4u);
    EXPECT_EQ(pitch, 32u);
    EXPECT_EQ(width, 8u);
    std::vector<uint32_t> data = iota(32, 100);
    size_t origin[3] = {0, 0, 0}, region[3] = {8, 4, 1};
    ASSERT_EQ(
        clEnqueueWriteImage(queue_, img, CL_TRUE, origin, region, 0, 0, data.data(), 0, nullptr, nullptr),
        CL_SUCCESS);
    // Read back a 3x2 window at (2, 1) into a host block with a 16-byte row pitch.
    std::vector<uint32_t> window(4 * 2, 0);
    size_t wo[3] = {2, 1, 0}, wr[3] = {3, 2, 1};
    ASSERT_EQ(clEnqueueReadImage(queue_, img, CL_TRUE, wo, wr, 16, 0, window.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(window[0], 100u + 1 * 8 + 2);
    EXPECT_EQ(window[2], 100u + 1 * 8 + 4);
    EXPECT_EQ(window[3], 0u);  // pitch padding untouched
    EXPECT_EQ(window[4], 100u + 2 * 8 + 2);
    size_t outside[3] = {6, 0, 0};
    EXPECT_EQ(clEnqueueReadImage(queue_, img, CL_TRUE, outside, wr, 0, 0, window.data(), 0, nullptr, nullptr),
              CL_INVALID_VALUE);
    cl_uint color[4] = {0xfeedf00d, 1, 2, 3};
    size_t fo[3] = {1, 1, 0}, fr[3] = {2, 2, 1};
    ASSERT_EQ(clEnqueueFillImage(queue_, img, color, fo, fr, 0, nullptr, nullptr), CL_SUCCESS);
    cl_mem copy = clCreateImage(context_, CL_MEM_READ_WRITE, &fmt, &d, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    ASSERT_EQ(clEnqueueCopyImage(queue_, img, copy, origin, origin, region, 0, nullptr, nullptr), CL_SUCCESS);
    std::vector<uint32_t> all(32, 0);
    ASSERT_EQ(
        clEnqueueReadImage(queue_, copy, CL_TRUE, origin, region, 0, 0, all.data(), 0, nullptr, nullptr),
        CL_SUCCESS);
    EXPECT_EQ(all[1 * 8 + 1], 0xfeedf00du);
    EXPECT_EQ(all[2 * 8 + 2], 0xfeedf00du);
    EXPECT_EQ(all[1 * 8 + 3], 100u + 1 * 8 + 3);
    cl_image_format other{CL_RGBA, CL_UNSIGNED_INT8};
    cl_mem mismatch = clCreateImage(context_, CL_MEM_READ_WRITE, &other, &d, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(clEnqueueCopyImage(queue_, img, mismatch, origin, origin, region, 0, nullptr, nullptr),
              CL_IMAGE_FORMAT_MISMATCH);
    // Fill of a normalized format converts the float colour.
    float fcolor[4] = {1.0f, 0.0f, 0.5f, 1.0f};
    cl_image_format unorm{CL_RGBA, CL_UNORM_INT8};
    cl_mem u8 = clCreateImage(context_, CL_MEM_READ_WRITE, &unorm, &d, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    ASSERT_EQ(clEnqueueFillImage(queue_, u8, fcolor, origin, region, 0, nullptr, nullptr), CL_SUCCESS);
    uint8_t texel[4] = {};
    size_t one[3] = {1, 1, 1};
    ASSERT_EQ(clEnqueueReadImage(queue_, u8, CL_TRUE, origin, one, 0, 0, texel, 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(texel[0], 255);
    EXPECT_EQ(texel[1], 0);
    EXPECT_EQ(texel[2], 128);
    for (cl_mem m : {img, copy, mismatch, u8}) EXPECT_EQ(clReleaseMemObject(m), CL_SUCCESS);
}

TEST_F(ApiTest, Image2dFromBufferSharesStorage) {
    if (!imageSupport()) GTEST_SKIP() << "no image support on this profile (Xe-HPC has no OpenCL images)";
    cl_int err = CL_SUCCESS;
    cl_uint pitch_align = 0;
    ASSERT_EQ(
        clGetDeviceInfo(device_, CL_DEVICE_IMAGE_PITCH_ALIGNMENT, sizeof(pitch_align), &pitch_align, nullptr),
        CL_SUCCESS);
    ASSERT_GT(pitch_align, 0u);
    const size_t width = 5, height = 3, texel = 4;
    const size_t pitch = pitch_align * texel * ((width + pitch_align - 1) / pitch_align);
    cl_mem buffer = clCreateBuffer(context_, CL_MEM_READ_WRITE, pitch * height, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_image_format fmt{CL_R, CL_SIGNED_INT32};
    cl_image_desc d = desc2d(width, height, pitch, buffer);
    cl_mem img = clCreateImage(context_, CL_MEM_READ_WRITE, &fmt, &d, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    int32_t v = -77;
    size_t origin[3] = {4, 2, 0}, one[3] = {1, 1, 1};
    ASSERT_EQ(clEnqueueWriteImage(queue_, img, CL_TRUE, origin, one, 0, 0, &v, 0, nullptr, nullptr),
              CL_SUCCESS);
    int32_t seen = 0;
    ASSERT_EQ(
        clEnqueueReadBuffer(queue_, buffer, CL_TRUE, 2 * pitch + 4 * texel, 4, &seen, 0, nullptr, nullptr),
        CL_SUCCESS);
    EXPECT_EQ(seen, -77);
    cl_mem assoc = nullptr;
    ASSERT_EQ(clGetImageInfo(img, CL_IMAGE_BUFFER, sizeof(assoc), &assoc, nullptr), CL_SUCCESS);
    EXPECT_EQ(assoc, buffer);
    // A pitch that is not a multiple of the pitch alignment, or a buffer too small, is rejected.
    cl_image_desc bad = desc2d(width, height, pitch + texel, buffer);
    EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE, &fmt, &bad, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_IMAGE_DESCRIPTOR);
    bad = desc2d(width, height + 1, pitch, buffer);
    EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_WRITE, &fmt, &bad, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_IMAGE_DESCRIPTOR);
    // The image keeps its buffer alive.
    EXPECT_EQ(clReleaseMemObject(buffer), CL_SUCCESS);
    ASSERT_EQ(clEnqueueReadImage(queue_, img, CL_TRUE, origin, one, 0, 0, &seen, 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(seen, -77);
    EXPECT_EQ(clReleaseMemObject(img), CL_SUCCESS);
}

}  // namespace
}  // namespace refdev_test
