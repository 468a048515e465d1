#include "test_common/spirv/kernel_signature.h"

#include "test_common/spirv/module.h"

namespace cts {
namespace {

namespace op {
constexpr uint16_t Name = 5, TypeBool = 20, TypeInt = 21, TypeFloat = 22, TypeVector = 23, TypeImage = 25,
                   TypeSampler = 26, TypePointer = 32, Function = 54, FunctionParameter = 55,
                   FunctionEnd = 56;
}  // namespace op
constexpr uint32_t kExecutionModelKernel = 6;
constexpr uint32_t kExecutionModeSubgroupSize = 35;

std::string typeName(const SpirvModule& module, uint32_t id) {
    const SpirvInstruction* def = module.definition(id);
    if (!def) return "other";
    const std::vector<uint32_t>& w = def->words;  // w[1] is the result id of every type instruction
    switch (def->opcode) {
        case op::TypePointer:
            switch (w.at(2)) {
                case 5: return "global_buffer";    // CrossWorkgroup
                case 4: return "local_buffer";     // Workgroup
                case 0: return "constant_buffer";  // UniformConstant
                case 8: return "generic_pointer";
                default: return "pointer";
            }
        case op::TypeInt: {
            const char* names[] = {"char", "short", "int", "long"};
            int i = w.at(2) == 8 ? 0 : w[2] == 16 ? 1 : w[2] == 32 ? 2 : w[2] == 64 ? 3 : -1;
            if (i < 0) return "other";
            return (w.at(3) ? "" : "u") + std::string(names[i]);
        }
        case op::TypeFloat:
            return w.at(2) == 16 ? "half" : w[2] == 32 ? "float" : w[2] == 64 ? "double" : "other";
        case op::TypeBool: return "bool";
        case op::TypeVector: return typeName(module, w.at(2)) + std::to_string(w.at(3));
        case op::TypeImage: {
            if (w.size() < 10) return "other";
            std::string dim = w[3] == 0   ? "1d"
                              : w[3] == 1 ? "2d"
                              : w[3] == 2 ? "3d"
                              : w[3] == 5 ? "1d_buffer"
                                          : "";
            std::string access = w[9] == 0 ? "ro" : w[9] == 1 ? "wo" : w[9] == 2 ? "rw" : "";
            if (dim.empty() || access.empty()) return "other";
            return "image" + dim + (w[5] ? "_array" : "") + "_" + access;
        }
        case op::TypeSampler: return "sampler";
        default: return "other";
    }
}

}  // namespace

ModuleSignature moduleSignature(const SpirvModule& module) {
    std::map<uint32_t, std::string> names;
    std::map<uint32_t, std::vector<std::pair<uint32_t, std::string>>> params;  // function -> (id, type)
    uint32_t current = 0;
    for (const SpirvInstruction& inst : module.instructions()) {
        if (inst.opcode == op::Name && inst.words.size() >= 3) {
            size_t next = 0;
            names.emplace(inst.words[1], decodeLiteralString(inst.words, 2, inst.offset, &next));
        } else if (inst.opcode == op::Function) {
            current = inst.result_id;
            params[current];
        } else if (inst.opcode == op::FunctionParameter && current) {
            params[current].emplace_back(inst.result_id, typeName(module, inst.result_type));
        } else if (inst.opcode == op::FunctionEnd) {
            current = 0;
        }
    }
    ModuleSignature signature;
    for (const SpirvEntryPoint& entry : module.entryPoints()) {
        if (entry.execution_model != kExecutionModelKernel) continue;
        KernelSignature& args = signature[entry.name];
        for (const auto& [id, type] : params[entry.function_id]) {
            auto name = names.find(id);
            args.push_back({name == names.end() ? "" : name->second, type});
        }
    }
    return signature;
}

std::map<std::string, uint32_t> requiredSubGroupSizes(const SpirvModule& module) {
    std::map<std::string, uint32_t> sizes;
    for (const SpirvExecutionMode& mode : module.executionModes()) {
        if (mode.is_id || mode.mode != kExecutionModeSubgroupSize || mode.literals.empty()) continue;
        for (const SpirvEntryPoint& entry : module.entryPoints())
            if (entry.function_id == mode.entry_point && entry.execution_model == kExecutionModelKernel)
                sizes[entry.name] = mode.literals[0];
    }
    return sizes;
}

std::string describeSignature(const KernelSignature& args) {
    std::string text = "(";
    for (size_t i = 0; i < args.size(); ++i)
        text += (i ? ", " : "") + (args[i].name.empty() ? "<no OpName>" : args[i].name) + ": " + args[i].type;
    return text + ")";
}

namespace {

// The same types in the same order, and the same names where the module has them. A parameter without an
// OpName (compiler output frozen as it was emitted: spirv_new_assets/triton/) takes the name the asset build
// gave it from the compiler's launch facts; the asset build refuses unnamed parameters in every module it
// assembles (docs/assets.md, "The module table").
bool sameArguments(const KernelSignature& manifest, const KernelSignature& module) {
    if (manifest.size() != module.size()) return false;
    for (size_t i = 0; i < manifest.size(); ++i) {
        if (manifest[i].type != module[i].type) return false;
        if (!module[i].name.empty() && manifest[i].name != module[i].name) return false;
    }
    return true;
}

}  // namespace

std::string signatureMismatch(const ModuleSignature& manifest, const ModuleSignature& module) {
    for (const auto& [kernel, args] : manifest) {
        auto it = module.find(kernel);
        if (it == module.end())
            return "the manifest lists kernel " + kernel + ", the module has no such entry point";
        if (!sameArguments(args, it->second))
            return "kernel " + kernel + ": the manifest lists " + describeSignature(args) +
                   ", the module has " + describeSignature(it->second);
    }
    for (const auto& entry : module)
        if (!manifest.count(entry.first))
            return "the module has kernel " + entry.first + ", which the manifest does not list";
    return "";
}

}  // namespace cts
