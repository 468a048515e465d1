#include "test_common/harness/layout.h"

#include <sys/stat.h>

#include <fstream>

namespace cts {
namespace {

bool isFile(const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool isDir(const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string firstLine(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
        line.pop_back();
    return line;
}

}  // namespace

DefaultPaths findDefaultPaths(const std::string& root) {
    const std::string base = root == "/" ? "" : root;
    const std::string build_assets = base + "/assets", build_icd = base + "/icd";
    const std::string share = base + "/share/spirv_intel_cts";
    const std::string installed_assets = share + "/assets", installed_icd = share + "/icd";
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

    p.icd_tried = {build_icd, installed_icd + "/refdev.icd"};
    if (isDir(build_icd)) {
        p.icd_vendors = build_icd;
    } else if (isFile(installed_icd + "/refdev.icd")) {
        // The install step writes the library's absolute path; an archive cannot know where it will be
        // unpacked, so there the .icd file names a library that is not (yet) at that path.
        std::string lib = firstLine(installed_icd + "/refdev.icd");
        if (!lib.empty() && lib[0] == '/' && isFile(lib)) {
            p.icd_vendors = installed_icd;
        } else if (isFile(installed_lib)) {
            p.icd_vendors = installed_lib;
            p.icd_filenames = installed_lib;
        } else {
            p.icd_tried.push_back(installed_lib);
        }
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
