// Function bodies: block structure, control flow (branches, OpSwitch, OpPhi edge copies, calls, returns),
// function-scope variables, and dispatch of every other instruction to its family decoder.
#include <algorithm>
#include <cstring>

#include "reference_device/spirv/builtins.h"
#include "reference_device/spirv/decode.h"
#include "reference_device/spirv/opcode_table.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {
namespace {

using K = TypeInfo::Kind;
constexpr uint32_t kNone = UINT32_MAX;

struct Phi {
    uint32_t reg, size;
    std::vector<std::pair<uint32_t, uint32_t>> incoming;  // (value id, parent label)
    uint32_t raw;
};
struct Block {
    uint32_t pc = kNone;
    std::vector<Phi> phis;
};
struct Fixup {
    uint32_t label, from;  // target label, label of the branching block
    uint8_t where;         // 0: code.a/aux  1: code.b/aux  2: code.c/n  3: aux[idx], aux[idx+1]
    uint32_t idx;
    uint32_t raw;
};
struct Function {
    uint32_t id = 0;
    uint32_t ret_type = kNone;
    uint32_t entry_pc = kNone;
    std::vector<uint32_t> params;
    std::vector<uint32_t> callees;
    uint8_t mark = 0;
    bool has_body = false;  // a declaration (no OpLabel) is an import: builtins.cpp resolves calls to it
};

bool isTerminator(uint32_t op) {
    return op >= token(spv::Op::OpBranch) && op <= token(spv::Op::OpUnreachable);
}
bool isSkipped(uint32_t op) {
    // debug lines, structured-control hints, lifetime markers and OpNop change nothing when executed
    return op == token(spv::Op::OpNop) || op == token(spv::Op::OpLine) || op == token(spv::Op::OpNoLine) ||
           op == token(spv::Op::OpLoopMerge) || op == token(spv::Op::OpSelectionMerge) ||
           op == token(spv::Op::OpLifetimeStart) || op == token(spv::Op::OpLifetimeStop);
}

class FunctionDecoder {
public:
    explicit FunctionDecoder(DecodeCtx& ctx) : c(ctx), fn_of_id(ctx.bound, kNone) {}
    bool run(size_t first);

private:
    DecodeCtx& c;
    std::vector<Function> fns;
    std::vector<uint32_t> fn_of_id;
    std::vector<Block> blocks;  // by label id, reset per function
    std::vector<uint32_t> fn_labels;
    std::vector<Fixup> fixups;
    std::vector<std::pair<uint32_t, uint32_t>> calls;  // (code index, callee id)
    uint32_t cur_label = kNone;

    bool predefine(size_t first);
    bool instruction(Function& fn);
    bool branchTo(uint32_t label, uint8_t where, uint32_t idx);
    bool finishFunction();
    bool finishCalls();
    uint32_t depth(uint32_t f, bool* cycle);
};

// Results of function-body instructions get their type and register first, so forward references (OpPhi,
// values defined in a later block) resolve.
bool FunctionDecoder::predefine(size_t first) {
    for (size_t i = first; i < c.raw.size(); ++i) {
        c.in = &c.raw[i];
        uint32_t op = c.in->opcode;
        if (op == token(spv::Op::OpFunction)) {
            uint32_t t = c.typeIndex(c.word(1));
            if (t == kNone) return false;
            Function f;
            f.id = c.word(2);
            f.ret_type = t;
            c.ids[f.id].what = IdDef::Function;
            fn_of_id[f.id] = uint32_t(fns.size());
            fns.push_back(f);
            continue;
        }
        if (op == token(spv::Op::OpLabel)) {
            c.ids[c.word(1)].what = IdDef::Label;
            if (!fns.empty()) fns.back().has_body = true;
            continue;
        }
        const ExtOpInfo* ext = c.ext.find(op);  // before the core grammar, as in Loader::checkIds
        const OpcodeEntry* core = ext ? nullptr : findCoreOpcode(op);
        bool typed = core ? (core->shape[0] == 't' && core->shape[1] == 'r') : (ext && ext->has_result);
        if (!typed) continue;
        if (c.ids[c.word(2)].what != IdDef::None) continue;
        if (c.defineResult(c.word(1)) == kNone) return false;
        if (op == token(spv::Op::OpFunctionParameter) && !fns.empty()) fns.back().params.push_back(c.word(2));
    }
    return c.errors == 0;
}

bool FunctionDecoder::branchTo(uint32_t label, uint8_t where, uint32_t idx) {
    if (label >= c.bound || c.ids[label].what != IdDef::Label)
        return c.fail("branch target %" + std::to_string(label) + " is not a label");
    fixups.push_back({label, cur_label, where, idx, uint32_t(c.in - c.raw.data())});
    return true;
}

bool FunctionDecoder::instruction(Function& fn) {
    const uint32_t op = c.in->opcode;
    Insn insn = c.start(Kind::Nop);
    switch (op) {
        case token(spv::Op::OpPhi): {  // must precede every other instruction of its block
            if (cur_label == kNone) return c.fail("outside a block");
            Block& b = blocks[cur_label];
            if (b.pc != uint32_t(c.m.code.size()) || (!b.phis.empty() && false))
                return c.fail("OpPhi after a non-OpPhi instruction of its block");
            uint32_t t = c.ids[c.word(2)].type;
            Phi phi{c.reg(c.word(2)), c.type(t).reg_size, {}, uint32_t(c.in - c.raw.data())};
            if ((c.words() - 3) % 2) return c.fail("operands are not (value, parent) pairs");
            for (uint32_t k = 3; k + 1 < c.words(); k += 2) {
                uint32_t v = c.word(k), parent = c.word(k + 1);
                uint32_t vt = c.valueType(v, "incoming value");
                if (vt == kNone) return false;
                if (!sameShape(c.type(vt), c.type(t)))
                    return c.fail("incoming value type does not match the result type");
                if (c.ids[parent].what != IdDef::Label)
                    return c.fail("parent %" + std::to_string(parent) + " is not a label");
                phi.incoming.emplace_back(v, parent);
            }
            b.phis.push_back(std::move(phi));
            return true;
        }
        case token(spv::Op::OpBranch):
            insn.kind = Kind::Branch;
            c.emit(insn);
            return branchTo(c.word(1), 0, uint32_t(c.m.code.size() - 1));
        case token(spv::Op::OpBranchConditional): {
            uint32_t t = c.valueType(c.word(1), "condition");
            if (t == kNone) return false;
            if (c.type(t).info.kind != K::Bool) return c.fail("condition is not a bool");
            insn.kind = Kind::BranchCond;
            insn.a = c.reg(c.word(1));
            c.emit(insn);
            uint32_t at = uint32_t(c.m.code.size() - 1);
            return branchTo(c.word(2), 1, at) && branchTo(c.word(3), 2, at);
        }
        case token(
            spv::Op::OpSwitch): {  // selector, default, (literal, label)*; literals take the selector's width
            uint32_t t = c.valueType(c.word(1), "selector");
            if (t == kNone) return false;
            const Type& st = c.type(t);
            if (st.info.kind != K::Int) return c.fail("selector is not a scalar integer");
            uint32_t lw = st.reg_size > 4 ? 2 : 1;
            if ((c.words() - 3) % (lw + 1)) return c.fail("case operands do not match the selector width");
            uint32_t cases = (c.words() - 3) / (lw + 1);
            insn.kind = Kind::Switch;
            insn.a = c.reg(c.word(1));
            insn.width = uint8_t(st.reg_size);
            insn.n = cases;
            insn.aux = uint32_t(c.m.aux.size());
            c.m.aux.resize(c.m.aux.size() + 2 + 4 * size_t(cases));
            c.emit(insn);
            if (!branchTo(c.word(2), 3, insn.aux)) return false;
            for (uint32_t k = 0; k < cases; ++k) {
                uint32_t w = 3 + k * (lw + 1);
                uint32_t slot = insn.aux + 2 + 4 * k;
                c.m.aux[slot] = c.word(w);
                c.m.aux[slot + 1] = lw == 2 ? c.word(w + 1) : 0;
                if (!branchTo(c.word(w + lw), 3, slot + 2)) return false;
            }
            return true;
        }
        case token(spv::Op::OpReturn):
            if (c.type(fn.ret_type).info.kind != K::Void)
                return c.fail("OpReturn in a function returning a value");
            insn.kind = Kind::Return;
            c.emit(insn);
            return true;
        case token(spv::Op::OpReturnValue): {
            uint32_t t = c.valueType(c.word(1), "return value");
            if (t == kNone) return false;
            if (!sameShape(c.type(t), c.type(fn.ret_type)))
                return c.fail("return value type does not match the function");
            insn.kind = Kind::ReturnValue;
            insn.a = c.reg(c.word(1));
            insn.n = c.type(t).reg_size;
            c.emit(insn);
            return true;
        }
        case token(spv::Op::OpUnreachable):
            insn.kind = Kind::Unreachable;
            c.emit(insn);
            return true;
        case token(spv::Op::OpFunctionCall): {
            uint32_t callee = c.word(3);
            if (c.ids[callee].what != IdDef::Function)
                return c.fail("callee %" + std::to_string(callee) + " is not a function");
            Function& f = fns[fn_of_id[callee]];
            if (!f.has_body) return decodeBuiltinCall(c, callee, f.params);
            uint32_t argc = c.words() - 4;
            if (argc != f.params.size())
                return c.fail("passes " + std::to_string(argc) + " arguments to a function with " +
                              std::to_string(f.params.size()) + " parameters");
            if (!sameShape(c.type(c.ids[c.word(2)].type), c.type(f.ret_type)))
                return c.fail("result type does not match the callee's return type");
            insn.kind = Kind::Call;
            insn.res = c.reg(c.word(2));
            insn.n = c.type(f.ret_type).reg_size;
            insn.aux = uint32_t(c.m.aux.size());
            c.m.aux.push_back(argc);
            for (uint32_t k = 0; k < argc; ++k) {
                uint32_t at = c.valueType(c.word(4 + k), "argument");
                if (at == kNone) return false;
                uint32_t pt = c.ids[f.params[k]].type;
                if (!sameShape(c.type(at), c.type(pt)))
                    return c.fail("argument " + std::to_string(k) + " has the wrong type");
                c.m.aux.push_back(c.reg(c.word(4 + k)));
                c.m.aux.push_back(c.reg(f.params[k]));
                c.m.aux.push_back(c.type(pt).reg_size);
            }
            c.emit(insn);
            calls.emplace_back(uint32_t(c.m.code.size() - 1), callee);
            fn.callees.push_back(callee);
            return true;
        }
        case token(spv::Op::OpVariable): {  // OpVariable (Function storage)
            uint32_t pt = c.ids[c.word(2)].type;
            const Type& ptr = c.type(pt);
            if (ptr.info.kind != K::Pointer || ptr.elem == kNone)
                return c.fail("result type is not a pointer");
            if (c.word(3) != 7)
                return c.fail("variables inside a function must use the Function storage class");
            const Type& pointee = c.type(ptr.elem);
            const uint32_t align = c.variableAlign(c.word(2), pointee, 8);
            if (!align) return false;
            uint32_t off = (c.m.private_size + align - 1) / align * align;
            c.m.private_size = off + std::max<uint32_t>(pointee.mem_size, 1);
            insn.kind = Kind::Variable;
            insn.res = c.reg(c.word(2));
            insn.a = off;
            insn.b = kNone;
            if (c.words() > 4) {
                uint32_t it = c.valueType(c.word(4), "initializer");
                if (it == kNone) return false;
                if (!sameShape(c.type(it), pointee))
                    return c.fail("initializer type does not match the pointee");
                insn.b = c.reg(c.word(4));
                insn.n = c.type(it).reg_size;
            }
            c.emit(insn);
            return true;
        }
        case token(spv::Op::OpUndef):  // a zero register
            return true;
        default: break;
    }
    // A family decoder returns false both for "not mine" and after logging an error.
    const int errors_before = c.errors;
    for (bool (*decode)(DecodeCtx&) :
         {decodeInteger, decodeFloat, decodeConversion, decodeComposite, decodeMemory, decodeAtomic,
          decodeOclStd, decodeGroup, decodeExtOp, decodeImage}) {
        if (decode(c)) return true;
        if (c.errors != errors_before) return false;
    }
    return c.fail("is not supported by this device");
}

bool FunctionDecoder::finishFunction() {
    bool ok = true;
    for (const Fixup& f : fixups) {
        c.in = &c.raw[f.raw];
        Block& target = blocks[f.label];
        if (target.pc == kNone || std::find(fn_labels.begin(), fn_labels.end(), f.label) == fn_labels.end()) {
            ok = c.fail("branch target %" + std::to_string(f.label) + " is not a block of this function");
            continue;
        }
        uint32_t edge = kNone;
        if (!target.phis.empty()) {
            Edge e;
            e.first = uint32_t(c.m.copies.size());
            for (const Phi& phi : target.phis) {
                auto it =
                    std::find_if(phi.incoming.begin(), phi.incoming.end(),
                                 [&](const std::pair<uint32_t, uint32_t>& p) { return p.second == f.from; });
                if (it == phi.incoming.end()) {
                    ok = c.failAt(c.raw[phi.raw],
                                  "has no incoming value for predecessor %" + std::to_string(f.from));
                    break;
                }
                c.m.copies.push_back({phi.reg, c.reg(it->first), phi.size});
            }
            e.count = uint32_t(c.m.copies.size()) - e.first;
            // Phis read their sources before any of them is written: go through a temporary when needed.
            for (uint32_t i = e.first; i < e.first + e.count; ++i)
                for (uint32_t j = e.first; j < e.first + e.count; ++j)
                    if (i != j && c.m.copies[i].src < c.m.copies[j].dst + c.m.copies[j].size &&
                        c.m.copies[j].dst < c.m.copies[i].src + c.m.copies[i].size)
                        e.via_temp = true;
            edge = uint32_t(c.m.edges.size());
            c.m.edges.push_back(e);
        }
        switch (f.where) {
            case 0:
                c.m.code[f.idx].a = target.pc;
                c.m.code[f.idx].aux = edge;
                break;
            case 1:
                c.m.code[f.idx].b = target.pc;
                c.m.code[f.idx].aux = edge;
                break;
            case 2:
                c.m.code[f.idx].c = target.pc;
                c.m.code[f.idx].n = edge;
                break;
            default:
                c.m.aux[f.idx] = target.pc;
                c.m.aux[f.idx + 1] = edge;
                break;
        }
    }
    for (uint32_t l : fn_labels) blocks[l] = Block{};
    fn_labels.clear();
    fixups.clear();
    return ok;
}

uint32_t FunctionDecoder::depth(uint32_t f, bool* cycle) {
    Function& fn = fns[f];
    if (fn.mark == 1) {
        *cycle = true;
        return 0;
    }
    if (fn.mark == 2) return 1;  // depth is recomputed; call graphs of kernels are small
    fn.mark = 1;
    uint32_t d = 0;
    for (uint32_t callee : fn.callees) {
        if (*cycle) break;
        d = std::max(d, depth(fn_of_id[callee], cycle));
    }
    fn.mark = 0;
    return d + 1;
}

bool FunctionDecoder::finishCalls() {
    bool ok = true;
    for (auto& call : calls) {
        Function& f = fns[fn_of_id[call.second]];
        if (f.entry_pc == kNone) {
            ok = c.failModule("OpFunctionCall to %" + std::to_string(call.second) +
                              ", a function without a body");
            continue;
        }
        c.m.code[call.first].a = f.entry_pc;
    }
    for (uint32_t i = 0; i < fns.size() && ok; ++i) {
        bool cycle = false;
        uint32_t d = depth(i, &cycle);
        if (cycle)
            return c.failModule("recursion through function %" + std::to_string(fns[i].id) +
                                " is not allowed in OpenCL kernels");
        c.m.call_depth = std::max(c.m.call_depth, d + 1);
    }
    return ok;
}

bool FunctionDecoder::run(size_t first) {
    blocks.assign(c.bound, Block{});
    if (!predefine(first)) return false;
    Function* fn = nullptr;
    bool terminated = true;
    uint32_t fn_index = 0;
    for (size_t i = first; i < c.raw.size(); ++i) {
        c.in = &c.raw[i];
        const uint32_t op = c.in->opcode;
        if (op == token(spv::Op::OpFunction)) {
            if (fn) return c.fail("OpFunction inside a function");
            fn = &fns[fn_index++];
            terminated = true;
            cur_label = kNone;
            continue;
        }
        if (!fn) {
            if (op == token(spv::Op::OpLine) || op == token(spv::Op::OpNoLine)) continue;
            return c.fail("instruction outside a function after the first OpFunction");
        }
        if (op == token(spv::Op::OpFunctionParameter)) {
            if (cur_label != kNone) return c.fail("OpFunctionParameter after the first block");
            continue;
        }
        if (op == token(spv::Op::OpFunctionEnd)) {
            if (!terminated) return c.fail("the last block of the function has no terminator");
            if (fn->entry_pc != kNone) {
                Kernel k;
                k.function_id = fn->id;
                k.entry_pc = fn->entry_pc;
                for (uint32_t p : fn->params) {
                    KernelParam kp{p, c.reg(p), c.ids[p].type};
                    const Type& t = c.type(kp.type);
                    if (t.info.kind == K::Pointer &&
                        t.info.storage_class == token(spv::StorageClass::Function) && t.elem != kNone) {
                        const Type& pointee = c.type(t.elem);
                        const uint32_t align = c.variableAlign(p, pointee, 8);
                        if (!align) return false;
                        kp.byval_offset = (c.m.private_size + align - 1) / align * align;
                        c.m.private_size = kp.byval_offset + pointee.mem_size;
                    }
                    k.params.push_back(kp);
                }
                c.m.kernels.push_back(std::move(k));
            }
            if (!finishFunction()) return false;
            fn = nullptr;
            continue;
        }
        if (op == token(spv::Op::OpLabel)) {
            if (!terminated) return c.fail("block %" + std::to_string(cur_label) + " has no terminator");
            cur_label = c.word(1);
            blocks[cur_label].pc = uint32_t(c.m.code.size());
            fn_labels.push_back(cur_label);
            if (fn->entry_pc == kNone) fn->entry_pc = uint32_t(c.m.code.size());
            terminated = false;
            continue;
        }
        if (isSkipped(op) || c.ignoredExtInst()) continue;
        if (terminated) return c.fail("instruction after the block's terminator");
        if (!instruction(*fn) && c.errors > 20) return false;
        if (isTerminator(op)) terminated = true;
    }
    if (fn) return c.failModule("ends inside a function");
    if (c.errors) return false;
    return finishCalls();
}

}  // namespace

bool decodeFunctions(DecodeCtx& ctx, size_t first_raw) {
    FunctionDecoder d(ctx);
    return d.run(first_raw) && ctx.errors == 0;
}

}  // namespace refdev::spirv
