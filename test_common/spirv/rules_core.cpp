// Core rules for every module: the Intel opcodes need their capability and extension declared, the
// SubgroupSize execution mode needs SubgroupDispatch (and SPIR-V 1.1), and OpenCL kernel modules use
// physical addressing with the OpenCL memory model.
#include <set>
#include <string>

#include "test_common/spirv/rules.h"
#include "test_common/spirv/tokens.h"

namespace cts {
namespace {

struct OpRequirement {
    uint16_t first_opcode, last_opcode;
    uint32_t capability;
    const char* capability_name;
    const char* extension;
};

// SPV_INTEL_subgroups, SPV_INTEL_media_block_io, SPV_INTEL_2d_block_io and
// SPV_INTEL_subgroup_matrix_multiply_accumulate: "Capability" column of each instruction.
constexpr OpRequirement kOpRequirements[] = {
    {spv::OpSubgroupShuffleINTEL, spv::OpSubgroupShuffleXorINTEL, spv::CapabilitySubgroupShuffleINTEL,
     "SubgroupShuffleINTEL", "SPV_INTEL_subgroups"},
    {spv::OpSubgroupBlockReadINTEL, spv::OpSubgroupBlockWriteINTEL, spv::CapabilitySubgroupBufferBlockIOINTEL,
     "SubgroupBufferBlockIOINTEL", "SPV_INTEL_subgroups"},
    {spv::OpSubgroupImageBlockReadINTEL, spv::OpSubgroupImageBlockWriteINTEL,
     spv::CapabilitySubgroupImageBlockIOINTEL, "SubgroupImageBlockIOINTEL", "SPV_INTEL_subgroups"},
    {spv::OpSubgroupImageMediaBlockReadINTEL, spv::OpSubgroupImageMediaBlockWriteINTEL,
     spv::CapabilitySubgroupImageMediaBlockIOINTEL, "SubgroupImageMediaBlockIOINTEL",
     "SPV_INTEL_media_block_io"},
    {spv::OpSubgroup2DBlockLoadINTEL, spv::OpSubgroup2DBlockLoadINTEL, spv::CapabilitySubgroup2DBlockIOINTEL,
     "Subgroup2DBlockIOINTEL", "SPV_INTEL_2d_block_io"},
    {spv::OpSubgroup2DBlockLoadTransformINTEL, spv::OpSubgroup2DBlockLoadTransformINTEL,
     spv::CapabilitySubgroup2DBlockTransformINTEL, "Subgroup2DBlockTransformINTEL", "SPV_INTEL_2d_block_io"},
    {spv::OpSubgroup2DBlockLoadTransposeINTEL, spv::OpSubgroup2DBlockLoadTransposeINTEL,
     spv::CapabilitySubgroup2DBlockTransposeINTEL, "Subgroup2DBlockTransposeINTEL", "SPV_INTEL_2d_block_io"},
    {spv::OpSubgroup2DBlockPrefetchINTEL, spv::OpSubgroup2DBlockStoreINTEL,
     spv::CapabilitySubgroup2DBlockIOINTEL, "Subgroup2DBlockIOINTEL", "SPV_INTEL_2d_block_io"},
    {spv::OpSubgroupMatrixMultiplyAccumulateINTEL, spv::OpSubgroupMatrixMultiplyAccumulateINTEL,
     spv::CapabilitySubgroupMatrixMultiplyAccumulateINTEL, "SubgroupMatrixMultiplyAccumulateINTEL",
     "SPV_INTEL_subgroup_matrix_multiply_accumulate"},
};

struct CapabilityExtension {
    uint32_t capability;
    const char* capability_name;
    const char* extension;
};

// Each extension's "Capabilities" section: declaring the capability needs the extension.
constexpr CapabilityExtension kCapabilityExtensions[] = {
    {spv::CapabilitySubgroupShuffleINTEL, "SubgroupShuffleINTEL", "SPV_INTEL_subgroups"},
    {spv::CapabilitySubgroupBufferBlockIOINTEL, "SubgroupBufferBlockIOINTEL", "SPV_INTEL_subgroups"},
    {spv::CapabilitySubgroupImageBlockIOINTEL, "SubgroupImageBlockIOINTEL", "SPV_INTEL_subgroups"},
    {spv::CapabilitySubgroupImageMediaBlockIOINTEL, "SubgroupImageMediaBlockIOINTEL",
     "SPV_INTEL_media_block_io"},
    {spv::CapabilitySubgroup2DBlockIOINTEL, "Subgroup2DBlockIOINTEL", "SPV_INTEL_2d_block_io"},
    {spv::CapabilitySubgroup2DBlockTransformINTEL, "Subgroup2DBlockTransformINTEL", "SPV_INTEL_2d_block_io"},
    {spv::CapabilitySubgroup2DBlockTransposeINTEL, "Subgroup2DBlockTransposeINTEL", "SPV_INTEL_2d_block_io"},
    {spv::CapabilitySubgroupMatrixMultiplyAccumulateINTEL, "SubgroupMatrixMultiplyAccumulateINTEL",
     "SPV_INTEL_subgroup_matrix_multiply_accumulate"},
};

// Declared capabilities plus the ones they implicitly declare (only the implications the rules need:
// "Subgroup2DBlockTransformINTEL / TransposeINTEL implicitly declare Subgroup2DBlockIOINTEL").
std::set<uint32_t> effectiveCapabilities(const SpirvModule& module) {
    std::set<uint32_t> caps = module.capabilities();
    if (caps.count(spv::CapabilitySubgroup2DBlockTransformINTEL) ||
        caps.count(spv::CapabilitySubgroup2DBlockTransposeINTEL))
        caps.insert(spv::CapabilitySubgroup2DBlockIOINTEL);
    return caps;
}

void checkOpcodes(const SpirvModule& module, std::vector<Violation>& out) {
    const std::set<uint32_t> caps = effectiveCapabilities(module);
    std::set<std::string> reported;  // one report per missing capability / extension, at its first use
    for (const auto& inst : module.instructions()) {
        for (const auto& req : kOpRequirements) {
            if (inst.opcode < req.first_opcode || inst.opcode > req.last_opcode) continue;
            std::string op = "opcode " + std::to_string(inst.opcode);
            if (!caps.count(req.capability) && reported.insert(req.capability_name).second)
                out.push_back({"core.opcode_capability", op + " requires OpCapability " + req.capability_name,
                               inst.offset});
            if (!module.hasExtension(req.extension) && reported.insert(req.extension).second)
                out.push_back({"core.opcode_extension",
                               op + " requires OpExtension \"" + std::string(req.extension) + "\"",
                               inst.offset});
        }
    }
}

void checkCapabilityExtensions(const SpirvModule& module, std::vector<Violation>& out) {
    for (const auto& ce : kCapabilityExtensions) {
        if (!module.hasCapability(ce.capability) || module.hasExtension(ce.extension)) continue;
        out.push_back({"core.capability_extension",
                       std::string("OpCapability ") + ce.capability_name + " requires OpExtension \"" +
                           ce.extension + "\"",
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
