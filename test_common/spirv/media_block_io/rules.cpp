// SPV_INTEL_media_block_io operand rules (the two instruction descriptions of the extension, plus the OpenCL
// environment's compile-time Width and Height). No SPIRV-Tools release validates these.
#include "test_common/spirv/media_block_io/rules.h"

#include <string>

#include "test_common/spirv/spirv_headers.h"

namespace cts {
namespace {

constexpr uint16_t kOpConstant = 43;
constexpr size_t kImageSampledOperand =
    5;  // OpTypeImage operands: Sampled Type, Dim, Depth, Arrayed, MS, Sampled

struct OpShape {
    uint16_t opcode;
    uint32_t operands;  // all <id>, after Result Type and Result for the read
    bool read;
};

constexpr OpShape kOps[] = {
    {spv::OpSubgroupImageMediaBlockReadINTEL, 4, true},
    {spv::OpSubgroupImageMediaBlockWriteINTEL, 5, false},
};

class Checker {
public:
    Checker(const SpirvModule& m, const SpirvInstruction& inst, const OpShape& op,
            std::vector<Violation>& out)
        : m_(m), inst_(inst), op_(op), out_(out) {}

    void report(const std::string& rule, const std::string& message) {
        out_.push_back({"media_block_io." + rule,
                        std::string(spv::OpToString(static_cast<spv::Op>(op_.opcode))) + ": " + message,
                        inst_.offset});
    }

    void run() {
        if (inst_.operandCount() != op_.operands) {
            report("operand_count", "takes " + std::to_string(op_.operands) + " <id> operands, found " +
                                        std::to_string(inst_.operandCount()));
            return;
        }
        checkImage(inst_.operand(0));
        checkCoordinate(inst_.operand(1));
        checkSizeOperand(inst_.operand(2), "Width");
        checkSizeOperand(inst_.operand(3), "Height");
        checkDataType();
    }

private:
    // "Image must be an object whose type is OpTypeImage with a Sampled operand of 0 or 2."
    void checkImage(uint32_t id) {
        const SpirvInstruction* def = m_.definition(id);
        const SpirvType* t = m_.typeOfValue(id);
        if (!def || !t || t->kind != SpirvType::Kind::Image) {
            report("image_type",
                   "Image (%" + std::to_string(id) +
                       ") is not an object whose type is OpTypeImage (\"Image must be an object "
                       "whose type is OpTypeImage with a Sampled operand of 0 or 2.\")");
            return;
        }
        const SpirvInstruction* type_def = m_.definition(def->result_type);
        if (!type_def || type_def->operandCount() <= kImageSampledOperand) return;  // malformed OpTypeImage
        const uint32_t sampled = type_def->operand(kImageSampledOperand);
        if (sampled != 0 && sampled != 2)
            report("image_sampled",
                   "Image's OpTypeImage has Sampled " + std::to_string(sampled) +
                       " (\"Image must be an object whose type is OpTypeImage with a Sampled "
                       "operand of 0 or 2.\")");
    }

    // "The Coordinate ... must be a vector of integer type": x in bytes, y in rows of the 2D image.
    void checkCoordinate(uint32_t id) {
        const SpirvType* t = m_.typeOfValue(id);
        const SpirvType* component =
            t && t->kind == SpirvType::Kind::Vector ? m_.type(t->component_type) : nullptr;
        if (!component || component->kind != SpirvType::Kind::Int) {
            report("coordinate_vector",
                   "Coordinate (%" + std::to_string(id) +
                       ") is not a vector of integer type (\"The Coordinate ... must be a vector of integer "
                       "type.\")");
        } else if (t->component_count != 2) {
            report("coordinate_components",
                   "Coordinate has " + std::to_string(t->component_count) +
                       " components; a 2D region of a 2D image needs two (a byte x and a row y)");
        }
    }

    // OpenCL environment: "width and height are compile-time constants" (32-bit integer constants).
    void checkSizeOperand(uint32_t id, const char* name) {
        const SpirvInstruction* def = m_.definition(id);
        const SpirvType* t = m_.typeOfValue(id);
        if (!def || def->opcode != kOpConstant || !t || t->kind != SpirvType::Kind::Int || t->width != 32)
            report("size_operand_constant_i32",
                   std::string(name) + " (%" + std::to_string(id) +
                       ") is not an OpConstant of 32-bit integer type (the OpenCL environment requires "
                       "compile-time width and height)");
    }

    // "The Result Type ... may be a scalar or a vector type" / "The type of Data ... may be a scalar or a
    // vector type"; the block Component Type is an integer (no format conversion).
    void checkDataType() {
        const uint32_t type_id = op_.read ? inst_.result_type : 0;
        const SpirvType* t = op_.read ? m_.type(type_id) : m_.typeOfValue(inst_.operand(4));
        const SpirvType* component = t && t->kind == SpirvType::Kind::Vector ? m_.type(t->component_type) : t;
        if (component && component->kind == SpirvType::Kind::Int) return;
        if (op_.read)
            report("result_type_integer",
                   "Result Type must be a scalar or vector of integer type (the block read Component Type is "
                   "an integer: the image is read without format conversion)");
        else
            report("data_type_integer",
                   "the type of Data must be a scalar or vector of integer type (the block write Component "
                   "Type is an integer: the image is written without format conversion)");
    }

    const SpirvModule& m_;
    const SpirvInstruction& inst_;
    const OpShape& op_;
    std::vector<Violation>& out_;
};

}  // namespace

void checkMediaBlockIoRules(const SpirvModule& module, std::vector<Violation>& out) {
    for (const SpirvInstruction& inst : module.instructions())
        for (const OpShape& op : kOps)
            if (inst.opcode == op.opcode) Checker(module, inst, op, out).run();
}

CTS_SPIRV_RULE_SET("media_block_io", checkMediaBlockIoRules);

}  // namespace cts
