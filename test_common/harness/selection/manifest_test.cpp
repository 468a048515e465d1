#include "test_common/harness/selection/manifest.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>

namespace cts {
namespace {

TEST(Manifest, ParsesEntries) {
    auto load = parseManifest(R"({"version": 4,
        "modules": {"subgroups/a.spv": {"kernels": {"test": [["out", "global_buffer"], ["n", "uint"]]}}},
        "cases": [
        {"name": "subgroups.shuffle.i32.v4", "family": "subgroups.shuffle", "tier": "core", "module": "subgroups/a.spv",
         "module_hash": "crc32:0123abcd", "kernel": "test", "params": {"n": 4, "neg": -1, "f": 1.5, "s": "x", "b": true, "arr": [1, 2]},
         "requires": ["ext=cl_intel_spirv_subgroups", "sg_size=16"], "tags": ["quick"], "origin": "gen.py"}]})",
                              "m.json");
    EXPECT_TRUE(load.errors.empty());
    ASSERT_EQ(load.cases.size(), 1u);
    const CaseSpec& c = load.cases[0];
    EXPECT_TRUE(c.load_error.empty()) << c.load_error;
    EXPECT_EQ(c.family, "subgroups.shuffle");
    EXPECT_EQ(c.module, "subgroups/a.spv");
    EXPECT_EQ(c.module_hash, "crc32:0123abcd");
    EXPECT_EQ(c.kernel, "test");
    EXPECT_EQ(c.params.i("n"), 4);
    EXPECT_EQ(c.params.i("neg"), -1);
    EXPECT_EQ(c.params.s("s"), "x");
    EXPECT_TRUE(c.params.b("b"));
    EXPECT_EQ(c.params.list("arr"), (std::vector<int64_t>{1, 2}));
    // Each value keeps its JSON type, for the family's schema.
    EXPECT_EQ(c.params.type("n"), ParamType::Int);
    EXPECT_EQ(c.params.type("f"), ParamType::Number);
    EXPECT_EQ(c.params.type("s"), ParamType::String);
    EXPECT_EQ(c.params.type("b"), ParamType::Bool);
    EXPECT_EQ(c.params.type("arr"), ParamType::IntList);
    // The module's kernel signatures come from the module table.
    ASSERT_NE(c.module_signature, nullptr);
    KernelSignature want = {{"out", "global_buffer"}, {"n", "uint"}};
    EXPECT_EQ(c.module_signature->at("test"), want);
    EXPECT_EQ(c.requires.size(), 2u);
    EXPECT_EQ(c.tags, std::vector<std::string>{"quick"});
    EXPECT_EQ(c.origin, "gen.py");
    EXPECT_EQ(c.tier, Tier::Core);
}

TEST(Manifest, EveryEntryNamesItsTier) {
    auto load = parseManifest(R"({"version": 4, "modules": {}, "cases": [
        {"name": "api.core", "family": "f", "tier": "core"},
        {"name": "api.specific", "family": "f", "tier": "device_specific"},
        {"name": "api.no_tier", "family": "f"},
        {"name": "api.bad_tier", "family": "f", "tier": "optional"},
        {"name": "api.number_tier", "family": "f", "tier": 1}]})",
                              "m.json");
    ASSERT_TRUE(load.errors.empty());
    ASSERT_EQ(load.cases.size(), 5u);
    EXPECT_EQ(load.cases[0].tier, Tier::Core);
    EXPECT_EQ(load.cases[1].tier, Tier::DeviceSpecific);
    EXPECT_TRUE(load.cases[1].load_error.empty()) << load.cases[1].load_error;
    EXPECT_NE(load.cases[2].load_error.find("missing \"tier\""), std::string::npos)
        << load.cases[2].load_error;
    EXPECT_NE(load.cases[3].load_error.find("'optional' is not core or device_specific"), std::string::npos)
        << load.cases[3].load_error;
    EXPECT_NE(load.cases[4].load_error.find("\"tier\" is not a string"), std::string::npos)
        << load.cases[4].load_error;
}

TEST(Manifest, CorruptFileIsAnErrorNamingIt) {
    for (const char* text :
         {"", "{", "[]", R"({"version": 2})", R"({"version": 4, "cases": []})",
          R"({"version": 5, "modules": {}, "cases": []})", R"({"version": 4, "modules": [], "cases": []})"}) {
        auto load = parseManifest(text, "/a/manifest.json");
        ASSERT_EQ(load.errors.size(), 1u) << text;
        EXPECT_NE(load.errors[0].find("/a/manifest.json"), std::string::npos);
    }
    auto missing = loadManifest("/nonexistent/manifest.json");
    ASSERT_EQ(missing.errors.size(), 1u);
    EXPECT_NE(missing.errors[0].find("/nonexistent/manifest.json"), std::string::npos);
}

// The reports name the manifest by the hash the asset build wrote beside it; without it the build is broken.
TEST(Manifest, HashFromTheSidecarFile) {
    std::string dir = testing::TempDir() + "cts_manifest_sha_" + std::to_string(getpid());
    ASSERT_EQ(mkdir(dir.c_str(), 0777), 0);
    std::string hex;
    EXPECT_NE(readManifestSha256(dir, &hex).find("cannot read " + dir + "/manifest.sha256"),
              std::string::npos);
    const std::string good(64, 'f');
    for (const std::string& text :
         {good + "\n", good + "  other.json\n", good.substr(1) + "  manifest.json\n",
          std::string(64, 'F') + "  manifest.json\n", std::string(64, 'g') + "  manifest.json"}) {
        std::ofstream(dir + "/manifest.sha256") << text;
        EXPECT_NE(readManifestSha256(dir, &hex).find("is not \"<64 hex digits>  manifest.json\""),
                  std::string::npos)
            << text;
    }
    std::ofstream(dir + "/manifest.sha256") << good << "  manifest.json\n";
    EXPECT_EQ(readManifestSha256(dir, &hex), "");
    EXPECT_EQ(hex, good);
    std::remove((dir + "/manifest.sha256").c_str());
    rmdir(dir.c_str());
}

TEST(Manifest, OldVersionIsRefusedAsAWholeWithTheFix) {
    // Version 1 had no module hashes: running it would build modules nothing can check.
    for (const char* text : {R"({"version": 1, "cases": [{"name": "api.x", "family": "f", "tier": "core"}]})",
                             R"({"cases": [{"name": "api.x", "family": "f", "tier": "core"}]})"}) {
        auto load = parseManifest(text, "/a/manifest.json");
        EXPECT_TRUE(load.cases.empty()) << text;
        ASSERT_EQ(load.errors.size(), 1u) << text;
        EXPECT_NE(load.errors[0].find("/a/manifest.json"), std::string::npos) << load.errors[0];
        EXPECT_NE(load.errors[0].find("rebuild the assets target"), std::string::npos) << load.errors[0];
    }
    EXPECT_NE(parseManifest(R"({"version": 1, "cases": []})", "m.json").errors.at(0).find("is version 1"),
              std::string::npos);
}

TEST(Manifest, ModuleGoesWithKernelAndHash) {
    auto load = parseManifest(R"({"version": 4, "modules": {"a.spv": {"kernels": {"k": []}}}, "cases": [
        {"name": "api.ok_module", "family": "f", "tier": "core", "module": "a.spv", "module_hash": "crc32:00ff00ff", "kernel": "k"},
        {"name": "api.ok_no_module", "family": "f", "tier": "core"},
        {"name": "api.ok_empty_module", "family": "f", "tier": "core", "module": "", "kernel": ""},
        {"name": "api.no_kernel", "family": "f", "tier": "core", "module": "a.spv", "module_hash": "crc32:00ff00ff"},
        {"name": "api.empty_kernel", "family": "f", "tier": "core", "module": "a.spv", "module_hash": "crc32:00ff00ff", "kernel": ""},
        {"name": "api.no_module", "family": "f", "tier": "core", "kernel": "k"},
        {"name": "api.no_hash", "family": "f", "tier": "core", "module": "a.spv", "kernel": "k"},
        {"name": "api.bad_hash", "family": "f", "tier": "core", "module": "a.spv", "module_hash": "crc32:00FF00FF", "kernel": "k"},
        {"name": "api.other_hash", "family": "f", "tier": "core", "module": "a.spv", "module_hash": "fnv1a64:0", "kernel": "k"},
        {"name": "api.hash_no_module", "family": "f", "tier": "core", "module_hash": "crc32:00ff00ff"},
        {"name": "api.not_in_table", "family": "f", "tier": "core", "module": "b.spv", "module_hash": "crc32:00ff00ff", "kernel": "k"},
        {"name": "api.kernel_not_in_table", "family": "f", "tier": "core", "module": "a.spv", "module_hash": "crc32:00ff00ff", "kernel": "main"}]})",
                              "m.json");
    ASSERT_TRUE(load.errors.empty());
    std::map<std::string, std::string> err;
    for (const auto& c : load.cases) err[c.name] = c.load_error;
    ASSERT_EQ(err.size(), 12u);
    EXPECT_NE(err["api.not_in_table"].find("module b.spv is not in the manifest's \"modules\" table"),
              std::string::npos)
        << err["api.not_in_table"];
    EXPECT_NE(err["api.kernel_not_in_table"].find("module a.spv has no kernel main"), std::string::npos)
        << err["api.kernel_not_in_table"];
    EXPECT_EQ(err["api.ok_module"], "");
    EXPECT_EQ(err["api.ok_no_module"], "");
    EXPECT_EQ(err["api.ok_empty_module"], "");
    for (const char* name : {"api.no_kernel", "api.empty_kernel"}) {
        EXPECT_NE(err[name].find("no \"kernel\""), std::string::npos) << err[name];
        EXPECT_NE(err[name].find(name), std::string::npos) << err[name];
    }
    EXPECT_NE(err["api.no_module"].find("no \"module\""), std::string::npos) << err["api.no_module"];
    EXPECT_NE(err["api.no_hash"].find("no \"module_hash\""), std::string::npos) << err["api.no_hash"];
    EXPECT_NE(err["api.bad_hash"].find("crc32:00FF00FF"), std::string::npos) << err["api.bad_hash"];
    EXPECT_NE(err["api.other_hash"].find("fnv1a64:0"), std::string::npos) << err["api.other_hash"];
    EXPECT_NE(err["api.hash_no_module"].find("no \"module\""), std::string::npos)
        << err["api.hash_no_module"];
    // Such a case is an InternalError before any device query (launch/case_runner_test.cpp).
}

TEST(Manifest, BadEntriesBecomeCaseErrorsOrRunErrors) {
    auto load = parseManifest(R"({"version": 4, "modules": {}, "cases": [
        {"name": "api.ok", "family": "f", "tier": "core"},
        {"name": "api.no_family"},
        {"name": "api.bad_params", "family": "f", "tier": "core", "params": {"x": {"y": 1}}},
        {"name": "api.bad_requires", "family": "f", "tier": "core", "requires": "ext=x"},
        {"name": "Bad.Name", "family": "f", "tier": "core"},
        {"family": "f", "tier": "core"},
        {"name": "api.ok", "family": "f", "tier": "core"}]})",
                              "m.json");
    ASSERT_EQ(load.cases.size(), 4u);
    EXPECT_TRUE(load.cases[0].load_error.empty());
    EXPECT_NE(load.cases[1].load_error.find("family"), std::string::npos);
    EXPECT_NE(load.cases[2].load_error.find("x"), std::string::npos);
    EXPECT_NE(load.cases[3].load_error.find("requires"), std::string::npos);
    EXPECT_EQ(load.errors.size(), 3u);  // invalid name, no name, duplicate
}

TEST(Manifest, MalformedModuleTableEntriesAreRunErrorsAndTheirCasesInternalErrors) {
    auto load = parseManifest(R"({"version": 4, "modules": {
        "a.spv": {"kernels": {"k": [["out", "global_buffer"], ["n"]]}},
        "b.spv": {"kernels": {"k": "out"}},
        "c.spv": {}},
        "cases": [{"name": "api.a", "family": "f", "tier": "core", "module": "a.spv", "module_hash": "crc32:00ff00ff", "kernel": "k"}]})",
                              "m.json");
    ASSERT_EQ(load.errors.size(), 3u);
    EXPECT_NE(load.errors[0].find("module a.spv: kernel k: an argument is not [\"name\", \"type\"]"),
              std::string::npos)
        << load.errors[0];
    EXPECT_NE(load.errors[1].find("module b.spv: kernel k: the arguments are not an array"),
              std::string::npos)
        << load.errors[1];
    EXPECT_NE(load.errors[2].find("module c.spv: has no \"kernels\" object"), std::string::npos)
        << load.errors[2];
    ASSERT_EQ(load.cases.size(), 1u);
    EXPECT_NE(load.cases[0].load_error.find("not in the manifest's \"modules\" table"), std::string::npos);
}

// A worker loads only the entries it is told, found in the text build_assets.py writes; any other layout
// falls back to the whole parse with the same result.
TEST(Manifest, WorkerLoadsOnlyItsEntries) {
    const std::string path = ::testing::TempDir() + "manifest_entries.json";
    const char* laid_out = R"({
 "version": 4,
 "modules": {
  "m/one.spv": {"kernels": {"test": [["out", "global_buffer"]]}},
  "m/two.spv": {"kernels": {"test": [["in", "global_buffer"], ["n", "uint"]]}}
 },
 "cases": [
  {
   "name": "subgroups.a",
   "family": "f",
   "module": "m/one.spv",
   "module_hash": "crc32:00ff00ff",
   "kernel": "test",
   "tier": "core",
   "params": {"text": "has } and { and \" inside", "name": "subgroups.b"}
  },
  {
   "name": "subgroups.b",
   "family": "g",
   "module": "m/two.spv",
   "module_hash": "crc32:00ff00ff",
   "kernel": "test",
   "tier": "device_specific"
  }
 ]
}
)";
    for (
        const char* text :
        {laid_out,
         R"({"cases": [{"name": "subgroups.b", "family": "g", "tier": "device_specific", "module": "m/two.spv",
         "module_hash": "crc32:00ff00ff", "kernel": "test"},
        {"name": "subgroups.a", "family": "f", "tier": "core"}], "version": 4,
        "modules": {"m/two.spv": {"kernels": {"test": [["in", "global_buffer"], ["n", "uint"]]}}}})"}) {
        std::ofstream(path) << text;
        ManifestLoad load = loadManifestEntries(path, {"subgroups.b"});
        ASSERT_TRUE(load.errors.empty());
        ASSERT_GE(load.cases.size(), 1u);
        const CaseSpec* b = nullptr;
        for (const auto& c : load.cases) b = c.name == "subgroups.b" ? &c : b;
        ASSERT_NE(b, nullptr);
        EXPECT_EQ(b->family, "g");
        EXPECT_EQ(b->tier, Tier::DeviceSpecific);
        EXPECT_TRUE(b->load_error.empty()) << b->load_error;
        ASSERT_NE(b->module_signature, nullptr);  // its module's line of the table, found in the text
        EXPECT_EQ(b->module_signature->at("test").size(), 2u);
    }
    std::ofstream(path) << laid_out;
    ManifestLoad a = loadManifestEntries(path, {"subgroups.a"});
    ASSERT_EQ(a.cases.size(), 1u);  // the laid-out file: only the entry asked for, params intact
    ASSERT_NE(a.cases[0].module_signature, nullptr);
    EXPECT_EQ(a.cases[0].module_signature->at("test").at(0).name, "out");
    ManifestLoad both = loadManifestEntries(path, {"subgroups.b", "subgroups.a"});
    ASSERT_EQ(both.cases.size(), 2u);
    for (const auto& c : both.cases) EXPECT_NE(c.module_signature, nullptr) << c.name;
    EXPECT_EQ(a.cases[0].params.s("text"), "has } and { and \" inside");
    EXPECT_TRUE(a.cases[0].load_error.empty()) << a.cases[0].load_error;
    ManifestLoad missing = loadManifestEntries(path, {"subgroups.zz"});
    EXPECT_EQ(missing.cases.size(), 2u);  // not found that way: the whole manifest
    std::remove(path.c_str());
}

TEST(Manifest, CaseNameRule) {
    EXPECT_TRUE(isValidCaseName("2d_block_io.load.e1"));
    EXPECT_FALSE(isValidCaseName("a..b"));
    EXPECT_FALSE(isValidCaseName(".a"));
    EXPECT_FALSE(isValidCaseName("a."));
    EXPECT_FALSE(isValidCaseName("a-b"));
    EXPECT_FALSE(isValidCaseName("A"));
    EXPECT_FALSE(isValidCaseName(""));
}

}  // namespace
}  // namespace cts
