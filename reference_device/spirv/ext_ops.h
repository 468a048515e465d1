// Interface between the interpreter and the extension op families (reference_device/ext/*).
//
// Every extension instruction of the four Intel extensions is a sub-group collective: the interpreter runs
// each invocation of a sub-group until it reaches a collective, then calls the op's execute() once for
// the whole sub-group with an OpContext giving every lane's operands and result slot.
//
// Register value layout (the same for operands and results): scalars in their natural size, little-endian
// (i8 1 byte, i16/half 2, i32/float 4, i64/double 8, bool 1 byte holding 0 or 1, pointers 8 bytes holding
// the address); vectors are their components packed with no padding (a 3-component i32 vector is 12 bytes).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "reference_device/faults.h"
#include "reference_device/image_desc.h"
#include "reference_device/profile.h"

namespace refdev::spirv {

struct TypeInfo {
    enum class Kind : uint8_t {
        Void,
        Bool,
        Int,
        Float,
        Vector,
        Pointer,
        Image,
        Sampler,
        SampledImage,
        Array,
        Struct,
        Function,
        Event,
        Other
    };
    Kind kind = Kind::Other;
    Kind component_kind = Kind::Other;  // for vectors: Int, Float or Bool; for scalars: same as kind
    uint32_t component_bits = 0;        // scalar or vector component width (pointers: 64)
    uint32_t components = 1;            // vector component count, 1 for scalars
    uint32_t byte_size = 0;             // bytes of the value in a register
    uint32_t storage_class = 0;         // pointers: SPIR-V StorageClass
    uint32_t pointee_bytes = 0;         // pointers: byte size of the pointee type (0 if unsized)
    const TypeInfo* pointee = nullptr;  // pointers: the pointee type (may be null for opaque)
};

class OpContext {
public:
    virtual ~OpContext() = default;

    virtual uint32_t opcode() const = 0;
    virtual const char* opName() const = 0;
    // Operands counted after Result Type and Result (for ops without a result: from the first word).
    virtual uint32_t operandCount() const = 0;
    virtual const TypeInfo& resultType() const = 0;             // Void kind for ops without a result
    virtual const TypeInfo& operandType(uint32_t k) const = 0;  // type of the value of operand k
    virtual bool isConstant(uint32_t k) const = 0;              // operand k is an OpConstant* (or spec const)
    virtual uint32_t literal(uint32_t k) const = 0;  // operand k is a literal word (e.g. MMA operands)

    virtual uint32_t lanes() const = 0;            // invocations in this sub-group (its actual size)
    virtual uint32_t maxLanes() const = 0;         // SubgroupMaxSize
    virtual bool active(uint32_t lane) const = 0;  // this lane reached the instruction with the others
    virtual const uint8_t* operand(uint32_t lane, uint32_t k) const = 0;
    virtual uint8_t* result(uint32_t lane) = 0;

    // Host address for `bytes` bytes at pointer `address` as seen by `lane`; the whole range must lie in
    // one allocation the lane may access. On violation it reports undefined behaviour and returns nullptr.
    virtual uint8_t* memory(uint32_t lane, uint64_t address, size_t bytes, bool write) = 0;
    // The same lookup without reporting: nullptr when the range is not within one allocation `lane` may
    // access. Fast paths ask it once for a whole region and otherwise take their element-wise path, whose
    // memory() calls report the violation. The default (nullptr) always sends them to that path.
    virtual uint8_t* probeMemory(uint32_t lane, uint64_t address, size_t bytes, bool write) {
        return nullptr;
    }
    // The image behind operand k (an OpTypeImage value) for `lane`; nullptr (after reporting) if invalid.
    virtual const ImageDesc* image(uint32_t lane, uint32_t k) = 0;

    virtual const Faults& faults() const = 0;
    // The platform profile the launch runs on (e.g. its MMA N); nullptr where a test context has none.
    virtual const Profile* profile() const { return nullptr; }
    // 0 for the first instruction with this opcode in the module, 1 for the second, ... Only planted
    // faults look at it (e.g. a compiler bug in the second MMA of a kernel).
    virtual uint32_t siteOrdinal() const { return 0; }
    // Linear id of the work-group this sub-group belongs to. Only planted faults look at it (e.g. a fault
    // that misbehaves in some work-groups); an interpreter that does not track it may keep this default.
    virtual uint64_t workGroupLinearId() const { return 0; }
    // Address of the first byte of the work-group's local memory (Workgroup storage). Only planted faults
    // look at it (e.g. a local block read that drops Ptr's offset within local memory); 0 where unknown.
    virtual uint64_t localMemoryBase() const { return 0; }
    // Per-sub-group words (slot < kFaultStateSlots), zero when its work-group starts, that only planted
    // faults use to model a stateful driver bug (e.g. a prefetch buffer a later load is served from).
    // nullptr where a context keeps none (the fault then stays dormant).
    static constexpr uint32_t kFaultStateSlots = 4;
    virtual uint64_t* faultState(uint32_t slot) {
        (void)slot;
        return nullptr;
    }
    // Stops the launch with an error. The interpreter prefixes kernel, instruction and work-item; `what`
    // says which rule was broken, e.g. "OpSubgroupBlockReadINTEL: Ptr is not uniform across the sub-group".
    virtual void undefinedBehavior(uint32_t lane, const std::string& what) = 0;
    virtual bool failed() const = 0;

    // Helpers built on the interface.
    template <typename T>
    T get(uint32_t lane, uint32_t k, uint32_t component = 0) const {
        T v;
        std::memcpy(&v, operand(lane, k) + component * sizeof(T), sizeof(T));
        return v;
    }
    uint64_t getUint(uint32_t lane, uint32_t k) const;  // scalar integer operand, zero-extended
    // True when operand k has the same bytes in every active lane. Virtual so that the interpreter can answer
    // these from its registers without a virtual call per lane (they run at every collective).
    virtual bool uniform(uint32_t k) const;
    virtual bool allActive() const;  // every lane of the sub-group reached the instruction
    // A full sub-group (lanes() == maxLanes()) all of whose invocations reached the instruction: what
    // block IO, 2D block IO and MMA require.
    bool fullSubgroup() const { return lanes() == maxLanes() && allActive(); }
};

// What a family's build-time check sees of one instruction of a module being built.
struct ExtBuildView {
    const TypeInfo* result = nullptr;            // nullptr for instructions without a result
    std::vector<const TypeInfo*> operand_types;  // per operand; nullptr for literal operands
    std::vector<bool> int_constant;              // operand is a scalar integer constant of known value
    std::vector<uint64_t> int_value;             // that value (zero-extended), else 0
    std::vector<uint32_t> literal;               // literal operand words, 0 for <id> operands
    const Profile* profile = nullptr;            // the device the module is built for
};

// Opcodes from here on are the device's own, for OpenCL C built-ins no SPIR-V instruction stands for (the
// split matrix mads, the extended block reads): reached only through an imported built-in call
// (builtins.cpp); the loader refuses them as instructions of a module.
constexpr uint32_t kFirstBuiltinOnlyOpcode = 0xFF00;
constexpr uint32_t kOpExtendedBlockRead = kFirstBuiltinOnlyOpcode;  // intel_subgroup_block_read_u*
constexpr uint32_t kOpExtendedBlockReadTransform = kFirstBuiltinOnlyOpcode + 1;  // ..._transform_u*
constexpr uint32_t kOpExtendedBlockReadTranspose = kFirstBuiltinOnlyOpcode + 2;  // ..._transpose_u*
constexpr uint32_t kOpSplitMatrixMad =
    kFirstBuiltinOnlyOpcode + 0x10;  // intel_sub_group_*_split_matrix_mad_k*

struct ExtOpInfo {
    uint32_t opcode = 0;
    const char* name = "";
    bool has_result = true;
    uint32_t min_operands = 0, max_operands = 0;  // counted as in OpContext::operandCount()
    uint32_t first_literal = UINT32_MAX;          // operands at index >= this are literal words, not ids
    std::vector<uint32_t> capabilities;           // any one of these enables the op
    void (*execute)(OpContext& ctx) = nullptr;
    // Optional build-time check: "" accepts the instruction, anything else fails clBuildProgram with that
    // text in the build log (e.g. an MMA whose operand types match no row of the device's table).
    std::string (*check)(const ExtBuildView& view) = nullptr;
    // Set instead of execute for an instruction two sub-groups execute together (the split matrix mads):
    // the work-group scheduler runs it once sub-groups 2i and 2i + 1 both wait at it, with their contexts
    // in sub-group order.
    void (*execute_pair)(OpContext& first, OpContext& second) = nullptr;
};

// What a planted build fault sees of one kernel of a module that otherwise builds: its SubgroupSize and the
// extension instructions it reaches, in its body or through calls (a compiler rejects per kernel).
struct KernelBuildView {
    struct Use {
        uint32_t opcode = 0;
        const TypeInfo* result = nullptr;  // nullptr for instructions without a result
    };
    std::string name;
    uint32_t sub_group_size = 0;  // SubgroupSize execution mode, 0 when absent
    std::vector<Use> uses;
};

// A planted compiler bug (REFDEV_FAULTS), run only when a fault is active: "" accepts the kernel; anything
// else fails clBuildProgram, and the build log starts with "error: <kernel>: <that text>".
using BuildFault = std::string (*)(const KernelBuildView& kernel, const Faults& faults);

class ExtOpTable {
public:
    void add(ExtOpInfo info);
    const ExtOpInfo* find(uint32_t opcode) const;
    const std::vector<ExtOpInfo>& all() const { return ops_; }
    void addBuildFault(BuildFault check) { build_faults_.push_back(check); }
    const std::vector<BuildFault>& buildFaults() const { return build_faults_; }

private:
    std::vector<ExtOpInfo> ops_;
    std::vector<BuildFault> build_faults_;
};

// Op families register their instructions from their own folder (reference_device/ext/<family>/, linked into
// the device as object files, so a file-scope registrar is kept):
//
//     void registerMyFamilyOps(ExtOpTable& table) { table.add(...); }
//     REFDEV_REGISTER_EXT_OPS("<family>", registerMyFamilyOps);
using RegisterExtOps = void (*)(ExtOpTable& table);
void addExtOpFamily(const char* family, RegisterExtOps add);

namespace detail {
struct ExtOpFamilyRegistrar {
    ExtOpFamilyRegistrar(const char* family, RegisterExtOps add) { addExtOpFamily(family, add); }
};
}  // namespace detail

// The table with every registered family, in family-name order (built once, read-only afterwards).
const ExtOpTable& extOps();

}  // namespace refdev::spirv

#define REFDEV_REGISTER_EXT_OPS(family, add)                                               \
    static const ::refdev::spirv::detail::ExtOpFamilyRegistrar refdev_ext_ops_registrar_ { \
        family, add                                                                        \
    }
