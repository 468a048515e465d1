// Select: --list-tags, the case lists and waiver files, the selection of this run (and shard), --list.
#include "test_common/harness/stages/runner_stages.h"

#include <cstdio>

#include "test_common/harness/selection/case_index.h"
#include "test_common/harness/selection/manifest.h"

namespace cts {

// The CaseSpecs of the selection: registry cases as they are, index cases loaded from their byte ranges and
// added to the registry. "" or the one error that stops the run (a stale or corrupt index).
std::string loadSelectedEntries(const std::string& program, LoadedCases& loaded, ChosenCases& out) {
    if (out.entries_loaded) return "";
    const HeadSelection& chosen = out.chosen;
    const size_t registry_heads = loaded.registry_heads;
    std::vector<const IndexedCase*> indexed;
    for (const CaseHead* h : chosen.cases)
        if (h->source >= registry_heads) indexed.push_back(&loaded.index.cases[h->source - registry_heads]);
    ManifestLoad load = loadIndexedCases(loaded.index, indexed, false);
    if (!load.errors.empty()) {
        std::string all;  // one line per error, each with the prefix the caller gives the first
        for (const auto& e : load.errors)
            all += (all.empty() ? "" : "\n" + program + ": internal error: ") + e;
        return all;
    }
    if (load.cases.size() != indexed.size()) return "case index: the selected entries did not all load";
    std::vector<CaseSpec>& cases = loaded.registry.mutableCases();
    const size_t first = cases.size();
    cases.reserve(first + load.cases.size());
    for (auto& c : load.cases) cases.push_back(std::move(c));
    out.sel.cases.clear();
    size_t next = first;
    for (const CaseHead* h : chosen.cases)
        out.sel.cases.push_back(h->source < registry_heads ? &cases[h->source] : &cases[next++]);
    out.entries_loaded = true;
    return "";
}

std::vector<CaseSpec> selectedEntriesOf(const LoadedCases& loaded, const ChosenCases& chosen,
                                        const std::function<bool(std::string_view)>& want,
                                        std::string& error) {
    std::vector<CaseSpec> out;
    if (chosen.entries_loaded) {
        for (const CaseSpec* c : chosen.sel.cases)
            if (want(c->name)) out.push_back(*c);
        return out;
    }
    std::vector<const IndexedCase*> indexed;
    for (const CaseHead* h : chosen.chosen.cases) {
        if (!want(h->name)) continue;
        if (h->source < loaded.registry_heads)
            out.push_back(loaded.registry.cases()[h->source]);
        else
            indexed.push_back(&loaded.index.cases[h->source - loaded.registry_heads]);
    }
    if (indexed.empty()) return out;
    ManifestLoad load = loadIndexedCases(loaded.index, indexed, false);
    if (!load.errors.empty()) error = load.errors.front();
    for (auto& c : load.cases) out.push_back(std::move(c));
    return out;
}

std::vector<PlanCase> planCases(const LoadedCases& loaded, const HeadSelection& chosen) {
    std::vector<PlanCase> out;
    out.reserve(chosen.cases.size());
    for (const CaseHead* h : chosen.cases) {
        if (h->source < loaded.registry_heads) {
            out.push_back(planCase(loaded.registry.cases()[h->source]));
            continue;
        }
        const IndexedCase& c = loaded.index.cases[h->source - loaded.registry_heads];
        out.push_back(
            PlanCase{c.name, c.module == kNoModule ? std::string_view() : loaded.index.modules[c.module].path,
                     c.family});
    }
    return out;
}

unsigned runJobs(const Options& opt) {
    return opt.jobs ? opt.jobs : usableCores();
}

StageResult chooseCases(const std::string& program, const Options& opt, const RunEnvironment& env,
                        const std::vector<std::string>& run_errors, LoadedCases& loaded, ChosenCases& out) {
    const RerunRequest& rerun_request = loaded.rerun_request;
    const std::vector<CaseHead>& heads = loaded.heads;
    // A broken manifest or case index lists nothing: a partial list (the C++ cases only) would read as the
    // suite's, and a pattern that names manifest cases would add a "matches no case" beside the real error.
    if ((opt.list || opt.list_tags) && !run_errors.empty()) {
        for (const auto& e : run_errors)
            std::fprintf(stderr, "%s: internal error: %s\n", program.c_str(), e.c_str());
        return 1;
    }
    if (opt.list_tags) {
        SelectionRequest tags_only;
        tags_only.tags = opt.tags;
        if (!opt.tags.empty())  // --tag=nope is the same usage error here as in a run
            if (HeadSelection chosen = selectHeads(heads, tags_only); !chosen.error.empty())
                return usageError(program, chosen.error);
        for (const auto& [tag, count] : tagCounts(heads)) std::printf("%s %zu\n", tag.c_str(), count);
        for (const auto& e : run_errors)
            std::fprintf(stderr, "%s: internal error: %s\n", program.c_str(), e.c_str());
        return run_errors.empty() ? 0 : 1;
    }

    SelectionRequest& request = out.request;
    request.positive = opt.positive;
    request.negative = opt.negative;
    for (const auto& f : opt.caselist_files) {
        std::string e = readCaseListFile(f, request.positive);
        if (!e.empty()) return usageError(program, "--caselist-file: " + e);
    }
    for (const auto& f : opt.exclude_files) {
        std::string e = readPatternFile(f, request.negative);
        if (!e.empty()) return usageError(program, "--exclude-file: " + e);
    }
    std::vector<Waiver>& waivers = out.waivers;
    for (const auto& f : opt.waiver_files) {
        // The report names the file by its contents too (the hash of the bytes parsed): shards of one run
        // must share the waivers, not only the path.
        std::string e = readWaiverFile(f, waivers, &out.waiver_sha256.emplace_back());
        if (!e.empty()) return usageError(program, "--waiver-file: " + e);
    }
    request.names = rerun_request.names;
    request.quick = opt.quick && opt.rerun_failed.empty();
    request.extended = opt.extended;
    request.tags = opt.tags;
    request.huge = opt.huge;
    request.core_only = opt.core_only;
    request.shard_index = opt.shard_index;
    request.shard_count = opt.shard_count;
    Selection& sel = out.sel;
    HeadSelection& chosen = out.chosen;
    chosen = selectHeads(heads, request);
    sel.error = chosen.error;
    if (!sel.error.empty()) {
        if (run_errors.empty()) return usageError(program, sel.error);
        // The pattern may well be right and the broken manifest or index the reason it matched nothing: the
        // real error, no "matches no case" beside it. The run goes on with no case, so that its reports (an
        // earlier --json at the path included) say what broke, and it exits 1 for the run-level error.
        for (const auto& e : run_errors)
            std::fprintf(stderr, "%s: internal error: %s\n", program.c_str(), e.c_str());
        sel.error.clear();
        chosen.cases.clear();
    }

    if (!opt.rerun_failed.empty())
        if (std::string e = checkRerunSelection(rerun_request, opt.rerun_failed, heads, request); !e.empty())
            return usageError(program, "--rerun-failed: " + e);
    std::vector<std::string>& selected_names = out.selected_names;
    for (const auto* c : chosen.cases) selected_names.emplace_back(c->name);
    if (std::string e = checkRunFiles(opt, env.assets, selected_names); !e.empty())
        return usageError(program, e);

    if (opt.list && !opt.list_json) {
        // The tier as a comment, so the list still works as a --caselist-file.
        for (const auto* c : chosen.cases)
            std::printf("%.*s  # %s\n", static_cast<int>(c->name.size()), c->name.data(), tierName(c->tier));
        for (const auto& e : run_errors)
            std::fprintf(stderr, "%s: internal error: %s\n", program.c_str(), e.c_str());
        return run_errors.empty() ? 0 : 1;
    }
    // A run in worker processes (--isolate, or --jobs above 1 whatever the selection) leaves the entries to
    // the workers: it plans from the index (own_process
    // waivers, known once the device is, only add batches). Otherwise only now are the selected cases'
    // entries parsed: a run costs what it selects.
    if (!env.offline && !opt.list_json && runJobs(opt) > 1)
        out.plan = planBatches(planCases(loaded, chosen), runJobs(opt));
    if (!env.offline && !opt.list_json && (opt.isolate || runJobs(opt) > 1)) return std::nullopt;
    if (std::string e = loadSelectedEntries(program, loaded, out); !e.empty()) {
        std::fprintf(stderr, "%s: internal error: %s\n", program.c_str(), e.c_str());
        return 1;
    }
    if (opt.list_json) {
        std::printf("[\n");
        for (size_t i = 0; i < sel.cases.size(); ++i)
            std::printf("%s%s\n", caseSpecJson(*sel.cases[i]).c_str(), i + 1 < sel.cases.size() ? "," : "");
        std::printf("]\n");
        for (const auto& e : run_errors)
            std::fprintf(stderr, "%s: internal error: %s\n", program.c_str(), e.c_str());
        return run_errors.empty() ? 0 : 1;
    }
    return std::nullopt;
}

}  // namespace cts
