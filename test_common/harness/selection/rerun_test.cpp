#include "test_common/harness/selection/rerun.h"

#include <gtest/gtest.h>

namespace cts {
namespace {

TEST(Rerun, TakesEveryNonPassingAndNotRunCaseWithTheSeed) {
    RerunRequest r;
    ASSERT_EQ(parseRerunReport(R"({"results": {}, "seed": 7, "quick": true, "cases": [
        {"name": "a.pass", "status": "Pass"}, {"name": "a.fail", "status": "Fail"},
        {"name": "a.skip", "status": "NotSupported"}, {"name": "a.crash", "status": "Crash"},
        {"name": "a.interr", "status": "InternalError"}, {"name": "a.hang", "status": "Timeout"},
        {"name": "a.waived", "status": "Waived"}, {"name": "a.flaky", "status": "Flake"}],
        "not_run": ["a.later", "a.fail"]})",
                               "r.json", r),
              "");
    EXPECT_EQ(r.names,
              (std::vector<std::string>{"a.fail", "a.crash", "a.interr", "a.hang", "a.waived", "a.later"}));
    EXPECT_EQ(r.seed, 7u);
    EXPECT_TRUE(r.quick);
    EXPECT_FALSE(r.has_selection);
    EXPECT_EQ(r.flaky, 1u);
}

// A --retry run's report holds Flake (passed on a retry): it was refused as "not a --json report".
TEST(Rerun, AFlakePassedAndIsNotRerun) {
    RerunRequest r;
    EXPECT_EQ(parseRerunReport(R"({"results": {}, "cases": [{"name": "a.f", "status": "Fail"},
        {"name": "a.flaky", "status": "Flake", "attempts": ["Fail: x", "Pass"]}]})",
                               "r.json", r),
              "");
    EXPECT_EQ(r.names, std::vector<std::string>{"a.f"});
    std::string err = parseRerunReport(
        R"({"results": {}, "cases": [{"name": "a.flaky", "status": "Flake"}]})", "r.json", r);
    EXPECT_NE(err.find("r.json has nothing to rerun"), std::string::npos) << err;
    EXPECT_NE(err.find("1 of them as Flake"), std::string::npos) << err;
}

// The selection record says how the earlier run chose its cases; it wins over the top-level copies.
TEST(Rerun, TakesTheSelectionRecord) {
    RerunRequest r;
    ASSERT_EQ(parseRerunReport(R"({"results": {}, "seed": 1, "quick": false,
        "cases": [{"name": "a.fail", "status": "Fail"}],
        "selection": {"patterns": ["a"], "filter": "", "caselist_file": "", "exclude_file": "", "tags": [],
                      "quick": true, "extended": true, "huge": true, "tier": "core", "rerun_failed": "",
                      "seed": 9, "suite_version": "0.1.0", "manifest_sha256": ""}})",
                               "r.json", r),
              "");
    EXPECT_TRUE(r.has_selection);
    EXPECT_EQ(r.seed, 9u);
    EXPECT_EQ(r.suite_version, "0.1.0");
    EXPECT_TRUE(r.quick && r.extended && r.huge && r.core_only);
}

// A huge case that failed was silently left out of the rerun ("3 passed", exit 0) when --huge was missing.
TEST(Rerun, AFailedCaseTheSelectionWouldDropIsAnError) {
    std::vector<CaseSpec> all(3);
    all[0].name = "g.small";
    all[1].name = "g.big";
    all[1].tags = {"huge"};
    all[2].name = "g.specific";
    all[2].tier = Tier::DeviceSpecific;
    RerunRequest r;
    r.names = {"g.small", "g.big", "g.specific"};
    SelectionRequest request;
    request.names = r.names;
    std::string err = checkRerunSelection(r, "h.json", all, request);
    EXPECT_NE(err.find("1 case(s) h.json did not pass would not run (tagged huge: add --huge"),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("no \"selection\" record"), std::string::npos) << err;
    EXPECT_NE(err.find("g.big"), std::string::npos) << err;
    request.huge = true;
    EXPECT_EQ(checkRerunSelection(r, "h.json", all, request), "");
    request.core_only = true;
    err = checkRerunSelection(r, "h.json", all, request);
    EXPECT_NE(err.find("g.specific"), std::string::npos) << err;
    // An --exclude-file leaves cases out on purpose; a shard runs its part of the rerun.
    request.negative = {{"g.specific", "x.txt:1"}};
    request.shard_index = 1;
    request.shard_count = 2;
    EXPECT_EQ(checkRerunSelection(r, "h.json", all, request), "");
}

TEST(Rerun, RefusesWhatIsNotARunnerReportOrHasNothingToRerun) {
    struct Bad {
        const char* text;
        const char* want;
    };
    const Bad bad[] = {
        {"{", "r.json is not JSON"},
        {"[]", "r.json is not a spirv_intel_cts --json report"},
        {R"({"results": {}})", "r.json is not a spirv_intel_cts --json report"},
        {R"({"results": {}, "cases": [{"name": "a"}]})", "r.json is not a spirv_intel_cts --json report"},
        {R"({"results": {}, "cases": [{"name": "a", "status": "Broken"}]})",
         "r.json is not a spirv_intel_cts"},
        {R"({"results": {}, "cases": [], "not_run": "a"})", "r.json is not a spirv_intel_cts"},
        {R"({"results": {}, "cases": [{"name": "a", "status": "Pass"}], "not_run": []})",
         "r.json has nothing to rerun"},
        // A negative seed used to become 0: the rerun then ran with another seed than the failure.
        {R"({"results": {}, "seed": -1, "cases": [{"name": "a", "status": "Fail"}]})",
         "r.json is not a spirv_intel_cts --json report: \"seed\" is not an unsigned integer"},
        {R"({"results": {}, "seed": 1.5, "cases": [{"name": "a", "status": "Fail"}]})",
         "r.json is not a spirv_intel_cts --json report: \"seed\""},
        {R"({"results": {}, "cases": [{"name": "a", "status": "Fail"}], "selection": {"quick": false,
            "extended": false, "huge": false, "tier": "all", "seed": -3}})",
         "r.json is not a spirv_intel_cts --json report: \"selection\": \"seed\""},
        {R"({"results": {}, "cases": [{"name": "a", "status": "Fail"}], "selection": {"quick": false,
            "extended": false, "huge": 1, "tier": "all", "seed": 3}})",
         "r.json is not a spirv_intel_cts --json report: \"selection\": \"huge\""},
        {R"({"results": {}, "cases": [{"name": "a", "status": "Fail"}], "cases": []})",
         "r.json is not JSON (line 1: key \"cases\" appears twice"},
    };
    for (const auto& b : bad) {
        RerunRequest r;
        std::string err = parseRerunReport(b.text, "r.json", r);
        EXPECT_EQ(err.rfind(b.want, 0), 0u) << err << " for " << b.text;
    }
    RerunRequest r;
    EXPECT_NE(readRerunReport("/nonexistent/r.json", r).find("cannot read"), std::string::npos);
}

}  // namespace
}  // namespace cts
