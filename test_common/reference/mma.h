// Host reference for SPV_INTEL_subgroup_matrix_multiply_accumulate: how each invocation's A, B, C and Result
// values map to matrix elements ("Mapping Matrix Data to Invocations"), and what Result must hold. Pure
// functions over raw bits; no OpenCL, no device code.
//
// Terms follow the spec: M rows (Result components), N columns (the sub-group size), K the shared dimension
// (KDim). A is M x K, B is K x N, C and Result are M x N. Matrices hold raw element bits (zero-extended),
// row-major; lanes hold raw component bits (zero-extended), lanes[lane][component].
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cts::reference {

// Element formats of A and B (the Matrix Multiply Accumulate Operands say which).
enum class MmaElement : uint8_t { Int8, Int4, Fp16, Bf16, Tf32 };
// Formats of C and Result. Bf16 is carried in 16-bit integer components (CBFloat16 / ResultBFloat16).
enum class MmaAccumulator : uint8_t { Int32, Fp32, Fp16, Bf16 };

uint32_t elementBits(MmaElement e);             // 8, 4, 16, 16, 32
uint32_t accumulatorBits(MmaAccumulator a);     // 32, 32, 16, 16
const char* elementName(MmaElement e);          // "int8", "int4", "fp16", "bf16", "tf32"
const char* accumulatorName(MmaAccumulator a);  // "int32", "fp32", "fp16", "bf16"
bool isInteger(MmaElement e);

struct MmaShape {
    uint32_t n = 16;  // sub-group size (columns of B, C, Result)
    uint32_t k = 32;  // KDim
    uint32_t m = 8;   // Result components (rows of A, C, Result)
    MmaElement a = MmaElement::Int8, b = MmaElement::Int8;
    bool a_signed = false, b_signed = false;  // MatrixASignedComponentsINTEL / MatrixBSignedComponentsINTEL
    MmaAccumulator c = MmaAccumulator::Int32, result = MmaAccumulator::Int32;

    std::string str() const;  // e.g. "n16 k32 m8 A int8 signed, B int8 unsigned, C int32, Result int32"
};

// The operand bits of the instruction for this shape (ASigned 0x1, BSigned 0x2, CBFloat16 0x4, ...).
uint32_t operandsMask(const MmaShape& s);

// How one lane passes an operand: component count and bits per component.
struct OperandLayout {
    uint32_t components = 0;
    uint32_t component_bits = 0;
};
// A: N == K: M components of one element; N < K: M components of K/N packed elements (lowest column in the
// lowest bits); N > K: ceil(M / (N/K)) components of one element.
OperandLayout aLayout(const MmaShape& s);
// B: elements of 16 bits or less packed into 32-bit components (lowest row in the lowest bits), K*bits/32
// components; wider elements one per component (K components).
OperandLayout bLayout(const MmaShape& s);
// C (and Result, with s.result): M components of the accumulator format.
OperandLayout cLayout(const MmaShape& s);
OperandLayout resultLayout(const MmaShape& s);

struct RawMatrix {
    uint32_t rows = 0, cols = 0;
    std::vector<uint32_t> bits;  // rows * cols, row-major, each zero-extended to 32 bits

    RawMatrix() = default;
    RawMatrix(uint32_t r, uint32_t c) : rows(r), cols(c), bits(size_t(r) * c, 0) {}
    uint32_t& at(uint32_t r, uint32_t c) { return bits[size_t(r) * cols + c]; }
    uint32_t at(uint32_t r, uint32_t c) const { return bits[size_t(r) * cols + c]; }
};

using LaneData = std::vector<std::vector<uint32_t>>;  // [lane][component], zero-extended component bits

// Unpack: what matrix the sub-group's lanes pass. Pack: what each lane must pass for a matrix (components no
// element maps to, e.g. lanes whose A rows are beyond M when N > K, are 0).
RawMatrix unpackA(const MmaShape& s, const LaneData& lanes);  // M x K
LaneData packA(const MmaShape& s, const RawMatrix& a);
// Whether A's `component` in `lane` carries no element of A (N > K: the rows it would pass are beyond M, "the
// data passed by the higher-numbered invocations is ignored").
bool aComponentIgnored(const MmaShape& s, uint32_t lane, uint32_t component);
RawMatrix unpackB(const MmaShape& s, const LaneData& lanes);  // K x N
LaneData packB(const MmaShape& s, const RawMatrix& b);
RawMatrix unpackC(const MmaShape& s, const LaneData& lanes);  // M x N; also Result (same assignment)
LaneData packC(const MmaShape& s, const RawMatrix& c);

// Decoded values: integers sign-extended when signed (else zero-extended); fp16, bf16, tf32 (an fp32 whose
// low 13 significand bits the format ignores) and fp32 as exact doubles.
double elementValue(MmaElement e, bool is_signed, uint32_t bits);
double accumulatorValue(MmaAccumulator a, uint32_t bits);

// Integer formats: Result = low 32 bits of the exact sum of A x B + C ("the low-order N bits of the correct
// result R"). M x N.
RawMatrix mmaInteger(const MmaShape& s, const RawMatrix& a, const RawMatrix& b, const RawMatrix& c);

// Float formats: precision and order are implementation-defined, so each element gets the exact value and
// an error bound derived from the data:
//     bound = (K + 2) * eps * (sum_k |a_k * b_k| + |c|) + (K + 2) * min_normal
// eps = 2^-(p-1) of the result format (p: significand bits; fp32 24, fp16 11, bf16 8) covers K + 1 roundings
// of either rounding direction (round-to-nearest or toward zero); min_normal covers flushed denormals.
struct FloatExpectation {
    double exact = 0;      // the exact sum (products of fp16/bf16/tf32 inputs are exact in double)
    double magnitude = 0;  // sum_k |a_k * b_k| + |c|
    double bound = 0;
};
std::vector<FloatExpectation> mmaFloat(const MmaShape& s, const RawMatrix& a, const RawMatrix& b,
                                       const RawMatrix& c);  // M x N, row-major
// True when `actual_bits` in the result format is finite and within e.bound of e.exact.
bool floatResultAcceptable(MmaAccumulator result, const FloatExpectation& e, uint32_t actual_bits);

// Encoders for building test data: the format's bits for a value the format represents exactly
// (fp16 / bf16 / tf32 / fp32). Throws std::invalid_argument when it does not.
uint32_t encodeExact(MmaElement e, double v);
uint32_t encodeExactAccumulator(MmaAccumulator a, double v);

// Notes on the implementation (mma.cpp); the declarations above are the contract, these only make it precise:
// - Invalid shapes throw std::invalid_argument: N, K or M zero; N < K with K not a multiple of N or K/N
//   packed A elements wider than 32 bits; N > K with N not a multiple of K; B elements of 16 bits or less
//   whose K rows do not fill whole 32-bit components.
// - unpack*: lanes.size() must be N and every lane must hold at least the layout's component count (extra
//   components are ignored); pack*: the matrix must be exactly M x K, K x N or M x N. Otherwise
//   std::invalid_argument.
// - A and B element bits above the element width are ignored (masked) both when packing and unpacking, so a
//   sign-extended int8 does not spill into its neighbours. unpackC/packC copy whole components unmasked, so
//   unpackC also reads a Result whose format is wider than C's. elementValue/accumulatorValue ignore bits
//   above the format's width.
// - mmaInteger needs integer A and B and Int32 C and Result; mmaFloat needs float A, B, C and Result and
//   finite inputs (std::invalid_argument otherwise). FloatExpectation::exact is the exact sum correctly
//   rounded to double (order-independent); magnitude likewise. floatResultAcceptable throws for Int32.
// - encodeExact / encodeExactAccumulator for Int8, Int4 and Int32 accept integral values in
//   [-2^(w-1), 2^w - 1] (the signed and the unsigned reading) and return two's complement bits masked to the
//   width w. For float formats +-infinity and -0.0 encode (they are exactly representable); NaN, inexact and
//   out-of-range values throw. Tf32 returns fp32 bits with the low 13 significand bits zero.

}  // namespace cts::reference
