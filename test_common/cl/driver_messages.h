// Collects the messages a driver sends to a context's notify callback (clCreateContext pfn_notify).
// Drivers may call the callback from any thread, so the sink is thread-safe; the runner owns one per
// context and hands it to cases through RunContext::driver_messages.
#pragma once

#include <cstddef>
#include <mutex>
#include <string>

#include <CL/cl.h>

namespace cts {

class DriverMessages {
public:
    void add(const char* message);
    std::string take();  // everything since the last take(), one message per line; then cleared

    // Pass as pfn_notify with `this` as user_data.
    static void CL_CALLBACK notify(const char* errinfo, const void* private_info, size_t cb, void* user_data);

private:
    std::mutex mutex_;
    std::string text_;
};

}  // namespace cts
