#include "test_common/harness/report.h"

#include <gtest/gtest.h>

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
    EXPECT_EQ(doc["seed"], 5u);
    EXPECT_EQ(doc["quick"], true);
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
            char d = x[end];
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
