// SPV_INTEL_subgroup_matrix_multiply_accumulate operand rules (the instruction description of
// OpSubgroupMatrixMultiplyAccumulateINTEL, plus the OpenCL environment table of supported combinations; see
// docs/opencl_environment.md). No SPIRV-Tools release validates these.
#include "test_common/spirv/matrix_multiply_accumulate/rules.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "test_common/spirv/matrix_multiply_accumulate/operands.h"
#include "test_common/spirv/spirv_headers.h"

namespace cts {
namespace {

constexpr uint16_t kOpConstant = 43, kOpFunction = 54, kOpFunctionEnd = 56, kOpFunctionCall = 57;
constexpr const char* kOpName = "OpSubgroupMatrixMultiplyAccumulateINTEL";

std::string hex(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%X", v);
    return buf;
}

// "APackedInt8|BPackedInt8 (0x30)"; "None (0x0)".
std::string maskText(uint32_t mask) {
    static const std::pair<uint32_t, const char*> kBits[] = {
        {CTS_MMA_BIT(ASignedComponents), "ASigned"},
        {CTS_MMA_BIT(BSignedComponents), "BSigned"},
        {CTS_MMA_BIT(CBFloat16), "CBFloat16"},
        {CTS_MMA_BIT(ResultBFloat16), "ResultBFloat16"},
        {CTS_MMA_BIT(APackedInt8), "APackedInt8"},
        {CTS_MMA_BIT(BPackedInt8), "BPackedInt8"},
        {CTS_MMA_BIT(APackedInt4), "APackedInt4"},
        {CTS_MMA_BIT(BPackedInt4), "BPackedInt4"},
        {CTS_MMA_BIT(ATF32), "ATF32"},
        {CTS_MMA_BIT(BTF32), "BTF32"},
        {CTS_MMA_BIT(APackedFloat16), "APackedFloat16"},
        {CTS_MMA_BIT(BPackedFloat16), "BPackedFloat16"},
        {CTS_MMA_BIT(APackedBFloat16), "APackedBFloat16"},
        {CTS_MMA_BIT(BPackedBFloat16), "BPackedBFloat16"},
    };
    if (mask == 0) return "None (0x0)";
    std::string names;
    uint32_t rest = mask;
    for (const auto& [bit, name] : kBits)
        if (mask & bit) {
            names += (names.empty() ? "" : "|") + std::string(name);
            rest &= ~bit;
        }
    if (rest) names += (names.empty() ? "" : "|") + hex(rest);
    return names + " (" + hex(mask) + ")";
}

// A scalar (count 0) or vector of integer / floating-point components; signedness is irrelevant.
struct Shape {
    bool is_float = false;
    uint32_t width = 0;
    uint32_t count = 0;  // 0: scalar

    bool operator==(const Shape& o) const {
        return is_float == o.is_float && width == o.width && count == o.count;
    }
};

std::string elemText(bool is_float, uint32_t width) {
    return (is_float ? "f" : "i") + std::to_string(width);
}

std::string shapeText(const Shape& s) {
    return (s.count ? std::to_string(s.count) + " x " : "") + elemText(s.is_float, s.width);
}

// One row of the OpenCL environment table, one operands mask per row ("Intel's compiler enforces exactly
// one flag mask per row and rejects extra bits").
struct Row {
    uint32_t n, k;
    const char* name;
    bool result_float;
    uint32_t result_width;
    bool a_float;
    uint32_t a_width;
    bool a_half_m;  // A has ceil(M/2) components (tf32) instead of M
    bool b_float;   // B is 8 x i32 or 8 x f32
    uint32_t required, optional;
};

// C has the Result's type in every row.
constexpr Row kRows[] = {
    {8, 32, "int8", false, 32, false, 32, false, false, kMmaInt8, kMmaSigned},
    {8, 64, "int4", false, 32, false, 32, false, false, kMmaInt4, kMmaSigned},
    {8, 16, "fp16", true, 32, false, 32, false, false, kMmaFp16, 0},
    {8, 16, "bf16", true, 32, false, 32, false, false, kMmaBf16, 0},
    {16, 32, "int8", false, 32, false, 16, false, false, kMmaInt8, kMmaSigned},
    {16, 64, "int4", false, 32, false, 16, false, false, kMmaInt4, kMmaSigned},
    {16, 16, "fp16", true, 32, false, 16, false, false, kMmaFp16, 0},
    {16, 16, "bf16", true, 32, false, 16, false, false, kMmaBf16, 0},
    {16, 16, "fp16 with f16 result", true, 16, false, 16, false, false, kMmaFp16, 0},
    {16, 16, "bf16 with bf16 result", false, 16, false, 16, false, false,
     kMmaBf16 | CTS_MMA_BIT(CBFloat16) | CTS_MMA_BIT(ResultBFloat16), 0},
    {16, 8, "tf32", true, 32, true, 32, true, true, kMmaTf32, 0},
};

std::string rowText(const Row& r) {
    return "the row for K=" + std::to_string(r.k) + " " + r.name + " at N=" + std::to_string(r.n);
}

bool maskFits(const Row& r, uint32_t mask) {
    return (mask & ~r.optional) == r.required;
}

// What the table row wants for operand j (0 Result, 1 A, 2 B, 3 C) at M, and how the table writes it.
Shape expected(const Row& r, int j, uint32_t m, std::string* pattern) {
    auto vec = [](uint32_t count) { return count == 1 ? 0 : count; };
    Shape s;
    switch (j) {
        case 1:
            s = {r.a_float, r.a_width, vec(r.a_half_m ? (m + 1) / 2 : m)};
            *pattern = std::string(r.a_half_m ? "ceil(M/2)" : "M") + " x " + elemText(s.is_float, s.width);
            break;
        case 2:
            s = {r.b_float, 32, 8};
            *pattern = "";
            break;
        default:
            s = {r.result_float, r.result_width, vec(m)};
            *pattern = "M x " + elemText(s.is_float, s.width);
    }
    return s;
}

constexpr const char* kOperandNames[] = {"Result", "A", "B", "C"};

// Distance of the instruction from row r: 2 per operand of the wrong component type, 1 per operand of the
// right component type but wrong component count, 3 for a mask that does not fit.
int distance(const Row& r, const Shape (&actual)[4], uint32_t m, uint32_t mask) {
    int d = maskFits(r, mask) ? 0 : 3;
    std::string pattern;
    for (int j = 0; j < 4; ++j) {
        Shape e = expected(r, j, m, &pattern);
        if (e == actual[j]) continue;
        d += (e.is_float == actual[j].is_float && e.width == actual[j].width) ? 1 : 2;
    }
    return d;
}

// Why the instruction is not row r: "A is 8 x i16, the row for K=32 int8 at N=16 needs M x i16 = 4 x i16".
std::string explain(const Row& r, const Shape (&actual)[4], uint32_t m, uint32_t mask, bool mask_present) {
    std::vector<std::string> is, needs;
    for (int j = 0; j < 4; ++j) {
        std::string pattern;
        Shape e = expected(r, j, m, &pattern);
        if (e == actual[j]) continue;
        is.push_back(std::string(kOperandNames[j]) + " is " + shapeText(actual[j]));
        needs.push_back((pattern.empty() ? "" : pattern + " = ") + shapeText(e));
    }
    std::string out;
    if (!is.empty()) {
        std::string lhs, rhs;
        for (size_t i = 0; i < is.size(); ++i) {
            lhs += (i ? " and " : "") + is[i];
            // With several operands wrong, name each one in the requirement too.
            rhs += (i ? " and " : "") +
                   (is.size() > 1 ? is[i].substr(0, is[i].find(" is ")) + " " : std::string()) + needs[i];
        }
        out = lhs + ", " + rowText(r) + " needs " + rhs;
    }
    if (!maskFits(r, mask)) {
        if (!out.empty()) out += "; ";
        out += "Matrix Multiply Accumulate Operands is " +
               (mask_present ? maskText(mask) : "None (omitted)") + ", " + rowText(r) + " needs " +
               (r.optional ? "" : "exactly ") + maskText(r.required);
        if (r.optional) out += " with optional " + maskText(r.optional);
        uint32_t extra = mask & ~(r.required | r.optional), missing = r.required & ~mask;
        if (extra) out += "; bits " + maskText(extra) + " are not allowed";
        if (missing) out += "; bits " + maskText(missing) + " are missing";
    }
    return out;
}

// Which functions each function calls, which function holds each instruction, and which SubgroupSize each
// entry point declares: enough to find the sub-group sizes an instruction runs at.
class SubgroupSizes {
public:
    explicit SubgroupSizes(const SpirvModule& m) {
        uint32_t current = 0;
        for (const SpirvInstruction& inst : m.instructions()) {
            if (inst.opcode == kOpFunction) current = inst.result_id;
            if (current) function_of_[inst.offset] = current;
            if (inst.opcode == kOpFunctionCall && current && inst.operandCount() >= 1)
                calls_[current].insert(inst.operand(0));
            if (inst.opcode == kOpFunctionEnd) current = 0;
        }
        for (const SpirvExecutionMode& em : m.executionModes())
            if (!em.is_id && em.mode == spv::ExecutionModeSubgroupSize && em.literals.size() == 1)
                sizes_[em.entry_point].insert(em.literals[0]);
        for (const SpirvEntryPoint& ep : m.entryPoints()) {
            std::set<uint32_t>& seen = reach_[ep.function_id];
            std::vector<uint32_t> todo = {ep.function_id};
            while (!todo.empty()) {
                uint32_t f = todo.back();
                todo.pop_back();
                if (!seen.insert(f).second) continue;
                for (uint32_t callee : calls_[f]) todo.push_back(callee);
            }
        }
    }

    // The SubgroupSize values of the entry points that reach the instruction at `offset`; when no entry
    // point reaches it, every SubgroupSize in the module. Empty: no size declared, N may be 8 or 16.
    std::set<uint32_t> at(uint32_t offset) const {
        auto f = function_of_.find(offset);
        std::set<uint32_t> out;
        bool reached = false;
        for (const auto& [entry, functions] : reach_) {
            if (f == function_of_.end() || !functions.count(f->second)) continue;
            reached = true;
            if (auto s = sizes_.find(entry); s != sizes_.end())
                out.insert(s->second.begin(), s->second.end());
        }
        if (!reached)
            for (const auto& [entry, sizes] : sizes_) out.insert(sizes.begin(), sizes.end());
        return out;
    }

private:
    std::map<uint32_t, uint32_t> function_of_;      // instruction offset -> function id
    std::map<uint32_t, std::set<uint32_t>> calls_;  // function id -> callees
    std::map<uint32_t, std::set<uint32_t>> sizes_;  // entry point function id -> SubgroupSize values
    std::map<uint32_t, std::set<uint32_t>> reach_;  // entry point function id -> functions it reaches
};

class Checker {
public:
    Checker(const SpirvModule& m, const SpirvInstruction& inst, const SubgroupSizes& sizes,
            std::vector<Violation>& out)
        : m_(m), inst_(inst), sizes_(sizes), out_(out) {}

    void report(const std::string& rule, const std::string& message) {
        out_.push_back({"mma." + rule, std::string(kOpName) + ": " + message, inst_.offset});
    }

    void run() {
        size_t count = inst_.operandCount();
        if (count != 4 && count != 5) {
            report("operand_count",
                   "takes K Dim, Matrix A, Matrix B, Matrix C and an optional Matrix Multiply "
                   "Accumulate Operands literal (4 or 5 operands), found " +
                       std::to_string(count));
            return;
        }
        bool ok = checkKDim();
        ok = checkOperandTypes() && ok;
        ok = ok && checkM();
        if (ok) checkTableRow();
    }

private:
    // "K Dim ... must come from a constant instruction with scalar 32-bit integer type."
    bool checkKDim() {
        uint32_t id = inst_.operand(0);
        const SpirvInstruction* def = m_.definition(id);
        const SpirvType* t = m_.typeOfValue(id);
        bool is_int = t && t->kind == SpirvType::Kind::Int;
        if (def && def->opcode == kOpConstant && is_int && t->width == 32 && m_.intConstant(id)) {
            k_ = static_cast<uint32_t>(*m_.intConstant(id));
            return true;
        }
        std::string what = def && def->opcode == kOpConstant && is_int
                               ? "is a " + std::to_string(t->width) + "-bit integer OpConstant"
                               : "is not an OpConstant with scalar 32-bit integer type";
        report("kdim_constant", "K Dim (%" + std::to_string(id) + ") " + what +
                                    " (\"It must come from a constant instruction with scalar 32-bit integer "
                                    "type.\")");
        return false;
    }

    // Scalar or vector of integer or floating-point type, as a Shape; nothing otherwise.
    std::optional<Shape> shapeOfType(uint32_t type_id, std::string* what) const {
        const SpirvType* t = m_.type(type_id);
        const SpirvType* elem = t;
        uint32_t count = 0;
        if (t && t->kind == SpirvType::Kind::Vector)
            elem = m_.type(t->component_type), count = t->component_count;
        if (elem && (elem->kind == SpirvType::Kind::Int || elem->kind == SpirvType::Kind::Float))
            return Shape{elem->kind == SpirvType::Kind::Float, elem->width, count};
        static const char* kKinds[] = {"void",       "bool",
                                       "an integer", "a float",
                                       "a vector",   "a pointer",
                                       "an array",   "a struct",
                                       "a function", "an image",
                                       "a sampler",  "a sampled image",
                                       "an event",   "not a recorded type"};
        if (!t)
            *what = "not a recorded type";
        else if (t->kind == SpirvType::Kind::Vector)
            *what = "a vector of " + std::string(elem ? kKinds[int(elem->kind)] : "an unrecorded type");
        else
            *what = kKinds[int(t->kind)];
        return std::nullopt;
    }

    // "Result Type ... must be a scalar or vector of floating-point or integer type." and the same sentence
    // for Matrix A, Matrix B and Matrix C.
    bool checkOperandTypes() {
        static const char* kSentences[] = {
            "Result Type ... must be a scalar or vector of floating-point or integer type.",
            "The type of Matrix A must be a scalar or vector of floating-point or integer type.",
            "Matrix B ... must be a scalar or vector of floating-point or integer type.",
            "Matrix C ... must be a scalar or vector of floating-point or integer type."};
        bool ok = true;
        for (int j = 0; j < 4; ++j) {
            const SpirvInstruction* def = j ? m_.definition(inst_.operand(j)) : nullptr;
            uint32_t type_id = j ? (def ? def->result_type : 0) : inst_.result_type;
            std::string what;
            if (auto s = shapeOfType(type_id, &what)) {
                shapes_[j] = *s;
                continue;
            }
            ok = false;
            std::string subject = j ? std::string("Matrix ") + kOperandNames[j] + " (%" +
                                          std::to_string(inst_.operand(j)) + ") has a type that is"
                                    : std::string("Result Type is");
            if (j && !type_id)
                subject = std::string("Matrix ") + kOperandNames[j] + " (%" +
                          std::to_string(inst_.operand(j)) + ") is not a value, its type is";
            report("operand_types", subject + " " + what + " (\"" + kSentences[j] + "\")");
        }
        return ok;
    }

    // "The number of components in Result Type defines the M dimension"; the OpenCL table has M 1, 2, 4, 8.
    bool checkM() {
        m_dim_ = shapes_[0].count ? shapes_[0].count : 1;
        if (m_dim_ == 1 || m_dim_ == 2 || m_dim_ == 4 || m_dim_ == 8) return true;
        report("m_dimension", "Result Type " + shapeText(shapes_[0]) + " has " + std::to_string(m_dim_) +
                                  " components, so M is " + std::to_string(m_dim_) +
                                  "; the OpenCL environment table has M = 1, 2, 4 or 8 (\"The number of "
                                  "components in Result Type defines the M dimension\")");
        return false;
    }

    // The combination must be exactly one row of the OpenCL environment table at the sub-group size N.
    void checkTableRow() {
        mask_present_ = inst_.operandCount() == 5;
        mask_ = mask_present_ ? inst_.operand(4) : 0;
        std::set<uint32_t> declared = sizes_.at(inst_.offset);
        if (declared.empty()) {
            if (auto why = mismatch({8, 16}))
                report("table_row", "no row of the OpenCL environment table for N = 8 or N = 16 matches " +
                                        combination() + ": " + *why);
            return;
        }
        for (uint32_t n : declared) {
            std::string where = "for N = " + std::to_string(n) + " (SubgroupSize " + std::to_string(n) + ")";
            if (n != 8 && n != 16) {
                report("table_row", "no row of the OpenCL environment table " + where + " matches " +
                                        combination() + ": the table has rows only for N = 8 and N = 16");
                continue;
            }
            auto why = mismatch({n});
            if (!why) continue;
            std::string message =
                "no row of the OpenCL environment table " + where + " matches " + combination() + ": " + *why;
            uint32_t other = n == 8 ? 16 : 8;
            for (const Row& r : kRows)
                if (r.n == other && matches(r))
                    message += " (the combination is " + rowText(r) +
                               ", but the kernel declares SubgroupSize " + std::to_string(n) + ")";
            report("table_row", message);
        }
    }

    bool matches(const Row& r) const {
        if (r.k != k_ || !maskFits(r, mask_)) return false;
        std::string pattern;
        for (int j = 0; j < 4; ++j)
            if (!(expected(r, j, m_dim_, &pattern) == shapes_[j])) return false;
        return true;
    }

    std::string combination() const {
        return "K=" + std::to_string(k_) + ", Result " + shapeText(shapes_[0]) + ", A " +
               shapeText(shapes_[1]) + ", B " + shapeText(shapes_[2]) + ", C " + shapeText(shapes_[3]) +
               ", operands " + (mask_present_ ? maskText(mask_) : "None (omitted)");
    }

    // Nothing when a row at one of `ns` matches; otherwise why the nearest rows with the same K do not, or
    // which K values the table has.
    std::optional<std::string> mismatch(const std::vector<uint32_t>& ns) const {
        std::vector<const Row*> same_k;
        for (const Row& r : kRows) {
            if (std::find(ns.begin(), ns.end(), r.n) == ns.end()) continue;
            if (matches(r)) return std::nullopt;
            if (r.k == k_) same_k.push_back(&r);
        }
        if (same_k.empty()) {
            std::string list;
            for (uint32_t n : ns) {
                std::set<uint32_t> at;
                for (const Row& r : kRows)
                    if (r.n == n) at.insert(r.k);
                std::string text;
                for (uint32_t k : at) text += (text.empty() ? "K=" : ", K=") + std::to_string(k);
                list += (list.empty() ? "" : "; ") + text + " at N = " + std::to_string(n);
            }
            return "no row has K=" + std::to_string(k_) + " (the table has " + list + ")";
        }
        int best = 1 << 30;
        for (const Row* r : same_k) best = std::min(best, distance(*r, shapes_, m_dim_, mask_));
        std::string out;
        for (const Row* r : same_k)
            if (distance(*r, shapes_, m_dim_, mask_) == best)
                out += (out.empty() ? "" : "; or ") + explain(*r, shapes_, m_dim_, mask_, mask_present_);
        return out;
    }

    const SpirvModule& m_;
    const SpirvInstruction& inst_;
    const SubgroupSizes& sizes_;
    std::vector<Violation>& out_;
    uint32_t k_ = 0, m_dim_ = 0, mask_ = 0;
    bool mask_present_ = false;
    Shape shapes_[4];  // Result, A, B, C
};

}  // namespace

void checkMmaRules(const SpirvModule& module, std::vector<Violation>& out) {
    std::optional<SubgroupSizes> sizes;
    for (const SpirvInstruction& inst : module.instructions()) {
        if (inst.opcode != spv::OpSubgroupMatrixMultiplyAccumulateINTEL) continue;
        if (!sizes) sizes.emplace(module);
        Checker(module, inst, *sizes, out).run();
    }
}

CTS_SPIRV_RULE_SET("matrix_multiply_accumulate", checkMmaRules);

}  // namespace cts
