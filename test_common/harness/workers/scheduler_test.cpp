// --jobs: the batches (scheduler.h) and the order of a parallel run's results (Recorder::setOrder).
#include "test_common/harness/workers/scheduler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "test_common/harness/reports/recorder.h"
#include "test_common/harness/workers/worker_process.h"

namespace cts {
namespace {

CaseSpec spec(const std::string& name, const std::string& module, const std::string& family = "f") {
    CaseSpec c;
    c.name = name;
    c.module = module;
    c.family = family;
    return c;
}

std::vector<PlanCase> pointers(const std::vector<CaseSpec>& cases) {
    std::vector<PlanCase> out;
    for (const auto& c : cases) out.push_back(planCase(c));
    return out;
}

// 40 modules of 1..40 cases, interleaved the way a selection can list them.
std::vector<CaseSpec> manyModules() {
    std::vector<CaseSpec> cases;
    for (int round = 0; round < 40; ++round)
        for (int m = round; m < 40; ++m)
            cases.push_back(spec("c.m" + std::to_string(m) + ".k" + std::to_string(round),
                                 "modules/m" + std::to_string(m) + ".spv"));
    return cases;
}

TEST(PlanBatches, EveryCaseOnceAndEachModuleInOneBatch) {
    auto cases = manyModules();
    auto batches = planBatches(pointers(cases), 4);
    std::set<size_t> seen;
    std::map<std::string, size_t> batch_of_module;
    for (size_t b = 0; b < batches.size(); ++b) {
        EXPECT_TRUE(std::is_sorted(batches[b].cases.begin(), batches[b].cases.end())) << "selection order";
        for (size_t i : batches[b].cases) {
            EXPECT_TRUE(seen.insert(i).second) << cases[i].name << " in two batches";
            auto it = batch_of_module.emplace(cases[i].module, b).first;
            EXPECT_EQ(it->second, b) << cases[i].module << " split over batches";
        }
    }
    EXPECT_EQ(seen.size(), cases.size());
    EXPECT_GT(batches.size(), 4u) << "more batches than workers, so the ends balance";
}

TEST(PlanBatches, LongestFirstAndTheSamePlanEveryTime) {
    auto cases = manyModules();
    auto batches = planBatches(pointers(cases), 2);
    for (size_t b = 1; b < batches.size(); ++b) EXPECT_GE(batches[b - 1].cost, batches[b].cost);
    // With many workers every module is a batch of its own: the biggest (40 cases) goes first.
    auto fine = planBatches(pointers(cases), 32);
    EXPECT_EQ(fine.size(), 40u);
    EXPECT_EQ(fine.front().cases.size(), 40u);
    EXPECT_EQ(fine.front().cost, 40 * caseCost(planCase(cases[0])) + kModuleBuildCost);
    EXPECT_EQ(fine.back().cases.size(), 1u);
    auto again = planBatches(pointers(cases), 2);
    ASSERT_EQ(again.size(), batches.size());
    for (size_t b = 0; b < batches.size(); ++b) EXPECT_EQ(again[b].cases, batches[b].cases);
}

TEST(PlanBatches, OwnProcessCasesAloneAndQueriesGroupedByFamily) {
    std::vector<CaseSpec> cases = {spec("q.a", "", "query"), spec("m.a", "modules/a.spv"),
                                   spec("q.b", "", "query"), spec("m.b", "modules/a.spv")};
    auto batches = planBatches(pointers(cases), 2, [](const std::string& n) { return n == "m.b"; });
    size_t alone = 0;
    for (const auto& b : batches) {
        if (!b.alone) continue;
        ++alone;
        EXPECT_EQ(b.cases, std::vector<size_t>{3});
    }
    EXPECT_EQ(alone, 1u);
    bool queries_together = false;
    for (const auto& b : batches)
        if (std::find(b.cases.begin(), b.cases.end(), 0) != b.cases.end())
            queries_together = std::find(b.cases.begin(), b.cases.end(), 2) != b.cases.end();
    EXPECT_TRUE(queries_together);
}

TEST(PlanBatches, EmptySelectionNoBatch) {
    EXPECT_TRUE(planBatches({}, 8).empty());
    EXPECT_GE(usableCores(), 1u);
}

TEST(RecorderOrder, ResultsAndLogInSelectionOrderWhateverTheCompletionOrder) {
    std::FILE* f = std::tmpfile();
    ASSERT_NE(f, nullptr);
    LineLog log;
    log.attach(f);
    Recorder rec(3, false, log, [](const std::string& n) { return n; });
    rec.setOrder({"a", "b", "c"});
    for (const char* n : {"c", "a", "b"}) {
        rec.started(n);
        rec.finished(CaseResult{n, Status::Pass, "", 0, 0});
    }
    rec.endProgress();
    std::vector<std::string> names;
    for (const auto& r : rec.results()) names.push_back(r.name);
    EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "c"}));
    std::rewind(f);
    std::string text;
    for (int ch; (ch = std::fgetc(f)) != EOF;) text += static_cast<char>(ch);
    EXPECT_LT(text.find("start\ta"), text.find("start\tb"));
    EXPECT_LT(text.find("start\tb"), text.find("start\tc"));
    EXPECT_LT(text.find("Pass\ta"), text.find("start\tb")) << text;
}

TEST(TimeoutMessage, SaysWhichLimitApplied) {
    EXPECT_EQ(timeoutMessage(20, false), "no result within the --timeout of 20 s");
    EXPECT_EQ(timeoutMessage(300, true),
              "no result within the default limit of 300 s (--timeout=SECONDS to change)");
}

TEST(ReadBatch, EmptyLineEndsABatch) {
    std::istringstream in("a\nb\n\nc\n");
    EXPECT_EQ(readBatch(in), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(readBatch(in), (std::vector<std::string>{"c"}));
    EXPECT_TRUE(readBatch(in).empty());
}

}  // namespace
}  // namespace cts
