#include "test_common/harness/offline/offline_mode.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>

#include "test_common/harness/model/layout.h"

namespace cts {
namespace {

bool endsWith(const std::string& text, const std::string& tail) {
    return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

bool isFile(const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// "described: dg2-g10, pvc": the NAME.json files of the targets directory.
std::string describedTargets(const std::string& dir) {
    std::vector<std::string> names;
    if (DIR* d = opendir(dir.c_str())) {
        while (dirent* e = readdir(d)) {
            std::string name = e->d_name;
            if (endsWith(name, ".json")) names.push_back(name.substr(0, name.size() - 5));
        }
        closedir(d);
    }
    std::sort(names.begin(), names.end());
    std::string text;
    for (const auto& n : names) text += (text.empty() ? "" : ", ") + n;
    return text.empty() ? "the directory describes no target" : "described: " + text;
}

}  // namespace

std::string targetDescriptionPath(const std::string& value, const std::string& targets_dir) {
    if (value.find('/') != std::string::npos || endsWith(value, ".json")) return value;
    return targets_dir + "/" + value + ".json";
}

std::string prepareOfflineRun(const std::string& compiler_option, const std::string& target_option,
                              const std::string& targets_dir, const std::vector<std::string>& targets_tried,
                              const std::string& search_path, double query_timeout_seconds,
                              OfflineSetup& out) {
    std::string err = findOfflineCompiler(compiler_option, search_path, out.compiler.path);
    if (!err.empty()) return "--offline-compiler=" + compiler_option + ": " + err;

    bool named = target_option.find('/') == std::string::npos && !endsWith(target_option, ".json");
    if (named && targets_dir.empty())
        return "--target=" + target_option + ": no target descriptions next to this program: looked in " +
               joinTried(targets_tried) + "; give a description file (--target=FILE.json)";
    std::string path = targetDescriptionPath(target_option, targets_dir);
    if (named && !isFile(path))
        return "--target=" + target_option + ": no target description " + path + " (" +
               describedTargets(targets_dir) + ")";
    err = readTargetDescription(path, out.target);
    if (!err.empty()) return "--target=" + target_option + ": " + err;
    if (!out.target.runtime.empty())
        return "--target=" + target_option + ": " + path + " describes the device of a runtime (" +
               out.target.runtime + "), not an offline compiler's target";

    err = queryOfflineCompiler(out.compiler, query_timeout_seconds);
    if (!err.empty()) return "--offline-compiler=" + compiler_option + ": cannot tell its version: " + err;
    const CompilerRelease* release = findCompilerRelease(out.target, out.compiler.driver_version);
    if (!release) {
        std::string known;
        for (const auto& c : out.target.compilers)
            known += (known.empty() ? "" : ", ") + c.ocloc_driver_version + " (IGC " + c.igc_version + ")";
        return "--target=" + target_option + ": " + path + " describes no compiler release for ocloc " +
               out.compiler.driver_version + " (" + out.compiler.path + "); it describes " + known +
               ": add that release to \"compilers\" with what it reports";
    }
    out.release = *release;
    out.device = targetDeviceInfo(out.target, &out.release);
    return "";
}

std::string offlineCompilerText(const OfflineSetup& s) {
    std::string text = "ocloc " + s.compiler.driver_version;
    if (!s.compiler.neo_revision.empty()) text += " (NEO revision " + s.compiler.neo_revision + ")";
    return text + ", IGC " + s.release.igc_version + " (" + s.compiler.path + ")";
}

std::string offlineHeader(const OfflineSetup& s) {
    const DeviceInfo& d = s.device;
    std::string h = "Mode:      offline compiler: each module is built for the target, nothing runs\n";
    h += "Compiler:  " + offlineCompilerText(s) + "\n";
    h += "Target:    " + s.target.target + " (" + s.target.device_name + "), described in " + s.target.file +
         "\n";
    // What waiver entries match: platform, device name and driver version of this mode.
    h += "Platform:  " + d.platform_name + "\nDevice:    " + d.device_name +
         "\nDriver:    " + d.driver_version + " (the IGC release the description names for ocloc " +
         s.release.ocloc_driver_version + ")\n";
    h += "IL:        " + d.ilVersionsText() + "\n";
    std::string sizes;
    for (size_t v : d.sub_group_sizes) sizes += (sizes.empty() ? "" : ",") + std::to_string(v);
    h += "Sub-group sizes: " + sizes + "\nExtensions:";
    for (const auto& e : d.extensions)
        h += "\n  " + e.name + " " + std::to_string(e.major) + "." + std::to_string(e.minor) + "." +
             std::to_string(e.patch);
    h += "\n";
    if (s.release.has_reported_spirv_extensions) {
        h += "SPIR-V extensions reported (CL_DEVICE_SPIRV_EXTENSIONS_KHR):";
        for (const auto& e : d.spirv_extensions) h += " " + e;
        h += "\n";
    }
    h += d.image_support ? "Images:    yes, 2D up to " + std::to_string(d.image2d_max_width) + "x" +
                               std::to_string(d.image2d_max_height) + ", " +
                               std::to_string(d.image2d_rw_formats.size()) + " read-write formats\n"
                         : "Images:    no\n";
    for (const auto& n : s.release.notes) h += "Note:      " + n + "\n";
    return h;
}

}  // namespace cts
