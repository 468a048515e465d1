// Helpers shared by the ICD's entry points: info-query answers, handle lookup, events, context messages.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "reference_device/icd/objects.h"

namespace refdev::icd {

using Lock = std::lock_guard<std::recursive_mutex>;

// Writes an info answer with the clGet*Info rules: value may be null (size query only); a non-null value
// smaller than the answer is CL_INVALID_VALUE.
cl_int setInfo(size_t value_size, void* value, size_t* size_ret, const void* data, size_t bytes);

template <typename T>
cl_int infoValue(size_t value_size, void* value, size_t* size_ret, const T& v) {
    return setInfo(value_size, value, size_ret, &v, sizeof(T));
}
inline cl_int infoString(size_t value_size, void* value, size_t* size_ret, const std::string& s) {
    return setInfo(value_size, value, size_ret, s.c_str(), s.size() + 1);
}
template <typename T>
cl_int infoArray(size_t value_size, void* value, size_t* size_ret, const std::vector<T>& v) {
    return setInfo(value_size, value, size_ret, v.data(), v.size() * sizeof(T));
}

template <typename Handle>
auto* live(Handle h, Kind kind) {
    using Object = std::remove_pointer_t<Handle>;
    return isLive(h, kind) ? static_cast<Object*>(h) : nullptr;
}
inline cl_context liveContext(cl_context c) {
    return live(c, Kind::Context);
}
inline cl_command_queue liveQueue(cl_command_queue q) {
    return live(q, Kind::Queue);
}
inline cl_mem liveMem(cl_mem m) {
    return live(m, Kind::Mem);
}
inline cl_program liveProgram(cl_program p) {
    return live(p, Kind::Program);
}
inline cl_kernel liveKernel(cl_kernel k) {
    return live(k, Kind::Kernel);
}
inline cl_event liveEvent(cl_event e) {
    return live(e, Kind::Event);
}
inline cl_sampler liveSampler(cl_sampler s) {
    return live(s, Kind::Sampler);
}

// The one platform and its device (null when platform initialisation refused: bad REFDEV_* variable).
cl_platform_id thePlatform();
cl_device_id theDevice();
// A live memory object of one of the six image types.
inline bool isImageType(cl_mem_object_type t) {
    return t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
           t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D ||
           t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D;
}
inline cl_mem liveImage(cl_mem m) {
    return liveMem(m) && isImageType(m->type) ? m : nullptr;
}

inline bool isDevice(cl_device_id d) {
    return d != nullptr && d == theDevice();
}

// Reference counting shared by the API and internal owners (a queue holds its context, and so on).
void retainObject(ObjectBase* o);
void releaseContext(cl_context c);
void releaseQueue(cl_command_queue q);
void releaseMem(cl_mem m);
void releaseProgram(cl_program p);
void releaseEvent(cl_event e);

// Checks an event wait list: CL_INVALID_EVENT_WAIT_LIST for bad lists or handles, CL_INVALID_CONTEXT for
// events of another context, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if one of them failed. Commands run
// at enqueue, so a user event that is not complete yet is waited for here.
cl_int checkWaitList(cl_context context, cl_uint count, const cl_event* list);

// Records a command that ran at enqueue time: creates the event when the caller asked for one.
void completeCommand(cl_command_queue q, cl_command_type type, uint64_t start_ns, cl_int status,
                     cl_event* event_out);
void setEventStatus(cl_event e, cl_int status);

// Sends a message to the context's pfn_notify (when set) and to stderr.
void notifyContext(cl_context c, const std::string& message);

// Common checks for an enqueue on `q`: a live queue and a valid wait list.
cl_int checkQueue(cl_command_queue q, cl_uint num_events, const cl_event* events);

// Per-file entry-point registration into the dispatch table.
void fillPlatformEntries(cl_icd_dispatch& d);
void fillContextEntries(cl_icd_dispatch& d);
void fillMemoryEntries(cl_icd_dispatch& d);
void fillTransferEntries(cl_icd_dispatch& d);
void fillImageTransferEntries(cl_icd_dispatch& d);
void fillProgramEntries(cl_icd_dispatch& d);
void fillKernelEntries(cl_icd_dispatch& d);

// Extension entry points looked up through clGetExtensionFunctionAddress.
void* extensionFunction(const char* name);

}  // namespace refdev::icd
