// Undefined behaviour end to end: a valid module whose run breaks one rule of an extension instruction (or of
// core memory access) must fail clEnqueueNDRangeKernel with CL_OUT_OF_RESOURCES and tell the context's
// pfn_notify which kernel, which instruction and which work-item went wrong, and why. Every case has a
// control run of the same kernel with legal arguments, so a failure cannot come from the kernel itself.
#include <cstdint>
#include <initializer_list>

#include "reference_device/tests/api_test_util.h"

namespace refdev_test {
namespace {

class UndefinedBehaviorTest : public ApiTest {
protected:
    void SetUp() override {
        if (standIn()) GTEST_SKIP() << "the stand-in interpreter does not execute kernels";
        ApiTest::SetUp();
    }
    void TearDown() override {
        for (cl_kernel k : kernels_) EXPECT_EQ(clReleaseKernel(k), CL_SUCCESS);
        for (cl_mem m : mems_) EXPECT_EQ(clReleaseMemObject(m), CL_SUCCESS);
        for (cl_program p : programs_) EXPECT_EQ(clReleaseProgram(p), CL_SUCCESS);
        ApiTest::TearDown();
    }

    cl_kernel kernel(const std::string& fixture, const char* name) {
        cl_program program = buildFixture(fixture);
        programs_.push_back(program);
        cl_int err = CL_SUCCESS;
        cl_kernel k = clCreateKernel(program, name, &err);
        EXPECT_EQ(err, CL_SUCCESS) << name;
        kernels_.push_back(k);
        return k;
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
    // Runs a 1D NDRange (global == local: one work-group) and returns the enqueue's status; the messages of
    // earlier runs are dropped so each run is judged by its own.
    cl_int run(cl_kernel k, size_t global, size_t local) {
        messages_.clear();
        cl_int err = clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, &local, 0, nullptr, nullptr);
        if (err == CL_SUCCESS) EXPECT_EQ(clFinish(queue_), CL_SUCCESS);
        return err;
    }
    void expectSuccess(cl_int err) {
        EXPECT_EQ(err, CL_SUCCESS) << (messages_.empty() ? std::string("(no message)") : messages_[0]);
        EXPECT_TRUE(messages_.empty()) << messages_[0];
    }
    // The enqueue failed with CL_OUT_OF_RESOURCES and one message names the kernel, the instruction, the
    // work-item (`work_item`: part of the interpreter's "work-item global (x,y,z) local ..." text) and the
    // rule (`rule_words`: each must appear).
    void expectUndefined(cl_int err, const char* kernel_name, const char* opcode,
                         const std::string& work_item, std::initializer_list<const char*> rule_words) {
        EXPECT_EQ(err, CL_OUT_OF_RESOURCES);
        ASSERT_EQ(messages_.size(), 1u);
        const std::string& m = messages_[0];
        EXPECT_NE(m.find(std::string("kernel '") + kernel_name + "'"), std::string::npos) << m;
        EXPECT_NE(m.find(std::string(opcode) + " "), std::string::npos) << m;
        EXPECT_NE(m.find(work_item), std::string::npos) << m;
        for (const char* w : rule_words) EXPECT_NE(m.find(w), std::string::npos) << "'" << w << "' in " << m;
    }
    std::vector<uint32_t> read(cl_mem m, size_t count) {
        std::vector<uint32_t> v(count, 0);
        EXPECT_EQ(clEnqueueReadBuffer(queue_, m, CL_TRUE, 0, count * 4, v.data(), 0, nullptr, nullptr),
                  CL_SUCCESS);
        return v;
    }
    bool has2dBlockIo() {
        return deviceString(device_, CL_DEVICE_EXTENSIONS).find("cl_intel_subgroup_2d_block_io") !=
               std::string::npos;
    }

    std::vector<cl_program> programs_;
    std::vector<cl_kernel> kernels_;
    std::vector<cl_mem> mems_;
};

std::vector<uint32_t> iota(size_t n) {
    std::vector<uint32_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = uint32_t(i * 3 + 7);
    return v;
}

const std::string kFirstWorkItem = "work-item global (0,0,0)";

// SPV_INTEL_subgroups: buffer block IO.

TEST_F(UndefinedBehaviorTest, BlockReadWithNonUniformPtr) {
    cl_kernel k = kernel("ub_subgroups.spv", "block_read");
    std::vector<uint32_t> src = iota(128);
    cl_mem in = buffer(src.size() * 4, src.data());
    cl_mem out = buffer(16 * 4);
    cl_uint offset = 0, stride = 0;
    setArgs(k, out, in, offset, stride);
    expectSuccess(run(k, 16, 16));
    std::vector<uint32_t> got = read(out, 16);
    for (size_t i = 0; i < 16; ++i) EXPECT_EQ(got[i], src[i]) << "lane " << i;
    stride = 4;  // Ptr = in + lane: a different pointer in every invocation
    setArgs(k, out, in, offset, stride);
    expectUndefined(run(k, 16, 16), "block_read", "OpSubgroupBlockReadINTEL", kFirstWorkItem,
                    {"Ptr is not uniform"});
}

TEST_F(UndefinedBehaviorTest, BlockReadWithMisalignedPtr) {
    cl_kernel k = kernel("ub_subgroups.spv", "block_read");
    std::vector<uint32_t> src = iota(128);
    cl_mem in = buffer(src.size() * 4, src.data());
    cl_mem out = buffer(16 * 4);
    cl_uint offset = 4, stride = 0;  // 4-byte aligned is enough for reads
    setArgs(k, out, in, offset, stride);
    expectSuccess(run(k, 16, 16));
    std::vector<uint32_t> got = read(out, 16);
    for (size_t i = 0; i < 16; ++i) EXPECT_EQ(got[i], src[i + 1]) << "lane " << i;
    offset = 2;
    setArgs(k, out, in, offset, stride);
    expectUndefined(run(k, 16, 16), "block_read", "OpSubgroupBlockReadINTEL", kFirstWorkItem,
                    {"is not 4-byte aligned"});
}

TEST_F(UndefinedBehaviorTest, BlockWriteWithPtrNotSixteenByteAligned) {
    cl_kernel k = kernel("ub_subgroups.spv", "block_write");
    std::vector<uint32_t> zero(64, 0);
    cl_mem out = buffer(zero.size() * 4, zero.data());
    cl_uint offset = 16;
    setArgs(k, out, offset);
    expectSuccess(run(k, 16, 16));
    std::vector<uint32_t> got = read(out, 64);
    for (size_t i = 0; i < 16; ++i) EXPECT_EQ(got[4 + i], i) << "lane " << i;
    offset = 4;  // enough for a read, not for a write
    setArgs(k, out, offset);
    expectUndefined(run(k, 16, 16), "block_write", "OpSubgroupBlockWriteINTEL", kFirstWorkItem,
                    {"is not 16-byte aligned"});
}

TEST_F(UndefinedBehaviorTest, BlockReadByTrailingPartialSubGroup) {
    cl_kernel k = kernel("ub_subgroups.spv", "block_read");
    std::vector<uint32_t> src = iota(128);
    cl_mem in = buffer(src.size() * 4, src.data());
    cl_mem out = buffer(32 * 4);
    cl_uint offset = 0, stride = 0;
    setArgs(k, out, in, offset, stride);
    expectSuccess(run(k, 32, 32));  // two full sub-groups of 16
    std::vector<uint32_t> got = read(out, 32);
    for (size_t i = 0; i < 32; ++i) EXPECT_EQ(got[i], src[i % 16]) << "work-item " << i;
    // 20 work-items with SubgroupSize 16: sub-group 1 holds work-items 16..19 only.
    expectUndefined(run(k, 20, 20), "block_read", "OpSubgroupBlockReadINTEL",
                    "work-item global (16,0,0) local (16,0,0) group (0,0,0) sub-group 1 lane 0",
                    {"partial sub-group"});
}

// SPV_INTEL_subgroups: image block IO.

TEST_F(UndefinedBehaviorTest, ImageBlockWriteWithXNotMultipleOfFour) {
    if (!imageSupport()) GTEST_SKIP() << "no image support on this profile (Xe-HPC has no OpenCL images)";
    cl_kernel k = kernel("ub_subgroups.spv", "image_block_write");
    cl_image_format format = {CL_R, CL_UNSIGNED_INT32};
    cl_image_desc desc = {};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = 32;
    desc.image_height = 2;
    std::vector<uint32_t> zero(32 * 2, 0);
    cl_int err = CL_SUCCESS;
    cl_mem img =
        clCreateImage(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &format, &desc, zero.data(), &err);
    ASSERT_EQ(err, CL_SUCCESS);
    mems_.push_back(img);
    cl_uint x_bytes = 4;  // one texel in
    setArgs(k, img, x_bytes);
    expectSuccess(run(k, 16, 16));
    std::vector<uint32_t> got(32 * 2, 0xffffffffu);
    size_t origin[3] = {0, 0, 0}, region[3] = {32, 2, 1};
    ASSERT_EQ(clEnqueueReadImage(queue_, img, CL_TRUE, origin, region, 0, 0, got.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    for (size_t i = 0; i < 16; ++i) EXPECT_EQ(got[1 + i], i) << "lane " << i;
    EXPECT_EQ(got[0], 0u);
    x_bytes = 2;
    setArgs(k, img, x_bytes);
    expectUndefined(run(k, 16, 16), "image_block_write", "OpSubgroupImageBlockWriteINTEL", kFirstWorkItem,
                    {"Coordinate x 2 bytes is not a multiple of 4"});
}

// SPV_INTEL_2d_block_io: one 16x1 block of 4-byte elements per run.

class BlockIo2dUndefinedTest : public UndefinedBehaviorTest {
protected:
    void SetUp() override {
        UndefinedBehaviorTest::SetUp();
        if (IsSkipped() || HasFatalFailure()) return;
        if (!has2dBlockIo()) GTEST_SKIP() << "profile " << profileName() << " has no 2D block IO";
        k_ = kernel("ub_2d_block_io.spv", "load_2d");
        surface_ = buffer(src_.size() * 4, src_.data());
        out_ = buffer(16 * 4);
    }
    struct Args {
        cl_uint base_offset = 64, width = 64, height = 2, pitch = 64, x_step = 0;
    };
    cl_int load(const Args& a) {
        setArgs(k_, surface_, out_, a.base_offset, a.width, a.height, a.pitch, a.x_step);
        return run(k_, 16, 16);
    }
    // The legal run reads row 0 of the surface at base_offset: the lane's element.
    void expectControlRun() {
        expectSuccess(load(Args{}));
        std::vector<uint32_t> got = read(out_, 16);
        for (size_t i = 0; i < 16; ++i) EXPECT_EQ(got[i], src_[16 + i]) << "lane " << i;
    }

    std::vector<uint32_t> src_ = iota(256);
    cl_kernel k_ = nullptr;
    cl_mem surface_ = nullptr, out_ = nullptr;
};

TEST_F(BlockIo2dUndefinedTest, BasePointerNotSixtyFourByteAligned) {
    expectControlRun();
    Args a;
    a.base_offset = 68;
    expectUndefined(load(a), "load_2d", "OpSubgroup2DBlockLoadINTEL", kFirstWorkItem,
                    {"not cache-line aligned (64 bytes)"});
}

TEST_F(BlockIo2dUndefinedTest, PitchNotMultipleOfSixteen) {
    expectControlRun();
    Args a;
    a.pitch = 72;
    expectUndefined(load(a), "load_2d", "OpSubgroup2DBlockLoadINTEL", kFirstWorkItem,
                    {"Memory Pitch 72", "multiple of 16 bytes"});
}

TEST_F(BlockIo2dUndefinedTest, WidthBelowSixtyFourBytes) {
    expectControlRun();
    Args a;
    a.width = 32;
    expectUndefined(load(a), "load_2d", "OpSubgroup2DBlockLoadINTEL", kFirstWorkItem,
                    {"Memory Width 32", "outside [64, 2^24] bytes"});
}

TEST_F(BlockIo2dUndefinedTest, NonUniformCoordinate) {
    expectControlRun();
    Args a;
    a.x_step = 4;  // Coordinate (4 * lane, 0)
    expectUndefined(load(a), "load_2d", "OpSubgroup2DBlockLoadINTEL", kFirstWorkItem,
                    {"Coordinate is not dynamically uniform"});
}

// Core: a store one element past the end of its buffer. (KernelTest.KernelUndefinedBehaviourFailsTheEnqueue
// stores far outside; this one checks the boundary and the instruction named, with a control run.)

TEST_F(UndefinedBehaviorTest, StoreOnePastTheBufferEnd) {
    cl_kernel k = kernel("api_kernels.spv", "copy");
    std::vector<uint32_t> src = iota(32);
    cl_mem in = buffer(src.size() * 4, src.data());
    cl_mem out = buffer(16 * 4);
    cl_uint scale = 2;
    setArgs(k, out, in, scale);
    expectSuccess(run(k, 16, 16));
    std::vector<uint32_t> got = read(out, 16);
    for (size_t i = 0; i < 16; ++i) EXPECT_EQ(got[i], src[i] * 2) << "work-item " << i;
    // 17 work-items: work-item 16 reads in[16] (inside) and stores out[16], just past the end.
    expectUndefined(run(k, 17, 17), "copy", "OpStore", "work-item global (16,0,0)",
                    {"write of 4 bytes", "outside every buffer argument"});
}

}  // namespace
}  // namespace refdev_test
