// Operand-to-invocation mapping of OpSubgroupMatrixMultiplyAccumulateINTEL, read from the SPIR-V spec's
// "Mapping Matrix Data to Invocations" section, and exact binary float conversions. Written for the
// reference device independently of the suite's host reference (test_common/reference/).
#include "reference_device/ext/matrix_multiply_accumulate/mma_layout.h"

#include <algorithm>
#include <cmath>

namespace refdev::spirv::mma {
namespace {

uint32_t lowMask(uint32_t bits) {
    return bits >= 32 ? ~0u : (1u << bits) - 1;
}

// Where element j of `per` packed elements sits, counted in elements from the low bits. The spec puts
// "data from the lower-numbered columns in the lower bits" (A) and "lowered-numbered rows ... as the
// lower-numbered bits of each value" (B): position j. The faults move it.
uint32_t position(uint32_t j, uint32_t per, uint32_t element_bits, bool reversed, bool nibbles_swapped) {
    if (reversed && per > 1) j = per - 1 - j;
    // Two int4 elements share a byte; the fault exchanges them (elements 2j and 2j+1). Only A uses it:
    // the same exchange in A's columns and B's rows permutes K in both and leaves every product unchanged.
    if (nibbles_swapped && element_bits == 4 && (j ^ 1) < per) j ^= 1;
    return j;
}

}  // namespace

Matrix unpackA(const LaneData& a, uint32_t m, uint32_t k, uint32_t element_bits, const LayoutFaults& f) {
    Matrix out(m, k);
    const uint32_t n = a.lanes, mask = lowMask(element_bits);
    if (n == 0 || k == 0) return out;
    if (n > k) {
        // "If N is greater than K, then each invocation contributes a fraction of the rows representing a
        // single column of Matrix A ... if N is twice as big as K, then each invocation contributes every
        // other row of a single column of Matrix A, with the lower-numbered invocations contributing the
        // first row and higher-numbered invocations contributing the second row." So `share` = N / K
        // invocations pass column j: invocation part * K + j passes rows part, part + share, ... in
        // components 0, 1, ... Rows no invocation passes stay zero; data of rows >= M is ignored.
        const uint32_t share = n / k;
        for (uint32_t r = 0; r < m; ++r)
            for (uint32_t col = 0; col < k; ++col) {
                const uint32_t c = r / share, part = r % share;
                // The fault pairs neighbouring invocations instead: invocation col * share + part.
                uint32_t lane = f.tf32_interleave ? col * share + part : part * k + col;
                // The fault takes column 0 of the last row from the invocation passing row M, which the
                // spec ignores (M = 1 with N = 2K: invocation K instead of 0).
                if (f.a_reads_ignored && r + 1 == m && part + 1 < share && col == 0) lane += k;
                if (c < a.components && lane < n) out.at(r, col) = a.at(lane, c) & mask;
            }
        return out;
    }
    // "If N is equal to K, then each invocation contributes a single column"; "If N is less than K, then
    // each invocation contributes multiple columns ... packed into a single value per row, with data from
    // the lower-numbered columns in the lower bits of the value", component r being row r.
    uint32_t per = k / n;
    // The fault unpacks as a 16-invocation sub-group would: K / 16 columns per component, so the upper half
    // of each component is never read and the columns "lanes 8..15" would pass read as zero.
    if (f.a_as_16_lanes && n == 8 && k >= 16) per = k / 16;
    for (uint32_t r = 0; r < m && r < a.components; ++r)
        for (uint32_t col = 0; col < k; ++col) {
            const uint32_t lane = col / per;
            if (lane >= n) continue;
            const uint32_t j =
                position(col % per, per, element_bits, f.a_columns_reversed, f.nibbles_swapped);
            const uint32_t shift = j * element_bits;
            out.at(r, col) = shift >= 32 ? 0 : (a.at(lane, r) >> shift) & mask;
        }
    return out;
}

Matrix unpackB(const LaneData& b, uint32_t k, uint32_t element_bits, const LayoutFaults& f) {
    const uint32_t n = b.lanes, mask = lowMask(element_bits);
    Matrix out(k, n);
    // "For matrix elements that are larger than 16 bits, the column of Matrix B is passed as a vector, with
    // the lower-numbered rows of Matrix B passed as the lower-numbered components of the vector. For matrix
    // elements that are 16 bits or smaller, the column of Matrix B is passed as a vector of 32-bit values,
    // with the lower-numbered rows ... as the lower-numbered components of the vector, and lowered-numbered
    // rows passed as the lower-numbered bits of each value."
    const uint32_t per = element_bits <= 16 ? 32 / element_bits : 1;
    for (uint32_t row = 0; row < k; ++row)
        for (uint32_t col = 0; col < n; ++col) {
            const uint32_t w = row / per;
            if (w >= b.components) continue;
            const uint32_t j = position(row % per, per, element_bits, f.b_rows_swapped, false);
            const uint32_t shift = j * element_bits;
            out.at(row, col) = shift >= 32 ? 0 : (b.at(col, w) >> shift) & mask;
        }
    return out;
}

Matrix unpackC(const LaneData& c, uint32_t m) {
    // "Each invocation in the subgroup contributes a single column of Matrix C ... passed as a vector of
    // values, with the lower-numbered components representing lower-numbered rows."
    Matrix out(m, c.lanes);
    for (uint32_t r = 0; r < m && r < c.components; ++r)
        for (uint32_t col = 0; col < c.lanes; ++col) out.at(r, col) = c.at(col, r);
    return out;
}

LaneData packResult(const Matrix& result, uint32_t component_bits) {
    // "Each invocation of the subgroup is assigned a single column of the Result matrix ... the
    // lower-numbered components representing lower-numbered rows."
    LaneData out(result.cols, result.rows, component_bits);
    for (uint32_t r = 0; r < result.rows; ++r)
        for (uint32_t col = 0; col < result.cols; ++col)
            out.at(col, r) = result.at(r, col) & lowMask(component_bits);
    return out;
}

double decodeFloat(uint32_t bits, uint32_t exponent_bits, uint32_t mantissa_bits) {
    const int bias = (1 << (exponent_bits - 1)) - 1;
    const uint32_t exp_all = (1u << exponent_bits) - 1;
    const bool negative = (bits >> (exponent_bits + mantissa_bits)) & 1;
    const uint32_t exp = (bits >> mantissa_bits) & exp_all, mant = bits & lowMask(mantissa_bits);
    double v;
    if (exp == exp_all)
        v = mant ? std::nan("") : HUGE_VAL;
    else if (exp == 0)
        v = std::ldexp(double(mant), 1 - bias - int(mantissa_bits));
    else
        v = std::ldexp(double(mant | 1u << mantissa_bits), int(exp) - bias - int(mantissa_bits));
    return negative ? -v : v;
}

uint32_t encodeFloat(double value, uint32_t exponent_bits, uint32_t mantissa_bits) {
    const int bias = (1 << (exponent_bits - 1)) - 1, mb = int(mantissa_bits);
    const uint32_t sign = std::signbit(value) ? 1u << (exponent_bits + mantissa_bits) : 0;
    const uint32_t inf = sign | ((1u << exponent_bits) - 1) << mantissa_bits;
    if (std::isnan(value)) return inf | 1u << (mantissa_bits - 1);
    const double a = std::fabs(value);
    if (std::isinf(a)) return inf;
    if (a == 0) return sign;
    int e;
    std::frexp(a, &e);
    int exponent = std::max(e - 1, 1 - bias);  // below the normal range: the subnormal quantum
    // The significand in units of the last place (exact: a power-of-two scaling), rounded to nearest, ties
    // to even, without depending on the host's rounding mode.
    const double q = std::ldexp(a, mb - exponent);
    double whole = std::floor(q);
    const double frac = q - whole;
    if (frac > 0.5 || (frac == 0.5 && std::fmod(whole, 2.0) != 0)) whole += 1;
    uint64_t sig = uint64_t(whole);
    if (sig >> (mantissa_bits + 1)) sig >>= 1, ++exponent;  // rounded up into the next binade
    if (exponent > bias) return inf;
    if (sig < (uint64_t(1) << mantissa_bits)) return sign | uint32_t(sig);  // subnormal (or zero)
    return sign | uint32_t(exponent + bias) << mantissa_bits | uint32_t(sig - (uint64_t(1) << mantissa_bits));
}

}  // namespace refdev::spirv::mma
