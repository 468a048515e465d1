#include "test_common/harness/launch/kernel_util.h"

#include <chrono>
#include <cstdio>
#include <cstring>

#include "test_common/cl/device_info.h"
#include "test_common/cl/driver_messages.h"
#include "test_common/cl/phase_clock.h"
#include "test_common/cl/program_cache.h"
#include "test_common/harness/launch/build_only_launch.h"

namespace cts {

KernelHandle createKernel(RunContext& ctx, const std::string& module, const std::string& kernel,
                          const std::string& options) {
    // A manifest entry without these is the harness's problem, not the device's.
    if (module.empty())
        throw InternalError("case '" + ctx.case_name +
                            "' has no \"module\" in the manifest, but its family builds a kernel from one");
    if (kernel.empty())
        throw InternalError("case '" + ctx.case_name + "' has no \"kernel\" in the manifest for module " +
                            module);
    auto hash = ctx.module_hashes.find(module);
    if (hash == ctx.module_hashes.end())
        throw InternalError("case '" + ctx.case_name + "': module " + module +
                            " has no \"module_hash\" from the manifest to check it against");
    auto signature = ctx.module_signatures.find(module);
    if (signature == ctx.module_signatures.end() || !signature->second)
        throw InternalError("case '" + ctx.case_name + "': module " + module +
                            " has no kernel signatures from the manifest's module table to check it against");
    std::string path = ctx.assets_dir + "/modules/" + module;
    // Before the build, once per module per process: the kernels' argument names and types are the ones the
    // manifest gives (so a disagreement is never hidden behind a build failure). Both calls throw
    // InternalError for a bad file, including one whose bytes are not the ones the manifest hashed.
    std::string disagreement = ctx.programs.signatureMismatch(path, hash->second, *signature->second);
    if (!disagreement.empty())
        throw InternalError("module " + module + " disagrees with the manifest's module table: " +
                            disagreement + " (rebuild the assets target)");
    const BuiltProgram& built = ctx.programs.get(path, hash->second, options);
    if (!built.built) {
        std::string msg = "build of " + module + " failed: " + built.log;
        std::string driver = takeDriverMessages(ctx);
        if (!driver.empty()) msg += "\ndriver messages:\n" + driver;
        throw BuildFailure(msg, built.log);
    }
    cl_int err = CL_SUCCESS;
    KernelHandle handle(clCreateKernel(built.program, kernel.c_str(), &err));
    if (err != CL_SUCCESS)
        throw CaseFailure("clCreateKernel(\"" + kernel + "\") from " + module + ": " + clErrorName(err) +
                          (built.log.empty() ? "" : "\nbuild log:\n" + built.log));
    // The driver's own count of the arguments, which clSetKernelArg checks indices against.
    cl_uint num_args = 0;
    err = clGetKernelInfo(handle, CL_KERNEL_NUM_ARGS, sizeof num_args, &num_args, nullptr);
    if (err != CL_SUCCESS)
        throw CaseFailure("clGetKernelInfo(CL_KERNEL_NUM_ARGS) of kernel " + kernel + ": " +
                          clErrorName(err));
    auto args = signature->second->find(kernel);
    if (args != signature->second->end() && num_args != args->second.size())
        throw CaseFailure("kernel " + kernel + " of " + module + ": CL_KERNEL_NUM_ARGS reports " +
                          std::to_string(num_args) + ", the module declares " +
                          std::to_string(args->second.size()) + " arguments");
    return handle;
}

GuardedBuffer::GuardedBuffer(RunContext& ctx, size_t bytes, size_t guard_bytes, uint8_t poison)
    : ctx_(&ctx), bytes_(bytes), poison_(poison) {
    if (bytes == 0) throw InternalError("GuardedBuffer of 0 bytes");
    // The sub-buffer origin (= the guard size) must be a multiple of CL_DEVICE_MEM_BASE_ADDR_ALIGN, which
    // the device reports in bits.
    size_t align = ctx.device.mem_base_addr_align_bits / 8;
    if (align == 0) align = 128;
    guard_ = (guard_bytes + align - 1) / align * align;
    if (guard_ == 0) guard_ = align;
    size_t total = guard_ + bytes_ + guard_;

    cl_int err = CL_SUCCESS;
    whole_.reset(clCreateBuffer(ctx.context, CL_MEM_READ_WRITE, total, nullptr, &err));
    checkInternal(err, "clCreateBuffer(" + std::to_string(total) + " bytes)");
    std::vector<uint8_t> fill(total, poison_);
    checkInternal(
        clEnqueueWriteBuffer(ctx.queue, whole_, CL_TRUE, 0, total, fill.data(), 0, nullptr, nullptr),
        "clEnqueueWriteBuffer (poison fill)");
    cl_buffer_region region{guard_, bytes_};
    sub_.reset(clCreateSubBuffer(whole_, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err));
    checkInternal(err, "clCreateSubBuffer(origin " + std::to_string(guard_) + ")");
}

void GuardedBuffer::write(const void* data, size_t bytes, size_t offset) {
    if (offset + bytes > bytes_)
        throw InternalError("GuardedBuffer::write of " + std::to_string(bytes) + " bytes at " +
                            std::to_string(offset) + " exceeds the " + std::to_string(bytes_) +
                            "-byte buffer");
    checkInternal(
        clEnqueueWriteBuffer(ctx_->queue, whole_, CL_TRUE, guard_ + offset, bytes, data, 0, nullptr, nullptr),
        "clEnqueueWriteBuffer");
}

std::vector<uint8_t> GuardedBuffer::read() const {
    std::vector<uint8_t> out(bytes_);
    // A failed read-back after a kernel ran is the device's failure, not the harness's.
    checkCl(
        clEnqueueReadBuffer(ctx_->queue, whole_, CL_TRUE, guard_, bytes_, out.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
    return out;
}

std::string GuardedBuffer::checkGuards() const {
    std::vector<uint8_t> all(guard_ * 2 + bytes_);
    checkCl(clEnqueueReadBuffer(ctx_->queue, whole_, CL_TRUE, 0, all.size(), all.data(), 0, nullptr, nullptr),
            "clEnqueueReadBuffer (guard bands)");
    auto describe = [&](size_t index) {
        char buf[160];
        long long rel = static_cast<long long>(index) - static_cast<long long>(guard_);
        std::snprintf(buf, sizeof buf,
                      "guard band overwritten at byte offset %lld (relative to the buffer start;"
                      " buffer is %zu bytes): 0x%02x instead of poison 0x%02x",
                      rel, bytes_, all[index], poison_);
        return std::string(buf);
    };
    for (size_t i = 0; i < guard_; ++i)
        if (all[i] != poison_) return describe(i);
    for (size_t i = guard_ + bytes_; i < all.size(); ++i)
        if (all[i] != poison_) return describe(i);
    return "";
}

void runNDRange(RunContext& ctx, const KernelArgs& args, cl_uint dims, const size_t* global,
                const size_t* local) {
    args.checkAllSet();
    runNDRange(ctx, args.kernel(), dims, global, local);
}

void runNDRange(RunContext& ctx, cl_kernel kernel, cl_uint dims, const size_t* global, const size_t* local) {
    auto fail = [&](const std::string& what, cl_int err) {
        std::string msg = what + ": " + clErrorName(err);
        std::string driver = takeDriverMessages(ctx);
        if (!driver.empty()) msg += "\ndriver messages:\n" + driver;
        throw CaseFailure(msg);
    };
    if (ctx.build_only) withholdLaunch(ctx, kernel, dims, local);
    // The launch's time, a failed one's too, is the case's kernel phase.
    const auto start = std::chrono::steady_clock::now();
    cl_int err = clEnqueueNDRangeKernel(ctx.queue, kernel, dims, nullptr, global, local, 0, nullptr, nullptr);
    if (err != CL_SUCCESS) {
        phase_clock::addKernel(phase_clock::msSince(start));
        fail("clEnqueueNDRangeKernel", err);
    }
    err = clFinish(ctx.queue);
    phase_clock::addKernel(phase_clock::msSince(start));
    if (err != CL_SUCCESS) fail("clFinish", err);
}

void dumpBytes(RunContext& ctx, const std::string& label, const void* data, size_t bytes) {
    if (ctx.dump_dir.empty()) return;
    std::string path = ctx.dump_dir + "/" + ctx.case_name + "." + label + ".bin";
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) throw InternalError("cannot write dump file " + path);
    size_t written = bytes ? std::fwrite(data, 1, bytes, f) : 0;
    bool ok = std::fclose(f) == 0 && written == bytes;
    if (!ok) throw InternalError("cannot write dump file " + path);
}

std::string takeDriverMessages(RunContext& ctx) {
    return ctx.driver_messages ? ctx.driver_messages->take() : std::string();
}

}  // namespace cts
