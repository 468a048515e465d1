// Kernels: creation from a built program, argument setting with the spec's validation, and the info queries
// (arguments, work-group, sub-group).
#include "reference_device/icd/common.h"
#include "reference_device/icd/device_info.h"
#include "reference_device/icd/kernel_launch.h"
#include "reference_device/icd/svm.h"

#ifndef CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL
#define CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL 0x410A
#endif

namespace refdev::icd {

namespace {

cl_kernel newKernel(cl_program p, const spirv::KernelInfo* info) {
    auto* k = new _cl_kernel;
    k->program = p;
    k->info = info;
    k->args.resize(info->args.size());
    retainObject(p);
    ++p->attached_kernels;
    registerObject(k);
    return k;
}

cl_kernel CL_API_CALL CreateKernel(cl_program p, const char* name, cl_int* err) {
    Lock lock(apiMutex());
    auto fail = [&](cl_int e) {
        if (err) *err = e;
        return cl_kernel(nullptr);
    };
    if (!liveProgram(p)) return fail(CL_INVALID_PROGRAM);
    if (!p->module) return fail(CL_INVALID_PROGRAM_EXECUTABLE);
    if (!name) return fail(CL_INVALID_VALUE);
    for (const spirv::KernelInfo& k : spirv::kernels(*p->module)) {
        if (k.name == name) {
            if (err) *err = CL_SUCCESS;
            return newKernel(p, &k);
        }
    }
    return fail(CL_INVALID_KERNEL_NAME);
}

cl_int CL_API_CALL CreateKernelsInProgram(cl_program p, cl_uint num, cl_kernel* kernels, cl_uint* num_ret) {
    Lock lock(apiMutex());
    if (!liveProgram(p)) return CL_INVALID_PROGRAM;
    if (!p->module) return CL_INVALID_PROGRAM_EXECUTABLE;
    const auto& ks = spirv::kernels(*p->module);
    if (kernels && num < ks.size()) return CL_INVALID_VALUE;
    if (kernels)
        for (size_t i = 0; i < ks.size(); ++i) kernels[i] = newKernel(p, &ks[i]);
    if (num_ret) *num_ret = cl_uint(ks.size());
    return CL_SUCCESS;
}

cl_int CL_API_CALL RetainKernel(cl_kernel k) {
    Lock lock(apiMutex());
    if (!liveKernel(k)) return CL_INVALID_KERNEL;
    retainObject(k);
    return CL_SUCCESS;
}

cl_int CL_API_CALL ReleaseKernel(cl_kernel k) {
    Lock lock(apiMutex());
    if (!liveKernel(k)) return CL_INVALID_KERNEL;
    if (k->refs.fetch_sub(1) == 1) {
        cl_program p = k->program;
        unregisterObject(k);
        k->magic = 0;
        delete k;
        --p->attached_kernels;
        releaseProgram(p);
    }
    return CL_SUCCESS;
}

cl_kernel CL_API_CALL CloneKernel(cl_kernel src, cl_int* err) {
    Lock lock(apiMutex());
    if (!liveKernel(src)) {
        if (err) *err = CL_INVALID_KERNEL;
        return nullptr;
    }
    cl_kernel k = newKernel(src->program, src->info);
    k->args = src->args;
    if (err) *err = CL_SUCCESS;
    return k;
}

cl_int setMemArg(KernelArgSlot& slot, const spirv::KernelArgInfo& info, size_t size, const void* value) {
    if (size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
    cl_mem m = value ? *static_cast<const cl_mem*>(value) : nullptr;
    slot.value.kind = info.kind;
    if (m == nullptr) {  // a NULL buffer argument is allowed; the kernel sees a null pointer
        slot.mem = nullptr;
        slot.value.base = nullptr;
        slot.value.size = 0;
        return CL_SUCCESS;
    }
    if (!liveMem(m) || m->type != CL_MEM_OBJECT_BUFFER) return CL_INVALID_MEM_OBJECT;
    slot.mem = m;
    return CL_SUCCESS;
}

cl_int setImageArg(KernelArgSlot& slot, const spirv::KernelArgInfo& info, size_t size, const void* value) {
    if (size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
    if (!value) return CL_INVALID_ARG_VALUE;
    cl_mem m = *static_cast<const cl_mem*>(value);
    if (!liveImage(m)) return CL_INVALID_MEM_OBJECT;
    // The image's type must be the parameter's (an image2d_t parameter takes a 2D image only).
    static const std::pair<const char*, cl_mem_object_type> kTypes[] = {
        {"image1d_t", CL_MEM_OBJECT_IMAGE1D},
        {"image1d_buffer_t", CL_MEM_OBJECT_IMAGE1D_BUFFER},
        {"image1d_array_t", CL_MEM_OBJECT_IMAGE1D_ARRAY},
        {"image2d_t", CL_MEM_OBJECT_IMAGE2D},
        {"image2d_array_t", CL_MEM_OBJECT_IMAGE2D_ARRAY},
        {"image3d_t", CL_MEM_OBJECT_IMAGE3D}};
    for (const auto& [name, type] : kTypes)
        if (info.type_name == name && m->type != type) return CL_INVALID_ARG_VALUE;
    // A read_only image argument cannot take a write-only image, nor write_only a read-only one.
    if ((info.access == 0 && (m->flags & CL_MEM_WRITE_ONLY)) ||
        (info.access == 1 && (m->flags & CL_MEM_READ_ONLY)))
        return CL_INVALID_ARG_VALUE;
    slot.value.kind = info.kind;
    slot.mem = m;
    return CL_SUCCESS;
}

cl_int CL_API_CALL SetKernelArg(cl_kernel k, cl_uint index, size_t size, const void* value) {
    Lock lock(apiMutex());
    if (!liveKernel(k)) return CL_INVALID_KERNEL;
    if (index >= k->args.size()) return CL_INVALID_ARG_INDEX;
    const spirv::KernelArgInfo& info = k->info->args[index];
    KernelArgSlot slot;
    cl_int e = CL_SUCCESS;
    switch (info.kind) {
        case spirv::ArgKind::GlobalBuffer:
        case spirv::ArgKind::ConstantBuffer: e = setMemArg(slot, info, size, value); break;
        case spirv::ArgKind::Image: e = setImageArg(slot, info, size, value); break;
        case spirv::ArgKind::LocalBuffer:
            if (value) return CL_INVALID_ARG_VALUE;
            if (size == 0) return CL_INVALID_ARG_SIZE;
            slot.value.kind = info.kind;
            slot.value.size = size;
            break;
        case spirv::ArgKind::Sampler: {
            if (size != sizeof(cl_sampler)) return CL_INVALID_ARG_SIZE;
            cl_sampler s = value ? *static_cast<const cl_sampler*>(value) : nullptr;
            if (!liveSampler(s)) return CL_INVALID_SAMPLER;
            slot.sampler = s;
            slot.value.kind = info.kind;
            break;
        }
        case spirv::ArgKind::Value:
            if (!value) return CL_INVALID_ARG_VALUE;
            if (size != info.size) return CL_INVALID_ARG_SIZE;
            slot.value.kind = info.kind;
            slot.value.bytes.assign(static_cast<const uint8_t*>(value),
                                    static_cast<const uint8_t*>(value) + size);
            break;
    }
    if (e != CL_SUCCESS) return e;
    slot.set = true;
    k->args[index] = std::move(slot);
    return CL_SUCCESS;
}

std::string kernelAttributes(const spirv::KernelInfo& info) {
    std::string attrs;
    const uint32_t* r = info.reqd_work_group_size;
    if (r[0] || r[1] || r[2])
        attrs = "reqd_work_group_size(" + std::to_string(r[0]) + "," + std::to_string(r[1]) + "," +
                std::to_string(r[2]) + ")";
    if (info.required_sub_group_size)
        attrs += (attrs.empty() ? "" : " ") + std::string("intel_reqd_sub_group_size(") +
                 std::to_string(info.required_sub_group_size) + ")";
    return attrs;
}

cl_int CL_API_CALL GetKernelInfo(cl_kernel k, cl_kernel_info name, size_t size, void* value, size_t* ret) {
    Lock lock(apiMutex());
    if (!liveKernel(k)) return CL_INVALID_KERNEL;
    switch (name) {
        case CL_KERNEL_FUNCTION_NAME: return infoString(size, value, ret, k->info->name);
        case CL_KERNEL_NUM_ARGS: {
            const bool extra = thePlatform()->faults.has("kernel_num_args_plus_one");
            return infoValue<cl_uint>(size, value, ret, cl_uint(k->args.size() + (extra ? 1 : 0)));
        }
        case CL_KERNEL_REFERENCE_COUNT: return infoValue<cl_uint>(size, value, ret, k->refs.load());
        case CL_KERNEL_CONTEXT: return infoValue(size, value, ret, k->program->context);
        case CL_KERNEL_PROGRAM: return infoValue(size, value, ret, k->program);
        case CL_KERNEL_ATTRIBUTES: return infoString(size, value, ret, kernelAttributes(*k->info));
        default: return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL GetKernelArgInfo(cl_kernel k, cl_uint index, cl_kernel_arg_info name, size_t size,
                                    void* value, size_t* ret) {
    Lock lock(apiMutex());
    if (!liveKernel(k)) return CL_INVALID_KERNEL;
    if (index >= k->args.size()) return CL_INVALID_ARG_INDEX;
    const spirv::KernelArgInfo& a = k->info->args[index];
    switch (name) {
        case CL_KERNEL_ARG_ADDRESS_QUALIFIER: {
            cl_kernel_arg_address_qualifier q = CL_KERNEL_ARG_ADDRESS_PRIVATE;
            if (a.kind == spirv::ArgKind::GlobalBuffer || a.kind == spirv::ArgKind::Image)
                q = CL_KERNEL_ARG_ADDRESS_GLOBAL;
            else if (a.kind == spirv::ArgKind::ConstantBuffer)
                q = CL_KERNEL_ARG_ADDRESS_CONSTANT;
            else if (a.kind == spirv::ArgKind::LocalBuffer)
                q = CL_KERNEL_ARG_ADDRESS_LOCAL;
            if (thePlatform()->faults.has("kernel_arg_address_qualifier_private"))
                q = CL_KERNEL_ARG_ADDRESS_PRIVATE;
            return infoValue(size, value, ret, q);
        }
        case CL_KERNEL_ARG_ACCESS_QUALIFIER: {
            cl_kernel_arg_access_qualifier q = CL_KERNEL_ARG_ACCESS_NONE;
            if (a.kind == spirv::ArgKind::Image)
                q = a.access == 0   ? CL_KERNEL_ARG_ACCESS_READ_ONLY
                    : a.access == 1 ? CL_KERNEL_ARG_ACCESS_WRITE_ONLY
                                    : CL_KERNEL_ARG_ACCESS_READ_WRITE;
            return infoValue(size, value, ret, q);
        }
        case CL_KERNEL_ARG_TYPE_NAME:
            if (a.type_name.empty()) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
            return infoString(size, value, ret, a.type_name);
        case CL_KERNEL_ARG_TYPE_QUALIFIER: {
            cl_kernel_arg_type_qualifier q =
                a.kind == spirv::ArgKind::ConstantBuffer ? CL_KERNEL_ARG_TYPE_CONST : CL_KERNEL_ARG_TYPE_NONE;
            return infoValue(size, value, ret, q);
        }
        case CL_KERNEL_ARG_NAME:
            // Names come from OpName in the module; a stripped module has none.
            if (a.name.empty()) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
            return infoString(size, value, ret, a.name);
        default: return CL_INVALID_VALUE;
    }
}

cl_ulong localArgBytes(cl_kernel k) {
    cl_ulong total = 0;
    for (const KernelArgSlot& s : k->args)
        if (s.set && s.value.kind == spirv::ArgKind::LocalBuffer) total += s.value.size;
    return total;
}

cl_int CL_API_CALL GetKernelWorkGroupInfo(cl_kernel k, cl_device_id d, cl_kernel_work_group_info name,
                                          size_t size, void* value, size_t* ret) {
    Lock lock(apiMutex());
    if (!liveKernel(k)) return CL_INVALID_KERNEL;
    if (d != nullptr && !isDevice(d)) return CL_INVALID_DEVICE;
    switch (name) {
        case CL_KERNEL_WORK_GROUP_SIZE: {
            // The device's limit, or the kernel's MaxWorkgroupSizeINTEL (the product of its sizes) when
            // smaller.
            size_t limit = maxWorkGroupSize(*thePlatform()->profile);
            const uint32_t* m = k->info->max_work_group_size;
            if (m[0] && m[1] && m[2]) limit = std::min(limit, size_t(m[0]) * m[1] * m[2]);
            return infoValue<size_t>(size, value, ret, limit);
        }
        case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: {
            std::vector<size_t> v(k->info->reqd_work_group_size, k->info->reqd_work_group_size + 3);
            return infoArray(size, value, ret, v);
        }
        case CL_KERNEL_LOCAL_MEM_SIZE: return infoValue(size, value, ret, localArgBytes(k));
        case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
            return infoValue<size_t>(size, value, ret, kernelSubGroupSize(k));
        case CL_KERNEL_PRIVATE_MEM_SIZE: return infoValue<cl_ulong>(size, value, ret, 0);
        case CL_KERNEL_GLOBAL_WORK_SIZE:
            return CL_INVALID_VALUE;  // only for custom devices and built-in kernels
        default: return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL GetKernelSubGroupInfo(cl_kernel k, cl_device_id d, cl_kernel_sub_group_info name,
                                         size_t input_size, const void* input, size_t size, void* value,
                                         size_t* ret) {
    Lock lock(apiMutex());
    if (!liveKernel(k)) return CL_INVALID_KERNEL;
    if (d != nullptr && !isDevice(d)) return CL_INVALID_DEVICE;
    const size_t sg = kernelSubGroupSize(k);
    auto localLinear = [&](size_t* out) -> cl_int {
        if (!input || input_size == 0 || input_size % sizeof(size_t) || input_size > 3 * sizeof(size_t))
            return CL_INVALID_VALUE;
        const auto* local = static_cast<const size_t*>(input);
        size_t n = 1;
        for (size_t i = 0; i < input_size / sizeof(size_t); ++i) n *= local[i];
        *out = n;
        return CL_SUCCESS;
    };
    switch (name) {
        case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE: {
            size_t n = 0;
            if (cl_int e = localLinear(&n)) return e;
            return infoValue<size_t>(size, value, ret, std::min(sg, n));
        }
        case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
            size_t n = 0;
            if (cl_int e = localLinear(&n)) return e;
            return infoValue<size_t>(size, value, ret, (n + sg - 1) / sg);
        }
        case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: {
            if (!input || input_size != sizeof(size_t)) return CL_INVALID_VALUE;
            size_t count = *static_cast<const size_t*>(input);
            size_t dims = size / sizeof(size_t);
            if (value && (dims == 0 || dims > 3 || size % sizeof(size_t))) return CL_INVALID_VALUE;
            std::vector<size_t> local(value ? dims : 1, 0);
            // A 1D local size of count * sub-group size gives exactly `count` full sub-groups.
            if (count > 0 && count * sg <= maxWorkGroupSize(*thePlatform()->profile)) {
                local.assign(local.size(), 1);
                local[0] = count * sg;
            }
            if (value) std::memcpy(value, local.data(), dims * sizeof(size_t));
            if (ret) *ret = local.size() * sizeof(size_t);
            return CL_SUCCESS;
        }
        case CL_KERNEL_MAX_NUM_SUB_GROUPS:
            return infoValue<size_t>(size, value, ret,
                                     (maxWorkGroupSize(*thePlatform()->profile) + sg - 1) / sg);
        case CL_KERNEL_COMPILE_NUM_SUB_GROUPS: return infoValue<size_t>(size, value, ret, 0);
        case CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL: {
            size_t compiled = k->info->required_sub_group_size;
            // A driver that forgets the SubgroupSize execution mode when answering the query.
            if (thePlatform()->faults.has("compile_sub_group_size_query_zero")) compiled = 0;
            return infoValue<size_t>(size, value, ret, compiled);
        }
        default: return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL SetKernelExecInfo(cl_kernel k, cl_kernel_exec_info, size_t, const void*) {
    Lock lock(apiMutex());
    return liveKernel(k) ? CL_INVALID_VALUE : CL_INVALID_KERNEL;  // no SVM
}

// Coarse-grain buffer SVM (svm.cpp): the argument is the bytes from the pointer to its allocation's end.
cl_int CL_API_CALL SetKernelArgSVMPointer(cl_kernel k, cl_uint index, const void* ptr) {
    Lock lock(apiMutex());
    if (!liveKernel(k)) return CL_INVALID_KERNEL;
    if (index >= k->args.size()) return CL_INVALID_ARG_INDEX;
    const spirv::ArgKind kind = k->info->args[index].kind;
    if (kind != spirv::ArgKind::GlobalBuffer && kind != spirv::ArgKind::ConstantBuffer)
        return CL_INVALID_ARG_INDEX;
    KernelArgSlot slot;
    slot.value.kind = kind;
    if (ptr && !svmRange(ptr, &slot.value.base, &slot.value.size)) return CL_INVALID_ARG_VALUE;
    slot.set = true;
    k->args[index] = std::move(slot);
    return CL_SUCCESS;
}

}  // namespace

size_t kernelSubGroupSize(cl_kernel k) {
    return spirv::subGroupSize(*k->program->module, k->info->name, *thePlatform()->profile);
}

void fillKernelEntries(cl_icd_dispatch& d) {
    d.clCreateKernel = CreateKernel;
    d.clCreateKernelsInProgram = CreateKernelsInProgram;
    d.clRetainKernel = RetainKernel;
    d.clReleaseKernel = ReleaseKernel;
    d.clCloneKernel = CloneKernel;
    d.clSetKernelArg = SetKernelArg;
    d.clGetKernelInfo = GetKernelInfo;
    d.clGetKernelArgInfo = GetKernelArgInfo;
    d.clGetKernelWorkGroupInfo = GetKernelWorkGroupInfo;
    d.clGetKernelSubGroupInfo = GetKernelSubGroupInfo;
    // ocl-icd's clGetKernelSubGroupInfoKHR trampoline calls this slot.
    d.clGetKernelSubGroupInfoKHR = GetKernelSubGroupInfo;
    d.clSetKernelExecInfo = SetKernelExecInfo;
    d.clSetKernelArgSVMPointer = SetKernelArgSVMPointer;
    fillLaunchEntries(d);
}

void* kernelSubGroupInfoEntry() {
    return reinterpret_cast<void*>(&GetKernelSubGroupInfo);
}

}  // namespace refdev::icd
