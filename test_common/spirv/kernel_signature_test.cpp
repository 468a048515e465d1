// Kernel signatures read from a module: names from OpName, types from the parameter types.
#include "test_common/spirv/kernel_signature.h"

#include <gtest/gtest.h>

#include "test_common/spirv/module.h"
#include "test_common/spirv/module_builder.h"

namespace cts {
namespace {

using test::ModuleBuilder;

// A Kernel entry point test(out: global_buffer, n: uint, <unnamed>: image2d_ro, tmp: local_buffer).
std::vector<uint32_t> kernelModule() {
    ModuleBuilder b;
    const uint32_t void_t = b.newId(), uint_t = b.newId(), ptr_cw = b.newId(), ptr_wg = b.newId(),
                   image = b.newId(), fn_t = b.newId(), fn = b.newId(), out = b.newId(), n = b.newId(),
                   img = b.newId(), tmp = b.newId(), label = b.newId();
    b.op(17, {4}).op(17, {6});  // OpCapability Addresses, Kernel
    b.op(14, {2, 2});           // OpMemoryModel Physical64 OpenCL
    b.op(15, ModuleBuilder::cat({{6, fn}, ModuleBuilder::str("test")}));
    b.op(5, ModuleBuilder::cat({{out}, ModuleBuilder::str("out")}));
    b.op(5, ModuleBuilder::cat({{n}, ModuleBuilder::str("n")}));
    b.op(5, ModuleBuilder::cat({{tmp}, ModuleBuilder::str("tmp")}));
    b.op(19, {void_t}).op(21, {uint_t, 32, 0}).op(32, {ptr_cw, 5, uint_t}).op(32, {ptr_wg, 4, uint_t});
    b.op(25, {image, void_t, 1, 0, 0, 0, 0, 0, 0});  // 2D, ReadOnly
    b.op(33, {fn_t, void_t, ptr_cw, uint_t, image, ptr_wg});
    b.op(54, {void_t, fn, 0, fn_t});
    b.op(55, {ptr_cw, out}).op(55, {uint_t, n}).op(55, {image, img}).op(55, {ptr_wg, tmp});
    b.op(248, {label}).op(253).op(56);
    return b.words();
}

TEST(KernelSignature, NamesFromOpNameAndTypesFromTheParameters) {
    ModuleSignature sig = moduleSignature(SpirvModule::parse(kernelModule()));
    ASSERT_EQ(sig.size(), 1u);
    KernelSignature want = {
        {"out", "global_buffer"}, {"n", "uint"}, {"", "image2d_ro"}, {"tmp", "local_buffer"}};
    EXPECT_EQ(sig.at("test"), want);
    EXPECT_EQ(describeSignature(want),
              "(out: global_buffer, n: uint, <no OpName>: image2d_ro, tmp: local_buffer)");
}

TEST(KernelSignature, MismatchNamesTheKernelAndBothLists) {
    ModuleSignature module = {{"test", {{"out", "global_buffer"}, {"n", "uint"}}}};
    EXPECT_EQ(signatureMismatch(module, module), "");
    ModuleSignature renamed = {{"test", {{"out", "global_buffer"}, {"count", "uint"}}}};
    EXPECT_EQ(signatureMismatch(renamed, module),
              "kernel test: the manifest lists (out: global_buffer, count: uint), the module has (out: "
              "global_buffer, n: uint)");
    ModuleSignature retyped = {{"test", {{"out", "global_buffer"}, {"n", "ulong"}}}};
    EXPECT_NE(signatureMismatch(retyped, module).find("n: ulong"), std::string::npos);
    ModuleSignature shorter = {{"test", {{"out", "global_buffer"}}}};
    EXPECT_NE(signatureMismatch(shorter, module), "");
    ModuleSignature other_kernel = {{"main", module.at("test")}};
    EXPECT_EQ(signatureMismatch(other_kernel, module),
              "the manifest lists kernel main, the module has no such entry point");
    // A parameter without an OpName (frozen compiler output) takes the manifest's name, not another type.
    ModuleSignature unnamed = {{"test", {{"", "global_buffer"}, {"", "uint"}}}};
    EXPECT_EQ(signatureMismatch(module, unnamed), "");
    EXPECT_NE(signatureMismatch(retyped, unnamed), "");
    ModuleSignature more = {{"test", module.at("test")}, {"second", {}}};
    EXPECT_EQ(signatureMismatch(module, more),
              "the module has kernel second, which the manifest does not list");
}

// Two kernels: "wide" requires sub-group size 32 (OpExecutionMode SubgroupSize), "free" requires none; a
// LocalSize mode on "free" is not a sub-group size.
TEST(KernelSignature, RequiredSubGroupSizesFromTheSubgroupSizeMode) {
    ModuleBuilder b;
    const uint32_t void_t = b.newId(), fn_t = b.newId(), wide = b.newId(), free_fn = b.newId(),
                   l1 = b.newId(), l2 = b.newId();
    b.op(17, {4}).op(17, {6}).op(17, {58});  // OpCapability Addresses, Kernel, SubgroupDispatch
    b.op(14, {2, 2});
    b.op(15, ModuleBuilder::cat({{6, wide}, ModuleBuilder::str("wide")}));
    b.op(15, ModuleBuilder::cat({{6, free_fn}, ModuleBuilder::str("free")}));
    b.op(16, {wide, 35, 32});           // SubgroupSize 32
    b.op(16, {free_fn, 17, 64, 1, 1});  // LocalSize 64 1 1
    b.op(19, {void_t}).op(33, {fn_t, void_t});
    b.op(54, {void_t, wide, 0, fn_t}).op(248, {l1}).op(253).op(56);
    b.op(54, {void_t, free_fn, 0, fn_t}).op(248, {l2}).op(253).op(56);
    std::map<std::string, uint32_t> sizes = requiredSubGroupSizes(SpirvModule::parse(b.words()));
    EXPECT_EQ(sizes, (std::map<std::string, uint32_t>{{"wide", 32}}));
}

}  // namespace
}  // namespace cts
