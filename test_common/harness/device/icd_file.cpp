#include "test_common/harness/device/icd_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>

#include "test_common/harness/input/text.h"

namespace cts {
namespace {

// Relative paths are taken from the working directory, as dlopen (and so the loader) takes them.
std::string absolute(const std::string& path) {
    if (!path.empty() && path[0] == '/') return path;
    char cwd[PATH_MAX];
    return std::string(getcwd(cwd, sizeof cwd) ? cwd : ".") + "/" + path;
}

}  // namespace

std::string readIcdFile(const std::string& path, IcdFile& out) {
    out = IcdFile{};
    struct stat st;
    if (stat(path.c_str(), &st) != 0) return std::strerror(errno);
    if (S_ISDIR(st.st_mode))
        return "it is a directory: give one .icd file (or OCL_ICD_VENDORS=" + path + " for all of them)";
    // /dev/zero or a FIFO has no end (or no first line) to read.
    if (!S_ISREG(st.st_mode)) return "not a regular file: give an .icd file";
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::string("cannot read it: ") + std::strerror(errno);
    constexpr size_t kMaxLine = 4096;  // a path, with room to spare
    std::string head;
    for (char c; head.size() <= kMaxLine && in.get(c) && c != '\n';) head += c;
    if (head.compare(0, 4,
                     "\x7f"
                     "ELF") == 0)
        return "it is a shared library, not an .icd file: write its absolute path into an .icd file";
    if (head.size() > kMaxLine)
        return "the first line is longer than " + std::to_string(kMaxLine) + " bytes: not an .icd file";
    std::string library = trimmed(head);
    if (library.empty())
        return st.st_size == 0
                   ? "the file is empty: an .icd file names a driver library on its first line"
                   : "the first line is blank: an .icd file names a driver library on its first line";
    if (library.find('/') != std::string::npos) {
        library = absolute(library);
        if (stat(library.c_str(), &st) != 0)
            return "names " + library + ", which does not exist (" + std::strerror(errno) + ")";
        if (!S_ISREG(st.st_mode)) return "names " + library + ", which is not a file";
    }
    // The directory resolved, the name kept: the FILE.package of a linked .icd file is the one beside the
    // link.
    std::string dir = dirName(path), name = baseName(path);
    char resolved[PATH_MAX];
    std::string real_dir = realpath(dir.c_str(), resolved) ? resolved : dir;
    out.path = absolute((real_dir == "/" ? "" : real_dir) + "/" + name);
    out.library = library;
    return "";
}

std::string packageFileFor(const std::string& icd_path) {
    const std::string suffix = ".icd";
    if (icd_path.size() > suffix.size() &&
        icd_path.compare(icd_path.size() - suffix.size(), suffix.size(), suffix) == 0)
        return icd_path.substr(0, icd_path.size() - suffix.size()) + ".package";
    return icd_path + ".package";
}

}  // namespace cts
