// Registry of live handles, reference counting, events and context messages.
#include <sys/mman.h>

#include <chrono>
#include <cstdio>
#include <thread>
#include <unordered_set>

#include "reference_device/icd/common.h"

namespace refdev::icd {

namespace {

struct Registry {
    std::recursive_mutex mutex;
    std::unordered_set<const void*> live;
};

Registry& registry() {
    static Registry* r = new Registry;  // never destroyed: handles may be released during exit
    return *r;
}

}  // namespace

ObjectBase::ObjectBase(Kind k) : dispatch(dispatchTable()), kind(k) {}

std::recursive_mutex& apiMutex() {
    return registry().mutex;
}

void registerObject(const void* object) {
    Lock lock(apiMutex());
    registry().live.insert(object);
}

void unregisterObject(const void* object) {
    Lock lock(apiMutex());
    registry().live.erase(object);
}

bool isLive(const void* object, Kind kind) {
    if (object == nullptr) return false;
    Lock lock(apiMutex());
    if (registry().live.count(object) == 0) return false;
    const auto* o = static_cast<const ObjectBase*>(object);
    return o->magic == kLiveMagic && o->kind == kind;
}

uint64_t nowNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

cl_int setInfo(size_t value_size, void* value, size_t* size_ret, const void* data, size_t bytes) {
    if (value != nullptr) {
        if (value_size < bytes) return CL_INVALID_VALUE;
        if (bytes) std::memcpy(value, data, bytes);
    }
    if (size_ret) *size_ret = bytes;
    return CL_SUCCESS;
}

void retainObject(ObjectBase* o) {
    o->refs.fetch_add(1);
}

namespace {

template <typename T>
void destroy(T* object) {
    unregisterObject(object);
    object->magic = 0;
    delete object;
}

}  // namespace

void releaseContext(cl_context c) {
    if (c->refs.fetch_sub(1) != 1) return;
    // Destructor callbacks run in reverse order of registration, as for memory objects.
    for (auto it = c->destructor_callbacks.rbegin(); it != c->destructor_callbacks.rend(); ++it)
        it->first(c, it->second);
    destroy(c);
}

void releaseQueue(cl_command_queue q) {
    if (q->refs.fetch_sub(1) != 1) return;
    cl_context c = q->context;
    destroy(q);
    releaseContext(c);
}

void releaseMem(cl_mem m) {
    if (m->refs.fetch_sub(1) != 1) return;
    for (auto it = m->destructor_callbacks.rbegin(); it != m->destructor_callbacks.rend(); ++it)
        it->first(m, it->second);
    if (m->owns_data && m->mapped_bytes)
        munmap(m->data, m->mapped_bytes);
    else if (m->owns_data)
        std::free(m->data);
    cl_mem parent = m->parent, buffer = m->buffer;
    cl_context c = m->context;
    destroy(m);
    if (parent) releaseMem(parent);
    if (buffer) releaseMem(buffer);
    releaseContext(c);
}

void releaseProgram(cl_program p) {
    if (p->refs.fetch_sub(1) != 1) return;
    cl_context c = p->context;
    destroy(p);
    releaseContext(c);
}

void releaseEvent(cl_event e) {
    if (e->refs.fetch_sub(1) != 1) return;
    cl_context c = e->context;
    cl_command_queue q = e->queue;
    destroy(e);
    if (q) releaseQueue(q);
    releaseContext(c);
}

void setEventStatus(cl_event e, cl_int status) {
    e->status = status;
    // Callbacks registered for CL_COMPLETE also fire when the command terminates abnormally.
    auto callbacks = e->callbacks;
    e->callbacks.clear();
    for (auto& [trigger, cb] : callbacks) {
        if (status <= trigger)
            cb.first(e, status, cb.second);
        else
            e->callbacks.push_back({trigger, cb});
    }
}

cl_int checkWaitList(cl_context context, cl_uint count, const cl_event* list) {
    if ((count == 0) != (list == nullptr)) return CL_INVALID_EVENT_WAIT_LIST;
    for (cl_uint i = 0; i < count; ++i) {
        cl_event e = liveEvent(list[i]);
        if (!e) return CL_INVALID_EVENT_WAIT_LIST;
        if (context && e->context != context) return CL_INVALID_CONTEXT;
    }
    for (cl_uint i = 0; i < count; ++i) {
        cl_event e = list[i];
        // Only user events can be incomplete here; another thread may complete them.
        while (e->status > CL_COMPLETE) {
            apiMutex().unlock();
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
            apiMutex().lock();
        }
        if (e->status < 0) return CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
    }
    return CL_SUCCESS;
}

cl_int checkQueue(cl_command_queue q, cl_uint num_events, const cl_event* events) {
    if (!liveQueue(q)) return CL_INVALID_COMMAND_QUEUE;
    return checkWaitList(q->context, num_events, events);
}

void completeCommand(cl_command_queue q, cl_command_type type, uint64_t start_ns, cl_int status,
                     cl_event* event_out) {
    if (!event_out) return;
    auto* e = new _cl_event;
    e->context = q->context;
    e->queue = q;
    retainObject(q->context);
    retainObject(q);
    e->command = type;
    e->t_queued = e->t_submit = e->t_start = start_ns;
    e->t_end = nowNs();
    e->status = status < 0 ? status : CL_COMPLETE;
    registerObject(e);
    *event_out = e;
}

void notifyContext(cl_context c, const std::string& message) {
    std::fprintf(stderr, "refdev: %s\n", message.c_str());
    std::fflush(stderr);
    if (c && c->notify) c->notify(message.c_str(), nullptr, 0, c->notify_data);
}

}  // namespace refdev::icd
