// Load: the families' C++ cases, the manifest's cases (a worker's only) and the --rerun-failed report.
#include "test_common/harness/stages/runner_stages.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <set>
#include <string_view>
#include <unordered_map>

#include "test_common/harness/input/path_guard.h"
#include "test_common/harness/input/sha256.h"
#include "test_common/harness/selection/case_index.h"
#include "test_common/harness/selection/manifest.h"
#include "test_common/harness/workers/supervisor.h"
#include "test_common/harness/workers/worker_process.h"

namespace cts {

namespace {

// A worker's manifest entries, batch by batch: through the case index beside the manifest, read and checked
// once per worker, else (no index, or a name it lacks) by name in the manifest's text (loadManifestEntries).
// Every name gets a CaseSpec: one whose entry did not load carries the reason as its load_error, so the case
// is an InternalError saying why and the batch's other cases still run.
class WorkerEntries {
public:
    WorkerEntries(const std::string& assets, const std::string& assets_missing)
        : assets_(assets), missing_(assets_missing) {
        std::string sha;
        if (missing_.empty() && hasCaseIndex(assets) && readManifestSha256(assets, &sha).empty() &&
            readCaseIndex(assets, sha, &index_).empty())
            indexed_ = true;
    }

    std::vector<CaseSpec> load(const std::vector<std::string>& names) {
        std::vector<CaseSpec> out;
        if (!missing_.empty()) {
            for (const auto& n : names) out.push_back(failed(n, missing_));
            return out;
        }
        std::vector<const IndexedCase*> chosen;
        std::vector<std::string> rest;
        for (const auto& n : names) {
            const IndexedCase* c = indexed_ ? find(n) : nullptr;
            if (c)
                chosen.push_back(c);
            else
                rest.push_back(n);
        }
        ManifestLoad load = loadIndexedCases(index_, chosen, true);
        ManifestLoad scanned =
            rest.empty() ? ManifestLoad() : loadManifestEntries(assets_ + "/manifest.json", rest);
        std::string why;
        for (const auto& e : load.errors) why += (why.empty() ? "" : "; ") + e;
        for (const auto& e : scanned.errors) why += (why.empty() ? "" : "; ") + e;
        std::unordered_map<std::string_view, CaseSpec*> got;
        for (auto* l : {&load, &scanned})
            for (auto& c : l->cases) got.emplace(c.name, &c);
        for (const auto& n : names) {
            auto it = got.find(n);
            out.push_back(it != got.end() ? std::move(*it->second)
                                          : failed(n, why.empty() ? "no manifest entry named " + n : why));
        }
        return out;
    }

private:
    const IndexedCase* find(const std::string& name) const {
        auto it = std::lower_bound(index_.cases.begin(), index_.cases.end(), name,
                                   [](const IndexedCase& c, const std::string& n) { return c.name < n; });
        return it != index_.cases.end() && it->name == name ? &*it : nullptr;
    }

    static CaseSpec failed(const std::string& name, const std::string& why) {
        CaseSpec c;
        c.name = name;
        c.load_error = why;
        return c;
    }

    std::string assets_, missing_;
    CaseIndex index_;
    bool indexed_ = false;
};

}  // namespace

void collectHeads(LoadedCases& loaded, std::vector<std::string>& run_errors) {
    const Registry& registry = loaded.registry;
    std::vector<CaseHead>& heads = loaded.heads;
    std::deque<std::string>& head_text = loaded.head_text;
    const CaseIndex& index = loaded.index;
    heads.clear();
    head_text.clear();
    heads.reserve(registry.cases().size() + index.cases.size());
    for (const auto& c : registry.cases()) {
        std::string tags;
        for (const auto& t : c.tags) tags += (tags.empty() ? "" : ",") + t;
        const std::string& name = head_text.emplace_back(c.name);
        heads.push_back({name, head_text.emplace_back(std::move(tags)), c.tier, heads.size()});
    }
    loaded.registry_heads = heads.size();
    if (index.cases.empty()) return;
    std::set<std::string_view> registry_names;
    for (const auto& h : heads) registry_names.insert(h.name);
    for (size_t i = 0; i < index.cases.size(); ++i) {
        const IndexedCase& c = index.cases[i];
        if (registry_names.count(c.name))
            run_errors.push_back("manifest case '" + std::string(c.name) + "' duplicates a C++ case");
        else
            heads.push_back({c.name, c.tags, c.tier, loaded.registry_heads + i});
    }
}

StageResult loadCases(const std::string& program, const RunEnvironment& env,
                      const std::vector<RegisterFamilies>& families, Options& opt, LoadedCases& out,
                      std::vector<std::string>& run_errors) {
    const std::string& assets = env.assets;
    const std::string& assets_missing = env.assets_missing;
    Registry& registry = out.registry;
    for (auto reg : families) reg(registry);
    ManifestLoad manifest;
    // A worker (--isolate, --jobs) is told its cases on standard input before it loads anything, and loads
    // only their entries, batch by batch (runWorker): a worker started for each crashing case then costs
    // milliseconds, not a manifest parse.
    if (opt.worker) {
        out.worker_names = readBatch(std::cin);  // its first batch (worker_process.h)
        return std::nullopt;
    }
    std::string& manifest_sha256 = out.manifest_sha256;
    if (!assets_missing.empty()) {
        run_errors.push_back(assets_missing);
    } else {
        // The reports name the manifest by the hash the asset build wrote beside it (hashing it here would
        // cost start-up time); a missing or ill-formed one is a broken asset build, like a corrupt manifest.
        std::string sha_error = readManifestSha256(assets, &manifest_sha256);
        // A report repeats that hash: the manifest is hashed meanwhile (about 0.2 s of a second core for
        // 27 MB) and checked against it before the report is written. A run without a report, and --list,
        // pay nothing.
        if (sha_error.empty() && !opt.list && !opt.list_tags &&
            (!opt.json_file.empty() || !opt.junit_file.empty()))
            out.manifest_hash = std::async(std::launch::async, [path = assets + "/manifest.json"] {
                std::string error;
                std::string hash = sha256OfFile(path, kMaxInputFileBytes, &error);
                return std::pair{hash, error};
            });
        if (hasCaseIndex(assets)) {
            // Selection reads the index; only the selected entries are parsed (chooseCases).
            if (!sha_error.empty())
                run_errors.push_back(sha_error);
            else if (std::string e = readCaseIndex(assets, manifest_sha256, &out.index); !e.empty())
                run_errors.push_back(e), out.index.cases.clear();
        } else {
            // A manifest written by hand (or by an asset build older than the index): the whole of it.
            std::fprintf(stderr, "%s: note: no case index %s/manifest.index; reading the whole manifest\n",
                         program.c_str(), assets.c_str());
            manifest = loadManifest(assets + "/manifest.json");
            if (!sha_error.empty()) manifest.errors.push_back(sha_error);
        }
    }
    run_errors.insert(run_errors.end(), manifest.errors.begin(), manifest.errors.end());
    // The C++ cases' names, looked up once each: comparing every manifest case with every case registered so
    // far was quadratic (three quarters of the start-up time with 39k cases).
    std::set<std::string, std::less<>> cpp_names;
    for (const auto& existing : registry.cases()) cpp_names.insert(existing.name);
    registry.mutableCases().reserve(registry.cases().size() + manifest.cases.size());
    for (auto& c : manifest.cases) {
        if (cpp_names.count(c.name))
            run_errors.push_back("manifest case '" + c.name + "' duplicates a C++ case");
        else
            registry.mutableCases().push_back(std::move(c));
    }
    collectHeads(out, run_errors);

    RerunRequest& rerun_request = out.rerun_request;
    if (!opt.rerun_failed.empty()) {
        std::string e = readRerunReport(opt.rerun_failed, rerun_request);
        if (!e.empty()) return usageError(program, "--rerun-failed: " + e);
        std::set<std::string_view> known;
        for (const auto& c : out.heads) known.insert(c.name);
        std::string gone;
        size_t gone_count = 0;
        for (const auto& n : rerun_request.names)
            if (!known.count(n)) gone += (gone_count++ ? ", " : "") + n;
        if (gone_count)
            return usageError(program, "--rerun-failed: " + std::to_string(gone_count) + " case(s) of " +
                                           opt.rerun_failed + " no longer exist: " + gone);
        // A report of another suite version or manifest names cases whose content may have changed: they
        // are rerun by name (that is how a fix is checked against a newer suite), with a note saying so.
        std::string differs;
        if (!rerun_request.suite_version.empty() && rerun_request.suite_version != CTS_SUITE_VERSION)
            differs =
                "suite version " + rerun_request.suite_version + " (this runner: " CTS_SUITE_VERSION ")";
        if (!rerun_request.manifest_sha256.empty() && !manifest_sha256.empty() &&
            rerun_request.manifest_sha256 != manifest_sha256)
            differs += (differs.empty() ? "" : " and ") + std::string("another manifest (sha256 ") +
                       rerun_request.manifest_sha256.substr(0, 12) + "..., this one " +
                       manifest_sha256.substr(0, 12) + "...)";
        if (!differs.empty())
            std::fprintf(
                stderr,
                "%s: note: --rerun-failed: %s was written by %s; its cases are rerun by name and may "
                "have changed since\n",
                program.c_str(), opt.rerun_failed.c_str(), differs.c_str());
        // Reproduce the earlier run: its selection options, its seed (unless --seed says otherwise) and its
        // in-case --quick sweep. --huge given here serves a report without a selection record.
        if (!opt.seed_given) opt.seed = rerun_request.seed;
        opt.quick = rerun_request.quick;
        if (rerun_request.has_selection) {
            opt.extended = rerun_request.extended;
            opt.huge = opt.huge || rerun_request.huge;
            opt.core_only = rerun_request.core_only;
        }
    }

    return std::nullopt;
}

int runWorker(const Options& opt, const RunEnvironment& env, const LoadedCases& loaded) {
    RunSettings settings{opt.seed, opt.quick, env.assets, opt.dump_dir, opt.core_only, opt.build_only};
    DeviceUnderTest dut;
    std::string dev_err = openDevice(deviceChoice(opt), dut);
    if (!dev_err.empty()) {
        std::fprintf(stderr, "worker: %s\n", dev_err.c_str());
        return 1;
    }
    WorkerEntries entries(env.assets, env.assets_missing);
    auto load = [&entries](const std::vector<std::string>& names) { return entries.load(names); };
    // --retry: the waiver entries for this device name the cases that are not retried.
    std::vector<Waiver> waivers, device_waivers;
    for (const auto& f : opt.waiver_files) readWaiverFile(f, waivers);  // the runner checked them
    const DeviceInfo& d = dut.info;
    WaiverDevice waiver_device{d.platform_name, d.device_name, d.driver_version, d.vendor_id};
    for (const auto& w : waivers)
        if (waiverAppliesTo(w, waiver_device)) device_waivers.push_back(w);
    const WaiverSet device_set(std::move(device_waivers));
    auto waived = [&device_set](const std::string& name) { return device_set.find(name) != nullptr; };
    return workerMain(loaded.registry, dut, settings, loaded.worker_names, load, opt.retry, waived);
}

}  // namespace cts
