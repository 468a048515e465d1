#include "test_common/harness/stages/option_table.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "test_common/harness/device/device_under_test.h"
#include "test_common/harness/device/icd_file.h"
#include "test_common/harness/reports/report.h"
#include "test_common/harness/workers/worker_process.h"

namespace cts {
namespace {

bool parseUnsigned(const std::string& text, unsigned long long& out) {
    if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return false;
    errno = 0;
    char* end = nullptr;
    out = std::strtoull(text.c_str(), &end, 10);
    return errno == 0 && *end == '\0';
}

}  // namespace

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

std::string OptionParse::expected(const std::string& want) const {
    return "option '--" + name + "=" + printable(value) + "': expected " + want;
}

namespace {

const double kMaxTimeoutSeconds = 1e7;  // about 115 days

std::vector<OptionValue> some(bool given, const std::string& value) {
    return given ? std::vector<OptionValue>{value} : std::vector<OptionValue>{};
}

OptionRow flagOption(const char* name, bool Options::*flag) {
    OptionRow row;
    row.name = name;
    row.flag = flag;
    return row;
}

OptionRow textOption(const char* name, const char* word, const char* example, std::string Options::*text,
                     const char* want) {
    OptionRow row;
    row.name = name, row.value_word = word, row.example = example, row.text = text, row.want = want;
    return row;
}

OptionRow listOption(const char* name, const char* word, const char* example,
                     std::vector<std::string> Options::*list, const char* want) {
    OptionRow row;
    row.name = name, row.value_word = word, row.example = example, row.list = list, row.want = want;
    return row;
}

OptionRow valueOption(const char* name, const char* word, const char* example,
                      std::string (*set)(OptionParse&, const std::string&),
                      std::vector<OptionValue> (*echo)(const Options&)) {
    OptionRow row;
    row.name = name, row.value_word = word, row.example = example, row.set = set, row.echo = echo;
    return row;
}

OptionRow helpLine(const char* label, const char* help) {
    OptionRow row;
    row.label = label, row.help = help;
    return row;
}

// The options with a grammar of their own: setters and echoes.

std::string setFilter(OptionParse& p, const std::string& value) {
    size_t before = p.out.positive.size() + p.out.negative.size();
    parseFilter(value, p.out.positive, p.out.negative);
    // `--filter=`, `--filter=-`, `--filter=::` would otherwise select every case.
    if (p.out.positive.size() + p.out.negative.size() == before)
        return p.expected("a pattern list POS:POS-NEG:NEG, found no pattern");
    p.out.filters.push_back(value);
    return "";
}

std::string setTags(OptionParse& p, const std::string& value) {
    // Whether a tag exists is known only with the case list: selectCases refuses an unknown one.
    size_t start = 0;
    while (start <= value.size()) {
        size_t comma = value.find(',', start);
        if (comma == std::string::npos) comma = value.size();
        std::string tag = value.substr(start, comma - start);
        if (tag.empty()) return p.expected("TAG[,TAG...], tags without empty names");
        if (std::find(p.out.tags.begin(), p.out.tags.end(), tag) == p.out.tags.end())
            p.out.tags.push_back(tag);
        start = comma + 1;
    }
    return "";
}

std::vector<OptionValue> echoTags(const Options& o) {
    std::string tags;
    for (const auto& tag : o.tags) tags += (tags.empty() ? "" : ",") + tag;
    return some(!tags.empty(), tags);
}

std::string setTier(OptionParse& p, const std::string& value) {
    if (value != "core" && value != "all") return p.expected("core or all");
    p.out.core_only = value == "core";
    return "";
}

std::string setRerunFailed(OptionParse& p, const std::string& value) {
    if (value.empty()) return p.expected("a JSON report written by --json");
    if (!p.out.rerun_failed.empty()) return "--rerun-failed given twice";
    p.out.rerun_failed = value;
    return "";
}

std::string setPlatform(OptionParse& p, const std::string& value) {
    return parseIndex(value, p.out.platform) ? "" : p.expected("a platform index (0, 1, ...)");
}

std::string setDevice(OptionParse& p, const std::string& value) {
    return parseIndex(value, p.out.device) ? "" : p.expected("a device index (0, 1, ...)");
}

std::string setDeviceType(OptionParse& p, const std::string& value) {
    unsigned long long type = 0;
    if (!parseDeviceType(value, type)) return p.expected("gpu, cpu, accelerator, default or all");
    p.out.device_type = value;
    return "";
}

std::string setIcd(OptionParse& p, const std::string& value) {
    Options& out = p.out;
    out.icd_system = false;
    out.icd_file.clear();
    out.icd_library.clear();
    if (value == "system") {
        out.icd_system = true;
    } else if (value.empty()) {
        return p.expected("reference, system or an .icd file");
    } else if (value != "reference") {
        // Anything else is an .icd file: checked here, so a typo costs a usage error, not a run on no driver
        // (or on the wrong one).
        if (access(value.c_str(), F_OK) != 0 && errno == ENOENT)
            return "--icd=" + value + ": no such file (--icd takes reference, system or an .icd file)";
        IcdFile icd;
        std::string err = readIcdFile(value, icd);
        if (!err.empty()) return "--icd=" + value + ": " + err;
        out.icd_file = icd.path;
        out.icd_library = icd.library;
    }
    return "";
}

std::vector<OptionValue> echoIcd(const Options& o) {
    return o.icd_system ? std::vector<OptionValue>{"system"} : some(!o.icd_file.empty(), o.icd_file);
}

std::string setShard(OptionParse& p, const std::string& value) {
    return parseShard(value, p.out.shard_index, p.out.shard_count) ? "" : p.expected("I/N with 0 <= I < N");
}

std::string setSeed(OptionParse& p, const std::string& value) {
    unsigned long long seed = 0;
    if (!parseUnsigned(value, seed)) return p.expected("an unsigned integer");
    p.out.seed = seed;
    p.out.seed_given = true;
    return "";
}

std::string setJobs(OptionParse& p, const std::string& value) {
    unsigned long long n = 0;
    if (!parseUnsigned(value, n) || n < 1 || n > kMaxJobs)
        return p.expected("a number of worker processes, 1 <= N <= 256");
    p.out.jobs = static_cast<unsigned>(n);
    return "";
}

std::string setRetry(OptionParse& p, const std::string& value) {
    unsigned long long n = 0;
    if (!parseUnsigned(value, n) || n > kMaxRetries) return p.expected("a number of retries, 0 <= K <= 10");
    p.out.retry = static_cast<unsigned>(n);
    return "";
}

std::string setMaxSkippedShare(OptionParse& p, const std::string& value) {
    unsigned long long n = 0;
    if (!parseUnsigned(value, n) || n > 100) return p.expected("a percentage, 0 <= P <= 100");
    p.out.max_skipped_share = static_cast<int>(n);
    return "";
}

std::string setTimeout(OptionParse& p, const std::string& value) {
    char* end = nullptr;
    errno = 0;
    double t = std::strtod(value.c_str(), &end);
    if (value.empty() || errno != 0 || *end != '\0' || !(t > 0) || t > kMaxTimeoutSeconds)
        return p.expected("a number of seconds, 0 < SECONDS <= 10000000");
    p.out.timeout_seconds = t;
    return "";
}

std::vector<OptionValue> echoTimeout(const Options& o) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", o.timeout_seconds);  // every digit: the same double again
    return some(o.timeout_seconds > 0 && !o.timeout_is_default, text);
}

// `--json` alone goes with --list (checked after parsing); after --json=FILE it is a forgotten value.
bool bareJson(OptionParse& p) {
    return !p.wasGiven("json") && (p.out.list_json = true);
}

std::vector<OptionValue> echoJson(const Options& o) {
    if (o.list_json) return {std::nullopt};
    return some(!o.json_from_env && !o.json_file.empty(), o.json_file);
}

std::vector<OptionRow> makeTable() {
    return {
        // Selection
        helpLine("pattern ...", "run the cases a pattern selects (default: all)")
            .in("Selection (patterns use * and ?; a group name or dotted prefix selects its subtree):"),
        helpLine("--", "end of options: every later argument is a pattern, even one starting with -"),
        valueOption(
            "filter", "POS:POS-NEG:NEG", "api.*-*.huge*", setFilter,
            [](const Options& o) { return std::vector<OptionValue>(o.filters.begin(), o.filters.end()); })
            .adds()
            .helps("GoogleTest-style positive and negative patterns"),
        listOption("caselist-file", "FILE", "cases.txt", &Options::caselist_files, "a file name")
            .fileValue()
            .adds()
            .helps("patterns/case names to run, one per line, # comments"),
        listOption("exclude-file", "FILE", "known_issues.txt", &Options::exclude_files, "a file name")
            .fileValue()
            .adds()
            .helps("patterns/case names to skip, one per line, # comments\n"
                   "(input files: regular files of at most 256 MiB)"),
        flagOption("list", &Options::list).helps("print the selected case names and exit"),
        helpLine("--list --json",
                 "print the selected cases as JSON (one object per line in an array: name,\n"
                 "family, module, module_hash, kernel, params, requires, tags, tier, origin)"),
        flagOption("quick", &Options::quick)
            .helps("only cases tagged quick (not for conformance)")
            .toWorker(8)
            .toRerun(9),
        valueOption("tier", "core|all", "core", setTier,
                    [](const Options& o) { return some(o.core_only, "core"); })
            .helps("core: only the cases whose module the OpenCL environment promises to build\n"
                   "on a device reporting their extensions (default all: device_specific too)")
            .toWorker(9),
        flagOption("extended", &Options::extended)
            .helps("also run cases tagged extended (not for conformance)")
            .toRerun(10),
        valueOption("tag", "TAG[,TAG...]", "quick,regression", setTags, echoTags)
            .adds()
            .helps("only cases with any of the tags (repeatable; e.g. --tag=regression); a tag\n"
                   "no case carries is a usage error"),
        flagOption("list-tags", &Options::list_tags)
            .helps("print every tag with the number of cases carrying it and exit"),
        flagOption("huge", &Options::huge)
            .helps("also run cases tagged huge: 2D block IO past 2^31 and 2^32 bytes, with\n"
                   "buffers of over 4 GiB (off by default: device and host memory)")
            .toRerun(11),
        valueOption("shard", "I/N", "1/3", setShard,
                    [](const Options& o) {
                        return some(o.shard_count > 1,
                                    std::to_string(o.shard_index) + "/" + std::to_string(o.shard_count));
                    })
            .helps("run shard I of N (round-robin); also GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS"),
        valueOption("rerun-failed", "REPORT", "results.json", setRerunFailed,
                    [](const Options& o) { return some(!o.rerun_failed.empty(), o.rerun_failed); })
            .fileValue()
            .helps("run the cases REPORT (a --json report) has neither passed (Flake included)\n"
                   "nor found not supported, and those it did not run, with the selection options\n"
                   "of its run (its \"selection\" record: --quick, --extended, --huge, --tier, and\n"
                   "the seed unless --seed is given); --exclude-file, --shard and the device\n"
                   "options still apply; a case the selection would drop is a usage error"),

        // Device
        valueOption("platform", "N", "1", setPlatform,
                    [](const Options& o) { return some(o.platform >= 0, std::to_string(o.platform)); })
            .in("Device (environment: CL_PLATFORM_INDEX, CL_DEVICE_INDEX, CL_DEVICE_TYPE; options win):")
            .labelled("--platform=N --device=N")
            .helps("platform and device index (default 0, 0)")
            .toWorker(3)
            .toRerun(5),
        valueOption("device", "N", "2", setDevice,
                    [](const Options& o) { return some(o.device >= 0, std::to_string(o.device)); })
            .toWorker(4)
            .toRerun(6),  // in --help with --platform
        textOption("platform-name", "TEXT", "intel", &Options::platform_name,
                   "a part of a platform name, e.g. --platform-name=intel")
            .helps("the first platform whose CL_PLATFORM_NAME contains TEXT, in any case\n"
                   "(instead of --platform; e.g. --platform-name=intel)")
            .toRerun(4),
        valueOption("device-type", "TYPE", "gpu", setDeviceType,
                    [](const Options& o) { return some(!o.device_type.empty(), o.device_type); })
            .helps("gpu, cpu, accelerator, default (default) or all")
            .toWorker(7)
            .toRerun(7),
        valueOption("icd", "reference|system|FILE", "system", setIcd, echoIcd)
            .helps("reference (default): when OCL_ICD_VENDORS is unset, use the reference\n"
                   "device next to this program (<program dir>/../icd, or installed:\n"
                   "../lib/spirv_intel_cts/libRefDevOpenCL.so); system: use the installed drivers;\n"
                   "FILE: exactly the driver library that .icd file names (the system's\n"
                   "drivers and OCL_ICD_VENDORS are ignored); Intel's CPU runtime:\n"
                   "--icd=$(scripts/setup/install_intel_cpu_runtime.sh --print-icd)")
            .toWorker(2)
            .toRerun(3),

        // Offline compiler
        textOption("offline-compiler", "PROGRAM", "ocloc", &Options::offline_compiler,
                   "a program: a path or a name on PATH, e.g. ocloc")
            .fileValue()
            .in("Offline compiler (no OpenCL device; docs/offline_compiler.md):")
            .helps("build each selected case's module with Intel's offline compiler (a path, or a\n"
                   "name on PATH such as ocloc) instead of running it: Pass = built, Fail = a\n"
                   "core module rejected (phase build), NotSupported = the target lacks a\n"
                   "requirement or rejected a device-specific module; --timeout bounds each build;\n"
                   "--jobs=N compiles N modules at a time (default: the usable cores)")
            .toRerun(1),
        textOption("target", "NAME|FILE.json", "pvc", &Options::target,
                   "a target name (e.g. dg2-g10) or a target description FILE.json")
            .helps("the target description: NAME from the shipped targets directory (pvc,\n"
                   "dg2-g10, bmg, lnl-m, ptl, mtl), or a description file")
            .toRerun(2),

        // Build only
        flagOption("build-only", &Options::build_only)
            .in("Build only (any OpenCL driver; docs/user_guide.md, \"Build-only runs\"):")
            .helps("judge every selected case up to its kernel launch and never launch it:\n"
                   "requirements from the device's queries, the module built, its kernels\n"
                   "created, the kernel queries the case relies on (argument count, compiled\n"
                   "sub-group size, work-group size for its local size); Pass = built and\n"
                   "queries right, Fail = a core module rejected or a query wrong; api.* run")
            .toWorker(13)
            .toRerun(13),
        flagOption("device-info", &Options::device_info)
            .helps("print what the suite reads of the device (extensions and versions, IL and\n"
                   "SPIR-V queries, sub-group sizes, fp16/fp64, images, limits) as JSON and exit"),

        // Execution
        valueOption("seed", "N", "42", setSeed,
                    // Always: a worker or a rerun must mix in the run's seed, whichever way it was chosen.
                    [](const Options& o) { return some(true, std::to_string(o.seed)); })
            .in("Execution:")
            .helps("run seed mixed into every per-case seed (default 0)")
            .toWorker(5)
            .toRerun(12),
        valueOption("timeout", "SECONDS", "2.5", setTimeout, echoTimeout)
            .helps("per-case time limit, 0 < SECONDS <= 10000000 (default: none, or 300\n"
                   "with --isolate)"),
        flagOption("isolate", &Options::isolate)
            .helps("run cases in a child process; a crash or timeout is recorded and the\n"
                   "run continues; without --timeout each case has 300 seconds"),
        valueOption("jobs", "N", "4", setJobs,
                    [](const Options& o) { return some(o.jobs > 0, std::to_string(o.jobs)); })
            .helps("run the cases in N worker processes, 1 <= N <= 256 (default: the cores\n"
                   "this process may use); N > 1 isolates like --isolate (a crash or timeout\n"
                   "costs its case, without --timeout each case has 300 seconds), a selection\n"
                   "of one module too (in one worker); the reports are those of --jobs=1"),
        valueOption("retry", "K", "2", setRetry,
                    [](const Options& o) { return some(o.retry > 0, std::to_string(o.retry)); })
            .helps("run a case whose result is Fail, Crash or Timeout again, up to K times\n"
                   "(0 <= K <= 10, default 0; a Fail in the same process, a Crash or Timeout\n"
                   "in a new worker); one that then passes is reported Flake with every\n"
                   "attempt's message; waived cases are not retried")
            .toWorker(10),
        flagOption("flake-fails", &Options::flake_fails)
            .helps("exit 1 when a case is Flake (default: listed in the summary, exit 0)"),
        textOption("assets-dir", "DIR", "build/assets", &Options::assets_dir, "a file or directory name")
            .fileValue()
            .helps("manifest.json and modules/ (default <program dir>/../assets, or\n"
                   "installed: ../share/spirv_intel_cts/assets)")
            .toWorker(6)
            .toRerun(8),
        textOption("dump-dir", "DIR", "dump", &Options::dump_dir, "a file or directory name")
            .fileValue()
            .helps("cases write their buffers there (CASE.LABEL.bin); a case that does not\n"
                   "pass also its outcome (CASE.txt) and module (CASE.spv)")
            .toWorker(12),

        // Reports
        textOption("json", "FILE", "results.json", &Options::json_file, "a file or directory name")
            .alone(bareJson)
            .echoes(echoJson)  // not the field: --list --json, and not a file named by the environment
            .fileValue()
            .in("Reports (each on a file of its own: a regular file or a character device such as /dev/null, "
                "never a FIFO\nor a file the run reads; one that cannot be written fails the run; file "
                "options need the = form):")
            .helps("JSON results (also CL_CONFORMANCE_RESULTS_FILENAME)"),
        textOption("junit", "FILE", "results.xml", &Options::junit_file, "a file or directory name")
            .fileValue()
            .helps("JUnit XML"),
        textOption("log", "FILE", "run.log", &Options::log_file, "a file or directory name")
            .fileValue()
            .helps("crash-safe line log, flushed as each case starts and ends"),
        flagOption("fail-if-all-skipped", &Options::fail_if_all_skipped)
            .helps("exit 1 when no case passed (a shard left empty is fine; also\n"
                   "CTS_FAIL_IF_ALL_SKIPPED=1, true, yes or on), or when waiver \"skip\"\n"
                   "entries keep more than 10% of the selection from running"),
        valueOption("max-skipped-share", "P", "5", setMaxSkippedShare,
                    [](const Options& o) {
                        return some(o.max_skipped_share >= 0, std::to_string(o.max_skipped_share));
                    })
            .helps("exit 1 when waiver \"skip\" entries keep more than P percent of the\n"
                   "selection from running (0 <= P <= 100; default 10 with\n"
                   "--fail-if-all-skipped, else no limit)"),

        // Known failures
        listOption("waiver-file", "FILE", "waivers.json", &Options::waiver_files, "a file name")
            .fileValue()
            .adds()
            .in("Known failures (format: docs/user_guide.md, \"Known failures: waivers\"):")
            .helps("JSON waivers (repeatable): a Fail, Crash or Timeout of a covered case on a\n"
                   "matching device is reported Waived and does not fail the run; each\n"
                   "entry names its devices (\"*\": every device, with a warning)")
            .toWorker(11),
        flagOption("fail-on-stale-waivers", &Options::fail_on_stale_waivers)
            .helps("exit 1 when a waived case passed or a waiver matches no selected case"),
        flagOption("run-skipped", &Options::run_skipped)
            .helps("also run the cases of waiver entries marked \"skip\" (known crashes and\n"
                   "hangs, recorded Waived without running otherwise): the periodic run\n"
                   "that finds stale skips, with --fail-on-stale-waivers"),

        // Other
        flagOption("help", &Options::help)
            .in("Other:")
            .labelled("-h, --help")
            .helps("print this help and exit"),
        flagOption("worker", &Options::worker)
            .forWorkersOnly()  // a child of --isolate or --jobs: reads case names on stdin
            .toWorker(1),
    };
}

}  // namespace

const std::vector<OptionRow>& optionTable() {
    static const std::vector<OptionRow> table = makeTable();
    return table;
}

const OptionRow* findOption(const std::string& name) {
    for (const auto& row : optionTable())
        if (row.name && name == row.name) return &row;
    return nullptr;
}

std::string setOption(OptionParse& p, const OptionRow& row, const std::string& value) {
    p.name = row.name;
    p.value = value;
    auto [it, first] = p.given.emplace(p.name, value);
    // A single-valued option given twice with different values (--tier=core --tier=all) would silently keep
    // one of them; the repeatable ones add up.
    if (!first && !row.repeatable && it->second != value)
        return "--" + p.name + " given twice (--" + p.name + "=" + printable(it->second) + " and --" +
               p.name + "=" + printable(value) + "): give it once";
    if (row.set) return row.set(p, value);
    if (row.flag) {
        p.out.*row.flag = true;
        return "";
    }
    if (value.empty()) return p.expected(row.want);
    if (row.text) p.out.*row.text = value;
    if (row.list) (p.out.*row.list).push_back(value);
    return "";
}

namespace {

void appendEcho(const OptionRow& row, const Options& o, std::vector<OptionArg>& out) {
    std::vector<OptionValue> values;
    if (row.echo)
        values = row.echo(o);
    else if (row.flag && o.*row.flag)
        values = {std::nullopt};
    else if (row.text)
        values = some(!(o.*row.text).empty(), o.*row.text);
    else if (row.list)
        values.assign((o.*row.list).begin(), (o.*row.list).end());
    for (auto& v : values) out.push_back({std::string("--") + row.name, v});
}

}  // namespace

std::vector<OptionArg> echoOptions(const Options& o) {
    std::vector<OptionArg> args;
    for (const auto& row : optionTable())
        if (row.name) appendEcho(row, o, args);
    return args;
}

std::vector<OptionArg> optionArgs(const Options& o, OptionUse use) {
    std::vector<const OptionRow*> rows;
    for (const auto& row : optionTable())
        if ((use == OptionUse::Worker ? row.worker : row.rerun) > 0) rows.push_back(&row);
    auto place = [use](const OptionRow* r) { return use == OptionUse::Worker ? r->worker : r->rerun; };
    std::sort(rows.begin(), rows.end(), [&](auto* a, auto* b) { return place(a) < place(b); });
    std::vector<OptionArg> args;
    for (const auto* row : rows) appendEcho(*row, o, args);
    return args;
}

std::string optionsHelp() {
    const size_t kLabelWidth = 28;  // the descriptions start in column 31
    std::string text;
    for (const auto& row : optionTable()) {
        if (row.section) text += std::string("\n") + row.section + "\n";
        if (!row.help || row.internal) continue;
        std::string label = row.label        ? row.label
                            : row.value_word ? std::string("--") + row.name + "=" + row.value_word
                                             : std::string("--") + row.name;
        label.resize(std::max(kLabelWidth, label.size() + 1), ' ');
        std::string help = row.help;
        for (size_t start = 0, end = 0; start <= help.size(); start = end + 1) {
            end = std::min(help.find('\n', start), help.size());
            text += "  " + (start == 0 ? label : std::string(kLabelWidth, ' ')) +
                    help.substr(start, end - start) + "\n";
        }
    }
    return text;
}

}  // namespace cts
