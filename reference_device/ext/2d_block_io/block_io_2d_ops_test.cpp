// Unit tests of the reference device's 2D block IO ops through a fake OpContext: the spec's worked examples
// (sub-group size 4), the OpenCL environment's mappings (16), the three mapping scenarios at 32 lanes,
// undefined-behaviour detection and faults.
#include "reference_device/ext/2d_block_io/block_io_2d_ops.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

namespace refdev::spirv::block_io_2d {
namespace {

constexpr uint64_t kSurfaceAddr = 0x10000;   // 64-byte aligned
constexpr uint64_t kPrivateAddr = 0x100000;  // lane l's private array at kPrivateAddr + l * 0x1000

// Memory is one arena for the surface and one per lane for private storage; any access outside them is
// reported as undefined behaviour, as the interpreter does.
class FakeContext : public OpContext {
public:
    FakeContext(uint32_t opcode, uint32_t lanes) : opcode_(opcode), lanes_(lanes), max_lanes_(lanes) {
        i32_.kind = TypeInfo::Kind::Int, i32_.component_kind = TypeInfo::Kind::Int, i32_.component_bits = 32;
        i32_.byte_size = 4;
        v2_ = i32_, v2_.kind = TypeInfo::Kind::Vector, v2_.components = 2, v2_.byte_size = 8;
        i16_ = i32_, i16_.component_bits = 16, i16_.byte_size = 2;
        i64_ = i32_, i64_.component_bits = 64, i64_.byte_size = 8;
        v2i16_ = v2_, v2i16_.component_bits = 16, v2i16_.byte_size = 4;
        v2i64_ = v2_, v2i64_.component_bits = 64, v2i64_.byte_size = 16;
        global_.kind = TypeInfo::Kind::Pointer, global_.component_bits = 64, global_.byte_size = 8;
        global_.storage_class = kStorageCrossWorkgroup;
        private_ = global_, private_.storage_class = kStorageFunction;
        surface_.assign(0x10000, 0);
        for (uint32_t l = 0; l < lanes; ++l) priv_.emplace_back(0x1000, 0xA5);
        active_.assign(lanes, true);
    }

    // Sets all operands from the shape and memory description (the same in every lane unless changed).
    void setup(uint32_t e, uint32_t w, uint32_t h, uint32_t c, int32_t mw, int32_t mh, int32_t mp, int32_t x,
               int32_t y, uint64_t base = kSurfaceAddr) {
        bool store = opcode_ == kOpStore, prefetch = opcode_ == kOpPrefetch;
        uint32_t n = prefetch ? 9 : 10;
        types_.assign(n, &i32_);
        values_.assign(n, std::vector<std::vector<uint8_t>>(lanes_));
        uint32_t base_k = store ? 5 : 4, mem_k = store ? 6 : 5, coord_k = mem_k + 3;
        for (uint32_t k = 0; k < 4; ++k)
            setAll(k, std::vector<uint32_t>{std::vector<uint32_t>{e, w, h, c}[k]});
        types_[base_k] = &global_;
        setAll64(base_k, base);
        setAll(mem_k, {uint32_t(mw)}), setAll(mem_k + 1, {uint32_t(mh)}), setAll(mem_k + 2, {uint32_t(mp)});
        types_[coord_k] = &v2_;
        setAll(coord_k, {uint32_t(x), uint32_t(y)});
        if (!prefetch) {
            uint32_t pk = store ? 4 : 9;
            types_[pk] = &private_;
            for (uint32_t l = 0; l < lanes_; ++l) set64(l, pk, kPrivateAddr + l * 0x1000);
        }
    }
    void setAll(uint32_t k, std::vector<uint32_t> words) {
        for (uint32_t l = 0; l < lanes_; ++l) {
            values_[k][l].resize(words.size() * 4);
            std::memcpy(values_[k][l].data(), words.data(), words.size() * 4);
        }
    }
    // Operand k becomes a value of integer type t (scalar or vector) holding `components`, in every lane.
    // Eight 0xFF bytes follow the value, so a read past its width shows as a wrong value.
    void setTyped(uint32_t k, const TypeInfo* t, std::vector<int64_t> components) {
        types_[k] = t;
        const uint32_t bytes = t->component_bits / 8;
        for (uint32_t l = 0; l < lanes_; ++l) {
            values_[k][l].assign(components.size() * bytes + 8, 0xFF);
            for (size_t i = 0; i < components.size(); ++i)
                std::memcpy(values_[k][l].data() + i * bytes, &components[i], bytes);
        }
    }
    void setAll64(uint32_t k, uint64_t v) {
        for (uint32_t l = 0; l < lanes_; ++l) set64(l, k, v);
    }
    void set64(uint32_t l, uint32_t k, uint64_t v) {
        values_[k][l].resize(8);
        std::memcpy(values_[k][l].data(), &v, 8);
    }

    uint32_t opcode() const override { return opcode_; }
    const char* opName() const override { return "2d"; }
    uint32_t operandCount() const override { return uint32_t(types_.size()); }
    const TypeInfo& resultType() const override { return void_; }
    const TypeInfo& operandType(uint32_t k) const override { return *types_.at(k); }
    bool isConstant(uint32_t k) const override { return k < 4 && !non_constant_; }
    uint32_t literal(uint32_t) const override { return 0; }
    uint32_t lanes() const override { return lanes_; }
    uint32_t maxLanes() const override { return max_lanes_; }
    bool active(uint32_t lane) const override { return active_.at(lane); }
    const uint8_t* operand(uint32_t lane, uint32_t k) const override { return values_.at(k).at(lane).data(); }
    uint8_t* result(uint32_t) override { return nullptr; }
    uint8_t* memory(uint32_t lane, uint64_t address, size_t bytes, bool) override {
        if (uint8_t* p = find(lane, address, bytes)) return p;
        undefinedBehavior(lane, "access outside any allocation at " + std::to_string(address));
        return nullptr;
    }
    // Answered like memory() (unless probe_ is false), so that in-bounds blocks take the ops' direct path.
    uint8_t* probeMemory(uint32_t lane, uint64_t address, size_t bytes, bool) override {
        return probe_ ? find(lane, address, bytes) : nullptr;
    }
    uint8_t* find(uint32_t lane, uint64_t address, size_t bytes) {
        if (address >= kSurfaceAddr && address + bytes <= kSurfaceAddr + surface_.size())
            return surface_.data() + (address - kSurfaceAddr);
        uint64_t own = kPrivateAddr + lane * 0x1000;
        if (address >= own && address + bytes <= own + 0x1000) return priv_[lane].data() + (address - own);
        return nullptr;
    }
    const ImageDesc* image(uint32_t, uint32_t) override { return nullptr; }
    const Faults& faults() const override { return faults_; }
    uint64_t* faultState(uint32_t slot) override {
        return fault_state_ && slot < kFaultStateSlots ? fault_state_ + slot : nullptr;
    }
    void undefinedBehavior(uint32_t, const std::string& what) override {
        if (error_.empty()) error_ = what;
    }
    bool failed() const override { return !error_.empty(); }

    uint8_t& at(int64_t offset) { return surface_.at(size_t(offset)); }
    template <typename T>
    T priv(uint32_t lane, uint32_t index) const {
        T v;
        std::memcpy(&v, priv_[lane].data() + index * sizeof(T), sizeof(T));
        return v;
    }
    template <typename T>
    void setPriv(uint32_t lane, uint32_t index, T v) {
        std::memcpy(priv_[lane].data() + index * sizeof(T), &v, sizeof(T));
    }

    uint32_t opcode_, lanes_, max_lanes_;
    bool non_constant_ = false;
    bool probe_ = true;
    std::vector<bool> active_;
    TypeInfo void_, i32_, v2_, global_, private_, i16_, i64_, v2i16_, v2i64_;
    std::vector<const TypeInfo*> types_;
    std::vector<std::vector<std::vector<uint8_t>>> values_;
    std::vector<uint8_t> surface_;
    std::vector<std::vector<uint8_t>> priv_;
    Faults faults_;
    uint64_t* fault_state_ = nullptr;  // shared by the contexts of one sub-group's instructions
    std::string error_;
};

// Surface with pitch 256: element (r, c) of size e holds a value naming r and c.
void fillSurface(FakeContext& ctx, uint32_t e, int64_t pitch = 256, int64_t rows = 64) {
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c * e < pitch; ++c) {
            uint64_t v = e == 1 ? uint64_t((r << 4 | c) & 0xff)
                                : uint64_t(r << 8 | (c & 0xff)) | uint64_t(e > 2) << 31;
            std::memcpy(&ctx.at(r * pitch + c * e), &v, e);
        }
}
uint32_t rc(uint32_t e, uint32_t r, uint32_t c) {
    return e == 1 ? ((r << 4 | c) & 0xff) : ((r << 8 | (c & 0xff)) | uint32_t(e > 2) << 31);
}

// Spec example 1: W 4, H 2, sub-group 4: invocation i gets (0,i) and (1,i).
TEST(BlockIo2dOps, SpecExample1) {
    FakeContext ctx(kOpLoad, 4);
    fillSurface(ctx, 4);
    ctx.setup(4, 4, 2, 1, 256, 64, 256, 0, 0);
    executeLoad(ctx);
    ASSERT_FALSE(ctx.failed()) << ctx.error_;
    for (uint32_t i = 0; i < 4; ++i) {
        EXPECT_EQ(ctx.priv<uint32_t>(i, 0), rc(4, 0, i));
        EXPECT_EQ(ctx.priv<uint32_t>(i, 1), rc(4, 1, i));
    }
}

// Spec example 2: W 2, H 4: invocation 2 gets (1,0) and (3,0).
TEST(BlockIo2dOps, SpecExample2) {
    FakeContext ctx(kOpLoad, 4);
    fillSurface(ctx, 4);
    ctx.setup(4, 2, 4, 1, 256, 64, 256, 0, 0);
    executeLoad(ctx);
    ASSERT_FALSE(ctx.failed()) << ctx.error_;
    for (uint32_t i = 0; i < 4; ++i) {
        EXPECT_EQ(ctx.priv<uint32_t>(i, 0), rc(4, i / 2, i % 2));
        EXPECT_EQ(ctx.priv<uint32_t>(i, 1), rc(4, 2 + i / 2, i % 2));
    }
}

// Spec example 3: W 8, H 2: invocation i gets (0,2i), (0,2i+1), (1,2i), (1,2i+1).
TEST(BlockIo2dOps, SpecExample3) {
    FakeContext ctx(kOpLoad, 4);
    fillSurface(ctx, 4);
    ctx.setup(4, 8, 2, 1, 256, 64, 256, 0, 0);
    executeLoad(ctx);
    ASSERT_FALSE(ctx.failed()) << ctx.error_;
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t k = 0; k < 4; ++k) EXPECT_EQ(ctx.priv<uint32_t>(i, k), rc(4, k / 2, 2 * i + k % 2));
}

// Spec example 4: transpose W 2, H 4: invocation i gets (i,0) and (i,1).
TEST(BlockIo2dOps, SpecExample4Transpose) {
    FakeContext ctx(kOpLoadTranspose, 4);
    fillSurface(ctx, 4);
    ctx.setup(4, 2, 4, 1, 256, 64, 256, 0, 0);
    executeLoad(ctx);
    ASSERT_FALSE(ctx.failed()) << ctx.error_;
    for (uint32_t i = 0; i < 4; ++i) {
        EXPECT_EQ(ctx.priv<uint32_t>(i, 0), rc(4, i, 0));
        EXPECT_EQ(ctx.priv<uint32_t>(i, 1), rc(4, i, 1));
    }
}

// Spec example 5: 2-byte transform W 4, H 2: invocation i gets (1,i) << 16 | (0,i).
TEST(BlockIo2dOps, SpecExample5Transform2Byte) {
    FakeContext ctx(kOpLoadTransform, 4);
    fillSurface(ctx, 2);
    ctx.setup(2, 4, 2, 1, 256, 64, 256, 0, 0);
    executeLoad(ctx);
    ASSERT_FALSE(ctx.failed()) << ctx.error_;
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(ctx.priv<uint32_t>(i, 0), rc(2, 1, i) << 16 | rc(2, 0, i));
}

// Spec example 6 (four rows, although the text says "Block Height equals two"): 1-byte transform.
TEST(BlockIo2dOps, SpecExample6Transform1Byte) {
    FakeContext ctx(kOpLoadTransform, 4);
    fillSurface(ctx, 1);
    ctx.setup(1, 4, 4, 1, 256, 64, 256, 0, 0);
    executeLoad(ctx);
    ASSERT_FALSE(ctx.failed()) << ctx.error_;
    for (uint32_t i = 0; i < 4; ++i)
        EXPECT_EQ(ctx.priv<uint32_t>(i, 0),
                  rc(1, 3, i) << 24 | rc(1, 2, i) << 16 | rc(1, 1, i) << 8 | rc(1, 0, i));
}

// OpenCL environment: 1-byte x 32, two blocks: dst ushort[b*H + r] = M[r][x0 + b*32 + 2i] | next << 8.
TEST(BlockIo2dOps, OneByteWidth32TwoBlocks) {
    FakeContext ctx(kOpLoad, 16);
    fillSurface(ctx, 1);
    ctx.setup(1, 32, 2, 2, 256, 64, 256, 4, 1);
    executeLoad(ctx);
    ASSERT_FALSE(ctx.failed()) << ctx.error_;
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t b = 0; b < 2; ++b)
            for (uint32_t r = 0; r < 2; ++r) {
                uint32_t c = 4 + b * 32 + 2 * i;
                EXPECT_EQ(ctx.priv<uint16_t>(i, b * 2 + r), rc(1, 1 + r, c) | rc(1, 1 + r, c + 1) << 8);
            }
}

// Sub-group size 32: the spec's three scenarios at 32 lanes. 1-byte data is filled with (r * 64 + c) & 0xff,
// unique over the 4 x 64 bytes these shapes read.
void fillBytes(FakeContext& ctx) {
    for (int64_t r = 0; r < 64; ++r)
        for (int64_t c = 0; c < 256; ++c) ctx.at(r * 256 + c) = uint8_t((r * 64 + c) & 0xff);
}
uint8_t byteAt(uint32_t r, uint32_t c) {
    return uint8_t((r * 64 + c) & 0xff);
}

// 1. Padded width equal to the sub-group size: 1-byte x 32 x 4 gives lane i column i of rows 0-3 (IGC before
// 2.38 gave lane 0 (0,0), (0,1), (2,0), (2,1)); 2-byte x 32 x 2 likewise.
TEST(BlockIo2dOps, Sg32PaddedWidthEqualsSubgroupSize) {
    FakeContext ctx(kOpLoad, 32);
    fillBytes(ctx);
    ctx.setup(1, 32, 4, 1, 256, 64, 256, 0, 0);
    executeLoad(ctx);
    ASSERT_FALSE(ctx.failed()) << ctx.error_;
    for (uint32_t i = 0; i < 32; ++i)
        for (uint32_t r = 0; r < 4; ++r) EXPECT_EQ(ctx.priv<uint8_t>(i, r), byteAt(r, i)) << i << " " << r;
    FakeContext two(kOpLoad, 32);
    fillSurface(two, 2);
    two.setup(2, 32, 2, 1, 256, 64, 256, 2, 1);
    executeLoad(two);
    ASSERT_FALSE(two.failed()) << two.error_;
    for (uint32_t i = 0; i < 32; ++i)
        for (uint32_t r = 0; r < 2; ++r) EXPECT_EQ(two.priv<uint16_t>(i, r), rc(2, 1 + r, 2 + i)) << i;
}

// 2. Padded width less than the sub-group size: 2-byte x 16 x 4 gives lanes 0-15 rows 0 and 2, lanes 16-31
// rows 1 and 3; the transposed 4-byte x 8 x 16 block (8 rows of 16) likewise two rows per sub-group row.
TEST(BlockIo2dOps, Sg32PaddedWidthLessThanSubgroupSize) {
    FakeContext ctx(kOpLoad, 32);
    fillSurface(ctx, 2);
    ctx.setup(2, 16, 4, 1, 256, 64, 256, 0, 0);
    executeLoad(ctx);
    ASSERT_FALSE(ctx.failed()) << ctx.error_;
    for (uint32_t i = 0; i < 32; ++i)
        for (uint32_t k = 0; k < 2; ++k)
            EXPECT_EQ(ctx.priv<uint16_t>(i, k), rc(2, 2 * k + i / 16, i % 16)) << i;
    FakeContext tr(kOpLoadTranspose, 32);
    fillSurface(tr, 4);
    tr.setup(4, 8, 16, 1, 256, 64, 256, 0, 0);
    executeLoad(tr);
    ASSERT_FALSE(tr.failed()) << tr.error_;
    for (uint32_t i = 0; i < 32; ++i)
        for (uint32_t k = 0; k < 4;
             ++k)  // transposed (row 2k + i / 16, column i % 16) = block (i % 16, 2k + i / 16)
            EXPECT_EQ(tr.priv<uint32_t>(i, k), rc(4, i % 16, 2 * k + i / 16)) << i << " " << k;
}

// 3. Padded width greater than the sub-group size: 1-byte x 64 x 2 gives lane i bytes 2i and 2i + 1 of each
// row; a store of the same shape puts them back.
TEST(BlockIo2dOps, Sg32PaddedWidthGreaterThanSubgroupSize) {
    FakeContext ctx(kOpLoad, 32);
    fillBytes(ctx);
    ctx.setup(1, 64, 2, 1, 256, 64, 256, 0, 0);
    executeLoad(ctx);
    ASSERT_FALSE(ctx.failed()) << ctx.error_;
    for (uint32_t i = 0; i < 32; ++i)
        for (uint32_t r = 0; r < 2; ++r)
            for (uint32_t j = 0; j < 2; ++j)
                EXPECT_EQ(ctx.priv<uint8_t>(i, r * 2 + j), byteAt(r, 2 * i + j)) << i << " " << r << " " << j;
    FakeContext st(kOpStore, 32);
    for (uint32_t i = 0; i < 32; ++i)
        for (uint32_t k = 0; k < 4; ++k) st.setPriv<uint8_t>(i, k, uint8_t(i * 4 + k));
    st.setup(1, 64, 2, 1, 256, 64, 256, 0, 0);
    executeStore(st);
    ASSERT_FALSE(st.failed()) << st.error_;
    for (uint32_t r = 0; r < 2; ++r)
        for (uint32_t c = 0; c < 64; ++c) EXPECT_EQ(st.at(r * 256 + c), uint8_t((c / 2) * 4 + r * 2 + c % 2));
}

// The sub-group-32 faults change a 32-lane load and store and nothing at 16 lanes; sg32_old_igc_layout gives
// lane 0 of a 1-byte x 32 x 4 load (0,0), (0,1), (2,0), (2,1).
TEST(BlockIo2dOps, Sg32FaultsShowOnlyAt32Lanes) {
    for (const char* fault : {"sg32_second_half_gets_first_half_rows", "sg32_old_igc_layout"})
        for (uint32_t opcode : {kOpLoad, kOpStore})
            for (uint32_t lanes : {16u, 32u}) {
                std::vector<uint8_t> results[2];
                for (int faulty = 0; faulty < 2; ++faulty) {
                    FakeContext ctx(opcode, lanes);
                    fillBytes(ctx);
                    std::string error;
                    if (faulty) ASSERT_TRUE(ctx.faults_.parse(fault, &error)) << error;
                    for (uint32_t i = 0; i < lanes; ++i)
                        for (uint32_t k = 0; k < 8; ++k) ctx.setPriv<uint8_t>(i, k, uint8_t(i * 8 + k + 1));
                    ctx.setup(1, 32, 8, 1, 256, 64, 256, 4, 1);
                    opcode == kOpStore ? executeStore(ctx) : executeLoad(ctx);
                    ASSERT_FALSE(ctx.failed()) << fault << ": " << ctx.error_;
                    results[faulty] = ctx.surface_;
                    for (const auto& p : ctx.priv_)
                        results[faulty].insert(results[faulty].end(), p.begin(), p.end());
                }
                if (lanes == 32)
                    EXPECT_NE(results[0], results[1]) << fault << " changed nothing at 32 lanes";
                else
                    EXPECT_EQ(results[0], results[1]) << fault << " changed a 16-lane operation";
            }
    FakeContext ctx(kOpLoad, 32);
    fillBytes(ctx);
    std::string error;
    ASSERT_TRUE(ctx.faults_.parse("sg32_old_igc_layout", &error)) << error;
    ctx.setup(1, 32, 4, 1, 256, 64, 256, 0, 0);
    executeLoad(ctx);
    ASSERT_FALSE(ctx.failed()) << ctx.error_;
    EXPECT_EQ(ctx.priv<uint8_t>(0, 0), byteAt(0, 0));
    EXPECT_EQ(ctx.priv<uint8_t>(0, 1), byteAt(0, 1));
    EXPECT_EQ(ctx.priv<uint8_t>(0, 2), byteAt(2, 0));
    EXPECT_EQ(ctx.priv<uint8_t>(0, 3), byteAt(2, 1));
    EXPECT_EQ(ctx.priv<uint8_t>(16, 0), byteAt(1, 0));  // payload unit 16: the 16-lane layout's lane 0, row 1
}

// 4-byte x 8 x 1 row: lanes 8-15 are not written (the spec assigns them nothing).
TEST(BlockIo2dOps, FourByteWidth8OneRowLeavesUpperLanes) {
    FakeContext ctx(kOpLoad, 16);
    fillSurface(ctx, 4);
    ctx.setup(4, 8, 1, 2, 256, 64, 256, 2, 3);
    executeLoad(ctx);
    ASSERT_FALSE(ctx.failed()) << ctx.error_;
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t b = 0; b < 2; ++b)
            EXPECT_EQ(ctx.priv<uint32_t>(i, b), i < 8 ? rc(4, 3, 2 + b * 8 + i) : 0xA5A5A5A5u) << i;
}

// Transpose 4-byte x 8 x 32: dst[2r + j] = M[y0 + 2i + j][x0 + r].
TEST(BlockIo2dOps, TransposeHeight32) {
    FakeContext ctx(kOpLoadTranspose, 16);
    fillSurface(ctx, 4);
    ctx.setup(4, 8, 32, 1, 256, 64, 256, 1, 2);
    executeLoad(ctx);
    ASSERT_FALSE(ctx.failed()) << ctx.error_;
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t r = 0; r < 8; ++r)
            for (uint32_t j = 0; j < 2; ++j)
                EXPECT_EQ(ctx.priv<uint32_t>(i, 2 * r + j), rc(4, 2 + 2 * i + j, 1 + r));
}

// Out of bounds: right of Memory Width (the pitch gap too), below Memory Height, left and above: zero.
TEST(BlockIo2dOps, OutOfBoundsIsZero) {
    FakeContext ctx(kOpLoad, 16);
    fillSurface(ctx, 2);
    ctx.setup(2, 16, 8, 1, 64, 5, 256, 24, -2);  // 32 elements per row in bounds, 5 rows
    executeLoad(ctx);
    ASSERT_FALSE(ctx.failed()) << ctx.error_;
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t r = 0; r < 8; ++r) {
            int row = int(r) - 2, col = 24 + int(i);
            bool in = row >= 0 && row < 5 && col < 32;
            EXPECT_EQ(ctx.priv<uint16_t>(i, r), in ? rc(2, row, col) : 0u) << i << " " << r;
        }
}

// Store: only in-bounds elements change memory.
TEST(BlockIo2dOps, StoreIgnoresOutOfBounds) {
    FakeContext ctx(kOpStore, 16);
    ctx.setup(4, 16, 4, 1, 64, 3, 128, 8, 1);  // 16 elements per row, 3 rows
    for (uint32_t i = 0; i < 16; ++i)
        for (uint32_t r = 0; r < 4; ++r) ctx.setPriv<uint32_t>(i, r, 0x1000 * (r + 1) + i);
    std::fill(ctx.surface_.begin(), ctx.surface_.end(), 0xCC);
    executeStore(ctx);
    ASSERT_FALSE(ctx.failed()) << ctx.error_;
    for (int64_t r = 0; r < 8; ++r)
        for (int64_t c = 0; c < 32; ++c) {
            uint32_t got;
            std::memcpy(&got, &ctx.at(r * 128 + c * 4), 4);
            bool written = r >= 1 && r < 3 && c >= 8 && c < 16;
            EXPECT_EQ(got, written ? 0x1000 * uint32_t(r) + uint32_t(c - 8) : 0xCCCCCCCCu) << r << " " << c;
        }
}

// Prefetch changes nothing; out-of-bounds prefetch is harmless.
TEST(BlockIo2dOps, PrefetchHasNoEffect) {
    FakeContext ctx(kOpPrefetch, 16);
    fillSurface(ctx, 1);
    auto before = ctx.surface_;
    ctx.setup(1, 32, 32, 2, 64, 4, 256, -64, -40);
    executePrefetch(ctx);
    EXPECT_FALSE(ctx.failed()) << ctx.error_;
    EXPECT_EQ(before, ctx.surface_);
}

struct UbCase {
    const char* what;
    void (*mutate)(FakeContext&);
    const char* expect;  // substring of the report
};

TEST(BlockIo2dOps, UndefinedBehaviourIsReported) {
    const UbCase cases[] = {
        {"misaligned base",
         [](FakeContext& c) { c.setup(2, 16, 8, 1, 256, 64, 256, 0, 0, kSurfaceAddr + 32); },
         "cache-line aligned"},
        {"narrow width", [](FakeContext& c) { c.setup(2, 16, 8, 1, 32, 64, 256, 0, 0); }, "[64, 2^24]"},
        {"wide width", [](FakeContext& c) { c.setup(2, 16, 8, 1, (1 << 24) + 16, 64, (1 << 24) + 16, 0, 0); },
         "[64, 2^24]"},
        {"width not multiple of 4", [](FakeContext& c) { c.setup(2, 16, 8, 1, 66, 64, 256, 0, 0); },
         "multiple of 4"},
        {"zero height", [](FakeContext& c) { c.setup(2, 16, 8, 1, 64, 0, 256, 0, 0); }, "Memory Height"},
        {"pitch below width", [](FakeContext& c) { c.setup(2, 16, 8, 1, 128, 64, 64, 0, 0); },
         "Memory Pitch"},
        {"pitch multiple of 8 only", [](FakeContext& c) { c.setup(2, 16, 8, 1, 64, 64, 72, 0, 0); },
         "16 bytes"},
        {"odd x for 2-byte", [](FakeContext& c) { c.setup(2, 16, 8, 1, 256, 64, 256, 3, 0); }, "Coordinate"},
        {"x not multiple of 4 for 1-byte", [](FakeContext& c) { c.setup(1, 32, 8, 1, 256, 64, 256, 2, 0); },
         "Coordinate"},
        {"element size 3", [](FakeContext& c) { c.setup(3, 16, 8, 1, 256, 64, 256, 0, 0); }, "1, 2, 4, or 8"},
        {"1-byte width 6", [](FakeContext& c) { c.setup(1, 6, 8, 1, 256, 64, 256, 0, 0); },
         "multiple of four"},
        {"non-constant shape",
         [](FakeContext& c) {
             c.setup(2, 16, 8, 1, 256, 64, 256, 0, 0);
             c.non_constant_ = true;
         },
         "constant instruction"},
        {"partial sub-group",
         [](FakeContext& c) {
             c.setup(2, 16, 8, 1, 256, 64, 256, 0, 0);
             c.active_[5] = false;
         },
         "full subgroup"},
        {"non-uniform coordinate",
         [](FakeContext& c) {
             c.setup(2, 16, 8, 1, 256, 64, 256, 0, 0);
             uint32_t v[2] = {2, 0};
             std::memcpy(c.values_[8][3].data(), v, 8);
         },
         "Coordinate is not dynamically uniform"},
        {"non-uniform pitch",
         [](FakeContext& c) {
             c.setup(2, 16, 8, 1, 256, 64, 256, 0, 0);
             uint32_t v = 512;
             std::memcpy(c.values_[7][1].data(), &v, 4);
         },
         "Memory Pitch is not dynamically uniform"},
        {"unsupported shape", [](FakeContext& c) { c.setup(2, 64, 8, 1, 256, 64, 256, 0, 0); },
         "not supported"},
    };
    for (const UbCase& u : cases) {
        FakeContext ctx(kOpLoad, 16);
        u.mutate(ctx);
        executeLoad(ctx);
        EXPECT_TRUE(ctx.failed()) << u.what;
        EXPECT_NE(ctx.error_.find(u.expect), std::string::npos) << u.what << ": " << ctx.error_;
        EXPECT_EQ(ctx.priv<uint32_t>(0, 0), 0xA5A5A5A5u) << u.what << ": destination written despite UB";
    }
    FakeContext transform(kOpLoadTransform, 16);
    transform.setup(4, 16, 8, 1, 256, 64, 256, 0, 0);
    executeLoad(transform);
    EXPECT_NE(transform.error_.find("transform needs"), std::string::npos) << transform.error_;
}

// prefetch_serves_next_load (a composition fault, blockIo2dCompositionFaults): after a prefetch of row 8, a
// load of row 0 from the same base gets row 8; without the prefetch, or clean, it gets row 0.
TEST(BlockIo2dCompositionFaults, PrefetchServesTheNextLoadFromTheSameBase) {
    for (const char* faults : {"", "prefetch_serves_next_load"})
        for (bool prefetch_first : {false, true}) {
            uint64_t state[OpContext::kFaultStateSlots] = {};
            FakeContext pre(kOpPrefetch, 16), load(kOpLoad, 16);
            std::string error;
            ASSERT_TRUE(pre.faults_.parse(faults, &error)) << error;
            ASSERT_TRUE(load.faults_.parse(faults, &error)) << error;
            pre.fault_state_ = load.fault_state_ = state;
            for (int64_t r = 0; r < 16; ++r)
                for (int64_t b = 0; b < 256; ++b) load.at(r * 256 + b) = uint8_t(r + 1);
            pre.setup(4, 16, 1, 1, 256, 16, 256, 0, 8);
            load.setup(4, 16, 1, 1, 256, 16, 256, 0, 0);
            if (prefetch_first) executePrefetch(pre);
            executeLoad(load);
            ASSERT_FALSE(load.failed()) << load.error_;
            const bool served = *faults && prefetch_first;
            EXPECT_EQ(load.priv<uint32_t>(5, 0), served ? 0x09090909u : 0x01010101u)
                << faults << (prefetch_first ? " after a prefetch" : " without a prefetch");
        }
    EXPECT_EQ(blockIo2dCompositionFaults().size(), 1u);
}

// Each fault changes the result of a scenario it targets (the suite's cases must see the same).
TEST(BlockIo2dOps, EveryFaultChangesSomething) {
    struct Scenario {
        const char* fault;
        uint32_t opcode, e, w, h, c;
        int32_t mw, mh, mp, x, y;
    };
    const Scenario scenarios[] = {
        {"oob_load_stale", kOpLoad, 2, 16, 8, 1, 64, 64, 256, 24, 0},
        {"padding_not_zeroed", kOpLoad, 2, 12, 2, 1, 256, 64, 256, 0, 0},
        {"transform_row_order_swapped", kOpLoadTransform, 2, 16, 16, 1, 256, 64, 256, 0, 0},
        {"transpose_h32_interleave_wrong", kOpLoadTranspose, 4, 8, 32, 1, 256, 64, 256, 0, 0},
        {"blocks_row_interleaved", kOpLoad, 2, 16, 4, 2, 256, 64, 256, 0, 0},
        {"store_writes_oob_or_padding", kOpStore, 4, 16, 4, 1, 64, 3, 128, 8, 1},
        {"memory_width_as_elements", kOpLoad, 4, 16, 2, 1, 64, 64, 256, 8, 0},
        {"pitch_ignored", kOpLoad, 4, 16, 2, 1, 64, 64, 256, 0, 1},
        {"coord_x_as_bytes", kOpLoad, 4, 16, 2, 1, 256, 64, 256, 8, 0},
        {"one_row_multiblock_noncontiguous", kOpLoad, 2, 16, 1, 2, 256, 64, 256, 0, 0},
        {"right_edge_from_pitch", kOpLoad, 4, 16, 2, 1, 64, 64, 256, 8, 0},
        {"oob_check_4byte_granularity", kOpLoadTransform, 1, 16, 32, 1, 256, 6, 256, 0, 0},
        {"negative_coord_clamped", kOpLoad, 4, 16, 4, 1, 256, 64, 256, -4, -2},
        {"store_narrow_block_drops_rows", kOpStore, 2, 8, 2, 1, 256, 64, 256, 0, 0},
        // Operands past 16 bits whose low 16 bits cut the block (y and x past 2^16 need a larger surface than
        // this fake one: the suite's past_16bit cases have it).
        {"height_or_y_16bit", kOpLoad, 2, 16, 8, 1, 256, 65536 + 4, 256, 0, 2},
        {"width_pitch_or_x_16bit", kOpLoad, 4, 16, 1, 1, 65536 + 64, 4, 65536 + 256, 8, 0},
    };
    for (const Scenario& s : scenarios) {
        std::vector<uint8_t> results[2];
        for (int faulty = 0; faulty < 2; ++faulty) {
            FakeContext ctx(s.opcode, 16);
            fillSurface(ctx, s.e);
            std::string error;
            if (faulty) {
                ASSERT_TRUE(ctx.faults_.parse(s.fault, &error)) << error;
            }
            ctx.setup(s.e, s.w, s.h, s.c, s.mw, s.mh, s.mp, s.x, s.y);
            for (uint32_t i = 0; i < 16; ++i)
                for (uint32_t k = 0; k < 64; ++k) ctx.setPriv<uint8_t>(i, k, uint8_t(i * 64 + k + 1));
            if (s.opcode == kOpStore)
                executeStore(ctx);
            else
                executeLoad(ctx);
            ASSERT_FALSE(ctx.failed()) << s.fault << ": " << ctx.error_;
            results[faulty] = ctx.surface_;
            for (const auto& p : ctx.priv_) results[faulty].insert(results[faulty].end(), p.begin(), p.end());
        }
        EXPECT_NE(results[0], results[1]) << s.fault << " changed nothing";
    }
    FakeContext ctx(kOpPrefetch, 16);
    std::string error;
    ASSERT_TRUE(ctx.faults_.parse("prefetch_touches_oob", &error)) << error;
    ctx.setup(1, 32, 8, 1, 64, 4, 256, -64, -4);
    executePrefetch(ctx);
    EXPECT_TRUE(ctx.failed());
}

// Runs `body` and kills the test binary if it has not returned after `seconds`: an operand value that
// makes an op loop forever must fail the test, not stall it until the CTest timeout.
void finishesWithin(double seconds, const std::string& what, const std::function<void()>& body) {
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    std::thread worker([&] {
        body();
        std::lock_guard<std::mutex> lock(m);
        done = true;
        cv.notify_one();
    });
    std::unique_lock<std::mutex> lock(m);
    if (!cv.wait_for(lock, std::chrono::duration<double>(seconds), [&] { return done; })) {
        std::fprintf(stderr, "HANG: %s did not return within %.0f s\n", what.c_str(), seconds);
        std::fflush(stderr);
        std::_Exit(1);
    }
    lock.unlock();
    worker.join();
}

// Shape operands far outside the supported range (the first, 0xEA197FFA, is a Block Width that made the
// device loop forever in ceilPow2; 2^30 and 2^28 wrapped the padded row bytes to 0, so the shape was
// accepted and walked 2^30 columns) are reported as undefined behaviour, quickly, naming the operand, and
// nothing is written.
TEST(BlockIo2dOps, HugeShapeOperandsAreRejected) {
    struct Op {
        uint32_t opcode;
        uint32_t shape[4];  // a supported Element Size, Block Width, Block Height, Block Count
        void (*run)(OpContext&);
    };
    const Op ops[] = {{kOpLoad, {2, 16, 8, 1}, executeLoad},
                      {kOpLoadTransform, {2, 16, 16, 1}, executeLoad},
                      {kOpLoadTranspose, {4, 8, 16, 1}, executeLoad},
                      {kOpPrefetch, {2, 16, 8, 1}, executePrefetch},
                      {kOpStore, {2, 16, 8, 1}, executeStore}};
    const uint32_t huge[] = {0xEA197FFAu, 0x80000000u, 0x80000001u, 0xFFFFFFFFu, 0x7FFFFFFFu, 0xFFFFFFFEu,
                             1u << 30,    1u << 29,    1u << 28,    1u << 26,    1u << 16,    68};
    static const char* kNames[] = {"Element Size", "Block Width", "Block Height", "Block Count"};
    for (const Op& op : ops)
        for (uint32_t k = 0; k < 4; ++k)
            for (uint32_t v : huge) {
                uint32_t s[4] = {op.shape[0], op.shape[1], op.shape[2], op.shape[3]};
                s[k] = v;
                const std::string what =
                    "opcode " + std::to_string(op.opcode) + " with " + kNames[k] + " " + std::to_string(v);
                FakeContext ctx(op.opcode, 16);
                fillSurface(ctx, 4);
                const std::vector<uint8_t> surface = ctx.surface_;
                ctx.setup(s[0], s[1], s[2], s[3], 256, 64, 256, 0, 0);
                finishesWithin(10, what, [&] { op.run(ctx); });
                EXPECT_TRUE(ctx.failed()) << what;
                EXPECT_NE(ctx.error_.find(kNames[k]), std::string::npos) << what << ": " << ctx.error_;
                EXPECT_EQ(ctx.priv<uint32_t>(0, 0), 0xA5A5A5A5u) << what << ": destination written";
                EXPECT_EQ(ctx.surface_, surface) << what << ": surface written";
            }
}

// The shape check itself bounds every operand before multiplying: the products that wrapped in 32 bits
// (padded width x Element Size x Block Count, width x Element Size for transposes) are rejected, and the
// supported extremes still pass.
TEST(BlockIo2dOps, UnsupportedShapeCannotOverflow) {
    struct Shape {
        uint32_t opcode, e, w, h, c;
    };
    const Shape rejected[] = {
        {kOpLoad, 4, 1u << 30, 4, 1},           {kOpLoad, 1, 1u << 30, 1, 4},
        {kOpLoad, 8, 1u << 29, 1, 1},           {kOpPrefetch, 2, 1u << 31, 1, 2},
        {kOpLoadTranspose, 4, 1u << 30, 8, 1},  {kOpLoadTranspose, 8, 1u << 29, 8, 1},
        {kOpLoadTransform, 2, 1u << 31, 16, 1}, {kOpStore, 8, 1u << 29, 1, 1},
        {kOpStore, 2, 0xEA197FFAu, 2, 1},       {kOpLoad, 2, 16, 0xFFFFFFFFu, 1},
        {kOpLoad, 2, 16, 2, 0xFFFFFFFFu},       {kOpLoad, 0xFFFFFFFFu, 16, 2, 1},
    };
    for (const Shape& s : rejected) {
        const std::string what = "opcode " + std::to_string(s.opcode) + " e" + std::to_string(s.e) + " w" +
                                 std::to_string(s.w) + " h" + std::to_string(s.h) + " c" +
                                 std::to_string(s.c);
        std::string why;
        finishesWithin(10, what, [&] { why = unsupportedShape(s.opcode, s.e, s.w, s.h, s.c); });
        EXPECT_FALSE(why.empty()) << what << " accepted";
    }
    const Shape accepted[] = {{kOpLoad, 1, 64, 32, 1},         {kOpLoad, 2, 16, 32, 2},
                              {kOpLoad, 1, 16, 32, 4},         {kOpLoadTransform, 1, 16, 32, 4},
                              {kOpLoadTranspose, 4, 8, 32, 1}, {kOpLoadTranspose, 8, 4, 32, 1},
                              {kOpStore, 4, 16, 8, 1},         {kOpPrefetch, 8, 8, 32, 1}};
    for (const Shape& s : accepted)
        EXPECT_EQ(std::string(unsupportedShape(s.opcode, s.e, s.w, s.h, s.c)), "")
            << "opcode " << s.opcode << " e" << s.e << " w" << s.w << " h" << s.h << " c" << s.c;
}

// 64-bit memory operands and coordinates (the OpenCL environment only has 32-bit ones) beyond the 32-bit
// range are reported before the element offsets (y + row) * pitch + (x + column) * size are computed,
// which would otherwise overflow and wrap back into the surface.
TEST(BlockIo2dOps, HugeMemoryOperandsAreRejected) {
    struct Case {
        const char* what;
        uint32_t k;  // operand (load numbering): 5 width, 6 height, 7 pitch, 8 Coordinate
        std::vector<int64_t> value;
        const char* expect;
    };
    const int64_t two62 = int64_t(1) << 62;
    const Case cases[] = {
        {"pitch 2^62 + 64", 7, {two62 + 64}, "Memory Pitch"},
        {"pitch 2^31", 7, {int64_t(1) << 31}, "Memory Pitch"},
        {"width 2^32 + 64", 5, {(int64_t(1) << 32) + 64}, "Memory Width"},
        {"height 2^40", 6, {int64_t(1) << 40}, "Memory Height"},
        {"x 2^62", 8, {two62, 1}, "Coordinate"},
        {"x -2^62", 8, {-two62, 1}, "Coordinate"},
        {"y 2^62 + 1", 8, {0, two62 + 1}, "Coordinate"},
        {"y 2^31", 8, {0, int64_t(1) << 31}, "Coordinate"},
        {"x INT64_MIN", 8, {INT64_MIN, 0}, "Coordinate"},
    };
    for (const Case& c : cases) {
        FakeContext ctx(kOpLoad, 16);
        fillSurface(ctx, 2);
        ctx.setup(2, 16, 8, 1, 256, 64, 256, 0, 4);
        ctx.setTyped(c.k, c.k == 8 ? &ctx.v2i64_ : &ctx.i64_, c.value);
        finishesWithin(10, c.what, [&] { executeLoad(ctx); });
        EXPECT_TRUE(ctx.failed()) << c.what;
        EXPECT_NE(ctx.error_.find(c.expect), std::string::npos) << c.what << ": " << ctx.error_;
        EXPECT_EQ(ctx.priv<uint32_t>(0, 0), 0xA5A5A5A5u) << c.what << ": destination written despite UB";
    }
    // The 32-bit extremes are fine: the block is out of bounds and reads as zero.
    const int32_t extremes[][3] = {
        {INT32_MIN, INT32_MAX, 256}, {INT32_MAX - 1, INT32_MIN, 256}, {0, INT32_MAX, INT32_MAX - 15}};
    for (const auto& x : extremes) {
        FakeContext ctx(kOpLoad, 16);
        fillSurface(ctx, 2);
        ctx.setup(2, 16, 8, 1, 256, 64, x[2], x[0], x[1]);
        executeLoad(ctx);
        ASSERT_FALSE(ctx.failed()) << x[0] << ", " << x[1] << ": " << ctx.error_;
        for (uint32_t l = 0; l < 16; ++l) EXPECT_EQ(ctx.priv<uint32_t>(l, 0), 0u) << x[0] << ", " << x[1];
    }
}

// Memory operands and Coordinate components narrower than 32 bits are read at their own width (the spec
// asks for integer scalars / a two-component integer vector, of any width).
TEST(BlockIo2dOps, NarrowMemoryOperandsAreReadAtTheirWidth) {
    FakeContext wide(kOpLoad, 16), narrow(kOpLoad, 16);
    for (FakeContext* ctx : {&wide, &narrow}) {
        fillSurface(*ctx, 2);
        ctx->setup(2, 16, 8, 1, 256, 64, 256, 2, 3);
    }
    narrow.setTyped(5, &narrow.i16_, {256});
    narrow.setTyped(6, &narrow.i16_, {64});
    narrow.setTyped(7, &narrow.i16_, {256});
    narrow.setTyped(8, &narrow.v2i16_, {2, 3});
    executeLoad(wide);
    executeLoad(narrow);
    ASSERT_FALSE(wide.failed()) << wide.error_;
    ASSERT_FALSE(narrow.failed()) << narrow.error_;
    EXPECT_EQ(narrow.priv_, wide.priv_);
    // Anything but an integer scalar is reported, not read.
    FakeContext vector_pitch(kOpLoad, 16);
    vector_pitch.setup(2, 16, 8, 1, 256, 64, 256, 0, 0);
    vector_pitch.setTyped(7, &vector_pitch.v2_, {256, 256});
    executeLoad(vector_pitch);
    EXPECT_NE(vector_pitch.error_.find("Memory Pitch must be an integer type scalar"), std::string::npos)
        << vector_pitch.error_;
}

// The direct path (probeMemory answered) and the element-wise path (not answered) leave the same bytes in the
// surface and in every lane's private memory, for every shape this device supports, with the blocks inside
// the surface and across its right and bottom edges (where the direct path declines); heights include the
// ones a transform pads.
TEST(BlockIo2dOps, DirectPathMatchesElementWisePath) {
    uint32_t compared = 0;
    for (uint32_t op : {kOpLoad, kOpLoadTransform, kOpLoadTranspose, kOpStore})
        for (uint32_t e : {1u, 2u, 4u, 8u})
            for (uint32_t w = 1; w <= 64; ++w)
                for (uint32_t h : {1u, 2u, 3u, 4u, 5u, 8u, 15u, 16u, 30u, 31u, 32u})
                    for (uint32_t c : {1u, 2u, 4u}) {
                        if ((e == 1 && w % 4) || (e == 2 && w % 2) ||
                            !unsupportedShape(op, e, w, h, c).empty())
                            continue;
                        for (int32_t x : {8, int32_t(256 / e) - 4}) {
                            std::vector<uint8_t> bytes[2];
                            for (bool probe : {false, true}) {
                                FakeContext ctx(op, 16);
                                ctx.probe_ = probe;
                                fillSurface(ctx, e);
                                for (uint32_t l = 0; l < 16; ++l)
                                    for (size_t i = 0; i < ctx.priv_[l].size(); ++i)
                                        ctx.priv_[l][i] = uint8_t(l * 37 + i * 7);
                                ctx.setup(e, w, h, c, 256, 64, 256, x, x == 8 ? 3 : 62);
                                (op == kOpStore ? executeStore : executeLoad)(ctx);
                                ASSERT_FALSE(ctx.failed())
                                    << ctx.error_ << " opcode " << op << " e" << e << " w" << w << " h" << h
                                    << " c" << c << " x " << x;
                                bytes[probe] = ctx.surface_;
                                for (const auto& p : ctx.priv_)
                                    bytes[probe].insert(bytes[probe].end(), p.begin(), p.end());
                            }
                            EXPECT_EQ(bytes[0], bytes[1]) << "opcode " << op << " e" << e << " w" << w << " h"
                                                          << h << " c" << c << " x " << x;
                            ++compared;
                        }
                    }
    EXPECT_GT(compared, 100u);
}

TEST(BlockIo2dOps, RegistersFiveInstructions) {
    ExtOpTable table;
    register2dBlockIoOps(table);
    for (uint32_t op = kOpLoad; op <= kOpStore; ++op) {
        const ExtOpInfo* info = table.find(op);
        ASSERT_NE(info, nullptr) << op;
        EXPECT_FALSE(info->has_result);
        EXPECT_EQ(info->min_operands, op == kOpPrefetch ? 9u : 10u);
    }
    EXPECT_GE(blockIo2dFaults().size(), 10u);
}

}  // namespace
}  // namespace refdev::spirv::block_io_2d
