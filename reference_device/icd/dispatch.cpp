// The dispatch table every object points at, the entry points for optional features the device does not
// have (they answer with the error code the spec gives for a device without the feature), and the
// extension-function lookup.
#include "reference_device/icd/common.h"

namespace refdev::icd {

void* programWithILEntry();
void* kernelSubGroupInfoEntry();

namespace {

// Shared virtual memory, pipes, device queues and host timers are optional in OpenCL 3.0 and not reported.
void* CL_API_CALL SVMAlloc(cl_context, cl_svm_mem_flags, size_t, cl_uint) {
    return nullptr;
}
void CL_API_CALL SVMFree(cl_context, void*) {}
cl_int CL_API_CALL EnqueueSVMFree(cl_command_queue, cl_uint, void**,
                                  void(CL_CALLBACK*)(cl_command_queue, cl_uint, void**, void*), void*,
                                  cl_uint, const cl_event*, cl_event*) {
    return CL_INVALID_OPERATION;
}
cl_int CL_API_CALL EnqueueSVMMemcpy(cl_command_queue, cl_bool, void*, const void*, size_t, cl_uint,
                                    const cl_event*, cl_event*) {
    return CL_INVALID_OPERATION;
}
cl_int CL_API_CALL EnqueueSVMMemFill(cl_command_queue, void*, const void*, size_t, size_t, cl_uint,
                                     const cl_event*, cl_event*) {
    return CL_INVALID_OPERATION;
}
cl_int CL_API_CALL EnqueueSVMMap(cl_command_queue, cl_bool, cl_map_flags, void*, size_t, cl_uint,
                                 const cl_event*, cl_event*) {
    return CL_INVALID_OPERATION;
}
cl_int CL_API_CALL EnqueueSVMUnmap(cl_command_queue, void*, cl_uint, const cl_event*, cl_event*) {
    return CL_INVALID_OPERATION;
}
cl_int CL_API_CALL EnqueueSVMMigrateMem(cl_command_queue, cl_uint, const void**, const size_t*,
                                        cl_mem_migration_flags, cl_uint, const cl_event*, cl_event*) {
    return CL_INVALID_OPERATION;
}
cl_mem CL_API_CALL CreatePipe(cl_context, cl_mem_flags, cl_uint, cl_uint, const cl_pipe_properties*,
                              cl_int* err) {
    if (err) *err = CL_INVALID_OPERATION;
    return nullptr;
}
cl_int CL_API_CALL GetPipeInfo(cl_mem, cl_pipe_info, size_t, void*, size_t*) {
    return CL_INVALID_MEM_OBJECT;
}
cl_int CL_API_CALL SetDefaultDeviceCommandQueue(cl_context, cl_device_id, cl_command_queue) {
    return CL_INVALID_OPERATION;
}
cl_int CL_API_CALL GetDeviceAndHostTimer(cl_device_id, cl_ulong*, cl_ulong*) {
    return CL_INVALID_OPERATION;
}
cl_int CL_API_CALL GetHostTimer(cl_device_id, cl_ulong*) {
    return CL_INVALID_OPERATION;
}

cl_icd_dispatch makeTable() {
    cl_icd_dispatch d{};
    fillPlatformEntries(d);
    fillContextEntries(d);
    fillMemoryEntries(d);
    fillTransferEntries(d);
    fillImageTransferEntries(d);
    fillProgramEntries(d);
    fillKernelEntries(d);
    d.clSVMAlloc = SVMAlloc;
    d.clSVMFree = SVMFree;
    d.clEnqueueSVMFree = EnqueueSVMFree;
    d.clEnqueueSVMMemcpy = EnqueueSVMMemcpy;
    d.clEnqueueSVMMemFill = EnqueueSVMMemFill;
    d.clEnqueueSVMMap = EnqueueSVMMap;
    d.clEnqueueSVMUnmap = EnqueueSVMUnmap;
    d.clEnqueueSVMMigrateMem = EnqueueSVMMigrateMem;
    d.clCreatePipe = CreatePipe;
    d.clGetPipeInfo = GetPipeInfo;
    d.clSetDefaultDeviceCommandQueue = SetDefaultDeviceCommandQueue;
    d.clGetDeviceAndHostTimer = GetDeviceAndHostTimer;
    d.clGetHostTimer = GetHostTimer;
    return d;
}

}  // namespace

const cl_icd_dispatch* dispatchTable() {
    static const cl_icd_dispatch table = makeTable();
    return &table;
}

void* extensionFunction(const char* name) {
    const std::string n = name;
    // cl_khr_il_program and cl_khr_subgroups name their entry points with a KHR suffix.
    if (n == "clCreateProgramWithILKHR") return programWithILEntry();
    if (n == "clGetKernelSubGroupInfoKHR") return kernelSubGroupInfoEntry();
    return nullptr;
}

}  // namespace refdev::icd
