// Rule area "calls": every OpFunctionCall reaches a function with a body. Compilers translate the extensions'
// OpenCL C built-ins (intel_sub_group_shuffle, intel_sub_group_media_block_read_ui2, ...) to their
// instructions; a built-in they did not recognise stays a call to a function declared without a body (an
// import through the Linkage capability), which no OpenCL program links (docs/compiled.md). The exception is
// an import named (Itanium-mangled) as a built-in of cl_intel_subgroup_2d_block_io or
// cl_intel_subgroup_matrix_multiply_accumulate: no llvm-spirv release translates them to their instructions,
// so every OpenCL C and Triton user of these extensions ships such calls, which drivers (and the reference
// device, docs/reference_device.md "Imported OpenCL C built-ins") resolve by name.
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
constexpr uint16_t kOpDecorate = 71;
constexpr uint32_t kDecorationLinkageAttributes = 41;
constexpr uint32_t kLinkageImport = 1;

// The source name of an Itanium-mangled function name (_Z<length><name>...), or "" when it is not one.
std::string demangledName(const std::string& mangled) {
    if (mangled.compare(0, 2, "_Z") != 0) return "";
    size_t i = 2, length = 0;
    while (i < mangled.size() && mangled[i] >= '0' && mangled[i] <= '9')
        length = length * 10 + (mangled[i++] - '0');
    if (i == 2 || length == 0 || i + length > mangled.size()) return "";
    return mangled.substr(i, length);
}

// A built-in of the two extensions that compilers leave as imported calls (see the top of this file).
bool importedExtensionBuiltin(const std::string& link_name) {
    const std::string name = demangledName(link_name);
    const std::string prefix = "intel_sub_group_";
    if (name.compare(0, prefix.size(), prefix) != 0) return false;
    return name.compare(prefix.size(), 9, "2d_block_") == 0 ||
           name.find("_matrix_mad_k") != std::string::npos;
}

void checkCalls(const SpirvModule& module, std::vector<Violation>& out) {
    std::map<uint32_t, std::string> names;
    std::set<uint32_t> declared_only;    // functions without a block: OpFunction, parameters, OpFunctionEnd
    std::set<uint32_t> builtin_imports;  // imported as a 2D block IO or matrix-mad built-in
    uint32_t current = 0;
    bool has_body = false;
    for (const SpirvInstruction& inst : module.instructions()) {
        if (inst.opcode == kOpName && inst.words.size() >= 3) {
            size_t next = 0;
            names[inst.words[1]] = decodeLiteralString(inst.words, 2, inst.offset, &next);
        } else if (inst.opcode == kOpDecorate && inst.words.size() >= 5 &&
                   inst.words[2] == kDecorationLinkageAttributes) {
            size_t next = 0;
            const std::string link = decodeLiteralString(inst.words, 3, inst.offset, &next);
            if (next < inst.words.size() && inst.words[next] == kLinkageImport &&
                importedExtensionBuiltin(link))
                builtin_imports.insert(inst.words[1]);
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
        if (!declared_only.count(callee) || builtin_imports.count(callee)) continue;
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
