// Select: --list-tags, the case lists and waiver files, the selection of this run (and shard), --list.
#include "test_common/harness/runner_stages.h"

#include <cstdio>

namespace cts {

StageResult chooseCases(RunState& s) {
    const Options& opt = s.opt;
    const std::string& program = s.program;
    const Registry& registry = s.registry;
    const std::vector<std::string>& run_errors = s.run_errors;
    const RerunRequest& rerun_request = s.rerun_request;
    if (opt.list_tags) {
        SelectionRequest tags_only;
        tags_only.tags = opt.tags;
        if (!opt.tags.empty())  // --tag=nope is the same usage error here as in a run
            if (Selection s = selectCases(registry.cases(), tags_only); !s.error.empty())
                return usageError(program, s.error);
        for (const auto& [tag, count] : tagCounts(registry.cases()))
            std::printf("%s %zu\n", tag.c_str(), count);
        for (const auto& e : run_errors)
            std::fprintf(stderr, "%s: internal error: %s\n", program.c_str(), e.c_str());
        return run_errors.empty() ? 0 : 1;
    }

    SelectionRequest& request = s.request;
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
    std::vector<Waiver>& waivers = s.waivers;
    for (const auto& f : opt.waiver_files) {
        std::string e = readWaiverFile(f, waivers);
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
    Selection& sel = s.sel;
    sel = selectCases(registry.cases(), request);
    if (!sel.error.empty()) {
        if (!run_errors.empty()) {
            // The pattern may well be right and the broken manifest the reason it matched nothing.
            for (const auto& e : run_errors)
                std::fprintf(stderr, "%s: internal error: %s\n", program.c_str(), e.c_str());
            std::fprintf(stderr, "%s: %s\n", program.c_str(), sel.error.c_str());
            return 1;
        }
        return usageError(program, sel.error);
    }

    if (!opt.rerun_failed.empty())
        if (std::string e = checkRerunSelection(rerun_request, opt.rerun_failed, registry.cases(), request);
            !e.empty())
            return usageError(program, "--rerun-failed: " + e);
    std::vector<std::string>& selected_names = s.selected_names;
    for (const auto* c : sel.cases) selected_names.push_back(c->name);
    if (std::string e = checkDumpDirInputs(opt, selected_names); !e.empty()) return usageError(program, e);

    if (opt.list) {
        // The tier as a comment, so the list still works as a --caselist-file.
        for (const auto* c : sel.cases) std::printf("%s  # %s\n", c->name.c_str(), tierName(c->tier));
        for (const auto& e : run_errors)
            std::fprintf(stderr, "%s: internal error: %s\n", program.c_str(), e.c_str());
        return run_errors.empty() ? 0 : 1;
    }
    return std::nullopt;
}

}  // namespace cts
