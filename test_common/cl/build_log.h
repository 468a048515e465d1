// Build logs (a driver's clBuildProgram log, an offline compiler's output) can be any size: a driver or a
// compiler gone wrong writes hundreds of megabytes, and every case of the module copies the log into every
// report. What is kept of one is its head and its tail with the size dropped between them stated, the same
// cap everywhere; CappedLog keeps it while the text is still being read, so memory stays bounded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace cts {

constexpr size_t kBuildLogHeadBytes = 32 * 1024;
constexpr size_t kBuildLogTailBytes = 32 * 1024;
// A line copied into a message (the first error line of a log).
constexpr size_t kMessageLineHeadBytes = 512;
constexpr size_t kMessageLineTailBytes = 256;

class CappedLog {
public:
    explicit CappedLog(size_t head_bytes = kBuildLogHeadBytes, size_t tail_bytes = kBuildLogTailBytes)
        : head_bytes_(head_bytes), tail_bytes_(tail_bytes) {}
    void append(const char* data, size_t bytes);
    void append(const std::string& text) { append(text.data(), text.size()); }
    // The head, "\n[... 199 MB dropped ...]\n" and the tail; the whole text when nothing was dropped.
    std::string text() const;
    uint64_t dropped() const {
        return dropped_ + (tail_.size() > tail_bytes_ ? tail_.size() - tail_bytes_ : 0);
    }

private:
    size_t head_bytes_, tail_bytes_;
    std::string head_, tail_;  // tail_ holds up to twice its share before its front is dropped
    uint64_t dropped_ = 0;
};

// The cap: `text` as CappedLog keeps it.
std::string capText(const std::string& text, size_t head_bytes = kBuildLogHeadBytes,
                    size_t tail_bytes = kBuildLogTailBytes);

// "4096 bytes", "12 KB", "199 MB" (KB and MB of 1024).
std::string sizeText(uint64_t bytes);

}  // namespace cts
