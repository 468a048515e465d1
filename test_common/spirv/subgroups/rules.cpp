// SPV_INTEL_subgroups operand-type rules (the instruction descriptions of the extension; it lists no other
// validation rules). SPIRV-Tools releases check none of these. The OpenCL environment's narrower list of
// data types is not a rule here: the suite ships device-specific modules beyond it (docs/subgroups.md).
#include "test_common/spirv/subgroups/rules.h"

#include <string>

#include "test_common/spirv/spirv_headers.h"

namespace cts {
namespace {

constexpr size_t kImageSampledOperand =
    5;  // OpTypeImage operands: Sampled Type, Dim, Depth, Arrayed, MS, Sampled
constexpr uint16_t kOpTypeUntypedPointerKHR = 4417;

enum class Form { Shuffle, BlockRead, BlockWrite, ImageRead, ImageWrite };

struct OpShape {
    uint16_t opcode;
    Form form;
    uint32_t operands;          // <id> operands after Result Type and Result (for reads and shuffles)
    const char* data_names[2];  // the shuffle's data operands, in order
    const char* index_name;     // the shuffle's last operand
};

constexpr OpShape kOps[] = {
    {spv::OpSubgroupShuffleINTEL, Form::Shuffle, 2, {"Data", nullptr}, "InvocationId"},
    {spv::OpSubgroupShuffleDownINTEL, Form::Shuffle, 3, {"Current", "Next"}, "Delta"},
    {spv::OpSubgroupShuffleUpINTEL, Form::Shuffle, 3, {"Previous", "Current"}, "Delta"},
    {spv::OpSubgroupShuffleXorINTEL, Form::Shuffle, 2, {"Data", nullptr}, "Value"},
    {spv::OpSubgroupBlockReadINTEL, Form::BlockRead, 1, {}, nullptr},
    {spv::OpSubgroupBlockWriteINTEL, Form::BlockWrite, 2, {}, nullptr},
    {spv::OpSubgroupImageBlockReadINTEL, Form::ImageRead, 2, {}, nullptr},
    {spv::OpSubgroupImageBlockWriteINTEL, Form::ImageWrite, 3, {}, nullptr},
};

bool isScalar(const SpirvType* t) {
    return t && (t->kind == SpirvType::Kind::Int || t->kind == SpirvType::Kind::Float ||
                 t->kind == SpirvType::Kind::Bool);
}

class Checker {
public:
    Checker(const SpirvModule& m, const SpirvInstruction& inst, const OpShape& op,
            std::vector<Violation>& out)
        : m_(m), inst_(inst), op_(op), out_(out) {}

    void run() {
        if (inst_.operandCount() != op_.operands) {
            report("operand_count", "takes " + std::to_string(op_.operands) + " <id> operands, found " +
                                        std::to_string(inst_.operandCount()));
            return;
        }
        switch (op_.form) {
            case Form::Shuffle: checkShuffle(); break;
            case Form::BlockRead: checkBlock(inst_.result_type, inst_.operand(0)); break;
            case Form::BlockWrite: checkBlock(valueType(inst_.operand(1)), inst_.operand(0)); break;
            case Form::ImageRead: checkImageBlock(inst_.result_type); break;
            case Form::ImageWrite: checkImageBlock(valueType(inst_.operand(2))); break;
        }
    }

private:
    void report(const std::string& rule, const std::string& message) {
        out_.push_back({"subgroups." + rule,
                        std::string(spv::OpToString(static_cast<spv::Op>(op_.opcode))) + ": " + message,
                        inst_.offset});
    }

    uint32_t valueType(uint32_t id) const {
        const SpirvInstruction* def = m_.definition(id);
        return def ? def->result_type : 0;
    }

    // The scalar type of a scalar, or the component type of a vector; nullptr for anything else.
    const SpirvType* componentOf(const SpirvType* t) const {
        if (isScalar(t)) return t;
        return t && t->kind == SpirvType::Kind::Vector ? m_.type(t->component_type) : nullptr;
    }

    // Type ids name types; SPIR-V forbids two declarations of one non-aggregate type, but compare the
    // structure too so a module that repeats a declaration is judged on what it means.
    bool sameType(uint32_t a, uint32_t b) const {
        if (a == b) return true;
        const SpirvType *x = m_.type(a), *y = m_.type(b);
        if (!x || !y || x->kind != y->kind) return false;
        switch (x->kind) {
            case SpirvType::Kind::Int: return x->width == y->width && x->is_signed == y->is_signed;
            case SpirvType::Kind::Float: return x->width == y->width;
            case SpirvType::Kind::Bool: return true;
            case SpirvType::Kind::Vector:
                return x->component_count == y->component_count &&
                       sameType(x->component_type, y->component_type);
            default: return false;
        }
    }

    void checkResultScalarOrVector(uint32_t type_id, const char* what) {
        if (!componentOf(m_.type(type_id)))
            report("data_scalar_or_vector", std::string(what) + " (%" + std::to_string(type_id) +
                                                ") is not a scalar or vector type (\"" + what +
                                                " may be a scalar or vector type.\")");
    }

    void checkShuffle() {
        checkResultScalarOrVector(inst_.result_type, "Result Type");
        for (int k = 0; k < 2 && op_.data_names[k]; ++k)
            if (!sameType(valueType(inst_.operand(k)), inst_.result_type))
                report("shuffle_data_type",
                       std::string("the type of ") + op_.data_names[k] +
                           " differs from Result Type (\"The type of " +
                           (k == 0 && op_.data_names[1]
                                ? std::string(op_.data_names[0]) + " and " + op_.data_names[1]
                                : std::string(op_.data_names[k])) +
                           " must be the same as Result Type.\")");
        const SpirvType* index = m_.typeOfValue(inst_.operand(op_.operands - 1));
        if (!index || index->kind != SpirvType::Kind::Int || index->width != 32)
            report("shuffle_index_i32", std::string(op_.index_name) + " is not a 32-bit integer scalar (\"" +
                                            op_.index_name + " must be a 32-bit integer type scalar.\")");
    }

    // "The type of Ptr must be a pointer type, and must point to a scalar type." and "Result Type may be a
    // scalar or vector type, and its component type must be equal to the type pointed to by Ptr." (the write:
    // "The component type of Data must be equal to the type pointed to by Ptr.")
    void checkBlock(uint32_t data_type, uint32_t ptr) {
        const bool read = op_.form == Form::BlockRead;
        const char* data_name = read ? "Result Type" : "the type of Data";
        const SpirvType* pointer = m_.typeOfValue(ptr);
        const SpirvInstruction* ptr_def = m_.definition(ptr);
        const SpirvInstruction* ptr_type_def = ptr_def ? m_.definition(ptr_def->result_type) : nullptr;
        bool untyped = ptr_type_def && ptr_type_def->opcode == kOpTypeUntypedPointerKHR;
        const SpirvType* component = componentOf(m_.type(data_type));
        if (!component)
            report("data_scalar_or_vector", std::string(data_name) + " is not a scalar or vector type (\"" +
                                                (read ? "Result Type" : "Data") +
                                                " may be a scalar or vector type\")");
        if (untyped) return;  // an untyped pointer names no pointee to compare with
        if (!pointer || pointer->kind != SpirvType::Kind::Pointer) {
            report("block_pointer",
                   "the type of Ptr is not a pointer type (\"The type of Ptr must be a pointer "
                   "type, and must point to a scalar type.\")");
            return;
        }
        const SpirvType* pointee = m_.type(pointer->component_type);
        if (!isScalar(pointee)) {
            report("block_pointer",
                   "Ptr does not point to a scalar type (\"The type of Ptr must be a pointer "
                   "type, and must point to a scalar type.\")");
            return;
        }
        if (!component) return;
        const SpirvType* data = m_.type(data_type);
        uint32_t component_id = data->kind == SpirvType::Kind::Vector ? data->component_type : data_type;
        if (!sameType(component_id, pointer->component_type))
            report("block_component_type",
                   std::string(read ? "the component type of Result Type" : "the component type of Data") +
                       " is not the type pointed to by Ptr (\"" +
                       (read ? "its component type must be equal to the type pointed to by Ptr"
                             : "The component type of Data must be equal to the type pointed to by Ptr") +
                       ".\")");
    }

    // "Image must be an object whose type is OpTypeImage with a Sampled operand of 0 or 2." and "Coordinate
    // is an integer scalar or vector." and "Result Type may be a scalar or vector type." (the write's
    // sentence also says Result Type; it can only mean the type of Data).
    void checkImageBlock(uint32_t data_type) {
        uint32_t image = inst_.operand(0);
        const SpirvInstruction* def = m_.definition(image);
        const SpirvType* t = m_.typeOfValue(image);
        if (!def || !t || t->kind != SpirvType::Kind::Image) {
            report("image_type",
                   "Image (%" + std::to_string(image) +
                       ") is not an object whose type is OpTypeImage (\"Image must be an object "
                       "whose type is OpTypeImage with a Sampled operand of 0 or 2.\")");
        } else if (const SpirvInstruction* type_def = m_.definition(def->result_type);
                   type_def && type_def->operandCount() > kImageSampledOperand) {
            uint32_t sampled = type_def->operand(kImageSampledOperand);
            if (sampled != 0 && sampled != 2)
                report("image_sampled", "Image's OpTypeImage has Sampled " + std::to_string(sampled) +
                                            " (\"Image must be an object whose type is OpTypeImage with a "
                                            "Sampled operand of 0 or 2.\")");
        }
        const SpirvType* coord = componentOf(m_.typeOfValue(inst_.operand(1)));
        if (!coord || coord->kind != SpirvType::Kind::Int)
            report("image_coordinate",
                   "Coordinate is not an integer scalar or vector (\"Coordinate is an integer scalar or "
                   "vector.\")");
        checkResultScalarOrVector(data_type,
                                  op_.form == Form::ImageRead ? "Result Type" : "the type of Data");
    }

    const SpirvModule& m_;
    const SpirvInstruction& inst_;
    const OpShape& op_;
    std::vector<Violation>& out_;
};

}  // namespace

void checkSubgroupsRules(const SpirvModule& module, std::vector<Violation>& out) {
    for (const SpirvInstruction& inst : module.instructions())
        for (const OpShape& op : kOps)
            if (inst.opcode == op.opcode) Checker(module, inst, op, out).run();
}

CTS_SPIRV_RULE_SET("subgroups", checkSubgroupsRules);

}  // namespace cts
