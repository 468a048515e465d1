#include "test_conformance/workloads/common.h"

#include <cmath>
#include <cstdio>

namespace cts::workloads {

uint32_t loadBits(const uint8_t* p, unsigned bytes) {
    uint32_t v = 0;
    for (unsigned i = 0; i < bytes; ++i) v |= uint32_t(p[i]) << (8 * i);
    return v;
}

void storeBits(uint8_t* p, uint32_t bits, unsigned bytes) {
    for (unsigned i = 0; i < bytes; ++i) p[i] = uint8_t(bits >> (8 * i));
}

void checkElement(const FormatInfo& f, const GemmExpectation& want, uint32_t m, uint32_t n, uint32_t i,
                  uint32_t j, uint32_t actual_bits, MismatchLog& log) {
    const size_t at = size_t(i) * n + j;
    log.checked();
    if (accepts(f, want.value[at], want.bound[at], actual_bits)) return;
    const GridShape grid{"D = A * B (" + std::to_string(m) + " x " + std::to_string(n) + ")", m, n};
    char text[192];
    if (f.integer) {
        std::snprintf(text, sizeof text, "D row %u column %u", i, j);
        log.add(text, uint32_t(int32_t(want.value[at])), actual_bits, 4);
        log.mark(grid, i, j, uint32_t(int32_t(want.value[at])), actual_bits, 4);
        return;
    }
    // A float D is a value within a bound, not one bit pattern: the cell says so.
    char expected[96];
    std::snprintf(expected, sizeof expected, "%a within %a", want.value[at], want.bound[at]);
    log.mark(grid, i, j, expected, hexValue(actual_bits, f.accumulator_bytes));
    std::snprintf(text, sizeof text, "D row %u column %u: expected %a within %a, actual 0x%0*x (%a)", i, j,
                  want.value[at], want.bound[at], int(2 * f.accumulator_bytes), actual_bits,
                  decodeAccumulator(f, actual_bits));
    log.addLine(text);
}

uint32_t launchSubGroups(uint32_t tiles, uint32_t sub_groups_per_work_group) {
    return (tiles + sub_groups_per_work_group - 1) / sub_groups_per_work_group * sub_groups_per_work_group;
}

}  // namespace cts::workloads
