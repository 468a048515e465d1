// Tests of the "calls" rule set: a call to a function with a body passes; a call to a function declared
// without one (what a compiler leaves for a built-in it did not translate) is reported at the call.
#include <gtest/gtest.h>

#include <string>

#include "test_common/spirv/module_builder.h"
#include "test_common/spirv/rules.h"

namespace cts {
namespace {

using test::ModuleBuilder;

struct Built {
    std::vector<uint32_t> words;
    uint32_t call_offset = 0;
};

// A kernel calling one helper of type uint(uint); with_body false leaves the helper a declaration. A
// non-empty import_name decorates the helper LinkageAttributes <import_name> Import.
Built build(bool with_body, const std::string& import_name = "") {
    ModuleBuilder b;
    uint32_t void_t = b.newId(), u32 = b.newId(), kfn_t = b.newId(), hfn_t = b.newId(), helper = b.newId(),
             param = b.newId(), hlabel = b.newId(), kernel = b.newId(), label = b.newId(), one = b.newId(),
             result = b.newId();
    b.op(17, {4}).op(17, {6}).op(17, {5});  // Addresses, Kernel, Linkage
    b.op(14, {2, 2});                       // Physical64 OpenCL
    b.op(15, ModuleBuilder::cat({{6, kernel}, ModuleBuilder::str("test")}));
    b.op(5, ModuleBuilder::cat({{helper}, ModuleBuilder::str("intel_sub_group_shuffle")}));
    if (!import_name.empty())
        b.op(71, ModuleBuilder::cat({{helper, 41}, ModuleBuilder::str(import_name), {1}}));
    b.op(19, {void_t}).op(21, {u32, 32, 0}).op(33, {kfn_t, void_t}).op(33, {hfn_t, u32, u32});
    b.op(43, {u32, one, 1});
    b.op(54, {u32, helper, 0, hfn_t}).op(55, {u32, param});
    if (with_body) b.op(248, {hlabel}).op(254, {param});  // OpReturnValue
    b.op(56);
    b.op(54, {void_t, kernel, 0, kfn_t}).op(248, {label});
    Built out;
    out.call_offset = uint32_t(b.words().size());
    b.op(57, {u32, result, helper, one}).op(253).op(56);
    out.words = b.words();
    return out;
}

TEST(CallsRules, CallOfAFunctionWithABodyPasses) {
    EXPECT_TRUE(checkModule(SpirvModule::parse(build(true).words)).empty());
}

TEST(CallsRules, CallOfADeclarationIsReportedAtTheCall) {
    Built built = build(false);
    std::vector<Violation> v = checkModule(SpirvModule::parse(built.words));
    ASSERT_EQ(v.size(), 1u);
    EXPECT_EQ(v[0].rule, "call.declared_only");
    EXPECT_EQ(v[0].word_offset, built.call_offset);
    EXPECT_NE(v[0].message.find("intel_sub_group_shuffle"), std::string::npos) << v[0].message;
}

// llvm-spirv keeps the 2D block IO and matrix-mad built-ins as imports; drivers resolve them by name.
TEST(CallsRules, ImportedTwoDBlockAndMatrixMadBuiltinsPass) {
    for (const char* name : {"_Z41intel_sub_group_2d_block_read_16b_8r16x1cPU3AS1viiiDv2_iPt",
                             "_Z38intel_sub_group_f16_f16_matrix_mad_k16Dv8_sDv8_iDv8_f"})
        EXPECT_TRUE(checkModule(SpirvModule::parse(build(false, name).words)).empty()) << name;
}

// The sub-group, local block IO and media block IO built-ins reach drivers as imports from compilers that do
// not know their SPIR-V extensions.
TEST(CallsRules, ImportedSubgroupAndMediaBuiltinsPass) {
    for (const char* name :
         {"_Z23intel_sub_group_shufflejj", "_Z28intel_sub_group_shuffle_downDv4_jS_j",
          "_Z26intel_sub_group_shuffle_uptt", "_Z27intel_sub_group_shuffle_xorhj",
          "_Z27intel_sub_group_block_read4PU3AS1Kj", "_Z30intel_sub_group_block_read_us2PU3AS3Kt",
          "_Z31intel_sub_group_block_write_uc4PU3AS1hDv4_h",
          "_Z30intel_sub_group_block_read_ui414ocl_image2d_roDv2_i",
          "_Z36intel_sub_group_media_block_read_ui2Dv2_iii14ocl_image2d_ro",
          "_Z37intel_sub_group_media_block_write_uc4Dv2_iiiDv4_h14ocl_image2d_wo"})
        EXPECT_TRUE(checkModule(SpirvModule::parse(build(false, name).words)).empty()) << name;
}

// Any other import (another intel_sub_group_ function, a width no built-in has, an unmangled name, a name
// past its length) is still reported.
TEST(CallsRules, OtherImportsAreReported) {
    for (const char* name : {"_Z25intel_sub_group_broadcastjj", "_Z27intel_sub_group_block_read3PU3AS1Kj",
                             "_Z27intel_sub_group_shuffle_sumjj",
                             "_Z36intel_sub_group_media_block_read_ul2Dv2_iii14ocl_image2d_ro",
                             "_Z13get_global_idj", "intel_sub_group_2d_block_read_16b_8r16x1c",
                             "_Z99intel_sub_group_2d_block_read", "intel_sub_group_shuffle"})
        EXPECT_EQ(checkModule(SpirvModule::parse(build(false, name).words)).size(), 1u) << name;
}

}  // namespace
}  // namespace cts
