#include "test_common/harness/rerun.h"

#include <gtest/gtest.h>

namespace cts {
namespace {

TEST(Rerun, TakesEveryNonPassingAndNotRunCaseWithTheSeed) {
    RerunRequest r;
    ASSERT_EQ(parseRerunReport(R"({"results": {}, "seed": 7, "quick": true, "cases": [
        {"name": "a.pass", "status": "Pass"}, {"name": "a.fail", "status": "Fail"},
        {"name": "a.skip", "status": "NotSupported"}, {"name": "a.crash", "status": "Crash"},
        {"name": "a.interr", "status": "InternalError"}, {"name": "a.hang", "status": "Timeout"},
        {"name": "a.waived", "status": "Waived"}], "not_run": ["a.later", "a.fail"]})",
                               "r.json", r),
              "");
    EXPECT_EQ(r.names,
              (std::vector<std::string>{"a.fail", "a.crash", "a.interr", "a.hang", "a.waived", "a.later"}));
    EXPECT_EQ(r.seed, 7u);
    EXPECT_TRUE(r.quick);
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
