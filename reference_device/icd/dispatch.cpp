// The dispatch table every object points at, the entry points for optional features the device does not
// have (they answer with the error code the spec gives for a device without the feature), and the
// extension-function lookup.
#include "reference_device/icd/common.h"
#include "reference_device/icd/svm.h"

namespace refdev::icd {

void* programWithILEntry();
void* kernelSubGroupInfoEntry();

namespace {

// Pipes, device queues and host timers are optional in OpenCL 3.0 and not reported (SVM: svm.cpp).
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
    fillSvmEntries(d);
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
