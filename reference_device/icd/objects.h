// The ICD's object model. Every handle the application sees points at an object whose first member is the
// cl_icd_dispatch pointer (the ICD loader's contract). Handles are validated against a registry of live
// objects before any member is read, so a stale or garbage handle yields an error code instead of a crash.
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "reference_device/driver_report.h"
#include "reference_device/faults.h"
#include "reference_device/profile.h"
#include "reference_device/spirv/program.h"

namespace refdev::icd {

enum class Kind : uint32_t { Platform = 1, Device, Context, Queue, Mem, Sampler, Program, Kernel, Event };

constexpr uint32_t kLiveMagic = 0x52444556u;  // "RDEV"

// No virtual functions anywhere in this hierarchy: a vtable pointer would displace the dispatch pointer.
struct ObjectBase {
    const cl_icd_dispatch* dispatch;
    uint32_t magic = kLiveMagic;
    Kind kind;
    std::atomic<cl_uint> refs{1};
    explicit ObjectBase(Kind k);
};

// The global registry of live handles and the API lock (the one piece of global state, see
// docs/reference_device.md). Every entry point takes apiLock() for its whole duration.
std::recursive_mutex& apiMutex();
void registerObject(const void* object);
void unregisterObject(const void* object);
bool isLive(const void* object, Kind kind);

const cl_icd_dispatch* dispatchTable();

uint64_t nowNs();

}  // namespace refdev::icd

struct _cl_platform_id : refdev::icd::ObjectBase {
    _cl_platform_id() : ObjectBase(refdev::icd::Kind::Platform) {}
    const refdev::Profile* profile = nullptr;
    const refdev::DriverReport* report = nullptr;  // REFDEV_REPORT_AS
    refdev::Faults faults;
    unsigned threads = 0;        // REFDEV_THREADS, 0 = hardware concurrency
    uint64_t branch_budget = 0;  // REFDEV_BRANCH_BUDGET: taken branches per work-item, 0 = unlimited
    std::string version, extensions;
    std::vector<std::string> spirv_extensions;  // CL_DEVICE_SPIRV_EXTENSIONS_KHR under the report
};

struct _cl_device_id : refdev::icd::ObjectBase {
    _cl_device_id() : ObjectBase(refdev::icd::Kind::Device) {}
    cl_platform_id platform = nullptr;
};

struct _cl_context : refdev::icd::ObjectBase {
    _cl_context() : ObjectBase(refdev::icd::Kind::Context) {}
    cl_device_id device = nullptr;
    std::vector<cl_context_properties> properties;  // as given, including the terminating 0 (or empty)
    void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*) = nullptr;
    void* notify_data = nullptr;
    std::vector<std::pair<void(CL_CALLBACK*)(cl_context, void*), void*>> destructor_callbacks;
};

struct _cl_command_queue : refdev::icd::ObjectBase {
    _cl_command_queue() : ObjectBase(refdev::icd::Kind::Queue) {}
    cl_context context = nullptr;
    cl_device_id device = nullptr;
    cl_command_queue_properties properties = 0;
    std::vector<cl_queue_properties> property_list;  // as given to clCreateCommandQueueWithProperties
};

struct _cl_mem : refdev::icd::ObjectBase {
    _cl_mem() : ObjectBase(refdev::icd::Kind::Mem) {}
    cl_context context = nullptr;
    cl_mem_object_type type = CL_MEM_OBJECT_BUFFER;
    cl_mem_flags flags = 0;
    size_t size = 0;
    uint8_t* data = nullptr;   // first byte of this object (for sub-buffers: parent data + origin)
    bool owns_data = false;    // data was allocated here (freed on release)
    size_t mapped_bytes = 0;   // owned data is an anonymous mapping of this length (unmapped on release)
    void* host_ptr = nullptr;  // as given with CL_MEM_USE_HOST_PTR
    cl_mem parent = nullptr;   // sub-buffer: the buffer it views (retained)
    size_t origin = 0;         // sub-buffer offset in parent
    cl_mem buffer = nullptr;   // image created from a buffer (retained)
    cl_image_format format{};  // images
    cl_image_desc desc{};      // images; image_row_pitch always filled in
    size_t texel_bytes = 0;    // images
    cl_uint map_count = 0;
    std::vector<std::pair<void(CL_CALLBACK*)(cl_mem, void*), void*>> destructor_callbacks;
    std::vector<cl_mem_properties> properties;
};

struct _cl_sampler : refdev::icd::ObjectBase {
    _cl_sampler() : ObjectBase(refdev::icd::Kind::Sampler) {}
    cl_context context = nullptr;
    cl_bool normalized_coords = CL_TRUE;
    cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
    cl_filter_mode filter = CL_FILTER_NEAREST;
    std::vector<cl_sampler_properties> properties;
};

struct _cl_program : refdev::icd::ObjectBase {
    _cl_program() : ObjectBase(refdev::icd::Kind::Program) {}
    cl_context context = nullptr;
    std::vector<uint8_t> il;  // CreateProgramWithIL
    std::string source;       // CreateProgramWithSource (compiled to SPIR-V by clang, program_source.cpp)
    bool from_source = false;
    bool linked = false;                                  // created by clLinkProgram: neither source nor IL
    std::map<cl_uint, std::vector<uint8_t>> spec_values;  // clSetProgramSpecializationConstant
    // clCompileProgram's object or a -create-library link: SPIR-V words clLinkProgram takes as input.
    std::vector<uint32_t> object;
    cl_program_binary_type binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
    cl_build_status status = CL_BUILD_NONE;
    std::string options, log;
    std::shared_ptr<const refdev::spirv::Module> module;
    cl_uint attached_kernels = 0;
};

struct KernelArgSlot {
    bool set = false;
    refdev::spirv::ArgValue value;
    cl_mem mem = nullptr;          // buffer or image argument (not retained; re-validated at enqueue)
    cl_sampler sampler = nullptr;  // sampler argument
};

struct _cl_kernel : refdev::icd::ObjectBase {
    _cl_kernel() : ObjectBase(refdev::icd::Kind::Kernel) {}
    cl_program program = nullptr;  // retained
    const refdev::spirv::KernelInfo* info = nullptr;
    std::vector<KernelArgSlot> args;
};

struct _cl_event : refdev::icd::ObjectBase {
    _cl_event() : ObjectBase(refdev::icd::Kind::Event) {}
    cl_context context = nullptr;      // retained
    cl_command_queue queue = nullptr;  // retained; null for user events
    cl_command_type command = CL_COMMAND_USER;
    cl_int status = CL_QUEUED;
    cl_ulong t_queued = 0, t_submit = 0, t_start = 0, t_end = 0;
    std::vector<std::pair<cl_int, std::pair<void(CL_CALLBACK*)(cl_event, cl_int, void*), void*>>> callbacks;
};
