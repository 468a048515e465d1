#include "test_common/harness/options.h"

#include <CL/cl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <map>

#include "test_common/harness/icd_file.h"
#include "test_common/harness/path_guard.h"
#include "test_common/harness/report.h"
#include "test_common/harness/worker_process.h"

namespace cts {
namespace {

bool parseUnsigned(const std::string& text, unsigned long long& out) {
    if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return false;
    errno = 0;
    char* end = nullptr;
    out = std::strtoull(text.c_str(), &end, 10);
    return errno == 0 && *end == '\0';
}

bool parseIndex(const std::string& text, int& out) {
    unsigned long long v = 0;
    if (!parseUnsigned(text, v) || v > 1000000) return false;
    out = static_cast<int>(v);
    return true;
}

bool parseShard(const std::string& text, unsigned& index, unsigned& count) {
    size_t slash = text.find('/');
    unsigned long long i = 0, n = 0;
    if (slash == std::string::npos || !parseUnsigned(text.substr(0, slash), i) ||
        !parseUnsigned(text.substr(slash + 1), n) || n == 0 || i >= n || n > 1000000)
        return false;
    index = static_cast<unsigned>(i);
    count = static_cast<unsigned>(n);
    return true;
}

// Options that take a value, as `--name=value` or `--name value` (file options: `--name=value` only).
const char* const kValueOptions[] = {"filter",       "caselist-file", "exclude-file",
                                     "platform",     "device",        "device-type",
                                     "icd",          "platform-name", "shard",
                                     "seed",         "json",          "junit",
                                     "log",          "timeout",       "dump-dir",
                                     "assets-dir",   "tag",           "waiver-file",
                                     "rerun-failed", "tier",          "offline-compiler",
                                     "target",       "jobs",          "retry"};
const char* const kFlagOptions[] = {
    "help",        "list",       "list-tags",           "isolate", "quick",
    "extended",    "huge",       "fail-if-all-skipped", "worker",  "fail-on-stale-waivers",
    "flake-fails", "run-skipped"};

// Options naming a file or directory take their value only as `--name=value`: with `--json api` the pattern
// `api` would silently become the report's file name. Each with the word for its value and an example.
struct FileOption {
    const char* name;
    const char* what;
    const char* example;
};
const FileOption kFileOptions[] = {{"json", "FILE", "results.json"},
                                   {"junit", "FILE", "results.xml"},
                                   {"log", "FILE", "run.log"},
                                   {"caselist-file", "FILE", "cases.txt"},
                                   {"exclude-file", "FILE", "known_issues.txt"},
                                   {"waiver-file", "FILE", "waivers.json"},
                                   {"rerun-failed", "REPORT", "results.json"},
                                   {"dump-dir", "DIR", "dump"},
                                   {"offline-compiler", "PROGRAM", "ocloc"},
                                   {"assets-dir", "DIR", "build/assets"}};

const double kMaxTimeoutSeconds = 1e7;  // about 115 days
const char* const kTimeoutRange = "a number of seconds, 0 < SECONDS <= 10000000";

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
std::string reportFileIdentity(const std::string& path) {
    char resolved[PATH_MAX];
    struct stat st;
    if (stat(path.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode)) return "";
        if (realpath(path.c_str(), resolved)) return resolved;
    }
    size_t slash = path.rfind('/');
    std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
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

bool parseDeviceType(const std::string& text, unsigned long long& type) {
    std::string t = text;
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
    if (t.rfind("cl_device_type_", 0) == 0) t = t.substr(15);
    if (t == "gpu")
        type = CL_DEVICE_TYPE_GPU;
    else if (t == "cpu")
        type = CL_DEVICE_TYPE_CPU;
    else if (t == "accelerator")
        type = CL_DEVICE_TYPE_ACCELERATOR;
    else if (t == "default")
        type = CL_DEVICE_TYPE_DEFAULT;
    else if (t == "all")
        type = CL_DEVICE_TYPE_ALL;
    else
        return false;
    return true;
}

std::string parseOptions(const std::vector<std::string>& args, const EnvLookup& env, Options& out) {
    out = Options{};
    bool platform_given = false, device_given = false, type_given = false, shard_given = false;
    bool json_given = false, fail_skipped_given = false, tier_given = false;
    bool options_done = false;
    std::map<std::string, std::string> given;  // single-valued options: name -> value

    for (size_t a = 0; a < args.size(); ++a) {
        const std::string& arg = args[a];
        if (options_done || arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
            if (!options_done && arg == "-h") {
                out.help = true;
                continue;
            }
            if (!options_done && !arg.empty() && arg[0] == '-' && arg != "-")
                return "unknown option '" + arg + "'";
            if (arg.empty()) return "empty case pattern";
            out.positive.push_back({arg, "command line"});
            out.patterns.push_back(arg);
            continue;
        }
        if (arg == "--") {
            options_done = true;
            continue;
        }
        std::string name = arg.substr(2), value;
        bool has_value = false;
        size_t eq = name.find('=');
        if (eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            has_value = true;
        }
        bool is_flag =
            std::find(std::begin(kFlagOptions), std::end(kFlagOptions), name) != std::end(kFlagOptions);
        bool takes_value =
            std::find(std::begin(kValueOptions), std::end(kValueOptions), name) != std::end(kValueOptions);
        if (!is_flag && !takes_value) return "unknown option '--" + name + "'";
        if (is_flag) {
            if (has_value) return "option '--" + name + "' takes no value";
            if (name == "help")
                out.help = true;
            else if (name == "list")
                out.list = true;
            else if (name == "list-tags")
                out.list_tags = true;
            else if (name == "isolate")
                out.isolate = true;
            else if (name == "quick")
                out.quick = true;
            else if (name == "extended")
                out.extended = true;
            else if (name == "huge")
                out.huge = true;
            else if (name == "worker")
                out.worker = true;
            else if (name == "fail-on-stale-waivers")
                out.fail_on_stale_waivers = true;
            else if (name == "run-skipped")
                out.run_skipped = true;
            else if (name == "flake-fails")
                out.flake_fails = true;
            else if (name == "fail-if-all-skipped")
                out.fail_if_all_skipped = fail_skipped_given = true;
            continue;
        }
        if (!has_value && name == "json" && !json_given) {
            out.list_json = true;  // --list --json; checked below
            continue;
        }
        if (!has_value) {
            for (const auto& f : kFileOptions)
                if (name == f.name)
                    return "--" + name + " needs =" + f.what + ", e.g. --" + name + "=" + f.example +
                           " (the value goes after '=' in the same argument)";
            // `--seed --list` is a forgotten value, not a seed called "--list".
            if (a + 1 >= args.size() || args[a + 1].rfind("--", 0) == 0)
                return "option '--" + name + "' needs a value";
            value = args[++a];
        }
        auto bad = [&](const char* want) {
            return "option '--" + name + "=" + printable(value) + "': expected " + want;
        };
        // A single-valued option given twice with different values (--tier=core --tier=all) would silently
        // keep one of them; the repeatable ones add up.
        if (name != "filter" && name != "tag" && name != "caselist-file" && name != "exclude-file" &&
            name != "waiver-file") {
            auto [it, first] = given.emplace(name, value);
            if (!first && it->second != value)
                return "--" + name + " given twice (--" + name + "=" + printable(it->second) + " and --" +
                       name + "=" + printable(value) + "): give it once";
        }
        if (name == "filter") {
            size_t before = out.positive.size() + out.negative.size();
            parseFilter(value, out.positive, out.negative);
            // `--filter=`, `--filter=-`, `--filter=::` would otherwise select every case.
            if (out.positive.size() + out.negative.size() == before)
                return bad("a pattern list POS:POS-NEG:NEG, found no pattern");
            out.filters.push_back(value);
        } else if (name == "tag") {
            // Whether a tag exists is known only with the case list: selectCases refuses an unknown one.
            size_t start = 0;
            while (start <= value.size()) {
                size_t comma = value.find(',', start);
                if (comma == std::string::npos) comma = value.size();
                std::string tag = value.substr(start, comma - start);
                if (tag.empty()) return bad("TAG[,TAG...], tags without empty names");
                if (std::find(out.tags.begin(), out.tags.end(), tag) == out.tags.end())
                    out.tags.push_back(tag);
                start = comma + 1;
            }
        } else if (name == "tier") {
            tier_given = true;
            if (value == "core")
                out.core_only = true;
            else if (value == "all")
                out.core_only = false;
            else
                return bad("core or all");
        } else if (name == "caselist-file" || name == "exclude-file") {
            if (value.empty()) return bad("a file name");
            (name == "caselist-file" ? out.caselist_files : out.exclude_files).push_back(value);
        } else if (name == "waiver-file") {
            if (value.empty()) return bad("a file name");
            out.waiver_files.push_back(value);
        } else if (name == "rerun-failed") {
            if (value.empty()) return bad("a JSON report written by --json");
            if (!out.rerun_failed.empty()) return "--rerun-failed given twice";
            out.rerun_failed = value;
        } else if (name == "platform") {
            if (!parseIndex(value, out.platform)) return bad("a platform index (0, 1, ...)");
            platform_given = true;
        } else if (name == "device") {
            if (!parseIndex(value, out.device)) return bad("a device index (0, 1, ...)");
            device_given = true;
        } else if (name == "device-type") {
            unsigned long long t = 0;
            if (!parseDeviceType(value, t)) return bad("gpu, cpu, accelerator, default or all");
            out.device_type = value;
            type_given = true;
        } else if (name == "platform-name") {
            if (value.empty()) return bad("a part of a platform name, e.g. --platform-name=intel");
            out.platform_name = value;
        } else if (name == "icd") {
            out.icd_system = false;
            out.icd_file.clear();
            out.icd_library.clear();
            if (value == "system") {
                out.icd_system = true;
            } else if (value.empty()) {
                return bad("reference, system or an .icd file");
            } else if (value != "reference") {
                // Anything else is an .icd file: checked here, so a typo costs a usage error, not a run on
                // no driver (or on the wrong one).
                if (access(value.c_str(), F_OK) != 0 && errno == ENOENT)
                    return "--icd=" + value +
                           ": no such file (--icd takes reference, system or an .icd file)";
                IcdFile icd;
                std::string err = readIcdFile(value, icd);
                if (!err.empty()) return "--icd=" + value + ": " + err;
                out.icd_file = icd.path;
                out.icd_library = icd.library;
            }
        } else if (name == "offline-compiler") {
            if (value.empty()) return bad("a program: a path or a name on PATH, e.g. ocloc");
            out.offline_compiler = value;
        } else if (name == "target") {
            if (value.empty()) return bad("a target name (e.g. dg2-g10) or a target description FILE.json");
            out.target = value;
        } else if (name == "shard") {
            if (!parseShard(value, out.shard_index, out.shard_count)) return bad("I/N with 0 <= I < N");
            shard_given = true;
        } else if (name == "seed") {
            unsigned long long s = 0;
            if (!parseUnsigned(value, s)) return bad("an unsigned integer");
            out.seed = s;
            out.seed_given = true;
        } else if (name == "jobs") {
            unsigned long long n = 0;
            if (!parseUnsigned(value, n) || n < 1 || n > kMaxJobs)
                return bad("a number of worker processes, 1 <= N <= 256");
            out.jobs = static_cast<unsigned>(n);
        } else if (name == "retry") {
            unsigned long long n = 0;
            if (!parseUnsigned(value, n) || n > kMaxRetries) return bad("a number of retries, 0 <= K <= 10");
            out.retry = static_cast<unsigned>(n);
        } else if (name == "timeout") {
            char* end = nullptr;
            errno = 0;
            double t = std::strtod(value.c_str(), &end);
            if (value.empty() || errno != 0 || *end != '\0' || !(t > 0) || t > kMaxTimeoutSeconds)
                return bad(kTimeoutRange);
            out.timeout_seconds = t;
        } else {
            if (value.empty()) return bad("a file or directory name");
            if (name == "json")
                out.json_file = value, json_given = true;
            else if (name == "junit")
                out.junit_file = value;
            else if (name == "log")
                out.log_file = value;
            else if (name == "dump-dir")
                out.dump_dir = value;
            else if (name == "assets-dir")
                out.assets_dir = value;
        }
    }

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
    if (out.isolate && out.timeout_seconds == 0) {
        out.timeout_seconds = kIsolateTimeoutSeconds;
        out.timeout_is_default = true;
    }
    if (!out.offline_compiler.empty() && out.target.empty())
        return "--offline-compiler needs --target=NAME: the target to build for (e.g. dg2-g10 or pvc)";
    if (out.offline_compiler.empty() && !out.target.empty())
        return "--target=" + out.target +
               " is for --offline-compiler=PROGRAM (e.g. --offline-compiler=ocloc)";
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
    if (out.list || out.list_tags)
        for (const auto& [option, path] :
             {std::pair<const char*, std::string>{"--json", json_given ? out.json_file : ""},
              {"--junit", out.junit_file},
              {"--log", out.log_file}})
            if (!path.empty())
                return std::string(out.list ? "--list" : "--list-tags") +
                       " runs no case and writes no report: drop " + option + "=" + printable(path);
    return "";
}

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

std::string usageText(const std::string& program) {
    return "Usage: " + program + R"( [options] [pattern ...]

Runs the SPIR-V Intel sub-group extension conformance cases on one OpenCL device.

Selection (patterns use * and ?; a group name or dotted prefix selects its subtree):
  pattern ...                 run the cases a pattern selects (default: all)
  --                          end of options: every later argument is a pattern, even one starting with -
  --filter=POS:POS-NEG:NEG    GoogleTest-style positive and negative patterns
  --caselist-file=FILE        patterns/case names to run, one per line, # comments
  --exclude-file=FILE         patterns/case names to skip, one per line, # comments
                              (input files: regular files of at most 256 MiB)
  --list                      print the selected case names and exit
  --list --json               print the selected cases as JSON (one object per line in an array: name,
                              family, module, module_hash, kernel, params, requires, tags, tier, origin)
  --quick                     only cases tagged quick (not for conformance)
  --tier=core|all             core: only the cases whose module the OpenCL environment promises to build
                              on a device reporting their extensions (default all: device_specific too)
  --extended                  also run cases tagged extended (not for conformance)
  --tag=TAG[,TAG...]          only cases with any of the tags (repeatable; e.g. --tag=regression); a tag
                              no case carries is a usage error
  --list-tags                 print every tag with the number of cases carrying it and exit
  --huge                      also run cases tagged huge: 2D block IO past 2^31 and 2^32 bytes, with
                              buffers of over 4 GiB (off by default: device and host memory)
  --shard=I/N                 run shard I of N (round-robin); also GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS
  --rerun-failed=REPORT       run the cases REPORT (a --json report) has neither passed (Flake included)
                              nor found not supported, and those it did not run, with the selection options of its
                              run (its "selection" record: --quick, --extended, --huge, --tier, and the
                              seed unless --seed is given); --exclude-file, --shard and the device
                              options still apply; a case the selection would drop is a usage error

Device (environment: CL_PLATFORM_INDEX, CL_DEVICE_INDEX, CL_DEVICE_TYPE; options win):
  --platform=N --device=N     platform and device index (default 0, 0)
  --platform-name=TEXT        the first platform whose CL_PLATFORM_NAME contains TEXT, in any case
                              (instead of --platform; e.g. --platform-name=intel)
  --device-type=TYPE          gpu, cpu, accelerator, default (default) or all
  --icd=reference|system|FILE reference (default): when OCL_ICD_VENDORS is unset, use the reference
                              device next to this program (<program dir>/../icd, or installed:
                              ../lib/spirv_intel_cts/libRefDevOpenCL.so); system: use the
                              installed drivers;
                              FILE: exactly the driver library that .icd file names (the system's
                              drivers and OCL_ICD_VENDORS are ignored); Intel's CPU runtime:
                              --icd=$(scripts/install_intel_cpu_runtime.sh --print-icd)

Offline compiler (no OpenCL device; docs/offline_compiler.md):
  --offline-compiler=PROGRAM  build each selected case's module with Intel's offline compiler (a path, or a
                              name on PATH such as ocloc) instead of running it: Pass = built, Fail = a
                              core module rejected (phase build), NotSupported = the target lacks a
                              requirement or rejected a device-specific module; --timeout bounds each build;
                              --jobs=N compiles N modules at a time (default: the usable cores)
  --target=NAME|FILE.json     the target description: NAME from the shipped targets directory (pvc,
                              dg2-g10, bmg, lnl-m, ptl, mtl), or a description file

Execution:
  --seed=N                    run seed mixed into every per-case seed (default 0)
  --timeout=SECONDS           per-case time limit, 0 < SECONDS <= 10000000 (default: none, or 300
                              with --isolate)
  --isolate                   run cases in a child process; a crash or timeout is recorded and the
                              run continues; without --timeout each case has 300 seconds
  --jobs=N                    run the cases in N worker processes, 1 <= N <= 256 (default: the cores
                              this process may use); N > 1 isolates like --isolate (a crash or timeout
                              costs its case, without --timeout each case has 300 seconds), a selection
                              of one module too (in one worker); the reports are those of --jobs=1
  --retry=K                   run a case whose result is Fail, Crash or Timeout again, up to K times
                              (0 <= K <= 10, default 0; a Fail in the same process, a Crash or Timeout
                              in a new worker); one that then passes is reported Flake with every
                              attempt's message; waived cases are not retried
  --flake-fails               exit 1 when a case is Flake (default: listed in the summary, exit 0)
  --assets-dir=DIR            manifest.json and modules/ (default <program dir>/../assets, or
                              installed: ../share/spirv_intel_cts/assets)
  --dump-dir=DIR              cases write their buffers there (CASE.LABEL.bin); a case that does not
                              pass also its outcome (CASE.txt) and module (CASE.spv)

Reports (each on a file of its own: a regular file or a character device such as /dev/null, never a FIFO
or a file the run reads; one that cannot be written fails the run; file options need the = form):
  --json=FILE                 JSON results (also CL_CONFORMANCE_RESULTS_FILENAME)
  --junit=FILE                JUnit XML
  --log=FILE                  crash-safe line log, flushed as each case starts and ends
  --fail-if-all-skipped       exit 1 when no case passed (a shard left empty is fine; also
                              CTS_FAIL_IF_ALL_SKIPPED=1, true, yes or on)

Known failures (format: docs/user_guide.md, "Known failures: waivers"):
  --waiver-file=FILE          JSON waivers (repeatable): a Fail, Crash or Timeout of a covered case on a
                              matching device is reported Waived and does not fail the run; each
                              entry names its devices ("*": every device, with a warning)
  --fail-on-stale-waivers     exit 1 when a waived case passed or a waiver matches no selected case
  --run-skipped               also run the cases of waiver entries marked "skip" (known crashes and
                              hangs, recorded Waived without running otherwise): the periodic run
                              that finds stale skips, with --fail-on-stale-waivers

Other:
  -h, --help                  print this help and exit

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
