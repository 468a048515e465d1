// Unit tests of the reference device's media block IO ops through a fake OpContext: the re-tiling of the
// W x H region to the sub-group's S-wide values (S = 8, 16, 32), row padding, regions smaller and larger
// than the sub-group's values, every edge, 1/2/4-byte texels, images from buffers, undefined behaviour, the
// build-time operand check and every planted fault.
#include "reference_device/ext/media_block_io/media_block_io_ops.h"

#include <gtest/gtest.h>

#include <CL/cl.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <memory>
#include <optional>
#include <ostream>

namespace refdev::spirv::media_block_io {
namespace {

constexpr uint64_t kImageHandle = 0x1234;  // Image operand bytes (the fake resolves any value to its image)
constexpr uint8_t kGuard = 0x5A;           // bytes after the image's last row
constexpr uint32_t kJunk = 0xDEADBEEF;     // what the device leaves in undefined result slots

// One instruction and the image it accesses. Printed by SCOPED_TRACE when a check fails.
struct Config {
    uint32_t opcode = kOpRead;
    uint32_t sg = 16;                 // SubgroupMaxSize (and the sub-group's size)
    uint32_t bits = 32, comps = 1;    // Result / Data: component bits and component count
    uint32_t width = 16, height = 1;  // Width (elements), Height (rows)
    int32_t x_bytes = 0, y = 0;       // Coordinate
    size_t image_width = 32, image_height = 16, texel_bytes = 4;
    size_t row_pitch = 0;  // 0: image_width * texel_bytes
    bool from_buffer = false;
    const char* faults = "";
    uint32_t channel_type = CL_UNSIGNED_INT32;  // the image format's channel type

    uint32_t eb() const { return bits / 8; }
    size_t pitch() const { return row_pitch ? row_pitch : image_width * texel_bytes; }
};

std::ostream& operator<<(std::ostream& os, const Config& c) {
    return os << (c.opcode == kOpRead ? "read" : "write") << " sg" << c.sg << " u" << c.bits << "x" << c.comps
              << " W" << c.width << " H" << c.height << " at (" << c.x_bytes << " B, " << c.y << ") image "
              << c.image_width << "x" << c.image_height << " texel " << c.texel_bytes << " pitch "
              << c.pitch() << (c.from_buffer ? " from buffer" : "") << " faults '" << c.faults << "'";
}

uint8_t imageByte(size_t row, size_t byte) {
    return uint8_t(row * 31 + byte * 7 + 3);
}
uint8_t sourceByte(uint32_t lane, uint32_t comp, uint32_t k) {
    return uint8_t(0x80 ^ (lane * 13 + comp * 101 + k * 3));
}

class FakeContext : public OpContext {
public:
    explicit FakeContext(const Config& c) : c_(c), lanes_(c.sg), max_lanes_(c.sg) {
        data_.kind = c.comps == 1 ? TypeInfo::Kind::Int : TypeInfo::Kind::Vector;
        data_.component_kind = TypeInfo::Kind::Int;
        data_.component_bits = c.bits, data_.components = c.comps, data_.byte_size = c.bits / 8 * c.comps;
        image_t_.kind = TypeInfo::Kind::Image, image_t_.byte_size = 8;
        i32_.kind = i32_.component_kind = TypeInfo::Kind::Int, i32_.component_bits = 32, i32_.byte_size = 4;
        coord_ = i32_, coord_.kind = TypeInfo::Kind::Vector, coord_.components = 2, coord_.byte_size = 8;
        i64_ = i32_, i64_.component_bits = 64, i64_.byte_size = 8;
        coord64_ = coord_, coord64_.component_bits = 64, coord64_.byte_size = 16;
        types_ = {&image_t_, &coord_, &i32_, &i32_};
        if (c.opcode == kOpWrite) types_.push_back(&data_);
        values_.assign(types_.size(), std::vector<std::vector<uint8_t>>(lanes_));
        for (uint32_t l = 0; l < lanes_; ++l) {
            set(l, kImageK, &kImageHandle, 8);
            int32_t xy[2] = {c.x_bytes, c.y};
            set(l, kCoordinateK, xy, 8);
            set(l, kWidthK, &c.width, 4);
            set(l, kHeightK, &c.height, 4);
            if (c.opcode == kOpWrite) {
                std::vector<uint8_t> src(data_.byte_size);
                for (uint32_t j = 0; j < c.comps; ++j)
                    for (uint32_t k = 0; k < c.eb(); ++k) src[j * c.eb() + k] = sourceByte(l, j, k);
                set(l, kDataK, src.data(), src.size());
            }
        }
        results_.assign(lanes_, std::vector<uint8_t>(64, 0xA5));
        storage_.assign(c.pitch() * c.image_height + 64, kGuard);
        for (size_t r = 0; r < c.image_height; ++r)
            for (size_t b = 0; b < c.pitch(); ++b) storage_[r * c.pitch() + b] = imageByte(r, b);
        original_ = storage_;
        img_.data = storage_.data();
        img_.width = c.image_width, img_.height = c.image_height, img_.row_pitch = c.pitch();
        img_.texel_bytes = c.texel_bytes, img_.from_buffer = c.from_buffer;
        img_.channel_type = c.channel_type;
        active_.assign(lanes_, true);
        std::string error;
        EXPECT_TRUE(faults_.parse(c.faults, &error)) << error;
    }

    void set(uint32_t lane, uint32_t k, const void* bytes, size_t n) {
        values_[k][lane].assign(static_cast<const uint8_t*>(bytes), static_cast<const uint8_t*>(bytes) + n);
    }
    void run() { c_.opcode == kOpRead ? executeRead(*this) : executeWrite(*this); }

    uint32_t opcode() const override { return c_.opcode; }
    const char* opName() const override { return c_.opcode == kOpRead ? kReadName : kWriteName; }
    uint32_t operandCount() const override { return uint32_t(types_.size()); }
    const TypeInfo& resultType() const override { return c_.opcode == kOpRead ? data_ : void_; }
    const TypeInfo& operandType(uint32_t k) const override { return *types_.at(k); }
    bool isConstant(uint32_t k) const override { return (k == kWidthK || k == kHeightK) && constant_; }
    uint32_t literal(uint32_t) const override { return 0; }
    uint32_t lanes() const override { return lanes_; }
    uint32_t maxLanes() const override { return max_lanes_; }
    bool active(uint32_t lane) const override { return active_.at(lane); }
    const uint8_t* operand(uint32_t lane, uint32_t k) const override { return values_.at(k).at(lane).data(); }
    uint8_t* result(uint32_t lane) override { return results_.at(lane).data(); }
    uint8_t* memory(uint32_t lane, uint64_t, size_t, bool) override {
        undefinedBehavior(lane, "media block IO accesses no buffer memory");
        return nullptr;
    }
    const ImageDesc* image(uint32_t, uint32_t) override { return &img_; }
    const Faults& faults() const override { return faults_; }
    void undefinedBehavior(uint32_t, const std::string& what) override {
        if (error_.empty()) error_ = what;
    }
    bool failed() const override { return !error_.empty(); }

    // Lane `lane`'s component `comp` of the result (read) as bytes.
    std::vector<uint8_t> element(uint32_t lane, uint32_t comp) const {
        const uint8_t* p = results_.at(lane).data() + comp * c_.eb();
        return std::vector<uint8_t>(p, p + c_.eb());
    }
    uint32_t value(uint32_t lane, uint32_t comp) const {
        uint32_t v = 0;
        std::memcpy(&v, results_.at(lane).data() + comp * c_.eb(), c_.eb());
        return v;
    }
    // Image element of eb bytes at (row, byte column) as currently stored.
    uint32_t imageValue(size_t row, size_t bx, uint32_t bytes = 0) const {
        uint32_t v = 0;
        std::memcpy(&v, storage_.data() + row * c_.pitch() + bx, bytes ? bytes : c_.eb());
        return v;
    }

    Config c_;
    uint32_t lanes_, max_lanes_;
    bool constant_ = true;
    std::vector<bool> active_;
    TypeInfo void_, data_, image_t_, i32_, coord_, i64_, coord64_;
    std::vector<const TypeInfo*> types_;
    std::vector<std::vector<std::vector<uint8_t>>> values_;
    std::vector<std::vector<uint8_t>> results_;
    std::vector<uint8_t> storage_, original_;
    ImageDesc img_;
    Faults faults_;
    std::string error_;
};

std::unique_ptr<FakeContext> run(const Config& c) {
    auto ctx = std::make_unique<FakeContext>(c);
    ctx->run();
    return ctx;
}

// The test's own reading, walking the sub-group's slots (the device walks the region): lane i component j
// is slot L = j*S + i of the S-wide region; region row r starts at slot r * P/eb (P: row bytes rounded up
// to a power of two). Returns nothing where the value is undefined.
uint32_t ceilPow2(uint32_t v) {
    uint32_t p = 1;
    while (p < v) p <<= 1;
    return p;
}
uint32_t stride(const Config& c) {
    return ceilPow2(c.width * c.eb()) / c.eb();
}

std::optional<std::vector<uint8_t>> expectedRead(const Config& c, uint32_t lane, uint32_t comp) {
    const uint32_t slot = comp * c.sg + lane, r = slot / stride(c), col = slot % stride(c);
    if (col >= c.width || r >= c.height) return std::nullopt;  // padding or tail
    std::vector<uint8_t> out(c.eb());
    const int64_t row = c.y + int64_t(r), texel = int64_t(c.texel_bytes);
    for (uint32_t k = 0; k < c.eb(); ++k) {
        const int64_t bx = c.x_bytes + int64_t(col) * c.eb() + k;
        int64_t t = bx / texel, within = bx % texel;
        if (within < 0) within += texel, t -= 1;
        const bool inside = row >= 0 && row < int64_t(c.image_height) && t >= 0 && t < int64_t(c.image_width);
        if (!inside && texel > int64_t(c.eb())) return std::nullopt;  // larger texels: undefined
        t = std::clamp<int64_t>(t, 0, int64_t(c.image_width) - 1);
        const int64_t rr = std::clamp<int64_t>(row, 0, int64_t(c.image_height) - 1);
        out[k] = imageByte(size_t(rr), size_t(t * texel + within));
    }
    return out;
}

// Compares every defined result slot with expectedRead; returns the number of mismatches (reports the first).
int checkRead(const FakeContext& ctx) {
    const Config& c = ctx.c_;
    int bad = 0;
    for (uint32_t l = 0; l < c.sg; ++l)
        for (uint32_t j = 0; j < c.comps; ++j) {
            auto want = expectedRead(c, l, j);
            if (want && ctx.element(l, j) != *want && bad++ == 0)
                ADD_FAILURE() << c << ": lane " << l << " component " << j << " differs";
        }
    return bad;
}

// The image after a write, walking the slots: slot L of the source (lane L % S, component L / S) goes to
// region element (L / stride, L % stride) when that is in the region and in bounds.
std::vector<uint8_t> expectedImage(const Config& c, const std::vector<uint8_t>& before) {
    std::vector<uint8_t> img = before;
    for (uint32_t slot = 0; slot < c.sg * c.comps; ++slot) {
        const uint32_t r = slot / stride(c), col = slot % stride(c);
        if (col >= c.width || r >= c.height) continue;
        for (uint32_t k = 0; k < c.eb(); ++k) {
            const int64_t row = c.y + int64_t(r), bx = c.x_bytes + int64_t(col) * c.eb() + k;
            if (row < 0 || row >= int64_t(c.image_height) || bx < 0 ||
                bx >= int64_t(c.image_width * c.texel_bytes))
                continue;
            img[size_t(row) * c.pitch() + size_t(bx)] = sourceByte(slot % c.sg, slot / c.sg, k);
        }
    }
    return img;
}

int checkWrite(const FakeContext& ctx) {
    const std::vector<uint8_t> want = expectedImage(ctx.c_, ctx.original_);
    int bad = 0;
    for (size_t i = 0; i < want.size(); ++i)
        if (ctx.storage_[i] != want[i] && bad++ == 0)
            ADD_FAILURE() << ctx.c_ << ": image byte " << i << " (row " << i / ctx.c_.pitch() << ", byte "
                          << i % ctx.c_.pitch() << ") is " << int(ctx.storage_[i]) << ", expected "
                          << int(want[i]);
    return bad;
}

uint32_t junk(uint32_t bits) {
    return bits == 32 ? kJunk : bits == 16 ? kJunk & 0xffff : kJunk & 0xff;
}

// ---------------------------------------------------------------------------------------------------------
// Layout, hand-checked cases.

// W = S: lane i is column i, component j is row j.
TEST(MediaBlockIoOps, ReadWidthEqualsSubgroupSize) {
    for (uint32_t sg : {8u, 16u}) {
        Config c{.sg = sg,
                 .bits = 16,
                 .comps = 4,
                 .width = sg,
                 .height = 4,
                 .x_bytes = 8,
                 .y = 2,
                 .image_width = 64,
                 .texel_bytes = 2};
        auto ctx = run(c);
        ASSERT_FALSE(ctx->failed()) << ctx->error_;
        for (uint32_t i = 0; i < sg; ++i)
            for (uint32_t j = 0; j < 4; ++j) EXPECT_EQ(ctx->value(i, j), ctx->imageValue(2 + j, 8 + 2 * i));
    }
    Config c32{.sg = 32,
               .bits = 8,
               .comps = 2,
               .width = 32,
               .height = 2,
               .x_bytes = 4,
               .y = 1,
               .image_width = 64,
               .texel_bytes = 1};
    auto ctx = run(c32);
    ASSERT_FALSE(ctx->failed()) << ctx->error_;
    for (uint32_t i = 0; i < 32; ++i)
        for (uint32_t j = 0; j < 2; ++j) EXPECT_EQ(ctx->value(i, j), ctx->imageValue(1 + j, 4 + i));
}

// W < S: S=8, 2 x 4-byte elements per row: lane i component j holds row 4j + i/2, column i%2.
TEST(MediaBlockIoOps, ReadNarrowRegionIsRetiled) {
    Config c{.sg = 8, .bits = 32, .comps = 2, .width = 2, .height = 8, .x_bytes = 12, .y = 3};
    auto ctx = run(c);
    ASSERT_FALSE(ctx->failed()) << ctx->error_;
    for (uint32_t i = 0; i < 8; ++i)
        for (uint32_t j = 0; j < 2; ++j)
            EXPECT_EQ(ctx->value(i, j), ctx->imageValue(3 + 4 * j + i / 2, 12 + 4 * (i % 2)))
                << i << "," << j;
}

// A 12-byte row is padded to 16: every fourth slot is padding (undefined), rows start 4 slots apart.
TEST(MediaBlockIoOps, ReadTwelveByteRowIsPadded) {
    Config c{.sg = 8, .bits = 32, .comps = 2, .width = 3, .height = 4, .x_bytes = 4, .y = 1};
    auto ctx = run(c);
    ASSERT_FALSE(ctx->failed()) << ctx->error_;
    for (uint32_t i = 0; i < 8; ++i)
        for (uint32_t j = 0; j < 2; ++j) {
            uint32_t slot = 8 * j + i, r = slot / 4, col = slot % 4;
            if (col == 3)
                EXPECT_EQ(ctx->value(i, j), kJunk) << "padding slot " << slot;
            else
                EXPECT_EQ(ctx->value(i, j), ctx->imageValue(1 + r, 4 + 4 * col)) << "slot " << slot;
        }
    EXPECT_EQ(checkRead(*ctx), 0);
}

// Region smaller than S x components: the tail components are not assigned (undefined).
TEST(MediaBlockIoOps, ReadSmallRegionLeavesTailUndefined) {
    Config c{.sg = 8, .bits = 32, .comps = 4, .width = 8, .height = 1, .x_bytes = 0, .y = 5};
    auto ctx = run(c);
    ASSERT_FALSE(ctx->failed()) << ctx->error_;
    for (uint32_t i = 0; i < 8; ++i) {
        EXPECT_EQ(ctx->value(i, 0), ctx->imageValue(5, 4 * i));
        for (uint32_t j = 1; j < 4; ++j) EXPECT_EQ(ctx->value(i, j), kJunk);
    }
}

// Region larger than S x components: rows past the sub-group's values are dropped.
TEST(MediaBlockIoOps, ReadLargeRegionDropsRows) {
    Config c{
        .sg = 16, .bits = 16, .comps = 2, .width = 16, .height = 8, .x_bytes = 0, .y = 0, .texel_bytes = 2};
    auto ctx = run(c);
    ASSERT_FALSE(ctx->failed()) << ctx->error_;
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t j = 0; j < 2; ++j) EXPECT_EQ(ctx->value(i, j), ctx->imageValue(j, 2 * i));
}

// W > S: S=8, 32 bytes per row: each region row fills four components of every lane.
TEST(MediaBlockIoOps, ReadRowWiderThanSubgroup) {
    Config c{.sg = 8,
             .bits = 8,
             .comps = 8,
             .width = 32,
             .height = 2,
             .x_bytes = 16,
             .y = 4,
             .image_width = 64,
             .texel_bytes = 1};
    auto ctx = run(c);
    ASSERT_FALSE(ctx->failed()) << ctx->error_;
    for (uint32_t i = 0; i < 8; ++i)
        for (uint32_t j = 0; j < 8; ++j) {
            uint32_t slot = 8 * j + i;
            EXPECT_EQ(ctx->value(i, j), ctx->imageValue(4 + slot / 32, 16 + slot % 32));
        }
}

// Sub-group sizes 8, 16, 32, every element type and component count, every row width and the largest
// height, at positions inside, across each edge and fully outside, with 1-, 2- and 4-byte texels.
TEST(MediaBlockIoOps, ReadSweepMatchesSlotWalk) {
    struct Pos {
        int32_t x, y;
    };
    const Pos positions[] = {{8, 2}, {56, 14}, {-8, -3}, {-4, 15}, {200, 40}, {-64, -40}};
    int runs = 0;
    for (uint32_t sg : {8u, 16u, 32u})
        for (uint32_t bits : {8u, 16u, 32u})
            for (uint32_t comps : {1u, 2u, 4u, 8u, 16u}) {
                if (comps == 16 && bits == 32) continue;
                for (uint32_t row_bytes = 4; row_bytes <= 32; row_bytes += 4) {
                    if (row_bytes % (bits / 8)) continue;
                    for (uint32_t height : {1u, 3u, maxHeightForRowBytes(row_bytes)})
                        for (uint32_t texel : {1u, 2u, 4u})
                            for (const Pos& p : positions) {
                                Config c{.sg = sg,
                                         .bits = bits,
                                         .comps = comps,
                                         .width = row_bytes / (bits / 8),
                                         .height = height,
                                         .x_bytes = p.x,
                                         .y = p.y,
                                         .image_width = 64 / texel,
                                         .texel_bytes = texel};
                                auto ctx = run(c);
                                ASSERT_FALSE(ctx->failed()) << c << ": " << ctx->error_;
                                ASSERT_EQ(checkRead(*ctx), 0);
                                ++runs;
                            }
                }
            }
    EXPECT_GT(runs, 1000);
}

// ---------------------------------------------------------------------------------------------------------
// Out of bounds reads.

// 4-byte texels, 8 x 6 image: each edge replicates the nearest texel; fully outside gives the corner.
TEST(MediaBlockIoOps, ReadEdgesReplicateNearestTexel) {
    auto texel = [](const FakeContext& ctx, int64_t row, int64_t col) {
        return ctx.imageValue(size_t(std::clamp<int64_t>(row, 0, 5)),
                              size_t(std::clamp<int64_t>(col, 0, 7)) * 4);
    };
    struct Case {
        int32_t x_bytes, y;
    } cases[] = {{24, 1}, {0, 4}, {-8, 1}, {4, -2}, {-16, -5}, {64, 10}, {-40, 2}, {8, 20}};
    for (const Case& k : cases) {
        Config c{.sg = 8,
                 .bits = 32,
                 .comps = 4,
                 .width = 4,
                 .height = 4,
                 .x_bytes = k.x_bytes,
                 .y = k.y,
                 .image_width = 8,
                 .image_height = 6};
        auto ctx = run(c);
        ASSERT_FALSE(ctx->failed()) << ctx->error_;
        for (uint32_t i = 0; i < 8; ++i)
            for (uint32_t j = 0; j < 4; ++j) {
                uint32_t slot = 8 * j + i;
                if (slot >= 16) {
                    EXPECT_EQ(ctx->value(i, j), kJunk);
                    continue;
                }
                EXPECT_EQ(ctx->value(i, j),
                          texel(*ctx, k.y + int64_t(slot / 4), k.x_bytes / 4 + int64_t(slot % 4)))
                    << c << " lane " << i << " component " << j;
            }
    }
}

// 1-byte texels repeat the boundary byte, also inside a wider element; 2-byte texels the boundary word.
TEST(MediaBlockIoOps, ReadSmallTexelsReplicateTheirOwnSize) {
    {
        Config c{.sg = 8,
                 .bits = 8,
                 .comps = 1,
                 .width = 8,
                 .height = 1,
                 .x_bytes = 8,
                 .y = 0,
                 .image_width = 12,
                 .texel_bytes = 1};
        auto ctx = run(c);
        ASSERT_FALSE(ctx->failed()) << ctx->error_;
        for (uint32_t i = 0; i < 8; ++i)
            EXPECT_EQ(ctx->value(i, 0), ctx->imageValue(0, std::min(8 + i, 11u)));
    }
    {
        Config c{.sg = 8,
                 .bits = 32,
                 .comps = 1,
                 .width = 8,
                 .height = 1,
                 .x_bytes = 4,
                 .y = 0,
                 .image_width = 12,
                 .texel_bytes = 1};
        auto ctx = run(c);
        ASSERT_FALSE(ctx->failed()) << ctx->error_;
        uint32_t edge = ctx->imageValue(0, 11, 1);
        EXPECT_EQ(ctx->value(1, 0), ctx->imageValue(0, 8));
        for (uint32_t i = 2; i < 8; ++i) EXPECT_EQ(ctx->value(i, 0), edge * 0x01010101u) << i;
    }
    {
        Config c{.sg = 8,
                 .bits = 32,
                 .comps = 1,
                 .width = 8,
                 .height = 1,
                 .x_bytes = -8,
                 .y = 0,
                 .image_width = 16,
                 .texel_bytes = 2};
        auto ctx = run(c);
        ASSERT_FALSE(ctx->failed()) << ctx->error_;
        uint32_t first = ctx->imageValue(0, 0, 2);
        EXPECT_EQ(ctx->value(0, 0), first | first << 16);
        EXPECT_EQ(ctx->value(1, 0), first | first << 16);
        EXPECT_EQ(ctx->value(2, 0), ctx->imageValue(0, 0));
    }
    EXPECT_EQ(checkRead(*run({.sg = 16,
                              .bits = 16,
                              .comps = 2,
                              .width = 16,
                              .height = 2,
                              .x_bytes = 20,
                              .y = 15,
                              .image_width = 24,
                              .texel_bytes = 2})),
              0);
}

// Texels larger than the element: in-bounds elements are read, out-of-bounds ones are undefined.
TEST(MediaBlockIoOps, ReadLargeTexelsInBounds) {
    Config c{.sg = 8,
             .bits = 32,
             .comps = 1,
             .width = 8,
             .height = 1,
             .x_bytes = 16,
             .y = 0,
             .image_width = 2,
             .texel_bytes = 16};
    auto ctx = run(c);
    ASSERT_FALSE(ctx->failed()) << ctx->error_;
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(ctx->value(i, 0), ctx->imageValue(0, 16 + 4 * i));
    for (uint32_t i = 4; i < 8; ++i) EXPECT_EQ(ctx->value(i, 0), kJunk);
}

// Images from a buffer: rows are row_pitch apart, not width * texel size.
TEST(MediaBlockIoOps, BufferImageRowsArePitchApart) {
    Config c{.sg = 16,
             .bits = 32,
             .comps = 4,
             .width = 4,
             .height = 16,
             .x_bytes = 16,
             .y = 2,
             .image_width = 16,
             .image_height = 20,
             .row_pitch = 128,
             .from_buffer = true};
    auto ctx = run(c);
    ASSERT_FALSE(ctx->failed()) << ctx->error_;
    EXPECT_EQ(checkRead(*ctx), 0);
    EXPECT_EQ(ctx->value(0, 1), ctx->imageValue(6, 16));  // slot 16: row 4 of the block
    Config w = c;
    w.opcode = kOpWrite;
    EXPECT_EQ(checkWrite(*run(w)), 0);
}

// ---------------------------------------------------------------------------------------------------------
// Writes.

TEST(MediaBlockIoOps, WriteWidthEqualsSubgroupSize) {
    for (uint32_t sg : {8u, 16u, 32u}) {
        Config c{.opcode = kOpWrite,
                 .sg = sg,
                 .bits = 8,
                 .comps = 4,
                 .width = sg,
                 .height = 4,
                 .x_bytes = 4,
                 .y = 3,
                 .image_width = 64,
                 .texel_bytes = 1};
        auto ctx = run(c);
        ASSERT_FALSE(ctx->failed()) << ctx->error_;
        for (uint32_t i = 0; i < sg; ++i)
            for (uint32_t j = 0; j < 4; ++j) EXPECT_EQ(ctx->imageValue(3 + j, 4 + i), sourceByte(i, j, 0));
        EXPECT_EQ(checkWrite(*ctx), 0);
    }
}

// 12-byte rows: the source's padding slots are skipped, the image right of the region is untouched.
TEST(MediaBlockIoOps, WriteTwelveByteRowSkipsPadding) {
    Config c{
        .opcode = kOpWrite, .sg = 8, .bits = 32, .comps = 2, .width = 3, .height = 4, .x_bytes = 8, .y = 1};
    auto ctx = run(c);
    ASSERT_FALSE(ctx->failed()) << ctx->error_;
    for (uint32_t r = 0; r < 4; ++r) {
        for (uint32_t col = 0; col < 3; ++col) {
            uint32_t slot = 4 * r + col;
            EXPECT_EQ(ctx->imageValue(1 + r, 8 + 4 * col, 1), sourceByte(slot % 8, slot / 8, 0));
        }
        const size_t right = (1 + r) * ctx->c_.pitch() + 20;  // column 3: right of the region
        EXPECT_TRUE(std::equal(ctx->storage_.begin() + right, ctx->storage_.begin() + right + 4,
                               ctx->original_.begin() + right))
            << "row " << r;
    }
    EXPECT_EQ(checkWrite(*ctx), 0);
}

// Smaller region: the source's tail is not written. Larger region: rows past the source are untouched.
TEST(MediaBlockIoOps, WriteSmallAndLargeRegions) {
    EXPECT_EQ(checkWrite(*run({.opcode = kOpWrite,
                               .sg = 16,
                               .bits = 32,
                               .comps = 8,
                               .width = 8,
                               .height = 2,
                               .x_bytes = 0,
                               .y = 0})),
              0);
    auto large = run({.opcode = kOpWrite,
                      .sg = 8,
                      .bits = 16,
                      .comps = 2,
                      .width = 8,
                      .height = 8,
                      .x_bytes = 0,
                      .y = 0,
                      .texel_bytes = 2});
    ASSERT_FALSE(large->failed()) << large->error_;
    EXPECT_EQ(checkWrite(*large), 0);
    const size_t pitch = large->c_.pitch();  // rows 2.. of the region have no source slots
    EXPECT_TRUE(std::equal(large->storage_.begin() + 2 * pitch, large->storage_.end(),
                           large->original_.begin() + 2 * pitch));
}

// Out-of-bounds bytes are dropped at every edge; nothing outside the image changes.
TEST(MediaBlockIoOps, WriteOutOfBoundsDropped) {
    struct Pos {
        int32_t x, y;
    };
    for (uint32_t sg : {8u, 16u, 32u})
        for (uint32_t texel : {1u, 2u, 4u})
            for (Pos p : {Pos{24, 3}, Pos{-8, -2}, Pos{0, 14}, Pos{-4, 30}, Pos{100, 0}}) {
                Config c{.opcode = kOpWrite,
                         .sg = sg,
                         .bits = 16,
                         .comps = 4,
                         .width = 8,
                         .height = 8,
                         .x_bytes = p.x,
                         .y = p.y,
                         .image_width = 32 / texel,
                         .texel_bytes = texel};
                auto ctx = run(c);
                ASSERT_FALSE(ctx->failed()) << ctx->error_;
                ASSERT_EQ(checkWrite(*ctx), 0);
            }
}

TEST(MediaBlockIoOps, WriteSweepMatchesSlotWalk) {
    for (uint32_t sg : {8u, 16u, 32u})
        for (uint32_t bits : {8u, 16u, 32u})
            for (uint32_t comps : {1u, 4u, 16u}) {
                if (comps == 16 && bits == 32) continue;
                for (uint32_t row_bytes = 4; row_bytes <= 32; row_bytes += 4) {
                    if (row_bytes % (bits / 8)) continue;
                    for (uint32_t height : {1u, 5u, maxHeightForRowBytes(row_bytes)}) {
                        Config c{.opcode = kOpWrite,
                                 .sg = sg,
                                 .bits = bits,
                                 .comps = comps,
                                 .width = row_bytes / (bits / 8),
                                 .height = height,
                                 .x_bytes = 44,
                                 .y = 13,
                                 .image_width = 16,
                                 .image_height = 20};
                        auto ctx = run(c);
                        ASSERT_FALSE(ctx->failed()) << c << ": " << ctx->error_;
                        ASSERT_EQ(checkWrite(*ctx), 0);
                    }
                }
            }
}

// ---------------------------------------------------------------------------------------------------------
// Undefined behaviour.

std::string errorOf(const Config& c, void (*tweak)(FakeContext&) = nullptr) {
    FakeContext ctx(c);
    if (tweak) tweak(ctx);
    ctx.run();
    return ctx.error_;
}

void expectUb(const Config& c, const std::string& fragment, void (*tweak)(FakeContext&) = nullptr) {
    for (uint32_t op : {kOpRead, kOpWrite}) {
        Config k = c;
        k.opcode = op;
        FakeContext ctx(k);
        if (tweak) tweak(ctx);
        ctx.run();
        EXPECT_NE(ctx.error_.find(fragment), std::string::npos) << k << ": '" << ctx.error_ << "'";
        EXPECT_NE(ctx.error_.find(op == kOpRead ? kReadName : kWriteName), std::string::npos) << ctx.error_;
        if (op == kOpWrite)
            EXPECT_EQ(ctx.storage_, ctx.original_) << "nothing written on undefined behaviour";
    }
}

const Config kLegal{.sg = 16, .bits = 32, .comps = 2, .width = 4, .height = 8, .x_bytes = 4, .y = 1};

TEST(MediaBlockIoOps, LegalConfigHasNoUndefinedBehaviour) {
    EXPECT_EQ(errorOf(kLegal), "");
    Config w = kLegal;
    w.opcode = kOpWrite;
    EXPECT_EQ(errorOf(w), "");
}

TEST(MediaBlockIoOps, PartialSubgroupIsUndefined) {
    expectUb(kLegal, "full sub-group", [](FakeContext& ctx) { ctx.lanes_ = 12; });
    expectUb(kLegal, "full sub-group", [](FakeContext& ctx) { ctx.active_[5] = false; });
}

TEST(MediaBlockIoOps, NonUniformOperandsAreUndefined) {
    expectUb(kLegal, "Image is not dynamically uniform", [](FakeContext& ctx) {
        uint64_t other = 0x5678;
        ctx.set(3, kImageK, &other, 8);
    });
    expectUb(kLegal, "Coordinate is not dynamically uniform", [](FakeContext& ctx) {
        int32_t xy[2] = {8, 1};
        ctx.set(7, kCoordinateK, xy, 8);
    });
    expectUb(kLegal, "Width and Height must be constant", [](FakeContext& ctx) { ctx.constant_ = false; });
}

TEST(MediaBlockIoOps, RowWidthRulesAreUndefined) {
    Config odd = kLegal;
    odd.bits = 8, odd.width = 6;
    expectUb(odd, "is not a multiple of 4 bytes");
    Config x = kLegal;
    x.x_bytes = 6;
    expectUb(x, "Coordinate x is 6 bytes");
    Config negative_x = kLegal;
    negative_x.x_bytes = -2;
    expectUb(negative_x, "Coordinate x is -2 bytes");
    Config wide = kLegal;
    wide.width = 9;
    expectUb(wide, "exceeds the OpenCL environment's maximum block row of 32 bytes");
    Config zero = kLegal;
    zero.height = 0;
    expectUb(zero, "Height is 0");
}

// 4 B -> 64 rows, 8 B -> 32, 12 and 16 B -> 16, 20 to 32 B -> 8: the limit passes, one more row does not.
TEST(MediaBlockIoOps, HeightLimitPerRowWidth) {
    const uint32_t limits[][2] = {{4, 64}, {8, 32}, {12, 16}, {16, 16}, {20, 8}, {24, 8}, {28, 8}, {32, 8}};
    for (const auto& l : limits) {
        EXPECT_EQ(maxHeightForRowBytes(l[0]), l[1]);
        Config c = kLegal;
        c.sg = 32, c.comps = 8, c.width = l[0] / 4, c.height = l[1];
        EXPECT_EQ(errorOf(c), "") << c;
        c.height = l[1] + 1;
        expectUb(c, "Height " + std::to_string(l[1] + 1) + " exceeds the maximum of " + std::to_string(l[1]));
    }
    EXPECT_EQ(maxHeightForRowBytes(36), 0u);
    EXPECT_EQ(maxHeightForRowBytes(6), 0u);
}

TEST(MediaBlockIoOps, BufferImageRulesAreUndefined) {
    Config c{.sg = 16,
             .bits = 32,
             .comps = 2,
             .width = 4,
             .height = 16,
             .x_bytes = 0,
             .y = 0,
             .image_width = 16,
             .image_height = 32,
             .row_pitch = 64,
             .from_buffer = true};
    EXPECT_EQ(errorOf(c), "");
    c.height = 17, c.width = 2;  // 8-byte rows: 17 rows are within the table
    expectUb(c, "exceeds 16 rows, the maximum for an image created from a buffer");
    c.height = 16, c.width = 4, c.row_pitch = 96;
    expectUb(c, "row pitch 96 bytes, which is not a multiple of 64");
    c.from_buffer = false;  // the same pitch and height are fine for an ordinary image
    EXPECT_EQ(errorOf(c), "");
    c.height = 17, c.width = 2;
    EXPECT_EQ(errorOf(c), "");
}

// ---------------------------------------------------------------------------------------------------------
// Build-time check.

struct BuildTypes {
    TypeInfo data, image, coord, i32;
    BuildTypes(uint32_t bits, uint32_t comps, TypeInfo::Kind component_kind = TypeInfo::Kind::Int) {
        data.kind = comps == 1 ? component_kind : TypeInfo::Kind::Vector;
        data.component_kind = component_kind, data.component_bits = bits, data.components = comps;
        image.kind = TypeInfo::Kind::Image;
        i32.kind = i32.component_kind = TypeInfo::Kind::Int, i32.component_bits = 32;
        coord = i32, coord.kind = TypeInfo::Kind::Vector, coord.components = 2;
    }
};

ExtBuildView view(BuildTypes& t, bool write, uint64_t width, uint64_t height) {
    ExtBuildView v;
    v.result = write ? nullptr : &t.data;
    v.operand_types = {&t.image, &t.coord, &t.i32, &t.i32};
    v.int_constant = {false, false, true, true};
    v.int_value = {0, 0, width, height};
    if (write) {
        v.operand_types.push_back(&t.data);
        v.int_constant.push_back(false);
        v.int_value.push_back(0);
    }
    v.literal.assign(v.operand_types.size(), 0);
    return v;
}

std::string check(const ExtBuildView& v, bool write) {
    return write ? checkWriteBuild(v) : checkReadBuild(v);
}

TEST(MediaBlockIoOps, BuildCheckAcceptsLegalOperands) {
    for (bool write : {false, true})
        for (uint32_t bits : {8u, 16u, 32u})
            for (uint32_t comps : {1u, 2u, 4u, 8u, 16u}) {
                if (comps == 16 && bits == 32) continue;
                BuildTypes t(bits, comps);
                for (uint32_t row_bytes = 4; row_bytes <= 32; row_bytes += 4)
                    if (row_bytes % (bits / 8) == 0)
                        EXPECT_EQ(
                            check(view(t, write, row_bytes / (bits / 8), maxHeightForRowBytes(row_bytes)),
                                  write),
                            "")
                            << bits << "x" << comps << " row " << row_bytes;
            }
}

void expectRejected(const ExtBuildView& v, bool write, const std::string& fragment) {
    std::string why = check(v, write);
    EXPECT_NE(why.find(fragment), std::string::npos) << "'" << why << "'";
    EXPECT_EQ(why.rfind(write ? kWriteName : kReadName, 0), 0u) << why;
}

TEST(MediaBlockIoOps, BuildCheckRejectsIllegalOperands) {
    for (bool write : {false, true}) {
        BuildTypes t(32, 2);
        ExtBuildView v = view(t, write, 4, 8);
        ExtBuildView w = v;
        w.int_constant[kWidthK] = false;
        expectRejected(
            w, write,
            "Width must be a constant instruction (the OpenCL environment requires compile-time width "
            "and height)");
        ExtBuildView h = v;
        h.int_constant[kHeightK] = false;
        expectRejected(h, write, "Height must be a constant instruction");

        BuildTypes scalar_coord = t;
        scalar_coord.coord = scalar_coord.i32;
        expectRejected(view(scalar_coord, write, 4, 8), write, "Coordinate must be a vector of two integer");
        BuildTypes coord3 = t;
        coord3.coord.components = 3;
        expectRejected(view(coord3, write, 4, 8), write, "Coordinate must be a vector of two integer");
        BuildTypes float_coord = t;
        float_coord.coord.component_kind = TypeInfo::Kind::Float;
        expectRejected(view(float_coord, write, 4, 8), write, "Coordinate must be a vector of two integer");
        BuildTypes not_image = t;
        not_image.image = not_image.i32;
        expectRejected(view(not_image, write, 4, 8), write,
                       "Image must be an object whose type is OpTypeImage");

        const char* role = write ? "the type of Data" : "Result Type";
        BuildTypes floats(32, 2, TypeInfo::Kind::Float);
        expectRejected(view(floats, write, 4, 8), write,
                       std::string(role) + " must be a scalar or vector of 8-");
        BuildTypes longs(64, 1);
        expectRejected(view(longs, write, 4, 8), write,
                       std::string(role) + " must be a scalar or vector of 8-");
        BuildTypes three(32, 3);
        expectRejected(view(three, write, 4, 8), write, "has 3 components");
        BuildTypes sixteen(32, 16);
        expectRejected(view(sixteen, write, 4, 8), write, "has 16 components");

        expectRejected(view(t, write, 9, 1), write,
                       "exceeds the OpenCL environment's maximum block row of 32 bytes");
        BuildTypes bytes(8, 4);
        expectRejected(view(bytes, write, 6, 1), write, "is not a multiple of 4 bytes");
        expectRejected(view(t, write, 1, 65), write, "Height 65 exceeds the maximum of 64 rows for a 4-byte");
        expectRejected(view(t, write, 2, 33), write, "Height 33 exceeds the maximum of 32 rows");
        expectRejected(view(t, write, 3, 17), write, "Height 17 exceeds the maximum of 16 rows");
        expectRejected(view(t, write, 5, 9), write, "Height 9 exceeds the maximum of 8 rows");
        expectRejected(view(t, write, 0, 1), write, "Width is 0");
    }
}

// A 64-bit Width or Height far out of range is rejected however Width x element size wraps in 64 bits
// (2^62 + 1 four-byte elements used to pass as a 4-byte row, and ran as Width 1).
TEST(MediaBlockIoOps, HugeWidthAndHeightAreRejected) {
    const uint64_t two62 = uint64_t(1) << 62;
    const uint64_t shapes[][3] = {{two62 + 1, 1, 4},       {(two62 << 1) + 2, 1, 2}, {two62 * 3 + 1, 1, 4},
                                  {UINT64_MAX, 1, 1},      {0xFFFFFFFFu, 1, 4},      {0x100000001u, 1, 4},
                                  {0x40000001u, 1, 4},     {1, UINT64_MAX, 4},       {1, 0x100000040u, 4},
                                  {(two62 << 1) + 1, 1, 4}};
    for (const auto& s : shapes)
        EXPECT_NE(shapeError(s[0], s[1], uint32_t(s[2])), "") << s[0] << " x " << s[1] << " x " << s[2];
    for (bool write : {false, true}) {
        BuildTypes t(32, 2);
        expectRejected(view(t, write, two62 + 1, 1), write,
                       "exceeds the OpenCL environment's maximum block row");
        BuildTypes shorts(16, 2);
        expectRejected(view(shorts, write, (two62 << 1) + 2, 1), write,
                       "exceeds the OpenCL environment's maximum block row");
    }
    // At run time, through 64-bit Width constants.
    expectUb(kLegal, "exceeds the OpenCL environment's maximum block row", [](FakeContext& ctx) {
        ctx.types_[kWidthK] = &ctx.i64_;
        const uint64_t w = (uint64_t(1) << 62) + 1;
        for (uint32_t l = 0; l < ctx.lanes_; ++l) ctx.set(l, kWidthK, &w, 8);
    });
    expectUb(kLegal, "Height", [](FakeContext& ctx) {
        ctx.types_[kHeightK] = &ctx.i64_;
        const uint64_t h = (uint64_t(1) << 32) + 1;
        for (uint32_t l = 0; l < ctx.lanes_; ++l) ctx.set(l, kHeightK, &h, 8);
    });
}

// 64-bit Coordinate components beyond the 32-bit range of the OpenCL environment's int2 are reported before
// x + column bytes, y + row (or x x element size under a fault) are computed, which could overflow.
void setCoord64(FakeContext& ctx, int64_t x, int64_t y) {
    ctx.types_[kCoordinateK] = &ctx.coord64_;
    const int64_t xy[2] = {x, y};
    for (uint32_t l = 0; l < ctx.lanes_; ++l) ctx.set(l, kCoordinateK, xy, 16);
}

TEST(MediaBlockIoOps, HugeCoordinatesAreRejected) {
    const char* fragment = "outside the 32-bit range";
    expectUb(kLegal, fragment, [](FakeContext& ctx) { setCoord64(ctx, int64_t(1) << 62, 0); });
    expectUb(kLegal, fragment, [](FakeContext& ctx) { setCoord64(ctx, INT64_MAX - 3, 0); });
    expectUb(kLegal, fragment, [](FakeContext& ctx) { setCoord64(ctx, 4, INT64_MIN); });
    expectUb(kLegal, fragment, [](FakeContext& ctx) { setCoord64(ctx, 0, int64_t(1) << 31); });
    expectUb(kLegal, fragment, [](FakeContext& ctx) { setCoord64(ctx, -(int64_t(1) << 31) - 4, 0); });
    Config fault = kLegal;
    fault.faults = "media_x_offset_as_elements";
    expectUb(fault, fragment, [](FakeContext& ctx) { setCoord64(ctx, int64_t(1) << 62, 0); });
    // In range, a 64-bit Coordinate reads what the 32-bit one does.
    FakeContext narrow(kLegal), wide(kLegal);
    setCoord64(wide, kLegal.x_bytes, kLegal.y);
    narrow.run();
    wide.run();
    ASSERT_EQ(wide.error_, "");
    EXPECT_EQ(wide.results_, narrow.results_);
}

TEST(MediaBlockIoOps, RegisteredWithCapabilityAndCheck) {
    ExtOpTable table;
    registerMediaBlockIoOps(table);
    const ExtOpInfo* read = table.find(kOpRead);
    const ExtOpInfo* write = table.find(kOpWrite);
    ASSERT_NE(read, nullptr);
    ASSERT_NE(write, nullptr);
    EXPECT_TRUE(read->has_result);
    EXPECT_FALSE(write->has_result);
    EXPECT_EQ(read->min_operands, 4u);
    EXPECT_EQ(write->min_operands, 5u);
    EXPECT_EQ(read->capabilities, std::vector<uint32_t>{kCapability});
    EXPECT_NE(read->check, nullptr);
    EXPECT_NE(write->check, nullptr);
}

// ---------------------------------------------------------------------------------------------------------
// Planted faults: each changes results in its situation and nothing where its situation does not arise.

struct FaultCase {
    const char* fault;
    Config triggers;  // the fault changes the result
    Config neutral;   // the fault's situation does not arise: same result as the clean device
};

std::ostream& operator<<(std::ostream& os, const FaultCase& f) {
    return os << f.fault;
}

std::vector<uint8_t> outcome(Config c, const char* faults) {
    c.faults = faults;
    auto ctx = run(c);
    EXPECT_FALSE(ctx->failed()) << c << ": " << ctx->error_;
    if (c.opcode == kOpWrite) return ctx->storage_;
    std::vector<uint8_t> all;
    for (const auto& r : ctx->results_) all.insert(all.end(), r.begin(), r.end());
    return all;
}

const FaultCase kFaultCases[] = {
    {"media_x_offset_as_elements",
     {.sg = 16,
      .bits = 16,
      .comps = 1,
      .width = 16,
      .height = 1,
      .x_bytes = 8,
      .y = 0,
      .image_width = 64,
      .texel_bytes = 2},
     {.sg = 16,
      .bits = 8,
      .comps = 1,
      .width = 16,
      .height = 1,
      .x_bytes = 8,
      .y = 0,
      .image_width = 64,
      .texel_bytes = 1}},
    // x = 12 bytes (an odd multiple of 4) moves to 8; x = 16 stays.
    {"media_x_rounded_to_8",
     {.sg = 8, .bits = 32, .comps = 1, .width = 8, .height = 1, .x_bytes = 12},
     {.sg = 8, .bits = 32, .comps = 1, .width = 8, .height = 1, .x_bytes = 16}},
    {"media_width_as_bytes",
     {.sg = 8, .bits = 32, .comps = 1, .width = 8, .height = 1},
     {.sg = 16, .bits = 8, .comps = 1, .width = 16, .height = 1, .image_width = 64, .texel_bytes = 1}},
    {"media_no_retiling",
     {.sg = 8, .bits = 32, .comps = 2, .width = 4, .height = 4},
     {.sg = 8, .bits = 32, .comps = 2, .width = 8, .height = 4}},
    {"media_padding_not_skipped",
     {.sg = 8, .bits = 32, .comps = 2, .width = 3, .height = 4},
     {.sg = 8, .bits = 32, .comps = 2, .width = 4, .height = 4}},
    {"media_edge_replicated_as_zero",
     {.sg = 8, .bits = 32, .comps = 1, .width = 8, .height = 1, .x_bytes = 112},
     {.sg = 8, .bits = 32, .comps = 1, .width = 8, .height = 1, .x_bytes = 96}},
    {"media_byte_texels_replicated_as_dwords",
     {.sg = 8,
      .bits = 8,
      .comps = 1,
      .width = 8,
      .height = 1,
      .x_bytes = 8,
      .image_width = 12,
      .texel_bytes = 1},
     {.sg = 8,
      .bits = 16,
      .comps = 1,
      .width = 8,
      .height = 1,
      .x_bytes = 8,
      .image_width = 6,
      .texel_bytes = 2}},
    {"media_negative_coords_clamped",
     {.sg = 8, .bits = 32, .comps = 2, .width = 8, .height = 2, .x_bytes = -8, .y = -1},
     {.sg = 8, .bits = 32, .comps = 2, .width = 8, .height = 2, .x_bytes = 0, .y = 0}},
    {"media_oob_writes_clamped",
     {.opcode = kOpWrite, .sg = 8, .bits = 32, .comps = 2, .width = 8, .height = 2, .x_bytes = 112, .y = 15},
     {.opcode = kOpWrite, .sg = 8, .bits = 32, .comps = 2, .width = 8, .height = 2, .x_bytes = 96, .y = 14}},
    {"media_tail_written",
     {.opcode = kOpWrite, .sg = 8, .bits = 32, .comps = 4, .width = 8, .height = 2},
     {.opcode = kOpWrite, .sg = 8, .bits = 32, .comps = 2, .width = 8, .height = 2}},
    {"media_buffer_image_pitch_from_width",
     {.sg = 16,
      .bits = 32,
      .comps = 2,
      .width = 4,
      .height = 8,
      .x_bytes = 4,
      .y = 1,
      .image_width = 16,
      .row_pitch = 128,
      .from_buffer = true},
     {.sg = 16,
      .bits = 32,
      .comps = 2,
      .width = 4,
      .height = 8,
      .x_bytes = 4,
      .y = 1,
      .image_width = 16,
      .row_pitch = 128,
      .from_buffer = false}},
    // UNORM16 through half precision changes most values; an integer format is stored as it is.
    {"media_write_converts_texels",
     {.opcode = kOpWrite,
      .width = 4,
      .height = 4,
      .image_width = 64,
      .texel_bytes = 2,
      .channel_type = CL_UNORM_INT16},
     {.opcode = kOpWrite,
      .width = 4,
      .height = 4,
      .image_width = 64,
      .texel_bytes = 2,
      .channel_type = CL_UNSIGNED_INT16}},
};

TEST(MediaBlockIoOps, EveryFaultIsRegisteredAndTested) {
    const std::vector<FaultInfo> faults = mediaBlockIoFaults();
    EXPECT_EQ(faults.size(), std::size(kFaultCases));
    for (const FaultInfo& f : faults) {
        bool tested = std::any_of(std::begin(kFaultCases), std::end(kFaultCases),
                                  [&](const FaultCase& c) { return f.name == c.fault; });
        EXPECT_TRUE(tested) << f.name;
        EXPECT_EQ(f.name.rfind("media_", 0), 0u) << f.name;
        EXPECT_FALSE(f.description.empty()) << f.name;
    }
}

TEST(MediaBlockIoOps, EachFaultChangesOnlyItsSituation) {
    for (const FaultCase& f : kFaultCases) {
        SCOPED_TRACE(f.fault);
        EXPECT_NE(outcome(f.triggers, f.fault), outcome(f.triggers, "")) << f.triggers;
        EXPECT_EQ(outcome(f.neutral, f.fault), outcome(f.neutral, "")) << f.neutral;
        Config write = f.neutral;  // writes too, where the fault is about reads or both
        write.opcode = kOpWrite;
        if (f.neutral.opcode == kOpRead) EXPECT_EQ(outcome(write, f.fault), outcome(write, ""));
    }
}

// The faults' exact effects on a few values.
TEST(MediaBlockIoOps, FaultEffects) {
    {
        auto ctx =
            run({.sg = 8, .bits = 32, .comps = 2, .width = 4, .height = 4, .faults = "media_no_retiling"});
        for (uint32_t i = 0; i < 8; ++i)
            for (uint32_t j = 0; j < 2; ++j)
                EXPECT_EQ(ctx->value(i, j), i < 4 ? ctx->imageValue(j, 4 * i) : kJunk) << i << "," << j;
    }
    {
        auto ctx = run({.sg = 8,
                        .bits = 8,
                        .comps = 1,
                        .width = 8,
                        .height = 1,
                        .x_bytes = 8,
                        .image_width = 12,
                        .texel_bytes = 1,
                        .faults = "media_byte_texels_replicated_as_dwords"});
        for (uint32_t i = 4; i < 8; ++i) EXPECT_EQ(ctx->value(i, 0), ctx->imageValue(0, 8 + i - 4)) << i;
    }
    {
        auto ctx = run({.sg = 8,
                        .bits = 32,
                        .comps = 1,
                        .width = 8,
                        .height = 1,
                        .x_bytes = -8,
                        .y = -1,
                        .faults = "media_negative_coords_clamped"});
        for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(ctx->value(i, 0), ctx->imageValue(0, 4 * i));
    }
    {
        auto ctx = run({.sg = 8,
                        .bits = 32,
                        .comps = 1,
                        .width = 8,
                        .height = 1,
                        .x_bytes = 120,
                        .faults = "media_edge_replicated_as_zero"});
        EXPECT_EQ(ctx->value(0, 0), ctx->imageValue(0, 120));
        EXPECT_EQ(ctx->value(2, 0), 0u);
    }
    {
        Config c{.opcode = kOpWrite,
                 .sg = 8,
                 .bits = 32,
                 .comps = 4,
                 .width = 8,
                 .height = 2,
                 .y = 3,
                 .faults = "media_tail_written"};
        auto ctx = run(c);
        EXPECT_EQ(ctx->imageValue(5, 0, 1), sourceByte(0, 2, 0));  // component 2 lands in row y + 2
    }
    {
        auto ctx = run({.sg = 16,
                        .bits = 32,
                        .comps = 2,
                        .width = 4,
                        .height = 8,
                        .x_bytes = 4,
                        .y = 1,
                        .image_width = 16,
                        .row_pitch = 128,
                        .from_buffer = true,
                        .faults = "media_buffer_image_pitch_from_width"});
        // Slot 4 is block row 1, image row 2: at 2 * 64 bytes instead of 2 * 128, i.e. row 1's byte 4.
        EXPECT_EQ(ctx->value(4, 0), ctx->imageValue(1, 4));
    }
}

}  // namespace
}  // namespace refdev::spirv::media_block_io
