#include "test_common/harness/input/path_guard.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "test_common/harness/input/text.h"

namespace cts {

std::string readTextFile(const std::string& path, std::string* text, size_t max_bytes) {
    struct stat st;
    if (stat(path.c_str(), &st) != 0) return "cannot read " + path + ": " + std::strerror(errno);
    if (S_ISDIR(st.st_mode)) return "cannot read " + path + ": is a directory";
    // /dev/zero reads until memory runs out, a FIFO blocks until a writer comes.
    if (!S_ISREG(st.st_mode))
        return "cannot read " + path + ": not a regular file (" +
               (S_ISFIFO(st.st_mode)  ? "a FIFO"
                : S_ISCHR(st.st_mode) ? "a character device"
                                      : "a device") +
               ")";
    if (static_cast<unsigned long long>(st.st_size) > max_bytes)
        return "cannot read " + path + ": " + std::to_string(st.st_size) + " bytes, more than the " +
               std::to_string(max_bytes) + " an input file may have";
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot read " + path + ": " + std::strerror(errno);
    // The file may grow while it is read: read at most one byte past the limit.
    std::string data;
    data.reserve(static_cast<size_t>(st.st_size));
    char chunk[65536];
    while (data.size() <= max_bytes && in.read(chunk, sizeof chunk).gcount() > 0)
        data.append(chunk, static_cast<size_t>(in.gcount()));
    if (in.bad()) return "cannot read " + path + ": " + std::strerror(errno ? errno : EIO);
    if (data.size() > max_bytes)
        return "cannot read " + path + ": more than the " + std::to_string(max_bytes) +
               " bytes an input file may have";
    *text = std::move(data);
    return "";
}

std::string followLinks(const std::string& path) {
    std::string at = path;
    for (int hops = 0; hops < 40; ++hops) {
        struct stat st;
        if (lstat(at.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) break;
        std::vector<char> target(static_cast<size_t>(st.st_size > 0 ? st.st_size : PATH_MAX) + 1);
        ssize_t n = readlink(at.c_str(), target.data(), target.size());
        if (n < 0 || static_cast<size_t>(n) >= target.size()) break;
        std::string next(target.data(), static_cast<size_t>(n));
        size_t slash = at.rfind('/');
        if (!next.empty() && next[0] != '/' && slash != std::string::npos)
            next = at.substr(0, slash + 1) + next;
        at = next;
    }
    return at;
}

namespace {

std::string resolvedOrEmpty(const std::string& path) {
    char resolved[PATH_MAX];
    return realpath(path.c_str(), resolved) ? std::string(resolved) : std::string();
}

// The directory and name of a path, the directory resolved ("" when it does not exist).
std::pair<std::string, std::string> resolvedDirAndName(const std::string& path) {
    return {resolvedOrEmpty(dirName(path)), baseName(path)};
}

}  // namespace

std::string outputOntoInput(const std::vector<RunFile>& outputs, const std::vector<RunFile>& inputs,
                            const std::vector<RunFile>& input_dirs) {
    for (const auto& out : outputs) {
        struct stat so;
        if (out.path.empty() || stat(out.path.c_str(), &so) != 0 || !S_ISREG(so.st_mode)) continue;
        for (const auto& in : inputs) {
            struct stat si;
            if (!in.path.empty() && stat(in.path.c_str(), &si) == 0 && si.st_dev == so.st_dev &&
                si.st_ino == so.st_ino)
                return out.option + "=" + out.path + " would replace the file " + in.option + "=" + in.path +
                       " reads: write the report to another file";
        }
        const std::string resolved = resolvedOrEmpty(out.path);
        for (const auto& dir : input_dirs) {
            const std::string d = resolvedOrEmpty(dir.path);
            if (!d.empty() && resolved.size() > d.size() && resolved.compare(0, d.size(), d) == 0 &&
                resolved[d.size()] == '/')
                return out.option + "=" + out.path + " would replace a file of " + dir.option + " " +
                       dir.path + ", which the run reads: write the report to another file";
        }
    }
    return "";
}

std::string fileNamedLikeADump(const std::string& dump_dir, const std::vector<RunFile>& files,
                               const std::vector<std::string>& case_names) {
    const std::string dump = dump_dir.empty() ? "" : resolvedOrEmpty(dump_dir);
    if (dump.empty()) return "";
    std::vector<std::string> sorted(case_names);
    std::sort(sorted.begin(), sorted.end());
    for (const auto& f : files) {
        if (f.path.empty()) continue;
        auto [dir, name] = resolvedDirAndName(f.path);
        if (dir != dump) continue;
        // A case named by a prefix of the file's name up to a dot: at most one lookup per dot.
        for (size_t dot = name.find('.'); dot != std::string::npos; dot = name.find('.', dot + 1)) {
            const std::string c = name.substr(0, dot);
            if (std::binary_search(sorted.begin(), sorted.end(), c))
                return "--dump-dir=" + dump_dir + " would replace the file " + f.option + "=" + f.path +
                       " (case " + c + " dumps to " + c + ".*): dump to another directory";
        }
    }
    return "";
}

}  // namespace cts
