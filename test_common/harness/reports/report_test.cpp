#include "test_common/harness/reports/report.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace cts {
namespace {

const std::string kNasty = "say \"hi\" <b> & 'x'\nline2\ttab\x01\x1f end \\ back";

std::vector<CaseResult> sample() {
    return {{"api.a", Status::Pass, "", 1.5, 7},
            {"api.b", Status::Fail, kNasty, 2, 8},
            {"api.c", Status::NotSupported, "no <ext> & more", 0, 9},
            {"api.d", Status::InternalError, "missing \"file\"", 0, 10},
            {"api.e", Status::Crash, "signal 11", 0, 11},
            {"api.f", Status::Timeout, "no result", 0, 12}};
}

RunInfo info() {
    RunInfo i;
    i.command = "spirv_intel_cts '--filter=a<b'";
    i.platform = "P \"quoted\"";
    i.device = "D & co";
    i.driver = "1.0\n";
    i.runtime_package = "intel-opencl-rt 2026.2.0";
    i.seed = 5;
    i.quick = true;
    return i;
}

TEST(Json, ParsesBackWithEveryField) {
    auto doc = nlohmann::json::parse(jsonReport(info(), sample()));
    EXPECT_EQ(doc["cmd"], info().command);
    EXPECT_EQ(doc["results"]["api.a"], "pass");
    EXPECT_EQ(doc["results"]["api.b"], "fail");
    EXPECT_EQ(doc["results"]["api.c"], "skip");
    EXPECT_EQ(doc["results"]["api.e"], "fail");
    ASSERT_EQ(doc["cases"].size(), 6u);
    EXPECT_EQ(doc["cases"][1]["message"], kNasty);
    EXPECT_EQ(doc["cases"][1]["status"], "Fail");
    EXPECT_EQ(doc["cases"][5]["status"], "Timeout");
    EXPECT_EQ(doc["cases"][0]["seed"], 7u);
    EXPECT_DOUBLE_EQ(doc["cases"][0]["duration_ms"].get<double>(), 1.5);
    EXPECT_EQ(doc["device"], "D & co");
    EXPECT_EQ(doc["platform"], "P \"quoted\"");
    EXPECT_EQ(doc["driver"], "1.0\n");
    EXPECT_EQ(doc["runtime_package"], "intel-opencl-rt 2026.2.0");
    EXPECT_EQ(doc["seed"], 5u);
    EXPECT_EQ(doc["quick"], true);
}

TEST(Json, TierOnEveryCaseAndTheBuildPhaseWithItsLog) {
    std::vector<CaseResult> results = sample();
    results[1].phase = "build";
    results[1].build_log = "Compilation started\nerror: no <such> symbol";
    results[2].tier = Tier::DeviceSpecific;
    auto doc = nlohmann::json::parse(jsonReport(info(), results));
    EXPECT_EQ(doc["cases"][0]["tier"], "core");
    EXPECT_EQ(doc["cases"][2]["tier"], "device_specific");
    EXPECT_EQ(doc["cases"][1]["phase"], "build");
    EXPECT_EQ(doc["cases"][1]["build_log"], results[1].build_log);
    EXPECT_FALSE(doc["cases"][0].contains("phase"));
    std::string x = junitReport(info(), results);
    EXPECT_NE(x.find("<failure message=\"error: no &lt;such&gt; symbol\" type=\"build\">"), std::string::npos)
        << x;
    EXPECT_NE(x.find("<property name=\"tier\" value=\"device_specific\"/>"), std::string::npos) << x;
}

TEST(Json, MismatchGridsOnlyWhereAPictureWasRecorded) {
    std::vector<CaseResult> results = sample();
    results[1].picture.mark(GridShape{"sub-group 0: block", 8, 16, "row", "column"}, 2, 5, 0, 0xa5, 1);
    auto doc = nlohmann::json::parse(jsonReport(info(), results));
    const auto& grids = doc["cases"][1]["mismatches"]["grids"];
    ASSERT_EQ(grids.size(), 1u);
    EXPECT_EQ(grids[0]["title"], "sub-group 0: block");
    EXPECT_EQ(grids[0]["rows"], 8);
    EXPECT_EQ(grids[0]["cols"], 16);
    EXPECT_EQ(grids[0]["col_axis"], "column");
    EXPECT_EQ(grids[0]["count"], 1);
    EXPECT_EQ(grids[0]["marked"], "37+1");  // row 2 * 16 columns + column 5
    EXPECT_EQ(grids[0]["cells"][0], nlohmann::json::parse(R"({"row": 2, "col": 5, "expected": "0x00",
                                                                "actual": "0xa5"})"));
    EXPECT_EQ(doc["cases"][1]["message"], kNasty);  // the text stays as it was
    for (size_t i : {0u, 2u, 3u, 4u, 5u}) EXPECT_FALSE(doc["cases"][i].contains("mismatches")) << i;
}

RunInfo abortedInfo();  // below

// The report writes its cases directly, not through a tree: its text must be exactly what nlohmann's dump(2)
// makes of the same document, whatever the cases hold (any difference shows as a changed re-dump).
TEST(Json, TextIsTheTreeDumpByteForByte) {
    std::vector<CaseResult> results = sample();
    results[0].duration_ms = 1.0 / 3;
    results[1].duration_ms = 1e-7;
    results[2].duration_ms = 123456789.0;
    results[3].seed = ~uint64_t{0};
    results[0].phases = {1.0 / 3, 1, 0, 1e-7, 123456789.0123, 2.5};  // rounded to the microsecond
    results[6 - 1].phases = {0, 0, 7, 0.001, 0.0005, 0};
    results[4].message = "bad \xff\xfe bytes, del \x7f, caf\xc3\xa9, \xe2\x82";
    results[5].phase = "build";
    results[5].build_log = "line 1\nline 2 \"q\"";
    results.push_back({"api.w", Status::Waived, "waived: was Fail", 3.25, 13});
    results.back().waived_status = Status::Fail;
    results.back().waiver_tracker = "BUG-1";
    results.back().waiver_reason = "known <bug>";
    results.push_back({"api.p", Status::Fail, "mismatch", 0.5, 14});
    results.back().picture.mark(GridShape{"sub-group 0: block", 8, 16, "row", "column"}, 2, 5, 0, 0xa5, 1);
    results.push_back({"api.r", Status::Flake, "passed on attempt 2", 0.25, 15});
    results.back().attempts = {"Fail: first", "Pass"};
    results.back().tier = Tier::DeviceSpecific;
    results.push_back({"2d_block_io.g", Status::Pass, "", 0.75, 16});
    results.back().tier = Tier::DeviceSpecific;
    results.back().version_gaps = {"cl_intel_subgroup_2d_block_io"};
    RunInfo gapped = info();
    gapped.version_gaps = {{"cl_intel_subgroup_2d_block_io", "1.0.0", "1.1.0", 1}};
    for (const RunInfo& i : {info(), abortedInfo(), gapped})
        for (size_t n : {results.size(), size_t{1}, size_t{0}}) {
            std::vector<CaseResult> some(results.begin(), results.begin() + static_cast<long>(n));
            const std::string text = jsonReport(i, some);
            nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text);
            EXPECT_EQ(doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n", text)
                << n << " case(s)";
            ASSERT_EQ(doc["cases"].size(), n);
            ASSERT_EQ(doc["results"].size(), n);
            for (size_t k = 0; k < n; ++k) {
                EXPECT_EQ(doc["cases"][k]["name"], some[k].name);
                EXPECT_EQ(doc["cases"][k]["seed"], some[k].seed);
                EXPECT_EQ(doc["cases"][k]["duration_ms"], some[k].duration_ms);
                EXPECT_EQ(doc["results"][some[k].name], ctsResultWord(some[k].status));
            }
        }
}

// A version gap is named in the report (run level, with the count) and on each case it made device_specific.
TEST(Json, VersionGapsAreReported) {
    std::vector<CaseResult> results = {{"2d_block_io.g", Status::Pass, "", 0.75, 16}};
    results[0].tier = Tier::DeviceSpecific;
    results[0].version_gaps = {"cl_intel_subgroup_2d_block_io"};
    RunInfo i = info();
    i.version_gaps = {{"cl_intel_subgroup_2d_block_io", "1.0.0", "1.1.0", 1}};
    nlohmann::json doc = nlohmann::json::parse(jsonReport(i, results));
    ASSERT_EQ(doc["version_gaps"].size(), 1u);
    EXPECT_EQ(doc["version_gaps"][0]["extension"], "cl_intel_subgroup_2d_block_io");
    EXPECT_EQ(doc["version_gaps"][0]["reported"], "1.0.0");
    EXPECT_EQ(doc["version_gaps"][0]["promised_from"], "1.1.0");
    EXPECT_EQ(doc["version_gaps"][0]["cases"], 1);
    EXPECT_EQ(doc["cases"][0]["tier"], "device_specific");
    EXPECT_EQ(doc["cases"][0]["version_gaps"][0], "cl_intel_subgroup_2d_block_io");
    EXPECT_FALSE(nlohmann::json::parse(jsonReport(info(), results)).contains("version_gaps"));
    const std::string x = junitReport(i, results);
    EXPECT_NE(
        x.find("name=\"version_gap.cl_intel_subgroup_2d_block_io\" value=\"cl_intel_subgroup_2d_block_io "
               "1.0.0: SPIR-V support is promised from 1.1.0; its 1 case ran as device_specific\""),
        std::string::npos)
        << x;
}

TEST(Json, InvalidUtf8DoesNotThrow) {
    auto results = sample();
    results[1].message = "bad \xff\xfe bytes";
    EXPECT_NO_THROW(nlohmann::json::parse(jsonReport(info(), results)));
}

// A small well-formedness check: balanced tags, attribute values quoted, no raw '<' or '&' outside
// markup and entity references, no control characters other than tab/newline/CR.
bool wellFormed(const std::string& x, std::string& why) {
    std::vector<std::string> stack;
    size_t i = x.find("?>");
    if (x.rfind("<?xml", 0) != 0 || i == std::string::npos) return why = "no declaration", false;
    for (i += 2; i < x.size();) {
        unsigned char c = static_cast<unsigned char>(x[i]);
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t') return why = "control char", false;
        if (c == '&') {
            size_t semi = x.find(';', i);
            std::string ent = x.substr(i, semi - i + 1);
            if (semi == std::string::npos ||
                !(ent == "&amp;" || ent == "&lt;" || ent == "&gt;" || ent == "&quot;" || ent == "&apos;" ||
                  (ent.size() > 3 && ent[1] == '#')))
                return why = "bad entity at " + std::to_string(i), false;
            i = semi + 1;
            continue;
        }
        if (c != '<') {
            ++i;
            continue;
        }
        size_t end = i + 1;
        char quote = 0;
        for (; end < x.size(); ++end) {
            unsigned char d = static_cast<unsigned char>(x[end]);
            if (quote) {
                if (d == quote)
                    quote = 0;
                else if (d == '<')
                    return why = "'<' in attribute", false;
                else if (d < 0x20 && d != '\t' && d != '\n' && d != '\r')
                    return why = "control char in attribute", false;
            } else if (d == '"' || d == '\'') {
                quote = d;
            } else if (d == '>') {
                break;
            }
        }
        if (end >= x.size()) return why = "unterminated tag", false;
        std::string tag = x.substr(i + 1, end - i - 1);
        if (tag[0] == '/') {
            if (stack.empty() || stack.back() != tag.substr(1))
                return why = "mismatched </" + tag + ">", false;
            stack.pop_back();
        } else if (tag.back() != '/') {
            stack.push_back(tag.substr(0, tag.find_first_of(" \t\n")));
        }
        i = end + 1;
    }
    if (!stack.empty()) return why = "unclosed <" + stack.back() + ">", false;
    return true;
}

TEST(Junit, WellFormedWithNastyMessages) {
    std::string x = junitReport(info(), sample());
    std::string why;
    EXPECT_TRUE(wellFormed(x, why)) << why << "\n" << x;
    EXPECT_NE(x.find("<skipped message=\"no &lt;ext&gt; &amp; more\"/>"), std::string::npos);
    EXPECT_NE(x.find("<failure message=\"say &quot;hi&quot;"), std::string::npos);
    EXPECT_NE(x.find("type=\"InternalError\""), std::string::npos);
    EXPECT_NE(x.find("type=\"Crash\""), std::string::npos);
    EXPECT_NE(x.find("type=\"Timeout\""), std::string::npos);
    EXPECT_NE(x.find("failures=\"1\" errors=\"3\" skipped=\"1\""), std::string::npos);
    EXPECT_NE(x.find("\\x01"), std::string::npos);
    EXPECT_NE(x.find("<property name=\"runtime_package\" value=\"intel-opencl-rt 2026.2.0\"/>"),
              std::string::npos);
}

// Unknown is "" (not a missing key), so every report has the same fields.
TEST(Json, UnknownRuntimePackageIsEmpty) {
    RunInfo i = info();
    i.runtime_package.clear();
    auto doc = nlohmann::json::parse(jsonReport(i, sample()));
    ASSERT_TRUE(doc.contains("runtime_package"));
    EXPECT_EQ(doc["runtime_package"], "");
}

// True when text is well-formed UTF-8 (shortest forms, no surrogates, at most U+10FFFF).
bool validUtf8(const std::string& text, std::string& why) {
    for (size_t i = 0; i < text.size();) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        size_t n = c < 0x80                 ? 1
                   : c >= 0xc2 && c <= 0xdf ? 2
                   : c >= 0xe0 && c <= 0xef ? 3
                   : c >= 0xf0 && c <= 0xf4 ? 4
                                            : 0;
        if (n == 0 || i + n > text.size()) return why = "bad lead byte at " + std::to_string(i), false;
        uint32_t cp = n == 1 ? c : c & (0x7fu >> n);
        for (size_t k = 1; k < n; ++k) {
            unsigned char d = static_cast<unsigned char>(text[i + k]);
            if ((d & 0xc0) != 0x80) return why = "bad continuation at " + std::to_string(i + k), false;
            cp = (cp << 6) | (d & 0x3fu);
        }
        if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return why = "bad code point at " + std::to_string(i), false;
        if (cp == 0xfffe || cp == 0xffff) return why = "non-character at " + std::to_string(i), false;
        i += n;
    }
    return true;
}

TEST(Junit, InvalidUtf8InADriverMessageIsEscaped) {
    // A driver message in Latin-1, a truncated sequence, an overlong '/', an encoded surrogate, a lone
    // continuation byte, a non-character and bytes that never occur in UTF-8 — next to valid text that must
    // survive unchanged (2, 3 and 4 byte sequences).
    const std::string valid = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";
    auto results = sample();
    results[1].message =
        "build log: r\xe9sultat " + valid + " \xe2\x82 \xc0\xaf \xed\xa0\x80 \x80 \xef\xbf\xbf \xff\xfe";
    RunInfo i = info();
    i.driver = "drv \xb5 1.0";
    std::string x = junitReport(i, results);
    std::string why;
    EXPECT_TRUE(validUtf8(x, why)) << why;
    EXPECT_TRUE(wellFormed(x, why)) << why << "\n" << x;
    EXPECT_NE(x.find("r\\xe9sultat " + valid +
                     " \\xe2\\x82 \\xc0\\xaf \\xed\\xa0\\x80 \\x80 \\xef\\xbf\\xbf \\xff\\xfe"),
              std::string::npos)
        << x;
    EXPECT_NE(x.find("value=\"drv \\xb5 1.0\""), std::string::npos);
    EXPECT_EQ(xmlEscape(valid), valid);
    EXPECT_EQ(xmlEscape("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
    EXPECT_EQ(xmlEscape("end \xe2"), "end \\xe2");                     // truncated at the end of the text
}

RunInfo abortedInfo() {
    RunInfo i = info();
    i.shard_index = 1;
    i.shard_count = 3;
    i.selected = 8;
    i.aborted = "SIGTERM";
    i.not_run = {"api.g", "api.h"};
    return i;
}

TEST(Json, RecordsShardSelectionAndCompleteness) {
    RunInfo i = info();
    i.shard_index = 2;
    i.shard_count = 4;
    i.selected = 6;
    auto doc = nlohmann::json::parse(jsonReport(i, sample()));
    EXPECT_EQ(doc["shard"], (nlohmann::json{{"index", 2}, {"count", 4}}));
    EXPECT_EQ(doc["selected"], 6u);
    EXPECT_TRUE(doc["aborted"].is_null());
    EXPECT_EQ(doc["not_run"], nlohmann::json::array());
    EXPECT_EQ(doc["errors"], nlohmann::json::array());
}

// What selected the cases, in the exact shape the result scripts read.
TEST(Json, RecordsWhatSelectedTheCases) {
    RunInfo i = info();
    i.selection.patterns = {"subgroups", "2d_block_io.*"};
    i.selection.filter = "a.*-a.b";
    i.selection.caselist_file = "c.txt";
    i.selection.tags = {"regression"};
    i.selection.huge = true;
    i.selection.core_only = true;
    i.selection.run_skipped = true;  // a --run-skipped shard is not a shard of a run without it
    i.selection.seed = 5;
    i.selection.suite_version = "0.1.0";
    i.selection.manifest_sha256 = std::string(64, 'a');
    auto doc = nlohmann::json::parse(jsonReport(i, sample()));
    EXPECT_EQ(doc["selection"], nlohmann::json::parse(R"({"patterns": ["subgroups", "2d_block_io.*"],
        "filter": "a.*-a.b", "caselist_file": "c.txt", "exclude_file": "", "tags": ["regression"],
        "quick": false, "extended": false, "huge": true, "tier": "core", "rerun_failed": "", "run_skipped": true, "seed": 5,
        "suite_version": "0.1.0", "manifest_sha256": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})"));
    EXPECT_EQ(doc["seed"], 5u);  // the older top-level fields stay
    EXPECT_EQ(doc["quick"], true);
    std::string xml = junitReport(i, sample());
    for (const char* prop : {"<property name=\"selection.patterns\" "
                             "value=\"[&quot;subgroups&quot;,&quot;2d_block_io.*&quot;]\"/>",
                             "<property name=\"selection.huge\" value=\"true\"/>",
                             "<property name=\"selection.tier\" value=\"core\"/>",
                             "<property name=\"selection.run_skipped\" value=\"true\"/>",
                             "<property name=\"selection.suite_version\" value=\"0.1.0\"/>",
                             "<property name=\"selection.filter\" value=\"a.*-a.b\"/>"})
        EXPECT_NE(xml.find(prop), std::string::npos) << prop;
}

TEST(Json, AnAbortedRunListsTheCasesItDidNotRun) {
    auto doc = nlohmann::json::parse(jsonReport(abortedInfo(), sample()));
    EXPECT_EQ(doc["aborted"], "SIGTERM");
    EXPECT_EQ(doc["not_run"], (nlohmann::json{"api.g", "api.h"}));
    EXPECT_EQ(doc["cases"].size() + doc["not_run"].size(), doc["selected"].get<size_t>());
    EXPECT_EQ(doc["results"].size(), 6u) << "not-run cases have no CTS result word";
    ASSERT_EQ(doc["errors"].size(), 1u);
    EXPECT_EQ(doc["errors"][0], "run interrupted by SIGTERM: 2 of 8 selected case(s) not run");
    EXPECT_EQ(abortMessage(info()), "");
}

TEST(Junit, AnAbortedRunMarksTheCasesItDidNotRun) {
    std::string x = junitReport(abortedInfo(), sample());
    std::string why;
    EXPECT_TRUE(wellFormed(x, why)) << why << "\n" << x;
    // 6 results + 2 not run + the abort; the abort is an error, the not-run cases are skipped.
    EXPECT_NE(x.find("tests=\"9\" failures=\"1\" errors=\"4\" skipped=\"3\""), std::string::npos) << x;
    EXPECT_NE(
        x.find("<testcase classname=\"api\" name=\"api.g\" time=\"0\">\n      <skipped message=\"not run: "
               "run interrupted by SIGTERM\"/>"),
        std::string::npos)
        << x;
    EXPECT_NE(x.find("name=\"aborted\""), std::string::npos);
    EXPECT_NE(x.find("type=\"Aborted\""), std::string::npos);
    EXPECT_NE(x.find("<property name=\"shard\" value=\"1/3\"/>"), std::string::npos);
    EXPECT_NE(x.find("<property name=\"aborted\" value=\"SIGTERM\"/>"), std::string::npos);
}

class ReportFileTest : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/cts_report_test.XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
    }
    void TearDown() override {
        for (const auto& n : entries()) unlink((dir_ + "/" + n).c_str());
        rmdir((dir_ + "/sub").c_str());
        rmdir(dir_.c_str());
    }
    std::vector<std::string> entries() const {
        std::vector<std::string> out;
        DIR* d = opendir(dir_.c_str());
        while (dirent* e = d ? readdir(d) : nullptr)
            if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") out.push_back(e->d_name);
        if (d) closedir(d);
        std::sort(out.begin(), out.end());
        return out;
    }
    static std::string slurp(const std::string& path) {
        std::ifstream f(path);
        std::stringstream ss;
        ss << f.rdbuf();
        return ss.str();
    }
    static void put(const std::string& path, const std::string& text) { std::ofstream(path) << text; }
    std::string dir_;
};

TEST_F(ReportFileTest, PrepareLeavesAnEarlierReportAlone) {
    std::string path = dir_ + "/r.json";
    put(path, "earlier");
    ReportFile f;
    EXPECT_EQ(f.prepare(path), "");
    EXPECT_EQ(slurp(path), "earlier") << "checking the path must not truncate the file";
    EXPECT_EQ(entries(), std::vector<std::string>{"r.json"}) << "no probe file left behind";
    EXPECT_EQ(f.write("new report\n"), "");
    EXPECT_EQ(slurp(path), "new report\n");
    EXPECT_EQ(entries(), std::vector<std::string>{"r.json"}) << "no temporary file left behind";
    EXPECT_EQ(f.write("again"), "") << "only the first write writes";
    EXPECT_EQ(slurp(path), "new report\n");
}

TEST_F(ReportFileTest, NewFileGetsTheUsualPermissions) {
    std::string path = dir_ + "/new.xml";
    mode_t mask = umask(022);
    ReportFile f;
    ASSERT_EQ(f.prepare(path), "");
    EXPECT_NE(access(path.c_str(), F_OK), 0) << "prepare must not create the report";
    ASSERT_EQ(f.write("<x/>"), "");
    umask(mask);
    struct stat st;
    ASSERT_EQ(stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644u);
}

TEST_F(ReportFileTest, UnwritablePathsAreRefusedUpFront) {
    ReportFile f;
    EXPECT_EQ(f.prepare(dir_ + "/no_such_dir/r.json"), std::strerror(ENOENT));
    EXPECT_EQ(f.prepare(dir_), std::strerror(EISDIR));
    EXPECT_FALSE(f.active());
}

TEST_F(ReportFileTest, SymbolicLinkIsFollowed) {
    ASSERT_EQ(mkdir((dir_ + "/sub").c_str(), 0777), 0);
    std::string real = dir_ + "/sub/real.json", link = dir_ + "/link.json";
    put(real, "earlier");
    ASSERT_EQ(symlink(real.c_str(), link.c_str()), 0);
    ReportFile f;
    ASSERT_EQ(f.prepare(link), "");
    ASSERT_EQ(f.write("new"), "");
    EXPECT_EQ(slurp(real), "new");
    struct stat st;
    ASSERT_EQ(lstat(link.c_str(), &st), 0);
    EXPECT_TRUE(S_ISLNK(st.st_mode)) << "the link stays a link";
    unlink(real.c_str());
}

TEST_F(ReportFileTest, DevicesAreWrittenInPlace) {
    ReportFile f;
    ASSERT_EQ(f.prepare("/dev/null"), "");
    EXPECT_EQ(f.write("discarded"), "");
}

// --log=/dev/full used to lose every line and exit 0.
TEST(LineLog, RemembersAFailedWrite) {
    FILE* full = std::fopen("/dev/full", "w");
    ASSERT_NE(full, nullptr);
    LineLog log;
    log.attach(full);
    EXPECT_EQ(log.error(), "");
    log.note("x");
    EXPECT_EQ(log.error(), std::strerror(ENOSPC));
    FILE* null = std::fopen("/dev/null", "w");
    ASSERT_NE(null, nullptr);
    LineLog fine;
    fine.attach(null);
    fine.start("a");
    fine.note("b");
    EXPECT_EQ(fine.error(), "");
}

// A driver's or compiler's message reaches the log escaped: no terminal command, no invalid byte, one line.
TEST(LineLog, EscapesWhatTheDriverWrote) {
    char path[] = "/tmp/linelog_test.XXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    {
        LineLog log;
        log.attach(fdopen(fd, "w"));
        log.finish({"api.a", Status::Fail,
                    "error: \x1b]0;pwned\x07\x1b[2J \xff\xfe \xc2\x9b"
                    "31m\nnext",
                    1, 2});
        log.note("tracker \xe2\x80\xae 1.24");
    }
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::remove(path);
    EXPECT_EQ(text.str(),
              "Fail\tapi.a\t1 ms\tseed=2\terror: \\x1b]0;pwned\\x07\\x1b[2J \\xff\\xfe \\xc2\\x9b31m\\nnext\n"
              "note\ttracker \\xe2\\x80\\xae 1.24\n");
}

TEST(Escape, InvisibleFormatCharactersArePrintedAsBytes) {
    EXPECT_EQ(printable("a\u202eb\u200bc\u2028d\u2066e\ufeff"),
              "a\\xe2\\x80\\xaeb\\xe2\\x80\\x8bc\\xe2\\x80\\xa8d\\xe2\\x81\\xa6e\\xef\\xbb\\xbf");
    EXPECT_EQ(printable("caf\u00e9 \u2030"), "caf\u00e9 \u2030");  // visible characters stay
    uint32_t cp = 0;
    EXPECT_EQ(invisibleFormatAt("x\u061c", 1, &cp), 2u);
    EXPECT_EQ(cp, 0x61cu);
}

TEST(Junit, TheCheckerRejectsBrokenXml) {
    std::string why;
    EXPECT_FALSE(wellFormed("<?xml version=\"1.0\"?>\n<a><b></a>", why));
    EXPECT_FALSE(wellFormed("<?xml version=\"1.0\"?>\n<a>x & y</a>", why));
    EXPECT_FALSE(wellFormed("<?xml version=\"1.0\"?>\n<a m=\"<\"/>", why));
}

TEST(Escape, XmlAndShell) {
    EXPECT_EQ(xmlEscape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
    EXPECT_EQ(xmlEscape("\x02"), "\\x02");
    EXPECT_EQ(shellQuote("subgroups.shuffle.i32"), "subgroups.shuffle.i32");
    EXPECT_EQ(shellQuote("--seed=3"), "--seed=3");
    EXPECT_EQ(shellQuote("a b"), "'a b'");
    EXPECT_EQ(shellQuote("it's"), "'it'\\''s'");
    EXPECT_EQ(shellQuote(""), "''");
    EXPECT_EQ(shellQuote("a*"), "'a*'");
}

// Every case says where its time went ("phases", after duration_ms) and the run sums them ("phase_totals").
TEST(Json, PhasesOnEveryCaseAndTheirTotals) {
    std::vector<CaseResult> results = sample();
    results[0].phases = {12.5, 1, 0, 3.25, 0.75, 40};
    results[1].phases = {0, 0, 2, 1.5, 0.5, 0};
    results[1].phase = "build";  // the tree path as well as the direct one
    results[1].build_log = "log";
    auto doc = nlohmann::ordered_json::parse(jsonReport(info(), results));
    const auto& p = doc["cases"][0]["phases"];
    EXPECT_EQ(p["build_ms"], 12.5);
    EXPECT_EQ(p["builds"], 1);
    EXPECT_EQ(p["cache_hits"], 0);
    EXPECT_EQ(p["kernel_ms"], 3.25);
    EXPECT_EQ(p["check_ms"], 0.75);
    EXPECT_EQ(p["worker_start_ms"], 40);
    EXPECT_EQ(doc["cases"][1]["phases"]["cache_hits"], 2);
    for (size_t k = 0; k < results.size(); ++k) {
        std::vector<std::string> keys;
        for (const auto& item : doc["cases"][k].items()) keys.push_back(item.key());
        ASSERT_GE(keys.size(), 5u);
        EXPECT_EQ(keys[3], "duration_ms");
        EXPECT_EQ(keys[4], "phases") << k;
    }
    const auto& t = doc["phase_totals"];
    EXPECT_EQ(t["build_ms"], 12.5);
    EXPECT_EQ(t["builds"], 1);
    EXPECT_EQ(t["cache_hits"], 2);
    EXPECT_EQ(t["kernel_ms"], 4.75);
    EXPECT_EQ(t["check_ms"], 1.25);
    EXPECT_EQ(t["worker_start_ms"], 40);
    std::vector<std::string> keys;
    for (const auto& item : t.items()) keys.push_back(item.key());
    EXPECT_EQ(keys, (std::vector<std::string>{"build_ms", "builds", "cache_hits", "kernel_ms", "check_ms",
                                              "worker_start_ms"}));
    EXPECT_EQ(nlohmann::json::parse(jsonReport(info(), {}))["phase_totals"]["builds"], 0);
}

TEST(Tally, SumsThePhasesForTheSummaryLine) {
    Tally t;
    CaseResult a{"a", Status::Pass, ""}, b{"b", Status::Fail, "no"};
    a.phases = {12000, 400, 3000, 4000, 2000, 500};
    b.phases = {300, 10, 200, 500, 100, 300};
    t.add(a);
    t.add(b);
    EXPECT_EQ(t.phases.builds, 410u);
    EXPECT_EQ(phaseSummary(t.phases),
              "time by phase: build 12.3 s (410 built, 3200 cached), kernel 4.5 s, check 2.1 s, worker start "
              "0.8 s");
}

TEST(Tally, SummaryMentionsOnlyNonZeroExtras) {
    Tally t;
    t.add(Status::Pass);
    t.add(Status::NotSupported);
    EXPECT_EQ(t.summary(), "1 passed, 0 failed, 1 skipped");
    EXPECT_TRUE(t.allGood());
    t.add(Status::Crash);
    t.add(Status::Timeout);
    t.add(Status::InternalError);
    EXPECT_EQ(t.summary(), "1 passed, 0 failed, 1 skipped, 1 internal errors, 1 crashed, 1 timed out");
    EXPECT_FALSE(t.allGood());
}

}  // namespace
}  // namespace cts
