// Unit tests of the SPV_INTEL_subgroups op family through a fake OpContext (no interpreter involved).
#include <gtest/gtest.h>

#include <CL/cl.h>

#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include "reference_device/ext/subgroups/subgroups_ops.h"

namespace refdev::spirv::subgroups {
namespace {

TypeInfo scalarInt(uint32_t bits, uint32_t components = 1) {
    TypeInfo t;
    t.kind = components == 1 ? TypeInfo::Kind::Int : TypeInfo::Kind::Vector;
    t.component_kind = TypeInfo::Kind::Int;
    t.component_bits = bits;
    t.components = components;
    t.byte_size = bits / 8 * components;
    return t;
}

constexpr uint32_t kCrossWorkgroup = 5, kWorkgroup = 4;

TypeInfo pointerTo(uint32_t bits, uint32_t storage_class = kCrossWorkgroup) {
    TypeInfo t;
    t.kind = TypeInfo::Kind::Pointer;
    t.component_bits = 64;
    t.byte_size = 8;
    t.storage_class = storage_class;
    t.pointee_bytes = bits / 8;
    return t;
}

// A sub-group of `lanes` invocations (SubgroupMaxSize `max`), operands set per lane, one flat memory
// region at address 0x1000 and at most one image.
class FakeContext : public OpContext {
public:
    FakeContext(uint32_t opcode, uint32_t lanes, uint32_t max) : opcode_(opcode), lanes_(lanes), max_(max) {
        active_.assign(lanes, true);
    }
    uint32_t opcode() const override { return opcode_; }
    const char* opName() const override { return "fake"; }
    uint32_t operandCount() const override { return uint32_t(types_.size()); }
    const TypeInfo& resultType() const override { return result_type_; }
    const TypeInfo& operandType(uint32_t k) const override { return types_.at(k); }
    bool isConstant(uint32_t) const override { return false; }
    uint32_t literal(uint32_t) const override { return 0; }
    uint32_t lanes() const override { return lanes_; }
    uint32_t maxLanes() const override { return max_; }
    bool active(uint32_t lane) const override { return active_.at(lane); }
    const uint8_t* operand(uint32_t lane, uint32_t k) const override { return values_.at({lane, k}).data(); }
    uint8_t* result(uint32_t lane) override {
        auto& r = results_[lane];
        r.resize(result_type_.byte_size);
        return r.data();
    }
    uint8_t* memory(uint32_t lane, uint64_t address, size_t bytes, bool) override {
        if (address < kBase || address + bytes > kBase + mem.size()) {
            undefinedBehavior(lane, "out of bounds");
            return nullptr;
        }
        return mem.data() + (address - kBase);
    }
    const ImageDesc* image(uint32_t, uint32_t) override { return &img; }
    const Faults& faults() const override { return faults_; }
    const Profile* profile() const override { return profile_; }
    uint64_t workGroupLinearId() const override { return group_; }
    uint64_t localMemoryBase() const override { return kBase; }  // the one region doubles as local memory
    void undefinedBehavior(uint32_t, const std::string& what) override { errors.push_back(what); }
    bool failed() const override { return !errors.empty(); }

    // Setup helpers
    void setResultType(TypeInfo t) { result_type_ = t; }
    void setOperand(uint32_t k, TypeInfo t) {
        if (types_.size() <= k) types_.resize(k + 1);
        types_[k] = t;
    }
    template <typename T>
    void set(uint32_t lane, uint32_t k, std::vector<T> v) {
        std::vector<uint8_t> bytes(v.size() * sizeof(T));
        std::memcpy(bytes.data(), v.data(), bytes.size());
        values_[{lane, k}] = bytes;
    }
    template <typename T>
    void setAll(uint32_t k, std::function<std::vector<T>(uint32_t)> f) {
        for (uint32_t l = 0; l < lanes_; ++l) set<T>(l, k, f(l));
    }
    template <typename T>
    T out(uint32_t lane, uint32_t component = 0) const {
        T v;
        std::memcpy(&v, results_.at(lane).data() + component * sizeof(T), sizeof(T));
        return v;
    }
    void setFaults(const std::string& spec) {
        std::string err;
        ASSERT_TRUE(faults_.parse(spec, &err)) << err;
    }
    void setActive(uint32_t lane, bool on) { active_[lane] = on; }
    void setGroup(uint64_t g) { group_ = g; }
    void setProfile(const Profile* p) { profile_ = p; }

    static constexpr uint64_t kBase = 0x1000;
    std::vector<uint8_t> mem;
    ImageDesc img;
    std::vector<std::string> errors;

private:
    uint32_t opcode_, lanes_, max_;
    TypeInfo result_type_;
    std::vector<TypeInfo> types_;
    std::vector<bool> active_;
    std::map<std::pair<uint32_t, uint32_t>, std::vector<uint8_t>> values_;
    std::map<uint32_t, std::vector<uint8_t>> results_;
    Faults faults_;
    uint64_t group_ = 0;
    const Profile* profile_ = nullptr;
};

constexpr uint32_t kJunk = 0xdeadbeef;

// Sets up a 32-bit shuffle: Data/Current = 100 + lane, Next/Previous = 200 + lane, index per lane.
std::unique_ptr<FakeContext> shuffleContext(uint32_t opcode, uint32_t lanes, uint32_t max,
                                            std::function<uint32_t(uint32_t)> index) {
    auto ctx = std::make_unique<FakeContext>(opcode, lanes, max);
    ctx->setResultType(scalarInt(32));
    bool two = opcode == kOpShuffleDown || opcode == kOpShuffleUp;
    ctx->setOperand(0, scalarInt(32));
    if (two) ctx->setOperand(1, scalarInt(32));
    ctx->setOperand(two ? 2 : 1, scalarInt(32));
    for (uint32_t l = 0; l < lanes; ++l) {
        // ShuffleUp's operands are (Previous, Current): keep "Current" = 100 + lane for both ops.
        uint32_t first = opcode == kOpShuffleUp ? 200 + l : 100 + l;
        uint32_t second = opcode == kOpShuffleUp ? 100 + l : 200 + l;
        ctx->set<uint32_t>(l, 0, {first});
        if (two) ctx->set<uint32_t>(l, 1, {second});
        ctx->set<uint32_t>(l, two ? 2 : 1, {index(l)});
    }
    return ctx;
}

TEST(SubgroupsOps, ShuffleReadsInvocationIdAndJunkOutOfRange) {
    auto ctx = shuffleContext(kOpShuffle, 16, 16, [](uint32_t l) { return (l * 5) % 17; });
    executeShuffle(*ctx);
    for (uint32_t l = 0; l < 16; ++l) {
        uint32_t id = (l * 5) % 17;
        EXPECT_EQ(ctx->out<uint32_t>(l), id < 16 ? 100 + id : kJunk) << l;
    }
}

TEST(SubgroupsOps, ShuffleDownCurrentNextAndOutOfRange) {
    auto ctx = shuffleContext(kOpShuffleDown, 8, 8, [](uint32_t) { return 5; });
    executeShuffleDown(*ctx);
    EXPECT_EQ(ctx->out<uint32_t>(2), 107u);  // index 7 < S: Current of 7
    EXPECT_EQ(ctx->out<uint32_t>(3), 200u);  // index 8 = S: Next of 0
    EXPECT_EQ(ctx->out<uint32_t>(7), 204u);
    auto far = shuffleContext(kOpShuffleDown, 8, 8, [](uint32_t l) { return l == 1 ? 15u : 0xffffffffu; });
    executeShuffleDown(*far);
    EXPECT_EQ(far->out<uint32_t>(1), kJunk);  // 16 = 2S: out of range
    EXPECT_EQ(far->out<uint32_t>(0), kJunk);  // 0xffffffff must not wrap to a valid index
}

TEST(SubgroupsOps, ShuffleUpCurrentPreviousAndOutOfRange) {
    auto ctx = shuffleContext(kOpShuffleUp, 16, 16, [](uint32_t) { return 3; });
    executeShuffleUp(*ctx);
    EXPECT_EQ(ctx->out<uint32_t>(3), 100u);  // index 0: Current of 0
    EXPECT_EQ(ctx->out<uint32_t>(2), 215u);  // index -1: Previous of 15
    auto far = shuffleContext(kOpShuffleUp, 16, 16, [](uint32_t) { return 17; });
    executeShuffleUp(*far);
    EXPECT_EQ(far->out<uint32_t>(0), kJunk);  // -17 < -S
    EXPECT_EQ(far->out<uint32_t>(1), 200u);   // -16 = -S: Previous of 0
}

TEST(SubgroupsOps, ShuffleXorAndPartialSubgroup) {
    auto ctx = shuffleContext(kOpShuffleXor, 5, 8, [](uint32_t) { return 3; });
    executeShuffleXor(*ctx);
    EXPECT_EQ(ctx->out<uint32_t>(1), 102u);
    EXPECT_EQ(ctx->out<uint32_t>(4), kJunk);  // 7 does not exist in a sub-group of 5
    auto wide = shuffleContext(kOpShuffleXor, 16, 16, [](uint32_t) { return 16; });
    executeShuffleXor(*wide);
    EXPECT_EQ(wide->out<uint32_t>(0), kJunk);  // 16 = S names no invocation
}

TEST(SubgroupsOps, ShuffleFromInactiveLaneIsJunk) {
    auto ctx = shuffleContext(kOpShuffle, 8, 8, [](uint32_t) { return 2; });
    ctx->setActive(2, false);
    executeShuffle(*ctx);
    EXPECT_EQ(ctx->out<uint32_t>(0), kJunk);
}

TEST(SubgroupsOps, ShuffleFaults) {
    auto down = shuffleContext(kOpShuffleDown, 8, 8, [](uint32_t) { return 5; });
    down->setFaults("shuffle_down_ignores_next");
    executeShuffleDown(*down);
    EXPECT_EQ(down->out<uint32_t>(3), 100u);
    auto up = shuffleContext(kOpShuffleUp, 16, 16, [](uint32_t) { return 3; });
    up->setFaults("shuffle_up_off_by_one");
    executeShuffleUp(*up);
    EXPECT_NE(up->out<uint32_t>(3), 100u);
    auto xr = shuffleContext(kOpShuffleXor, 5, 8, [](uint32_t) { return 3; });
    xr->setFaults("shuffle_xor_uses_actual_size");
    executeShuffleXor(*xr);
    EXPECT_NE(xr->out<uint32_t>(0), 103u);
    auto sh = shuffleContext(kOpShuffle, 16, 16, [](uint32_t) { return 12; });
    sh->setFaults("shuffle_index_masked");
    executeShuffle(*sh);
    EXPECT_NE(sh->out<uint32_t>(0), 112u);
    auto zero = shuffleContext(kOpShuffle, 16, 16, [](uint32_t) { return 1; });
    zero->setFaults("shuffle_zero_when_some_workgroups");
    zero->setGroup(3);
    executeShuffle(*zero);
    EXPECT_EQ(zero->out<uint32_t>(0), 0u);
}

// Sub-group sizes 4 and 64: faults only those sizes show.
TEST(SubgroupsOps, ShuffleSourceLaneMod32Fault) {
    auto ctx = shuffleContext(kOpShuffle, 64, 64, [](uint32_t l) { return 63 - l; });
    ctx->setFaults("shuffle_source_lane_mod_32");
    executeShuffle(*ctx);
    EXPECT_EQ(ctx->out<uint32_t>(0), 100u + 31);   // lane 63 read as lane 31
    EXPECT_EQ(ctx->out<uint32_t>(40), 100u + 23);  // lane 23: below 32, unchanged
    auto down = shuffleContext(kOpShuffleDown, 64, 64, [](uint32_t) { return 40; });
    down->setFaults("shuffle_source_lane_mod_32");
    executeShuffleDown(*down);
    EXPECT_EQ(down->out<uint32_t>(1), 100u + 41 - 32);
    EXPECT_EQ(down->out<uint32_t>(30), 200u + 6);  // Next of lane 6
    auto narrow = shuffleContext(kOpShuffleXor, 32, 32, [](uint32_t) { return 17; });
    narrow->setFaults("shuffle_source_lane_mod_32");
    executeShuffleXor(*narrow);
    EXPECT_EQ(narrow->out<uint32_t>(2), 100u + 19);  // 32 lanes: no effect
}

TEST(SubgroupsOps, ShuffleDownSg4Window8Fault) {
    auto ctx = shuffleContext(kOpShuffleDown, 4, 4, [](uint32_t) { return 3; });
    executeShuffleDown(*ctx);
    EXPECT_EQ(ctx->out<uint32_t>(0), 103u);  // index 3: Current of 3
    EXPECT_EQ(ctx->out<uint32_t>(2), 201u);  // index 5: Next of 1
    ctx->setFaults("shuffle_down_sg4_window_8");
    executeShuffleDown(*ctx);
    EXPECT_EQ(ctx->out<uint32_t>(0), 103u);
    EXPECT_EQ(ctx->out<uint32_t>(2), kJunk);  // lane 5 of an 8-wide Current: no invocation
    auto far = shuffleContext(kOpShuffleDown, 4, 4, [](uint32_t) { return 7; });
    far->setFaults("shuffle_down_sg4_window_8");
    executeShuffleDown(*far);
    EXPECT_EQ(far->out<uint32_t>(1), 200u);  // index 8: Next of 0 (correct: Next of 4, out of range)
    auto eight = shuffleContext(kOpShuffleDown, 8, 8, [](uint32_t) { return 5; });
    eight->setFaults("shuffle_down_sg4_window_8");
    executeShuffleDown(*eight);
    EXPECT_EQ(eight->out<uint32_t>(3), 200u);  // sub-group of 8: no effect
}

TEST(SubgroupsOps, ShuffleDivergentCompactsLanesFault) {
    auto ctx = shuffleContext(kOpShuffle, 8, 8, [](uint32_t) { return 4; });
    ctx->setActive(1, false);
    executeShuffle(*ctx);
    EXPECT_EQ(ctx->out<uint32_t>(0), 104u);
    ctx->setFaults("shuffle_divergent_compacts_lanes");
    executeShuffle(*ctx);
    EXPECT_EQ(ctx->out<uint32_t>(0), 105u);  // the 5th active invocation is lane 5
}

TEST(SubgroupsOps, ShuffleReadsInactiveLaneFault) {
    auto ctx = shuffleContext(kOpShuffle, 8, 8, [](uint32_t) { return 4; });
    ctx->setActive(5, false);
    executeShuffle(*ctx);
    EXPECT_EQ(ctx->out<uint32_t>(0), 104u);  // lane 4 is active: its value, whatever lane 5 does
    ctx->setFaults("shuffle_reads_inactive_lane");
    executeShuffle(*ctx);
    EXPECT_EQ(ctx->out<uint32_t>(0), 105u);  // the inactive pair lane 5's operand
    ctx->setActive(5, true);
    executeShuffle(*ctx);
    EXPECT_EQ(ctx->out<uint32_t>(0), 104u);  // both halves of the pair active: no effect
}

TEST(SubgroupsOps, ShuffleVec3FaultKeepsOwnThirdComponent) {
    FakeContext ctx(kOpShuffle, 8, 8);
    ctx.setResultType(scalarInt(16, 3));
    ctx.setOperand(0, scalarInt(16, 3));
    ctx.setOperand(1, scalarInt(32));
    ctx.setAll<uint16_t>(0, [](uint32_t l) {
        return std::vector<uint16_t>{uint16_t(l), uint16_t(l + 10), uint16_t(l + 20)};
    });
    ctx.setAll<uint32_t>(1, [](uint32_t l) { return std::vector<uint32_t>{7 - l}; });
    executeShuffle(ctx);
    EXPECT_EQ(ctx.out<uint16_t>(0, 2), 27u);
    ctx.setFaults("shuffle_vec3_last_component_own");
    executeShuffle(ctx);
    EXPECT_EQ(ctx.out<uint16_t>(0, 1), 17u);
    EXPECT_EQ(ctx.out<uint16_t>(0, 2), 20u);
}

std::unique_ptr<FakeContext> blockReadContext(uint32_t lanes, uint32_t max, uint32_t bits,
                                              uint32_t components, uint64_t address) {
    auto ctx = std::make_unique<FakeContext>(kOpBlockRead, lanes, max);
    ctx->setResultType(scalarInt(bits, components));
    ctx->setOperand(0, pointerTo(bits));
    ctx->setAll<uint64_t>(0, [&](uint32_t) { return std::vector<uint64_t>{address}; });
    ctx->mem.resize(4096);
    for (size_t i = 0; i < ctx->mem.size(); ++i) ctx->mem[i] = uint8_t(i * 13 + 5);
    return ctx;
}

uint32_t word(const std::vector<uint8_t>& mem, size_t byte_offset) {
    uint32_t v;
    std::memcpy(&v, mem.data() + byte_offset, 4);
    return v;
}

// "the first value read is: Ptr[ SubgroupLocalInvocationId ] and the second value read is:
// Ptr[ SubgroupLocalInvocationId + SubgroupMaxSize ]"
TEST(SubgroupsOps, BlockReadStrided) {
    auto ctx = blockReadContext(8, 8, 32, 4, FakeContext::kBase + 4);
    executeBlockRead(*ctx);
    ASSERT_TRUE(ctx->errors.empty());
    EXPECT_EQ(ctx->out<uint32_t>(3, 2), word(ctx->mem, 4 + (3 + 16) * 4));
    auto fault = blockReadContext(8, 8, 32, 4, FakeContext::kBase + 4);
    fault->setFaults("block_read_stride_simd16");
    executeBlockRead(*fault);
    EXPECT_NE(fault->out<uint32_t>(3, 2), word(ctx->mem, 4 + (3 + 16) * 4));
}

TEST(SubgroupsOps, BlockReadStrideMax32AndSg4Stride8Faults) {
    auto wide = blockReadContext(64, 64, 32, 2, FakeContext::kBase);
    wide->setFaults("block_read_stride_max_32");
    executeBlockRead(*wide);
    ASSERT_TRUE(wide->errors.empty());
    EXPECT_EQ(wide->out<uint32_t>(40, 0), word(wide->mem, 40 * 4));
    EXPECT_EQ(wide->out<uint32_t>(3, 1), word(wide->mem, (3 + 32) * 4));  // correct: 3 + 64
    auto narrow = blockReadContext(32, 32, 32, 2, FakeContext::kBase);
    narrow->setFaults("block_read_stride_max_32");
    executeBlockRead(*narrow);
    EXPECT_EQ(narrow->out<uint32_t>(3, 1), word(narrow->mem, (3 + 32) * 4));  // 32 lanes: no effect
    auto four = blockReadContext(4, 4, 32, 2, FakeContext::kBase);
    executeBlockRead(*four);
    EXPECT_EQ(four->out<uint32_t>(1, 1), word(four->mem, (1 + 4) * 4));
    four->setFaults("block_io_sg4_stride_8");
    executeBlockRead(*four);
    EXPECT_EQ(four->out<uint32_t>(1, 1), word(four->mem, (1 + 8) * 4));
}

TEST(SubgroupsOps, BlockRead64BitFault) {
    auto ctx = blockReadContext(16, 16, 64, 2, FakeContext::kBase);
    executeBlockRead(*ctx);
    uint64_t good = ctx->out<uint64_t>(1, 1);
    auto fault = blockReadContext(16, 16, 64, 2, FakeContext::kBase);
    fault->setFaults("block_read_64bit_as_2x32");
    executeBlockRead(*fault);
    EXPECT_NE(fault->out<uint64_t>(1, 1), good);
}

TEST(SubgroupsOps, BlockReadUndefinedBehaviour) {
    auto partial = blockReadContext(5, 8, 32, 1, FakeContext::kBase);
    executeBlockRead(*partial);
    EXPECT_EQ(partial->errors.size(), 1u);
    auto misaligned = blockReadContext(8, 8, 32, 1, FakeContext::kBase + 2);
    executeBlockRead(*misaligned);
    EXPECT_EQ(misaligned->errors.size(), 1u);
    auto divergent = blockReadContext(8, 8, 32, 1, FakeContext::kBase);
    divergent->set<uint64_t>(3, 0, {FakeContext::kBase + 64});
    executeBlockRead(*divergent);
    EXPECT_EQ(divergent->errors.size(), 1u);
    auto mismatched = blockReadContext(8, 8, 32, 1, FakeContext::kBase);
    mismatched->setOperand(0, pointerTo(16));  // Ptr to a 16-bit type, 32-bit result components
    executeBlockRead(*mismatched);
    EXPECT_EQ(mismatched->errors.size(), 1u);
    auto inactive = blockReadContext(8, 8, 32, 1, FakeContext::kBase);
    inactive->setActive(7, false);
    executeBlockRead(*inactive);
    EXPECT_EQ(inactive->errors.size(), 1u);
}

std::unique_ptr<FakeContext> blockWriteContext(uint32_t max, uint32_t bits, uint32_t components,
                                               uint64_t address) {
    auto ctx = std::make_unique<FakeContext>(kOpBlockWrite, max, max);
    ctx->setOperand(0, pointerTo(bits));
    ctx->setOperand(1, scalarInt(bits, components));
    ctx->setAll<uint64_t>(0, [&](uint32_t) { return std::vector<uint64_t>{address}; });
    ctx->setAll<uint8_t>(1, [&](uint32_t l) {
        std::vector<uint8_t> v(bits / 8 * components);
        for (size_t i = 0; i < v.size(); ++i) v[i] = uint8_t(l * 16 + i + 1);
        return v;
    });
    ctx->mem.assign(4096, 0xa5);
    return ctx;
}

TEST(SubgroupsOps, BlockWriteStridedAndAlignment) {
    auto ctx = blockWriteContext(16, 8, 4, FakeContext::kBase + 32);
    executeBlockWrite(*ctx);
    ASSERT_TRUE(ctx->errors.empty());
    EXPECT_EQ(ctx->mem[32 + 5 + 3 * 16], uint8_t(5 * 16 + 3 + 1));  // lane 5 component 3
    EXPECT_EQ(ctx->mem[32 + 64], 0xa5);                             // just past the block
    auto fault = blockWriteContext(16, 8, 4, FakeContext::kBase + 32);
    fault->setFaults("block_write_drops_last_component");
    executeBlockWrite(*fault);
    EXPECT_EQ(fault->mem[32 + 5 + 3 * 16], 0xa5);
    auto misaligned = blockWriteContext(16, 32, 1, FakeContext::kBase + 4);
    executeBlockWrite(*misaligned);
    EXPECT_EQ(misaligned->errors.size(), 1u);
    EXPECT_EQ(misaligned->mem[4], 0xa5);
}

// cl_intel_subgroup_local_block_io: "The pointer Ptr must be 128-bit (16-byte) aligned for both reads and
// writes" with a Workgroup Ptr; the layout is the buffer's.
TEST(SubgroupsOps, LocalBlockReadAlignmentAndFault) {
    auto ctx = blockReadContext(8, 8, 32, 2, FakeContext::kBase + 48);
    ctx->setOperand(0, pointerTo(32, kWorkgroup));
    executeBlockRead(*ctx);
    ASSERT_TRUE(ctx->errors.empty());
    EXPECT_EQ(ctx->out<uint32_t>(3, 1), word(ctx->mem, 48 + (3 + 8) * 4));
    auto misaligned = blockReadContext(8, 8, 32, 1, FakeContext::kBase + 4);  // fine for a buffer
    misaligned->setOperand(0, pointerTo(32, kWorkgroup));
    executeBlockRead(*misaligned);
    EXPECT_EQ(misaligned->errors.size(), 1u);
    auto fault = blockReadContext(8, 8, 32, 2, FakeContext::kBase + 48);
    fault->setOperand(0, pointerTo(32, kWorkgroup));
    fault->setFaults("local_block_read_ignores_offset");
    executeBlockRead(*fault);
    EXPECT_EQ(fault->out<uint32_t>(3, 1), word(fault->mem, (3 + 8) * 4));  // from the start of local memory
    auto global = blockReadContext(8, 8, 32, 2, FakeContext::kBase + 48);
    global->setFaults("local_block_read_ignores_offset");
    executeBlockRead(*global);
    EXPECT_EQ(global->out<uint32_t>(3, 1), word(global->mem, 48 + (3 + 8) * 4));  // buffers: no effect
}

TEST(SubgroupsOps, LocalBlockWriteFirstHalfFault) {
    auto fault = blockWriteContext(16, 8, 2, FakeContext::kBase + 16);
    fault->setOperand(0, pointerTo(8, kWorkgroup));
    fault->setFaults("local_block_write_first_half_only");
    executeBlockWrite(*fault);
    ASSERT_TRUE(fault->errors.empty());
    EXPECT_EQ(fault->mem[16 + 7 + 16], uint8_t(7 * 16 + 1 + 1));  // lane 7 component 1
    EXPECT_EQ(fault->mem[16 + 8], 0xa5);                          // lane 8 writes nothing
    auto global = blockWriteContext(16, 8, 2, FakeContext::kBase + 16);
    global->setFaults("local_block_write_first_half_only");
    executeBlockWrite(*global);
    EXPECT_EQ(global->mem[16 + 8], uint8_t(8 * 16 + 1));  // buffers: no effect
}

TEST(SubgroupsOps, BlockWriteSg4Stride8Fault) {
    auto ctx = blockWriteContext(4, 8, 2, FakeContext::kBase + 16);
    executeBlockWrite(*ctx);
    EXPECT_EQ(ctx->mem[16 + 1 + 4], uint8_t(1 * 16 + 1 + 1));  // lane 1 component 1
    auto fault = blockWriteContext(4, 8, 2, FakeContext::kBase + 16);
    fault->setFaults("block_io_sg4_stride_8");
    executeBlockWrite(*fault);
    EXPECT_EQ(fault->mem[16 + 1 + 4], 0xa5);
    EXPECT_EQ(fault->mem[16 + 1 + 8], uint8_t(1 * 16 + 1 + 1));
    auto eight = blockWriteContext(8, 8, 2, FakeContext::kBase + 16);
    eight->setFaults("block_io_sg4_stride_8");
    executeBlockWrite(*eight);
    EXPECT_EQ(eight->mem[16 + 1 + 8], uint8_t(1 * 16 + 1 + 1));  // sub-group of 8: no effect
}

std::unique_ptr<FakeContext> imageContext(uint32_t opcode, uint32_t max, uint32_t bits, uint32_t components,
                                          int32_t x, int32_t y, uint32_t width, uint32_t height,
                                          uint32_t texel) {
    auto ctx = std::make_unique<FakeContext>(opcode, max, max);
    TypeInfo image;
    image.kind = TypeInfo::Kind::Image;
    image.byte_size = 8;
    ctx->setOperand(0, image);
    ctx->setOperand(1, scalarInt(32, 2));
    ctx->setAll<uint64_t>(0, [](uint32_t) { return std::vector<uint64_t>{1}; });
    ctx->setAll<int32_t>(1, [&](uint32_t) { return std::vector<int32_t>{x, y}; });
    ctx->mem.resize(size_t(width) * texel * height);
    for (size_t i = 0; i < ctx->mem.size(); ++i) ctx->mem[i] = uint8_t(i * 7 + 3);
    ctx->img = ImageDesc{ctx->mem.data(), width, height, size_t(width) * texel, texel, 0, 0};
    if (opcode == kOpImageBlockRead) {
        ctx->setResultType(scalarInt(bits, components));
    } else {
        ctx->setOperand(2, scalarInt(bits, components));
        ctx->setAll<uint8_t>(2, [&](uint32_t l) {
            std::vector<uint8_t> v(bits / 8 * components);
            for (size_t i = 0; i < v.size(); ++i) v[i] = uint8_t(0x80 + l * 8 + i);
            return v;
        });
    }
    return ctx;
}

// "the Coordinate is a byte coordinate"; "the second value is read from the row ... plus one"
TEST(SubgroupsOps, ImageBlockReadBytesAndRows) {
    auto ctx = imageContext(kOpImageBlockRead, 8, 16, 2, 6, 1, 16, 4, 4);
    executeImageBlockRead(*ctx);
    ASSERT_TRUE(ctx->errors.empty());
    const size_t pitch = 64;
    uint16_t expect = uint16_t(ctx->mem[2 * pitch + 6 + 3 * 2] | ctx->mem[2 * pitch + 7 + 3 * 2] << 8);
    EXPECT_EQ(ctx->out<uint16_t>(3, 1), expect);
    auto fault = imageContext(kOpImageBlockRead, 8, 16, 2, 6, 1, 16, 4, 4);
    fault->setFaults("image_block_read_x_in_elements");
    executeImageBlockRead(*fault);
    EXPECT_NE(fault->out<uint16_t>(3, 1), expect);
}

TEST(SubgroupsOps, ImageBlockReadClampsAndFault) {
    // 4 texels wide: lanes 4..7 read beyond the right edge, component 1 beyond the bottom.
    auto ctx = imageContext(kOpImageBlockRead, 8, 32, 2, 0, 1, 4, 2, 4);
    executeImageBlockRead(*ctx);
    EXPECT_EQ(ctx->out<uint32_t>(6, 0), word(ctx->mem, 16 + 12));  // row 1, texel 3
    EXPECT_EQ(ctx->out<uint32_t>(6, 1), word(ctx->mem, 16 + 12));  // row 2 -> 1
    auto fault = imageContext(kOpImageBlockRead, 8, 32, 2, 0, 1, 4, 2, 4);
    fault->setFaults("image_block_read_oob_zero");
    executeImageBlockRead(*fault);
    EXPECT_EQ(fault->out<uint32_t>(6, 0), 0u);
}

// Only a device with 2D block IO lowers the image block read through the 2D block load.
TEST(SubgroupsOps, ImageBlockReadVia2dLoadFault) {
    // As the 2d_block_io family reports it on xe2 (this test does not link that family).
    Profile xe2, xe_hpg;
    xe2.name = "xe2";
    xe2.spirv_extensions = {"SPV_INTEL_subgroups", "SPV_INTEL_2d_block_io"};
    xe_hpg.name = "xe_hpg";
    xe_hpg.spirv_extensions = {"SPV_INTEL_subgroups", "SPV_INTEL_media_block_io"};
    const Profile* with_2d = &xe2;
    const Profile* without_2d = &xe_hpg;
    for (const Profile* profile : {with_2d, without_2d}) {
        auto ctx = imageContext(kOpImageBlockRead, 8, 32, 2, 0, 1, 4, 2, 4);
        ctx->setFaults("image_block_read_via_2d_load");
        ctx->setProfile(profile);
        executeImageBlockRead(*ctx);
        EXPECT_EQ(ctx->out<uint32_t>(2, 0), word(ctx->mem, 16 + 8)) << profile->name;  // in bounds
        EXPECT_EQ(ctx->out<uint32_t>(6, 0), profile == with_2d ? 0u : word(ctx->mem, 16 + 12))
            << profile->name;
    }
}

TEST(SubgroupsOps, ImageBlockWriteDropsAndChecks) {
    auto ctx = imageContext(kOpImageBlockWrite, 8, 32, 1, 8, 0, 4, 2, 4);
    std::vector<uint8_t> before = ctx->mem;
    executeImageBlockWrite(*ctx);
    ASSERT_TRUE(ctx->errors.empty());
    EXPECT_EQ(ctx->mem[8], 0x80);         // lane 0 -> texel 2
    EXPECT_EQ(ctx->mem[12], 0x88);        // lane 1 -> texel 3
    EXPECT_EQ(ctx->mem[16], before[16]);  // lane 2 dropped, row 1 untouched
    auto fault = imageContext(kOpImageBlockWrite, 8, 32, 1, 8, 0, 4, 2, 4);
    fault->setFaults("image_block_write_no_x_clip");
    executeImageBlockWrite(*fault);
    EXPECT_EQ(fault->mem[16], 0x90);
    auto misaligned = imageContext(kOpImageBlockWrite, 8, 32, 1, 6, 0, 4, 2, 4);
    executeImageBlockWrite(*misaligned);
    EXPECT_EQ(misaligned->errors.size(), 1u);
    auto small = imageContext(kOpImageBlockWrite, 8, 32, 1, 0, 0, 16, 2, 1);  // 8 lanes x 4 B > 16 B
    executeImageBlockWrite(*small);
    EXPECT_EQ(small->errors.size(), 1u);
}

// Coordinate components are read at their own width: 16-bit ones give what 32-bit ones do (they used to be
// read as 32 bits, taking the next component's bytes), and 64-bit ones beyond the 32-bit range of the
// OpenCL environment's int2 are reported (they used to be truncated back into the image).
TEST(SubgroupsOps, ImageBlockCoordinateIsReadAtItsWidth) {
    for (uint32_t op : {kOpImageBlockRead, kOpImageBlockWrite}) {
        auto wide = imageContext(op, 8, 32, 2, 4, 1, 16, 4, 4);
        auto narrow = imageContext(op, 8, 32, 2, 4, 1, 16, 4, 4);
        narrow->setOperand(1, scalarInt(16, 2));
        // x = 4, y = 1 as 16-bit components, then bytes that a 32-bit read would take in.
        narrow->setAll<uint8_t>(
            1, [](uint32_t) { return std::vector<uint8_t>{4, 0, 1, 0, 0xff, 0xff, 0xff, 0xff}; });
        auto in_range = imageContext(op, 8, 32, 2, 4, 1, 16, 4, 4);
        in_range->setOperand(1, scalarInt(64, 2));
        in_range->setAll<int64_t>(1, [](uint32_t) { return std::vector<int64_t>{4, 1}; });
        for (FakeContext* ctx : {wide.get(), narrow.get(), in_range.get()}) {
            op == kOpImageBlockRead ? executeImageBlockRead(*ctx) : executeImageBlockWrite(*ctx);
            ASSERT_TRUE(ctx->errors.empty()) << ctx->errors.front();
        }
        EXPECT_EQ(narrow->mem, wide->mem) << op;
        EXPECT_EQ(in_range->mem, wide->mem) << op;
        if (op == kOpImageBlockRead)
            for (uint32_t l = 0; l < 8; ++l)
                for (uint32_t j = 0; j < 2; ++j) {
                    EXPECT_EQ(narrow->out<uint32_t>(l, j), wide->out<uint32_t>(l, j)) << l << " " << j;
                    EXPECT_EQ(in_range->out<uint32_t>(l, j), wide->out<uint32_t>(l, j)) << l << " " << j;
                }
        const int64_t huge[][2] = {{(int64_t(1) << 32) + 4, 1},
                                   {4, (int64_t(1) << 32) + 1},
                                   {INT64_MIN, 0},
                                   {0, -(int64_t(1) << 40)}};
        for (const auto& xy : huge) {
            auto ctx = imageContext(op, 8, 32, 2, 4, 1, 16, 4, 4);
            const std::vector<uint8_t> before = ctx->mem;
            ctx->setOperand(1, scalarInt(64, 2));
            ctx->setAll<int64_t>(1, [&](uint32_t) { return std::vector<int64_t>{xy[0], xy[1]}; });
            op == kOpImageBlockRead ? executeImageBlockRead(*ctx) : executeImageBlockWrite(*ctx);
            ASSERT_EQ(ctx->errors.size(), 1u) << op << " (" << xy[0] << ", " << xy[1] << ")";
            EXPECT_NE(ctx->errors[0].find("outside the 32-bit range"), std::string::npos) << ctx->errors[0];
            EXPECT_EQ(ctx->mem, before);
        }
    }
}

TEST(SubgroupsOps, RegistrationCoversAllOpcodes) {
    ExtOpTable table;
    registerSubgroupsOps(table);
    for (uint32_t op = kOpShuffle; op <= kOpImageBlockWrite; ++op) {
        const ExtOpInfo* info = table.find(op);
        ASSERT_NE(info, nullptr) << op;
        EXPECT_NE(info->execute, nullptr);
    }
    EXPECT_FALSE(table.find(kOpBlockWrite)->has_result);
    EXPECT_FALSE(table.find(kOpImageBlockWrite)->has_result);
}

// Cross-check of the opcode and operand-count table against the SPIR-V grammar (skipped without it).
TEST(SubgroupsOps, RegistrationMatchesGrammar) {
    std::ifstream in(REFDEV_SPIRV_CORE_GRAMMAR);
    if (!in) GTEST_SKIP() << "no grammar at " << REFDEV_SPIRV_CORE_GRAMMAR;
    std::stringstream text;
    text << in.rdbuf();
    const std::string grammar = text.str();
    ExtOpTable table;
    registerSubgroupsOps(table);
    for (const ExtOpInfo& info : table.all()) {
        size_t at = grammar.find("\"opname\" : \"" + std::string(info.name) + "\"");
        ASSERT_NE(at, std::string::npos) << info.name;
        size_t end = grammar.find("\"version\"", at);
        std::string entry = grammar.substr(at, end - at);
        EXPECT_NE(entry.find("\"opcode\" : " + std::to_string(info.opcode)), std::string::npos) << info.name;
        // Operand entries after IdResultType / IdResult; optional ones ("quantifier" : "?", e.g. the Memory
        // Operands of OpSubgroupBlockPrefetchINTEL) are not required, and the op must take at least one of
        // each.
        size_t operands = 0;
        for (size_t p = entry.find("\"kind\""); p != std::string::npos; p = entry.find("\"kind\"", p + 1))
            ++operands;
        size_t optional = 0;
        for (size_t p = entry.find("\"?\""); p != std::string::npos; p = entry.find("\"?\"", p + 1))
            ++optional;
        size_t ids = (entry.find("IdResultType") != std::string::npos) +
                     (entry.find("\"IdResult\"") != std::string::npos);
        EXPECT_EQ(operands - ids - optional, info.min_operands) << info.name;
        EXPECT_GE(info.max_operands, operands - ids) << info.name;
        EXPECT_EQ(info.has_result, ids == 2) << info.name;
    }
}

TEST(SubgroupsOps, FaultListHasUniqueNames) {
    std::vector<FaultInfo> faults = subgroupsFaults();
    EXPECT_GE(faults.size(), 8u);
    std::set<std::string> names;
    for (const FaultInfo& f : faults) EXPECT_TRUE(names.insert(f.name).second) << f.name;
}

// Reads need only a 4-byte aligned Ptr: a driver taking the 16-byte path reads from the rounded-down address.
TEST(SubgroupsOps, BlockReadAlignmentFault) {
    auto ctx = blockReadContext(8, 8, 32, 1, FakeContext::kBase + 4);
    executeBlockRead(*ctx);
    ASSERT_TRUE(ctx->errors.empty());
    EXPECT_EQ(ctx->out<uint32_t>(0, 0), word(ctx->mem, 4));
    auto fault = blockReadContext(8, 8, 32, 1, FakeContext::kBase + 4);
    fault->setFaults("block_read_assumes_16b_alignment");
    executeBlockRead(*fault);
    EXPECT_EQ(fault->out<uint32_t>(0, 0), word(ctx->mem, 0));
}

// "the Coordinate is a byte coordinate"; "the second value is written to the row ... plus one"
TEST(SubgroupsOps, ImageBlockWriteCoordinateAndRowFaults) {
    // 16-bit data, 2 components, x = 4 bytes, y = 0, 16 texels of 4 bytes per row (pitch 64).
    auto ctx = imageContext(kOpImageBlockWrite, 8, 16, 2, 4, 0, 16, 4, 4);
    executeImageBlockWrite(*ctx);
    ASSERT_TRUE(ctx->errors.empty());
    EXPECT_EQ(ctx->mem[4], 0x80);       // lane 0, component 0, low byte at x = 4
    EXPECT_EQ(ctx->mem[64 + 4], 0x82);  // lane 0, component 1 in row 1
    auto x_fault = imageContext(kOpImageBlockWrite, 8, 16, 2, 4, 0, 16, 4, 4);
    const uint8_t untouched = x_fault->mem[4];
    x_fault->setFaults("image_block_write_x_in_elements");
    executeImageBlockWrite(*x_fault);
    EXPECT_EQ(x_fault->mem[4], untouched);  // the block starts at byte 8 instead
    EXPECT_EQ(x_fault->mem[8], 0x80);
    auto row_fault = imageContext(kOpImageBlockWrite, 8, 16, 2, 4, 0, 16, 4, 4);
    const uint8_t row1 = row_fault->mem[64 + 4];
    row_fault->setFaults("image_block_write_drops_last_row");
    executeImageBlockWrite(*row_fault);
    EXPECT_EQ(row_fault->mem[4], 0x80);
    EXPECT_EQ(row_fault->mem[64 + 4], row1);
}

// "read without format conversion": raw bits on a SNORM16 image; the fault returns -32768 as -32767.
TEST(SubgroupsOps, ImageBlockReadTexelConversionFault) {
    auto ctx = imageContext(kOpImageBlockRead, 8, 32, 1, 0, 0, 16, 4, 2);
    ctx->img.channel_type = CL_SNORM_INT16;
    ctx->mem[0] = 0x00, ctx->mem[1] = 0x80;  // texel 0: -32768
    executeImageBlockRead(*ctx);
    ASSERT_TRUE(ctx->errors.empty());
    EXPECT_EQ(ctx->out<uint32_t>(0, 0) & 0xffff, 0x8000u);
    auto fault = imageContext(kOpImageBlockRead, 8, 32, 1, 0, 0, 16, 4, 2);
    fault->img.channel_type = CL_SNORM_INT16;
    fault->mem[0] = 0x00, fault->mem[1] = 0x80;
    fault->setFaults("image_block_converts_texels");
    executeImageBlockRead(*fault);
    EXPECT_EQ(fault->out<uint32_t>(0, 0) & 0xffff, 0x8001u);
}

// An image from a buffer: rows row_pitch apart; the fault steps them by width * texel size.
TEST(SubgroupsOps, ImageFromBufferPitchFault) {
    for (const char* faults : {"", "image_from_buffer_pitch_ignored"}) {
        // 8 texels of 4 bytes per row at a pitch of 64 bytes (4 rows of 32 in 256 bytes of storage).
        auto ctx = imageContext(kOpImageBlockRead, 8, 32, 2, 0, 0, 16, 4, 4);
        ctx->img.width = 8, ctx->img.row_pitch = 64, ctx->img.from_buffer = true;
        ctx->setFaults(faults);
        executeImageBlockRead(*ctx);
        ASSERT_TRUE(ctx->errors.empty());
        const size_t pitch = *faults ? 32 : 64;
        EXPECT_EQ(ctx->out<uint32_t>(0, 1), word(ctx->mem, pitch)) << faults;  // lane 0, row 1
    }
}

}  // namespace
}  // namespace refdev::spirv::subgroups
