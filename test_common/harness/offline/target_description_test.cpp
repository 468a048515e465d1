#include "test_common/harness/offline/target_description.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "test_common/harness/model/requirements.h"

namespace cts {
namespace {

// The smallest valid description; tests change one thing at a time.
nlohmann::json minimal() {
    return nlohmann::json::parse(R"({
      "target": "t1",
      "device_name": "Test GPU",
      "vendor_id": "0x8086",
      "sources": ["somewhere"],
      "sub_group_sizes": [8, 16],
      "fp16": true, "fp64": false,
      "images": {"supported": true, "max_width": 4096, "max_height": 2048,
                 "read_write_formats": ["CL_R/CL_UNSIGNED_INT8"]},
      "il_versions": ["SPIR-V_1.0", "SPIR-V_1.4"],
      "extensions": {"cl_khr_fp16": "1.0.0", "cl_intel_spirv_subgroups": "1.0.0",
                     "cl_intel_subgroup_matrix_multiply_accumulate": "1.1.0"},
      "compilers": {"1.0.100": {"ocloc_driver_version": "20.1.5", "sources": ["release notes"],
                                "extensions": {"cl_khr_fp16": "1.0.0",
                                               "cl_intel_subgroup_matrix_multiply_accumulate": "1.0.0"},
                                "il_versions": ["SPIR-V_1.2"]},
                    "1.0.200": {"ocloc_driver_version": "21.0.1", "sources": ["release notes"]},
                    "2.0.1": {"ocloc_driver_version": "26.27.039122", "sources": ["release notes"],
                              "extensions": {"cl_khr_fp16": "1.0.0", "cl_khr_spirv_queries": "1.0.0"},
                              "reported_spirv_extensions": ["SPV_INTEL_subgroups", "SPV_KHR_expect_assume"]}}
    })");
}

std::string parse(const nlohmann::json& doc, TargetDescription& out) {
    return parseTargetDescription(doc.dump(), "t1.json", out);
}

TEST(TargetDescription, ParsesTheFacts) {
    TargetDescription t;
    ASSERT_EQ(parse(minimal(), t), "");
    EXPECT_EQ(t.target, "t1");
    EXPECT_EQ(t.vendor_id, 0x8086u);
    EXPECT_EQ(t.sub_group_sizes, (std::vector<size_t>{8, 16}));
    EXPECT_TRUE(t.fp16);
    EXPECT_FALSE(t.fp64);
    EXPECT_TRUE(t.images);
    EXPECT_EQ(t.image2d_max_height, 2048u);
    ASSERT_EQ(t.image2d_rw_formats.size(), 1u);
    EXPECT_EQ(t.image2d_rw_formats[0].type, static_cast<cl_channel_type>(CL_UNSIGNED_INT8));
    ASSERT_EQ(t.compilers.size(), 3u);
    EXPECT_EQ(t.max_mem_alloc_size, 0u);
    EXPECT_FALSE(t.compilers[0].has_reported_spirv_extensions);
    EXPECT_TRUE(t.compilers[2].has_reported_spirv_extensions);
    EXPECT_EQ(t.compilers[2].reported_spirv_extensions,
              (std::vector<std::string>{"SPV_INTEL_subgroups", "SPV_KHR_expect_assume"}));
}

TEST(TargetDescription, TheReleaseDecidesWhatTheDeviceReports) {
    TargetDescription t;
    ASSERT_EQ(parse(minimal(), t), "");
    const CompilerRelease* old_release = findCompilerRelease(t, "20.1.5");
    ASSERT_NE(old_release, nullptr);
    EXPECT_EQ(old_release->igc_version, "1.0.100");
    EXPECT_EQ(findCompilerRelease(t, "20.1.5.0"), old_release);  // dotted numbers compare by value
    EXPECT_EQ(findCompilerRelease(t, "20.1.6"), nullptr);
    EXPECT_EQ(findCompilerRelease(t, "not a version"), nullptr);

    // The old release reports MMA 1.0 and SPIR-V 1.2 only: a case needing 1.1 or SPIR-V 1.3 is not supported.
    DeviceInfo old_device = targetDeviceInfo(t, old_release);
    EXPECT_EQ(old_device.platform_name, "ocloc");
    EXPECT_EQ(old_device.device_name, "t1");
    EXPECT_EQ(old_device.driver_version, "1.0.100");
    // The memory-object cases' support check: the described GPUs all report coarse-grain buffer SVM.
    EXPECT_TRUE(old_device.svm_capabilities & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER);
    EXPECT_EQ(
        evaluateRequirements({"ext=cl_intel_subgroup_matrix_multiply_accumulate@1.1"}, old_device).status,
        Status::NotSupported);
    EXPECT_EQ(evaluateRequirements({"spirv=1.3"}, old_device).status, Status::NotSupported);
    EXPECT_EQ(evaluateRequirements({"ext=cl_intel_spirv_subgroups"}, old_device).status,
              Status::NotSupported);
    // A release without its own lists reports what the description says.
    DeviceInfo new_device = targetDeviceInfo(t, findCompilerRelease(t, "21.0.1"));
    EXPECT_EQ(evaluateRequirements({"ext=cl_intel_subgroup_matrix_multiply_accumulate@1.1", "spirv=1.3",
                                    "ext=cl_intel_spirv_subgroups", "sg_size=8", "min_sg_size=8", "fp16",
                                    "images", "image_format=CL_R/CL_UNSIGNED_INT8"},
                                   new_device)
                  .status,
              Status::Pass);
    for (const char* missing :
         {"sg_size=32", "fp64", "image_format=CL_RG/CL_UNSIGNED_INT8", "max_alloc=1000"})
        EXPECT_EQ(evaluateRequirements({missing}, new_device).status, Status::NotSupported) << missing;
    EXPECT_FALSE(new_device.has_spirv_queries);
    EXPECT_TRUE(new_device.spirv_extensions.empty());
    // A release with cl_khr_spirv_queries reports its CL_DEVICE_SPIRV_EXTENSIONS_KHR list as given, in order
    // (a zero-padded ocloc version such as 26.27.039122 is matched by value).
    const CompilerRelease* queries = findCompilerRelease(t, "26.27.39122");
    ASSERT_NE(queries, nullptr);
    DeviceInfo queries_device = targetDeviceInfo(t, queries);
    EXPECT_TRUE(queries_device.has_spirv_queries);
    EXPECT_EQ(queries_device.spirv_extensions,
              (std::vector<std::string>{"SPV_INTEL_subgroups", "SPV_KHR_expect_assume"}));
}

// Every malformed description is refused with the file and what is wrong: a typo must not drop a fact.
TEST(TargetDescription, ARuntimesDeviceHasNoCompilerReleases) {
    nlohmann::json d = minimal();
    d.erase("compilers");
    TargetDescription t;
    EXPECT_NE(parse(d, t), "");  // an offline-compiler target needs its releases
    d["runtime"] = "some-runtime 1.2.3";
    TargetDescription r;
    ASSERT_EQ(parse(d, r), "");
    EXPECT_EQ(r.runtime, "some-runtime 1.2.3");
    EXPECT_TRUE(r.compilers.empty());
    EXPECT_EQ(r.sub_group_sizes, (std::vector<size_t>{8, 16}));
}

TEST(TargetDescription, MalformedDescriptionsNameTheFileAndTheProblem) {
    struct Bad {
        std::function<void(nlohmann::json&)> change;
        const char* says;
    };
    const std::vector<Bad> bad = {
        {[](auto& d) { d["subgroup_sizes"] = d["sub_group_sizes"]; }, "unknown key \"subgroup_sizes\""},
        {[](auto& d) { d.erase("sources"); }, "missing \"sources\""},
        {[](auto& d) { d["sources"] = nlohmann::json::array(); }, "must name the public sources"},
        {[](auto& d) {
             d["sub_group_sizes"] = {16, 8};
         },
         "ascending"},
        {[](auto& d) { d["fp64"] = "no"; }, "\"fp64\" must be true or false"},
        {[](auto& d) { d["fp64"] = true; }, "\"fp64\" and cl_khr_fp64"},
        {[](auto& d) { d["extensions"]["cl_khr_fp16"] = "1.0"; }, "must be a string \"major.minor.patch\""},
        {[](auto& d) { d["extensions"]["SPV_INTEL_subgroups"] = "1.0.0"; },
         "is not an OpenCL extension name"},
        {[](auto& d) { d["il_versions"] = {"1.2"}; }, "is not of the form SPIR-V_"},
        {[](auto& d) { d["images"]["read_write_formats"] = {"CL_R-CL_FLOAT"}; }, "is not ORDER/TYPE"},
        {[](auto& d) {
             d["images"] = {{"supported", false}, {"max_width", 1}};
         },
         "lists no limits"},
        {[](auto& d) { d["compilers"] = nlohmann::json::object(); }, "at least one compiler release"},
        {[](auto& d) { d["runtime"] = ""; }, "\"runtime\" must name the runtime"},
        {[](auto& d) { d["runtime"] = "rt 1.0"; }, "a \"runtime\" description has no \"compilers\""},
        {[](auto& d) { d["compilers"]["1.0.100"].erase("ocloc_driver_version"); }, "ocloc_driver_version"},
        {[](auto& d) { d["compilers"]["1.0.200"]["ocloc_driver_version"] = "20.1.5"; },
         "the same ocloc_driver"},
        {[](auto& d) { d["compilers"]["igc-new"] = d["compilers"]["1.0.200"]; }, "must be an IGC version"},
        {[](auto& d) { d["compilers"]["1.0.100"]["spirv_opcodes"] = 1; }, "unknown key \"spirv_opcodes\""},
        {[](auto& d) { d["compilers"]["2.0.1"]["reported_spirv_extensions"] = "SPV_INTEL_subgroups"; },
         "\"reported_spirv_extensions\" must be a list of strings"},
        {[](auto& d) { d["compilers"]["2.0.1"]["reported_spirv_extensions"] = {"cl_intel_subgroups"}; },
         "\"cl_intel_subgroups\" is not a SPIR-V extension name"},
        {[](auto& d) { d["compilers"]["1.0.100"]["reported_spirv_extensions"] = {"SPV_INTEL_subgroups"}; },
         "\"1.0.100\" has \"reported_spirv_extensions\" but does not report cl_khr_spirv_queries"},
        {[](auto& d) { d["compilers"]["2.0.1"]["reported_spirv_extension"] = {"SPV_INTEL_subgroups"}; },
         "unknown key \"reported_spirv_extension\""},
        {[](auto& d) { d["max_mem_alloc_size"] = -1; }, "positive number or null"},
        {[](auto& d) { d["target"] = "dg2 g10"; }, "one word"},
        // Issue 45 #18: a name outside ocloc's device-name grammar would reach its command line.
        {[](auto& d) { d["target"] = "pvc\""; }, "letters, digits, '.', '_' and '-'"},
        {[](auto& d) { d["target"] = "-device"; }, "starting with a letter or digit"},
        {[](auto& d) { d["target"] = "pvc'"; }, "letters, digits"},
        {[](auto& d) { d["target"] = "pvc\u00e9"; }, "not \"pvc\\u00e9\""},
    };
    for (const auto& b : bad) {
        nlohmann::json doc = minimal();
        b.change(doc);
        TargetDescription t;
        std::string err = parse(doc, t);
        EXPECT_EQ(err.rfind("t1.json: ", 0), 0u) << err;
        EXPECT_NE(err.find(b.says), std::string::npos) << "want \"" << b.says << "\", got: " << err;
    }
    TargetDescription t;
    EXPECT_EQ(parseTargetDescription("{\n\"target\": \"x\",\n}", "f.json", t)
                  .rfind("f.json:3: not valid JSON: syntax error", 0),
              0u);
    EXPECT_EQ(parseTargetDescription("{\n\"target\": \"x\",\n\"target\": \"y\"}", "f.json", t),
              "f.json:3: key \"target\" appears twice in one object (JSON keeps only the last)");
    EXPECT_NE(readTargetDescription("/nonexistent/t.json", t).find("cannot read /nonexistent/t.json"),
              std::string::npos);
    // /dev/zero was read until memory ran out (10.8 GB).
    EXPECT_NE(readTargetDescription("/dev/zero", t).find("not a regular file"), std::string::npos);
}

}  // namespace
}  // namespace cts
