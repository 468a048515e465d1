// OpSpecConstantOp: the embedded instruction is decoded by its own family decoder and run once by the
// interpreter loop over the constant registers, after specialization has put the values in place. A value
// that depends on a module-scope variable's address (an access chain into a Workgroup array, a cast of a
// Private variable's pointer) is known only per work-item: it is run at launch instead (Module::
// launch_constants_pc), before the kernel's first instruction.
#include <cstring>

#include "reference_device/spirv/decode.h"
#include "reference_device/spirv/interp.h"
#include "reference_device/spirv/opcode_table.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {
namespace {

using K = TypeInfo::Kind;
using Op = spv::Op;

// The opcodes SPIR-V allows in OpSpecConstantOp for a module with the Kernel capability (QuantizeToF16 is
// for Shader only), and which of their operands are ids: the rest are literal components or indexes.
struct Allowed {
    Op op;
    uint32_t id_operands;  // UINT32_MAX: every operand
};
constexpr uint32_t kAll = UINT32_MAX;
constexpr Allowed kAllowed[] = {
    {Op::OpSConvert, kAll},
    {Op::OpUConvert, kAll},
    {Op::OpFConvert, kAll},
    {Op::OpConvertFToS, kAll},
    {Op::OpConvertSToF, kAll},
    {Op::OpConvertFToU, kAll},
    {Op::OpConvertUToF, kAll},
    {Op::OpConvertPtrToU, kAll},
    {Op::OpConvertUToPtr, kAll},
    {Op::OpGenericCastToPtr, kAll},
    {Op::OpPtrCastToGeneric, kAll},
    {Op::OpBitcast, kAll},
    {Op::OpSNegate, kAll},
    {Op::OpNot, kAll},
    {Op::OpIAdd, kAll},
    {Op::OpISub, kAll},
    {Op::OpIMul, kAll},
    {Op::OpUDiv, kAll},
    {Op::OpSDiv, kAll},
    {Op::OpUMod, kAll},
    {Op::OpSRem, kAll},
    {Op::OpSMod, kAll},
    {Op::OpShiftRightLogical, kAll},
    {Op::OpShiftRightArithmetic, kAll},
    {Op::OpShiftLeftLogical, kAll},
    {Op::OpBitwiseOr, kAll},
    {Op::OpBitwiseXor, kAll},
    {Op::OpBitwiseAnd, kAll},
    {Op::OpFNegate, kAll},
    {Op::OpFAdd, kAll},
    {Op::OpFSub, kAll},
    {Op::OpFMul, kAll},
    {Op::OpFDiv, kAll},
    {Op::OpFRem, kAll},
    {Op::OpFMod, kAll},
    {Op::OpVectorShuffle, 2},
    {Op::OpCompositeExtract, 1},
    {Op::OpCompositeInsert, 2},
    {Op::OpLogicalOr, kAll},
    {Op::OpLogicalAnd, kAll},
    {Op::OpLogicalNot, kAll},
    {Op::OpLogicalEqual, kAll},
    {Op::OpLogicalNotEqual, kAll},
    {Op::OpSelect, kAll},
    {Op::OpIEqual, kAll},
    {Op::OpINotEqual, kAll},
    {Op::OpULessThan, kAll},
    {Op::OpSLessThan, kAll},
    {Op::OpUGreaterThan, kAll},
    {Op::OpSGreaterThan, kAll},
    {Op::OpULessThanEqual, kAll},
    {Op::OpSLessThanEqual, kAll},
    {Op::OpUGreaterThanEqual, kAll},
    {Op::OpSGreaterThanEqual, kAll},
    {Op::OpAccessChain, kAll},
    {Op::OpInBoundsAccessChain, kAll},
    {Op::OpPtrAccessChain, kAll},
    {Op::OpInBoundsPtrAccessChain, kAll},
};

const Allowed* allowed(uint32_t opcode) {
    for (const Allowed& a : kAllowed)
        if (token(a.op) == opcode) return &a;
    return nullptr;
}

bool isDivision(uint32_t op) {
    return op == token(Op::OpUDiv) || op == token(Op::OpSDiv) || op == token(Op::OpUMod) ||
           op == token(Op::OpSRem) || op == token(Op::OpSMod);
}

int64_t signExtend(uint64_t v, uint32_t bytes) {
    return bytes >= 8 ? int64_t(v) : int64_t(v << (64 - 8 * bytes)) >> (64 - 8 * bytes);
}

// Integer division whose result SPIR-V leaves undefined (a zero divisor; for the signed forms the minimum
// value divided by -1): which, or "" when every component is defined.
std::string undefinedDivision(const DecodeCtx& c, uint32_t op, uint32_t lhs, uint32_t rhs) {
    const Type& t = c.type(c.ids[rhs].type);
    const uint32_t w = componentBytes(t), n = t.info.components;
    const uint8_t* a = c.m.reg_init.data() + c.reg(lhs);
    const uint8_t* b = c.m.reg_init.data() + c.reg(rhs);
    for (uint32_t k = 0; k < n; ++k) {
        uint64_t x = 0, y = 0;
        std::memcpy(&x, a + k * w, w);
        std::memcpy(&y, b + k * w, w);
        const std::string at = n > 1 ? " in component " + std::to_string(k) : "";
        if (y == 0) return "division by zero" + at;
        const int64_t min = w >= 8 ? INT64_MIN : -(int64_t(1) << (8 * w - 1));
        if (op != token(Op::OpUDiv) && op != token(Op::OpUMod) && signExtend(y, w) == -1 &&
            signExtend(x, w) == min)
            return "the minimum value divided by -1" + at;
    }
    return "";
}

}  // namespace

bool declareSpecConstantOp(DecodeCtx& c) {
    if (c.words() < 4) return c.fail("too few operands");
    const uint32_t opcode = c.word(3);
    const char* name = opcodeName(opcode, c.ext);
    const std::string inner = name ? std::string(name) : "opcode " + std::to_string(opcode);
    const Allowed* row = allowed(opcode);
    if (!row) return c.fail(inner + " is not an operation OpSpecConstantOp allows (Kernel capability)");
    const uint32_t operands = c.words() - 4;
    const uint32_t id_operands = std::min(row->id_operands, operands);
    // Every id operand is a constant (or OpUndef), or a module-scope variable for the pointer operations.
    bool at_launch = false;
    for (uint32_t k = 0; k < id_operands; ++k) {
        const uint32_t id = c.word(4 + k);
        if (c.valueType(id, "operand") == UINT32_MAX) return true;
        const IdDef& d = c.ids[id];
        const bool undef = d.def < c.raw.size() && c.raw[d.def].opcode == token(Op::OpUndef);
        if (!d.constant && !undef && !d.address)
            return c.fail("operand %" + std::to_string(id) + " of " + inner + " is not a constant");
        at_launch = at_launch || d.address;
    }
    // The embedded instruction as it would stand in a function: result type, result, operands.
    std::vector<uint32_t> words;
    words.reserve(c.words() - 1);
    words.push_back(((c.words() - 1) << 16) | opcode);
    words.insert(words.end(), {c.word(1), c.word(2)});
    for (uint32_t k = 4; k < c.words(); ++k) words.push_back(c.word(k));
    const RawInsn* outer = c.in;
    const RawInsn embedded{opcode, outer->offset, uint32_t(words.size()), words.data()};
    const uint32_t result = c.word(2);
    if (c.defineResult(c.word(1)) == UINT32_MAX) return true;
    const size_t code_before = c.m.code.size();
    const int errors_before = c.errors;
    const size_t log_before = c.log.size();
    c.in = &embedded;
    for (bool (*decode)(DecodeCtx&) :
         {decodeInteger, decodeFloat, decodeConversion, decodeComposite, decodeMemory}) {
        if (decode(c) || c.errors != errors_before) break;
    }
    c.in = outer;
    if (c.errors != errors_before) {
        // The decoder named the embedded opcode: say where it sits.
        std::string tail = c.log.substr(log_before);
        c.log.resize(log_before);
        const std::string from = inner + " (word ";
        for (size_t at = tail.find(from); at != std::string::npos; at = tail.find(from, at + 1)) {
            tail.insert(at, "OpSpecConstantOp ");
            at += 17;
        }
        c.log += tail;
        return false;
    }
    if (c.m.code.size() != code_before + 1) return c.fail(inner + " did not decode to one instruction");
    const Insn insn = c.m.code.back();
    c.m.code.pop_back();
    // The decoder has checked the operand types; a division the interpreter would finish with some value
    // is refused here, since a build-time constant of undefined value is no value at all.
    if (isDivision(opcode) && !c.ids[c.word(5)].address) {
        const std::string why = undefinedDivision(c, opcode, c.word(4), c.word(5));
        if (!why.empty()) return c.fail(inner + ": " + why + " is undefined in SPIR-V");
    }
    IdDef& def = c.ids[result];
    if (at_launch) {
        def.address = true;
        c.launch_constants.push_back(insn);
        return true;
    }
    // Run it through the interpreter loop with the constant registers as the register file.
    c.m.code.push_back(insn);
    Insn ret;
    ret.kind = Kind::Return;
    c.m.code.push_back(ret);
    Kernel scope;
    scope.name = "module scope";
    LaunchShared shared;
    shared.module = &c.m;
    shared.kernel = &scope;
    GroupRun g;
    g.shared = &shared;
    g.m = &c.m;
    Frame frame{};
    Lane lane;
    lane.regs = c.m.reg_init.data();
    lane.frames = &frame;
    lane.pc = uint32_t(code_before);
    runLane(g, lane);
    c.m.code.resize(code_before);
    if (g.failed) return c.fail(inner + ": " + g.error);
    def.constant = true;
    const Type& rt = c.type(def.type);
    if (rt.info.kind == K::Int) {  // an array length or an access-chain index may use it
        uint64_t v = 0;
        std::memcpy(&v, c.m.reg_init.data() + def.reg, rt.reg_size);
        def.has_int = true;
        def.int_value = v;
    }
    return true;
}

}  // namespace refdev::spirv
