// Command line and environment of the runner. Parsing is a function of its arguments (and, to tell whether
// two report paths name one file, of the file system) so every usage error (exit 2) can be unit-tested.
// Each option is one row of option_table.cpp: its spelling, grammar, field, help and where it is passed on.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "test_common/harness/input/env_lookup.h"
#include "test_common/harness/selection/selection.h"

namespace cts {

struct Options {
    bool help = false;
    bool list = false;
    bool list_json = false;  // --list --json: the selected cases with all their manifest fields, as JSON
    std::vector<Pattern> positive, negative;     // positional patterns, --filter
    std::vector<std::string> patterns, filters;  // as given: positional patterns, each --filter value
    std::vector<std::string> caselist_files, exclude_files;
    // Device choice: -1 / "" = not given (defaults: platform 0, device 0, type "default").
    int platform = -1, device = -1;
    std::string device_type;    // gpu, cpu, accelerator, default, all
    std::string platform_name;  // --platform-name: first platform whose name contains it (any case)
    bool icd_system = false;    // --icd=system: leave OCL_ICD_VENDORS alone
    // --icd=FILE.icd: exactly the driver library the file names (readIcdFile checked both); "" = not given.
    std::string icd_file, icd_library;
    unsigned shard_index = 0, shard_count = 1;
    uint64_t seed = 0;
    std::string json_file, junit_file, log_file, dump_dir, assets_dir;
    bool json_from_env = false;       // json_file came from CL_CONFORMANCE_RESULTS_FILENAME (for messages)
    double timeout_seconds = 0;       // 0 = none
    bool timeout_is_default = false;  // --isolate without --timeout: kIsolateTimeoutSeconds
    unsigned retry = 0;        // --retry=K: a Fail, Crash or Timeout runs again up to K times (retry.h)
    bool flake_fails = false;  // --flake-fails: a Flake fails the run
    unsigned jobs = 0;         // --jobs=N worker processes; 0 = not given: the usable cores (scheduler.h)
    bool isolate = false, quick = false, extended = false, fail_if_all_skipped = false;
    std::vector<std::string> tags;          // --tag=TAG[,TAG...] (repeatable): cases with any of them
    bool list_tags = false;                 // --list-tags
    bool huge = false;                      // --huge: also run cases tagged huge (buffers of several GiB)
    bool core_only = false;                 // --tier=core: only tier core cases (default --tier=all)
    bool worker = false;                    // internal: a child of --isolate, reads case names on stdin
    std::vector<std::string> waiver_files;  // --waiver-file (repeatable)
    bool fail_on_stale_waivers = false;
    bool run_skipped = false;  // --run-skipped: run the cases of "skip" waiver entries too
    // --max-skipped-share=P: the run fails when "skip" waiver entries keep more than P percent of the
    // selection from running; -1 = not given (then kDefaultMaxSkippedShare with --fail-if-all-skipped).
    int max_skipped_share = -1;
    std::string rerun_failed;  // --rerun-failed=REPORT.json: the non-passing and not-run cases of REPORT
    bool seed_given = false;   // --seed was given (else --rerun-failed takes the report's seed)
    // --offline-compiler=PROGRAM --target=NAME: build every selected case's module with Intel's offline
    // compiler for the target instead of running it (no OpenCL device); "" = not given.
    std::string offline_compiler, target;
    // --build-only: every selected case is judged up to its kernel launch and never launched (build_only.h):
    // requirements, the module's build, its kernels and the kernel queries the case relies on.
    bool build_only = false;
    // --device-info: print what the suite reads of the device (its probe, as JSON) and exit.
    bool device_info = false;
};

// The per-case limit of --isolate without --timeout: a hang is then recorded, not waited on forever. The
// slowest case on the reference device takes 0.7 s, a huge one 15 ms (docs/user_guide.md, "Qualifying a
// driver"); 300 s leaves room for slow compilers and sanitizer builds, as scripts/setup/run_intel_cpu.sh
// does.
constexpr double kIsolateTimeoutSeconds = 300;
constexpr unsigned kMaxRetries = 10;  // --retry=K
// The share of the selection (percent) "skip" waiver entries may keep from running under
// --fail-if-all-skipped without --max-skipped-share: a few known crashes and hangs, not a group.
constexpr int kDefaultMaxSkippedShare = 10;
// The share in effect (percent), or -1 when no limit applies.
int maxSkippedShare(const Options& o);

// Parses argv[1..] (args excludes argv[0]) and the CTS environment variables; options win over the
// environment. Returns "" on success, else one line describing the usage error. Usage errors include a file
// or directory option without '=' (`--json api`), a --filter holding no pattern, and two of --json (or
// CL_CONFORMANCE_RESULTS_FILENAME), --junit and --log naming one regular file, however spelled, an --icd
// file that is missing, empty or names a library that does not exist (readIcdFile), a report path that
// exists and is neither a regular file nor a character device (a FIFO), a report on a file the run reads
// (--rerun-failed, --waiver-file, --caselist-file, --exclude-file; links included), --platform-name
// with --platform, and --offline-compiler without --target (or the other way round) or with an option that
// chooses or needs a device.
std::string parseOptions(const std::vector<std::string>& args, const EnvLookup& env, Options& out);

// The checks that need the assets directory and the selected cases (path_guard.h): "" unless a report would
// replace a file of the assets (manifest.json, manifest.index, manifest.sha256, modules/), or --dump-dir
// (which writes <DIR>/<case>.*) would replace an input file or a report, else one line saying which.
std::string checkRunFiles(const Options& options, const std::string& assets_dir,
                          const std::vector<std::string>& case_names);

std::string usageText(const std::string& program);

// The grammar of a boolean environment variable: 1, true, yes, on / 0, false, no, off, in any case.
bool parseBoolWord(const std::string& text, bool& out);

}  // namespace cts
