#include "test_common/harness/model/layout.h"

#include <sys/stat.h>

#include <fstream>

#include "test_common/harness/input/path_guard.h"

namespace cts {
namespace {

bool isFile(const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool sameFile(const std::string& a, const std::string& b) {
    struct stat sa, sb;
    return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

bool isDir(const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string firstLine(const std::string& path) {
    std::string text;  // through the path guard: an icd/refdev.icd that is a FIFO or /dev/zero reads as ""
    if (!readTextFile(path, &text, kMaxSmallFileBytes).empty()) return "";
    std::string line = text.substr(0, text.find('\n'));
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
        line.pop_back();
    return line;
}

}  // namespace

DefaultPaths findDefaultPaths(const std::string& root) {
    const std::string base = root == "/" ? "" : root;
    const std::string build_assets = base + "/assets", build_icd = base + "/icd";
    const std::string share = base + "/share/spirv_intel_cts";
    const std::string installed_assets = share + "/assets";
    const std::string installed_lib = base + "/lib/spirv_intel_cts/libRefDevOpenCL.so";

    DefaultPaths p;
    p.assets_tried = {build_assets, installed_assets};
    for (const auto& dir : p.assets_tried) {
        if (isFile(dir + "/manifest.json")) {
            p.assets_dir = dir;
            break;
        }
    }

    p.targets_tried = {base + "/targets", share + "/targets"};
    for (const auto& dir : p.targets_tried) {
        if (isDir(dir)) {
            p.targets_dir = dir;
            break;
        }
    }

    // The library of this tree, never one another file names: a copied build tree's .icd file and an .icd
    // file of an older install name the original tree's library, which may still be there.
    const std::string build_lib = base + "/lib/libRefDevOpenCL.so";
    p.icd_tried = {build_icd, installed_lib};
    if (isDir(build_icd)) {
        if (isFile(build_lib) && !sameFile(firstLine(build_icd + "/refdev.icd"), build_lib)) {
            p.icd_vendors = build_lib;
            p.icd_filenames = build_lib;
        } else {
            p.icd_vendors = build_icd;
        }
    } else if (isFile(installed_lib)) {
        // An installed tree's .icd file names the library without a path (it cannot know where the tree
        // will be): ocl-icd loads a library named in OCL_ICD_VENDORS directly, the Khronos loader the one in
        // OCL_ICD_FILENAMES.
        p.icd_vendors = installed_lib;
        p.icd_filenames = installed_lib;
    }
    return p;
}

std::string joinTried(const std::vector<std::string>& tried) {
    std::string text;
    for (size_t i = 0; i < tried.size(); ++i)
        text += (i == 0 ? "" : i + 1 == tried.size() ? " or " : ", ") + tried[i];
    return text;
}

}  // namespace cts
