#include "test_common/harness/launch/memory_object.h"

#include <cstdlib>
#include <cstring>

#include "test_common/cl/device_info.h"

namespace cts {

namespace {

std::string hexByte(uint8_t v) {
    static const char* digits = "0123456789abcdef";
    return {digits[v >> 4], digits[v & 15]};
}

size_t baseAlignBytes(const RunContext& ctx) {
    size_t align = ctx.device.mem_base_addr_align_bits / 8;
    return align < 64 ? 64 : align;
}

}  // namespace

Outcome memorySupport(const CaseSpec& spec, const DeviceInfo& device) {
    if (spec.params.has("memory") && spec.params.s("memory") == "svm_coarse" &&
        !(device.svm_capabilities & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
        return Outcome::notSupported("CL_DEVICE_SVM_CAPABILITIES lacks CL_DEVICE_SVM_COARSE_GRAIN_BUFFER");
    return Outcome::pass();
}

MemoryObject::MemoryObject(RunContext& ctx, const std::string& kind, size_t bytes)
    : ctx_(&ctx), kind_(kind), bytes_(bytes) {
    if (kind == "buffer") {
        guarded_ = std::make_unique<GuardedBuffer>(ctx, bytes);
    } else if (kind == "sub_buffer_min_origin") {
        // GuardedBuffer rounds the guard (= the sub-buffer origin) up to CL_DEVICE_MEM_BASE_ADDR_ALIGN.
        guarded_ = std::make_unique<GuardedBuffer>(ctx, bytes, 1);
    } else if (kind == "use_host_ptr") {
        guard_ = baseAlignBytes(ctx);
        const size_t total = (guard_ + bytes + guard_ + guard_ - 1) / guard_ * guard_;
        host_ = static_cast<uint8_t*>(std::aligned_alloc(guard_, total));
        if (!host_) throw InternalError("host memory for a CL_MEM_USE_HOST_PTR buffer");
        std::memset(host_, kPoison, total);
        cl_int err = CL_SUCCESS;
        host_buffer_.reset(clCreateBuffer(ctx.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes,
                                          host_ + guard_, &err));
        checkCl(err, "clCreateBuffer(CL_MEM_USE_HOST_PTR, " + std::to_string(bytes) + " bytes)");
    } else if (kind == "svm_coarse") {
        guard_ = baseAlignBytes(ctx);
        svm_ = clSVMAlloc(ctx.context, CL_MEM_READ_WRITE, guard_ + bytes + guard_, 0);
        if (!svm_)
            throw CaseFailure("clSVMAlloc of " + std::to_string(guard_ + bytes + guard_) +
                              " bytes returned NULL on a device reporting coarse-grain SVM");
        std::vector<uint8_t> poison(guard_ + bytes + guard_, kPoison);
        checkCl(
            clEnqueueSVMMemcpy(ctx.queue, CL_TRUE, svm_, poison.data(), poison.size(), 0, nullptr, nullptr),
            "clEnqueueSVMMemcpy (poison fill)");
    } else {
        throw InternalError("unknown memory kind '" + kind + "'");
    }
}

MemoryObject::~MemoryObject() {
    host_buffer_.reset();
    if (host_) {
        clFinish(ctx_->queue);
        std::free(host_);
    }
    if (svm_) {
        clFinish(ctx_->queue);
        clSVMFree(ctx_->context, svm_);
    }
}

void MemoryObject::write(const std::vector<uint8_t>& data) {
    if (guarded_) return guarded_->write(data.data(), data.size());
    if (svm_) {
        checkCl(clEnqueueSVMMap(ctx_->queue, CL_TRUE, CL_MAP_WRITE, static_cast<uint8_t*>(svm_) + guard_,
                                data.size(), 0, nullptr, nullptr),
                "clEnqueueSVMMap (write)");
        std::memcpy(static_cast<uint8_t*>(svm_) + guard_, data.data(), data.size());
        checkCl(clEnqueueSVMUnmap(ctx_->queue, static_cast<uint8_t*>(svm_) + guard_, 0, nullptr, nullptr),
                "clEnqueueSVMUnmap");
        checkCl(clFinish(ctx_->queue), "clFinish");
        return;
    }
    // USE_HOST_PTR: the host writes through a map, which hands back the host memory itself.
    cl_int err = CL_SUCCESS;
    void* p = clEnqueueMapBuffer(ctx_->queue, host_buffer_, CL_TRUE, CL_MAP_WRITE, 0, data.size(), 0, nullptr,
                                 nullptr, &err);
    checkCl(err, "clEnqueueMapBuffer (CL_MAP_WRITE)");
    std::memcpy(p, data.data(), data.size());
    checkCl(clEnqueueUnmapMemObject(ctx_->queue, host_buffer_, p, 0, nullptr, nullptr),
            "clEnqueueUnmapMemObject");
    checkCl(clFinish(ctx_->queue), "clFinish");
}

void MemoryObject::bind(KernelArgs& args, const std::string& name) const {
    if (guarded_) return args.set(name, guarded_->mem());
    if (svm_) return args.setSvm(name, static_cast<uint8_t*>(svm_) + guard_);
    args.set(name, host_buffer_.get());
}

std::vector<uint8_t> MemoryObject::readAll() const {
    const size_t total = guard_ + bytes_ + guard_;
    std::vector<uint8_t> all(total);
    if (svm_) {
        checkCl(clEnqueueSVMMap(ctx_->queue, CL_TRUE, CL_MAP_READ, svm_, total, 0, nullptr, nullptr),
                "clEnqueueSVMMap (read)");
        std::memcpy(all.data(), svm_, total);
        checkCl(clEnqueueSVMUnmap(ctx_->queue, svm_, 0, nullptr, nullptr), "clEnqueueSVMUnmap");
        checkCl(clFinish(ctx_->queue), "clFinish");
    } else {
        std::memcpy(all.data(), host_, total);  // only after a map (read) has made the host memory current
    }
    return all;
}

std::vector<uint8_t> MemoryObject::read(std::string* problem) const {
    problem->clear();
    if (guarded_) return guarded_->read();
    if (svm_) {
        std::vector<uint8_t> all = readAll();
        return std::vector<uint8_t>(all.begin() + guard_, all.begin() + guard_ + bytes_);
    }
    // OpenCL 3.0, clEnqueueMapBuffer: for a CL_MEM_USE_HOST_PTR buffer "the host_ptr specified in
    // clCreateBuffer is guaranteed to contain the latest bits in the region being mapped when the
    // clEnqueueMapBuffer command has completed" and "the pointer value returned ... will be derived from the
    // host_ptr specified when the buffer object is created".
    std::vector<uint8_t> via_read(bytes_);
    checkCl(clEnqueueReadBuffer(ctx_->queue, host_buffer_, CL_TRUE, 0, bytes_, via_read.data(), 0, nullptr,
                                nullptr),
            "clEnqueueReadBuffer");
    cl_int err = CL_SUCCESS;
    void* p = clEnqueueMapBuffer(ctx_->queue, host_buffer_, CL_TRUE, CL_MAP_READ, 0, bytes_, 0, nullptr,
                                 nullptr, &err);
    checkCl(err, "clEnqueueMapBuffer (CL_MAP_READ)");
    std::vector<uint8_t> host(host_ + guard_, host_ + guard_ + bytes_);
    if (p != host_ + guard_)
        *problem =
            "clEnqueueMapBuffer of a CL_MEM_USE_HOST_PTR buffer returned a pointer not derived from its "
            "host_ptr";
    checkCl(clEnqueueUnmapMemObject(ctx_->queue, host_buffer_, p, 0, nullptr, nullptr),
            "clEnqueueUnmapMemObject");
    checkCl(clFinish(ctx_->queue), "clFinish");
    for (size_t i = 0; problem->empty() && i < bytes_; ++i)
        if (host[i] != via_read[i])
            *problem =
                "after clEnqueueMapBuffer the host memory of a CL_MEM_USE_HOST_PTR buffer differs from "
                "clEnqueueReadBuffer at byte " +
                std::to_string(i) + " (0x" + hexByte(host[i]) + " vs 0x" + hexByte(via_read[i]) +
                "): the map must leave the latest bits in host_ptr";
    return host;
}

std::string MemoryObject::checkGuards() const {
    if (guarded_) return guarded_->checkGuards();
    std::vector<uint8_t> all = readAll();
    for (size_t i = 0; i < all.size(); ++i) {
        if (i == guard_) i = guard_ + bytes_;
        if (i < all.size() && all[i] != kPoison)
            return "guard band overwritten at byte offset " +
                   std::to_string(static_cast<long long>(i) - static_cast<long long>(guard_)) +
                   " (relative to the " + kind_ + " memory's start; it is " + std::to_string(bytes_) +
                   " bytes)";
    }
    return "";
}

}  // namespace cts
