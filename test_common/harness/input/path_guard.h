// One guard for every file the runner reads or writes (docs/user_guide.md, "Files the runner reads and
// writes"): inputs are regular files read with a size cap, outputs never replace an input.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cts {

// Caps of the files read whole. A report of every case with mismatches is about 50 MB; the manifest of the
// whole suite about 27 MB.
constexpr size_t kMaxInputFileBytes = size_t{256} << 20;
constexpr size_t kMaxSmallFileBytes = size_t{1} << 20;  // one-line files: manifest.sha256, .icd, .package

// Reads the whole file into *text. Returns "" or "cannot read PATH: why"; a directory is refused (it opens
// and reads as empty, which must not pass for an empty list or report), so is anything but a regular file
// (/dev/zero never ends, a FIFO blocks) and a file larger than max_bytes. Every file the runner reads whole
// goes through here.
std::string readTextFile(const std::string& path, std::string* text, size_t max_bytes = kMaxInputFileBytes);

// Where a chain of symbolic links starting at `path` ends, the last link's target also when it does not
// exist yet (a dangling link: writing through it creates that file); `path` itself when it is no link. A
// relative target is taken from its link's directory. At most 40 links are followed (a loop ends there).
std::string followLinks(const std::string& path);

// A file the run reads or writes, with the option (or role) that names it, for messages.
struct RunFile {
    std::string option;  // "--json", "--waiver-file", "the manifest (--assets-dir)", ...
    std::string path;
};

// "" unless an output would replace an input: the same existing file (device and inode, so symbolic and hard
// links too), or an input under one of `input_dirs` (a directory the run reads every file of, such as the
// assets' modules/). Else one line naming both.
std::string outputOntoInput(const std::vector<RunFile>& outputs, const std::vector<RunFile>& inputs,
                            const std::vector<RunFile>& input_dirs = {});

// --dump-dir=DIR writes DIR/CASE.* for the selected cases: "" unless one of `files` (an input or a report)
// is such a file, else one line naming it.
std::string fileNamedLikeADump(const std::string& dump_dir, const std::vector<RunFile>& files,
                               const std::vector<std::string>& case_names);

}  // namespace cts
