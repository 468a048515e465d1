// The OpenCL environment table of cl_intel_subgroup_matrix_multiply_accumulate (and its _tf32 layer): the
// dimensions, types and Matrix Multiply Accumulate Operands a device accepts for each N. The SPIR-V spec
// leaves the supported set to the client API ("Many devices will only support a limited set of matrix
// dimensions and types. Related client API specifications will describe the required set") and makes
// anything else undefined ("It will always be undefined behavior to use an unsupported matrix dimension or
// type"); this device rejects it when the program is built, as Intel's compiler does, and again at
// execution for modules that reach it otherwise.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "reference_device/ext/matrix_multiply_accumulate/mma_ops.h"

namespace refdev::spirv::mma {
namespace {

struct Row {
    uint32_t n, k;
    TypeDesc result, a, b, c;  // components unset: filled from M
    bool a_half_m;             // A has ceil(M/2) components (N > K), else M
    uint32_t operands;         // exact bits ...
    uint32_t optional;         // ... plus any of these
    Elem a_elem, b_elem;
    Acc c_acc, result_acc;
    bool needs_tf32;
};

constexpr TypeDesc kI32{'i', 32, 0}, kI16{'i', 16, 0}, kF32{'f', 32, 0}, kF16{'f', 16, 0};
constexpr uint32_t kSigned = kASigned | kBSigned;
constexpr uint32_t kInt8 = kAPackedInt8 | kBPackedInt8, kInt4 = kAPackedInt4 | kBPackedInt4;
constexpr uint32_t kFp16 = kAPackedFloat16 | kBPackedFloat16, kBf16 = kAPackedBFloat16 | kBPackedBFloat16;

// Rows as docs/opencl_environment.md lists them (from the OpenCL extension spec); "M x T" is T when M = 1.
const Row kRows[] = {
    {8, 32, kI32, kI32, kI32, kI32, false, kInt8, kSigned, Elem::Int8, Elem::Int8, Acc::I32, Acc::I32, false},
    {8, 64, kI32, kI32, kI32, kI32, false, kInt4, kSigned, Elem::Int4, Elem::Int4, Acc::I32, Acc::I32, false},
    {8, 16, kF32, kI32, kI32, kF32, false, kFp16, 0, Elem::Fp16, Elem::Fp16, Acc::F32, Acc::F32, false},
    {8, 16, kF32, kI32, kI32, kF32, false, kBf16, 0, Elem::Bf16, Elem::Bf16, Acc::F32, Acc::F32, false},
    {16, 32, kI32, kI16, kI32, kI32, false, kInt8, kSigned, Elem::Int8, Elem::Int8, Acc::I32, Acc::I32,
     false},
    {16, 64, kI32, kI16, kI32, kI32, false, kInt4, kSigned, Elem::Int4, Elem::Int4, Acc::I32, Acc::I32,
     false},
    {16, 16, kF32, kI16, kI32, kF32, false, kFp16, 0, Elem::Fp16, Elem::Fp16, Acc::F32, Acc::F32, false},
    {16, 16, kF32, kI16, kI32, kF32, false, kBf16, 0, Elem::Bf16, Elem::Bf16, Acc::F32, Acc::F32, false},
    {16, 16, kF16, kI16, kI32, kF16, false, kFp16, 0, Elem::Fp16, Elem::Fp16, Acc::F16, Acc::F16, false},
    // bf16 pair | CBFloat16 | ResultBFloat16: C and Result are 16-bit integers holding bf16 bits.
    {16, 16, kI16, kI16, kI32, kI16, false, kBf16 | kCBFloat16 | kResultBFloat16, 0, Elem::Bf16, Elem::Bf16,
     Acc::Bf16, Acc::Bf16, false},
    {16, 8, kF32, kF32, kF32, kF32, true, kATF32 | kBTF32, 0, Elem::Tf32, Elem::Tf32, Acc::F32, Acc::F32,
     true},
};

// The types a row expects for M.
struct Expected {
    TypeDesc result, a, b, c;
};
Expected expected(const Row& r, uint32_t m) {
    Expected e{r.result, r.a, r.b, r.c};
    e.result.components = e.c.components = m;
    e.a.components = r.a_half_m ? (m + 1) / 2 : m;
    e.b.components = 8;  // always eight 32-bit components: K rows packed 32 / element bits per component
    return e;
}

std::string hex(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%X", v);
    return buf;
}

std::string bitNames(uint32_t operands) {
    static const char* kNames[] = {"ASigned",         "BSigned",        "CBFloat16",      "ResultBFloat16",
                                   "APackedInt8",     "BPackedInt8",    "APackedInt4",    "BPackedInt4",
                                   "ATF32",           "BTF32",          "APackedFloat16", "BPackedFloat16",
                                   "APackedBFloat16", "BPackedBFloat16"};
    std::string s;
    for (uint32_t bit = 0; bit < 14; ++bit)
        if (operands >> bit & 1) s += (s.empty() ? "" : " | ") + std::string(kNames[bit]);
    return s.empty() ? "None" : s;
}

// Which fields of the instruction differ from the row (Result, A, B, C, operands).
struct Mismatch {
    bool result, a, b, c, operands;
    int count() const { return int(result) + a + b + c + operands; }
};
Mismatch compare(const Row& r, const Instruction& in) {
    const Expected e = expected(r, in.result.components);
    return {!(in.result == e.result), !(in.a == e.a), !(in.b == e.b), !(in.c == e.c),
            (in.operands & ~r.optional) != r.operands};
}

// The parenthesised hint: what the nearest row of this N wants.
std::string hint(const Instruction& in) {
    const std::string at = " at N = " + std::to_string(in.n);
    std::vector<const Row*> same_k;
    std::vector<uint32_t> ks;
    for (const Row& r : kRows) {
        if (r.n != in.n) continue;
        if (r.k == in.k) same_k.push_back(&r);
        if ((!r.needs_tf32 || in.tf32) && std::find(ks.begin(), ks.end(), r.k) == ks.end()) ks.push_back(r.k);
    }
    if (ks.empty() && same_k.empty()) return "the table has no rows" + at;
    if (same_k.empty()) {
        std::sort(ks.begin(), ks.end());
        std::string list;
        for (size_t i = 0; i < ks.size(); ++i)
            list += (i ? (i + 1 == ks.size() ? " or " : ", ") : "") + std::to_string(ks[i]);
        return "K must be " + list + at;
    }
    const Row* best = same_k[0];
    for (const Row* r : same_k)
        if (compare(*r, in).count() < compare(*best, in).count()) best = r;
    if (best->needs_tf32 && !in.tf32)
        return "K = " + std::to_string(in.k) + at + " is the ATF32 | BTF32 row, which needs " +
               kTf32Extension + "; this device does not report it";
    const Mismatch mm = compare(*best, in);
    const Expected e = expected(*best, in.result.components);
    if (mm.result) return "Result must be " + toString(e.result) + at + ", K = " + std::to_string(in.k);
    if (mm.a) return "A must be " + toString(e.a) + at;
    if (mm.b) return "B must be " + toString(e.b) + at;
    if (mm.c) return "C must be " + toString(e.c) + at;
    // Only the operands differ: list every mask this N, K and these types accept.
    std::string masks;
    for (const Row* r : same_k) {
        Mismatch other = compare(*r, in);
        if (other.result || other.a || other.b || other.c) continue;
        if (!masks.empty()) masks += " or ";
        masks += hex(r->operands) + " (" + bitNames(r->operands) + ")";
        if (r->optional) masks += ", optionally with ASigned 0x1 and BSigned 0x2";
    }
    std::string s = "operands must be exactly " + masks + at + ", K = " + std::to_string(in.k);
    if (in.operands == kNone) s += "; an omitted operands literal is None, which matches no row";
    return s;
}

}  // namespace

TypeDesc describe(const TypeInfo& t) {
    TypeDesc d;
    const bool scalar = t.kind == TypeInfo::Kind::Int || t.kind == TypeInfo::Kind::Float;
    const bool vector = t.kind == TypeInfo::Kind::Vector && (t.component_kind == TypeInfo::Kind::Int ||
                                                             t.component_kind == TypeInfo::Kind::Float);
    if (!scalar && !vector) return d;
    d.kind = t.component_kind == TypeInfo::Kind::Float ? 'f' : 'i';
    d.bits = t.component_bits;
    d.components = scalar ? 1 : t.components;
    return d;
}

std::string toString(const TypeDesc& t) {
    if (t.kind == '?') return "a non-numeric type";
    std::string scalar = std::string(1, t.kind) + std::to_string(t.bits);
    return t.components == 1 ? scalar : std::to_string(t.components) + " x " + scalar;
}

std::string matchTable(const Instruction& in, Shape* shape) {
    // "Result Type ... must be a scalar or vector of floating-point or integer type. The number of
    // components in Result Type defines the M dimension"; the OpenCL environment allows M = 1, 2, 4, 8.
    if (in.result.kind == '?')
        return "Result Type must be a scalar or vector of floating-point or integer type";
    const uint32_t m = in.result.components;
    if (m != 1 && m != 2 && m != 4 && m != 8)
        return "M, the number of components in Result Type, must be 1, 2, 4 or 8 (OpenCL environment), not " +
               std::to_string(m);
    const Row* found = nullptr;
    for (const Row& r : kRows)
        if (r.n == in.n && r.k == in.k && (!r.needs_tf32 || in.tf32) && compare(r, in).count() == 0) {
            found = &r;
            break;
        }
    if (!found)
        return "no row of the cl_intel_subgroup_matrix_multiply_accumulate table for N = " +
               std::to_string(in.n) + " matches K = " + std::to_string(in.k) + ", Result " +
               toString(in.result) + ", A " + toString(in.a) + ", B " + toString(in.b) + ", C " +
               toString(in.c) + ", operands " + hex(in.operands) + " (" + hint(in) + ")";
    if (shape) {
        shape->m = m, shape->n = in.n, shape->k = in.k;
        shape->a = found->a_elem, shape->b = found->b_elem;
        shape->c = found->c_acc, shape->result = found->result_acc;
        // "ASigned / BSigned": without them the packed integer components are unsigned.
        shape->a_signed = in.operands & kASigned, shape->b_signed = in.operands & kBSigned;
    }
    return "";
}

std::string checkBuild(const ExtBuildView& view) {
    const std::string name = std::string(kOpName) + ": ";
    if (!view.profile || view.profile->mma_n == 0)
        return name +
               "the device has no MMA (it does not report cl_intel_subgroup_matrix_multiply_accumulate)";
    if (!view.result || view.operand_types.size() < 4)
        return name + "needs a Result Type, K Dim, Matrix A, Matrix B and Matrix C";
    // "K Dim ... must come from a constant instruction with scalar 32-bit integer type."
    const TypeInfo* kdim = view.operand_types[0];
    if (!kdim || kdim->kind != TypeInfo::Kind::Int || kdim->component_bits != 32 || !view.int_constant[0])
        return name + "K Dim must come from a constant instruction with scalar 32-bit integer type";
    Instruction in;
    in.n = view.profile->mma_n;
    in.tf32 = view.profile->hasExtension(kTf32Extension);
    in.k = uint32_t(view.int_value[0]);
    in.result = describe(*view.result);
    for (uint32_t k = 1; k <= 3; ++k) {
        TypeDesc d = view.operand_types[k] ? describe(*view.operand_types[k]) : TypeDesc{};
        (k == 1 ? in.a : k == 2 ? in.b : in.c) = d;
    }
    // "If Matrix Multiply Accumulate Operands is not present, it is the same as specifying ... None."
    in.operands = view.literal.size() > 4 ? view.literal[4] : kNone;
    std::string why = matchTable(in, nullptr);
    return why.empty() ? why : name + why;
}

}  // namespace refdev::spirv::mma
