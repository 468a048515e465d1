// Host reference for SPV_INTEL_2d_block_io, written from the spec section "Mapping Block Data to
// Invocations" and "Out-of-Bounds Behavior". The block is first padded, then transformed or transposed, and
// only then assigned to lanes; this file follows those steps in that order.
#include "test_common/reference/block_io_2d.h"

#include <cstring>
#include <sstream>
#include <stdexcept>

namespace cts::reference {
namespace {

uint32_t nextPow2(uint32_t v) {
    uint32_t p = 1;
    while (p < v) p <<= 1;
    return p;
}

uint32_t roundUp(uint32_t v, uint32_t m) {
    return (v + m - 1) / m * m;
}

// "For 2-byte elements, every two rows are combined into a 32-bit value ... For 1-byte elements, every four
// rows" -> rows packed into one 32-bit transform element.
uint32_t transformRows(uint32_t element_size) {
    return element_size == 1 ? 4 : 2;
}

void validate(const BlockIo2dShape& s) {
    auto pow2 = [](uint32_t v) { return v && !(v & (v - 1)); };
    if (s.element_size != 1 && s.element_size != 2 && s.element_size != 4 && s.element_size != 8)
        throw std::invalid_argument("2D block IO reference: Element Size must be 1, 2, 4 or 8: " + s.str());
    if (!s.block_width || !s.block_height || !s.block_count || !pow2(s.sub_group_size))
        throw std::invalid_argument("2D block IO reference: zero block dimension or bad sub-group size: " +
                                    s.str());
    if (s.op == BlockIo2dOp::LoadTransform && s.element_size > 2)
        throw std::invalid_argument("2D block IO reference: transform packs 1- or 2-byte elements: " +
                                    s.str());
}

// Lane `lane`, element `k` of one block -> row and column of the assigned block (false: undefined slot).
// Spec: padded width == sub-group size: one element of each row per lane; smaller: several rows per
// sub-group row; larger: consecutive elements of a row per lane. Lower columns go to lower lanes.
bool assignedPosition(const AssignedBlock& a, uint32_t sg, uint32_t lane, uint32_t k, uint32_t* row,
                      uint32_t* col) {
    if (a.cols >= sg) {
        uint32_t per_lane = a.cols / sg;
        *row = k / per_lane;
        *col = lane * per_lane + k % per_lane;
    } else {
        uint32_t rows_per_step = sg / a.cols;
        *row = k * rows_per_step + lane / a.cols;
        *col = lane % a.cols;
    }
    return *row < a.rows;
}

// The unpadded-block element behind assigned-block position (row, col), part `p`, before the bounds check.
// Returns false for padding.
bool blockElement(const BlockIo2dShape& s, uint32_t row, uint32_t col, uint32_t part, uint32_t* brow,
                  uint32_t* bcol) {
    switch (s.op) {
        case BlockIo2dOp::LoadTranspose:
            // "assigning the first column of the 2D block to the first row of the transposed 2D block"
            *brow = col;
            *bcol = row;
            break;
        case BlockIo2dOp::LoadTransform:
            *brow = row * transformRows(s.element_size) + part;
            *bcol = col;
            break;
        default: *brow = row; *bcol = col;
    }
    return *brow < s.block_height && *bcol < s.block_width;
}

}  // namespace

const char* blockIo2dOpName(BlockIo2dOp op) {
    switch (op) {
        case BlockIo2dOp::Load: return "load";
        case BlockIo2dOp::LoadTransform: return "load_transform";
        case BlockIo2dOp::LoadTranspose: return "load_transpose";
        case BlockIo2dOp::Prefetch: return "prefetch";
        case BlockIo2dOp::Store: return "store";
    }
    return "?";
}

std::string BlockIo2dShape::str() const {
    std::ostringstream os;
    os << blockIo2dOpName(op) << " e" << element_size << " w" << block_width << " h" << block_height << " c"
       << block_count << " sg" << sub_group_size;
    return os.str();
}

AssignedBlock assignedBlock(const BlockIo2dShape& s) {
    validate(s);
    AssignedBlock a;
    switch (s.op) {
        case BlockIo2dOp::LoadTranspose:
            // "the Block Height is padded to the next power-of-two"; the transposed block has Block Width
            // rows and padded-height columns.
            a.rows = s.block_width;
            a.cols = nextPow2(s.block_height);
            a.element_bytes = s.element_size;
            break;
        case BlockIo2dOp::LoadTransform:
            // Width padded to a power of two; height to a multiple of 4 (1-byte) or 2 (2-byte), then packed.
            a.rows = roundUp(s.block_height, transformRows(s.element_size)) / transformRows(s.element_size);
            a.cols = nextPow2(s.block_width);
            a.element_bytes = 4;
            break;
        default:
            a.rows = s.block_height;
            a.cols = nextPow2(s.block_width);
            a.element_bytes = s.element_size;
    }
    a.lane_elements = (a.rows * a.cols + s.sub_group_size - 1) / s.sub_group_size;
    return a;
}

uint32_t laneBytes(const BlockIo2dShape& s) {
    AssignedBlock a = assignedBlock(s);
    return a.lane_elements * a.element_bytes * s.block_count;
}

bool inBounds(const Surface2d& m, uint32_t element_size, int64_t row, int64_t col) {
    // Out of bounds is judged per element against Memory Width (bytes) and Memory Height (rows).
    return row >= 0 && row < m.memory_height_rows && col >= 0 &&
           (col + 1) * int64_t(element_size) <= m.memory_width_bytes;
}

std::vector<std::vector<LaneElement>> load2d(const BlockIo2dShape& s, const std::vector<uint8_t>& memory,
                                             const Surface2d& m, Coordinate2d coord) {
    if (s.op == BlockIo2dOp::Store || s.op == BlockIo2dOp::Prefetch)
        throw std::invalid_argument("load2d: not a load: " + s.str());
    AssignedBlock a = assignedBlock(s);
    uint32_t parts = s.op == BlockIo2dOp::LoadTransform ? transformRows(s.element_size) : 1;
    std::vector<std::vector<LaneElement>> lanes(s.sub_group_size);
    for (uint32_t lane = 0; lane < s.sub_group_size; ++lane) {
        auto& out = lanes[lane];
        out.resize(size_t(a.lane_elements) * s.block_count);
        for (uint32_t b = 0; b < s.block_count; ++b) {
            for (uint32_t k = 0; k < a.lane_elements; ++k) {
                LaneElement& e = out[size_t(b) * a.lane_elements + k];
                uint32_t row, col;
                if (!assignedPosition(a, s.sub_group_size, lane, k, &row, &col)) {
                    e.defined = false;
                    continue;
                }
                for (uint32_t p = 0; p < parts; ++p) {
                    ElementSource src;
                    src.block = b;
                    uint32_t brow, bcol;
                    bool data = blockElement(s, row, col, p, &brow, &bcol);
                    src.block_row = brow;
                    src.block_col = bcol;
                    // "the blocks are loaded in row-major order, with the next block beginning immediately
                    // after the previous block": block b starts Block Width elements further right.
                    src.row = coord.y + brow;
                    src.col = coord.x + int64_t(b) * s.block_width + bcol;
                    uint64_t v = 0;
                    if (!data) {
                        src.kind =
                            ElementSource::Kind::Padding;  // "the value of any padded elements is zero"
                    } else if (!inBounds(m, s.element_size, src.row, src.col)) {
                        src.kind = ElementSource::Kind::OutOfBounds;  // "assigned the value zero"
                    } else {
                        size_t at = size_t(src.row * m.memory_pitch_bytes + src.col * s.element_size);
                        if (at + s.element_size > memory.size())
                            throw std::out_of_range("load2d: memory image too small for " + s.str());
                        std::memcpy(&v, memory.data() + at, s.element_size);
                    }
                    // Lower-numbered rows in the lower bits.
                    e.value |= v << (8 * s.element_size * p);
                    e.parts.push_back(src);
                }
            }
        }
    }
    return lanes;
}

bool storeSlot(const BlockIo2dShape& s, uint32_t lane, uint32_t element, ElementSource* where) {
    BlockIo2dShape plain = s;
    plain.op = BlockIo2dOp::Store;
    AssignedBlock a = assignedBlock(plain);
    uint32_t b = element / a.lane_elements, k = element % a.lane_elements;
    uint32_t row, col;
    if (b >= s.block_count || !assignedPosition(a, s.sub_group_size, lane, k, &row, &col)) return false;
    where->block = b;
    where->block_row = row;
    where->block_col = col;
    // "For stores, the value of any padded elements is ignored."
    where->kind = col < s.block_width ? ElementSource::Kind::Memory : ElementSource::Kind::Padding;
    return true;
}

uint64_t store2d(const BlockIo2dShape& s, const std::vector<std::vector<uint8_t>>& lane_data,
                 std::vector<uint8_t>& memory, const Surface2d& m, Coordinate2d coord) {
    if (s.op != BlockIo2dOp::Store) throw std::invalid_argument("store2d: not a store: " + s.str());
    if (lane_data.size() != s.sub_group_size) throw std::invalid_argument("store2d: one array per lane");
    AssignedBlock a = assignedBlock(s);
    uint64_t written = 0;
    for (uint32_t lane = 0; lane < s.sub_group_size; ++lane) {
        if (lane_data[lane].size() < laneBytes(s))
            throw std::invalid_argument("store2d: lane data too short");
        for (uint32_t e = 0; e < a.lane_elements * s.block_count; ++e) {
            ElementSource w;
            if (!storeSlot(s, lane, e, &w) || w.kind == ElementSource::Kind::Padding) continue;
            int64_t row = coord.y + w.block_row;
            int64_t col = coord.x + int64_t(w.block) * s.block_width + w.block_col;
            if (!inBounds(m, s.element_size, row, col)) continue;  // "out-of-bounds elements are ignored"
            size_t at = size_t(row * m.memory_pitch_bytes + col * s.element_size);
            if (at + s.element_size > memory.size())
                throw std::out_of_range("store2d: memory image too small for " + s.str());
            std::memcpy(memory.data() + at, lane_data[lane].data() + size_t(e) * s.element_size,
                        s.element_size);
            ++written;
        }
    }
    return written;
}

std::string describe(const LaneElement& e) {
    if (!e.defined) return "undefined";
    std::ostringstream os;
    for (size_t p = 0; p < e.parts.size(); ++p) {
        const ElementSource& s = e.parts[p];
        if (p) os << " | ";
        os << "block " << s.block << " row " << s.block_row << " col " << s.block_col;
        if (s.kind == ElementSource::Kind::Padding)
            os << " (padding)";
        else
            os << " (memory row " << s.row << " col " << s.col
               << (s.kind == ElementSource::Kind::OutOfBounds ? ", out of bounds)" : ")");
    }
    return os.str();
}

}  // namespace cts::reference
