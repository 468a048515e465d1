// clEnqueueNDRangeKernel: runs the kernel at enqueue through the interpreter. Undefined behaviour found by
// the interpreter fails the command with CL_OUT_OF_RESOURCES, a negative event status, and a message to the
// context's pfn_notify and stderr. So does a work-item exceeding REFDEV_BRANCH_BUDGET taken branches: the
// device's hang check (a GPU driver's TDR), so that a kernel that loops forever fails instead of hanging the
// process. What the kernel's printf calls wrote goes to stdout when the kernel has run.
#include "reference_device/icd/kernel_launch.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <set>
#include <thread>

#include "reference_device/icd/common.h"
#include "reference_device/icd/device_info.h"
#include "reference_device/icd/svm.h"

namespace refdev::icd {

namespace {

constexpr size_t kDefaultGroupLimit = 256;

size_t largestDivisorAtMost(size_t n, size_t limit) {
    for (size_t d = std::min(n, limit); d > 1; --d)
        if (n % d == 0) return d;
    return 1;
}

// Planted faults that act at enqueue rather than inside an op family.
void applyCoreFaults(const Faults& faults) {
    if (faults.has("crash")) {
        std::fprintf(stderr, "refdev: fault 'crash': raising SIGSEGV at kernel enqueue\n");
        std::fflush(stderr);
        std::raise(SIGSEGV);
    }
    if (faults.has("hang")) {
        std::fprintf(stderr, "refdev: fault 'hang': kernel enqueue never returns\n");
        std::fflush(stderr);
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    }
}

// flaky_first_launch: true for the first launch in this process of a kernel whose hash of (module, kernel
// name) is 0 mod 8. The choice depends on the module and kernel only, never on scheduling or --jobs.
bool flakyFirstLaunch(const std::vector<uint8_t>& il, const std::string& kernel) {
    uint64_t h = 1469598103934665603ull;
    auto mix = [&h](uint8_t b) { h = (h ^ b) * 1099511628211ull; };
    for (uint8_t b : il) mix(b);
    mix(0);
    for (char c : kernel) mix(static_cast<uint8_t>(c));
    if (h % 8 != 0) return false;
    static std::mutex m;
    static std::set<uint64_t> launched;
    std::lock_guard<std::mutex> lock(m);
    return launched.insert(h).second;
}

cl_int marshalArgs(cl_kernel k, std::vector<spirv::ArgValue>* out) {
    out->clear();
    for (size_t i = 0; i < k->args.size(); ++i) {
        const KernelArgSlot& slot = k->args[i];
        if (!slot.set) return CL_INVALID_KERNEL_ARGS;
        spirv::ArgValue v = slot.value;
        if (slot.mem) {
            // Arguments do not retain memory objects; one released since clSetKernelArg is an error.
            if (!liveMem(slot.mem)) return CL_INVALID_KERNEL_ARGS;
            if (slot.mem->context != k->program->context) return CL_INVALID_CONTEXT;
            if (v.kind == spirv::ArgKind::Image) {
                cl_mem m = slot.mem;
                v.image.data = m->data;
                v.image.image_type = m->type;
                v.image.width = m->desc.image_width;
                v.image.height = std::max<size_t>(m->desc.image_height, 1);
                v.image.depth = std::max<size_t>(m->desc.image_depth, 1);
                v.image.array_size = std::max<size_t>(m->desc.image_array_size, 1);
                v.image.row_pitch = m->desc.image_row_pitch;
                v.image.slice_pitch = m->desc.image_slice_pitch;
                v.image.texel_bytes = m->texel_bytes;
                v.image.channel_order = m->format.image_channel_order;
                v.image.channel_type = m->format.image_channel_data_type;
                v.image.from_buffer = m->buffer != nullptr;
            } else {
                v.base = slot.mem->data;
                // A driver binding sub-buffers through page-granular surface states: the origin loses its
                // low 12 bits (origins that are multiples of 4 KiB, as GuardedBuffer's, do not show it).
                if (slot.mem->parent && thePlatform()->faults.has("sub_buffer_origin_rounded_to_page"))
                    v.base = slot.mem->parent->data + (slot.mem->origin & ~size_t(4095));
                v.size = slot.mem->size;
            }
        }
        // An SVM pointer argument (no cl_mem): its allocation must still be live.
        if (!slot.mem && v.base &&
            (v.kind == spirv::ArgKind::GlobalBuffer || v.kind == spirv::ArgKind::ConstantBuffer)) {
            size_t left = 0;
            uint8_t* start = nullptr;
            if (!svmRange(v.base, &start, &left)) return CL_INVALID_KERNEL_ARGS;
        }
        if (slot.sampler) {
            if (!liveSampler(slot.sampler)) return CL_INVALID_KERNEL_ARGS;
            // A sampler argument is the 8-byte value an OpConstantSampler has (spirv/types.cpp): byte 0 the
            // SPIR-V SamplerAddressingMode, byte 1 normalized (0/1), byte 2 the SamplerFilterMode, bit 32
            // set.
            const uint64_t word = uint64_t(slot.sampler->addressing - CL_ADDRESS_NONE) |
                                  uint64_t(slot.sampler->normalized_coords ? 1 : 0) << 8 |
                                  uint64_t(slot.sampler->filter - CL_FILTER_NEAREST) << 16 |
                                  uint64_t(1) << 32;
            v.bytes.assign(reinterpret_cast<const uint8_t*>(&word),
                           reinterpret_cast<const uint8_t*>(&word) + sizeof(word));
        }
        out->push_back(std::move(v));
    }
    return CL_SUCCESS;
}

cl_int CL_API_CALL EnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t* offset,
                                        const size_t* global, const size_t* local, cl_uint n,
                                        const cl_event* list, cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (!liveQueue(q)) return CL_INVALID_COMMAND_QUEUE;
    if (!liveKernel(k)) return CL_INVALID_KERNEL;
    if (k->program->context != q->context) return CL_INVALID_CONTEXT;
    if (dims < 1 || dims > 3) return CL_INVALID_WORK_DIMENSION;
    if (!global) return CL_INVALID_GLOBAL_WORK_SIZE;
    if (cl_int e = checkWaitList(q->context, n, list)) return e;
    std::vector<spirv::ArgValue> args;
    if (cl_int e = marshalArgs(k, &args)) return e;

    spirv::NDRange range;
    range.dims = dims;
    bool empty = false;
    for (cl_uint i = 0; i < dims; ++i) {
        range.global[i] = global[i];
        range.offset[i] = offset ? offset[i] : 0;
        if (global[i] == 0) empty = true;
        if (range.offset[i] > SIZE_MAX - global[i]) return CL_INVALID_GLOBAL_OFFSET;
    }
    const uint32_t* reqd = k->info->reqd_work_group_size;
    const bool has_reqd = reqd[0] || reqd[1] || reqd[2];
    const uint32_t* max_wg = k->info->max_work_group_size;
    if (local) {
        size_t product = 1;
        for (cl_uint i = 0; i < dims; ++i) {
            if (local[i] == 0) return CL_INVALID_WORK_GROUP_SIZE;
            if (local[i] > maxWorkGroupSize(*thePlatform()->profile)) return CL_INVALID_WORK_ITEM_SIZE;
            product *= local[i];
            if (has_reqd && local[i] != reqd[i]) return CL_INVALID_WORK_GROUP_SIZE;
            if (max_wg[i] && local[i] > max_wg[i])
                return CL_INVALID_WORK_GROUP_SIZE;  // MaxWorkgroupSizeINTEL
        }
        if (product > maxWorkGroupSize(*thePlatform()->profile)) return CL_INVALID_WORK_GROUP_SIZE;
        for (cl_uint i = 0; i < dims; ++i) range.local[i] = local[i];
        // Non-uniform work-groups (global not a multiple of local) are allowed: OpenCL 3.0 with
        // CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT; the interpreter runs the remainder groups.
    } else if (!empty) {
        chooseLocalSize(k, dims, global, range.local);
    }
    if (has_reqd)
        for (cl_uint i = dims; i < 3; ++i)
            if (reqd[i] > 1) return CL_INVALID_WORK_GROUP_SIZE;
    cl_ulong local_bytes = 0;
    for (const spirv::ArgValue& a : args)
        if (a.kind == spirv::ArgKind::LocalBuffer) local_bytes += a.size;
    if (local_bytes > localMemSize(*thePlatform()->profile)) return CL_OUT_OF_RESOURCES;

    if (empty) {  // a zero global size is a valid command that runs nothing
        completeCommand(q, CL_COMMAND_NDRANGE_KERNEL, start, CL_SUCCESS, ev);
        return CL_SUCCESS;
    }
    const _cl_platform_id& platform = *thePlatform();
    applyCoreFaults(platform.faults);
    if (platform.faults.has("kernel_not_run") ||
        (platform.faults.has("flaky_first_launch") && flakyFirstLaunch(k->program->il, k->info->name))) {
        completeCommand(q, CL_COMMAND_NDRANGE_KERNEL, start, CL_SUCCESS, ev);
        return CL_SUCCESS;
    }
    spirv::LaunchResult result =
        spirv::launch(*k->program->module, k->info->name, args, range, *platform.profile, platform.faults,
                      platform.threads, platform.branch_budget);
    // The kernel ran to completion here: its printf output is flushed now, as at clFinish.
    if (!result.printf_output.empty()) {
        std::fwrite(result.printf_output.data(), 1, result.printf_output.size(), stdout);
        std::fflush(stdout);
    }
    if (!result.ok) {
        // The interpreter's message already names the kernel, instruction and work-item.
        std::string message = result.error;
        if (platform.branch_budget && message.find("branch budget") != std::string::npos)
            message += " (REFDEV_BRANCH_BUDGET=" + std::to_string(platform.branch_budget) + ")";
        if (message.find("'" + k->info->name + "'") == std::string::npos)
            message = "kernel '" + k->info->name + "': " + message;
        notifyContext(q->context, message);
        completeCommand(q, CL_COMMAND_NDRANGE_KERNEL, start, CL_OUT_OF_RESOURCES, ev);
        return CL_OUT_OF_RESOURCES;
    }
    completeCommand(q, CL_COMMAND_NDRANGE_KERNEL, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

cl_int CL_API_CALL EnqueueTask(cl_command_queue q, cl_kernel k, cl_uint n, const cl_event* list,
                               cl_event* ev) {
    const size_t one = 1;
    return EnqueueNDRangeKernel(q, k, 1, nullptr, &one, &one, n, list, ev);
}

cl_int CL_API_CALL EnqueueNativeKernel(cl_command_queue q, void(CL_CALLBACK*)(void*), void*, size_t, cl_uint,
                                       const cl_mem*, const void**, cl_uint, const cl_event*, cl_event*) {
    Lock lock(apiMutex());
    return liveQueue(q) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;  // no CL_EXEC_NATIVE_KERNEL
}

}  // namespace

void chooseLocalSize(cl_kernel k, cl_uint dims, const size_t* global, size_t* local) {
    const uint32_t* reqd = k->info->reqd_work_group_size;
    if (reqd[0] || reqd[1] || reqd[2]) {
        for (cl_uint i = 0; i < dims; ++i) local[i] = reqd[i] ? reqd[i] : 1;
        return;
    }
    size_t budget = kDefaultGroupLimit;
    const uint32_t* max_wg = k->info->max_work_group_size;  // MaxWorkgroupSizeINTEL, zeros when absent
    for (cl_uint i = 0; i < dims; ++i) {
        local[i] = largestDivisorAtMost(global[i], max_wg[i] ? std::min<size_t>(budget, max_wg[i]) : budget);
        budget /= local[i];
        if (budget == 0) budget = 1;
    }
}

void fillLaunchEntries(cl_icd_dispatch& d) {
    d.clEnqueueNDRangeKernel = EnqueueNDRangeKernel;
    d.clEnqueueTask = EnqueueTask;
    d.clEnqueueNativeKernel = EnqueueNativeKernel;
}

}  // namespace refdev::icd
