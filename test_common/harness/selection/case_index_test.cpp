// The case index reader: a good index, and every way an index can disagree with its manifest.
#include "test_common/harness/selection/case_index.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>

#include "test_common/cl/program_cache.h"

namespace cts {
namespace {

const std::string kSha(64, 'a');

// A manifest with two cases and one module, and its index as scripts/assets/case_index.py writes it.
struct Assets {
    std::string dir, manifest;
    std::string entry_a =
        R"({"name": "subgroups.a", "family": "f", "module": "m.spv", "module_hash": "crc32:00000000", "kernel": "k", "params": {"n": 3}, "tags": ["quick"], "tier": "core"})";
    std::string entry_b = R"({"name": "subgroups.b", "family": "f", "tier": "device_specific"})";
    std::string module = R"("m.spv": {"kernels": {"k": [["out", "global_buffer"]]}})";

    Assets() {
        char pattern[] = "/tmp/case_index_test.XXXXXX";
        dir = mkdtemp(pattern);
        manifest =
            "{\"version\": 4, \"modules\": {" + module + "}, \"cases\": [" + entry_a + ", " + entry_b + "]}";
        std::ofstream(dir + "/manifest.json") << manifest;
    }
    ~Assets() {
        unlink((dir + "/manifest.json").c_str());
        rmdir(dir.c_str());
    }
    std::string range(const std::string& part) const {
        return std::to_string(manifest.find(part)) + "\t" + std::to_string(part.size());
    }
    // The index body (before the "end" line), with `a_range` for the first case.
    // subgroups.a has module 0 (m.spv), subgroups.b none; both family f.
    std::string body(const std::string& a_range = "", const std::string& b_name = "subgroups.b",
                     const std::string& a_module = "0", const std::string& b_range = "") const {
        return "spirv_intel_cts case index 2\nmanifest " + std::to_string(manifest.size()) + " " + kSha +
               "\nmodules 1\nm.spv\t" + range(module) + "\ncases 2\nsubgroups.a\tcore\tquick\t" +
               (a_range.empty() ? range(entry_a) : a_range) + "\t" + a_module + "\tf\n" + b_name +
               "\tdevice_specific\t\t" + (b_range.empty() ? range(entry_b) : b_range) + "\t-\tf\n";
    }
    static std::string seal(const std::string& body) {
        return body + "end " + ProgramCache::moduleHash(body.data(), body.size()) + "\n";
    }
    std::string parse(const std::string& text, CaseIndex* index, const std::string& sha = kSha) const {
        index->manifest_path = dir + "/manifest.json";
        return parseCaseIndex(text, manifest.size(), sha, index);
    }
};

TEST(CaseIndex, ReadsNamesTiersTagsAndLoadsOnlyTheChosenEntries) {
    Assets a;
    CaseIndex index;
    ASSERT_EQ(a.parse(Assets::seal(a.body()), &index), "");
    ASSERT_EQ(index.cases.size(), 2u);
    EXPECT_EQ(index.cases[0].name, "subgroups.a");
    EXPECT_EQ(index.cases[0].tags, "quick");
    EXPECT_EQ(index.cases[1].tier, Tier::DeviceSpecific);
    // What a --jobs run plans from: the module (a position in the module list) and the family.
    EXPECT_EQ(index.cases[0].module, 0u);
    EXPECT_EQ(index.modules[index.cases[0].module].path, "m.spv");
    EXPECT_EQ(index.cases[1].module, kNoModule);
    EXPECT_EQ(index.cases[1].family, "f");
    ManifestLoad load = loadIndexedCases(index, {&index.cases[0]}, false);
    ASSERT_TRUE(load.errors.empty()) << load.errors[0];
    ASSERT_EQ(load.cases.size(), 1u);
    EXPECT_EQ(load.cases[0].name, "subgroups.a");
    EXPECT_EQ(load.cases[0].params.i("n"), 3);
    ASSERT_TRUE(load.cases[0].module_signature);
    EXPECT_EQ(load.cases[0].module_signature->count("k"), 1u);
    EXPECT_EQ(load.cases[0].load_error, "");
}

TEST(CaseIndex, TruncatedOrAlteredIsCorrupt) {
    Assets a;
    const std::string good = Assets::seal(a.body());
    for (size_t cut : {good.size() - 1, good.size() - 10, good.size() / 2, size_t{0}}) {
        CaseIndex index;
        std::string err = a.parse(good.substr(0, cut), &index);
        EXPECT_NE(err.find("is corrupt"), std::string::npos) << cut << ": " << err;
        EXPECT_NE(err.find("rebuild the assets target"), std::string::npos) << err;
    }
    std::string flipped = good;
    flipped[good.find("subgroups.b")] = 'S';  // a name changed, the CRC left as it was
    CaseIndex index;
    EXPECT_NE(a.parse(flipped, &index).find("CRC-32"), std::string::npos);
}

TEST(CaseIndex, AnotherManifestIsStale) {
    Assets a;
    CaseIndex index;
    std::string err = a.parse(Assets::seal(a.body()), &index, std::string(64, 'b'));
    EXPECT_NE(err.find("is stale"), std::string::npos) << err;
    CaseIndex other;
    other.manifest_path = a.dir + "/manifest.json";
    err = parseCaseIndex(Assets::seal(a.body()), a.manifest.size() + 1, kSha, &other);
    EXPECT_NE(err.find("is stale"), std::string::npos) << err;
}

TEST(CaseIndex, DuplicateOrUnsortedNamesAreCorrupt) {
    Assets a;
    CaseIndex index;
    std::string err = a.parse(Assets::seal(a.body("", "subgroups.a")), &index);
    EXPECT_NE(err.find("duplicate case name 'subgroups.a'"), std::string::npos) << err;
    CaseIndex unsorted;
    err = a.parse(Assets::seal(a.body("", "subgroups.0")), &unsorted);
    EXPECT_NE(err.find("out of order"), std::string::npos) << err;
}

TEST(CaseIndex, ARangeOutsideTheManifestIsCorrupt) {
    Assets a;
    CaseIndex index;
    std::string err = a.parse(Assets::seal(a.body(std::to_string(a.manifest.size()) + "\t10")), &index);
    EXPECT_NE(err.find("case line 1"), std::string::npos) << err;
}

TEST(CaseIndex, AModuleNumberOutsideTheListIsCorrupt) {
    Assets a;
    for (const char* module : {"1", "x", ""}) {
        CaseIndex index;
        std::string err = a.parse(Assets::seal(a.body("", "subgroups.b", module)), &index);
        EXPECT_NE(err.find("case line 1"), std::string::npos) << module << ": " << err;
        EXPECT_NE(err.find("<module> <family>"), std::string::npos) << err;
    }
}

TEST(CaseIndex, ARangeHoldingAnotherCaseIsAnErrorOfTheLoad) {
    Assets a;
    CaseIndex index;
    // The two cases' ranges swapped: the index is well-formed and covers the manifest, the entries are wrong.
    ASSERT_EQ(
        a.parse(Assets::seal(a.body(a.range(a.entry_b), "subgroups.b", "0", a.range(a.entry_a))), &index),
        "");
    ManifestLoad load = loadIndexedCases(index, {&index.cases[0]}, false);
    ASSERT_EQ(load.errors.size(), 1u);
    EXPECT_NE(load.errors[0].find("does not hold that case"), std::string::npos) << load.errors[0];
    EXPECT_TRUE(load.cases.empty());
}

// A case line removed with its count and CRC-32 made consistent (or one pointing at another entry, or at
// half of its own) leaves manifest bytes no entry covers: the index is refused when it is read, not the case
// silently left out of every selection.
TEST(CaseIndex, AnIndexLeavingAnEntryUncoveredIsCorrupt) {
    Assets a;
    const std::string head = "spirv_intel_cts case index 2\nmanifest " + std::to_string(a.manifest.size()) +
                             " " + kSha + "\nmodules 1\nm.spv\t" + a.range(a.module) + "\ncases 1\n";
    for (const std::string& forged :
         {head + "subgroups.a\tcore\tquick\t" + a.range(a.entry_a) + "\t0\tf\n",
          head + "subgroups.b\tdevice_specific\t\t" + a.range(a.entry_b) + "\t-\tf\n",
          a.body(a.range(a.entry_b)), a.body(std::to_string(a.manifest.find(a.entry_a)) + "\t20")}) {
        CaseIndex index;
        std::string err = a.parse(Assets::seal(forged), &index);
        EXPECT_NE(err.find("is corrupt"), std::string::npos) << err;
        EXPECT_TRUE(err.find("no entry covers manifest bytes") != std::string::npos ||
                    err.find("overlap") != std::string::npos)
            << err;
    }
}

TEST(CaseIndex, PerCaseARangeHoldingAnotherCaseIsThatCasesLoadError) {
    // A worker's batch: the case whose range is wrong is an InternalError of its own, the others load.
    // subgroups.a's range takes in the ", " after its entry: the ranges still cover the manifest.
    Assets a;
    CaseIndex index;
    const std::string a_and_comma =
        std::to_string(a.manifest.find(a.entry_a)) + "\t" + std::to_string(a.entry_a.size() + 2);
    ASSERT_EQ(a.parse(Assets::seal(a.body(a_and_comma)), &index), "");
    ManifestLoad load = loadIndexedCases(index, {&index.cases[1], &index.cases[0]}, true);
    ASSERT_TRUE(load.errors.empty()) << load.errors[0];
    ASSERT_EQ(load.cases.size(), 2u);
    EXPECT_EQ(load.cases[0].name, "subgroups.b");
    EXPECT_EQ(load.cases[0].load_error, "");
    EXPECT_EQ(load.cases[0].tier, Tier::DeviceSpecific);
    EXPECT_EQ(load.cases[1].name, "subgroups.a");
    EXPECT_NE(load.cases[1].load_error.find("does not hold that case"), std::string::npos)
        << load.cases[1].load_error;
    EXPECT_EQ(load.cases[1].family, "f");
}

TEST(CaseIndex, AMalformedSelectedEntryIsACaseWithLoadError) {
    Assets a;
    a.entry_b = R"({"name": "subgroups.b", "family": "f", "tier": "neither"})";
    a.manifest = "{\"version\": 4, \"modules\": {" + a.module + "}, \"cases\": [" + a.entry_a + ", " +
                 a.entry_b + "]}";
    std::ofstream(a.dir + "/manifest.json") << a.manifest;
    CaseIndex index;
    ASSERT_EQ(a.parse(Assets::seal(a.body()), &index), "");
    ManifestLoad load = loadIndexedCases(index, {&index.cases[1]}, false);
    ASSERT_EQ(load.cases.size(), 1u);
    EXPECT_NE(load.cases[0].load_error.find("is not core or device_specific"), std::string::npos);
    EXPECT_NE(load.cases[0].load_error.find("entry at byte"), std::string::npos) << load.cases[0].load_error;
}

TEST(CaseIndex, AnotherVersionIsRefused) {
    Assets a;
    std::string body = a.body();
    body.replace(0, body.find('\n'), "spirv_intel_cts case index 1");
    CaseIndex index;
    EXPECT_NE(a.parse(Assets::seal(body), &index).find("is not a version 2 case index"), std::string::npos);
}

}  // namespace
}  // namespace cts
