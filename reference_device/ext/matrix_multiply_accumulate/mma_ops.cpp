// OpSubgroupMatrixMultiplyAccumulateINTEL on the reference device, read from the SPIR-V spec text (the
// instruction, "Mapping Matrix Data to Invocations") and the OpenCL environment of
// cl_intel_subgroup_matrix_multiply_accumulate. The whole sub-group's operands are unpacked into matrices
// (mma_layout.cpp), multiplied and accumulated element by element, and the Result matrix is handed back
// column per invocation. It shares nothing with the suite's host reference.
#include "reference_device/ext/matrix_multiply_accumulate/mma_ops.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "reference_device/ext/matrix_multiply_accumulate/mma_layout.h"

namespace refdev::spirv::mma {
namespace {

uint32_t elementBits(Elem e) {
    switch (e) {
        case Elem::Int8: return 8;
        case Elem::Int4: return 4;
        case Elem::Fp16:
        case Elem::Bf16: return 16;
        case Elem::Tf32: return 32;
    }
    return 32;
}

bool isInteger(Elem e) {
    return e == Elem::Int8 || e == Elem::Int4;
}

// Packed integers: "Without a Signed bit, packed integer components are unsigned" (OpenCL environment).
int64_t intValue(uint32_t bits, Elem e, bool is_signed) {
    if (!is_signed) return bits;
    return e == Elem::Int8 ? int64_t(int8_t(uint8_t(bits))) : int64_t(bits & 0xF) - (bits & 0x8 ? 16 : 0);
}

double floatValue(uint32_t bits, Elem e) {
    switch (e) {
        case Elem::Fp16: return decodeFloat(bits, 5, 10);
        case Elem::Bf16: return decodeFloat(bits, 8, 7);
        // TF32 is passed as fp32 bits; the format keeps 10 significand bits, so the low 13 are ignored.
        case Elem::Tf32: return decodeFloat(bits & ~0x1FFFu, 8, 23);
        default: return 0;
    }
}

double accValue(uint32_t bits, Acc a, bool bf16_as_fp16) {
    switch (a) {
        case Acc::F32: return decodeFloat(bits, 8, 23);
        case Acc::F16: return decodeFloat(bits, 5, 10);
        case Acc::Bf16: return bf16_as_fp16 ? decodeFloat(bits, 5, 10) : decodeFloat(bits, 8, 7);
        case Acc::I32: return double(int32_t(bits));
    }
    return 0;
}

// Rounded to nearest even in the Result format (bf16: the top 16 bits of fp32, rounded).
uint32_t encodeResult(double v, Acc a) {
    switch (a) {
        case Acc::F16: return encodeFloat(v, 5, 10);
        case Acc::Bf16: return encodeFloat(v, 8, 7);
        default: return encodeFloat(v, 8, 23);
    }
}

// Operand k of every lane, components zero-extended to 32 bits.
LaneData readOperand(const OpContext& ctx, uint32_t k) {
    const TypeInfo& t = ctx.operandType(k);
    const uint32_t bytes = t.component_bits / 8;
    LaneData d(ctx.lanes(), t.components, t.component_bits);
    for (uint32_t l = 0; l < ctx.lanes(); ++l)
        for (uint32_t c = 0; c < t.components; ++c) {
            uint32_t w = 0;
            std::memcpy(&w, ctx.operand(l, k) + size_t(c) * bytes, std::min<uint32_t>(bytes, 4));
            d.at(l, c) = w;
        }
    return d;
}

std::string inactiveLanes(const OpContext& ctx) {
    std::string s;
    for (uint32_t l = 0; l < ctx.lanes(); ++l)
        if (!ctx.active(l)) s += (s.empty() ? "" : ", ") + std::to_string(l);
    return s;
}

// Checks every rule the spec and the OpenCL environment state; reports undefined behaviour (and returns
// false) on the first violation.
bool decode(OpContext& ctx, Shape* shape) {
    uint32_t lane0 = 0;
    while (lane0 + 1 < ctx.lanes() && !ctx.active(lane0)) ++lane0;
    auto ub = [&](const std::string& what) {
        ctx.undefinedBehavior(lane0, std::string(kOpName) + ": " + what);
        return false;
    };
    const uint32_t n = ctx.maxLanes();
    // "The N dimension ... is implicitly the number of invocations in the subgroup", and N must equal the
    // device's minimum sub-group size with full sub-groups (OpenCL environment).
    if (ctx.lanes() != n)
        return ub("partial sub-group (" + std::to_string(ctx.lanes()) + " of " + std::to_string(n) +
                  " invocations): N, the number of invocations in the subgroup, must be the full size that "
                  "equals the device's minimum sub-group size (OpenCL environment)");
    if (!ctx.allActive())
        return ub(
            "Behavior is undefined unless all invocations within the subgroup execute the same dynamic "
            "instance of this instruction (invocations " +
            inactiveLanes(ctx) + " did not execute it with the others)");
    const Profile* profile = ctx.profile();
    if (profile && profile->mma_n == 0) return ub("the device has no MMA");
    if (profile && n != profile->mma_n)
        return ub("the sub-group has " + std::to_string(n) +
                  " invocations, but N, the number of invocations in the subgroup, must equal the device's "
                  "minimum sub-group size, " +
                  std::to_string(profile->mma_n) + " (OpenCL environment)");
    const TypeInfo& kdim = ctx.operandType(0);
    if (!ctx.isConstant(0) || kdim.kind != TypeInfo::Kind::Int || kdim.component_bits != 32)
        return ub("K Dim must come from a constant instruction with scalar 32-bit integer type");
    Instruction in;
    in.n = n;
    in.tf32 = profile ? profile->hasExtension(kTf32Extension) : true;
    in.k = ctx.get<uint32_t>(lane0, 0);
    in.result = describe(ctx.resultType());
    in.a = describe(ctx.operandType(1));
    in.b = describe(ctx.operandType(2));
    in.c = describe(ctx.operandType(3));
    in.operands = ctx.operandCount() > 4 ? ctx.literal(4) : kNone;
    // "It will always be undefined behavior to use an unsupported matrix dimension or type."
    std::string why = matchTable(in, shape);
    return why.empty() ? true : ub(why);
}

// Component c of a lane's operand of `bytes`-byte components, zero-extended (as readOperand reads it).
uint32_t component(const uint8_t* p, uint32_t bytes, uint32_t c) {
    uint32_t w = 0;
    std::memcpy(&w, p + size_t(c) * bytes, std::min<uint32_t>(bytes, 4));
    return w;
}

// Elements first ... first + count - 1 of a little-endian stream of Bits-bit (8 or 4) packed integers, as
// intValue reads them.
template <uint32_t Bits>
void unpackStream(const uint8_t* p, uint32_t first, uint32_t count, bool is_signed, int16_t* out) {
    const int32_t negative = is_signed ? 1 << Bits : 0;  // subtracted when the sign bit is set
    for (uint32_t i = first; i < first + count; ++i) {
        const uint32_t v = Bits == 8 ? p[i] : (p[i / 2] >> (i % 2 * 4)) & 0xF;
        *out++ = int16_t(int32_t(v) - (v >> (Bits - 1) ? negative : 0));
    }
}

// Sum over j < K of a[j] * b[j]: 16-bit elements (every int8 and int4 value fits) and a constant K let the
// compiler vectorize it as 16 x 16 -> 32-bit multiply-adds.
template <uint32_t K>
int32_t dot(const int16_t* a, const int16_t* b) {
    int32_t sum = 0;
    for (uint32_t j = 0; j < K; ++j) sum += int32_t(a[j]) * b[j];
    return sum;
}

// Packed integer rows (int8, int4; C and Result i32) on the clean device: the mapping of mma_layout.cpp
// without its general matrices, operands read once per lane straight into signed or unsigned values. Every
// product sum fits in 32 bits (at most 64 x 255 x 255), so 32-bit wrapping arithmetic gives "the low-order
// N bits of the correct result". Returns false (nothing written) for shapes it does not handle.
bool executePackedInteger(OpContext& ctx, const Shape& s) {
    const uint32_t m = s.m, n = s.n, k = s.k, bits = elementBits(s.a);
    const uint32_t per = n ? k / n : 0, a_bits = ctx.operandType(1).component_bits;
    if (!isInteger(s.a) || s.b != s.a || (k != 32 && k != 64) || n > 32 || k % n || m > 8 ||
        a_bits != per * bits || ctx.operandType(2).component_bits != 32 ||
        ctx.operandType(2).components * 32 < k * bits || ctx.operandType(3).component_bits != 32 ||
        ctx.resultType().component_bits != 32)
        return false;
    // Both operands are little-endian streams of packed elements: lane l's A component r holds columns
    // l * per ... l * per + per - 1 of row r, low columns in low bits, and exactly fills the component; lane
    // col's B components hold column col, low rows in low bits.
    int16_t a[8][64], bt[32][64];  // A row-major, B column-major (bt[col] is column col)
    const auto unpack = bits == 8 ? unpackStream<8> : unpackStream<4>;
    for (uint32_t l = 0; l < n; ++l) {
        const uint8_t* p = ctx.operand(l, 1);
        for (uint32_t r = 0; r < m; ++r) unpack(p, r * per, per, s.a_signed, &a[r][l * per]);
    }
    for (uint32_t col = 0; col < n; ++col) unpack(ctx.operand(col, 2), 0, k, s.b_signed, bt[col]);
    for (uint32_t col = 0; col < n; ++col) {
        const uint8_t* c = ctx.operand(col, 3);
        uint8_t* out = ctx.result(col);
        for (uint32_t r = 0; r < m; ++r) {
            const uint32_t sum = uint32_t(k == 32 ? dot<32>(a[r], bt[col]) : dot<64>(a[r], bt[col]));
            const uint32_t v = component(c, 4, r) + sum;
            std::memcpy(out + size_t(r) * 4, &v, 4);
        }
    }
    return true;
}

}  // namespace

void execute(OpContext& ctx) {
    Shape s;
    if (!decode(ctx, &s)) return;
    // Planted faults change the general path only.
    if (!ctx.faults().any() && executePackedInteger(ctx, s)) return;
    const Faults& faults = ctx.faults();
    LayoutFaults lf;
    lf.a_columns_reversed = faults.has("mma_a_columns_reversed");
    lf.b_rows_swapped = faults.has("mma_b_vnni_rows_swapped");
    lf.nibbles_swapped = faults.has("mma_int4_nibbles_swapped");
    lf.tf32_interleave = faults.has("mma_tf32_a_interleave_wrong");
    lf.a_as_16_lanes = faults.has("mma_n8_uses_16_lane_layout");
    lf.a_reads_ignored = faults.has("mma_reads_ignored_a_lane");

    const uint32_t m = s.m, n = s.n, k = s.k;
    const LaneData a_lanes = readOperand(ctx, 1);
    Matrix a = unpackA(a_lanes, m, k, elementBits(s.a), lf);
    Matrix b = unpackB(readOperand(ctx, 2), k, elementBits(s.b), lf);
    Matrix c = unpackC(readOperand(ctx, 3), m);
    if (faults.has("mma_second_site_b_zero") && ctx.siteOrdinal() >= 1) b = Matrix(k, n);
    if (faults.has("mma_c_ignored")) c = Matrix(m, n);
    if (faults.has("mma_chain_drops_c")) {
        // Slot 0 holds a bit per instruction site this sub-group has executed: from its second execution
        // on (a loop-carried accumulator), the site reads C as zero.
        if (uint64_t* seen = ctx.faultState(0)) {
            const uint64_t bit = uint64_t(1) << (ctx.siteOrdinal() % 64);
            if (*seen & bit) c = Matrix(m, n);
            *seen |= bit;
        }
    }
    if (faults.has("mma_wrong_after_first_workgroup") && ctx.workGroupLinearId() != 0 && m > 1) {
        Matrix shifted(m, k);
        for (uint32_t r = 0; r < m; ++r)
            for (uint32_t j = 0; j < k; ++j) shifted.at(r, j) = a.at((r + 1) % m, j);
        a = shifted;
    }
    bool late_nan = false;
    if (faults.has("mma_nan_late_k_step") && (s.a == Elem::Fp16 || s.a == Elem::Bf16)) {
        // Slot 3 counts this sub-group's executions of any MMA instruction.
        if (uint64_t* count = ctx.faultState(3)) late_nan = ++*count > 16;
    }
    const bool a_signed = s.a_signed && !faults.has("mma_a_signed_ignored");
    const bool b_signed = s.b_signed && !faults.has("mma_b_signed_ignored");
    const bool bf16_c_as_fp16 = faults.has("mma_bf16_c_as_fp16");
    const bool saturate = faults.has("mma_int_saturate");
    const uint32_t k_used = faults.has("mma_half_k") ? k / 2 : k;

    Matrix result(m, n);
    for (uint32_t r = 0; r < m; ++r)
        for (uint32_t col = 0; col < n; ++col) {
            if (isInteger(s.a)) {
                // "The resulting value will equal the low-order N bits of the correct result R, where N is
                // the result width and R is computed with enough precision to avoid overflow and underflow."
                int64_t sum = int32_t(c.at(r, col));
                for (uint32_t j = 0; j < k_used; ++j)
                    sum += intValue(a.at(r, j), s.a, a_signed) * intValue(b.at(j, col), s.b, b_signed);
                if (saturate)
                    sum = std::clamp<int64_t>(sum, std::numeric_limits<int32_t>::min(),
                                              std::numeric_limits<int32_t>::max());
                result.at(r, col) = uint32_t(sum);
            } else {
                // "For floating-point matrices, the precision and the order of operations are
                // implementation-defined": this device sums in double (products of the narrow formats are
                // exact there) and rounds once to the Result format.
                double sum = accValue(c.at(r, col), s.c, bf16_c_as_fp16 && s.c == Acc::Bf16);
                for (uint32_t j = 0; j < k_used; ++j)
                    sum += floatValue(a.at(r, j), s.a) * floatValue(b.at(j, col), s.b);
                result.at(r, col) = encodeResult(sum, s.result);
            }
        }

    // The fault takes M from A's component count (fewer than M only for TF32): later rows are zero.
    if (faults.has("mma_m_from_a_components"))
        for (uint32_t r = a_lanes.components; r < m; ++r)
            for (uint32_t col = 0; col < n; ++col) result.at(r, col) = 0;
    if (faults.has("mma_lane0_broadcast"))
        for (uint32_t r = 0; r < m; ++r)
            for (uint32_t col = 1; col < n; ++col) result.at(r, col) = result.at(r, 0);
    if (faults.has("mma_odd_workgroups_zero") && ctx.workGroupLinearId() % 2 == 1) result = Matrix(m, n);
    if (late_nan)
        for (uint32_t r = 0; r < m; ++r)
            for (uint32_t col = 0; col < n; ++col)
                result.at(r, col) = encodeResult(std::numeric_limits<double>::quiet_NaN(), s.result);

    const TypeInfo& rt = ctx.resultType();
    const LaneData out = packResult(result, rt.component_bits);
    const uint32_t bytes = rt.component_bits / 8;
    for (uint32_t l = 0; l < n; ++l)
        for (uint32_t r = 0; r < m; ++r) {
            const uint32_t w = out.at(l, r);
            std::memcpy(ctx.result(l) + size_t(r) * bytes, &w, bytes);
        }
}

}  // namespace refdev::spirv::mma

namespace refdev::spirv {

void registerMatrixMultiplyAccumulateOps(ExtOpTable& table) {
    using namespace mma;
    // Operands after Result Type and Result: K Dim, Matrix A, Matrix B, Matrix C, then the optional Matrix
    // Multiply Accumulate Operands literal (a literal word, not an <id>).
    table.add({kOp, kOpName, true, 4, 5, 4, {kCapability}, execute, checkBuild});
    // The split mads: the same operands, executed by two sub-groups together; reached only through their
    // built-ins, which the profiles reporting cl_intel_subgroup_split_matrix_multiply_accumulate accept.
    table.add({kOpSplitMatrixMad,
               "intel_sub_group_<A>_<B>_split_matrix_mad_k<K>",
               true,
               4,
               5,
               4,
               {},
               nullptr,
               checkSplitBuild,
               executeSplitPair});
}

REFDEV_REGISTER_EXT_OPS("matrix_multiply_accumulate", registerMatrixMultiplyAccumulateOps);

}  // namespace refdev::spirv
