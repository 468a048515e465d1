// Rule area "calls": every OpFunctionCall reaches a function with a body. Compilers translate the extensions'
// OpenCL C built-ins (intel_sub_group_shuffle, intel_sub_group_media_block_read_ui2, ...) to their
// instructions; a function they did not recognise stays a call to a function declared without a body (an
// import through the Linkage capability), which no OpenCL program links (docs/compiled.md). The exception is
// an import named (Itanium-mangled) as a built-in of the extensions: no llvm-spirv release translates the
// cl_intel_subgroup_2d_block_io and cl_intel_subgroup_matrix_multiply_accumulate ones, so every OpenCL C and
// Triton user of these extensions ships such calls; the cl_intel_subgroups (with _short, _char, _long),
// cl_intel_subgroup_local_block_io and cl_intel_media_block_io ones reach a driver that way from a compiler
// that does not know their SPIR-V extensions. Drivers (and the reference device, docs/reference_device.md
// "Imported OpenCL C built-ins") resolve them by name.
#include <map>
#include <regex>
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

// A built-in of the extensions that compilers may leave as imported calls (see the top of this file): by its
// source name, the 2D block IO and matrix-mad families by prefix, the others by their exact names.
bool importedExtensionBuiltin(const std::string& link_name) {
    static const std::regex kNames(
        "intel_sub_group_(2d_block_.+|.+_matrix_mad_k.+|shuffle(_down|_up|_xor)?|"
        "block_(read|write)(_uc|_us|_ui|_ul)?(2|4|8|16)?|media_block_(read|write)_(uc|us|ui)(2|4|8|16)?)");
    return std::regex_match(demangledName(link_name), kNames);
}

void checkCalls(const SpirvModule& module, std::vector<Violation>& out) {
    std::map<uint32_t, std::string> names;
    std::set<uint32_t> declared_only;    // functions without a block: OpFunction, parameters, OpFunctionEnd
    std::set<uint32_t> builtin_imports;  // imported as a built-in of the extensions
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
