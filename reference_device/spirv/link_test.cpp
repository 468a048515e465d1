// linkModules (link.cpp): imports resolved against exports of another module, ids renumbered (literals left
// alone), OpenCL.std imports merged, and the link errors.
#include <gtest/gtest.h>

#include "reference_device/spirv/test_util.h"

namespace refdev::spirv::test {
namespace {

// The start of every module here: Kernel on Physical64 with Linkage and one more capability; with_std
// imports OpenCL.std as %std.
std::string moduleStart(const std::string& capability, bool with_std) {
    return "OpCapability Addresses\nOpCapability Kernel\nOpCapability " + capability +
           "\nOpCapability Linkage\n" + (with_std ? "%std = OpExtInstImport \"OpenCL.std\"\n" : "") +
           "OpMemoryModel Physical64 OpenCL\n";
}

// Module 2: scale(x) = x * 3 with OpenCL.std's u_min against 1000, and a switch on a 64-bit selector whose
// case literal (2^32 + 5) must stay as written when the ids are renumbered.
const std::string kExporter = moduleStart("Int64", true) + R"(
               OpDecorate %scale LinkageAttributes "scale" Export
               OpDecorate %pick LinkageAttributes "pick" Export
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %fn_uint = OpTypeFunction %uint %uint
   %fn_ulong = OpTypeFunction %uint %ulong
     %uint_3 = OpConstant %uint 3
  %uint_1000 = OpConstant %uint 1000
     %uint_7 = OpConstant %uint 7
     %uint_9 = OpConstant %uint 9
      %scale = OpFunction %uint None %fn_uint
          %x = OpFunctionParameter %uint
          %e = OpLabel
          %m = OpIMul %uint %x %uint_3
          %r = OpExtInst %uint %std u_min %m %uint_1000
               OpReturnValue %r
               OpFunctionEnd
       %pick = OpFunction %uint None %fn_ulong
          %s = OpFunctionParameter %ulong
         %e2 = OpLabel
               OpSelectionMerge %done None
               OpSwitch %s %other 4294967301 %five
       %five = OpLabel
               OpReturnValue %uint_7
      %other = OpLabel
               OpReturnValue %uint_9
       %done = OpLabel
               OpUnreachable
               OpFunctionEnd
)";

// Module 1: k(out) stores scale(gid), pick(2^32 + 5) and u_max(gid, 2) (its own OpenCL.std import). The
// global id is imported by name as llvm-spirv emits it: a built-in variable no module exports.
const std::string kImporter = moduleStart("Int64", true) + R"(
               OpEntryPoint Kernel %k "k" %gid
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid LinkageAttributes "__spirv_GlobalInvocationId" Import
               OpDecorate %scale LinkageAttributes "scale" Import
               OpDecorate %pick LinkageAttributes "pick" Import
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
     %p_in = OpTypePointer Input %v3ulong
      %p_out = OpTypePointer CrossWorkgroup %uint
    %fn_uint = OpTypeFunction %uint %uint
   %fn_ulong = OpTypeFunction %uint %ulong
       %fn_k = OpTypeFunction %void %p_out
     %uint_2 = OpConstant %uint 2
    %ulong_1 = OpConstant %ulong 1
    %ulong_2 = OpConstant %ulong 2
    %ulong_c = OpConstant %ulong 4294967301
        %gid = OpVariable %p_in Input
      %scale = OpFunction %uint None %fn_uint
         %px = OpFunctionParameter %uint
               OpFunctionEnd
       %pick = OpFunction %uint None %fn_ulong
         %ps = OpFunctionParameter %ulong
               OpFunctionEnd
          %k = OpFunction %void None %fn_k
        %out = OpFunctionParameter %p_out
      %entry = OpLabel
         %g3 = OpLoad %v3ulong %gid
          %g = OpCompositeExtract %ulong %g3 0
         %gu = OpUConvert %uint %g
         %s1 = OpFunctionCall %uint %scale %gu
               OpStore %out %s1 Aligned 4
         %s2 = OpFunctionCall %uint %pick %ulong_c
         %a1 = OpInBoundsPtrAccessChain %p_out %out %ulong_1
               OpStore %a1 %s2 Aligned 4
         %s3 = OpExtInst %uint %std u_max %gu %uint_2
         %a2 = OpInBoundsPtrAccessChain %p_out %out %ulong_2
               OpStore %a2 %s3 Aligned 4
               OpReturn
               OpFunctionEnd
)";

// Assembled for SPIR-V 1.2, the newest the OpenCL 2.2 environment of spirv-val takes.
std::vector<uint32_t> assemble12(const std::string& text) {
    return assembleWith(std::string(REFDEV_SPIRV_AS) + " --target-env spv1.2", text);
}

// spirv-val's verdict on a linked module for OpenCL 2.2: "" when valid, else its message.
std::string validate(const std::vector<uint32_t>& words) {
    char path[] = "/tmp/refdev_link_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return "mkstemp failed";
    FILE* f = fdopen(fd, "wb");
    fwrite(words.data(), 4, words.size(), f);
    fclose(f);
    const std::string cmd = std::string(REFDEV_SPIRV_VAL) + " --target-env opencl2.2 " + path + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    std::string msg;
    char buf[256];
    while (p && fgets(buf, sizeof buf, p)) msg += buf;
    const int rc = p ? pclose(p) : -1;
    std::remove(path);
    return rc == 0 ? "" : msg.empty() ? "spirv-val failed" : msg;
}

// Builds a linked module and runs its kernel k(out) once; returns out's `words` words.
std::vector<uint32_t> runK(const std::vector<uint32_t>& linked, size_t words) {
    std::vector<uint32_t> out(words, 0);
    auto m = build(linked);
    if (!m) return {};
    LaunchResult r = run(*m, "k", {buffer(out)}, range1(1, 1));
    EXPECT_TRUE(r.ok) << r.error;
    return out;
}

size_t countOpcode(const std::vector<uint32_t>& w, spv::Op op) {
    size_t n = 0;
    for (size_t pos = 5; pos < w.size() && (w[pos] >> 16); pos += w[pos] >> 16)
        n += (w[pos] & 0xffff) == token(op);
    return n;
}

TEST(Link, ImportsResolveAcrossModulesAndRun) {
    LinkResult r = linkModules({assemble(kImporter), assemble(kExporter)}, false);
    ASSERT_FALSE(r.words.empty()) << r.log;
    EXPECT_EQ(runK(r.words, 3), (std::vector<uint32_t>{0, 7, 2}));
}

TEST(Link, AloneTheImporterDoesNotBuild) {
    const std::vector<uint32_t> importer = assemble(kImporter);
    BuildResult b = buildModule(importer.data(), importer.size(), testProfile());
    EXPECT_FALSE(b.module);
    LinkResult r = linkModules({assemble(kImporter)}, false);
    EXPECT_TRUE(r.words.empty());
    EXPECT_NE(r.log.find("unresolved import \"scale\" (function of module 1)"), std::string::npos) << r.log;
    EXPECT_NE(r.log.find("unresolved import \"pick\""), std::string::npos) << r.log;
    EXPECT_EQ(r.log.find("__spirv_GlobalInvocationId"), std::string::npos)
        << "a built-in variable: " << r.log;
    // A library keeps the imports for a later link.
    LinkResult lib = linkModules({assemble(kImporter)}, true);
    EXPECT_FALSE(lib.words.empty()) << lib.log;
    LinkResult again = linkModules({lib.words, assemble(kExporter)}, false);
    ASSERT_FALSE(again.words.empty()) << again.log;
    EXPECT_TRUE(build(again.words));
}

TEST(Link, TwoExportsOfOneNameFail) {
    LinkResult r = linkModules({assemble(kImporter), assemble(kExporter), assemble(kExporter)}, false);
    EXPECT_TRUE(r.words.empty());
    EXPECT_NE(r.log.find("\"scale\" is defined (exported) by module 2 and by module 3"), std::string::npos)
        << r.log;
}

TEST(Link, ParameterCountMustMatch) {
    std::string exporter = kExporter;
    // scale takes two parameters in this variant.
    exporter.replace(exporter.find("%fn_uint = OpTypeFunction %uint %uint"),
                     std::string("%fn_uint = OpTypeFunction %uint %uint").size(),
                     "%fn_uint = OpTypeFunction %uint %uint %uint");
    exporter.replace(exporter.find("%x = OpFunctionParameter %uint"),
                     std::string("%x = OpFunctionParameter %uint").size(),
                     "%x = OpFunctionParameter %uint\n%y = OpFunctionParameter %uint");
    LinkResult r = linkModules({assemble(kImporter), assemble(exporter)}, false);
    EXPECT_TRUE(r.words.empty());
    EXPECT_NE(r.log.find("import \"scale\" of module 1 has 1 parameters, its export in module 2 2"),
              std::string::npos)
        << r.log;
}

TEST(Link, BuiltinImportsAreLeftForTheBuild) {
    EXPECT_TRUE(isImportedBuiltin("_Z23intel_sub_group_shuffleij"));
    EXPECT_FALSE(isImportedBuiltin("scale"));
}

TEST(Link, MalformedInputIsAnError) {
    LinkResult r = linkModules({{0x07230203u, 0x00010200u, 0, 10, 0, 0x00050000u}}, false);
    EXPECT_TRUE(r.words.empty());
    EXPECT_NE(r.log.find("module 1: instruction at word 5 has a bad word count"), std::string::npos) << r.log;
    EXPECT_FALSE(linkModules({{1, 2, 3}}, false).log.empty());
    EXPECT_FALSE(linkModules({}, false).log.empty());
}

// Both modules declare uint, ulong, the two function types and uint constants: the linked module has each
// once, so spirv-val accepts it (it refuses two declarations of one non-aggregate type).
TEST(Link, IdenticalTypesAndConstantsAreDeclaredOnce) {
    LinkResult r = linkModules({assemble12(kImporter), assemble12(kExporter)}, false);
    ASSERT_FALSE(r.words.empty()) << r.log;
    EXPECT_EQ(validate(r.words), "");
    EXPECT_EQ(countOpcode(r.words, spv::Op::OpTypeInt), 2u);
    EXPECT_EQ(countOpcode(r.words, spv::Op::OpTypeFunction), 3u);  // uint(uint), uint(ulong), void(uint*)
    EXPECT_EQ(runK(r.words, 3), (std::vector<uint32_t>{0, 7, 2}));
}

// What both modules of the decoration cases declare, each its own copy for the link to merge: the struct
// {uchar, uint}, a Function pointer to it and sum's type. "; DECORATIONS", at the end of each module's
// annotations, is replaced by each case's decorations of %s and %const_2.
const char* kStructTypes = R"(
; DECORATIONS
      %uchar = OpTypeInt 8 0
       %uint = OpTypeInt 32 0
          %s = OpTypeStruct %uchar %uint
        %p_s = OpTypePointer Function %s
     %fn_sum = OpTypeFunction %uint %p_s
)";

// Module 1 of the decoration cases: k(out) stores sum(&s) of a Function-scope struct {uchar, uint} = {1, 2};
// sum is module 2's.
const std::string kStructUser = moduleStart("Int8", false) + R"(
               OpEntryPoint Kernel %k "k"
               OpDecorate %sum LinkageAttributes "sum" Import
)" + kStructTypes + R"(
       %void = OpTypeVoid
      %p_out = OpTypePointer CrossWorkgroup %uint
       %fn_k = OpTypeFunction %void %p_out
    %uchar_1 = OpConstant %uchar 1
    %const_2 = OpConstant %uint 2
         %sv = OpConstantComposite %s %uchar_1 %const_2
        %sum = OpFunction %uint None %fn_sum
          %x = OpFunctionParameter %p_s
               OpFunctionEnd
          %k = OpFunction %void None %fn_k
        %out = OpFunctionParameter %p_out
      %entry = OpLabel
        %var = OpVariable %p_s Function %sv
          %r = OpFunctionCall %uint %sum %var
               OpStore %out %r Aligned 4
               OpReturn
               OpFunctionEnd
)";

// Module 2: sum(p) = p->a + p->b + 2 with its own declarations of the struct and the constant 2.
const std::string kStructSum = moduleStart("Int8", false) + R"(
               OpDecorate %sum LinkageAttributes "sum" Export
)" + kStructTypes + R"(
   %p_uchar = OpTypePointer Function %uchar
    %p_uint = OpTypePointer Function %uint
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
    %const_2 = OpConstant %uint 2
        %sum = OpFunction %uint None %fn_sum
          %p = OpFunctionParameter %p_s
          %e = OpLabel
         %pa = OpInBoundsAccessChain %p_uchar %p %uint_0
         %pb = OpInBoundsAccessChain %p_uint %p %uint_1
          %a = OpLoad %uchar %pa Aligned 1
          %b = OpLoad %uint %pb Aligned 4
         %aw = OpUConvert %uint %a
          %t = OpIAdd %uint %aw %b
          %u = OpIAdd %uint %t %const_2
               OpReturnValue %u
               OpFunctionEnd
)";

std::vector<uint32_t> decorated(const std::string& text, const std::string& decorations) {
    std::string s = text;
    s.replace(s.find("; DECORATIONS"), std::string("; DECORATIONS").size(), decorations);
    return assemble12(s);
}

// A constant is merged only with one of the same decorations; the linked module stays valid either way.
TEST(Link, ConstantsWithOtherDecorationsStayApart) {
    for (bool same : {true, false}) {
        SCOPED_TRACE(same ? "same decorations" : "different decorations");
        LinkResult r = linkModules({decorated(kStructUser, "OpDecorate %const_2 Alignment 4"),
                                    decorated(kStructSum, same ? "OpDecorate %const_2 Alignment 4"
                                                               : "OpDecorate %const_2 Alignment 8")},
                                   false);
        ASSERT_FALSE(r.words.empty()) << r.log;
        EXPECT_EQ(validate(r.words), "");
        // uchar 1, uint 0, uint 1 and uint 2, twice when the decorations differ
        EXPECT_EQ(countOpcode(r.words, spv::Op::OpConstant), same ? 4u : 5u);
        EXPECT_EQ(countOpcode(r.words, spv::Op::OpTypeStruct), 1u);
        // the Export's LinkageAttributes and one Alignment per constant 2 kept
        EXPECT_EQ(countOpcode(r.words, spv::Op::OpDecorate), same ? 2u : 3u);
        EXPECT_EQ(runK(r.words, 1), std::vector<uint32_t>{5});
    }
}

// Two CPacked declarations of the struct are one type, with one CPacked: the packed layout both sides use.
TEST(Link, DecoratedStructsWithTheSameDecorationsAreOne) {
    LinkResult r = linkModules(
        {decorated(kStructUser, "OpDecorate %s CPacked"), decorated(kStructSum, "OpDecorate %s CPacked")},
        false);
    ASSERT_FALSE(r.words.empty()) << r.log;
    EXPECT_EQ(validate(r.words), "");
    EXPECT_EQ(countOpcode(r.words, spv::Op::OpTypeStruct), 1u);
    EXPECT_EQ(countOpcode(r.words, spv::Op::OpDecorate), 2u);  // CPacked, LinkageAttributes
    EXPECT_EQ(runK(r.words, 1), std::vector<uint32_t>{5});
}

}  // namespace
}  // namespace refdev::spirv::test
