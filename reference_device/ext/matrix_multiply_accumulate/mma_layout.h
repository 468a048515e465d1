// How OpSubgroupMatrixMultiplyAccumulateINTEL's operands map to invocations (SPIR-V spec section "Mapping
// Matrix Data to Invocations"), and the bit-level number formats of its element types. Pure functions on
// lane data, so the spec's worked examples (sub-group size 4) can be checked directly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace refdev::spirv::mma {

// One operand as the sub-group passes it: lane l's component c, zero-extended to 32 bits.
struct LaneData {
    uint32_t lanes = 0, components = 0, component_bits = 0;
    std::vector<uint32_t> words;  // lane-major: words[lane * components + c]

    LaneData() = default;
    LaneData(uint32_t lanes_, uint32_t components_, uint32_t component_bits_)
        : lanes(lanes_),
          components(components_),
          component_bits(component_bits_),
          words(size_t(lanes_) * components_, 0) {}
    uint32_t at(uint32_t lane, uint32_t c) const { return words[size_t(lane) * components + c]; }
    uint32_t& at(uint32_t lane, uint32_t c) { return words[size_t(lane) * components + c]; }
};

// A matrix of raw element bit patterns (zero-extended), row-major.
struct Matrix {
    uint32_t rows = 0, cols = 0;
    std::vector<uint32_t> bits;

    Matrix() = default;
    Matrix(uint32_t rows_, uint32_t cols_) : rows(rows_), cols(cols_), bits(size_t(rows_) * cols_, 0) {}
    uint32_t at(uint32_t r, uint32_t c) const { return bits[size_t(r) * cols + c]; }
    uint32_t& at(uint32_t r, uint32_t c) { return bits[size_t(r) * cols + c]; }
};

// Planted faults that change the mapping (all false: the spec's mapping). Each acts only where its
// situation arises, e.g. reversed A columns only when a component packs more than one column.
struct LayoutFaults {
    bool a_columns_reversed = false;  // mma_a_columns_reversed
    bool b_rows_swapped = false;      // mma_b_vnni_rows_swapped
    bool nibbles_swapped = false;     // mma_int4_nibbles_swapped (A only)
    bool tf32_interleave = false;     // mma_tf32_a_interleave_wrong
    bool a_as_16_lanes = false;       // mma_n8_uses_16_lane_layout
    bool a_reads_ignored = false;     // mma_reads_ignored_a_lane
};

// Matrix A (M x K) from the lanes' contributions; N = a.lanes. element_bits is the width of one A element
// (4, 8, 16 or 32); when N < K each component packs K / N of them.
Matrix unpackA(const LaneData& a, uint32_t m, uint32_t k, uint32_t element_bits, const LayoutFaults& f = {});
// Matrix B (K x N): lane i passes column i; elements of 16 bits or less packed into 32-bit components.
Matrix unpackB(const LaneData& b, uint32_t k, uint32_t element_bits, const LayoutFaults& f = {});
// Matrix C (M x N): lane i passes column i, component r is row r.
Matrix unpackC(const LaneData& c, uint32_t m);
// The Result matrix (M x N) assigned to lanes the way C is passed.
LaneData packResult(const Matrix& result, uint32_t component_bits);

// IEEE-style binary formats: fp32 (8, 23), fp16 (5, 10), bf16 (8, 7). decodeFloat is exact;
// encodeFloat rounds to nearest, ties to even, with subnormals, overflow to infinity and quiet NaNs.
double decodeFloat(uint32_t bits, uint32_t exponent_bits, uint32_t mantissa_bits);
uint32_t encodeFloat(double value, uint32_t exponent_bits, uint32_t mantissa_bits);

}  // namespace refdev::spirv::mma
