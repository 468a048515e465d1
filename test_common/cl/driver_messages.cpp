#include "test_common/cl/driver_messages.h"

namespace cts {

void DriverMessages::add(const char* message) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!text_.empty()) text_ += "\n";
    text_ += message ? message : "(null driver message)";
}

std::string DriverMessages::take() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::string out;
    out.swap(text_);
    return out;
}

void CL_CALLBACK DriverMessages::notify(const char* errinfo, const void*, size_t, void* user_data) {
    if (user_data) static_cast<DriverMessages*>(user_data)->add(errinfo);
}

}  // namespace cts
