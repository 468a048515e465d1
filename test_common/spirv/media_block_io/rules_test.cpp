// Tests of the "media_block_io" rule set: a clean read and write module passes; each broken rule is reported
// once, with the rule id and the instruction's offset. The capability and extension are the core rule set's
// (rules_core.cpp): their negative modules assert the core ids.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_common/spirv/media_block_io/rules.h"
#include "test_common/spirv/module_builder.h"
#include "test_common/spirv/spirv_headers.h"

namespace cts {
namespace {

using test::ModuleBuilder;

constexpr uint16_t kOpSpecConstant = 50;

// The parts of one media block instruction that the tests vary.
struct Parts {
    uint16_t opcode = spv::OpSubgroupImageMediaBlockReadINTEL;
    uint32_t width = 8, height = 4;
    int non_constant = -1;       // 0: Width, 1: Height given as a function parameter instead of a constant
    bool spec_constant = false;  // Width as OpSpecConstant
    uint32_t size_bits = 32;     // width of the Width / Height constants' type
    bool image_is_int = false;   // Image operand of integer type instead of OpTypeImage
    uint32_t sampled = 0;        // OpTypeImage Sampled operand
    uint32_t coord_components = 2;
    bool coord_scalar = false, coord_float = false;
    bool data_float = false;  // Result Type / Data a float vector
    uint32_t data_components = 4;
    bool with_capability = true, with_extension = true;
    int drop_operand = -1;  // remove this operand (operand-count check)
};

struct Built {
    std::vector<uint32_t> words;
    uint32_t offset = 0;  // word offset of the media block instruction
};

Built build(const Parts& p) {
    ModuleBuilder b;
    uint32_t void_t = b.newId(), i32 = b.newId(), i64 = b.newId(), i16 = b.newId(), f32 = b.newId(),
             img_t = b.newId(), coord_t = b.newId(), data_t = b.newId(), fn_t = b.newId(), fn = b.newId(),
             label = b.newId(), image = b.newId(), coord = b.newId(), data = b.newId(), param = b.newId(),
             width = b.newId(), height = b.newId(), result = b.newId();
    uint32_t size_t_id = p.size_bits == 32 ? i32 : i64;
    b.op(17, {spv::CapabilityAddresses}).op(17, {spv::CapabilityKernel}).op(17, {13});  // ImageBasic
    b.op(17, {11}).op(17, {22});                                                        // Int64, Int16
    if (p.with_capability) b.op(17, {spv::CapabilitySubgroupImageMediaBlockIOINTEL});
    if (p.with_extension) b.op(10, ModuleBuilder::str("SPV_INTEL_media_block_io"));
    b.op(14, {spv::AddressingModelPhysical64, spv::MemoryModelOpenCL});
    b.op(15, ModuleBuilder::cat({{6, fn}, ModuleBuilder::str("test")}));
    b.op(19, {void_t}).op(21, {i32, 32, 0}).op(21, {i64, 64, 0}).op(21, {i16, 16, 0}).op(22, {f32, 32});
    // OpTypeImage: Sampled Type, Dim 2D, Depth, Arrayed, MS, Sampled, Format Unknown, access.
    bool write = p.opcode == spv::OpSubgroupImageMediaBlockWriteINTEL;
    b.op(25, {img_t, void_t, 1, 0, 0, 0, p.sampled, 0, write ? 1u : 0u});
    if (p.image_is_int) img_t = i32;
    uint32_t coord_elem = p.coord_float ? f32 : i32;
    if (p.coord_scalar)
        coord_t = coord_elem;
    else
        b.op(23, {coord_t, coord_elem, p.coord_components});
    uint32_t data_elem = p.data_float ? f32 : i16;
    if (p.data_components == 1)
        data_t = data_elem;
    else
        b.op(23, {data_t, data_elem, p.data_components});
    uint32_t values[2] = {p.width, p.height}, ids[2] = {width, height};
    for (int k = 0; k < 2; ++k) {
        if (k == p.non_constant) continue;
        uint16_t opcode = k == 0 && p.spec_constant ? kOpSpecConstant : 43;
        if (size_t_id == i64)
            b.op(opcode, {size_t_id, ids[k], values[k], 0});
        else
            b.op(opcode, {size_t_id, ids[k], values[k]});
    }
    b.op(33, {fn_t, void_t, img_t, coord_t, data_t, i32});
    b.op(54, {void_t, fn, 0, fn_t});
    b.op(55, {img_t, image}).op(55, {coord_t, coord}).op(55, {data_t, data}).op(55, {i32, param});
    b.op(248, {label});
    if (p.non_constant >= 0) ids[p.non_constant] = param;
    std::vector<uint32_t> ops = {image, coord, ids[0], ids[1]};
    if (write) ops.push_back(data);
    if (p.drop_operand >= 0) ops.erase(ops.begin() + p.drop_operand);
    if (!write) ops.insert(ops.begin(), {data_t, result});
    Built out;
    out.words = b.words();
    out.offset = uint32_t(out.words.size());  // the next instruction
    b.op(p.opcode, ops);
    b.op(253).op(56);
    out.words = b.words();
    return out;
}

std::vector<std::string> broken(const Parts& p) {
    std::vector<Violation> v;
    Built m = build(p);
    checkMediaBlockIoRules(SpirvModule::parse(m.words), v);
    std::vector<std::string> rules;
    for (const auto& x : v) {
        EXPECT_EQ(x.word_offset, m.offset) << x.rule << ": " << x.message;
        rules.push_back(x.rule);
    }
    return rules;
}

using Rules = std::vector<std::string>;

const uint16_t kAllOps[] = {spv::OpSubgroupImageMediaBlockReadINTEL,
                            spv::OpSubgroupImageMediaBlockWriteINTEL};

Parts clean(uint16_t opcode) {
    Parts p;
    p.opcode = opcode;
    return p;
}

TEST(MediaBlockIoRules, RuleSetIsRegistered) {
    auto sets = ruleSets();
    EXPECT_TRUE(
        std::any_of(sets.begin(), sets.end(), [](const auto& s) { return s.first == "media_block_io"; }));
}

TEST(MediaBlockIoRules, CleanModulesPass) {
    for (uint16_t op : kAllOps) {
        EXPECT_EQ(broken(clean(op)), Rules{}) << op;
        // The whole checker (core rules included) accepts it too.
        EXPECT_TRUE(checkModule(SpirvModule::parse(build(clean(op)).words)).empty()) << op;
        Parts scalar = clean(op);
        scalar.data_components = 1;
        EXPECT_EQ(broken(scalar), Rules{}) << op;
        Parts read_write = clean(op);
        read_write.sampled = 2;
        EXPECT_EQ(broken(read_write), Rules{}) << op;
    }
}

TEST(MediaBlockIoRules, OperandCount) {
    for (uint16_t op : kAllOps) {
        Parts p = clean(op);
        p.drop_operand = 3;
        EXPECT_EQ(broken(p), Rules{"media_block_io.operand_count"}) << op;
    }
}

// OpenCL environment: width and height are compile-time constants.
TEST(MediaBlockIoRules, WidthAndHeightAre32BitConstants) {
    for (uint16_t op : kAllOps)
        for (int k = 0; k < 2; ++k) {
            Parts p = clean(op);
            p.non_constant = k;
            EXPECT_EQ(broken(p), Rules{"media_block_io.size_operand_constant_i32"}) << op << " operand " << k;
        }
    Parts wide = clean(spv::OpSubgroupImageMediaBlockReadINTEL);
    wide.size_bits = 64;
    EXPECT_EQ(broken(wide), Rules(2, "media_block_io.size_operand_constant_i32"));
    Parts spec = clean(spv::OpSubgroupImageMediaBlockWriteINTEL);
    spec.spec_constant = true;
    EXPECT_EQ(broken(spec), Rules{"media_block_io.size_operand_constant_i32"});
}

// "Image must be an object whose type is OpTypeImage with a Sampled operand of 0 or 2."
TEST(MediaBlockIoRules, ImageType) {
    for (uint16_t op : kAllOps) {
        Parts p = clean(op);
        p.image_is_int = true;
        EXPECT_EQ(broken(p), Rules{"media_block_io.image_type"}) << op;
        Parts sampled = clean(op);
        sampled.sampled = 1;
        EXPECT_EQ(broken(sampled), Rules{"media_block_io.image_sampled"}) << op;
    }
}

// "The Coordinate ... must be a vector of integer type" (two components for a 2D image).
TEST(MediaBlockIoRules, Coordinate) {
    for (uint16_t op : kAllOps) {
        Parts scalar = clean(op);
        scalar.coord_scalar = true;
        EXPECT_EQ(broken(scalar), Rules{"media_block_io.coordinate_vector"}) << op;
        Parts floats = clean(op);
        floats.coord_float = true;
        EXPECT_EQ(broken(floats), Rules{"media_block_io.coordinate_vector"}) << op;
        Parts three = clean(op);
        three.coord_components = 3;
        EXPECT_EQ(broken(three), Rules{"media_block_io.coordinate_components"}) << op;
    }
}

// Result Type / Data: a scalar or vector of integers.
TEST(MediaBlockIoRules, ResultAndDataTypes) {
    Parts read = clean(spv::OpSubgroupImageMediaBlockReadINTEL);
    read.data_float = true;
    EXPECT_EQ(broken(read), Rules{"media_block_io.result_type_integer"});
    read.data_components = 1;
    EXPECT_EQ(broken(read), Rules{"media_block_io.result_type_integer"});
    Parts write = clean(spv::OpSubgroupImageMediaBlockWriteINTEL);
    write.data_float = true;
    EXPECT_EQ(broken(write), Rules{"media_block_io.data_type_integer"});
}

// The capability and the extension are checked by the core rule set for both opcodes.
TEST(MediaBlockIoRules, CoreRulesRequireCapabilityAndExtension) {
    auto core = [](const Parts& p) {
        Built m = build(p);
        std::vector<std::pair<std::string, uint32_t>> v;
        for (const auto& x : checkModule(SpirvModule::parse(m.words))) v.emplace_back(x.rule, x.word_offset);
        return std::make_pair(v, m.offset);
    };
    for (uint16_t op : kAllOps) {
        Parts no_cap = clean(op);
        no_cap.with_capability = false;
        auto [v, offset] = core(no_cap);
        EXPECT_EQ(v, (std::vector<std::pair<std::string, uint32_t>>{{"core.opcode_capability", offset}}))
            << op;

        Parts no_ext = clean(op);
        no_ext.with_extension = false;
        auto [w, at] = core(no_ext);
        ASSERT_EQ(w.size(), 2u) << op;
        EXPECT_EQ(w[1], std::make_pair(std::string("core.opcode_extension"), at)) << op;
        EXPECT_EQ(w[0].first, "core.capability_extension") << op;  // at the OpCapability, earlier
        EXPECT_LT(w[0].second, at);
    }
}

TEST(MediaBlockIoRules, ViolationCitesRuleAndInstruction) {
    Parts p = clean(spv::OpSubgroupImageMediaBlockWriteINTEL);
    p.sampled = 1;
    SpirvModule m = SpirvModule::parse(build(p).words);
    std::vector<Violation> v;
    checkMediaBlockIoRules(m, v);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_NE(v[0].message.find("Sampled operand of 0 or 2"), std::string::npos) << v[0].message;
    EXPECT_NE(v[0].message.find("OpSubgroupImageMediaBlockWriteINTEL"), std::string::npos);
    auto it = std::find_if(m.instructions().begin(), m.instructions().end(),
                           [&](const SpirvInstruction& i) { return i.offset == v[0].word_offset; });
    ASSERT_NE(it, m.instructions().end());
    EXPECT_EQ(it->opcode, spv::OpSubgroupImageMediaBlockWriteINTEL);
}

}  // namespace
}  // namespace cts
