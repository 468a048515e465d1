// Rule area "calls": every OpFunctionCall reaches a function with a body. Compilers translate the extensions'
// OpenCL C built-ins (intel_sub_group_shuffle, intel_sub_group_media_block_read_ui2, ...) to their
// instructions; a built-in they did not recognise stays a call to a function declared without a body (an
// import through the Linkage capability), which no OpenCL program links (docs/compiled.md).
#include <map>
#include <set>
#include <string>
#include <vector>

#include "test_common/spirv/rules.h"

namespace cts {
namespace {

constexpr uint16_t kOpName = 5;
constexpr uint16_t kOpFunction = 54;
constexpr uint16_t kOpFunctionEnd = 56;
constexpr uint16_t kOpFunctionCall = 57;
constexpr uint16_t kOpLabel = 248;

void checkCalls(const SpirvModule& module, std::vector<Violation>& out) {
    std::map<uint32_t, std::string> names;
    std::set<uint32_t> declared_only;  // functions without a block: OpFunction, parameters, OpFunctionEnd
    uint32_t current = 0;
    bool has_body = false;
    for (const SpirvInstruction& inst : module.instructions()) {
        if (inst.opcode == kOpName && inst.words.size() >= 3) {
            size_t next = 0;
            names[inst.words[1]] = decodeLiteralString(inst.words, 2, inst.offset, &next);
        } else if (inst.opcode == kOpFunction) {
            current = inst.result_id;
            has_body = false;
        } else if (inst.opcode == kOpLabel) {
            has_body = true;
        } else if (inst.opcode == kOpFunctionEnd) {
            if (current && !has_body) declared_only.insert(current);
            current = 0;
        }
    }
    for (const SpirvInstruction& inst : module.instructions()) {
        if (inst.opcode != kOpFunctionCall || inst.operandCount() < 1) continue;
        const uint32_t callee = inst.operand(0);
        if (!declared_only.count(callee)) continue;
        auto name = names.find(callee);
        out.push_back(
            {"call.declared_only",
             "OpFunctionCall of " + (name == names.end() ? "%" + std::to_string(callee) : name->second) +
                 ", a function declared without a body (an import): the built-in was not translated "
                 "to its instruction",
             inst.offset});
    }
}

}  // namespace

CTS_SPIRV_RULE_SET("calls", checkCalls);

}  // namespace cts
