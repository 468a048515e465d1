// linkModules (link.cpp): imports resolved against exports of another module, ids renumbered (literals left
// alone), OpenCL.std imports merged, and the link errors.
#include <gtest/gtest.h>

#include "reference_device/spirv/test_util.h"

namespace refdev::spirv::test {
namespace {

// Module 2: scale(x) = x * 3 with OpenCL.std's u_min against 1000, and a switch on a 64-bit selector whose
// case literal (2^32 + 5) must stay as written when the ids are renumbered.
const char* kExporter = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Linkage
         %std = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
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

// Module 1: k(out) stores scale(gid), pick(2^32 + 5) and u_max(gid, 2) (its own OpenCL.std import).
const char* kImporter = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Linkage
        %std = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpDecorate %gid BuiltIn GlobalInvocationId
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

TEST(Link, ImportsResolveAcrossModulesAndRun) {
    LinkResult r = linkModules({assemble(kImporter), assemble(kExporter)}, false);
    ASSERT_FALSE(r.words.empty()) << r.log;
    auto m = build(r.words);
    ASSERT_TRUE(m);
    std::vector<uint32_t> out(3, 0);
    LaunchResult run_result = run(*m, "k", {buffer(out)}, range1(1, 1));
    ASSERT_TRUE(run_result.ok) << run_result.error;
    EXPECT_EQ(out, (std::vector<uint32_t>{0, 7, 2}));
}

TEST(Link, AloneTheImporterDoesNotBuild) {
    const std::vector<uint32_t> importer = assemble(kImporter);
    BuildResult b = buildModule(importer.data(), importer.size(), testProfile());
    EXPECT_FALSE(b.module);
    LinkResult r = linkModules({assemble(kImporter)}, false);
    EXPECT_TRUE(r.words.empty());
    EXPECT_NE(r.log.find("unresolved import \"scale\" (function of module 1)"), std::string::npos) << r.log;
    EXPECT_NE(r.log.find("unresolved import \"pick\""), std::string::npos) << r.log;
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

}  // namespace
}  // namespace refdev::spirv::test
