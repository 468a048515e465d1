// What every case family uses to run one kernel: build, buffers with guard bands, args, enqueue.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <CL/cl.h>

#include "test_common/cl/wrappers.h"
#include "test_common/harness/launch/kernel_args.h"
#include "test_common/harness/model/case.h"

namespace cts {

// Gets the module (relative to <assets>/modules/) from the program cache and creates the kernel.
// Empty module or kernel name, module without a hash in ctx.module_hashes or signatures in
// ctx.module_signatures, missing/corrupt module file, one whose hash differs from the manifest's or whose
// kernel signatures disagree with the manifest's module table: throws InternalError naming it. Build failure
// or a kernel the built program lacks: throws CaseFailure with the build log. `options` go to clBuildProgram
// (the build options a compiler records with its module, e.g. Triton's -cl-intel-256-GRF-per-thread).
KernelHandle createKernel(RunContext& ctx, const std::string& module, const std::string& kernel,
                          const std::string& options = "");

// A device buffer with guard bands of `guard_bytes` on each side, all filled with the repeating
// `poison` byte pattern. The kernel sees only the middle `bytes` (a sub-buffer), so a write outside it
// lands in a guard band (or is caught by a bounds-checking device).
class GuardedBuffer {
public:
    GuardedBuffer(RunContext& ctx, size_t bytes, size_t guard_bytes = 4096, uint8_t poison = 0xA5);
    cl_mem mem() const { return sub_.get(); }  // pass this to the kernel
    size_t size() const { return bytes_; }
    void write(const void* data, size_t bytes, size_t offset = 0);  // into the middle part
    std::vector<uint8_t> read() const;                              // the middle part
    // Returns "" when both guard bands still hold the poison, else a description of the first
    // overwritten byte (offset relative to the start of the middle part, value).
    std::string checkGuards() const;

private:
    RunContext* ctx_;
    size_t bytes_, guard_;
    uint8_t poison_;
    MemHandle whole_, sub_;
};

// Enqueues and waits (clFinish). A CL error throws CaseFailure whose message includes the error name
// and any context-notify messages the driver produced (e.g. undefined behaviour detected).
void runNDRange(RunContext& ctx, cl_kernel kernel, cl_uint dims, const size_t* global, const size_t* local);
// The same after KernelArgs::checkAllSet: an argument left unset is an InternalError, not a launch.
void runNDRange(RunContext& ctx, const KernelArgs& args, cl_uint dims, const size_t* global,
                const size_t* local);

// With --dump-dir: writes `bytes` to <dump_dir>/<case name>.<label>.bin (no-op without --dump-dir).
// Throws InternalError when the file cannot be written.
void dumpBytes(RunContext& ctx, const std::string& label, const void* data, size_t bytes);

// Messages the driver sent to the context's notify callback since the last call (then cleared).
std::string takeDriverMessages(RunContext& ctx);

}  // namespace cts
