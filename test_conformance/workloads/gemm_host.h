// Plain host GEMM for the workloads.* cases: D = A * B as a triple loop over whole matrices, with its own
// decoding of the element and accumulator formats. It is written apart from the per-instruction host
// reference (test_common/reference/mma.h), so a workload case also cross-checks that reference.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace cts::workloads {

enum class GemmFormat { Int8, Fp16Fp32, Fp16Fp16, Bf16Fp32, Bf16Bf16, Tf32Fp32 };

struct FormatInfo {
    GemmFormat format;
    const char* name;            // "int8", "fp16_fp32", ... (the generator's names)
    unsigned element_bytes;      // bytes of one A or B element in memory
    unsigned accumulator_bytes;  // bytes of one D element
    uint32_t k_step;             // K of one MMA
    bool integer;
};
// Throws InternalError for a name the generator does not emit.
const FormatInfo& gemmFormat(const std::string& name);

// Element bits as stored in memory (int8: the byte; fp16/bf16: 16 bits; tf32: fp32 bits).
double decodeElement(const FormatInfo& f, uint32_t bits, bool is_signed);
// D element bits -> value (int32 as signed, fp32, fp16, bf16).
double decodeAccumulator(const FormatInfo& f, uint32_t bits);
// Exactly representable value -> element bits (the data generators only make representable values).
uint32_t encodeElement(const FormatInfo& f, double value);

// Data classes: "full_range" (int8: every byte value), "exact" (small integers: every partial sum is exact
// in the accumulator format, so every order of operations gives the same D), "random" (floats with many
// significant bits: D is compared within a bound).
std::vector<uint32_t> makeElements(const FormatInfo& f, const std::string& data, size_t count,
                                   std::mt19937_64& rng);

struct GemmExpectation {
    std::vector<double> value;  // exact D (integers: the wrapped int32 value)
    std::vector<double> bound;  // |D - value| allowed (0 for integers and exact data)
};

// a: m x k, b: k x n, both row-major element bits. Floats: bound per element derived from the data,
// (K + 2) * (T + 1) * eps * sum |a b| + (K + 2) * T * min_normal with T = ceil(k / K) chained MMAs; each MMA
// may round K + 2 times at the accumulator's precision and its C input carries the previous steps' sum.
GemmExpectation hostGemm(const FormatInfo& f, bool is_signed, bool exact_data, uint32_t m, uint32_t n,
                         uint32_t k, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b);

// True when the D bits are within the expectation (floats: the value within the bound; NaN never).
bool accepts(const FormatInfo& f, double expected, double bound, uint32_t actual_bits);

}  // namespace cts::workloads
