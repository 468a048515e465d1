// Core rules for every module: the Intel opcodes need their capability and extension declared, the
// SubgroupSize execution mode needs SubgroupDispatch (and SPIR-V 1.1), and OpenCL kernel modules use
// physical addressing with the OpenCL memory model.
#include <set>
#include <string>

#include "test_common/spirv/extension_grammar.h"
#include "test_common/spirv/rules.h"
#include "test_common/spirv/spirv_headers.h"

namespace cts {
namespace {

// Declared capabilities plus the ones they implicitly declare (the grammar's: "Subgroup2DBlockTransformINTEL
// and Subgroup2DBlockTransposeINTEL implicitly declare Subgroup2DBlockIOINTEL").
std::set<uint32_t> effectiveCapabilities(const SpirvModule& module) {
    std::set<uint32_t> caps = module.capabilities();
    for (size_t i = 0; i < kExtensionCapabilityCount; ++i) {
        const ExtensionCapability& c = kExtensionCapabilities[i];
        if (c.implies && caps.count(c.capability)) caps.insert(c.implies);
    }
    return caps;
}

const ExtensionInstruction* extensionInstruction(uint16_t opcode) {
    for (size_t i = 0; i < kExtensionInstructionCount; ++i)
        if (kExtensionInstructions[i].opcode == opcode) return &kExtensionInstructions[i];
    return nullptr;
}

// Each instruction of the four extensions needs the capability the grammar names for it, and that
// capability's extension.
void checkOpcodes(const SpirvModule& module, std::vector<Violation>& out) {
    const std::set<uint32_t> caps = effectiveCapabilities(module);
    std::set<std::string> reported;  // one report per missing capability / extension, at its first use
    for (const auto& inst : module.instructions()) {
        const ExtensionInstruction* req = extensionInstruction(inst.opcode);
        if (!req) continue;
        std::string op = "opcode " + std::to_string(inst.opcode);
        if (!caps.count(req->capability) && reported.insert(req->capability_name).second)
            out.push_back({"core.opcode_capability", op + " requires OpCapability " + req->capability_name,
                           inst.offset});
        if (!module.hasExtension(req->extension) && reported.insert(req->extension).second)
            out.push_back({"core.opcode_extension",
                           op + " requires OpExtension \"" + std::string(req->extension) + "\"",
                           inst.offset});
    }
}

// Each extension's "Capabilities" section: declaring the capability needs the extension.
void checkCapabilityExtensions(const SpirvModule& module, std::vector<Violation>& out) {
    for (size_t i = 0; i < kExtensionCapabilityCount; ++i) {
        const ExtensionCapability& ce = kExtensionCapabilities[i];
        if (!module.hasCapability(ce.capability) || module.hasExtension(ce.extension)) continue;
        out.push_back(
            {"core.capability_extension",
             std::string("OpCapability ") + ce.name + " requires OpExtension \"" + ce.extension + "\"",
             module.capabilityOffset(ce.capability)});
    }
}

void checkSubgroupSize(const SpirvModule& module, std::vector<Violation>& out) {
    for (const auto& em : module.executionModes()) {
        if (em.is_id || em.mode != spv::ExecutionModeSubgroupSize) continue;
        if (!module.hasCapability(spv::CapabilitySubgroupDispatch))
            out.push_back({"core.subgroup_size_dispatch",
                           "execution mode SubgroupSize requires OpCapability SubgroupDispatch", em.offset});
        if (module.version() < 0x00010100)
            out.push_back({"core.subgroup_size_version",
                           "execution mode SubgroupSize needs SPIR-V 1.1 or later, module is " +
                               std::to_string(module.versionMajor()) + "." +
                               std::to_string(module.versionMinor()),
                           em.offset});
        if (em.literals.size() != 1 || em.literals[0] == 0)
            out.push_back({"core.subgroup_size_literal",
                           "execution mode SubgroupSize needs one non-zero literal size", em.offset});
    }
}

void checkKernelMemoryModel(const SpirvModule& module, std::vector<Violation>& out) {
    if (!module.hasCapability(spv::CapabilityKernel)) return;
    if (!module.hasMemoryModel()) {
        out.push_back({"core.kernel_memory_model", "Kernel module has no OpMemoryModel", 0});
        return;
    }
    uint32_t am = module.addressingModel();
    if (am != spv::AddressingModelPhysical32 && am != spv::AddressingModelPhysical64)
        out.push_back(
            {"core.kernel_memory_model",
             "OpenCL kernel module must use Physical32 or Physical64 addressing, has addressing model " +
                 std::to_string(am),
             module.memoryModelOffset()});
    if (module.memoryModel() != spv::MemoryModelOpenCL)
        out.push_back({"core.kernel_memory_model",
                       "OpenCL kernel module must use the OpenCL memory model, has memory model " +
                           std::to_string(module.memoryModel()),
                       module.memoryModelOffset()});
}

void checkCore(const SpirvModule& module, std::vector<Violation>& out) {
    checkOpcodes(module, out);
    checkCapabilityExtensions(module, out);
    checkSubgroupSize(module, out);
    checkKernelMemoryModel(module, out);
}

}  // namespace

CTS_SPIRV_RULE_SET("core", checkCore);

}  // namespace cts
