// Intel's offline compiler (ocloc) as a child process: found on PATH or at a path, asked for its version,
// and run on one SPIR-V module (or a batch of them) for one target, in a temporary directory that is removed
// afterwards, under a time limit. Nothing here loads an OpenCL driver.
#pragma once

#include <string>
#include <vector>

namespace cts {

struct OfflineCompiler {
    std::string path;            // absolute
    std::string driver_version;  // `ocloc query OCL_DRIVER_VERSION`, e.g. "22.43.24595"
    std::string neo_revision;    // `ocloc query NEO_REVISION`; "" when the query fails
};

// `given` as --offline-compiler has it: a path (holding '/') or a name looked up in `search_path` (the
// PATH variable's value). Returns "" and the absolute path of an executable regular file, or why there is
// none ("ocloc: not found on PATH (...)").
std::string findOfflineCompiler(const std::string& given, const std::string& search_path,
                                std::string& resolved);

// Asks the compiler at out.path for its versions. ocloc answers a query by writing a file named after it in
// its working directory, so the queries run in a temporary directory. Returns "" or why it failed.
std::string queryOfflineCompiler(OfflineCompiler& out, double timeout_seconds);

struct CompileResult {
    enum class Kind {
        Built,     // exit status 0 and a device binary written (a non-empty regular file *.bin)
        Rejected,  // exit status other than 0: the compiler refused the module (log says why)
        Crashed,   // ended by a signal, or exit 0 without a binary
        TimedOut,  // still running after the time limit (killed)
        NotRun,    // could not be started (no temporary directory, fork or exec failed)
    };
    Kind kind = Kind::NotRun;
    int exit_status = 0;  // Rejected: the exit status
    int signal = 0;       // Crashed by a signal
    std::string log;      // what the compiler wrote on stdout and stderr, capped (build_log.h)
    std::string command;  // the command line, shell-quoted (for messages)
    double seconds = 0;
};

// The argument list of one compile (after the program): compile -spirv_input -file MODULE -device TARGET
// -out_dir OUT_DIR [-options OPTIONS].
std::vector<std::string> compileArguments(const std::string& module_path, const std::string& target,
                                          const std::string& out_dir, const std::string& options);

// Compiles `module_path` for `target` with the program-build `options` (what clBuildProgram would get).
CompileResult compileModule(const OfflineCompiler& compiler, const std::string& module_path,
                            const std::string& target, const std::string& options, double timeout_seconds);

// Compiles each of `module_paths` as compileModule would, many in one `ocloc multi` process (one build per
// line of a command file; starting a compiler costs about as much as a small build). A module counts as built
// only when its section of the batch's output ends in "Build succeeded." and its binary was written; every
// other one the batch reached is compiled again on its own, so a rejection, crash or hang gets
// compileModule's exit status, log and command. Modules the batch never reached (it crashed or hung before
// them) go into another batch; a module or option text a command line cannot quote is compiled on its own.
std::vector<CompileResult> compileModules(const OfflineCompiler& compiler,
                                          const std::vector<std::string>& module_paths,
                                          const std::string& target, const std::string& options,
                                          double timeout_seconds);

// After an interrupt (the compilers' groups signalled): no temporary directory is made any more; waits up to
// `seconds` for the compiles to end and remove theirs, then kills the compilers and removes what is left.
void finishCompilerTempDirs(double seconds);

// "signal 11 (Segmentation fault)".
std::string signalText(int sig);

}  // namespace cts
