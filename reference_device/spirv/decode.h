// State shared by the loader and the per-family decoders (instructions/) while a module is being built.
// Internal.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "reference_device/spirv/module.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {

struct RawInsn {
    uint32_t opcode = 0;
    uint32_t offset = 0;  // word offset in the module
    uint32_t count = 0;   // word count
    const uint32_t* w = nullptr;
};

struct IdDef {
    enum What : uint8_t { None, TypeId, Value, Label, Function, ExtSet, String, Group };
    What what = None;
    bool constant = false;
    bool has_int = false;        // scalar integer constant with a known value
    bool address = false;        // a module-scope variable's pointer, or a constant computed from one (known
                                 // per work-item at launch)
    uint32_t type = UINT32_MAX;  // TypeId: own type index; Value: its type index
    uint32_t reg = UINT32_MAX;   // Value: register offset
    uint32_t def = UINT32_MAX;   // index of the defining raw instruction
    uint64_t int_value = 0;
};

struct Decoration {
    uint32_t target, decoration, value;
};

class DecodeCtx {
public:
    DecodeCtx(Module& module, const Profile& profile, const ExtOpTable& table)
        : m(module), profile(profile), ext(table) {}

    Module& m;
    const Profile& profile;
    const ExtOpTable& ext;
    std::vector<RawInsn> raw;
    std::vector<IdDef> ids;
    std::vector<Decoration> decorations;
    std::vector<std::string> names;  // by id
    uint32_t bound = 0;
    uint32_t version = 0;  // the header's version word: 0x00010400 for SPIR-V 1.4
    uint32_t reg_size = 0;
    uint32_t opencl_std = UINT32_MAX;    // id of the OpenCL.std import
    std::vector<uint32_t> capabilities;  // declared by OpCapability
    std::map<uint32_t, std::string> import_names;
    std::vector<uint32_t> ignored_sets;  // OpExtInstImport ids of debug-information sets
    std::vector<Insn> launch_constants;  // OpSpecConstantOp results that need variable addresses
    // The current instruction is an OpExtInst of a debug-information set (skipped).
    bool ignoredExtInst() const {
        return in->opcode == token(spv::Op::OpExtInst) && in->count > 3 &&
               std::find(ignored_sets.begin(), ignored_sets.end(), in->w[3]) != ignored_sets.end();
    }                                // LinkageAttributes ... Import: function id -> name
    const RawInsn* in = nullptr;     // instruction being decoded
    const Faults* faults = nullptr;  // planted faults of the build (build_faults.cpp), if any
    // Imported built-in calls resolved by decodeBuiltinCall: raw index of the OpFunctionCall -> the extension
    // opcode it stands for, so build faults see the instruction the call reaches.
    std::map<size_t, uint32_t> builtin_calls;
    std::string log;
    int errors = 0;

    // Logs one line for the current instruction and returns false.
    bool fail(const std::string& why);
    bool failAt(const RawInsn& r, const std::string& why);
    bool failModule(const std::string& why);  // a problem no single instruction carries

    uint32_t word(uint32_t k) const { return k < in->count ? in->w[k] : 0; }
    uint32_t words() const { return in->count; }

    // Value id checks: type index of a value (logs and returns UINT32_MAX when id is not a value).
    uint32_t valueType(uint32_t id, const char* what = "operand");
    uint32_t typeIndex(uint32_t id);  // id must be a type
    const Type& type(uint32_t index) const { return m.types[index]; }
    uint32_t reg(uint32_t id) const { return ids[id].reg; }
    bool intConstant(uint32_t id, uint64_t* value) const;
    bool decorated(uint32_t id, uint32_t decoration, uint32_t* value = nullptr) const;
    // Alignment of variable `id`'s storage: its Alignment decoration, the pointee's OpenCL C alignment or
    // `floor`, the largest; raises Module::var_align to it. 0 (logged) for a decoration that is not a power
    // of two in 1..4096.
    uint32_t variableAlign(uint32_t id, const Type& pointee, uint32_t floor);

    uint32_t allocReg(uint32_t bytes);
    // Result of the current instruction: defines its register and returns the type index.
    uint32_t defineResult(uint32_t type_id);
    Insn start(Kind kind) const;
    void emit(const Insn& insn) { m.code.push_back(insn); }
};

// A decoder's opcode table (instructions/*.cpp): one row per instruction, naming the interpreter kind and
// sub-operation it decodes to.
struct OpRow {
    spv::Op op;
    Kind kind;
    uint16_t sub;
};

// The row of `opcode` in `rows`, or nullptr when the table has none.
template <size_t N>
const OpRow* findOpRow(const OpRow (&rows)[N], uint32_t opcode) {
    for (const OpRow& row : rows)
        if (token(row.op) == opcode) return &row;
    return nullptr;
}

bool sameShape(const Type& a, const Type& b);
bool isInt(const Type& t);    // scalar or vector of integers
bool isFloat(const Type& t);  // scalar or vector of floats
bool isBool(const Type& t);   // scalar or vector of bools
uint32_t componentBytes(const Type& t);

// Family decoders (instructions/*.cpp): return true when the opcode belongs to the family (errors are logged
// through ctx).
bool decodeInteger(DecodeCtx& ctx);
bool decodeFloat(DecodeCtx& ctx);
bool decodeConversion(DecodeCtx& ctx);
bool decodeComposite(DecodeCtx& ctx);
bool decodeMemory(DecodeCtx& ctx);
bool decodeAtomic(DecodeCtx& ctx);
bool decodeOclStd(DecodeCtx& ctx);
bool decodeGroup(DecodeCtx& ctx);
bool decodeExtOp(DecodeCtx& ctx);
bool decodeAsyncCopy(DecodeCtx& ctx);          // OpGroupAsyncCopy, OpGroupWaitEvents (called by decodeGroup)
bool decodePrintf(DecodeCtx& ctx, Insn insn);  // OpenCL.std printf (called by decodeOclStd)
bool decodeImage(DecodeCtx& ctx);

// Module-level parts of the loader.
bool declareType(DecodeCtx& ctx);            // OpType*: true when handled
bool declareConstant(DecodeCtx& ctx);        // OpConstant*, OpSpecConstant*, OpUndef at module scope
bool declareSpecConstantOp(DecodeCtx& ctx);  // spec_constant_op.cpp
bool decodeFunctions(DecodeCtx& ctx, size_t first_raw);
// Runs the table's planted build faults on every kernel of a module that otherwise built; false (with the
// errors first in the log) when one rejects it.
bool checkBuildFaults(DecodeCtx& ctx, size_t first_raw);

}  // namespace refdev::spirv
