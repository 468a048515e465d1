#include "test_common/harness/reports/waivers.h"

#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include <nlohmann/json.hpp>

namespace cts {
namespace {

const char* const kFile = R"({
  "waivers": [
    {
      "cases": ["subgroups.shuffle_up.*.delta_1.*", "2d_block_io.load.e1"],
      "device": {"platform": "Intel*", "name": "*Max*", "driver_version": {"min": "1.2", "max": "1.4.10"},
                 "vendor_id": "0x8086"},
      "tracker": "https://tracker.example/1",
      "reason": "off by one"
    },
    {"cases": ["media_block_io.*"], "device": "*", "tracker": "https://tracker.example/2", "reason": "any device"}
  ]
}
)";

std::string parse(const std::string& text, std::vector<Waiver>& out) {
    return parseWaivers(text, "w.json", out);
}

WaiverDevice intelMax(const std::string& driver) {
    return {"Intel(R) OpenCL Graphics", "Intel(R) Data Center GPU Max 1100", driver, 0x8086};
}

TEST(Waivers, ParsesEveryFieldAndRecordsWhereEachEntryStarts) {
    std::vector<Waiver> w;
    ASSERT_EQ(parse(kFile, w), "");
    ASSERT_EQ(w.size(), 2u);
    EXPECT_EQ(w[0].cases.size(), 2u);
    EXPECT_EQ(w[0].platform, "Intel*");
    EXPECT_EQ(w[0].driver_min, "1.2");
    EXPECT_EQ(w[0].driver_max, "1.4.10");
    EXPECT_TRUE(w[0].has_vendor_id);
    EXPECT_EQ(w[0].vendor_id, 0x8086u);
    EXPECT_EQ(w[0].tracker, "https://tracker.example/1");
    EXPECT_EQ(w[0].source, "w.json:3");
    EXPECT_EQ(w[1].source, "w.json:10");
    EXPECT_FALSE(w[1].has_vendor_id);
    EXPECT_FALSE(w[0].every_device);
    EXPECT_TRUE(w[1].every_device);
    EXPECT_EQ(
        everyDeviceWarning(w[1]),
        "warning: waiver w.json:10 (https://tracker.example/2) applies to every device (device \"*\"): its "
        "cases are waived on any driver");
}

// Patterns that match every device are "device": "*" in other words: warned about the same way.
TEST(Waivers, PatternsMatchingEveryDeviceAreEveryDevice) {
    std::vector<Waiver> w;
    ASSERT_EQ(parse(R"({"waivers": [
        {"cases": ["a"], "device": {"platform": "*", "name": "**"}, "tracker": "t", "reason": "r"},
        {"cases": ["a"], "device": {"platform": "*", "driver_version": {"max": "2"}}, "tracker": "t", "reason": "r"},
        {"cases": ["a"], "device": {"name": "*Max*"}, "tracker": "t", "reason": "r"}]})",
                    w),
              "");
    ASSERT_EQ(w.size(), 3u);
    EXPECT_TRUE(w[0].every_device);
    EXPECT_FALSE(w[1].every_device);
    EXPECT_FALSE(w[2].every_device);
}

// Conditions that hold for every device in other spellings: wildcard-only patterns, a driver bound of 0.
TEST(Waivers, EveryDeviceInOtherSpellingsIsWarnedAbout) {
    std::vector<Waiver> w;
    ASSERT_EQ(parse(R"({"waivers": [
        {"cases": ["a"], "device": {"platform": "?*"}, "tracker": "t", "reason": "r"},
        {"cases": ["a"], "device": {"platform": "*", "driver_version": {"min": "0"}}, "tracker": "t", "reason": "r"},
        {"cases": ["a"], "device": {"name": "*?*", "driver_version": {"min": "0.0.0"}}, "tracker": "t", "reason": "r"},
        {"cases": ["a"], "device": {"platform": "*", "driver_version": {"min": "0.1"}}, "tracker": "t", "reason": "r"},
        {"cases": ["a"], "device": {"platform": "?*", "driver_version": {"min": "0", "max": "9"}}, "tracker": "t", "reason": "r"}]})",
                    w),
              "");
    ASSERT_EQ(w.size(), 5u);
    EXPECT_TRUE(w[0].every_device);
    EXPECT_TRUE(w[1].every_device);
    EXPECT_TRUE(w[2].every_device);
    EXPECT_FALSE(w[3].every_device);
    EXPECT_FALSE(w[4].every_device);
}

TEST(Waivers, DecimalVendorIdAndEmptyList) {
    std::vector<Waiver> w;
    ASSERT_EQ(parse(R"({"waivers": [{"cases": ["a"], "device": {"vendor_id": 32902}, "tracker": "t",
                      "reason": "r"}]})",
                    w),
              "");
    EXPECT_EQ(w[0].vendor_id, 32902u);
    std::vector<Waiver> none;
    EXPECT_EQ(parse(R"({"waivers": []})", none), "");
    EXPECT_TRUE(none.empty());
}

// Each malformed file names the line: of the JSON syntax error, else of the entry at fault.
TEST(Waivers, MalformedFilesNameTheLine) {
    struct Bad {
        std::string text, want;
    };
    const std::string head =
        "{\n  \"waivers\": [\n    {\"cases\": [\"a\"], \"device\": \"*\", \"tracker\": \"t\", \"reason\": "
        "\"r\"},\n";
    const Bad bad[] = {
        {"{\n  \"waivers\": [\n    {\"cases\": [\"a\"],, }\n  ]\n}\n", "w.json:3: not valid JSON"},
        {head + "    {\"cases\": [\"a\"], \"tracker\": \"t\", \"reason\": \"r\", \"owner\": \"x\"}\n  ]\n}\n",
         "w.json:4: unknown key \"owner\""},
        {head + "    {\"cases\": [\"a\"], \"reason\": \"r\"}\n  ]\n}\n",
         "w.json:4: waiver entry lacks \"tracker\""},
        {head + "    {\"tracker\": \"t\", \"reason\": \"r\"}\n  ]\n}\n",
         "w.json:4: waiver entry lacks \"cases\""},
        {head + "    {\"cases\": [\"a\"], \"tracker\": \"t\"}\n  ]\n}\n",
         "w.json:4: waiver entry lacks \"reason\""},
        {head + "    {\"cases\": [\"Sub groups\"], \"tracker\": \"t\", \"reason\": \"r\"}\n  ]\n}\n",
         "w.json:4: bad case pattern"},
        {head + "    {\"cases\": [], \"tracker\": \"t\", \"reason\": \"r\"}\n  ]\n}\n",
         "w.json:4: \"cases\" must"},
        {head + "\n    {\"cases\": [\"a\"], \"tracker\": \"t\", \"reason\": \"r\",\n     \"device\": " +
             "{\"platform\": \"p\", \"driver_version\": {\"min\": \"1.x\"}}}\n  ]\n}\n",
         "w.json:5: \"driver_version\": \"min\" must be a dotted version"},
        {head +
             "    {\"cases\": [\"a\"], \"tracker\": \"t\", \"reason\": \"r\", \"device\": "
             "{\"name\": \"n\", \"driver_version\": " +
             "{\"min\": \"2\", \"max\": \"1.9\"}}}\n  ]\n}\n",
         "w.json:4: \"driver_version\": \"min\" is above \"max\""},
        {head + "    {\"cases\": [\"a\"], \"tracker\": \"t\", \"reason\": \"r\", \"device\": {\"gpu\": "
                "\"x\"}}\n  ]\n}\n",
         "w.json:4: unknown key \"gpu\" in \"device\""},
        {head +
             "    {\"cases\": [\"a\"], \"tracker\": \"t\", \"reason\": \"r\", \"device\": {\"vendor_id\": "
             "\"8086\"}}" +
             "\n  ]\n}\n",
         "w.json:4: \"device\": \"vendor_id\" must be"},
        // A repeated key keeps only its last value: here an empty list, which waived nothing.
        {"{\n  \"waivers\": [{\"cases\": [\"a\"], \"device\": \"*\", \"tracker\": \"t\", \"reason\": "
         "\"r\"}],\n"
         "  \"waivers\": []\n}\n",
         "w.json:3: key \"waivers\" appears twice in one object"},
        {head + "    {\"cases\": [\"a\"], \"device\": {\"name\": \"x\", \"n\\u0061me\": \"y\"}, \"tracker\": "
                "\"t\", \"reason\": \"r\"}\n  ]\n}\n",
         "w.json:4: key \"name\" appears twice"},
        // The reason is printed on the console and in the log: no line breaks, escapes or NULs.
        {head + "    {\"cases\": [\"a\"], \"device\": \"*\", \"tracker\": \"t\", \"reason\": \"r\\nPASS\"}\n "
                " ]\n}\n",
         "w.json:4: \"reason\" holds a control character (a newline)"},
        {head + "    {\"cases\": [\"a\"], \"device\": \"*\", \"tracker\": \"t\", \"reason\": "
                "\"\\u001b[2K\"}\n  ]\n}\n",
         "w.json:4: \"reason\" holds a control character (ESC)"},
        {head + "    {\"cases\": [\"a\"], \"device\": \"*\", \"tracker\": \"t\", \"reason\": "
                "\"a\\u0000b\"}\n  ]\n}\n",
         "w.json:4: \"reason\" holds a control character (NUL)"},
        // C1 controls are terminal commands too (U+009B is CSI, ESC [ in one character).
        {head + "    {\"cases\": [\"a\"], \"device\": \"*\", \"tracker\": \"t\", \"reason\": "
                "\"\\u009b2K\"}\n  ]\n}\n",
         "w.json:4: \"reason\" holds a control character (the C1 control U+009B)"},
        {head + "    {\"cases\": [\"a\"], \"device\": \"*\", \"tracker\": \"a\u0085b\", \"reason\": "
                "\"r\"}\n  ]\n}\n",
         "w.json:4: \"tracker\" holds a control character (the C1 control U+0085)"},
        // Invisible format characters reorder (U+202E), hide (U+200B) or break (U+2028) what is read beside
        // them, in JSON escapes or raw.
        {head + "    {\"cases\": [\"a\"], \"device\": \"*\", \"tracker\": \"t\", \"reason\": "
                "\"fixed\\u202e 42.1\"}\n  ]\n}\n",
         "w.json:4: \"reason\" holds the invisible format character U+202E"},
        {head + "    {\"cases\": [\"a\"], \"device\": \"*\", \"tracker\": \"t\u200b\", \"reason\": "
                "\"r\"}\n  ]\n}\n",
         "w.json:4: \"tracker\" holds the invisible format character U+200B"},
        {head + "    {\"cases\": [\"a\"], \"device\": \"*\", \"tracker\": \"t\", \"reason\": "
                "\"a\\u2028PASS\"}\n  ]\n}\n",
         "w.json:4: \"reason\" holds the invisible format character U+2028"},
        // An entry without a device hid every failure of any driver the file was given to.
        {head + "    {\"cases\": [\"*\"], \"tracker\": \"t\", \"reason\": \"r\"}\n  ]\n}\n",
         "w.json:4: waiver entry lacks \"device\""},
        {head + "    {\"cases\": [\"a\"], \"device\": {\"driver_version\": {\"min\": \"1\"}}, \"tracker\": "
                "\"t\", "
                "\"reason\": \"r\"}\n  ]\n}\n",
         "w.json:4: \"device\" must name the device"},
        {head +
             "    {\"cases\": [\"a\"], \"device\": \"any\", \"tracker\": \"t\", \"reason\": \"r\"}\n  ]\n}\n",
         "w.json:4: \"device\" must be an object, or \"*\""},
        {"[]", "w.json:1: expected an object"},
        {"{\"waivers\": [], \"extra\": 1}", "w.json:1: unknown top-level key \"extra\""},
    };
    for (const auto& b : bad) {
        std::vector<Waiver> w;
        std::string err = parse(b.text, w);
        EXPECT_EQ(err.rfind(b.want, 0), 0u) << "got: " << err << "\nfor:\n" << b.text;
        EXPECT_TRUE(w.empty());
    }
}

TEST(Waivers, UnreadableFilesAreErrors) {
    std::vector<Waiver> w;
    EXPECT_NE(readWaiverFile("/nonexistent/w.json", w).find("cannot read /nonexistent/w.json"),
              std::string::npos);
    EXPECT_NE(readWaiverFile("/tmp", w).find("is a directory"), std::string::npos);
}

TEST(Waivers, DottedVersions) {
    std::vector<uint64_t> a, b;
    ASSERT_TRUE(parseDottedVersion("1.2", a));
    ASSERT_TRUE(parseDottedVersion("1.2.0", b));
    EXPECT_EQ(compareVersions(a, b), 0);
    ASSERT_TRUE(parseDottedVersion("1.10", b));
    EXPECT_EQ(compareVersions(a, b), -1);  // numeric, not by characters
    EXPECT_EQ(compareVersions(b, a), 1);
    for (const char* bad : {"", "1.", ".1", "1..2", "v1", "1.2a", "1 .2"})
        EXPECT_FALSE(parseDottedVersion(bad, a)) << bad;
    ASSERT_TRUE(driverVersionNumbers("24.13.29138.7 (release)", a));
    EXPECT_EQ(a, (std::vector<uint64_t>{24, 13, 29138, 7}));
    ASSERT_TRUE(driverVersionNumbers("refdev 1.0.", a));
    EXPECT_EQ(a, (std::vector<uint64_t>{1, 0}));
    EXPECT_FALSE(driverVersionNumbers("unknown", a));
}

TEST(Waivers, DeviceConditions) {
    std::vector<Waiver> w;
    ASSERT_EQ(parse(kFile, w), "");
    EXPECT_TRUE(waiverAppliesTo(w[0], intelMax("1.2")));     // min is inclusive
    EXPECT_TRUE(waiverAppliesTo(w[0], intelMax("1.4.10")));  // max is inclusive
    EXPECT_TRUE(waiverAppliesTo(w[0], intelMax("1.3.99999")));
    EXPECT_FALSE(waiverAppliesTo(w[0], intelMax("1.1.9")));
    EXPECT_FALSE(waiverAppliesTo(w[0], intelMax("1.4.11")));
    EXPECT_FALSE(waiverAppliesTo(w[0], intelMax("no number")));  // a bound cannot hold
    WaiverDevice other = intelMax("1.3");
    other.vendor_id = 0x10de;
    EXPECT_FALSE(waiverAppliesTo(w[0], other));
    other = intelMax("1.3");
    other.name = "Intel(R) Arc(TM) A770";
    EXPECT_FALSE(waiverAppliesTo(w[0], other));
    other = intelMax("1.3");
    other.platform = "Portable Computing Language";
    EXPECT_FALSE(waiverAppliesTo(w[0], other));
    EXPECT_TRUE(waiverAppliesTo(w[1], {"", "", "", 0}));  // no condition: every device
}

TEST(Waivers, OnlyFailCrashAndTimeoutOfCoveredCasesAreWaived) {
    std::vector<Waiver> w;
    ASSERT_EQ(parse(kFile, w), "");
    const std::string covered = "subgroups.shuffle_up.i32.v1.sg16.delta_1.wg_one.cf_all";
    for (Status s : {Status::Fail, Status::Crash, Status::Timeout}) {
        CaseResult r{covered, s, "wrong", 1, 2};
        applyWaivers(WaiverSet(w), r);
        EXPECT_EQ(r.status, Status::Waived);
        EXPECT_EQ(r.waived_status, s);
        EXPECT_EQ(r.message, "wrong");
        EXPECT_EQ(r.waiver_tracker, "https://tracker.example/1");
        EXPECT_EQ(r.waiver_reason, "off by one");
    }
    for (Status s : {Status::Pass, Status::NotSupported, Status::InternalError}) {
        CaseResult r{covered, s, "", 1, 2};
        applyWaivers(WaiverSet(w), r);
        EXPECT_EQ(r.status, s);
    }
    CaseResult subtree{"2d_block_io.load.e1.w16.h8.c1", Status::Fail, "", 0,
                       0};  // a prefix selects its subtree
    applyWaivers(WaiverSet(w), subtree);
    EXPECT_EQ(subtree.status, Status::Waived);
    for (const char* name :
         {"subgroups.shuffle_up.i32.v1.sg16.delta_2.wg_one.cf_all", "2d_block_io.load.e10.w1"}) {
        CaseResult r{name, Status::Fail, "", 0, 0};
        applyWaivers(WaiverSet(w), r);
        EXPECT_EQ(r.status, Status::Fail) << name;
    }
}

TEST(Waivers, StaleWhenACoveredCasePassesOrAnEntryMatchesNothingSelected) {
    std::vector<Waiver> w;
    ASSERT_EQ(parse(kFile, w), "");
    std::vector<std::string> selected = {"subgroups.shuffle_up.i32.v1.sg16.delta_1.wg_one.cf_all",
                                         "subgroups.shuffle_up.i32.v1.sg16.delta_1.wg_one.cf_some",
                                         "subgroups.shuffle_up.i32.v1.sg16.delta_2.wg_one.cf_all"};
    std::vector<CaseResult> results = {{selected[0], Status::Waived, "", 0, 0},
                                       {selected[1], Status::Pass, "", 0, 0},
                                       {selected[2], Status::Pass, "", 0, 0}};
    auto stale = staleWaivers(WaiverSet(w), selected, results);
    ASSERT_EQ(stale.size(), 2u);
    EXPECT_EQ(staleText(stale[0]),
              "waiver no longer needed: " + selected[1] + " (https://tracker.example/1)");
    EXPECT_EQ(staleText(stale[1]), "waiver matches no selected case: w.json:10 (https://tracker.example/2)");
    results[1].status = Status::Waived;
    selected.push_back("media_block_io.read.x");
    EXPECT_TRUE(staleWaivers(WaiverSet(w), selected, results).empty());
}

// A bug whose symptom depends on memory layout: a covered case that passes is not stale, an entry that covers
// nothing selected still is. own_process and intermittent are booleans.
TEST(Waivers, IntermittentAndOwnProcessEntries) {
    std::vector<Waiver> w;
    ASSERT_EQ(parse(R"({"waivers": [{"cases": ["subgroups.image_block_write.*.beyond_bottom"], "tracker": "t",
                                     "device": "*", "reason": "r", "own_process": true, "intermittent": true},
                                    {"cases": ["api.x"], "device": "*", "tracker": "u", "reason": "r"}]})",
                    w),
              "");
    ASSERT_EQ(w.size(), 2u);
    EXPECT_TRUE(w[0].own_process && w[0].intermittent);
    EXPECT_FALSE(w[1].own_process || w[1].intermittent);
    std::vector<std::string> selected = {
        "subgroups.image_block_write.u32.v1.sg16.r32ui.size_tight.beyond_bottom", "api.x"};
    std::vector<CaseResult> results = {{selected[0], Status::Pass, "", 0, 0},
                                       {selected[1], Status::Pass, "", 0, 0}};
    auto stale = staleWaivers(WaiverSet(w), selected, results);
    ASSERT_EQ(stale.size(), 1u);  // api.x passed: stale; the intermittent entry's pass is not
    EXPECT_EQ(stale[0].case_name, "api.x");
    stale = staleWaivers(WaiverSet(w), {"api.x"}, {results[1]});
    EXPECT_EQ(stale.size(), 2u);  // the intermittent entry now covers no selected case
    std::vector<Waiver> bad;
    EXPECT_NE(
        parse(R"({"waivers": [{"cases": ["a"], "tracker": "t", "reason": "r", "own_process": 1}]})", bad)
            .find("\"own_process\" must be true or false"),
        std::string::npos);
}

// "timeout_seconds": a positive number of seconds, at most kMaxWaiverTimeoutSeconds; errors name the entry's
// line.
TEST(Waivers, TimeoutSeconds) {
    std::vector<Waiver> w;
    ASSERT_EQ(parse(R"({"waivers": [{"cases": ["a.b"], "device": "*", "tracker": "t", "reason": "r",
                                     "timeout_seconds": 30},
                                    {"cases": ["a.c"], "device": "*", "tracker": "t", "reason": "r",
                                     "timeout_seconds": 2.5},
                                    {"cases": ["a.d"], "device": "*", "tracker": "t", "reason": "r"}]})",
                    w),
              "");
    ASSERT_EQ(w.size(), 3u);
    EXPECT_EQ(w[0].timeout_seconds, 30);
    EXPECT_EQ(w[1].timeout_seconds, 2.5);
    EXPECT_EQ(w[2].timeout_seconds, 0);  // none of its own
    for (const char* bad_value : {"0", "-5", "\"30\"", "true", "null", "[30]", "86401", "-0.0"}) {
        std::vector<Waiver> bad;
        std::string text = std::string("{\"waivers\": [\n{\"cases\": [\"a\"], \"device\": \"*\", ") +
                           "\"tracker\": \"t\", \"reason\": \"r\",\n \"timeout_seconds\": " + bad_value +
                           "}]}";
        std::string e = parse(text, bad);
        EXPECT_EQ(e.rfind("w.json:2: ", 0), 0u) << bad_value << ": " << e;
        EXPECT_NE(e.find("\"timeout_seconds\" must be a number of seconds above 0 and at most 86400"),
                  std::string::npos)
            << bad_value << ": " << e;
    }
    // A number beyond a double's range is an error at its line, not an exception that ends the runner.
    std::vector<Waiver> bad;
    EXPECT_EQ(
        parse("{\"waivers\": [\n{\"cases\": [\"a\"], \"device\": \"*\", \"tracker\": \"t\", \"reason\": "
              "\"r\",\n \"timeout_seconds\": 1e999}]}",
              bad),
        "w.json:3: not valid JSON: number overflow parsing '1e999'");
    EXPECT_NE(
        parse(R"({"waivers": [{"cases": ["a"], "device": "*", "tracker": "t", "reason": "r",
                                     "timeout": 30}]})",
              bad)
            .find(
                "(known: cases, device, tracker, reason, own_process, intermittent, timeout_seconds, skip)"),
        std::string::npos);
}

// "skip": a boolean; a skipped case's result is Waived, not run, with the entry's tracker, reason and place,
// and the reports and the summary say it did not run. It is never stale for passing (it did not run).
TEST(Waivers, SkipEntries) {
    std::vector<Waiver> w;
    ASSERT_EQ(parse(R"({"waivers": [{"cases": ["a.b"], "device": "*", "tracker": "t", "reason": "hangs",
                                     "skip": true},
                                    {"cases": ["a.c"], "device": "*", "tracker": "u", "reason": "r"}]})",
                    w),
              "");
    ASSERT_EQ(w.size(), 2u);
    EXPECT_TRUE(w[0].skip);
    EXPECT_FALSE(w[1].skip);
    std::vector<Waiver> bad;
    EXPECT_NE(
        parse(R"({"waivers": [{"cases": ["a"], "device": "*", "tracker": "t", "reason": "r", "skip": 1}]})",
              bad)
            .find("\"skip\" must be true or false"),
        std::string::npos);
    CaseResult r = skippedResult(w[0], "a.b", 42);
    EXPECT_EQ(r.status, Status::Waived);
    EXPECT_TRUE(r.not_run);
    EXPECT_EQ(r.seed, 42u);
    EXPECT_EQ(r.duration_ms, 0);
    EXPECT_EQ(r.waiver_tracker, "t");
    EXPECT_EQ(r.waiver_reason, "hangs");
    EXPECT_EQ(r.message, "not run: waiver " + w[0].source +
                             " skips it (a known crash or hang of this driver; --run-skipped runs it)");
    EXPECT_STREQ(waivedStatusName(r), "NotRun");
    CaseResult ran{"a.c", Status::Waived, "m", 1, 0};
    ran.waived_status = Status::Crash;
    EXPECT_STREQ(waivedStatusName(ran), "Crash");
    // A recorded skip is not rewaived (Waived is not waivable) and is not a stale pass.
    applyWaivers(WaiverSet(w), r);
    EXPECT_TRUE(r.not_run && r.status == Status::Waived);
    EXPECT_TRUE(staleWaivers(WaiverSet(w), {"a.b", "a.c"}, {r, ran}).empty());
    Tally t;
    t.add(r);
    t.add(ran);
    EXPECT_EQ(t.summary(), "0 passed, 0 failed, 0 skipped, 2 waived (1 not run: a waiver skips them)");
    RunInfo info;
    info.waiver_files = {"w.json"};
    EXPECT_NE(jsonReport(info, {r}).find("\"original_status\": \"NotRun\""), std::string::npos);
    EXPECT_NE(junitReport(info, {r}).find("waived: t (NotRun): not run: waiver"), std::string::npos);
    // Counted where a gate looks: the JSON report's top level and a JUnit property.
    EXPECT_NE(jsonReport(info, {r, ran}).find("\"waived_not_run\": 1,"), std::string::npos);
    EXPECT_NE(junitReport(info, {r, ran}).find("<property name=\"waived_not_run\" value=\"1\"/>"),
              std::string::npos);
    EXPECT_EQ(skippedShareText(1, 8), "1 of 8 selected case(s) (12.5%) skipped by waiver \"skip\" entries");
}

TEST(Waivers, ReportsCarryTheWaiver) {
    RunInfo info;
    info.waiver_files = {"w.json"};
    info.stale_waivers = {"waiver no longer needed: a.b (T)"};
    CaseResult r{"a.c", Status::Waived, "lane 3 <wrong>", 1, 2};
    r.waived_status = Status::Crash;
    r.waiver_tracker = "https://t/1";
    r.waiver_reason = "known";
    auto doc = nlohmann::json::parse(jsonReport(info, {r}));
    EXPECT_EQ(doc["cases"][0]["status"], "Waived");
    EXPECT_EQ(doc["cases"][0]["original_status"], "Crash");
    EXPECT_EQ(doc["cases"][0]["message"], "lane 3 <wrong>");
    EXPECT_EQ(doc["cases"][0]["waiver"]["tracker"], "https://t/1");
    EXPECT_EQ(doc["cases"][0]["waiver"]["reason"], "known");
    EXPECT_EQ(doc["results"]["a.c"], "fail");
    EXPECT_EQ(doc["waivers"]["files"][0], "w.json");
    EXPECT_EQ(doc["waivers"]["stale"][0], "waiver no longer needed: a.b (T)");
    EXPECT_FALSE(nlohmann::json::parse(jsonReport(RunInfo{}, {r})).contains("waivers"));
    std::string x = junitReport(info, {r});
    EXPECT_NE(x.find("<skipped message=\"waived: https://t/1 (Crash): lane 3 &lt;wrong&gt;\"/>"),
              std::string::npos)
        << x;
    EXPECT_NE(x.find("failures=\"0\" errors=\"0\" skipped=\"1\""), std::string::npos) << x;
    Tally t;
    t.add(Status::Waived);
    EXPECT_TRUE(t.allGood());
    EXPECT_EQ(t.summary(), "0 passed, 0 failed, 0 skipped, 1 waived");
}

}  // namespace
}  // namespace cts
