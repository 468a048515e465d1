#include "test_common/harness/device/runtime_package.h"

#include <CL/cl_icd.h>
#include <dlfcn.h>
#include <glob.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <climits>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "test_common/harness/device/icd_file.h"
#include "test_common/harness/input/path_guard.h"
#include "test_common/harness/input/text.h"

namespace cts {
namespace {

std::string firstLine(const std::string& path) {
    std::string text;
    if (!readTextFile(path, &text, kMaxSmallFileBytes).empty()) return "";
    return trimmed(text.substr(0, text.find('\n')));
}

bool isFile(const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The file itself, symbolic links and "..", resolved; "" when it does not exist.
std::string resolved(const std::string& path) {
    char buf[PATH_MAX];
    return realpath(path.c_str(), buf) ? buf : "";
}

// The path field of a RECORD line (CSV: "path,hash,size"; a path holding a comma is quoted).
std::string recordPath(const std::string& line) {
    if (line.empty() || line[0] != '"') return line.substr(0, line.find(','));
    std::string out;
    for (size_t i = 1; i < line.size(); ++i) {
        if (line[i] != '"') {
            out += line[i];
        } else if (i + 1 < line.size() && line[i + 1] == '"') {
            out += '"';
            ++i;
        } else {
            break;
        }
    }
    return out;
}

// "Name Version" from a dist-info directory's METADATA headers; "" when either is missing.
std::string distributionName(const std::string& dist_info) {
    std::string text;
    if (!readTextFile(dist_info + "/METADATA", &text).empty()) return "";
    std::istringstream in(text);
    std::string line, name, version;
    while (std::getline(in, line) && !trimmed(line).empty()) {
        if (line.rfind("Name:", 0) == 0) name = trimmed(line.substr(5));
        if (line.rfind("Version:", 0) == 0) version = trimmed(line.substr(8));
    }
    return name.empty() || version.empty() ? "" : name + " " + version;
}

std::vector<std::string> globPaths(const std::string& pattern) {
    std::vector<std::string> out;
    glob_t g{};
    if (glob(pattern.c_str(), 0, nullptr, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; ++i) out.push_back(g.gl_pathv[i]);
    globfree(&g);
    return out;
}

// The distribution of <libdir>/python3*/site-packages whose RECORD lists `target` (a resolved path) or a
// link to it named `name`. Only entries with one of the two names are resolved: a prefix such as
// /usr/local may hold many distributions.
RuntimePackage fromRecords(const std::string& libdir, const std::string& target, const std::string& name) {
    for (const auto& record : globPaths(libdir + "/python3*/site-packages/*.dist-info/RECORD")) {
        std::string dist_info = dirName(record), site_packages = dirName(dist_info);
        std::string text;
        if (!readTextFile(record, &text).empty()) continue;
        std::istringstream in(text);
        std::string line;
        while (std::getline(in, line)) {
            std::string entry = recordPath(trimmed(line));
            if (entry.empty() || (baseName(entry) != name && baseName(entry) != baseName(target))) continue;
            if (entry[0] != '/') entry = site_packages + "/" + entry;
            if (resolved(entry) != target) continue;
            std::string package = distributionName(dist_info);
            if (package.empty()) continue;
            std::string installer = firstLine(dist_info + "/INSTALLER");
            return {package, (installer.empty() ? "Python package" : installer) + ", " + dirName(libdir)};
        }
    }
    return {};
}

}  // namespace

std::string driverLibraryOf(cl_platform_id platform) {
    if (!platform) return "";
    // Every ICD object starts with its driver's dispatch table (cl_khr_icd), whose entries are the driver's
    // own functions.
    const cl_icd_dispatch* table = *reinterpret_cast<const cl_icd_dispatch* const*>(platform);
    Dl_info driver{}, loader{};
    if (!table || !table->clGetPlatformInfo ||
        !dladdr(reinterpret_cast<void*>(table->clGetPlatformInfo), &driver) || !driver.dli_fname)
        return "";
    void* loader_entry = dlsym(RTLD_DEFAULT, "clGetPlatformInfo");
    if (loader_entry && dladdr(loader_entry, &loader) && loader.dli_fname &&
        std::strcmp(loader.dli_fname, driver.dli_fname) == 0)
        return "";
    return driver.dli_fname;
}

RuntimePackage findRuntimePackage(const std::string& library, const std::string& icd_file) {
    if (!icd_file.empty()) {
        std::string package_file = packageFileFor(icd_file);
        if (isFile(package_file)) {
            std::string name = firstLine(package_file);
            if (!name.empty()) return {name, "from " + package_file};
        }
    }
    if (library.empty()) return {"", "the driver library is not known"};
    std::string target = resolved(library);
    if (target.empty()) return {"", "the library file was not found"};
    // The directory as loaded and as resolved: a venv's lib64 is a link to its lib.
    for (const auto& libdir : {dirName(library), dirName(target)}) {
        RuntimePackage p = fromRecords(libdir, target, baseName(library));
        if (!p.name.empty()) return p;
    }
    return {"", "the library belongs to no Python package"};
}

}  // namespace cts
