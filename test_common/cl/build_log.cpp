#include "test_common/cl/build_log.h"

#include <algorithm>

namespace cts {

void CappedLog::append(const char* data, size_t bytes) {
    const size_t to_head = std::min(bytes, head_bytes_ - std::min(head_bytes_, head_.size()));
    head_.append(data, to_head);
    data += to_head;
    bytes -= to_head;
    if (bytes == 0) return;
    if (bytes > tail_bytes_) {  // only the last tail_bytes_ of this piece can be kept
        dropped_ += tail_.size() + bytes - tail_bytes_;
        tail_.assign(data + bytes - tail_bytes_, tail_bytes_);
        return;
    }
    tail_.append(data, bytes);
    if (tail_.size() > 2 * tail_bytes_) {
        dropped_ += tail_.size() - tail_bytes_;
        tail_.erase(0, tail_.size() - tail_bytes_);
    }
}

std::string CappedLog::text() const {
    const uint64_t dropped = this->dropped();
    if (dropped == 0) return head_ + tail_;
    return head_ + "\n[... " + sizeText(dropped) + " dropped ...]\n" +
           tail_.substr(tail_.size() - std::min(tail_.size(), tail_bytes_));
}

std::string capText(const std::string& text, size_t head_bytes, size_t tail_bytes) {
    if (text.size() <= head_bytes + tail_bytes) return text;
    CappedLog log(head_bytes, tail_bytes);
    log.append(text);
    return log.text();
}

std::string sizeText(uint64_t bytes) {
    if (bytes < 10 * 1024) return std::to_string(bytes) + " bytes";
    if (bytes < 10 * 1024 * 1024) return std::to_string(bytes / 1024) + " KB";
    return std::to_string(bytes / (1024 * 1024)) + " MB";
}

}  // namespace cts
