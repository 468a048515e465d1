#include "test_common/harness/selection/selection.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>

namespace cts {
namespace {

std::vector<CaseSpec> tree(const std::vector<std::pair<std::string, std::vector<std::string>>>& names) {
    std::vector<CaseSpec> out;
    for (const auto& n : names) {
        CaseSpec c;
        c.name = n.first;
        c.tags = n.second;
        out.push_back(c);
    }
    return out;
}

std::vector<std::string> names(const Selection& s) {
    std::vector<std::string> out;
    for (const auto* c : s.cases) out.push_back(c->name);
    return out;
}

const std::vector<CaseSpec> kTree = tree({{"subgroups.shuffle_down.i32.v4", {"quick"}},
                                          {"subgroups.shuffle_down.i32.v1", {}},
                                          {"subgroups.shuffle.i16.v2", {"extended"}},
                                          {"subgroups.shuffle_up.i8.v1", {"quick"}},
                                          {"api.il_version.spirv_listed_for_gating_extension", {"quick"}},
                                          {"2d_block_io.load.e1.w32.h8.c1", {}}});

TEST(Glob, StarAndQuestionAnywhere) {
    EXPECT_TRUE(globMatch("*", "a.b.c"));
    EXPECT_TRUE(globMatch("a.*.c", "a.b.c"));
    EXPECT_TRUE(globMatch("a.*.c", "a.b.x.c"));  // * crosses dots, as in GoogleTest
    EXPECT_TRUE(globMatch("?.b.c", "a.b.c"));
    EXPECT_TRUE(globMatch("*shuffle*v?", "subgroups.shuffle_down.i32.v4"));
    EXPECT_FALSE(globMatch("a.?.c", "a.bb.c"));
    EXPECT_FALSE(globMatch("a.b", "a.b.c"));
    EXPECT_FALSE(globMatch("", "a"));
    EXPECT_TRUE(globMatch("", ""));
    EXPECT_TRUE(globMatch("**a**", "xay"));
    EXPECT_FALSE(globMatch("*a*b", "xaybz"));
}

TEST(Pattern, GroupNameAndDottedPrefixSelectSubtree) {
    EXPECT_TRUE(patternSelects("subgroups", "subgroups.shuffle.i16.v2"));
    EXPECT_TRUE(patternSelects("subgroups.shuffle_down", "subgroups.shuffle_down.i32.v4"));
    EXPECT_FALSE(patternSelects("subgroups.shuffle", "subgroups.shuffle_down.i32.v4"));  // level boundary
    EXPECT_FALSE(patternSelects("subgroup", "subgroups.shuffle.i16.v2"));
    EXPECT_TRUE(patternSelects("subgroups.*.i32", "subgroups.shuffle_down.i32.v4"));
    EXPECT_TRUE(patternSelects("subgroups.shuffle_down.i32.v4", "subgroups.shuffle_down.i32.v4"));
}

TEST(Filter, PositiveAndNegativeParts) {
    std::vector<Pattern> pos, neg;
    parseFilter("a.*:b-c:d.?", pos, neg);
    ASSERT_EQ(pos.size(), 2u);
    ASSERT_EQ(neg.size(), 2u);
    EXPECT_EQ(pos[0].text, "a.*");
    EXPECT_EQ(pos[1].text, "b");
    EXPECT_EQ(neg[0].text, "c");
    EXPECT_EQ(neg[1].text, "d.?");
    pos.clear();
    neg.clear();
    parseFilter("-subgroups", pos, neg);
    EXPECT_TRUE(pos.empty());
    ASSERT_EQ(neg.size(), 1u);
}

TEST(Selection, DefaultExcludesExtendedAndSorts) {
    Selection s = selectCases(kTree, {});
    EXPECT_EQ(
        names(s),
        (std::vector<std::string>{
            "2d_block_io.load.e1.w32.h8.c1", "api.il_version.spirv_listed_for_gating_extension",
            "subgroups.shuffle_down.i32.v1", "subgroups.shuffle_down.i32.v4", "subgroups.shuffle_up.i8.v1"}));
    SelectionRequest r;
    r.extended = true;
    EXPECT_EQ(selectCases(kTree, r).cases.size(), kTree.size());
}

TEST(Selection, QuickKeepsOnlyQuickTagged) {
    SelectionRequest r;
    r.quick = true;
    EXPECT_EQ(names(selectCases(kTree, r)),
              (std::vector<std::string>{"api.il_version.spirv_listed_for_gating_extension",
                                        "subgroups.shuffle_down.i32.v4", "subgroups.shuffle_up.i8.v1"}));
}

TEST(Selection, PositiveThenNegative) {
    SelectionRequest r;
    r.positive = {{"subgroups", "t"}};
    r.negative = {{"*.v4", "t"}};
    EXPECT_EQ(names(selectCases(kTree, r)),
              (std::vector<std::string>{"subgroups.shuffle_down.i32.v1", "subgroups.shuffle_up.i8.v1"}));
}

TEST(Selection, PatternMatchingNothingIsAnErrorNamingIt) {
    SelectionRequest r;
    r.positive = {{"subgroups.nosuch", "cases.txt:3"}};
    Selection s = selectCases(kTree, r);
    EXPECT_NE(s.error.find("subgroups.nosuch"), std::string::npos);
    EXPECT_NE(s.error.find("cases.txt:3"), std::string::npos);
    r.positive.clear();
    r.negative = {{"zzz", "--filter"}};
    EXPECT_FALSE(selectCases(kTree, r).error.empty());
}

// Used to give an empty list and exit 0; a positive pattern matching nothing was already an error.
TEST(Selection, SelectingNothingIsAnErrorSayingWhy) {
    SelectionRequest r;
    r.negative = {{"*", "skip.txt:1"}};
    Selection s = selectCases(kTree, r);
    EXPECT_TRUE(s.cases.empty());
    EXPECT_NE(s.error.find("no case selected"), std::string::npos) << s.error;
    EXPECT_NE(s.error.find("negative"), std::string::npos) << s.error;

    r = {};
    r.positive = {{"api", "command line"}};
    r.negative = {{"api.*", "--filter"}};
    s = selectCases(kTree, r);
    EXPECT_NE(s.error.find("no case selected"), std::string::npos) << s.error;

    r = {};
    r.positive = {{"2d_block_io", "command line"}};
    r.quick = true;
    s = selectCases(kTree, r);
    EXPECT_NE(s.error.find("no case selected"), std::string::npos) << s.error;
    EXPECT_NE(s.error.find("--quick"), std::string::npos) << s.error;

    r = {};
    r.positive = {{"subgroups.shuffle.i16", "command line"}};  // tagged extended
    s = selectCases(kTree, r);
    EXPECT_NE(s.error.find("no case selected"), std::string::npos) << s.error;
    EXPECT_NE(s.error.find("--extended"), std::string::npos) << s.error;
    r.extended = true;
    EXPECT_EQ(selectCases(kTree, r).error, "");

    EXPECT_NE(selectCases({}, {}).error.find("no case selected"), std::string::npos);
}

const std::vector<CaseSpec> kTagged = tree({{"subgroups.shuffle.a", {"regression"}},
                                            {"subgroups.shuffle.b", {"quick", "regression"}},
                                            {"subgroups.shuffle.c", {"quick"}},
                                            {"2d_block_io.store.d", {}},
                                            {"2d_block_io.extended.e", {"extended", "regression"}}});

TEST(Selection, TagKeepsCasesWithAnyOfTheTags) {
    SelectionRequest r;
    r.tags = {"regression"};
    EXPECT_EQ(names(selectCases(kTagged, r)),
              (std::vector<std::string>{"subgroups.shuffle.a", "subgroups.shuffle.b"}));
    r.extended = true;  // --tag narrows what --extended allows, it does not replace it
    EXPECT_EQ(names(selectCases(kTagged, r)).size(), 3u);
    r.extended = false;
    r.tags = {"regression", "quick"};
    EXPECT_EQ(
        names(selectCases(kTagged, r)),
        (std::vector<std::string>{"subgroups.shuffle.a", "subgroups.shuffle.b", "subgroups.shuffle.c"}));
    r.positive = {{"2d_block_io", "command line"}};
    r.tags = {"regression"};
    Selection s = selectCases(kTagged, r);
    EXPECT_NE(s.error.find("no case selected"), std::string::npos) << s.error;
    EXPECT_NE(s.error.find("(--tag)"), std::string::npos) << s.error;
}

TEST(Selection, TagAlsoNamesAGroup) {
    SelectionRequest r;
    r.tags = {"2d_block_io"};
    EXPECT_EQ(names(selectCases(kTagged, r)), (std::vector<std::string>{"2d_block_io.store.d"}));
    r.tags = {"2d_block_io", "regression"};
    EXPECT_EQ(
        names(selectCases(kTagged, r)),
        (std::vector<std::string>{"2d_block_io.store.d", "subgroups.shuffle.a", "subgroups.shuffle.b"}));
    r.tags = {"subgroups.shuffle"};  // a group, not a deeper level: no case carries it
    EXPECT_NE(selectCases(kTagged, r).error.find("is on no case"), std::string::npos);
}

TEST(Selection, TagOnNoCaseIsAnErrorListingTheKnownTags) {
    SelectionRequest r;
    r.tags = {"regresion"};
    Selection s = selectCases(kTagged, r);
    EXPECT_TRUE(s.cases.empty());
    EXPECT_NE(s.error.find("tag 'regresion'"), std::string::npos) << s.error;
    EXPECT_NE(s.error.find("extended, quick, regression"), std::string::npos) << s.error;
    r.tags = {"quick", "nosuch"};
    EXPECT_NE(selectCases(kTagged, r).error.find("'nosuch'"), std::string::npos);
}

TEST(Selection, TagCountsCountEachCaseOncePerTag) {
    std::vector<CaseSpec> all = kTagged;
    all.push_back(tree({{"api.x", {"quick", "quick"}}})[0]);  // a repeated tag counts once
    EXPECT_EQ(tagCounts(all), (std::vector<std::pair<std::string, size_t>>{{"2d_block_io", 2},
                                                                           {"api", 1},
                                                                           {"extended", 1},
                                                                           {"quick", 3},
                                                                           {"regression", 3},
                                                                           {"subgroups", 3}}));
    EXPECT_TRUE(tagCounts(std::vector<CaseSpec>{}).empty());
}

// Cases tagged huge need --huge, even when named exactly; without it the error says so.
TEST(Selection, HugeCasesOnlyWithHuge) {
    const std::vector<CaseSpec> cases = tree(
        {{"2d_block_io.scale.offset_past_4gib.load", {"huge"}}, {"2d_block_io.scale.groups_1024.load", {}}});
    SelectionRequest r;
    EXPECT_EQ(names(selectCases(cases, r)), std::vector<std::string>{"2d_block_io.scale.groups_1024.load"});
    r.huge = true;
    EXPECT_EQ(names(selectCases(cases, r)).size(), 2u);
    r = {};
    r.positive = {{"2d_block_io.scale.offset_past_4gib.load", "command line"}};
    Selection s = selectCases(cases, r);
    EXPECT_NE(s.error.find("1 tagged huge (add --huge)"), std::string::npos) << s.error;
}

// --tier=core keeps the cases whose module the environment promises to build; the error names the filter.
TEST(Selection, TierCoreDropsDeviceSpecificCases) {
    std::vector<CaseSpec> cases = tree({{"subgroups.shuffle.f16.v4", {}}, {"subgroups.shuffle.f16.v1", {}}});
    cases[0].tier = Tier::DeviceSpecific;
    SelectionRequest r;
    EXPECT_EQ(names(selectCases(cases, r)).size(), 2u);
    r.core_only = true;
    EXPECT_EQ(names(selectCases(cases, r)), std::vector<std::string>{"subgroups.shuffle.f16.v1"});
    r.positive = {{"subgroups.shuffle.f16.v4", "command line"}};
    Selection s = selectCases(cases, r);
    EXPECT_TRUE(s.cases.empty());
    EXPECT_NE(s.error.find("1 of tier device_specific (--tier=core)"), std::string::npos) << s.error;
}

// More shards than selected cases (a fixed CI matrix over a small selection) leaves some shards empty;
// that is not a usage error.
TEST(Selection, AnEmptyShardOfANonEmptySelectionIsFine) {
    SelectionRequest r;
    r.positive = {{"api", "command line"}};
    r.shard_index = 1;
    r.shard_count = 2;
    Selection s = selectCases(kTree, r);
    EXPECT_EQ(s.error, "");
    EXPECT_TRUE(s.cases.empty());
}

TEST(Selection, ShardsAreDisjointAndCoverTheList) {
    std::vector<std::pair<std::string, std::vector<std::string>>> many;
    for (int i = 0; i < 53; ++i) many.push_back({"g.case_" + std::to_string(i), {}});
    auto all = tree(many);
    std::vector<std::string> full = names(selectCases(all, {}));
    for (unsigned n : {1u, 2u, 3u, 7u, 60u}) {
        std::multiset<std::string> seen;
        for (unsigned i = 0; i < n; ++i) {
            SelectionRequest r;
            r.shard_index = i;
            r.shard_count = n;
            auto part = names(selectCases(all, r));
            // Round-robin: shard sizes differ by at most one.
            EXPECT_LE(part.size(), (full.size() + n - 1) / n);
            seen.insert(part.begin(), part.end());
        }
        EXPECT_EQ(seen.size(), full.size()) << n;
        EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), full.size()) << "overlap, n=" << n;
    }
}

TEST(PatternMatcher, AgreesWithPatternSelectsAndFindsTheFirstPattern) {
    const std::vector<std::string> patterns = {"subgroups.shuffle_down",
                                               "api",
                                               "subgroups.shuffle*.i32.*",
                                               "2d_block_io.load.e1.w32.h8.c1",
                                               "api",
                                               "?d_block_io",
                                               "subgroups.shuffle_down.i32.v1",
                                               "subgroups.shuffle_do"};
    const PatternMatcher m(patterns);
    for (const auto& c : kTree) {
        std::vector<size_t> want, got;
        for (size_t i = 0; i < patterns.size(); ++i)
            if (patternSelects(patterns[i], c.name)) want.push_back(i);
        m.forEachMatch(c.name, [&](size_t i) { got.push_back(i); });
        std::sort(got.begin(), got.end());
        EXPECT_EQ(got, want) << c.name;
        EXPECT_EQ(m.firstMatch(c.name), want.empty() ? PatternMatcher::npos : want.front()) << c.name;
    }
    // A wildcard pattern ahead of an exact one is the first match.
    EXPECT_EQ(PatternMatcher({"sub*", "subgroups"}).firstMatch("subgroups.x"), 0u);
    EXPECT_EQ(PatternMatcher({"nothing", "subgroups"}).firstMatch("subgroups.x"), 1u);
    EXPECT_EQ(PatternMatcher({"nothing"}).firstMatch("subgroups.x"), PatternMatcher::npos);
}

TEST(PatternFile, CommentsBlankLinesAndLineNumbers) {
    auto p = parsePatternText("# header\n\nsubgroups.shuffle  # trailing\n  api.*\r\n#\n", "list.txt");
    ASSERT_EQ(p.size(), 2u);
    EXPECT_EQ(p[0].text, "subgroups.shuffle");
    EXPECT_EQ(p[0].source, "list.txt:3");
    EXPECT_EQ(p[1].text, "api.*");
    EXPECT_EQ(p[1].source, "list.txt:4");
    std::vector<Pattern> out;
    EXPECT_NE(readPatternFile("/nonexistent/list.txt", out).find("/nonexistent/list.txt"), std::string::npos);
}

// `--caselist-file=/tmp` used to read as an empty list and run the whole suite.
TEST(PatternFile, ADirectoryIsAnError) {
    std::vector<Pattern> out;
    std::string dir = testing::TempDir();
    std::string err = readPatternFile(dir, out);
    EXPECT_NE(err.find(dir), std::string::npos) << err;
    EXPECT_NE(err.find("directory"), std::string::npos) << err;
    EXPECT_TRUE(out.empty());
    err = readCaseListFile(dir, out);
    EXPECT_NE(err.find("directory"), std::string::npos) << err;
}

// --waiver-file=/dev/zero read until memory ran out; a FIFO blocked the run before it started.
TEST(PatternFile, OnlyRegularFilesOfABoundedSizeAreRead) {
    std::string text;
    std::string err = readTextFile("/dev/zero", &text);
    EXPECT_NE(err.find("/dev/zero: not a regular file"), std::string::npos) << err;
    std::string fifo = testing::TempDir() + "cts_selection_fifo_" + std::to_string(getpid());
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    err = readTextFile(fifo, &text);
    unlink(fifo.c_str());
    EXPECT_NE(err.find("not a regular file (a FIFO)"), std::string::npos) << err;
    std::string path = testing::TempDir() + "cts_selection_big_" + std::to_string(getpid()) + ".txt";
    std::ofstream(path) << "0123456789";
    EXPECT_EQ(readTextFile(path, &text, 10), "");
    EXPECT_EQ(text, "0123456789");
    err = readTextFile(path, &text, 9);
    unlink(path.c_str());
    EXPECT_NE(err.find("more than the 9"), std::string::npos) << err;
}

// An empty case list used to select every case; an empty exclude list rightly excludes nothing.
TEST(PatternFile, AnEmptyCaseListIsAnErrorAnEmptyExcludeListIsNot) {
    std::string path = testing::TempDir() + "cts_selection_empty_list_" + std::to_string(getpid()) + ".txt";
    for (const char* text : {"", "\n\n", "# only a comment\n   # and another\n"}) {
        {
            std::ofstream f(path);
            f << text;
        }
        std::vector<Pattern> out;
        EXPECT_EQ(readPatternFile(path, out), "");
        EXPECT_TRUE(out.empty());
        std::string err = readCaseListFile(path, out);
        EXPECT_NE(err.find(path), std::string::npos) << err;
        EXPECT_NE(err.find("no case name or pattern"), std::string::npos) << err;
        EXPECT_TRUE(out.empty());
    }
    {
        std::ofstream f(path);
        f << "# one\napi\n";
    }
    std::vector<Pattern> out = {{"earlier", "command line"}};
    EXPECT_EQ(readCaseListFile(path, out), "");
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[1].text, "api");
    EXPECT_EQ(out[1].source, path + ":2");
    std::remove(path.c_str());
}

TEST(Seed, StableAndDependsOnNameAndRunSeed) {
    // FNV-1a 64 reference values.
    EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
    EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
    uint64_t s = caseSeed("subgroups.shuffle.i32", 0);
    EXPECT_EQ(s, caseSeed("subgroups.shuffle.i32", 0));
    EXPECT_NE(s, caseSeed("subgroups.shuffle.i64", 0));
    EXPECT_NE(s, caseSeed("subgroups.shuffle.i32", 1));
}

}  // namespace
}  // namespace cts
