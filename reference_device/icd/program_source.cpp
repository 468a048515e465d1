// OpenCL C source programs: compiled to SPIR-V by clang-15 (-cc1, spir64, the default OpenCL header) and
// llvm-spirv-15, then built like IL. The tools are found on PATH, or named by REFDEV_CLANG and
// REFDEV_LLVM_SPIRV; without them a build fails with the missing tool named in the log (the device reports
// CL_DEVICE_COMPILER_AVAILABLE as a FULL_PROFILE device must, see docs/reference_device.md).
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "reference_device/icd/program_internal.h"

extern char** environ;

namespace refdev::icd {
namespace {

namespace fs = std::filesystem;

// The tool's path: the variable's value when set, else `name` found in a PATH directory; "" when absent.
std::string findTool(const char* variable, const char* name) {
    if (const char* v = std::getenv(variable); v && *v) return access(v, X_OK) == 0 ? v : "";
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
        if (access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return "";
}

// Runs argv with stdout and stderr into `output_file`; the exit status, or -1 when it could not start.
int run(const std::vector<std::string>& argv, const std::string& output_file) {
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, output_file.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid = 0;
    int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return -1;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// opencl_c_prelude.h: OpenCL C's values for out-of-range work-item dimensions, which llvm-spirv-15 leaves
// undefined.
const char* const kPrelude =
#include "opencl_c_prelude.inc"
    ;

std::string readAll(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// What clang-15 would define for a SPIR target but the device does not report (device_info.cpp's
// CL_DEVICE_EXTENSIONS and CL_DEVICE_OPENCL_C_FEATURES), so `#ifdef` in a kernel sees what the device says.
std::vector<std::string> unreportedFeatures(const Profile& profile) {
    std::vector<std::string> off = {"cl_khr_3d_image_writes",
                                    "__opencl_c_3d_image_writes",
                                    "__opencl_c_pipes",
                                    "__opencl_c_device_enqueue",
                                    "__opencl_c_program_scope_global_variables",
                                    "__opencl_c_atomic_order_seq_cst",
                                    "__opencl_c_atomic_scope_device",
                                    "__opencl_c_atomic_scope_all_devices",
                                    "__opencl_c_work_group_collective_functions"};
    if (!profile.fp64) off.insert(off.end(), {"cl_khr_fp64", "__opencl_c_fp64"});
    if (!profile.images) off.insert(off.end(), {"__opencl_c_images", "__opencl_c_read_write_images"});
    return off;
}

// clBuildProgram / clCompileProgram options -> clang -cc1 arguments; false for an option the device does
// not know.
bool clangArguments(const std::string& options, std::vector<std::string>* args) {
    static const char* const kPassed[] = {"-w",
                                          "-Werror",
                                          "-cl-single-precision-constant",
                                          "-cl-denorms-are-zero",
                                          "-cl-fp32-correctly-rounded-divide-sqrt",
                                          "-cl-mad-enable",
                                          "-cl-no-signed-zeros",
                                          "-cl-unsafe-math-optimizations",
                                          "-cl-finite-math-only",
                                          "-cl-fast-relaxed-math",
                                          "-cl-kernel-arg-info",
                                          "-cl-uniform-work-group-size"};
    std::istringstream in(options);
    std::string std_option = "-cl-std=CL1.2", opt_level = "-O2";
    for (std::string o; in >> o;) {
        bool passed = false;
        for (const char* p : kPassed) passed = passed || o == p;
        if (passed) {
            args->push_back(o);
        } else if (o == "-D" || o == "-I") {
            std::string value;
            if (!(in >> value)) return false;
            args->push_back(o + value);
        } else if (o.rfind("-D", 0) == 0 || o.rfind("-I", 0) == 0) {
            args->push_back(o);
        } else if (o.rfind("-cl-std=CL", 0) == 0) {
            const std::string v = o.substr(10);
            if (v != "1.0" && v != "1.1" && v != "1.2" && v != "2.0" && v != "3.0") return false;
            std_option = o;
        } else if (o == "-cl-opt-disable") {
            opt_level = "-O0";
        } else if (o != "-cl-no-subgroup-ifp") {  // accepted: no effect on this device
            return false;
        }
    }
    args->push_back(std_option);
    args->push_back(opt_level);
    return true;
}

}  // namespace

cl_int compileSource(const std::string& source, const std::string& options,
                     const std::vector<std::pair<std::string, std::string>>& headers, cl_int failure,
                     cl_int bad_options, std::vector<uint32_t>* words, std::string* log) {
    std::vector<std::string> clang_args;
    if (!clangArguments(options, &clang_args)) {
        *log = "error: options \"" + options + "\" hold one the device's OpenCL C compiler does not know\n";
        return bad_options;
    }
    const std::string clang = findTool("REFDEV_CLANG", "clang-15");
    const std::string llvm_spirv = findTool("REFDEV_LLVM_SPIRV", "llvm-spirv-15");
    if (clang.empty() || llvm_spirv.empty()) {
        *log = std::string("error: OpenCL C source needs ") + (clang.empty() ? "clang-15" : "llvm-spirv-15") +
               ", which is not installed (apt-get install clang-15 llvm-spirv-15, or set " +
               (clang.empty() ? "REFDEV_CLANG" : "REFDEV_LLVM_SPIRV") + "); SPIR-V programs " +
               "(clCreateProgramWithIL) build without it\n";
        return failure;
    }
    char dir_template[] = "/tmp/refdev_cl_XXXXXX";
    if (!mkdtemp(dir_template)) {
        *log = "error: could not create a temporary directory for the OpenCL C compiler\n";
        return failure;
    }
    const fs::path dir = dir_template;
    std::error_code ec;
    auto write = [&](const fs::path& file, const std::string& text) {
        fs::create_directories(file.parent_path(), ec);
        std::ofstream(file, std::ios::binary) << text;
    };
    cl_int result = failure;
    bool headers_ok = true;
    for (const auto& h : headers) {
        const fs::path name = fs::path(h.first).lexically_normal();
        if (name.empty() || name.is_absolute() || *name.begin() == "..") {
            *log = "error: header include name \"" + h.first + "\" leaves the include directory\n";
            headers_ok = false;
            break;
        }
        write(dir / name, h.second);
    }
    if (headers_ok) {
        write(dir / "program.cl", source);
        write(dir / "refdev_opencl_c_prelude.h", kPrelude);
        const std::string out = (dir / "messages.txt").string();
        std::vector<std::string> cc = {clang, "-cc1", "-triple", "spir64-unknown-unknown", "-emit-llvm-bc",
                                       "-finclude-default-header",
                                       // llvm-spirv-15 needs typed pointers (it asserts on opaque ones).
                                       "-no-opaque-pointers", "-include",
                                       (dir / "refdev_opencl_c_prelude.h").string(), "-I", dir.string()};
        cc.insert(cc.end(), clang_args.begin(), clang_args.end());
        const std::vector<std::string> off = unreportedFeatures(*thePlatform()->profile);
        std::string ext = "-cl-ext=";
        for (const std::string& f : off) ext += (ext.size() > 8 ? ",-" : "-") + f;
        cc.push_back(ext);
        // clang-15 defines __IMAGE_SUPPORT__ for every SPIR target, whatever the features say.
        // clang-15's full header declares image built-ins without their feature guard, so without images the
        // built-ins come from clang's own table instead.
        if (!thePlatform()->profile->images)
            cc.insert(cc.end(), {"-U__IMAGE_SUPPORT__", "-fdeclare-opencl-builtins"});
        cc.insert(cc.end(), {(dir / "program.cl").string(), "-o", (dir / "program.bc").string()});
        std::string exts = "--spirv-ext=-all";
        for (const std::string& e : thePlatform()->spirv_extensions)
            if (e == "SPV_INTEL_subgroups" || e == "SPV_INTEL_media_block_io") exts += ",+" + e;
        const std::vector<std::string> ls = {llvm_spirv, "--spirv-max-version=1.3",
                                             exts,       (dir / "program.bc").string(),
                                             "-o",       (dir / "program.spv").string()};
        int rc = run(cc, out);
        if (rc == 0) rc = run(ls, out);
        *log = readAll(out);
        if (rc == 0) {
            const std::string spv = readAll(dir / "program.spv");
            words->resize(spv.size() / 4);
            std::memcpy(words->data(), spv.data(), words->size() * 4);
            result = words->empty() ? failure : CL_SUCCESS;
        } else {
            *log += "error: the OpenCL C compiler failed (" +
                    (rc < 0 ? std::string("could not run it") : "exit status " + std::to_string(rc)) + ")\n";
        }
    }
    fs::remove_all(dir, ec);
    return result;
}

}  // namespace refdev::icd
