// RAII owners for every OpenCL object the suite creates, plus a checked-call helper.
#pragma once

#include <string>
#include <utility>

#include <CL/cl.h>

namespace cts {

const char* clErrorName(cl_int err);  // "CL_INVALID_VALUE", or "CL error -1234"

template <typename T, cl_int (*Release)(T), cl_int (*Retain)(T)>
class ClHandle {
public:
    ClHandle() = default;
    explicit ClHandle(T handle) : h_(handle) {}  // takes ownership of one reference
    ~ClHandle() { reset(); }
    ClHandle(const ClHandle& o) : h_(o.h_) {
        if (h_) Retain(h_);
    }
    ClHandle& operator=(const ClHandle& o) {
        if (this != &o) {
            reset();
            h_ = o.h_;
            if (h_) Retain(h_);
        }
        return *this;
    }
    ClHandle(ClHandle&& o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
    ClHandle& operator=(ClHandle&& o) noexcept {
        if (this != &o) {
            reset();
            h_ = std::exchange(o.h_, nullptr);
        }
        return *this;
    }
    void reset(T handle = nullptr) {
        if (h_) Release(h_);
        h_ = handle;
    }
    T get() const { return h_; }
    operator T() const { return h_; }
    T* out() {  // for APIs that return the handle through a pointer
        reset();
        return &h_;
    }
    explicit operator bool() const { return h_ != nullptr; }
    T release() { return std::exchange(h_, nullptr); }

private:
    T h_ = nullptr;
};

using ContextHandle = ClHandle<cl_context, clReleaseContext, clRetainContext>;
using QueueHandle = ClHandle<cl_command_queue, clReleaseCommandQueue, clRetainCommandQueue>;
using MemHandle = ClHandle<cl_mem, clReleaseMemObject, clRetainMemObject>;
using ProgramHandle = ClHandle<cl_program, clReleaseProgram, clRetainProgram>;
using KernelHandle = ClHandle<cl_kernel, clReleaseKernel, clRetainKernel>;
using EventHandle = ClHandle<cl_event, clReleaseEvent, clRetainEvent>;
using SamplerHandle = ClHandle<cl_sampler, clReleaseSampler, clRetainSampler>;

// Throws cts::CaseFailure("<what>: <CL error name>") when err != CL_SUCCESS. Use for calls whose failure
// is the device's fault (enqueue, finish); use checkInternal for harness-side setup.
void checkCl(cl_int err, const std::string& what);
// Throws cts::InternalError instead.
void checkInternal(cl_int err, const std::string& what);

}  // namespace cts
