// The memory a block IO kernel reads or writes through a CrossWorkgroup pointer argument, as one of the
// memory objects OpenCL can bind to it (the "Memory objects" sections of the block IO families' docs pages):
//   buffer                 a sub-buffer between guard bands of 4 KiB (GuardedBuffer), as every other case
//   sub_buffer_min_origin  the same with the smallest legal origin, CL_DEVICE_MEM_BASE_ADDR_ALIGN
//   use_host_ptr           a CL_MEM_USE_HOST_PTR buffer on host memory aligned to
//   CL_DEVICE_MEM_BASE_ADDR_ALIGN,
//                          between host guard bands; read back through a map, which must return a pointer
//                          into that host memory holding the latest bits (and agree with clEnqueueReadBuffer)
//   svm_coarse             a coarse-grain SVM allocation (clSVMAlloc, clSetKernelArgSVMPointer, map/unmap)
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "test_common/harness/launch/kernel_args.h"
#include "test_common/harness/launch/kernel_util.h"
#include "test_common/harness/model/case.h"

namespace cts {

// Whether `device` can give the case the memory kind its optional parameter "memory" names: pass, or
// NotSupported naming the query that lacks it (svm_coarse needs CL_DEVICE_SVM_COARSE_GRAIN_BUFFER). Each
// family whose cases take a "memory" parameter calls it from checkSupport.
Outcome memorySupport(const CaseSpec& spec, const DeviceInfo& device);

class MemoryObject {
public:
    static constexpr uint8_t kPoison = 0xA5;  // the guard bands' fill, as GuardedBuffer's

    // Throws InternalError for an unknown kind. svm_coarse needs CL_DEVICE_SVM_COARSE_GRAIN_BUFFER.
    MemoryObject(RunContext& ctx, const std::string& kind, size_t bytes);
    ~MemoryObject();
    MemoryObject(const MemoryObject&) = delete;
    MemoryObject& operator=(const MemoryObject&) = delete;

    void write(const std::vector<uint8_t>& data);
    void bind(KernelArgs& args, const std::string& name) const;
    // The bytes after the kernel; *problem says what broke the memory object's rules ("" when nothing).
    std::vector<uint8_t> read(std::string* problem) const;
    std::string checkGuards() const;  // "" when the bands around the memory still hold the poison

private:
    RunContext* ctx_;
    std::string kind_;
    size_t bytes_, guard_ = 0;
    std::unique_ptr<GuardedBuffer> guarded_;  // buffer, sub_buffer_min_origin
    uint8_t* host_ = nullptr;                 // use_host_ptr: guard + bytes + guard of host memory
    MemHandle host_buffer_;
    void* svm_ = nullptr;  // svm_coarse: guard + bytes + guard

    std::vector<uint8_t> readAll() const;  // guard bands included (use_host_ptr, svm_coarse)
};

}  // namespace cts
