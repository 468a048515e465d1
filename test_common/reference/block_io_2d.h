// Host reference for SPV_INTEL_2d_block_io: what each lane's destination holds after a 2D block load, and
// what memory holds after a 2D block store. Pure functions over byte arrays; no OpenCL, no device code.
//
// Terms follow the spec: Element Size (bytes), Block Width (elements), Block Height (rows), Block Count;
// Memory Width and Memory Pitch in bytes, Memory Height in rows; Coordinate x in elements, y in rows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cts::reference {

enum class BlockIo2dOp { Load, LoadTransform, LoadTranspose, Prefetch, Store };

const char* blockIo2dOpName(BlockIo2dOp op);  // "load", "load_transform", ...

struct BlockIo2dShape {
    BlockIo2dOp op = BlockIo2dOp::Load;
    uint32_t element_size = 4;  // bytes
    uint32_t block_width = 16;  // elements per block row (pre-transpose)
    uint32_t block_height = 1;  // rows per block (pre-transpose)
    uint32_t block_count = 1;
    uint32_t sub_group_size = 16;  // SubgroupMaxSize; a power of two

    std::string str() const;  // e.g. "load e2 w16 h8 c2 sg16"
};

// The 2D region of memory: `bytes` starts at the Base Pointer; row y, element x lives at
// y * memory_pitch_bytes + x * element_size. Only in-bounds bytes are ever read or written.
struct Surface2d {
    int64_t memory_width_bytes = 0;
    int64_t memory_height_rows = 0;
    int64_t memory_pitch_bytes = 0;
};

struct Coordinate2d {
    int64_t x = 0;  // elements to skip from the start of a row
    int64_t y = 0;  // rows to skip from the base
};

// The block after padding and the optional transform or transpose, as the sub-group receives it.
struct AssignedBlock {
    uint32_t rows = 0;           // rows of the padded (transformed / transposed) block
    uint32_t cols = 0;           // columns of it (a power of two)
    uint32_t element_bytes = 0;  // bytes of one destination element (4 for transform)
    uint32_t lane_elements = 0;  // destination elements per lane per block
};
AssignedBlock assignedBlock(const BlockIo2dShape& shape);

// Bytes of per-lane destination (loads) or source (stores) storage for all blocks.
uint32_t laneBytes(const BlockIo2dShape& shape);

// Where one part of a destination element comes from. A transform packs 4 (1-byte) or 2 (2-byte)
// source elements into one destination element, so an element may have several parts.
struct ElementSource {
    enum class Kind : uint8_t { Memory, OutOfBounds, Padding };
    Kind kind = Kind::Memory;
    uint32_t block = 0;
    uint32_t block_row = 0, block_col = 0;  // position in the (unpadded) block, pre-transform/transpose
    int64_t row = 0, col = 0;               // memory row and column (elements)
};

struct LaneElement {
    bool defined = true;               // false: the spec assigns no block data here (skip it)
    uint64_t value = 0;                // element_bytes wide, little-endian packing for transform
    std::vector<ElementSource> parts;  // lowest bits first
};

// For every lane (outer, sub_group_size) the destination elements (blocks in order, block-major).
// Undefined elements have value 0 and defined = false.
std::vector<std::vector<LaneElement>> load2d(const BlockIo2dShape& shape, const std::vector<uint8_t>& memory,
                                             const Surface2d& surface, Coordinate2d coord);

// A prefetch has no reference function: it "does not affect the functionality of a module", so the checker
// requires memory to be unchanged and a following load to match load2d.

// Applies a store: lane_data[lane] holds laneBytes(shape) bytes. Writes only in-bounds, unpadded elements.
// Returns how many elements were written.
uint64_t store2d(const BlockIo2dShape& shape, const std::vector<std::vector<uint8_t>>& lane_data,
                 std::vector<uint8_t>& memory, const Surface2d& surface, Coordinate2d coord);

// Source of (lane, destination element index) for a store, same mapping as load2d without transform or
// transpose: returns false for undefined slots.
bool storeSlot(const BlockIo2dShape& shape, uint32_t lane, uint32_t element, ElementSource* where);

// "block 1 row 3 col 18 (memory row 7 col 34)" / "padding" / "out of bounds", for mismatch messages.
std::string describe(const LaneElement& element);

// Is element (row, col) of element_size bytes inside Memory Width and Memory Height?
bool inBounds(const Surface2d& surface, uint32_t element_size, int64_t row, int64_t col);

}  // namespace cts::reference
