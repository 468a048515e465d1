// The interpreter's interface to the OpenCL API layer: build a module from SPIR-V words, reflect its
// kernels, launch an NDRange.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "reference_device/faults.h"
#include "reference_device/image_desc.h"
#include "reference_device/profile.h"

namespace refdev::spirv {

enum class ArgKind { GlobalBuffer, ConstantBuffer, LocalBuffer, Image, Sampler, Value };

struct KernelArgInfo {
    ArgKind kind = ArgKind::Value;
    uint32_t size = 0;      // bytes of a Value argument; 8 for pointers, images and samplers
    std::string name;       // from OpName of the parameter, "" when absent
    std::string type_name;  // best effort, e.g. "uint*", "int4", "image2d_t"
    uint32_t access = 0;    // images: 0 read_only, 1 write_only, 2 read_write (SPIR-V AccessQualifier)
};

struct KernelInfo {
    std::string name;
    std::vector<KernelArgInfo> args;
    uint32_t required_sub_group_size = 0;          // OpExecutionMode SubgroupSize, 0 when absent
    uint32_t reqd_work_group_size[3] = {0, 0, 0};  // LocalSize execution mode, zeros when absent
    // MaxWorkgroupSizeINTEL (SPV_INTEL_kernel_attributes): the largest work-group in each dimension the
    // kernel may be launched with, zeros when absent. Enforced at enqueue (CL_INVALID_WORK_GROUP_SIZE) and
    // reported by CL_KERNEL_WORK_GROUP_SIZE.
    uint32_t max_work_group_size[3] = {0, 0, 0};
};

class Module;  // opaque: a validated, pre-decoded SPIR-V module

struct BuildResult {
    std::shared_ptr<const Module> module;  // null when the build failed
    std::string log;  // on failure: one line per problem, naming the instruction (opcode name, word offset)
                      // and the reason; may hold warnings on success
};

// Never crashes or throws on bad input: malformed or unsupported modules yield module == nullptr + log.
// Capabilities and extensions not in the profile, and a SubgroupSize the profile does not report, fail.
BuildResult buildModule(const uint32_t* words, size_t word_count, const Profile& profile);
// The same with planted driver faults: a build fault (ExtOpTable::addBuildFault) rejects some valid modules
// as a real compiler does, with a log whose first line is "error: <kernel>: ..." naming the fault.
BuildResult buildModule(const uint32_t* words, size_t word_count, const Profile& profile,
                        const Faults& faults);

// Linking (clLinkProgram): merges SPIR-V modules into one, each module's ids renumbered past the previous
// ones, capabilities, extensions and extended-instruction imports merged. A function or variable declared
// with LinkageAttributes "name" Import is replaced by the definition another module gives "name" with Export
// (or LinkOnceODR, one definition kept). Structurally identical types and constants with the same decorations
// are declared once. Errors, one "error: ..." line each: malformed modules, two Export
// definitions of a name, an import whose export is of another kind or parameter count, different memory
// models and, unless `library` (-create-library), an import no module exports that is not an OpenCL C
// built-in the build resolves (isImportedBuiltin). The merged module is not validated beyond that: build it.
struct LinkResult {
    std::vector<uint32_t> words;  // empty on failure
    std::string log;
};
LinkResult linkModules(const std::vector<std::vector<uint32_t>>& modules, bool library);
// True when an Import-linkage function of this (mangled) name is resolved by the build as a built-in.
bool isImportedBuiltin(const std::string& mangled);

const std::vector<KernelInfo>& kernels(const Module& module);
// Sub-group size a kernel runs with on this profile (SubgroupSize mode, else the profile default).
uint32_t subGroupSize(const Module& module, const std::string& kernel, const Profile& profile);

struct ArgValue {
    ArgKind kind = ArgKind::Value;
    std::vector<uint8_t> bytes;  // Value: the argument's bytes
    uint8_t* base = nullptr;     // Global/ConstantBuffer: first byte (nullptr for a NULL buffer argument)
    size_t size = 0;             // Global/ConstantBuffer: bytes in the buffer; LocalBuffer: bytes to allocate
    ImageDesc image;             // Image
};

struct NDRange {
    uint32_t dims = 1;
    size_t offset[3] = {0, 0, 0};
    size_t global[3] = {1, 1, 1};
    size_t local[3] = {1, 1, 1};  // always set by the caller (the API layer picks one when the user did not)
};

struct LaunchResult {
    bool ok = true;
    std::string error;  // undefined behaviour or trap: names the kernel, the instruction and the work-item
    // What the kernel's printf calls wrote (also when the launch failed): work-group by work-group in linear
    // order, each work-item's calls in its order. The API layer writes it to stdout when the command
    // completes.
    std::string printf_output;
};

// CL_DEVICE_PRINTF_BUFFER_SIZE: the bytes of printf output one launch keeps; a printf whose output does not
// fit any more writes nothing and returns -1.
constexpr size_t kPrintfBufferSize = size_t(1) << 20;

// Runs every work-group (in parallel on `threads` threads; 0 = hardware concurrency). Bounds-checks every
// memory access against the buffers passed in `args`, local memory and private memory.
LaunchResult launch(const Module& module, const std::string& kernel, const std::vector<ArgValue>& args,
                    const NDRange& range, const Profile& profile, const Faults& faults, unsigned threads = 0);

// Launch with a per-work-item limit on taken branches (0: none); exceeding it fails the launch with an error
// naming the branch budget. Used where kernels may loop forever: fuzzing, the ICD's REFDEV_BRANCH_BUDGET.
LaunchResult launch(const Module& module, const std::string& kernel, const std::vector<ArgValue>& args,
                    const NDRange& range, const Profile& profile, const Faults& faults, unsigned threads,
                    uint64_t branch_budget);

}  // namespace refdev::spirv
