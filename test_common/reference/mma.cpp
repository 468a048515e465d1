// Host reference for SPV_INTEL_subgroup_matrix_multiply_accumulate, written from the spec section "Mapping
// Matrix Data to Invocations", its Examples, and the OpenCL environment table (cl_intel_subgroup_matrix_
// multiply_accumulate). Layouts are generic in N, K, M and element width; the spec examples use N = 4.
#include "test_common/reference/mma.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace cts::reference {
namespace {

uint32_t lowMask(uint32_t bits) {
    return bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
}

uint32_t ceilDiv(uint32_t a, uint32_t b) {
    return (a + b - 1) / b;
}

[[noreturn]] void fail(const std::string& what, const MmaShape& s) {
    throw std::invalid_argument("MMA reference: " + what + ": " + s.str());
}

void validateDims(const MmaShape& s) {
    if (!s.n || !s.k || !s.m) fail("N, K and M must be non-zero", s);
}

void requireMatrix(const MmaShape& s, const RawMatrix& x, uint32_t rows, uint32_t cols, const char* name) {
    if (x.rows != rows || x.cols != cols || x.bits.size() != size_t(rows) * cols)
        fail(std::string("matrix ") + name + " is " + std::to_string(x.rows) + " x " +
                 std::to_string(x.cols) + ", expected " + std::to_string(rows) + " x " + std::to_string(cols),
             s);
}

void requireLanes(const MmaShape& s, const LaneData& lanes, const OperandLayout& l, const char* name) {
    // "The N dimension ... is implicitly the number of invocations in the subgroup": one entry per lane.
    if (lanes.size() != s.n) fail(std::string(name) + ": lane count differs from N", s);
    for (const auto& lane : lanes)
        if (lane.size() < l.components) fail(std::string(name) + ": a lane has too few components", s);
}

// Matrix A element (row, col) <-> (lane, component, bit offset). Returns false for A rows beyond M (N > K:
// "If the data from the higher-numbered invocations is not needed ... the data ... is ignored").
// `j` is the packed element's index within the component (N < K only).
bool aSlot(const MmaShape& s, uint32_t lane, uint32_t component, uint32_t j, uint32_t* row, uint32_t* col) {
    if (s.n == s.k) {
        // "each invocation contributes a single column of Matrix A ... each component representing one row"
        *row = component;
        *col = lane;
    } else if (s.n < s.k) {
        // "The multiple columns are packed into a single value per row, with data from the lower-numbered
        // columns in the lower bits of the value."
        uint32_t p = s.k / s.n;
        *row = component;
        *col = lane * p + j;
    } else {
        // "each invocation contributes a fraction of the rows representing a single column of Matrix A ...
        // with the lower-numbered invocations contributing the first row and higher-numbered invocations
        // contributing the second row." With q = N / K, lane i passes column i % K and component c holds
        // row c * q + i / K (example 3: invocation 2 passes 1,0 and 3,0).
        uint32_t q = s.n / s.k;
        *row = component * q + lane / s.k;
        *col = lane % s.k;
    }
    return *row < s.m;
}

// Elements of A packed into one component (1 unless N < K).
uint32_t aPerComponent(const MmaShape& s) {
    return s.n < s.k ? s.k / s.n : 1;
}

// Rows of B packed into one component: "For matrix elements that are 16 bits or smaller, the column of
// Matrix B is passed as a vector of 32-bit values ... lowered-numbered rows passed as the lower-numbered bits
// of each value."
uint32_t bPerComponent(const MmaShape& s) {
    uint32_t bits = elementBits(s.b);
    return bits <= 16 ? 32 / bits : 1;
}

// IEEE-style binary formats with `exp_bits` exponent and `mant_bits` explicit significand bits.
struct BinaryFormat {
    int exp_bits, mant_bits;
    int bias() const { return (1 << (exp_bits - 1)) - 1; }
    uint32_t expField() const { return (1u << exp_bits) - 1; }
};
constexpr BinaryFormat kFp16{5, 10}, kBf16{8, 7}, kFp32{8, 23}, kTf32{8, 10};  // tf32: fp32 >> 13

double decodeBinary(BinaryFormat f, uint32_t bits) {
    uint32_t mant = bits & lowMask(f.mant_bits);
    uint32_t e = (bits >> f.mant_bits) & f.expField();
    bool neg = (bits >> (f.mant_bits + f.exp_bits)) & 1;
    double v;
    if (e == f.expField())
        v = mant ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    else if (e == 0)
        v = std::ldexp(double(mant), 1 - f.bias() - f.mant_bits);  // denormal
    else
        v = std::ldexp(double(mant | (1u << f.mant_bits)), int(e) - f.bias() - f.mant_bits);
    return neg ? -v : v;
}

// The bits of `v` in format f; throws unless f represents v exactly (infinities are representable, NaN is
// not a value).
uint32_t encodeBinary(BinaryFormat f, double v, const char* name) {
    auto reject = [&](const char* why) {
        std::ostringstream os;
        os << "encodeExact: " << name << " " << why << ": " << std::hexfloat << v;
        throw std::invalid_argument(os.str());
    };
    if (std::isnan(v)) reject("has no NaN value to encode");
    uint32_t sign = std::signbit(v) ? 1u : 0u;
    double a = std::fabs(v);
    uint32_t magnitude = 0;
    if (std::isinf(a)) {
        magnitude = f.expField() << f.mant_bits;
    } else if (a != 0) {
        int e2;
        std::frexp(a, &e2);  // a in [2^(e2-1), 2^e2)
        int biased = e2 - 1 + f.bias();
        if (biased >= int(f.expField())) reject("cannot represent (out of range)");
        if (biased < 1) biased = 0;  // denormal: the scale of the smallest normal
        double q = std::ldexp(a, -((biased ? biased : 1) - f.bias() - f.mant_bits));
        if (q != std::floor(q)) reject("cannot represent exactly");
        uint32_t qi = uint32_t(q);
        magnitude = biased ? (uint32_t(biased) << f.mant_bits) | (qi & lowMask(f.mant_bits)) : qi;
    }
    return sign << (f.exp_bits + f.mant_bits) | magnitude;
}

// Two's complement bits of an integral v in [-2^(bits-1), 2^bits - 1] (both signed and unsigned readings).
uint32_t encodeInteger(uint32_t bits, double v, const char* name) {
    double lo = -std::ldexp(1.0, int(bits) - 1), hi = std::ldexp(1.0, int(bits)) - 1;
    if (!(v >= lo && v <= hi) || v != std::floor(v)) {
        std::ostringstream os;
        os << "encodeExact: " << name << " cannot represent " << v;
        throw std::invalid_argument(os.str());
    }
    return uint32_t(int64_t(v)) & lowMask(bits);
}

int64_t integerValue(MmaElement e, bool is_signed, uint32_t bits) {
    uint32_t w = elementBits(e);
    uint32_t u = bits & lowMask(w);
    if (is_signed && (u >> (w - 1)) & 1) return int64_t(u) - (int64_t(1) << w);
    return int64_t(u);
}

// Correctly rounded sum of doubles (Shewchuk's exact partials, as in Python's math.fsum), so the expected
// value does not depend on the order of the additions. Inputs must be finite.
double exactSum(const std::vector<double>& values) {
    std::vector<double> partials;
    for (double x : values) {
        size_t i = 0;
        for (double y : partials) {
            if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
            double hi = x + y;
            double lo = y - (hi - x);
            if (lo != 0) partials[i++] = lo;
            x = hi;
        }
        partials.resize(i);
        partials.push_back(x);
    }
    size_t n = partials.size();
    if (!n) return 0;
    double hi = partials[--n], lo = 0;
    while (n > 0) {
        double x = hi, y = partials[--n];
        hi = x + y;
        lo = y - (hi - x);
        if (lo != 0) break;
    }
    // Round half to even across the remaining partials.
    if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
        double y = lo * 2, x = hi + y;
        if (y == x - hi) hi = x;
    }
    return hi;
}

struct ResultPrecision {
    double eps, min_normal;
};
ResultPrecision precisionOf(MmaAccumulator r) {
    switch (r) {
        case MmaAccumulator::Fp32: return {std::ldexp(1.0, -23), std::ldexp(1.0, -126)};
        case MmaAccumulator::Fp16: return {std::ldexp(1.0, -10), std::ldexp(1.0, -14)};
        case MmaAccumulator::Bf16: return {std::ldexp(1.0, -7), std::ldexp(1.0, -126)};
        case MmaAccumulator::Int32: break;
    }
    throw std::invalid_argument("MMA reference: int32 is not a floating-point result format");
}

}  // namespace

uint32_t elementBits(MmaElement e) {
    switch (e) {
        case MmaElement::Int8: return 8;
        case MmaElement::Int4: return 4;
        case MmaElement::Fp16: return 16;
        case MmaElement::Bf16: return 16;
        case MmaElement::Tf32: return 32;
    }
    return 0;
}

uint32_t accumulatorBits(MmaAccumulator a) {
    switch (a) {
        case MmaAccumulator::Int32: return 32;
        case MmaAccumulator::Fp32: return 32;
        case MmaAccumulator::Fp16: return 16;
        case MmaAccumulator::Bf16: return 16;
    }
    return 0;
}

const char* elementName(MmaElement e) {
    switch (e) {
        case MmaElement::Int8: return "int8";
        case MmaElement::Int4: return "int4";
        case MmaElement::Fp16: return "fp16";
        case MmaElement::Bf16: return "bf16";
        case MmaElement::Tf32: return "tf32";
    }
    return "?";
}

const char* accumulatorName(MmaAccumulator a) {
    switch (a) {
        case MmaAccumulator::Int32: return "int32";
        case MmaAccumulator::Fp32: return "fp32";
        case MmaAccumulator::Fp16: return "fp16";
        case MmaAccumulator::Bf16: return "bf16";
    }
    return "?";
}

bool isInteger(MmaElement e) {
    return e == MmaElement::Int8 || e == MmaElement::Int4;
}

std::string MmaShape::str() const {
    std::ostringstream os;
    auto operand = [&](const char* name, MmaElement e, bool is_signed) {
        os << name << " " << elementName(e);
        if (isInteger(e)) os << (is_signed ? " signed" : " unsigned");
    };
    os << "n" << n << " k" << k << " m" << m << " ";
    operand("A", a, a_signed);
    os << ", ";
    operand("B", b, b_signed);
    os << ", C " << accumulatorName(c) << ", Result " << accumulatorName(result);
    return os.str();
}

uint32_t operandsMask(const MmaShape& s) {
    uint32_t mask = 0;
    switch (s.a) {
        case MmaElement::Int8: mask |= 0x10; break;    // MatrixAPackedInt8INTEL
        case MmaElement::Int4: mask |= 0x40; break;    // MatrixAPackedInt4INTEL
        case MmaElement::Fp16: mask |= 0x400; break;   // MatrixAPackedFloat16INTEL
        case MmaElement::Bf16: mask |= 0x1000; break;  // MatrixAPackedBFloat16INTEL
        case MmaElement::Tf32: mask |= 0x100; break;   // MatrixATF32INTEL
    }
    switch (s.b) {
        case MmaElement::Int8: mask |= 0x20; break;    // MatrixBPackedInt8INTEL
        case MmaElement::Int4: mask |= 0x80; break;    // MatrixBPackedInt4INTEL
        case MmaElement::Fp16: mask |= 0x800; break;   // MatrixBPackedFloat16INTEL
        case MmaElement::Bf16: mask |= 0x2000; break;  // MatrixBPackedBFloat16INTEL
        case MmaElement::Tf32: mask |= 0x200; break;   // MatrixBTF32INTEL
    }
    if (s.a_signed && isInteger(s.a)) mask |= 0x1;      // MatrixASignedComponentsINTEL
    if (s.b_signed && isInteger(s.b)) mask |= 0x2;      // MatrixBSignedComponentsINTEL
    if (s.c == MmaAccumulator::Bf16) mask |= 0x4;       // MatrixCBFloat16INTEL
    if (s.result == MmaAccumulator::Bf16) mask |= 0x8;  // MatrixResultBFloat16INTEL
    return mask;
}

OperandLayout aLayout(const MmaShape& s) {
    validateDims(s);
    uint32_t bits = elementBits(s.a);
    if (s.n == s.k) return {s.m, bits};
    if (s.n < s.k) {
        if (s.k % s.n) fail("A: K must be a multiple of N when N < K", s);
        uint32_t p = s.k / s.n;
        if (p * bits > 32) fail("A: K/N packed elements exceed 32 bits", s);
        return {s.m, p * bits};
    }
    if (s.n % s.k) fail("A: N must be a multiple of K when N > K", s);
    return {ceilDiv(s.m, s.n / s.k), bits};
}

OperandLayout bLayout(const MmaShape& s) {
    validateDims(s);
    uint32_t bits = elementBits(s.b);
    if (bits > 16) return {s.k, bits};  // "the column of Matrix B is passed as a vector"
    if ((s.k * bits) % 32) fail("B: K rows do not fill whole 32-bit components", s);
    return {s.k * bits / 32, 32};
}

OperandLayout cLayout(const MmaShape& s) {
    validateDims(s);
    return {s.m, accumulatorBits(s.c)};
}

OperandLayout resultLayout(const MmaShape& s) {
    validateDims(s);
    return {s.m, accumulatorBits(s.result)};
}

RawMatrix unpackA(const MmaShape& s, const LaneData& lanes) {
    OperandLayout l = aLayout(s);
    requireLanes(s, lanes, l, "A");
    uint32_t bits = elementBits(s.a), per = aPerComponent(s);
    RawMatrix a(s.m, s.k);
    for (uint32_t lane = 0; lane < s.n; ++lane)
        for (uint32_t comp = 0; comp < l.components; ++comp)
            for (uint32_t j = 0; j < per; ++j) {
                uint32_t row, col;
                if (!aSlot(s, lane, comp, j, &row, &col)) continue;
                a.at(row, col) = (lanes[lane][comp] >> (j * bits)) & lowMask(bits);
            }
    return a;
}

bool aComponentIgnored(const MmaShape& s, uint32_t lane, uint32_t component) {
    uint32_t row, col;
    for (uint32_t j = 0; j < aPerComponent(s); ++j)
        if (aSlot(s, lane, component, j, &row, &col)) return false;
    return true;
}

LaneData packA(const MmaShape& s, const RawMatrix& a) {
    OperandLayout l = aLayout(s);
    requireMatrix(s, a, s.m, s.k, "A");
    uint32_t bits = elementBits(s.a), per = aPerComponent(s);
    LaneData lanes(s.n, std::vector<uint32_t>(l.components, 0));
    for (uint32_t lane = 0; lane < s.n; ++lane)
        for (uint32_t comp = 0; comp < l.components; ++comp)
            for (uint32_t j = 0; j < per; ++j) {
                uint32_t row, col;
                if (!aSlot(s, lane, comp, j, &row, &col)) continue;
                lanes[lane][comp] |= (a.at(row, col) & lowMask(bits)) << (j * bits);
            }
    return lanes;
}

RawMatrix unpackB(const MmaShape& s, const LaneData& lanes) {
    OperandLayout l = bLayout(s);
    requireLanes(s, lanes, l, "B");
    uint32_t bits = elementBits(s.b), per = bPerComponent(s);
    RawMatrix b(s.k, s.n);
    // "Each invocation in the subgroup contributes a single column of Matrix B"
    for (uint32_t lane = 0; lane < s.n; ++lane)
        for (uint32_t row = 0; row < s.k; ++row)
            b.at(row, lane) = (lanes[lane][row / per] >> (row % per * bits)) & lowMask(bits);
    return b;
}

LaneData packB(const MmaShape& s, const RawMatrix& b) {
    OperandLayout l = bLayout(s);
    requireMatrix(s, b, s.k, s.n, "B");
    uint32_t bits = elementBits(s.b), per = bPerComponent(s);
    LaneData lanes(s.n, std::vector<uint32_t>(l.components, 0));
    for (uint32_t lane = 0; lane < s.n; ++lane)
        for (uint32_t row = 0; row < s.k; ++row)
            lanes[lane][row / per] |= (b.at(row, lane) & lowMask(bits)) << (row % per * bits);
    return lanes;
}

RawMatrix unpackC(const MmaShape& s, const LaneData& lanes) {
    // "Each invocation in the subgroup contributes a single column of Matrix C ... the lower-numbered
    // components representing lower-numbered rows." Result "is assigned to invocations the same as the
    // Matrix C operand", so component bits are copied unmasked and this serves Result of any format.
    OperandLayout l = cLayout(s);
    requireLanes(s, lanes, l, "C");
    RawMatrix c(s.m, s.n);
    for (uint32_t lane = 0; lane < s.n; ++lane)
        for (uint32_t row = 0; row < s.m; ++row) c.at(row, lane) = lanes[lane][row];
    return c;
}

LaneData packC(const MmaShape& s, const RawMatrix& c) {
    OperandLayout l = cLayout(s);
    requireMatrix(s, c, s.m, s.n, "C");
    LaneData lanes(s.n, std::vector<uint32_t>(l.components, 0));
    for (uint32_t lane = 0; lane < s.n; ++lane)
        for (uint32_t row = 0; row < s.m; ++row) lanes[lane][row] = c.at(row, lane);
    return lanes;
}

double elementValue(MmaElement e, bool is_signed, uint32_t bits) {
    switch (e) {
        case MmaElement::Int8:
        case MmaElement::Int4: return double(integerValue(e, is_signed, bits));
        case MmaElement::Fp16: return decodeBinary(kFp16, bits & 0xFFFF);
        case MmaElement::Bf16: return decodeBinary(kBf16, bits & 0xFFFF);
        case MmaElement::Tf32: return decodeBinary(kTf32, bits >> 13);  // low 13 significand bits ignored
    }
    return 0;
}

double accumulatorValue(MmaAccumulator a, uint32_t bits) {
    switch (a) {
        case MmaAccumulator::Int32: return double(int32_t(bits));
        case MmaAccumulator::Fp32: return decodeBinary(kFp32, bits);
        case MmaAccumulator::Fp16: return decodeBinary(kFp16, bits & 0xFFFF);
        case MmaAccumulator::Bf16: return decodeBinary(kBf16, bits & 0xFFFF);
    }
    return 0;
}

RawMatrix mmaInteger(const MmaShape& s, const RawMatrix& a, const RawMatrix& b, const RawMatrix& c) {
    validateDims(s);
    if (!isInteger(s.a) || !isInteger(s.b) || s.c != MmaAccumulator::Int32 ||
        s.result != MmaAccumulator::Int32)
        fail("mmaInteger needs integer A and B and int32 C and Result", s);
    requireMatrix(s, a, s.m, s.k, "A");
    requireMatrix(s, b, s.k, s.n, "B");
    requireMatrix(s, c, s.m, s.n, "C");
    RawMatrix r(s.m, s.n);
    for (uint32_t row = 0; row < s.m; ++row)
        for (uint32_t col = 0; col < s.n; ++col) {
            // "R is computed with enough precision to avoid overflow": |a*b| <= 2^16 per product.
            int64_t sum = int32_t(c.at(row, col));
            for (uint32_t k = 0; k < s.k; ++k)
                sum +=
                    integerValue(s.a, s.a_signed, a.at(row, k)) * integerValue(s.b, s.b_signed, b.at(k, col));
            // "The resulting value will equal the low-order N bits of the correct result R"
            r.at(row, col) = uint32_t(uint64_t(sum));
        }
    return r;
}

std::vector<FloatExpectation> mmaFloat(const MmaShape& s, const RawMatrix& a, const RawMatrix& b,
                                       const RawMatrix& c) {
    validateDims(s);
    if (isInteger(s.a) || isInteger(s.b) || s.c == MmaAccumulator::Int32 || s.result == MmaAccumulator::Int32)
        fail("mmaFloat needs floating-point A, B, C and Result", s);
    requireMatrix(s, a, s.m, s.k, "A");
    requireMatrix(s, b, s.k, s.n, "B");
    requireMatrix(s, c, s.m, s.n, "C");
    ResultPrecision p = precisionOf(s.result);
    std::vector<FloatExpectation> out(size_t(s.m) * s.n);
    std::vector<double> terms(s.k + 1), magnitudes(s.k + 1);
    for (uint32_t row = 0; row < s.m; ++row)
        for (uint32_t col = 0; col < s.n; ++col) {
            for (uint32_t k = 0; k < s.k; ++k) {
                // fp16, bf16 and tf32 significands have at most 11 bits, so each product is exact in double.
                terms[k] = elementValue(s.a, false, a.at(row, k)) * elementValue(s.b, false, b.at(k, col));
                magnitudes[k] = std::fabs(terms[k]);
            }
            terms[s.k] = accumulatorValue(s.c, c.at(row, col));
            magnitudes[s.k] = std::fabs(terms[s.k]);
            for (double t : terms)
                if (!std::isfinite(t)) fail("mmaFloat: A, B and C must be finite", s);
            FloatExpectation& e = out[size_t(row) * s.n + col];
            e.exact = exactSum(terms);
            e.magnitude = exactSum(magnitudes);
            // "For floating-point matrices, the precision and the order of operations are
            // implementation-defined": K + 1 roundings of either direction, plus flushed denormals.
            e.bound = (s.k + 2) * p.eps * e.magnitude + (s.k + 2) * p.min_normal;
        }
    return out;
}

bool floatResultAcceptable(MmaAccumulator result, const FloatExpectation& e, uint32_t actual_bits) {
    precisionOf(result);  // throws for int32
    double actual = accumulatorValue(result, actual_bits);
    if (!std::isfinite(actual)) return false;
    return std::fabs(actual - e.exact) <= e.bound;
}

uint32_t encodeExact(MmaElement e, double v) {
    switch (e) {
        case MmaElement::Int8: return encodeInteger(8, v, "int8");
        case MmaElement::Int4: return encodeInteger(4, v, "int4");
        case MmaElement::Fp16: return encodeBinary(kFp16, v, "fp16");
        case MmaElement::Bf16: return encodeBinary(kBf16, v, "bf16");
        case MmaElement::Tf32: return encodeBinary(kTf32, v, "tf32") << 13;
    }
    throw std::invalid_argument("encodeExact: unknown element format");
}

uint32_t encodeExactAccumulator(MmaAccumulator a, double v) {
    switch (a) {
        case MmaAccumulator::Int32: return encodeInteger(32, v, "int32");
        case MmaAccumulator::Fp32: return encodeBinary(kFp32, v, "fp32");
        case MmaAccumulator::Fp16: return encodeBinary(kFp16, v, "fp16");
        case MmaAccumulator::Bf16: return encodeBinary(kBf16, v, "bf16");
    }
    throw std::invalid_argument("encodeExactAccumulator: unknown accumulator format");
}

}  // namespace cts::reference
