#include "test_common/harness/device/registered_drivers.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <climits>
#include <fstream>

#include "test_common/harness/input/path_guard.h"
#include "test_common/harness/input/text.h"

namespace cts {
namespace {

std::string resolved(const std::string& path) {
    char buf[PATH_MAX];
    return realpath(path.c_str(), buf) ? std::string(buf) : path;
}

bool isDir(const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::string vendorsDirectory(const char* ocl_icd_vendors) {
    if (!ocl_icd_vendors || !*ocl_icd_vendors) return "/etc/OpenCL/vendors";
    return isDir(ocl_icd_vendors) ? ocl_icd_vendors : "";
}

std::vector<RegisteredDriver> registeredDrivers(const std::string& dir) {
    std::vector<RegisteredDriver> out;
    DIR* d = dir.empty() ? nullptr : opendir(dir.c_str());
    if (!d) return out;
    while (dirent* e = readdir(d)) {
        std::string name = e->d_name;
        if (name.size() <= 4 || name.compare(name.size() - 4, 4, ".icd") != 0) continue;
        RegisteredDriver r;
        r.icd_file = dir + (dir.back() == '/' ? "" : "/") + name;
        // Through the path guard: a FIFO or /dev/zero named *.icd in the vendors directory is skipped, not
        // waited on or read without end.
        std::string text;
        if (!readTextFile(r.icd_file, &text, kMaxSmallFileBytes).empty()) continue;
        r.library = text.substr(0, text.find('\n'));
        size_t end = r.library.find_last_not_of(" \t\r\n");
        r.library = end == std::string::npos ? "" : r.library.substr(0, end + 1);
        if (!r.library.empty()) out.push_back(r);
    }
    closedir(d);
    std::sort(out.begin(), out.end(),
              [](const RegisteredDriver& a, const RegisteredDriver& b) { return a.icd_file < b.icd_file; });
    return out;
}

std::vector<RegisteredDriver> driversWithoutPlatform(const std::vector<RegisteredDriver>& drivers,
                                                     const std::vector<std::string>& platform_libraries) {
    std::vector<RegisteredDriver> out;
    for (const auto& d : drivers) {
        bool bare = d.library.find('/') == std::string::npos;
        bool found =
            std::any_of(platform_libraries.begin(), platform_libraries.end(), [&](const std::string& p) {
                return bare ? baseName(p) == d.library || baseName(resolved(p)) == d.library
                            : resolved(p) == resolved(d.library);
            });
        if (!found) out.push_back(d);
    }
    return out;
}

std::string noPlatformText(const RegisteredDriver& driver) {
    std::string head = driver.icd_file + " (" + driver.library + ")";
    // The loader has tried it already; a second dlopen only says why it gave nothing.
    void* handle = dlopen(driver.library.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (!handle) {
        const char* err = dlerror();
        return head + " cannot be loaded: " + (err ? err : "unknown dlopen error");
    }
    dlclose(handle);
    return head + " loads but reports no platform (a GPU driver reports none without a device it can use)";
}

}  // namespace cts
