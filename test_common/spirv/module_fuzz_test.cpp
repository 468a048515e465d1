// Malformed input never crashes the parser or the rule sets: mutated modules either parse or raise
// SpirvParseError, and every registered rule set runs on whatever parses. (Run under ASan in CI.)
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "test_common/spirv/module_builder.h"
#include "test_common/spirv/rules.h"

namespace cts {
namespace {

using test::ModuleBuilder;

// A kernel that touches every opcode the rule sets look at, so mutations reach their operand decoding.
std::vector<uint32_t> seedModule() {
    ModuleBuilder b;
    uint32_t void_t = b.newId(), fn_t = b.newId(), fn = b.newId(), label = b.newId(), u32 = b.newId(),
             v2 = b.newId(), gptr = b.newId(), fptr = b.newId(), c = b.newId(), coord = b.newId(),
             var = b.newId(), r = b.newId();
    for (uint32_t cap : {4u, 6u, 58u, 5568u, 5569u, 5570u, 5579u, 6228u, 6229u, 6230u, 6236u})
        b.op(17, {cap});
    b.op(10, ModuleBuilder::str("SPV_INTEL_subgroups"));
    b.op(10, ModuleBuilder::str("SPV_INTEL_2d_block_io"));
    b.op(14, {2, 2});
    b.op(15, ModuleBuilder::cat({{6, fn}, ModuleBuilder::str("test")}));
    b.op(16, {fn, 35, 16});
    b.op(19, {void_t}).op(33, {fn_t, void_t}).op(21, {u32, 32, 0}).op(23, {v2, u32, 2});
    b.op(32, {gptr, 5, u32}).op(32, {fptr, 7, u32}).op(43, {u32, c, 16}).op(44, {v2, coord, c, c});
    b.op(54, {void_t, fn, 0, fn_t}).op(248, {label}).op(59, {fptr, var, 7});
    for (uint16_t op : {6231, 6232, 6233, 6235}) b.op(op, {c, c, c, c, var, c, c, c, coord, var});
    b.op(6234, {c, c, c, c, var, c, c, c, coord});
    b.op(5571, {u32, r, c, c});
    b.op(6237, {v2, b.newId(), c, coord, coord, coord, 0x3});
    b.op(253).op(56);
    return b.words();
}

TEST(SpirvModuleFuzz, MutatedModulesParseOrFailCleanly) {
    const std::vector<uint32_t> seed = seedModule();
    ASSERT_NO_THROW(checkModule(SpirvModule::parse(seed)));
    std::mt19937 rng(12345);
    int parsed = 0, rejected = 0;
    for (int iteration = 0; iteration < 4000; ++iteration) {
        std::vector<uint32_t> w = seed;
        int edits = 1 + static_cast<int>(rng() % 4);
        for (int e = 0; e < edits; ++e) {
            size_t at = rng() % w.size();
            switch (rng() % 5) {
                case 0: w[at] = rng(); break;                          // random word
                case 1: w[at] ^= 1u << (rng() % 32); break;            // bit flip
                case 2: w[at] = (w[at] & 0xffff) | (rng() % 8) << 16;  // small word count
                case 3: w.resize(std::max<size_t>(1, at)); break;      // truncate
                default: w[at] = rng() % 64; break;                    // small value (ids, enums)
            }
        }
        try {
            SpirvModule m = SpirvModule::parse(w);
            ++parsed;
            try {
                checkModule(m);
            } catch (const std::out_of_range&) {
                // An accessor's bounds check: a clean error, not a crash.
            }
        } catch (const SpirvParseError&) {
            ++rejected;
        }
    }
    EXPECT_GT(parsed, 0);
    EXPECT_GT(rejected, 0);
}

}  // namespace
}  // namespace cts
