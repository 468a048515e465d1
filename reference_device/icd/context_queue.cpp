// Contexts, in-order command queues and events. Commands execute at enqueue, so a queue never holds pending
// work: clFlush/clFinish only validate, and every command's event is complete (or failed) when returned.
#include <thread>

#include "reference_device/icd/common.h"

namespace refdev::icd {

namespace {

using NotifyFn = void(CL_CALLBACK*)(const char*, const void*, size_t, void*);

// Checks context properties; only CL_CONTEXT_PLATFORM (and CL_CONTEXT_INTEROP_USER_SYNC) are known.
cl_int checkContextProperties(const cl_context_properties* props, std::vector<cl_context_properties>* out) {
    out->clear();
    if (!props) return CL_SUCCESS;
    bool seen_platform = false, seen_sync = false;
    for (size_t i = 0; props[i] != 0; i += 2) {
        if (props[i] == CL_CONTEXT_PLATFORM) {
            if (seen_platform) return CL_INVALID_PROPERTY;
            seen_platform = true;
            if (reinterpret_cast<cl_platform_id>(props[i + 1]) != thePlatform()) return CL_INVALID_PLATFORM;
        } else if (props[i] == CL_CONTEXT_INTEROP_USER_SYNC) {
            if (seen_sync) return CL_INVALID_PROPERTY;
            seen_sync = true;
        } else {
            return CL_INVALID_PROPERTY;
        }
        out->push_back(props[i]);
        out->push_back(props[i + 1]);
    }
    out->push_back(0);
    return CL_SUCCESS;
}

cl_context makeContext(const cl_context_properties* props, NotifyFn notify, void* user_data, cl_int* err) {
    auto fail = [&](cl_int e) {
        if (err) *err = e;
        return cl_context(nullptr);
    };
    if (!notify && user_data) return fail(CL_INVALID_VALUE);
    std::vector<cl_context_properties> copy;
    if (cl_int e = checkContextProperties(props, &copy)) return fail(e);
    auto* c = new _cl_context;
    c->device = theDevice();
    c->properties = std::move(copy);
    c->notify = notify;
    c->notify_data = user_data;
    registerObject(c);
    if (err) *err = CL_SUCCESS;
    return c;
}

cl_context CL_API_CALL CreateContext(const cl_context_properties* props, cl_uint num_devices,
                                     const cl_device_id* devices, NotifyFn notify, void* user_data,
                                     cl_int* err) {
    Lock lock(apiMutex());
    if (num_devices == 0 || devices == nullptr) {
        if (err) *err = CL_INVALID_VALUE;
        return nullptr;
    }
    for (cl_uint i = 0; i < num_devices; ++i)
        if (!isDevice(devices[i])) {
            if (err) *err = CL_INVALID_DEVICE;
            return nullptr;
        }
    return makeContext(props, notify, user_data, err);
}

cl_context CL_API_CALL CreateContextFromType(const cl_context_properties* props, cl_device_type type,
                                             NotifyFn notify, void* user_data, cl_int* err) {
    Lock lock(apiMutex());
    if (type != CL_DEVICE_TYPE_ALL && !(type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT))) {
        if (err) *err = CL_DEVICE_NOT_FOUND;
        return nullptr;
    }
    return makeContext(props, notify, user_data, err);
}

cl_int CL_API_CALL RetainContext(cl_context c) {
    Lock lock(apiMutex());
    if (!liveContext(c)) return CL_INVALID_CONTEXT;
    retainObject(c);
    return CL_SUCCESS;
}

cl_int CL_API_CALL ReleaseContext(cl_context c) {
    Lock lock(apiMutex());
    if (!liveContext(c)) return CL_INVALID_CONTEXT;
    releaseContext(c);
    return CL_SUCCESS;
}

cl_int CL_API_CALL GetContextInfo(cl_context c, cl_context_info name, size_t size, void* value, size_t* ret) {
    Lock lock(apiMutex());
    if (!liveContext(c)) return CL_INVALID_CONTEXT;
    switch (name) {
        case CL_CONTEXT_REFERENCE_COUNT: return infoValue<cl_uint>(size, value, ret, c->refs.load());
        case CL_CONTEXT_NUM_DEVICES: return infoValue<cl_uint>(size, value, ret, 1);
        case CL_CONTEXT_DEVICES: return infoValue(size, value, ret, c->device);
        case CL_CONTEXT_PROPERTIES: return infoArray(size, value, ret, c->properties);
        default: return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL SetContextDestructorCallback(cl_context c, void(CL_CALLBACK* fn)(cl_context, void*),
                                                void* data) {
    Lock lock(apiMutex());
    if (!liveContext(c)) return CL_INVALID_CONTEXT;
    if (!fn) return CL_INVALID_VALUE;
    c->destructor_callbacks.push_back({fn, data});
    return CL_SUCCESS;
}

cl_command_queue makeQueue(cl_context c, cl_device_id d, cl_command_queue_properties props,
                           std::vector<cl_queue_properties> list, cl_int* err) {
    auto fail = [&](cl_int e) {
        if (err) *err = e;
        return cl_command_queue(nullptr);
    };
    if (!liveContext(c)) return fail(CL_INVALID_CONTEXT);
    if (!isDevice(d)) return fail(CL_INVALID_DEVICE);
    const cl_command_queue_properties known = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                              CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_ON_DEVICE |
                                              CL_QUEUE_ON_DEVICE_DEFAULT;
    if (props & ~known) return fail(CL_INVALID_VALUE);
    // Only in-order host queues: out-of-order execution and device queues are not reported.
    if (props & (CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT))
        return fail(CL_INVALID_QUEUE_PROPERTIES);
    auto* q = new _cl_command_queue;
    q->context = c;
    q->device = d;
    q->properties = props;
    q->property_list = std::move(list);
    retainObject(c);
    registerObject(q);
    if (err) *err = CL_SUCCESS;
    return q;
}

cl_command_queue CL_API_CALL CreateCommandQueue(cl_context c, cl_device_id d,
                                                cl_command_queue_properties props, cl_int* err) {
    Lock lock(apiMutex());
    return makeQueue(c, d, props, {}, err);
}

cl_command_queue CL_API_CALL CreateCommandQueueWithProperties(cl_context c, cl_device_id d,
                                                              const cl_queue_properties* props, cl_int* err) {
    Lock lock(apiMutex());
    cl_command_queue_properties bits = 0;
    std::vector<cl_queue_properties> list;
    if (props) {
        for (size_t i = 0; props[i] != 0; i += 2) {
            if (props[i] == CL_QUEUE_PROPERTIES)
                bits = props[i + 1];
            else if (props[i] == CL_QUEUE_SIZE) {
                if (err) *err = CL_INVALID_QUEUE_PROPERTIES;
                return nullptr;
            } else {
                if (err) *err = CL_INVALID_VALUE;
                return nullptr;
            }
            list.push_back(props[i]);
            list.push_back(props[i + 1]);
        }
        list.push_back(0);
    }
    return makeQueue(c, d, bits, std::move(list), err);
}

cl_int CL_API_CALL RetainCommandQueue(cl_command_queue q) {
    Lock lock(apiMutex());
    if (!liveQueue(q)) return CL_INVALID_COMMAND_QUEUE;
    retainObject(q);
    return CL_SUCCESS;
}

cl_int CL_API_CALL ReleaseCommandQueue(cl_command_queue q) {
    Lock lock(apiMutex());
    if (!liveQueue(q)) return CL_INVALID_COMMAND_QUEUE;
    releaseQueue(q);
    return CL_SUCCESS;
}

cl_int CL_API_CALL GetCommandQueueInfo(cl_command_queue q, cl_command_queue_info name, size_t size,
                                       void* value, size_t* ret) {
    Lock lock(apiMutex());
    if (!liveQueue(q)) return CL_INVALID_COMMAND_QUEUE;
    switch (name) {
        case CL_QUEUE_CONTEXT: return infoValue(size, value, ret, q->context);
        case CL_QUEUE_DEVICE: return infoValue(size, value, ret, q->device);
        case CL_QUEUE_REFERENCE_COUNT: return infoValue<cl_uint>(size, value, ret, q->refs.load());
        case CL_QUEUE_PROPERTIES: return infoValue(size, value, ret, q->properties);
        case CL_QUEUE_PROPERTIES_ARRAY: return infoArray(size, value, ret, q->property_list);
        case CL_QUEUE_SIZE: return CL_INVALID_COMMAND_QUEUE;  // not a device queue
        case CL_QUEUE_DEVICE_DEFAULT: return infoValue<cl_command_queue>(size, value, ret, nullptr);
        default: return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL SetCommandQueueProperty(cl_command_queue, cl_command_queue_properties, cl_bool,
                                           cl_command_queue_properties*) {
    return CL_INVALID_OPERATION;
}

cl_int CL_API_CALL Flush(cl_command_queue q) {
    Lock lock(apiMutex());
    return liveQueue(q) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

cl_int CL_API_CALL Finish(cl_command_queue q) {
    Lock lock(apiMutex());
    return liveQueue(q) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

cl_int CL_API_CALL EnqueueMarkerWithWaitList(cl_command_queue q, cl_uint n, const cl_event* list,
                                             cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    completeCommand(q, CL_COMMAND_MARKER, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

cl_int CL_API_CALL EnqueueBarrierWithWaitList(cl_command_queue q, cl_uint n, const cl_event* list,
                                              cl_event* ev) {
    Lock lock(apiMutex());
    uint64_t start = nowNs();
    if (cl_int e = checkQueue(q, n, list)) return e;
    completeCommand(q, CL_COMMAND_BARRIER, start, CL_SUCCESS, ev);
    return CL_SUCCESS;
}

cl_int CL_API_CALL EnqueueMarker(cl_command_queue q, cl_event* ev) {
    if (!ev) return CL_INVALID_VALUE;
    return EnqueueMarkerWithWaitList(q, 0, nullptr, ev);
}
cl_int CL_API_CALL EnqueueBarrier(cl_command_queue q) {
    return EnqueueBarrierWithWaitList(q, 0, nullptr, nullptr);
}
cl_int CL_API_CALL EnqueueWaitForEvents(cl_command_queue q, cl_uint n, const cl_event* list) {
    Lock lock(apiMutex());
    if (n == 0 || !list) return CL_INVALID_VALUE;
    return checkQueue(q, n, list);
}

// --- events ---

cl_int CL_API_CALL WaitForEvents(cl_uint n, const cl_event* list) {
    Lock lock(apiMutex());
    if (n == 0 || !list) return CL_INVALID_VALUE;
    cl_context c = liveEvent(list[0]) ? list[0]->context : nullptr;
    if (!c) return CL_INVALID_EVENT;
    for (cl_uint i = 0; i < n; ++i) {
        if (!liveEvent(list[i])) return CL_INVALID_EVENT;
        if (list[i]->context != c) return CL_INVALID_CONTEXT;
    }
    cl_int e = checkWaitList(c, n, list);
    return e == CL_INVALID_EVENT_WAIT_LIST ? CL_INVALID_EVENT : e;
}

cl_int CL_API_CALL GetEventInfo(cl_event e, cl_event_info name, size_t size, void* value, size_t* ret) {
    Lock lock(apiMutex());
    if (!liveEvent(e)) return CL_INVALID_EVENT;
    switch (name) {
        case CL_EVENT_COMMAND_QUEUE: return infoValue(size, value, ret, e->queue);
        case CL_EVENT_CONTEXT: return infoValue(size, value, ret, e->context);
        case CL_EVENT_COMMAND_TYPE: return infoValue(size, value, ret, e->command);
        case CL_EVENT_COMMAND_EXECUTION_STATUS: return infoValue(size, value, ret, e->status);
        case CL_EVENT_REFERENCE_COUNT: return infoValue<cl_uint>(size, value, ret, e->refs.load());
        default: return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL GetEventProfilingInfo(cl_event e, cl_profiling_info name, size_t size, void* value,
                                         size_t* ret) {
    Lock lock(apiMutex());
    if (!liveEvent(e)) return CL_INVALID_EVENT;
    if (!e->queue || !(e->queue->properties & CL_QUEUE_PROFILING_ENABLE) || e->status != CL_COMPLETE)
        return CL_PROFILING_INFO_NOT_AVAILABLE;
    switch (name) {
        case CL_PROFILING_COMMAND_QUEUED: return infoValue(size, value, ret, e->t_queued);
        case CL_PROFILING_COMMAND_SUBMIT: return infoValue(size, value, ret, e->t_submit);
        case CL_PROFILING_COMMAND_START: return infoValue(size, value, ret, e->t_start);
        case CL_PROFILING_COMMAND_END:
        case CL_PROFILING_COMMAND_COMPLETE: return infoValue(size, value, ret, e->t_end);
        default: return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL RetainEvent(cl_event e) {
    Lock lock(apiMutex());
    if (!liveEvent(e)) return CL_INVALID_EVENT;
    retainObject(e);
    return CL_SUCCESS;
}

cl_int CL_API_CALL ReleaseEvent(cl_event e) {
    Lock lock(apiMutex());
    if (!liveEvent(e)) return CL_INVALID_EVENT;
    releaseEvent(e);
    return CL_SUCCESS;
}

cl_event CL_API_CALL CreateUserEvent(cl_context c, cl_int* err) {
    Lock lock(apiMutex());
    if (!liveContext(c)) {
        if (err) *err = CL_INVALID_CONTEXT;
        return nullptr;
    }
    auto* e = new _cl_event;
    e->context = c;
    retainObject(c);
    e->command = CL_COMMAND_USER;
    e->status = CL_SUBMITTED;
    registerObject(e);
    if (err) *err = CL_SUCCESS;
    return e;
}

cl_int CL_API_CALL SetUserEventStatus(cl_event e, cl_int status) {
    Lock lock(apiMutex());
    if (!liveEvent(e) || e->command != CL_COMMAND_USER) return CL_INVALID_EVENT;
    if (status > CL_COMPLETE) return CL_INVALID_VALUE;
    if (e->status <= CL_COMPLETE) return CL_INVALID_OPERATION;  // already set
    setEventStatus(e, status);
    return CL_SUCCESS;
}

cl_int CL_API_CALL SetEventCallback(cl_event e, cl_int type, void(CL_CALLBACK* fn)(cl_event, cl_int, void*),
                                    void* data) {
    Lock lock(apiMutex());
    if (!liveEvent(e)) return CL_INVALID_EVENT;
    if (!fn || (type != CL_SUBMITTED && type != CL_RUNNING && type != CL_COMPLETE)) return CL_INVALID_VALUE;
    if (e->status <= type)
        fn(e, e->status, data);  // already reached: call now
    else
        e->callbacks.push_back({type, {fn, data}});
    return CL_SUCCESS;
}

}  // namespace

void fillContextEntries(cl_icd_dispatch& d) {
    d.clCreateContext = CreateContext;
    d.clCreateContextFromType = CreateContextFromType;
    d.clRetainContext = RetainContext;
    d.clReleaseContext = ReleaseContext;
    d.clGetContextInfo = GetContextInfo;
    d.clSetContextDestructorCallback = SetContextDestructorCallback;
    d.clCreateCommandQueue = CreateCommandQueue;
    d.clCreateCommandQueueWithProperties = CreateCommandQueueWithProperties;
    d.clRetainCommandQueue = RetainCommandQueue;
    d.clReleaseCommandQueue = ReleaseCommandQueue;
    d.clGetCommandQueueInfo = GetCommandQueueInfo;
    d.clSetCommandQueueProperty = SetCommandQueueProperty;
    d.clFlush = Flush;
    d.clFinish = Finish;
    d.clEnqueueMarker = EnqueueMarker;
    d.clEnqueueBarrier = EnqueueBarrier;
    d.clEnqueueWaitForEvents = EnqueueWaitForEvents;
    d.clEnqueueMarkerWithWaitList = EnqueueMarkerWithWaitList;
    d.clEnqueueBarrierWithWaitList = EnqueueBarrierWithWaitList;
    d.clWaitForEvents = WaitForEvents;
    d.clGetEventInfo = GetEventInfo;
    d.clGetEventProfilingInfo = GetEventProfilingInfo;
    d.clRetainEvent = RetainEvent;
    d.clReleaseEvent = ReleaseEvent;
    d.clCreateUserEvent = CreateUserEvent;
    d.clSetUserEventStatus = SetUserEventStatus;
    d.clSetEventCallback = SetEventCallback;
}

}  // namespace refdev::icd
