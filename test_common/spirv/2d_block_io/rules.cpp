// SPV_INTEL_2d_block_io operand rules (instruction descriptions and "Restrictions" of the extension, plus the
// OpenCL environment's operand widths). No SPIRV-Tools release validates these.
#include "test_common/spirv/2d_block_io/rules.h"

#include <string>

#include "test_common/spirv/spirv_headers.h"

namespace cts {
namespace {

constexpr uint16_t kOpConstant = 43, kOpSpecConstant = 50, kOpTypeUntypedPointerKHR = 4417;
constexpr uint32_t kStorageCrossWorkgroup = 5, kStorageFunction = 7;

struct OpShape {
    uint16_t opcode;
    uint32_t operands;  // all <id>
    int base_k;         // the CrossWorkgroup pointer (Src Base Pointer / Dst Base Pointer)
    int private_k;      // the Function pointer (Dst Pointer / Src Pointer), -1 for prefetch
    int memory_k;       // Memory Width; Height and Pitch follow, then Coordinate
    const char* base_name;
    const char* private_name;
};

constexpr OpShape kOps[] = {
    {spv::OpSubgroup2DBlockLoadINTEL, 10, 4, 9, 5, "Src Base Pointer", "Dst Pointer"},
    {spv::OpSubgroup2DBlockLoadTransformINTEL, 10, 4, 9, 5, "Src Base Pointer", "Dst Pointer"},
    {spv::OpSubgroup2DBlockLoadTransposeINTEL, 10, 4, 9, 5, "Src Base Pointer", "Dst Pointer"},
    {spv::OpSubgroup2DBlockPrefetchINTEL, 9, 4, -1, 5, "Src Pointer", ""},
    {spv::OpSubgroup2DBlockStoreINTEL, 10, 5, 4, 6, "Dst Base Pointer", "Src Pointer"},
};

class Checker {
public:
    Checker(const SpirvModule& m, const SpirvInstruction& inst, const OpShape& op,
            std::vector<Violation>& out)
        : m_(m), inst_(inst), op_(op), out_(out) {}

    void report(const std::string& rule, const std::string& message) {
        out_.push_back({"2d_block_io." + rule,
                        std::string(spv::OpToString(static_cast<spv::Op>(op_.opcode))) + ": " + message,
                        inst_.offset});
    }

    // Storage class of the pointer value `id` (typed or untyped pointer), or -1 when it is not a pointer.
    int64_t storageClass(uint32_t id) const {
        const SpirvInstruction* def = m_.definition(id);
        if (!def || !def->result_type) return -1;
        if (const SpirvType* t = m_.type(def->result_type); t && t->kind == SpirvType::Kind::Pointer)
            return t->storage_class;
        const SpirvInstruction* type_def = m_.definition(def->result_type);
        if (type_def && type_def->opcode == kOpTypeUntypedPointerKHR && type_def->operandCount() >= 1)
            return type_def->operand(0);
        return -1;
    }

    void run() {
        if (inst_.operandCount() != op_.operands) {
            report("operand_count", "takes " + std::to_string(op_.operands) + " <id> operands, found " +
                                        std::to_string(inst_.operandCount()));
            return;
        }
        checkShapeOperands();
        checkPointers();
        checkMemoryOperands();
    }

private:
    void checkShapeOperands() {
        static const char* kNames[] = {"Element Size", "Block Width", "Block Height", "Block Count"};
        uint64_t value[4] = {0, 0, 0, 0};
        bool known[4] = {false, false, false, false};
        for (int k = 0; k < 4; ++k) {
            uint32_t id = inst_.operand(k);
            const SpirvInstruction* def = m_.definition(id);
            const SpirvType* t = m_.typeOfValue(id);
            bool constant = def && (def->opcode == kOpConstant || def->opcode == kOpSpecConstant);
            if (!constant || !t || t->kind != SpirvType::Kind::Int || t->width != 32) {
                report("shape_operand_constant_i32",
                       std::string(kNames[k]) + " (%" + std::to_string(id) +
                           ") is not a constant instruction with scalar 32-bit integer type (\"These "
                           "operands must "
                           "be constant instructions with scalar 32-bit integer type.\")");
                continue;
            }
            if (auto v = m_.intConstant(id)) value[k] = *v, known[k] = true;
        }
        if (known[0] && value[0] != 1 && value[0] != 2 && value[0] != 4 && value[0] != 8)
            report("element_size", "Element Size is " + std::to_string(value[0]) +
                                       " (\"The Element Size must be 1, 2, 4, or 8 bytes.\")");
        if (known[0] && known[1] && ((value[0] == 1 && value[1] % 4) || (value[0] == 2 && value[1] % 2)))
            report(
                "block_width_multiple",
                "Block Width " + std::to_string(value[1]) + " with " + std::to_string(value[0]) +
                    "-byte elements (\"The Block Width must be a multiple of four for 1-byte elements, or a "
                    "multiple of two for 2-byte elements.\")");
        for (int k = 1; k < 4; ++k)
            if (known[k] && value[k] == 0)
                report("shape_nonzero", std::string(kNames[k]) + " is zero: the block holds no elements");
    }

    void checkPointers() {
        uint32_t base = inst_.operand(op_.base_k);
        if (storageClass(base) != kStorageCrossWorkgroup)
            report("base_pointer_storage_class",
                   std::string(op_.base_name) + " must be a pointer to the CrossWorkgroup storage class");
        if (op_.private_k < 0) return;
        uint32_t priv = inst_.operand(op_.private_k);
        if (storageClass(priv) != kStorageFunction)
            report("private_pointer_storage_class",
                   std::string(op_.private_name) + " must be a pointer to the Function storage class");
        if (inst_.opcode == spv::OpSubgroup2DBlockLoadTransformINTEL) {
            // "If it is an OpTypePointer pointer, it must point to a scalar 32-bit integer type."
            const SpirvType* t = m_.typeOfValue(priv);
            if (t && t->kind == SpirvType::Kind::Pointer) {
                const SpirvType* pointee = m_.type(t->component_type);
                if (!pointee || pointee->kind != SpirvType::Kind::Int || pointee->width != 32)
                    report(
                        "transform_destination_i32",
                        "Dst Pointer is an OpTypePointer, so it must point to a scalar 32-bit integer type");
            }
        }
    }

    void checkMemoryOperands() {
        static const char* kNames[] = {"Memory Width", "Memory Height", "Memory Pitch"};
        for (int k = 0; k < 3; ++k) {
            const SpirvType* t = m_.typeOfValue(inst_.operand(op_.memory_k + k));
            if (!t || t->kind != SpirvType::Kind::Int) {
                report("memory_operand_integer", std::string(kNames[k]) + " must be an integer type scalar");
            } else if (t->width != 32) {
                report("opencl.memory_operand_32bit",
                       std::string(kNames[k]) + " is " + std::to_string(t->width) +
                           "-bit; the OpenCL environment restricts it to a 32-bit integer");
            }
        }
        const SpirvType* t = m_.typeOfValue(inst_.operand(op_.memory_k + 3));
        const SpirvType* component =
            t && t->kind == SpirvType::Kind::Vector ? m_.type(t->component_type) : nullptr;
        if (!t || t->kind != SpirvType::Kind::Vector || t->component_count != 2 || !component ||
            component->kind != SpirvType::Kind::Int) {
            report("coordinate_vector", "Coordinate must be a vector of two integer type components");
        } else if (component->width != 32) {
            report("opencl.coordinate_32bit",
                   "Coordinate components are " + std::to_string(component->width) +
                       "-bit; the OpenCL environment restricts them to 32-bit integers");
        }
    }

    const SpirvModule& m_;
    const SpirvInstruction& inst_;
    const OpShape& op_;
    std::vector<Violation>& out_;
};

}  // namespace

void check2dBlockIoRules(const SpirvModule& module, std::vector<Violation>& out) {
    for (const SpirvInstruction& inst : module.instructions())
        for (const OpShape& op : kOps)
            if (inst.opcode == op.opcode) Checker(module, inst, op, out).run();
}

CTS_SPIRV_RULE_SET("2d_block_io", check2dBlockIoRules);

}  // namespace cts
