// The pre-decoded module: types, register layout and a compact instruction stream the interpreter runs.
// Internal to reference_device/spirv/.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "reference_device/spirv/ext_ops.h"
#include "reference_device/spirv/program.h"

namespace refdev::spirv {

// Handler classes of decoded instructions; each family decodes its opcodes into one of these and keeps
// its own sub-operation in Insn::sub.
enum class Kind : uint16_t {
    Nop,
    // control flow (interp.cpp)
    Branch,
    BranchCond,
    Switch,
    Call,
    Return,
    ReturnValue,
    Unreachable,
    Variable,
    // collectives: the lane stops here and the scheduler runs them for the sub-group / work-group
    Barrier,
    SubgroupBarrier,
    GroupOp,
    ExtOp,
    AsyncCopy,  // OpGroupAsyncCopy: all work-items of the work-group wait here, then it copies once
    // families
    IntBinary,
    IntUnary,
    IntCompare,
    Logical,
    Select,
    IntExtended,
    FloatBinary,
    FloatUnary,
    FloatCompare,
    Dot,
    Convert,
    Copy,
    CompositeConstruct,
    Shuffle,
    ExtractDynamic,
    InsertDynamic,
    CompositeInsert,
    Load,
    Store,
    CopyMemory,
    AccessChain,
    PtrCompare,
    OclStd,
    Atomic,
    MemoryBarrier,
    Image,  // image instructions (instructions/image.cpp)
    // frequent scalar forms with their own case in the main loop
    IAdd32,
    ISub32,
    IMul32,
    IAdd64,
    FAdd32,
    FMul32,
    ILessS32,
    ILessU32,
    Load4,
    Store4,
    IAnd32,
    IOr32,
    IXor32,
    IShl32,
    IShrL32,
    IEq32,
    INe32,
    FSub32,
    FLessO32,
};

// One decoded instruction. Register operands are byte offsets into a lane's register file.
struct Insn {
    Kind kind = Kind::Nop;
    uint16_t opcode = 0;  // SPIR-V opcode, for messages
    uint16_t sub = 0;     // family-specific sub-operation
    uint8_t width = 0;    // component bytes
    uint8_t flags = 0;
    uint32_t n = 0;    // components, or bytes
    uint32_t res = 0;  // result register
    uint32_t a = 0, b = 0, c = 0;
    uint32_t aux = 0;   // index into Module::aux
    uint32_t word = 0;  // word offset of the instruction in the module
};

struct Type {
    TypeInfo info;
    uint32_t id = 0;
    uint32_t reg_size = 0;  // bytes in a register (vectors packed)
    uint32_t mem_size = 0;  // bytes in memory, OpenCL C layout (3-component vectors take 4)
    uint32_t mem_align = 1;
    uint32_t elem = UINT32_MAX;     // array/vector/pointer: element type index
    uint32_t length = 0;            // array length
    uint32_t stride = 0;            // array/vector element stride in memory and registers
    std::vector<uint32_t> members;  // struct member type indices
    std::vector<uint32_t> offsets;  // struct member byte offsets
    uint32_t access = 0;            // images: access qualifier
    bool is_signed = false;
    std::string name;  // OpenCL C spelling, best effort
};

struct EdgeCopy {
    uint32_t dst, src, size;
};
struct Edge {
    uint32_t first = 0, count = 0;  // into Module::copies
    bool via_temp = false;          // a source is overwritten by another copy of the same edge
};

enum class GlobalSpace : uint8_t { Builtin, Workgroup, Private, Constant };
struct GlobalVar {
    GlobalSpace space;
    uint32_t reg;                    // register receiving the pointer
    uint32_t offset;                 // in the builtin block, local arena, private arena or constant data
    uint32_t init_reg = UINT32_MAX;  // Private: register holding the initializer
    uint32_t init_size = 0;
};

struct KernelParam {
    uint32_t id = 0;
    uint32_t reg = 0;
    uint32_t type = 0;                   // type index
    uint32_t byval_offset = UINT32_MAX;  // Function-pointer (ByVal) params: private arena offset of the copy
};

struct Kernel {
    std::string name;
    uint32_t entry_pc = 0;
    std::vector<KernelParam> params;
    uint32_t sub_group_size = 0;  // SubgroupSize mode, 0 when absent
    uint32_t function_id = 0;
};

// Per-lane built-in block: byte offsets of each built-in (size_t vectors are 3 x 8 bytes).
namespace builtin {
enum : uint32_t {
    GlobalInvocationId = 0,
    LocalInvocationId = 24,
    WorkgroupId = 48,
    NumWorkgroups = 72,
    WorkgroupSize = 96,
    GlobalSize = 120,
    GlobalOffset = 144,
    EnqueuedWorkgroupSize = 168,
    GlobalLinearId = 192,
    LocalInvocationIndex = 200,
    SubgroupSize = 208,
    SubgroupMaxSize = 212,
    NumSubgroups = 216,
    NumEnqueuedSubgroups = 220,
    SubgroupId = 224,
    SubgroupLocalInvocationId = 228,
    WorkDim = 232,
    BlockSize = 240
};
}

// The largest Alignment decoration a variable may ask (a page): every lane's private arena is padded to the
// module's largest variable alignment.
constexpr uint32_t kMaxVariableAlign = 4096;

class Module {
public:
    std::vector<KernelInfo> kernel_infos;
    std::vector<Kernel> kernels;
    std::vector<Insn> code;
    std::vector<uint32_t> aux;
    std::vector<EdgeCopy> copies;
    std::vector<Edge> edges;
    std::deque<Type> types;
    std::vector<uint8_t> reg_init;   // initial register file (constants)
    uint32_t private_size = 0;       // per-lane private arena bytes
    uint32_t local_static_size = 0;  // Workgroup variables
    // The largest alignment of a Function, Private, Workgroup or UniformConstant variable: launch() starts
    // each of those arenas at a multiple of it, so that offsets aligned within an arena are aligned
    // addresses.
    uint32_t var_align = 16;
    uint32_t call_depth = 1;          // deepest call chain + 1
    std::vector<uint8_t> const_data;  // UniformConstant variables with initializers
    std::vector<GlobalVar> globals;
    std::vector<uint32_t> type_of_reg_dummy;
    const ExtOpTable* ext_table = nullptr;
    std::vector<const ExtOpInfo*> ext_infos;  // Insn::aux of ExtOp -> [info index, ...]
    // OpSpecConstantOp results computed from variable addresses: code run by every work-item at launch, up to
    // a Return, before its kernel starts. UINT32_MAX when there are none.
    uint32_t launch_constants_pc = UINT32_MAX;

    const Kernel* findKernel(const std::string& name) const {
        for (const Kernel& k : kernels)
            if (k.name == name) return &k;
        return nullptr;
    }
};

// Internal overloads with an injectable extension table (tests register fake collectives).
BuildResult buildModule(const uint32_t* words, size_t word_count, const Profile& profile,
                        const ExtOpTable& table, const Faults* faults = nullptr);

}  // namespace refdev::spirv
