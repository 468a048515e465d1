// Bad input for SPV_INTEL_subgroup_matrix_multiply_accumulate (MMA, opcode 6237) and SPV_INTEL_media_block_io
// (opcodes 5580/5581), end to end through the ICD loader: a module the OpenCL environment does not allow
// must fail clBuildProgram with CL_BUILD_PROGRAM_FAILURE and a build log that names the instruction and the
// rule; a valid module whose run breaks a rule must fail clEnqueueNDRangeKernel with CL_OUT_OF_RESOURCES and
// tell the context's pfn_notify which kernel, instruction and work-item went wrong, and why. Nothing may
// crash, and after every failure a valid kernel on the same context and queue still builds, runs and
// computes the right values (the control).
//
// The fixtures are instances of one template per family (fixtures/bad_input_*.spvasm.in, instantiated in
// CMakeLists.txt): every rejected module differs from its family's control module in one token only, so a
// failure cannot come from anything but the token under test.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "reference_device/tests/api_test_util.h"

namespace refdev_test {
namespace {

class BadInputTest : public ApiTest {
protected:
    void SetUp() override {
        if (standIn())
            GTEST_SKIP() << "the stand-in interpreter neither checks extension instructions nor runs";
        ApiTest::SetUp();
    }
    void TearDown() override {
        for (cl_kernel k : kernels_) EXPECT_EQ(clReleaseKernel(k), CL_SUCCESS);
        for (cl_mem m : mems_) EXPECT_EQ(clReleaseMemObject(m), CL_SUCCESS);
        for (cl_program p : programs_) EXPECT_EQ(clReleaseProgram(p), CL_SUCCESS);
        ApiTest::TearDown();
    }

    bool hasExtension(const char* name) {
        // Whole names only: cl_intel_subgroup_matrix_multiply_accumulate is a prefix of its _tf32 layer.
        const std::string list = " " + deviceString(device_, CL_DEVICE_EXTENSIONS) + " ";
        return list.find(std::string(" ") + name + " ") != std::string::npos;
    }

    cl_kernel kernel(const std::string& fixture, const char* name) {
        cl_program program = buildFixture(fixture);
        programs_.push_back(program);
        cl_int err = CL_SUCCESS;
        cl_kernel k = clCreateKernel(program, name, &err);
        EXPECT_EQ(err, CL_SUCCESS) << fixture << ": " << name;
        kernels_.push_back(k);
        return k;
    }
    // clBuildProgram of `fixture` fails with CL_BUILD_PROGRAM_FAILURE; the program reports CL_BUILD_ERROR and
    // no kernel; the build log names `opcode` and contains each of `rule_words`. Nothing reaches pfn_notify.
    void expectBuildFailure(const std::string& fixture, const char* kernel_name, const char* opcode,
                            std::initializer_list<std::string> rule_words) {
        messages_.clear();
        std::vector<unsigned char> il = readFixture(fixture);
        ASSERT_FALSE(il.empty()) << "missing fixture " << fixture;
        cl_int err = CL_SUCCESS;
        cl_program program = clCreateProgramWithIL(context_, il.data(), il.size(), &err);
        ASSERT_EQ(err, CL_SUCCESS);
        programs_.push_back(program);
        EXPECT_EQ(clBuildProgram(program, 1, &device_, "", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
        cl_build_status status = CL_BUILD_NONE;
        EXPECT_EQ(
            clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr),
            CL_SUCCESS);
        EXPECT_EQ(status, CL_BUILD_ERROR);
        const std::string log = buildLog(program);
        EXPECT_NE(log.find(std::string(opcode) + ": "), std::string::npos) << log;
        for (const std::string& w : rule_words)
            EXPECT_NE(log.find(w), std::string::npos) << "'" << w << "' in " << log;
        cl_kernel k = clCreateKernel(program, kernel_name, &err);
        EXPECT_EQ(k, nullptr);
        EXPECT_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
        if (k) kernels_.push_back(k);
        EXPECT_TRUE(messages_.empty()) << messages_[0];
    }

    cl_mem buffer(size_t bytes, const void* init = nullptr) {
        cl_int err = CL_SUCCESS;
        cl_mem m =
            clCreateBuffer(context_, init ? CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE,
                           bytes, const_cast<void*>(init), &err);
        EXPECT_EQ(err, CL_SUCCESS);
        mems_.push_back(m);
        return m;
    }
    template <typename... Args>
    void setArgs(cl_kernel k, const Args&... args) {
        cl_uint i = 0;
        const cl_int status[] = {clSetKernelArg(k, i++, sizeof(args), &args)...};  // in order
        for (cl_uint a = 0; a < i; ++a) EXPECT_EQ(status[a], CL_SUCCESS) << "argument " << a;
    }
    // Runs a 1D NDRange of one work-group (global == local) and returns the enqueue's status; the messages
    // of earlier runs are dropped so each run is judged by its own.
    cl_int run(cl_kernel k, size_t global) {
        messages_.clear();
        cl_int err = clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &global, 0, nullptr, nullptr);
        if (err == CL_SUCCESS) EXPECT_EQ(clFinish(queue_), CL_SUCCESS);
        return err;
    }
    void expectSuccess(cl_int err) {
        EXPECT_EQ(err, CL_SUCCESS) << (messages_.empty() ? std::string("(no message)") : messages_[0]);
        EXPECT_TRUE(messages_.empty()) << messages_[0];
    }
    // The enqueue failed with CL_OUT_OF_RESOURCES and one message names the kernel, the instruction, the
    // work-item (part of the interpreter's "work-item global (x,y,z) local ..." text) and the rule.
    void expectUndefined(cl_int err, const char* kernel_name, const char* opcode,
                         const std::string& work_item, std::initializer_list<std::string> rule_words) {
        EXPECT_EQ(err, CL_OUT_OF_RESOURCES);
        ASSERT_EQ(messages_.size(), 1u);
        const std::string& m = messages_[0];
        EXPECT_NE(m.find(std::string("kernel '") + kernel_name + "'"), std::string::npos) << m;
        EXPECT_NE(m.find(std::string(opcode) + ": "), std::string::npos) << m;
        EXPECT_NE(m.find(work_item), std::string::npos) << m;
        for (const std::string& w : rule_words)
            EXPECT_NE(m.find(w), std::string::npos) << "'" << w << "' in " << m;
    }
    template <typename T>
    std::vector<T> read(cl_mem m, size_t count) {
        std::vector<T> v(count, T{});
        EXPECT_EQ(
            clEnqueueReadBuffer(queue_, m, CL_TRUE, 0, count * sizeof(T), v.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
        return v;
    }

    std::vector<cl_program> programs_;
    std::vector<cl_kernel> kernels_;
    std::vector<cl_mem> mems_;
};

// ---------------------------------------------------------------------------------------------------------
// SPV_INTEL_subgroup_matrix_multiply_accumulate. Fixtures bad_input_mma_n<N>_<case>.spv for the device's N
// (its minimum sub-group size: 8 on xe_hpg, 16 on xe_hpc); kernel mma(a, b, c, out, active_lanes).

constexpr const char* kMmaOp = "OpSubgroupMatrixMultiplyAccumulateINTEL";
constexpr const char* kMmaExtension = "cl_intel_subgroup_matrix_multiply_accumulate";
constexpr size_t kMaxWorkItems = 64;

class MmaBadInputTest : public BadInputTest {
protected:
    void SetUp() override {
        BadInputTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        if (!hasExtension(kMmaExtension)) GTEST_SKIP() << "profile " << profileName() << " has no MMA";
        size_t bytes = 0;
        ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_SUB_GROUP_SIZES_INTEL, 0, nullptr, &bytes), CL_SUCCESS);
        std::vector<size_t> sizes(bytes / sizeof(size_t));
        ASSERT_FALSE(sizes.empty());
        ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_SUB_GROUP_SIZES_INTEL, bytes, sizes.data(), nullptr),
                  CL_SUCCESS);
        n_ = uint32_t(*std::min_element(sizes.begin(), sizes.end()));
        ASSERT_TRUE(n_ == 8 || n_ == 16) << "no fixtures for N = " << n_;
    }

    std::string fixture(const char* which) const {
        return "bad_input_mma_n" + std::to_string(n_) + "_" + which + ".spv";
    }
    std::string atN() const { return " at N = " + std::to_string(n_); }

    // The int8 row with M = 1 and unsigned components: every A byte 1, every B byte 2, so each Result
    // element is C + K * 2 = C + 64 whatever the layout. A is one uint per lane at N = 8 (4 bytes) and one
    // ushort at N = 16 (2 bytes). Buffers for kMaxWorkItems work-items.
    struct IntBuffers {
        cl_mem a = nullptr, b = nullptr, c = nullptr, out = nullptr;
    };
    IntBuffers intBuffers() {
        IntBuffers m;
        const size_t a_bytes = n_ == 8 ? 4 : 2;
        std::vector<uint8_t> a(kMaxWorkItems * a_bytes, 1), b(kMaxWorkItems * 32, 2);
        for (size_t i = 0; i < kMaxWorkItems; ++i) c_[i] = uint32_t(1000 + 7 * i);
        m.a = buffer(a.size(), a.data());
        m.b = buffer(b.size(), b.data());
        m.c = buffer(kMaxWorkItems * 4, c_.data());
        m.out = buffer(kMaxWorkItems * 4);
        return m;
    }
    cl_int runInt(cl_kernel k, const IntBuffers& m, size_t work_items, cl_uint active_lanes) {
        setArgs(k, m.a, m.b, m.c, m.out, active_lanes);
        return run(k, work_items);
    }
    // The control: the valid module builds (again, into a program of its own) and two full sub-groups on
    // the same queue compute C + 64 in every work-item.
    void expectControlRun() {
        SCOPED_TRACE("control run of " + fixture("ok"));
        cl_kernel k = kernel(fixture("ok"), "mma");
        ASSERT_NE(k, nullptr);
        const IntBuffers m = intBuffers();
        const size_t work_items = 2 * n_;
        expectSuccess(runInt(k, m, work_items, n_));
        std::vector<uint32_t> got = read<uint32_t>(m.out, work_items);
        for (size_t i = 0; i < work_items; ++i) EXPECT_EQ(got[i], c_[i] + 64) << "work-item " << i;
    }
    // The build failure of case `which` (the log names the instruction and each of `rule_words`); the
    // control module still builds and runs afterwards.
    void expectTableRejects(const char* which, std::initializer_list<std::string> rule_words) {
        SCOPED_TRACE(fixture(which));
        expectBuildFailure(fixture(which), "mma", kMmaOp, rule_words);
        expectControlRun();
    }
    std::string noRow() const {
        return "no row of the cl_intel_subgroup_matrix_multiply_accumulate table for N = " +
               std::to_string(n_);
    }
    // The int8 row's operands as the table prints them.
    std::string int8Row() const { return std::string(n_ == 8 ? "A i32" : "A i16") + ", B 8 x i32, C i32"; }

    uint32_t n_ = 0;
    std::vector<uint32_t> c_ = std::vector<uint32_t>(kMaxWorkItems);
};

TEST_F(MmaBadInputTest, ControlBuildsAndRuns) {
    expectControlRun();
}

// APackedInt8 | BPackedInt8 | APackedFloat16: the int8 row plus a bit of the fp16 rows.
TEST_F(MmaBadInputTest, BuildRejectsOperandsWithAnExtraBit) {
    expectTableRejects("extra_bit",
                       {noRow(), "K = 32, Result i32, " + int8Row() + ", operands 0x430",
                        "operands must be exactly 0x30 (APackedInt8 | BPackedInt8)", atN() + ", K = 32"});
}

TEST_F(MmaBadInputTest, BuildRejectsKDim48) {
    // The K Dims of the device's rows: 8 is the tf32 row's, at N = 16 with the _tf32 extension only.
    const bool tf32 = hasExtension("cl_intel_subgroup_matrix_multiply_accumulate_tf32");
    expectTableRejects("k48",
                       {noRow(), "matches K = 48",
                        std::string(tf32 ? "K must be 8, 16, 32 or 64" : "K must be 16, 32 or 64") + atN()});
}

// The literal is optional, and an omitted one is None, which no row accepts.
TEST_F(MmaBadInputTest, BuildRejectsOmittedOperands) {
    expectTableRejects("no_mask", {noRow(), "operands 0x0 (", "operands must be exactly 0x30",
                                   "an omitted operands literal is None, which matches no row"});
}

// A of the int8 row of the other N: i16 on an N = 8 device, i32 on an N = 16 device.
TEST_F(MmaBadInputTest, BuildRejectsATypeOfTheOtherN) {
    expectTableRejects("a_other_n", {noRow(), std::string(n_ == 8 ? "A i16" : "A i32"),
                                     std::string(n_ == 8 ? "A must be i32" : "A must be i16") + atN()});
}

// The tf32 row (K = 8, ATF32 | BTF32) exists only at N = 16 with cl_intel_..._tf32: on such a device it is
// a second control that builds and runs; elsewhere the build names the K Dims of the device's rows.
TEST_F(MmaBadInputTest, Tf32RowOnlyWithTheTf32Extension) {
    const bool tf32 = hasExtension("cl_intel_subgroup_matrix_multiply_accumulate_tf32");
    if (!tf32) {
        ASSERT_EQ(n_, 8u) << "an N = 16 device without _tf32: no fixture expectations for it";
        expectTableRejects("tf32",
                           {noRow(), "matches K = 8, Result f32, A f32, B 8 x f32, C f32, operands 0x300",
                            "K must be 16, 32 or 64" + atN()});
        return;
    }
    ASSERT_EQ(n_, 16u);
    cl_kernel k = kernel(fixture("tf32"), "mma");
    ASSERT_NE(k, nullptr);
    // Every A and B element 1.0 and 2.0 (exact in TF32), K = 8: Result = C + 16.
    std::vector<float> a(kMaxWorkItems, 1.0f), b(kMaxWorkItems * 8, 2.0f), c(kMaxWorkItems);
    for (size_t i = 0; i < kMaxWorkItems; ++i) c[i] = 0.5f + float(i);
    cl_mem ma = buffer(a.size() * 4, a.data()), mb = buffer(b.size() * 4, b.data());
    cl_mem mc = buffer(c.size() * 4, c.data()), mo = buffer(c.size() * 4);
    setArgs(k, ma, mb, mc, mo, cl_uint(n_));
    expectSuccess(run(k, n_));
    std::vector<float> got = read<float>(mo, n_);
    for (size_t i = 0; i < n_; ++i) EXPECT_EQ(got[i], c[i] + 16.0f) << "work-item " << i;
    expectControlRun();
}

// M = 3: the OpenCL environment allows M = 1, 2, 4 and 8 only.
TEST_F(MmaBadInputTest, BuildRejectsThreeRowResult) {
    SCOPED_TRACE(fixture("m3"));
    expectBuildFailure(fixture("m3"), "mma", kMmaOp,
                       {"M, the number of components in Result Type, must be 1, 2, 4 or 8 (OpenCL "
                        "environment), not 3"});
    expectControlRun();
}

// SubgroupSize 2N with the types of the device's N row. The build check reads the instruction against the
// device's N and does not look at the kernel's SubgroupSize, so the module builds; the run reports a
// sub-group of 2N invocations.
TEST_F(MmaBadInputTest, SubgroupSizeOtherThanDeviceN) {
    const std::string which = n_ == 8 ? "sg16" : "sg32";
    cl_kernel k = kernel(fixture(which.c_str()), "mma");
    ASSERT_NE(k, nullptr);
    const IntBuffers m = intBuffers();
    expectUndefined(runInt(k, m, 2 * n_, 2 * n_), "mma", kMmaOp, "work-item global (0,0,0)",
                    {"the sub-group has " + std::to_string(2 * n_) + " invocations",
                     "must equal the device's minimum sub-group size, " + std::to_string(n_)});
    expectControlRun();
}

// N + N/2 work-items in one work-group: sub-group 1 holds N/2 invocations.
TEST_F(MmaBadInputTest, PartialSubGroup) {
    expectControlRun();
    cl_kernel k = kernel(fixture("ok"), "mma");
    ASSERT_NE(k, nullptr);
    const IntBuffers m = intBuffers();
    const std::string first = std::to_string(n_) + ",0,0)";
    expectUndefined(
        runInt(k, m, n_ + n_ / 2, n_), "mma", kMmaOp,
        "work-item global (" + first + " local (" + first + " group (0,0,0) sub-group 1 lane 0",
        {"partial sub-group (" + std::to_string(n_ / 2) + " of " + std::to_string(n_) + " invocations)"});
    expectControlRun();
}

// active_lanes N/2: only the lower half of every sub-group takes the branch with the MMA.
TEST_F(MmaBadInputTest, DivergentBranch) {
    expectControlRun();
    cl_kernel k = kernel(fixture("ok"), "mma");
    ASSERT_NE(k, nullptr);
    const IntBuffers m = intBuffers();
    std::string inactive;
    for (uint32_t l = n_ / 2; l < n_; ++l) inactive += (inactive.empty() ? "" : ", ") + std::to_string(l);
    expectUndefined(runInt(k, m, n_, n_ / 2), "mma", kMmaOp, "work-item global (0,0,0)",
                    {"unless all invocations within the subgroup execute the same dynamic instance",
                     "(invocations " + inactive + " did not execute it with the others)"});
    expectControlRun();
}

// ---------------------------------------------------------------------------------------------------------
// SPV_INTEL_media_block_io (cl_intel_spirv_media_block_io: xe_hpg only). Kernel media_read(img, out, x_bytes,
// y, width) reads a uint block of Width 1 and Height 16 with SubgroupSize 16: lane l gets the texel at byte
// x_bytes of row y + l.

constexpr const char* kMediaReadOp = "OpSubgroupImageMediaBlockReadINTEL";

class MediaBlockIoBadInputTest : public BadInputTest {
protected:
    void SetUp() override {
        BadInputTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        if (!hasExtension("cl_intel_spirv_media_block_io"))
            GTEST_SKIP() << "profile " << profileName()
                         << " does not report cl_intel_spirv_media_block_io (media block IO modules fail to "
                            "build there: MediaBlockIoCapability tests that)";
        out_ = buffer(16 * 4);
    }

    // R / CL_UNSIGNED_INT32 texels: value 100000 + row * 1000 + column.
    static uint32_t texel(size_t row, size_t column) { return uint32_t(100000 + row * 1000 + column); }
    cl_mem image(size_t width, size_t height) {
        std::vector<uint32_t> data(width * height);
        for (size_t r = 0; r < height; ++r)
            for (size_t c = 0; c < width; ++c) data[r * width + c] = texel(r, c);
        cl_image_format format = {CL_R, CL_UNSIGNED_INT32};
        cl_image_desc desc = {};
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = width;
        desc.image_height = height;
        cl_int err = CL_SUCCESS;
        cl_mem img = clCreateImage(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc,
                                   data.data(), &err);
        EXPECT_EQ(err, CL_SUCCESS);
        mems_.push_back(img);
        return img;
    }
    // A 16 x 16 image created from a buffer with `pitch` bytes per row; *err is clCreateImage's status.
    cl_mem imageFromBuffer(size_t pitch, cl_int* err) {
        std::vector<uint32_t> data(pitch / 4 * 16, 0xdeadbeefu);
        for (size_t r = 0; r < 16; ++r)
            for (size_t c = 0; c < 16; ++c) data[r * pitch / 4 + c] = texel(r, c);
        cl_mem storage = buffer(data.size() * 4, data.data());
        cl_image_format format = {CL_R, CL_UNSIGNED_INT32};
        cl_image_desc desc = {};
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = 16;
        desc.image_height = 16;
        desc.image_row_pitch = pitch;
        desc.mem_object = storage;
        cl_mem img = clCreateImage(context_, CL_MEM_READ_ONLY, &format, &desc, nullptr, err);
        if (img) mems_.push_back(img);
        return img;
    }
    cl_int readBlock(cl_kernel k, cl_mem img, cl_uint x_bytes, cl_uint y) {
        const cl_uint width = 1;
        setArgs(k, img, out_, x_bytes, y, width);
        return run(k, 16);
    }
    void expectBlock(cl_uint x_bytes, cl_uint y) {
        std::vector<uint32_t> got = read<uint32_t>(out_, 16);
        for (size_t l = 0; l < 16; ++l) EXPECT_EQ(got[l], texel(y + l, x_bytes / 4)) << "lane " << l;
    }
    // The control: the valid module builds and reads the block at byte 4 of row 2 of an ordinary image.
    void expectControlRun() {
        SCOPED_TRACE("control run of bad_input_media_ok.spv");
        cl_kernel k = kernel("bad_input_media_ok.spv", "media_read");
        ASSERT_NE(k, nullptr);
        expectSuccess(readBlock(k, image(16, 32), 4, 2));
        expectBlock(4, 2);
    }

    cl_mem out_ = nullptr;
};

TEST_F(MediaBlockIoBadInputTest, ControlBuildsAndRuns) {
    expectControlRun();
}

// Width is the kernel argument `width` instead of the constant 1.
TEST_F(MediaBlockIoBadInputTest, BuildRejectsNonConstantWidth) {
    expectBuildFailure("bad_input_media_dynamic_width.spv", "media_read", kMediaReadOp,
                       {"Width must be a constant instruction",
                        "the OpenCL environment requires compile-time width and height"});
    expectControlRun();
}

TEST_F(MediaBlockIoBadInputTest, CoordinateXNotMultipleOfFour) {
    expectControlRun();
    cl_kernel k = kernel("bad_input_media_ok.spv", "media_read");
    ASSERT_NE(k, nullptr);
    expectUndefined(readBlock(k, image(16, 32), 2, 2), "media_read", kMediaReadOp, "work-item global (0,0,0)",
                    {"Coordinate x is 2 bytes; the OpenCL environment requires a multiple of 4 bytes"});
    expectControlRun();
}

// cl_khr_image2d_from_buffer lets the pitch be any multiple of CL_DEVICE_IMAGE_PITCH_ALIGNMENT texels;
// media block IO on such an image needs a multiple of 64 bytes. 80 bytes (16 texels of 4 bytes, plus 16)
// passes clCreateImage when the alignment divides it, and must then fail the read.
TEST_F(MediaBlockIoBadInputTest, ImageFromBufferWithPitchNotMultipleOfSixtyFour) {
    cl_kernel k = kernel("bad_input_media_ok.spv", "media_read");
    ASSERT_NE(k, nullptr);
    cl_int err = CL_SUCCESS;
    cl_mem good = imageFromBuffer(128, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    expectSuccess(readBlock(k, good, 8, 0));
    expectBlock(8, 0);

    cl_uint alignment = 0;  // texels
    ASSERT_EQ(
        clGetDeviceInfo(device_, CL_DEVICE_IMAGE_PITCH_ALIGNMENT, sizeof alignment, &alignment, nullptr),
        CL_SUCCESS);
    ASSERT_GT(alignment, 0u);
    const size_t pitch = 80;
    cl_mem bad = imageFromBuffer(pitch, &err);
    if (pitch % (alignment * 4) != 0) {
        // The device's pitch alignment already rules the pitch out: clCreateImage rejects it.
        EXPECT_EQ(err, CL_INVALID_IMAGE_DESCRIPTOR);
        EXPECT_EQ(bad, nullptr);
    } else {
        ASSERT_EQ(err, CL_SUCCESS);
        expectUndefined(readBlock(k, bad, 8, 0), "media_read", kMediaReadOp, "work-item global (0,0,0)",
                        {"the image was created from a buffer with row pitch 80 bytes, which is not a "
                         "multiple of 64"});
    }
    expectSuccess(readBlock(k, good, 8, 0));
    expectBlock(8, 0);
    expectControlRun();
}

}  // namespace
}  // namespace refdev_test
