// Collects verification mismatches: keeps the first 10 in full, counts the rest.
// A report line names where (work-group, sub-group, lane, component/row/column), expected and actual in hex,
// floats also as %a, and the spec rule being checked. mark() also records the mismatch as a cell of a grid
// (block, matrix, lanes x components) for the HTML summary; families call both.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "test_common/harness/model/case.h"

namespace cts {

class MismatchLog {
public:
    explicit MismatchLog(std::string rule = "") : rule_(std::move(rule)) {}

    void setRule(std::string rule) { rule_ = std::move(rule); }

    // Integer or raw bit pattern comparison: bytes = 1, 2, 4 or 8.
    void add(const std::string& where, uint64_t expected, uint64_t actual, unsigned bytes) {
        char buf[128];
        int digits = static_cast<int>(bytes * 2);
        std::snprintf(buf, sizeof buf, "expected 0x%0*llx actual 0x%0*llx", digits,
                      static_cast<unsigned long long>(expected), digits,
                      static_cast<unsigned long long>(actual));
        addLine(where + ": " + buf);
    }
    void addFloat(const std::string& where, double expected, double actual, uint64_t expected_bits,
                  uint64_t actual_bits, unsigned bytes) {
        char buf[256];
        int digits = static_cast<int>(bytes * 2);
        std::snprintf(buf, sizeof buf, "expected 0x%0*llx (%a) actual 0x%0*llx (%a)", digits,
                      static_cast<unsigned long long>(expected_bits), expected, digits,
                      static_cast<unsigned long long>(actual_bits), actual);
        addLine(where + ": " + buf);
    }
    void addLine(const std::string& line) {
        if (count_ < kKeep) text_ += (text_.empty() ? "" : "\n") + line;
        ++count_;
    }
    void mark(const GridShape& grid, uint32_t row, uint32_t col, uint64_t expected, uint64_t actual,
              unsigned bytes) {
        picture_.mark(grid, row, col, expected, actual, bytes);
    }
    void mark(const GridShape& grid, uint32_t row, uint32_t col, std::string expected, std::string actual) {
        picture_.mark(grid, row, col, std::move(expected), std::move(actual));
    }
    void skipped(uint64_t n = 1) { skipped_ += n; }  // undefined values the checker did not compare
    void checked(uint64_t n = 1) { checked_ += n; }  // values compared

    uint64_t count() const { return count_; }
    uint64_t checkedCount() const { return checked_; }
    bool ok() const { return count_ == 0; }

    // Fail when any mismatch was logged, or when nothing at all was compared (a check that compared
    // nothing proves nothing).
    Outcome outcome() const {
        if (count_ == 0 && checked_ == 0) return Outcome::internalError("verification compared no value");
        if (count_ == 0) return Outcome::pass();
        std::string msg =
            std::to_string(count_) + " mismatch(es) of " + std::to_string(checked_) + " checked values";
        if (!rule_.empty()) msg += " [" + rule_ + "]";
        msg += "\n" + text_;
        if (count_ > kKeep) msg += "\n... and " + std::to_string(count_ - kKeep) + " more";
        Outcome out = Outcome::fail(msg);
        out.picture = picture_;
        return out;
    }

private:
    static constexpr uint64_t kKeep = 10;
    std::string rule_;
    std::string text_;
    MismatchPicture picture_;
    uint64_t count_ = 0, checked_ = 0, skipped_ = 0;
};

}  // namespace cts
