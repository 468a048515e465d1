// The interpreter loop: runs one invocation over the pre-decoded instruction stream until it reaches a
// collective or returns from the kernel. Control flow lives here; other families are called directly.
#include <cinttypes>
#include <cstdio>

#include "reference_device/spirv/interp.h"
#include "reference_device/spirv/opcode_table.h"

namespace refdev::spirv {

std::string GroupRun::workItem(const Lane& lane) const {
    const uint8_t* b = lane.builtins;
    auto v3 = [&](uint32_t off) {
        uint64_t x = rd<uint64_t>(b, off), y = rd<uint64_t>(b, off + 8), z = rd<uint64_t>(b, off + 16);
        return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
    };
    return "work-item global " + v3(builtin::GlobalInvocationId) + " local " +
           v3(builtin::LocalInvocationId) + " group " + v3(builtin::WorkgroupId) + " sub-group " +
           std::to_string(lane.sub_group) + " lane " + std::to_string(lane.sub_group_lane);
}

void GroupRun::fail(const Lane& lane, const Insn& insn, const std::string& what) {
    if (failed) return;
    failed = true;
    const char* name = opcodeName(insn.opcode, *m->ext_table);
    error = "kernel '" + shared->kernel->name + "': " + (name ? name : "instruction") + " (word " +
            std::to_string(insn.word) + "): " + what + "; " + workItem(lane);
}

uint8_t* GroupRun::accessError(Lane& lane, const Insn& insn, uint64_t address, size_t bytes, bool write,
                               bool readonly) {
    char addr[32];
    std::snprintf(addr, sizeof addr, "0x%" PRIx64, address);
    std::string what =
        std::string(write ? "write" : "read") + " of " + std::to_string(bytes) + " bytes at " + addr;
    if (readonly)
        what += " writes to constant memory";
    else if (address == 0)
        what += " dereferences a null pointer";
    else
        what += " outside every buffer argument, local memory and the work-item's private memory";
    fail(lane, insn, what);
    return nullptr;
}

namespace {

inline void takeEdge(const Module& m, uint8_t* regs, uint32_t edge) {
    if (edge == UINT32_MAX) return;
    const Edge& e = m.edges[edge];
    const EdgeCopy* cp = m.copies.data() + e.first;
    if (!e.via_temp) {
        for (uint32_t i = 0; i < e.count; ++i) {
            switch (cp[i].size) {  // fixed sizes compile to plain moves
                case 4: std::memcpy(regs + cp[i].dst, regs + cp[i].src, 4); break;
                case 8: std::memcpy(regs + cp[i].dst, regs + cp[i].src, 8); break;
                case 1: regs[cp[i].dst] = regs[cp[i].src]; break;
                default: std::memmove(regs + cp[i].dst, regs + cp[i].src, cp[i].size); break;
            }
        }
        return;
    }
    uint32_t total = 0;
    for (uint32_t i = 0; i < e.count; ++i) total += cp[i].size;
    uint8_t small[512];
    std::vector<uint8_t> big;
    uint8_t* tmp = small;
    if (total > sizeof small) {
        big.resize(total);
        tmp = big.data();
    }
    uint32_t off = 0;
    for (uint32_t i = 0; i < e.count; ++i, off += cp[i - 1].size)
        std::memcpy(tmp + off, regs + cp[i].src, cp[i].size);
    off = 0;
    for (uint32_t i = 0; i < e.count; ++i, off += cp[i - 1].size)
        std::memcpy(regs + cp[i].dst, tmp + off, cp[i].size);
}

}  // namespace

void runLane(GroupRun& g, Lane& lane) {
    const Module& m = *g.m;
    const Insn* code = m.code.data();
    uint8_t* const regs = lane.regs;
    uint32_t pc = lane.pc;
    for (;;) {
        const Insn& in = code[pc];
        switch (in.kind) {
            case Kind::Nop: ++pc; break;
            case Kind::IAdd32:
                wr<uint32_t>(regs, in.res, rd<uint32_t>(regs, in.a) + rd<uint32_t>(regs, in.b));
                ++pc;
                break;
            case Kind::ISub32:
                wr<uint32_t>(regs, in.res, rd<uint32_t>(regs, in.a) - rd<uint32_t>(regs, in.b));
                ++pc;
                break;
            case Kind::IMul32:
                wr<uint32_t>(regs, in.res, rd<uint32_t>(regs, in.a) * rd<uint32_t>(regs, in.b));
                ++pc;
                break;
            case Kind::IAdd64:
                wr<uint64_t>(regs, in.res, rd<uint64_t>(regs, in.a) + rd<uint64_t>(regs, in.b));
                ++pc;
                break;
            case Kind::FAdd32:
                wr<float>(regs, in.res, rd<float>(regs, in.a) + rd<float>(regs, in.b));
                ++pc;
                break;
            case Kind::FMul32:
                wr<float>(regs, in.res, rd<float>(regs, in.a) * rd<float>(regs, in.b));
                ++pc;
                break;
            case Kind::IAnd32:
                wr<uint32_t>(regs, in.res, rd<uint32_t>(regs, in.a) & rd<uint32_t>(regs, in.b));
                ++pc;
                break;
            case Kind::IOr32:
                wr<uint32_t>(regs, in.res, rd<uint32_t>(regs, in.a) | rd<uint32_t>(regs, in.b));
                ++pc;
                break;
            case Kind::IXor32:
                wr<uint32_t>(regs, in.res, rd<uint32_t>(regs, in.a) ^ rd<uint32_t>(regs, in.b));
                ++pc;
                break;
            case Kind::IShl32:
                wr<uint32_t>(regs, in.res, rd<uint32_t>(regs, in.a) << (rd<uint32_t>(regs, in.b) & 31));
                ++pc;
                break;
            case Kind::IShrL32:
                wr<uint32_t>(regs, in.res, rd<uint32_t>(regs, in.a) >> (rd<uint32_t>(regs, in.b) & 31));
                ++pc;
                break;
            case Kind::IEq32:
                regs[in.res] = rd<uint32_t>(regs, in.a) == rd<uint32_t>(regs, in.b);
                ++pc;
                break;
            case Kind::INe32:
                regs[in.res] = rd<uint32_t>(regs, in.a) != rd<uint32_t>(regs, in.b);
                ++pc;
                break;
            case Kind::FSub32:
                wr<float>(regs, in.res, rd<float>(regs, in.a) - rd<float>(regs, in.b));
                ++pc;
                break;
            case Kind::FLessO32:
                regs[in.res] = rd<float>(regs, in.a) < rd<float>(regs, in.b);
                ++pc;
                break;
            case Kind::ILessS32:
                regs[in.res] = rd<int32_t>(regs, in.a) < rd<int32_t>(regs, in.b);
                ++pc;
                break;
            case Kind::ILessU32:
                regs[in.res] = rd<uint32_t>(regs, in.a) < rd<uint32_t>(regs, in.b);
                ++pc;
                break;
            case Kind::IntBinary:
            case Kind::IntUnary:
            case Kind::IntCompare:
            case Kind::Logical:
            case Kind::Select:
            case Kind::IntExtended:
                execInteger(in, regs);
                ++pc;
                break;
            case Kind::FloatBinary:
            case Kind::FloatUnary:
            case Kind::FloatCompare:
            case Kind::Dot:
                execFloat(in, regs);
                ++pc;
                break;
            case Kind::Convert:
                execConversion(in, regs);
                ++pc;
                break;
            case Kind::Copy:
                std::memcpy(regs + in.res, regs + in.a, in.n);
                ++pc;
                break;
            case Kind::ExtractDynamic:
            case Kind::InsertDynamic: {
                // SPIR-V: "Behavior is undefined if Index's value is ... greater than or equal to the number
                // of components in Vector".
                const uint64_t index = dynamicIndex(in, regs);
                if (index >= in.n) {
                    g.fail(lane, in,
                           "undefined behaviour: index " + std::to_string(index) +
                               " is out of range for a vector of " + std::to_string(in.n) + " components");
                    goto stop;
                }
                execComposite(in, m, regs);
                ++pc;
                break;
            }
            case Kind::CompositeConstruct:
            case Kind::Shuffle:
            case Kind::CompositeInsert:
                execComposite(in, m, regs);
                ++pc;
                break;
            case Kind::Load4: {
                uint64_t addr = rd<uint64_t>(regs, in.a);
                const uint8_t* p = g.access(lane, in, addr, 4, false);
                if (!p) goto stop;
                std::memcpy(regs + in.res, p, 4);
                ++pc;
                break;
            }
            case Kind::Store4: {
                uint64_t addr = rd<uint64_t>(regs, in.a);
                uint8_t* p = g.access(lane, in, addr, 4, true);
                if (!p) goto stop;
                std::memcpy(p, regs + in.b, 4);
                ++pc;
                break;
            }
            case Kind::Load:
            case Kind::Store:
            case Kind::CopyMemory:
            case Kind::AccessChain:
            case Kind::PtrCompare:
            case Kind::Variable:
                lane.pc = pc;
                if (!execMemory(in, g, lane)) goto stop;
                ++pc;
                break;
            case Kind::Atomic:
                if (!execAtomic(in, g, lane)) goto stop;
                ++pc;
                break;
            case Kind::OclStd:
                if (!execOclStd(in, g, lane)) goto stop;
                ++pc;
                break;
            case Kind::Image:
                if (!execImage(in, g, lane)) goto stop;
                ++pc;
                break;
            case Kind::MemoryBarrier: ++pc; break;  // lanes run one at a time: memory is always coherent
            case Kind::Branch:
                if (lane.branch_budget && --lane.branch_budget == 0) goto budget;
                takeEdge(m, regs, in.aux);
                pc = in.a;
                break;
            case Kind::BranchCond:
                if (lane.branch_budget && --lane.branch_budget == 0) goto budget;
                if (regs[in.a]) {
                    takeEdge(m, regs, in.aux);
                    pc = in.b;
                } else {
                    takeEdge(m, regs, in.n);
                    pc = in.c;
                }
                break;
            case Kind::Switch: {
                if (lane.branch_budget && --lane.branch_budget == 0) goto budget;
                uint64_t sel = in.width == 8   ? rd<uint64_t>(regs, in.a)
                               : in.width == 4 ? rd<uint32_t>(regs, in.a)
                               : in.width == 2 ? rd<uint16_t>(regs, in.a)
                                               : regs[in.a];
                const uint32_t* t = m.aux.data() + in.aux;
                uint32_t target = t[0], edge = t[1];
                for (uint32_t k = 0; k < in.n; ++k) {
                    const uint32_t* cs = t + 2 + 4 * k;
                    uint64_t lit = cs[0] | (uint64_t(cs[1]) << 32);
                    if (in.width < 8) lit &= (uint64_t(1) << (8 * in.width)) - 1;
                    if (lit == sel) {
                        target = cs[2];
                        edge = cs[3];
                        break;
                    }
                }
                takeEdge(m, regs, edge);
                pc = target;
                break;
            }
            case Kind::Call: {
                if (lane.depth + 1 >= m.call_depth) {
                    g.fail(lane, in, "call stack overflow");
                    goto stop;
                }
                const uint32_t* a = m.aux.data() + in.aux;
                for (uint32_t k = 0; k < a[0]; ++k)
                    std::memmove(regs + a[2 + 3 * k], regs + a[1 + 3 * k], a[3 + 3 * k]);
                lane.frames[lane.depth++] = Frame{pc + 1, in.res, in.n};
                pc = in.a;
                break;
            }
            case Kind::Return:
                if (lane.depth == 0) {
                    lane.state = LaneState::Done;
                    lane.pc = pc;
                    return;
                }
                pc = lane.frames[--lane.depth].ret_pc;
                break;
            case Kind::ReturnValue: {
                if (lane.depth == 0) {
                    lane.state = LaneState::Done;
                    lane.pc = pc;
                    return;
                }
                const Frame& f = lane.frames[--lane.depth];
                std::memmove(regs + f.res, regs + in.a, in.n);
                pc = f.ret_pc;
                break;
            }
            case Kind::Unreachable:
                g.fail(lane, in, "undefined behaviour: OpUnreachable was executed");
                goto stop;
            case Kind::Barrier:
            case Kind::SubgroupBarrier:
            case Kind::GroupOp:
            case Kind::ExtOp:
            case Kind::AsyncCopy:
                lane.state = LaneState::AtCollective;
                lane.pc = pc;
                return;
            default:
                g.fail(
                    lane, in,
                    "internal error: instruction kind " + std::to_string(int(in.kind)) + " has no handler");
                goto stop;
        }
    }
budget:
    g.fail(lane, code[pc], "the work-item exceeded its branch budget (endless loop?)");
stop:
    lane.pc = pc;
    lane.state = LaneState::Done;
}

}  // namespace refdev::spirv
