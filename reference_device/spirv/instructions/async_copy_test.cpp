// OpGroupAsyncCopy / OpGroupWaitEvents: contiguous and strided copies global -> local and local -> global,
// 3-component vector elements (16 bytes in memory), a shared event, operands that differ between
// work-items, the planted fault async_copy_stride_ignored; and prefetch, which only has to run.
#include "reference_device/spirv/test_util.h"

namespace refdev::spirv::test {
namespace {

class AsyncCopy : public ::testing::Test {
protected:
    // Built by the first test (not in SetUpTestSuite, where a failure would leave the tests skipped).
    void SetUp() override {
        if (!module_) module_ = build(assembleFixture("async_copy.spvasm"));
    }
    static void TearDownTestSuite() { module_.reset(); }
    static std::shared_ptr<const Module> module_;
};
std::shared_ptr<const Module> AsyncCopy::module_;

// copy_in: out[i] = src[i * stride] for i < count, 0 (fresh local memory) beyond.
void expectCopyIn(const Module& m, uint64_t count, uint64_t stride, const Faults& faults) {
    std::vector<uint32_t> src(16 * 4), out(16, 0xdeadbeef);
    for (uint32_t i = 0; i < src.size(); ++i) src[i] = 1000 + i;
    LaunchResult r = launch(m, "copy_in", {buffer(src), buffer(out), value(count), value(stride)},
                            range1(8, 8), testProfile(), faults, 2);
    ASSERT_TRUE(r.ok) << r.error;
    for (uint64_t i = 0; i < 16; ++i)
        EXPECT_EQ(out[i], i < count ? src[i * stride] : 0u)
            << "count " << count << " stride " << stride << " i " << i;
}

TEST_F(AsyncCopy, GlobalToLocalContiguousAndStrided) {
    ASSERT_TRUE(module_);
    const Faults none;
    expectCopyIn(*module_, 16, 1, none);
    expectCopyIn(*module_, 10, 3, none);
    expectCopyIn(*module_, 5, 0, none);  // stride 0: the same element again and again
}

TEST_F(AsyncCopy, LocalToGlobalStrided) {
    ASSERT_TRUE(module_);
    for (uint64_t stride : {1, 4}) {
        const uint64_t count = 12;
        std::vector<uint32_t> dst(16 * 4, 7);
        LaunchResult r = run(*module_, "copy_out", {buffer(dst), value(count), value(stride)}, range1(8, 8));
        ASSERT_TRUE(r.ok) << r.error;
        for (uint64_t j = 0; j < dst.size(); ++j) {
            const bool hit = j % stride == 0 && j / stride < count;
            EXPECT_EQ(dst[j], hit ? uint32_t(10 * (j / stride) + 1) : 7u)
                << "stride " << stride << " j " << j;
        }
    }
}

TEST_F(AsyncCopy, VectorElementsBothWaysWithASharedEvent) {
    ASSERT_TRUE(module_);
    const uint64_t in_stride = 2, out_stride = 3;
    std::vector<uint32_t> src(4 * 8 * in_stride), dst(4 * 8 * out_stride, 5);  // uint3: 4 words each
    for (uint32_t i = 0; i < src.size(); ++i) src[i] = i;
    LaunchResult r = run(*module_, "copy_vectors",
                         {buffer(src), buffer(dst), value(in_stride), value(out_stride)}, range1(8, 8));
    ASSERT_TRUE(r.ok) << r.error;
    for (uint64_t e = 0; e < 8 * out_stride; ++e)
        for (uint32_t c = 0; c < 3; ++c) {
            const bool hit = e % out_stride == 0;
            const uint32_t want = hit ? src[4 * (e / out_stride * in_stride) + c] : 5u;
            EXPECT_EQ(dst[4 * e + c], want) << "element " << e << " component " << c;
        }
}

TEST_F(AsyncCopy, OperandsDifferingBetweenWorkItemsAreUndefined) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> src(16, 1);
    LaunchResult r = run(*module_, "nonuniform", {buffer(src)}, range1(8, 8));
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("OpGroupAsyncCopy"), std::string::npos) << r.error;
    EXPECT_NE(
        r.error.find("undefined behaviour: Num Elements differs between the work-items of the work-group"),
        std::string::npos)
        << r.error;
}

TEST_F(AsyncCopy, CopyBeyondTheBufferIsReported) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> src(16), out(16);
    LaunchResult r = run(*module_, "copy_in",
                         {buffer(src), buffer(out), value(uint64_t(16)), value(uint64_t(2))}, range1(8, 8));
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("outside every buffer argument"), std::string::npos) << r.error;
}

// The planted fault copies contiguously: a strided copy then reads src[i] instead of src[i * stride].
TEST_F(AsyncCopy, PlantedFaultIgnoresTheStride) {
    ASSERT_TRUE(module_);
    Faults faults;
    std::string error;
    ASSERT_TRUE(faults.parse("async_copy_stride_ignored", &error)) << error;
    std::vector<uint32_t> src(16 * 4), out(16, 0);
    for (uint32_t i = 0; i < src.size(); ++i) src[i] = 1000 + i;
    LaunchResult r =
        launch(*module_, "copy_in", {buffer(src), buffer(out), value(uint64_t(8)), value(uint64_t(3))},
               range1(8, 8), testProfile(), faults, 2);
    ASSERT_TRUE(r.ok) << r.error;
    for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], src[i]) << i;
}

TEST_F(AsyncCopy, PrefetchRunsAndChangesNothing) {
    ASSERT_TRUE(module_);
    std::vector<uint32_t> src = {3, 1, 4, 1, 5, 9, 2, 6}, out(8, 0);
    LaunchResult r = run(*module_, "prefetch", {buffer(src), buffer(out)}, range1(8, 8));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(out, src);
}

}  // namespace
}  // namespace refdev::spirv::test
