// The structured half of a mismatch report: where in a block, matrix or sub-group the wrong values are, so
// the HTML summary can draw each as a grid with the mismatching cells marked. Bounded (kMaxGrids grids per
// case, kMaxCells kept cells per grid, the rest only counted) so a report of a thousand failing cases stays
// small.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace cts {

// Which grid a cell belongs to; a grid is identified by its title.
struct GridShape {
    std::string title;  // "work-group 0 sub-group 1: D (M x N)"
    uint32_t rows = 0, cols = 0;
    std::string row_axis = "row", col_axis = "column";  // e.g. "lane" / "component"
};

struct MismatchCell {
    uint32_t row = 0, col = 0;
    std::string expected, actual;  // "0x00a5": hex, as wide as the element (or a float expectation's text)
};

struct MismatchGrid {
    GridShape shape;
    uint64_t count = 0;               // mismatching cells, including the ones not kept
    std::vector<MismatchCell> cells;  // the first kMaxCells, with their values
    std::set<uint64_t> marked;        // row * cols + col of the first kMaxMarked cells: the picture's shape
};

struct MismatchPicture {
    static constexpr size_t kMaxGrids = 4;
    // Values cost ~100 bytes a cell in the report, positions a few: a whole wrong 16 x 16 block is drawn
    // (kMaxMarked) while only its first cells carry values for the hover text.
    static constexpr size_t kMaxCells = 32;
    static constexpr size_t kMaxMarked = 4096;

    std::vector<MismatchGrid> grids;
    uint64_t omitted_cells = 0;  // cells marked in grids beyond the first kMaxGrids

    bool empty() const { return grids.empty() && omitted_cells == 0; }

    // Marks cell (row, col) of `shape`'s grid (created on first use) as expected != actual; values are
    // written in hex, `bytes` wide.
    void mark(const GridShape& shape, uint32_t row, uint32_t col, uint64_t expected, uint64_t actual,
              unsigned bytes);
    // The same with the values as text, for an expectation that is not one bit pattern ("0x1p+3 within
    // 0x1p-20").
    void mark(const GridShape& shape, uint32_t row, uint32_t col, std::string expected, std::string actual);
};

// "0x00a5": value in hex, 2 digits per byte.
std::string hexValue(uint64_t value, unsigned bytes);

}  // namespace cts
