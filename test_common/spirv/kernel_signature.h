// A kernel's contract with host code: its arguments' names (OpName of each OpFunctionParameter) and types.
// scripts/assets/spirv_signature.py writes the same into the manifest's module table at build time; the
// runner reads it from the module it loads and refuses a disagreement (docs/assets.md, "The module table").
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cts {

class SpirvModule;

// type: global_buffer, local_buffer, constant_buffer, generic_pointer, pointer; uchar, ushort, uint, ulong
// (char ... long when signed); half, float, double, bool; <scalar><N> for vectors (uint2); image2d_ro,
// image2d_wo, image2d_rw (1d, 3d, 1d_buffer, _array likewise); sampler; other.
struct KernelArgSpec {
    std::string name;  // "" when the parameter has no OpName
    std::string type;
    bool operator==(const KernelArgSpec& o) const { return name == o.name && type == o.type; }
};
using KernelSignature = std::vector<KernelArgSpec>;
using ModuleSignature = std::map<std::string, KernelSignature>;  // entry point name -> its arguments

// The signature of every OpEntryPoint Kernel of a parsed module.
ModuleSignature moduleSignature(const SpirvModule& module);

// Entry point name -> the sub-group size its OpExecutionMode SubgroupSize requires (kernels without one are
// absent): what clGetKernelSubGroupInfo(CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL) must report.
std::map<std::string, uint32_t> requiredSubGroupSizes(const SpirvModule& module);

// "(out: global_buffer, n: uint)"
std::string describeSignature(const KernelSignature& args);

// "" when both list the same kernels with the same arguments, else what differs first ("kernel test: the
// manifest lists (...), the module has (...)").
std::string signatureMismatch(const ModuleSignature& manifest, const ModuleSignature& module);

}  // namespace cts
