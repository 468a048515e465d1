#include "test_common/harness/model/mismatch_picture.h"

#include <cstdio>

namespace cts {

std::string hexValue(uint64_t value, unsigned bytes) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%0*llx", static_cast<int>(bytes * 2),
                  static_cast<unsigned long long>(value));
    return buf;
}

void MismatchPicture::mark(const GridShape& shape, uint32_t row, uint32_t col, uint64_t expected,
                           uint64_t actual, unsigned bytes) {
    mark(shape, row, col, hexValue(expected, bytes), hexValue(actual, bytes));
}

void MismatchPicture::mark(const GridShape& shape, uint32_t row, uint32_t col, std::string expected,
                           std::string actual) {
    MismatchGrid* grid = nullptr;
    for (MismatchGrid& g : grids)
        if (g.shape.title == shape.title) grid = &g;
    if (!grid) {
        if (grids.size() >= kMaxGrids) {
            ++omitted_cells;
            return;
        }
        grids.push_back({shape, 0, {}, {}});
        grid = &grids.back();
    }
    ++grid->count;
    if (grid->marked.size() < kMaxMarked) grid->marked.insert(uint64_t(row) * shape.cols + col);
    if (grid->cells.size() < kMaxCells)
        grid->cells.push_back({row, col, std::move(expected), std::move(actual)});
}

}  // namespace cts
