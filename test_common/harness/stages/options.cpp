#include "test_common/harness/stages/options.h"

#include <CL/cl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <map>

#include "test_common/harness/device/device_under_test.h"
#include "test_common/harness/input/path_guard.h"
#include "test_common/harness/input/text.h"
#include "test_common/harness/reports/report.h"
#include "test_common/harness/stages/option_table.h"
#include "test_common/harness/workers/worker_process.h"

namespace cts {
namespace {

// `path` made absolute against the working directory, with ".", ".." and repeated slashes removed by text.
std::string lexicalAbsolute(const std::string& path) {
    std::string full = path;
    if (full.empty() || full[0] != '/') {
        char cwd[PATH_MAX];
        full = std::string(getcwd(cwd, sizeof cwd) ? cwd : ".") + "/" + full;
    }
    std::vector<std::string> parts;
    size_t pos = 0;
    while (pos <= full.size()) {
        size_t slash = full.find('/', pos);
        if (slash == std::string::npos) slash = full.size();
        std::string part = full.substr(pos, slash - pos);
        if (part == "..") {
            if (!parts.empty()) parts.pop_back();
        } else if (!part.empty() && part != ".") {
            parts.push_back(part);
        }
        pos = slash + 1;
    }
    std::string out;
    for (const auto& p : parts) out += "/" + p;
    return out.empty() ? "/" : out;
}

// The file a report path writes, for telling whether two reports share one: the whole path resolved when it
// exists (symbolic links included), else the resolved directory plus the name, else the path by text.
// Empty for an existing path that is not a regular file (/dev/null, a terminal, a pipe): writing it twice
// corrupts nothing, and a directory fails when opened.
std::string reportFileIdentity(const std::string& given) {
    // A dangling link names the file a write through it creates: --log=alink.json with alink.json -> a.json
    // is --json=a.json's file before either exists.
    const std::string path = followLinks(given);
    char resolved[PATH_MAX];
    struct stat st;
    if (stat(path.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode)) return "";
        if (realpath(path.c_str(), resolved)) return resolved;
    }
    std::string dir = dirName(path), name = baseName(path);
    if (!name.empty() && name != "." && name != ".." && realpath(dir.c_str(), resolved)) {
        std::string d = resolved;
        return (d == "/" ? "" : d) + "/" + name;
    }
    return lexicalAbsolute(path);
}

// An existing output that is not a regular file: a FIFO blocks the run until a reader comes, a socket cannot
// be opened. Character devices (/dev/null, a terminal) are written in place; a directory fails when opened.
std::string checkOutputKind(const std::string& option, const std::string& path) {
    struct stat st;
    if (path.empty() || stat(path.c_str(), &st) != 0) return "";
    if (S_ISREG(st.st_mode) || S_ISCHR(st.st_mode) || S_ISDIR(st.st_mode)) return "";
    const char* kind = S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISSOCK(st.st_mode) ? "a socket" : "a block device";
    return option + "=" + path + " is not a regular file (" + kind +
           "): reports go to a regular file or a character device such as /dev/null";
}

// The files the run reads that options name; and the reports it writes.
std::vector<RunFile> optionInputs(const Options& o) {
    std::vector<RunFile> inputs;
    if (!o.rerun_failed.empty()) inputs.push_back({"--rerun-failed", o.rerun_failed});
    for (const auto& f : o.waiver_files) inputs.push_back({"--waiver-file", f});
    for (const auto& f : o.caselist_files) inputs.push_back({"--caselist-file", f});
    for (const auto& f : o.exclude_files) inputs.push_back({"--exclude-file", f});
    return inputs;
}

std::vector<RunFile> reportOutputs(const Options& o, const std::string& json_option) {
    return {{json_option, o.json_file}, {"--junit", o.junit_file}, {"--log", o.log_file}};
}

// Two reports (or a report and the line log) on one file interleave into a corrupt file.
std::string checkReportFiles(const Options& o, bool json_from_env) {
    struct Report {
        std::string option, path, identity;
    };
    std::vector<Report> reports;
    auto add = [&](const std::string& option, const std::string& path) {
        if (path.empty()) return;
        std::string id = reportFileIdentity(path);
        if (!id.empty()) reports.push_back({option, path, id});
    };
    add(json_from_env ? "CL_CONFORMANCE_RESULTS_FILENAME (the JSON report)" : "--json", o.json_file);
    add("--junit", o.junit_file);
    add("--log", o.log_file);
    for (size_t i = 0; i < reports.size(); ++i)
        for (size_t j = i + 1; j < reports.size(); ++j)
            if (reports[i].identity == reports[j].identity)
                return reports[i].option + " and " + reports[j].option + " both write " +
                       reports[i].identity + ": give each report a file of its own";
    return "";
}

}  // namespace

bool parseBoolWord(const std::string& text, bool& out) {
    std::string t = text;
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const char* word : {"1", "true", "yes", "on"})
        if (t == word) return out = true;
    for (const char* word : {"0", "false", "no", "off"})
        if (t == word) return !(out = false);
    return false;
}

namespace {

// An argument that is no option: a case pattern.
std::string addPattern(const std::string& arg, bool options_done, Options& out) {
    if (!options_done && !arg.empty() && arg[0] == '-' && arg != "-") return "unknown option '" + arg + "'";
    if (arg.empty()) return "empty case pattern";
    out.positive.push_back({arg, "command line"});
    out.patterns.push_back(arg);
    return "";
}

// The CTS environment variables and the checks that need every option: run after the command line.
std::string finishOptions(const OptionParse& p, const EnvLookup& env);

}  // namespace

std::string parseOptions(const std::vector<std::string>& args, const EnvLookup& env, Options& out) {
    out = Options{};
    OptionParse p{out};
    bool options_done = false;
    for (size_t a = 0; a < args.size(); ++a) {
        const std::string& arg = !options_done && args[a] == "-h" ? "--help" : args[a];
        if (!options_done && arg == "--") {
            options_done = true;
            continue;
        }
        if (options_done || arg.compare(0, 2, "--") != 0) {
            if (std::string e = addPattern(arg, options_done, out); !e.empty()) return e;
            continue;
        }
        const size_t eq = arg.find('=');
        const std::string name = arg.substr(2, eq == std::string::npos ? eq : eq - 2);
        const OptionRow* row = findOption(name);
        if (!row) return "unknown option '--" + name + "'";
        std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
        if (!row->value_word && eq != std::string::npos) return "option '--" + name + "' takes no value";
        if (row->value_word && eq == std::string::npos) {
            if (row->bare && row->bare(p)) continue;
            if (row->equals_only)
                return "--" + name + " needs =" + row->value_word + ", e.g. --" + name + "=" + row->example +
                       " (the value goes after '=' in the same argument)";
            // `--seed --list` is a forgotten value, not a seed called "--list".
            if (a + 1 >= args.size() || args[a + 1].rfind("--", 0) == 0)
                return "option '--" + name + "' needs a value";
            value = args[++a];
        }
        if (std::string e = setOption(p, *row, value); !e.empty()) return e;
    }
    return finishOptions(p, env);
}

namespace {

std::string finishOptions(const OptionParse& p, const EnvLookup& env) {
    Options& out = p.out;
    const bool platform_given = p.wasGiven("platform"), device_given = p.wasGiven("device");
    const bool type_given = p.wasGiven("device-type"), shard_given = p.wasGiven("shard");
    const bool json_given = p.wasGiven("json"), tier_given = p.wasGiven("tier");
    const bool fail_skipped_given = p.wasGiven("fail-if-all-skipped");
    // The CTS environment variables (docs/user_guide.md, "Environment variables"): each is checked against
    // its grammar whenever it is set, and used where no option said otherwise. Empty is the same as unset.
    auto var = [&](const char* n) -> std::string {
        const char* v = env ? env(n) : nullptr;
        return v ? v : "";
    };
    auto badVar = [](const char* n, const std::string& v, const char* want) {
        return std::string("environment ") + n + "='" + printable(v) + "': expected " + want;
    };
    std::string v;
    // --platform-name chooses the platform by name: an index as well would leave one of them unused.
    if (platform_given && !out.platform_name.empty())
        return "--platform=" + std::to_string(out.platform) + " and --platform-name=" + out.platform_name +
               " both choose the platform: give one of them";
    int index = 0;
    if (!(v = var("CL_PLATFORM_INDEX")).empty()) {
        if (!parseIndex(v, index)) return badVar("CL_PLATFORM_INDEX", v, "a platform index (0, 1, ...)");
        if (!platform_given && out.platform_name.empty()) out.platform = index;
    }
    if (!(v = var("CL_DEVICE_INDEX")).empty()) {
        if (!parseIndex(v, index)) return badVar("CL_DEVICE_INDEX", v, "a device index (0, 1, ...)");
        if (!device_given) out.device = index;
    }
    if (!(v = var("CL_DEVICE_TYPE")).empty()) {
        unsigned long long t = 0;
        if (!parseDeviceType(v, t))
            return badVar("CL_DEVICE_TYPE", v, "gpu, cpu, accelerator, default or all");
        if (!type_given) out.device_type = v;
    }
    {
        // As GoogleTest: both or neither. One without the other (a typo in a pod template) would make
        // every job run the same shard, green.
        std::string total = var("GTEST_TOTAL_SHARDS"), index = var("GTEST_SHARD_INDEX");
        unsigned i = 0, n = 1;
        if (total.empty() != index.empty())
            return std::string("environment ") +
                   (total.empty() ? "GTEST_SHARD_INDEX" : "GTEST_TOTAL_SHARDS") + " is set without " +
                   (total.empty() ? "GTEST_TOTAL_SHARDS" : "GTEST_SHARD_INDEX") +
                   ": set both (0 <= GTEST_SHARD_INDEX < GTEST_TOTAL_SHARDS) or neither";
        if (!total.empty() && !parseShard(index + "/" + total, i, n))
            return "environment GTEST_SHARD_INDEX='" + printable(index) + "' GTEST_TOTAL_SHARDS='" +
                   printable(total) + "': expected 0 <= index < total";
        if (!total.empty() && !shard_given) out.shard_index = i, out.shard_count = n;
    }
    if (!(v = var("CTS_FAIL_IF_ALL_SKIPPED")).empty()) {
        bool b = false;
        if (!parseBoolWord(v, b))
            return badVar("CTS_FAIL_IF_ALL_SKIPPED", v, "1, 0, true, false, yes, no, on or off (any case)");
        if (!fail_skipped_given) out.fail_if_all_skipped = b;
    }
    if (out.list_json && (!out.list || json_given))
        return "--json needs =FILE, e.g. --json=results.json (the value goes after '=' in the same "
               "argument); "
               "--json alone goes with --list and prints the selected cases as JSON";
    if (!json_given && !out.list_json && !(v = var("CL_CONFORMANCE_RESULTS_FILENAME")).empty())
        out.json_file = v;
    if (out.quick && out.extended) return "--quick and --extended exclude each other";
    if (out.run_skipped && out.waiver_files.empty())
        return "--run-skipped runs the cases of waiver \"skip\" entries: it needs --waiver-file=FILE";
    if (out.isolate && out.timeout_seconds == 0) {
        out.timeout_seconds = kIsolateTimeoutSeconds;
        out.timeout_is_default = true;
    }
    if (!out.offline_compiler.empty() && out.target.empty())
        return "--offline-compiler needs --target=NAME: the target to build for (e.g. dg2-g10 or pvc)";
    if (out.offline_compiler.empty() && !out.target.empty())
        return "--target=" + out.target +
               " is for --offline-compiler=PROGRAM (e.g. --offline-compiler=ocloc)";
    if (!out.offline_compiler.empty() && out.device_info)
        return "--device-info prints what a driver's device answers; --offline-compiler opens none: drop one";
    if (!out.offline_compiler.empty() && out.build_only)
        return "--build-only is for an OpenCL driver; --offline-compiler builds without running anyway: "
               "drop --build-only";
    if (!out.offline_compiler.empty()) {
        // The offline mode opens no device: an option that picks or needs one would be silently ignored.
        const char* device = out.icd_system || !out.icd_file.empty() ? "--icd"
                             : platform_given                        ? "--platform"
                             : !out.platform_name.empty()            ? "--platform-name"
                             : device_given                          ? "--device"
                             : type_given                            ? "--device-type"
                             : out.isolate                           ? "--isolate"
                             : out.retry > 0                         ? "--retry"
                             : out.worker                            ? "--worker"
                             : !out.dump_dir.empty()                 ? "--dump-dir"
                                                                     : nullptr;
        if (device)
            return std::string("--offline-compiler builds modules without a device: drop ") + device +
                   " (the target description stands for the device)";
    }
    // The report chooses the cases (and --quick, --extended, --huge and --tier, as the earlier run had them);
    // other selection would make the rerun something else than the earlier run's failures. --huge stays
    // allowed: a report without a selection record does not say whether its run had it.
    if (!out.rerun_failed.empty()) {
        const char* other = !out.positive.empty()         ? "case patterns and --filter"
                            : !out.caselist_files.empty() ? "--caselist-file"
                            : !out.tags.empty()           ? "--tag"
                            : out.quick                   ? "--quick"
                            : out.extended                ? "--extended"
                            : tier_given                  ? "--tier"
                                                          : nullptr;
        if (other) return std::string("--rerun-failed selects the cases itself: drop ") + other;
    }
    const bool json_from_env = out.json_from_env = !json_given && !out.json_file.empty();
    const std::string json_option = json_from_env ? "CL_CONFORMANCE_RESULTS_FILENAME" : "--json";
    for (const auto& [option, path] : {std::pair<std::string, std::string>{json_option, out.json_file},
                                       {"--junit", out.junit_file},
                                       {"--log", out.log_file}})
        if (std::string e = checkOutputKind(option, path); !e.empty()) return e;
    if (std::string e = outputOntoInput(reportOutputs(out, json_option), optionInputs(out)); !e.empty())
        return e;
    if (std::string e = checkReportFiles(out, json_from_env); !e.empty()) return e;
    // --list and --list-tags print and run nothing: a report option would be silently left unwritten (the
    // environment's CL_CONFORMANCE_RESULTS_FILENAME, set for the whole CI job, is left alone).
    if (out.list || out.list_tags || out.device_info)
        for (const auto& [option, path] :
             {std::pair<const char*, std::string>{"--json", json_given ? out.json_file : ""},
              {"--junit", out.junit_file},
              {"--log", out.log_file}})
            if (!path.empty())
                return std::string(out.list        ? "--list"
                                   : out.list_tags ? "--list-tags"
                                                   : "--device-info") +
                       " runs no case and writes no report: drop " + option + "=" + printable(path);
    return "";
}

}  // namespace

std::string checkRunFiles(const Options& o, const std::string& assets_dir,
                          const std::vector<std::string>& case_names) {
    const std::vector<RunFile> reports =
        reportOutputs(o, o.json_from_env ? "CL_CONFORMANCE_RESULTS_FILENAME" : "--json");
    // The assets the run reads: a report there would replace the manifest, its index or hash, or a module.
    const std::string where = o.assets_dir.empty() ? "the assets" : "--assets-dir";
    const std::vector<RunFile> assets = {{where + " (manifest)", assets_dir + "/manifest.json"},
                                         {where + " (case index)", assets_dir + "/manifest.index"},
                                         {where + " (manifest hash)", assets_dir + "/manifest.sha256"}};
    if (std::string e = outputOntoInput(reports, assets, {{where + " modules", assets_dir + "/modules"}});
        !e.empty())
        return e;
    std::vector<RunFile> files = optionInputs(o);
    files.insert(files.end(), reports.begin(), reports.end());
    return fileNamedLikeADump(o.dump_dir, files, case_names);
}

int maxSkippedShare(const Options& o) {
    if (o.max_skipped_share >= 0) return o.max_skipped_share;
    return o.fail_if_all_skipped ? kDefaultMaxSkippedShare : -1;
}

std::string usageText(const std::string& program) {
    return "Usage: " + program + R"( [options] [pattern ...]

Runs the SPIR-V Intel sub-group extension conformance cases on one OpenCL device.
)" + optionsHelp() +
           R"(
Reference device (the default driver; docs/reference_device.md has the details):
  REFDEV_PROFILE=NAME         the device class it models: xe_hpc (default), xe_hpg, xe2, xe3, xe_lpg,
                              cpu (REFDEV_PROFILE=list describes each)
  REFDEV_REPORT_AS=spec|neo-26.27  report as the specs describe it (default) or as compute-runtime 26.27 does
  REFDEV_FAULTS=a,b           plant driver bugs (bin/refdev_faults lists them; checks the suite catches them)
  REFDEV_THREADS=N            worker threads for work-groups (default: hardware concurrency)
  REFDEV_BRANCH_BUDGET=N      taken branches allowed per work-item in one launch (default 0: unlimited)

Environment (docs/user_guide.md, "Environment variables"): CL_PLATFORM_INDEX, CL_DEVICE_INDEX,
CL_DEVICE_TYPE, GTEST_TOTAL_SHARDS with GTEST_SHARD_INDEX (both or neither), CL_CONFORMANCE_RESULTS_FILENAME,
CTS_FAIL_IF_ALL_SKIPPED (1/0, true/false, yes/no, on/off); a value outside its grammar is a usage error.

Exit status: 0 every case passed, was not supported, was waived or was Flake (with --flake-fails: not
Flake), 1 otherwise, 2 usage error.
)";
}

}  // namespace cts
