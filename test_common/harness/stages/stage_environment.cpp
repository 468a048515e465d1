// Environment: the command line, the ICD loader's environment, the offline compiler and the assets.
#include "test_common/harness/stages/runner_stages.h"

#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "test_common/harness/reports/report.h"

namespace cts {
namespace {

// The build (or install) tree root: the parent of the directory holding the executable.
std::string treeRoot() {
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return "..";
    std::string path(buf, static_cast<size_t>(n));
    for (int up = 0; up < 2; ++up) {
        size_t slash = path.rfind('/');
        if (slash == std::string::npos) return "..";
        path = path.substr(0, slash);
    }
    return path.empty() ? "/" : path;
}

}  // namespace

int usageError(const std::string& program, const std::string& what) {
    // One line, whatever bytes a file name, pattern or value brought into it.
    std::fprintf(stderr, "%s: error: %s\nRun '%s --help' for usage.\n", program.c_str(),
                 printable(what).c_str(), program.c_str());
    return 2;
}

RunState::RunState(int argc, char** argv) : program(argc > 0 ? argv[0] : "spirv_intel_cts") {}

StageResult parseCommandLine(const std::string& program, int argc, char** argv, Options& opt) {
    std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
    std::string err = parseOptions(
        args, [](const char* n) { return std::getenv(n); }, opt);
    if (!err.empty()) return usageError(program, err);
    if (opt.help) {
        std::printf("%s", usageText(program).c_str());
        return 0;
    }
    return std::nullopt;
}

StageResult prepareEnvironment(const std::string& program, const Options& opt, RunEnvironment& env) {
    // The reference device is the default: point the ICD loader at the one next to this program (build or
    // installed tree) before any CL call, unless the user already chose the vendors directory. Without one,
    // the run fails instead of falling back to whatever drivers the system has.
    DefaultPaths& defaults = env.defaults;
    defaults = findDefaultPaths(treeRoot());
    // The offline-compiler mode opens no device: its compiler, target description and compiler release are
    // found first, and a problem with any of them is one line and exit status 2.
    env.offline = !opt.offline_compiler.empty();
    const bool offline = env.offline;
    OfflineSetup& offline_setup = env.offline_setup;
    if (offline) {
        const char* search_path = std::getenv("PATH");
        std::string e =
            prepareOfflineRun(opt.offline_compiler, opt.target, defaults.targets_dir, defaults.targets_tried,
                              search_path ? search_path : "", 60, offline_setup);
        if (!e.empty()) {
            std::fprintf(stderr, "%s: %s\n", program.c_str(), printable(e).c_str());
            return 2;
        }
    }
    // Empty is unset, as for every variable the runner reads (docs/user_guide.md, "Environment variables").
    const char* user_vendors = std::getenv("OCL_ICD_VENDORS");
    env.icd_env_from_user = opt.icd_file.empty() && user_vendors && *user_vendors;
    const bool icd_env_from_user = env.icd_env_from_user;
    std::string& icd_missing = env.icd_missing;
    if (offline) {
        // No ICD is loaded in this mode: the loader's environment is left as it was.
    } else if (!opt.icd_file.empty()) {
        // --icd=FILE: exactly the library FILE names, whatever OCL_ICD_VENDORS said. ocl-icd loads an
        // OCL_ICD_VENDORS that is neither a directory nor an .icd file as the one library to use; the
        // Khronos loader loads OCL_ICD_FILENAMES and finds no vendors directory at that path. Naming the
        // library, not the .icd file, keeps the loaders from reading the file their own way (ocl-icd keeps a
        // trailing space or carriage return in the name). Workers (--isolate) are given the same --icd.
        setenv("OCL_ICD_VENDORS", opt.icd_library.c_str(), 1);
        setenv("OCL_ICD_FILENAMES", opt.icd_library.c_str(), 1);
    } else if (!opt.icd_system && !icd_env_from_user) {
        if (defaults.icd_vendors.empty())
            icd_missing = "no reference device next to this program: looked for " +
                          joinTried(defaults.icd_tried) + "; use --icd=system or set OCL_ICD_VENDORS";
        else
            setenv("OCL_ICD_VENDORS", defaults.icd_vendors.c_str(), 1);
        if (!defaults.icd_filenames.empty()) setenv("OCL_ICD_FILENAMES", defaults.icd_filenames.c_str(), 1);
    }

    std::string& assets = env.assets;
    assets = opt.assets_dir;
    std::string& assets_missing = env.assets_missing;
    // A directory the user named that holds no manifest is a typo, not a broken build: one usage error before
    // anything runs (it was read as "no case index; reading the whole manifest", ran the C++ cases and
    // exited 1). A worker is told the runner's directory, whatever it holds.
    if (!assets.empty() && !opt.worker) {
        struct stat st {};
        const std::string manifest = assets + "/manifest.json";
        if (stat(assets.c_str(), &st) != 0)
            return usageError(program, "--assets-dir=" + assets + ": " + std::strerror(errno));
        if (!S_ISDIR(st.st_mode)) return usageError(program, "--assets-dir=" + assets + ": not a directory");
        if (stat(manifest.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
            return usageError(program, "--assets-dir=" + assets +
                                           " holds no manifest.json (a directory of "
                                           "SPIR-V assets, such as <build dir>/assets)");
    }
    if (assets.empty()) {
        assets = defaults.assets_dir.empty() ? defaults.assets_tried.front() : defaults.assets_dir;
        if (defaults.assets_dir.empty())
            assets_missing = "no SPIR-V assets next to this program: looked for manifest.json in " +
                             joinTried(defaults.assets_tried) + "; use --assets-dir=DIR";
    }
    return std::nullopt;
}

}  // namespace cts
