// launch(): argument checks, work-group setup (built-ins, arguments, local memory) and the
// run-until-collective scheduler. Work-groups run in parallel; sub-groups of one work-group run in turn.
#include <algorithm>

#include "reference_device/spirv/interp.h"
#include "reference_device/spirv/thread_pool.h"

namespace refdev::spirv {
namespace {

size_t alignUp(size_t v, size_t a) {
    return (v + a - 1) / a * a;
}

// Zero-filled bytes that start at a multiple of `align` plus `skew` (the planted fault
// alignment_decoration_ignored skews by 16: only 16-byte alignment, never 32), reused from one assign to the
// next. std::vector storage is aligned for max_align_t only; variables ask up to kMaxVariableAlign.
class Arena {
public:
    uint8_t* assign(size_t size, size_t align, size_t skew) {
        if (raw_.size() < size + align + skew) raw_.resize(size + align + skew);
        uint8_t* p = raw_.data() + (alignUp(uintptr_t(raw_.data()), align) - uintptr_t(raw_.data())) + skew;
        std::memset(p, 0, size);
        return p;
    }

private:
    std::vector<uint8_t> raw_;
};

// The planted fault alignment_decoration_ignored: arenas 16-byte aligned only.
size_t arenaSkew(const Faults& faults) {
    return faults.has("alignment_decoration_ignored") ? 16 : 0;
}

// Instructions every work-item of the work-group must reach before any goes on: the group scheduler runs
// them, not the sub-group's.
bool workGroupWide(Kind kind) {
    return kind == Kind::Barrier || kind == Kind::AsyncCopy;
}

// Instructions the group scheduler runs: the work-group-wide ones and those two sub-groups execute together.
bool groupScheduled(const Module& m, const Insn& in) {
    return workGroupWide(in.kind) || pairCollective(m, in);
}

enum class PairStep { None, Ran, Failed };

// Per-thread storage for the lanes of one work-group, reused from group to group.
struct Workspace {
    Arena lane_memory;
    std::vector<Lane> lanes;
    Arena local;
    std::vector<uint8_t> active;
};

class GroupScheduler {
public:
    GroupScheduler(LaunchShared& s, const std::vector<ArgValue>& args) : s_(s), args_(args) {}
    void run(size_t group_linear, Workspace& ws);

private:
    LaunchShared& s_;
    const std::vector<ArgValue>& args_;
    bool setup(GroupRun& g, Workspace& ws);
    void runSubGroup(GroupRun& g, Lane* sg, uint32_t count, Workspace& ws);
    PairStep runPairs(GroupRun& g);
};

bool GroupScheduler::setup(GroupRun& g, Workspace& ws) {
    const Module& m = *s_.module;
    const Kernel& k = *s_.kernel;
    const NDRange& r = s_.range;
    size_t lanes = 1;
    for (int d = 0; d < 3; ++d) {
        g.local_dims[d] = std::min(r.local[d], r.global[d] - g.group[d] * r.local[d]);
        lanes *= g.local_dims[d];
    }
    g.lane_count = uint32_t(lanes);
    // local memory: Workgroup variables, then each local-buffer argument, aligned for the largest OpenCL C
    // type (long16, 128 bytes) whatever its pointee
    const size_t skew = arenaSkew(*s_.faults);
    size_t local_size = m.local_static_size;
    std::vector<size_t> local_offsets(args_.size(), 0);
    for (size_t i = 0; i < args_.size(); ++i)
        if (args_[i].kind == ArgKind::LocalBuffer) {
            local_size = alignUp(local_size, 128);
            local_offsets[i] = local_size;
            local_size += args_[i].size;
        }
    g.local = ws.local.assign(std::max<size_t>(local_size, 1), std::max<size_t>(m.var_align, 128), skew);
    g.local_size = local_size;

    // Per lane: private arena (first, at the module's variable alignment), registers, built-ins, frames.
    const size_t reg_bytes = alignUp(m.reg_init.size(), 16), priv_bytes = alignUp(m.private_size, 16);
    const size_t frame_bytes = alignUp(sizeof(Frame) * m.call_depth, 16);
    const size_t stride = alignUp(priv_bytes + reg_bytes + builtin::BlockSize + frame_bytes, m.var_align);
    uint8_t* lane_memory = ws.lane_memory.assign(stride * lanes, m.var_align, skew);
    ws.lanes.assign(lanes, Lane{});
    g.lanes = ws.lanes.data();

    const uint32_t sg_size = s_.sub_group_size;
    const uint32_t num_sg = uint32_t((lanes + sg_size - 1) / sg_size);
    const size_t enqueued = r.local[0] * r.local[1] * r.local[2];
    for (size_t i = 0; i < lanes; ++i) {
        Lane& l = ws.lanes[i];
        l.priv = lane_memory + i * stride;
        l.regs = l.priv + priv_bytes;
        l.builtins = l.regs + reg_bytes;
        l.frames = reinterpret_cast<Frame*>(l.builtins + builtin::BlockSize);
        l.local_index = uint32_t(i);
        l.sub_group = uint32_t(i / sg_size);
        l.sub_group_lane = uint32_t(i % sg_size);
        l.pc = k.entry_pc;
        l.branch_budget = s_.branch_budget;
        std::memcpy(l.regs, m.reg_init.data(), m.reg_init.size());

        const size_t lid[3] = {i % g.local_dims[0], (i / g.local_dims[0]) % g.local_dims[1],
                               i / (g.local_dims[0] * g.local_dims[1])};
        uint8_t* b = l.builtins;
        auto put3 = [&](uint32_t off, size_t x, size_t y, size_t z) {
            wr<uint64_t>(b, off, x);
            wr<uint64_t>(b, off + 8, y);
            wr<uint64_t>(b, off + 16, z);
        };
        size_t gid[3];
        for (int d = 0; d < 3; ++d) gid[d] = g.group[d] * r.local[d] + lid[d] + r.offset[d];
        put3(builtin::GlobalInvocationId, gid[0], gid[1], gid[2]);
        put3(builtin::LocalInvocationId, lid[0], lid[1], lid[2]);
        put3(builtin::WorkgroupId, g.group[0], g.group[1], g.group[2]);
        put3(builtin::NumWorkgroups, s_.groups[0], s_.groups[1], s_.groups[2]);
        put3(builtin::WorkgroupSize, g.local_dims[0], g.local_dims[1], g.local_dims[2]);
        put3(builtin::GlobalSize, r.global[0], r.global[1], r.global[2]);
        put3(builtin::GlobalOffset, r.offset[0], r.offset[1], r.offset[2]);
        put3(builtin::EnqueuedWorkgroupSize, r.local[0], r.local[1], r.local[2]);
        wr<uint64_t>(b, builtin::GlobalLinearId,
                     ((gid[2] - r.offset[2]) * r.global[1] + (gid[1] - r.offset[1])) * r.global[0] +
                         (gid[0] - r.offset[0]));
        wr<uint64_t>(b, builtin::LocalInvocationIndex, i);
        const uint32_t this_sg = uint32_t(std::min<size_t>(sg_size, lanes - size_t(l.sub_group) * sg_size));
        wr<uint32_t>(b, builtin::SubgroupSize, this_sg);
        wr<uint32_t>(b, builtin::SubgroupMaxSize, sg_size);
        wr<uint32_t>(b, builtin::NumSubgroups, num_sg);
        wr<uint32_t>(b, builtin::NumEnqueuedSubgroups, uint32_t((enqueued + sg_size - 1) / sg_size));
        wr<uint32_t>(b, builtin::SubgroupId, l.sub_group);
        wr<uint32_t>(b, builtin::SubgroupLocalInvocationId, l.sub_group_lane);
        wr<uint32_t>(b, builtin::WorkDim, r.dims);

        for (const GlobalVar& v : m.globals) {
            uint8_t* p = nullptr;
            switch (v.space) {
                case GlobalSpace::Builtin: p = b + v.offset; break;
                case GlobalSpace::Workgroup: p = g.local + v.offset; break;
                case GlobalSpace::Constant: p = s_.constants + v.offset; break;
                case GlobalSpace::Private:
                    p = l.priv + v.offset;
                    if (v.init_reg != UINT32_MAX) std::memcpy(p, m.reg_init.data() + v.init_reg, v.init_size);
                    break;
            }
            wr<uint64_t>(l.regs, v.reg, uint64_t(uintptr_t(p)));
        }
        size_t image_index = 0;
        for (size_t a = 0; a < k.params.size(); ++a) {
            const KernelParam& p = k.params[a];
            const ArgValue& arg = args_[a];
            const Type& t = m.types[p.type];
            switch (arg.kind) {
                case ArgKind::GlobalBuffer:
                case ArgKind::ConstantBuffer:
                    wr<uint64_t>(l.regs, p.reg, uint64_t(uintptr_t(arg.base)));
                    break;
                case ArgKind::LocalBuffer:
                    wr<uint64_t>(l.regs, p.reg, uint64_t(uintptr_t(g.local + local_offsets[a])));
                    break;
                case ArgKind::Image:
                    wr<uint64_t>(l.regs, p.reg, uint64_t(uintptr_t(&s_.images[image_index++])));
                    break;
                case ArgKind::Sampler:
                case ArgKind::Value:
                    if (p.byval_offset != UINT32_MAX) {
                        uint8_t* copy = l.priv + p.byval_offset;
                        if (!arg.bytes.empty())
                            std::memcpy(copy, arg.bytes.data(),
                                        std::min<size_t>(arg.bytes.size(), m.types[t.elem].mem_size));
                        wr<uint64_t>(l.regs, p.reg, uint64_t(uintptr_t(copy)));
                    } else {
                        if (!arg.bytes.empty())
                            std::memcpy(l.regs + p.reg, arg.bytes.data(),
                                        std::min<size_t>(arg.bytes.size(), t.reg_size));
                    }
                    break;
            }
        }
        if (m.launch_constants_pc != UINT32_MAX) {  // constants computed from this work-item's addresses
            l.pc = m.launch_constants_pc;
            runLane(g, l);
            l.pc = k.entry_pc;
            l.state = LaneState::Running;
        }
    }
    return true;
}

void GroupScheduler::runSubGroup(GroupRun& g, Lane* sg, uint32_t count, Workspace& ws) {
    const Module& m = *s_.module;
    ws.active.assign(count, 0);
    for (;;) {
        for (uint32_t i = 0; i < count; ++i) {
            if (sg[i].state != LaneState::Running) continue;
            runLane(g, sg[i]);
            if (g.failed) return;
        }
        // The lowest lane waiting at a sub-group collective picks the instruction to execute next.
        uint32_t pc = UINT32_MAX;
        for (uint32_t i = 0; i < count && pc == UINT32_MAX; ++i)
            if (sg[i].state == LaneState::AtCollective && !groupScheduled(m, m.code[sg[i].pc])) pc = sg[i].pc;
        if (pc == UINT32_MAX) return;
        for (uint32_t i = 0; i < count; ++i)
            ws.active[i] = sg[i].state == LaneState::AtCollective && sg[i].pc == pc;
        if (!execCollective(g, sg, count, ws.active.data(), pc)) return;
        for (uint32_t i = 0; i < count; ++i)
            if (ws.active[i]) {
                sg[i].state = LaneState::Running;
                sg[i].pc = pc + 1;
            }
    }
}

// Pair collectives (the split matrix mads): the device pairs sub-groups 2i and 2i + 1 of the work-group (the
// extension leaves the choice to the implementation). Runs every pair both of whose sub-groups wait at the
// same one; a sub-group waiting at one whose partner is elsewhere, has returned or does not exist can never
// go on, which is reported as undefined behaviour.
PairStep GroupScheduler::runPairs(GroupRun& g) {
    const Module& m = *s_.module;
    const uint32_t sg_size = s_.sub_group_size;
    const uint32_t groups = (g.lane_count + sg_size - 1) / sg_size;
    auto count = [&](uint32_t s) { return std::min(sg_size, g.lane_count - s * sg_size); };
    // The pair collective sub-group s waits at (its lowest such lane's), or UINT32_MAX.
    auto waitingAt = [&](uint32_t s) {
        for (uint32_t i = 0; s < groups && i < count(s); ++i) {
            const Lane& l = g.lanes[s * sg_size + i];
            if (l.state == LaneState::AtCollective && pairCollective(m, m.code[l.pc])) return l.pc;
        }
        return UINT32_MAX;
    };
    auto where = [&](uint32_t s) -> std::string {
        if (s >= groups)
            return "does not exist (the work-group has " + std::to_string(groups) + " sub-groups)";
        for (uint32_t i = 0; i < count(s); ++i) {
            const Lane& l = g.lanes[s * sg_size + i];
            if (l.state == LaneState::AtCollective)
                return "waits at the instruction at word " + std::to_string(m.code[l.pc].word);
        }
        return "has returned";
    };
    bool ran = false;
    std::vector<uint8_t> active[2];
    for (uint32_t s = 0; s < groups; s += 2) {
        const uint32_t pc[2] = {waitingAt(s), waitingAt(s + 1)};
        if (pc[0] == UINT32_MAX && pc[1] == UINT32_MAX) continue;
        if (pc[0] != pc[1]) {
            const uint32_t at = pc[0] != UINT32_MAX ? s : s + 1, partner = at ^ 1;
            const Insn& in = m.code[pc[at - s]];
            const Lane* lane = g.lanes + at * sg_size;
            while (lane->state != LaneState::AtCollective || lane->pc != pc[at - s]) ++lane;
            g.fail(*lane, in,
                   std::string("undefined behaviour: ") + m.ext_infos[in.a]->name +
                       " must be executed by two sub-groups together (this device pairs sub-groups 2i and "
                       "2i + 1 of a work-group): sub-group " +
                       std::to_string(at) + " reached it, its partner sub-group " + std::to_string(partner) +
                       " " + where(partner));
            return PairStep::Failed;
        }
        PairPart parts[2];
        for (uint32_t h = 0; h < 2; ++h) {
            Lane* sg = g.lanes + (s + h) * sg_size;
            active[h].assign(count(s + h), 0);
            for (uint32_t i = 0; i < count(s + h); ++i)
                active[h][i] = sg[i].state == LaneState::AtCollective && sg[i].pc == pc[0];
            parts[h] = {sg, count(s + h), active[h].data()};
        }
        if (!execPairCollective(g, parts[0], parts[1], pc[0])) return PairStep::Failed;
        for (uint32_t h = 0; h < 2; ++h)
            for (uint32_t i = 0; i < parts[h].count; ++i)
                if (active[h][i]) {
                    parts[h].lanes[i].state = LaneState::Running;
                    parts[h].lanes[i].pc = pc[0] + 1;
                }
        ran = true;
    }
    return ran ? PairStep::Ran : PairStep::None;
}

void GroupScheduler::run(size_t group_linear, Workspace& ws) {
    GroupRun g;
    g.shared = &s_;
    g.m = s_.module;
    g.group_linear = group_linear;
    g.group[0] = group_linear % s_.groups[0];
    g.group[1] = (group_linear / s_.groups[0]) % s_.groups[1];
    g.group[2] = group_linear / (s_.groups[0] * s_.groups[1]);
    setup(g, ws);
    const uint32_t sg_size = s_.sub_group_size;
    for (;;) {
        for (uint32_t first = 0; first < g.lane_count && !g.failed; first += sg_size)
            runSubGroup(g, g.lanes + first, std::min(sg_size, g.lane_count - first), ws);
        if (g.failed) break;
        const PairStep pairs = runPairs(g);
        if (pairs == PairStep::Failed) break;
        if (pairs == PairStep::Ran) continue;
        // Every lane has returned or waits at a work-group barrier.
        const Lane* waiting = nullptr;
        const Lane* finished = nullptr;
        for (uint32_t i = 0; i < g.lane_count; ++i) {
            const Lane& l = g.lanes[i];
            if (l.state == LaneState::AtCollective && !waiting) waiting = &l;
            if (l.state == LaneState::Done && !finished) finished = &l;
        }
        if (!waiting) break;
        const Insn& barrier = g.m->code[waiting->pc];
        const std::string what = barrier.kind == Kind::AsyncCopy ? "async copy" : "barrier";
        for (uint32_t i = 0; i < g.lane_count && !g.failed; ++i) {
            const Lane& l = g.lanes[i];
            if (l.state == LaneState::Done)
                g.fail(*waiting, barrier,
                       "undefined behaviour: " + what + " reached by only part of the work-group (" +
                           g.workItem(l).substr(10) + " returned without reaching it)");
            else if (l.pc != waiting->pc)
                g.fail(l, g.m->code[l.pc],
                       "undefined behaviour: " + what +
                           " reached by only part of the work-group "
                           "(this work-item waits at a different barrier than word " +
                           std::to_string(barrier.word) + ")");
        }
        if (g.failed) break;
        if (barrier.kind == Kind::AsyncCopy && !execAsyncCopy(g, waiting->pc)) break;
        for (uint32_t i = 0; i < g.lane_count; ++i) {
            g.lanes[i].state = LaneState::Running;
            g.lanes[i].pc += 1;
        }
    }
    if (!g.printf_output.empty()) {
        std::lock_guard<std::mutex> lock(s_.printf_mutex);
        s_.printf_output[group_linear] = std::move(g.printf_output);
    }
    if (g.failed) {
        std::lock_guard<std::mutex> lock(s_.error_mutex);
        if (group_linear < s_.error_group) {
            s_.error_group = group_linear;
            s_.error = g.error;
        }
        s_.stop = true;
    }
}

}  // namespace

LaunchResult launch(const Module& module, const std::string& kernel, const std::vector<ArgValue>& args,
                    const NDRange& range, const Profile& profile, const Faults& faults, unsigned threads) {
    return launch(module, kernel, args, range, profile, faults, threads, 0);
}

LaunchResult launch(const Module& module, const std::string& kernel, const std::vector<ArgValue>& args,
                    const NDRange& range_in, const Profile& profile, const Faults& faults, unsigned threads,
                    uint64_t branch_budget) {
    const Kernel* k = module.findKernel(kernel);
    if (!k) return {false, "no kernel named '" + kernel + "' in the module"};
    const std::string who = "kernel '" + kernel + "': ";
    if (args.size() != k->params.size())
        return {false, who + std::to_string(args.size()) + " arguments given, the kernel has " +
                           std::to_string(k->params.size())};
    const KernelInfo* info = nullptr;
    for (const KernelInfo& ki : module.kernel_infos)
        if (ki.name == kernel) info = &ki;
    LaunchShared s;
    s.module = &module;
    s.kernel = k;
    s.faults = &faults;
    s.profile = &profile;
    s.range = range_in;
    s.branch_budget = branch_budget;
    NDRange& r = s.range;
    if (r.dims < 1 || r.dims > 3)
        return {false, who + "work dimension " + std::to_string(r.dims) + " is not 1..3"};
    for (uint32_t d = r.dims; d < 3; ++d) {
        r.global[d] = 1;
        r.local[d] = 1;
        r.offset[d] = 0;
    }
    size_t wg = 1;
    for (int d = 0; d < 3; ++d) {
        if (r.local[d] == 0) return {false, who + "local size 0 in dimension " + std::to_string(d)};
        if (r.global[d] == 0) return {true, ""};
        s.groups[d] = (r.global[d] + r.local[d] - 1) / r.local[d];
        wg *= r.local[d];
    }
    if (wg > 65536) return {false, who + "work-group of " + std::to_string(wg) + " work-items is too large"};
    s.sub_group_size = subGroupSize(module, kernel, profile);
    if (s.sub_group_size == 0) s.sub_group_size = 1;
    s.images.reserve(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
        const ArgValue& a = args[i];
        if (info && a.kind != info->args[i].kind)
            return {false, who + "argument " + std::to_string(i) + " has the wrong kind for the parameter"};
        if ((a.kind == ArgKind::GlobalBuffer || a.kind == ArgKind::ConstantBuffer) && a.base)
            s.buffers.push_back(Region{uint64_t(uintptr_t(a.base)), uint64_t(uintptr_t(a.base)) + a.size,
                                       a.kind == ArgKind::GlobalBuffer});
        if (a.kind == ArgKind::Image) s.images.push_back(a.image);
        if ((a.kind == ArgKind::Value || a.kind == ArgKind::Sampler) && info &&
            a.bytes.size() < info->args[i].size)
            return {false, who + "argument " + std::to_string(i) + " has " + std::to_string(a.bytes.size()) +
                               " bytes, the parameter needs " + std::to_string(info->args[i].size)};
    }
    // The constant data of the launch, at the module's variable alignment (the module's own bytes are aligned
    // for max_align_t only).
    Arena constants;
    s.constants = constants.assign(module.const_data.size(), module.var_align, arenaSkew(faults));
    if (!module.const_data.empty()) {
        std::memcpy(s.constants, module.const_data.data(), module.const_data.size());
        s.buffers.push_back(Region{uint64_t(uintptr_t(s.constants)),
                                   uint64_t(uintptr_t(s.constants)) + module.const_data.size(), false});
    }
    const size_t total = s.groups[0] * s.groups[1] * s.groups[2];
    if (threads == 0) threads = defaultThreadCount();
    std::vector<Workspace> spaces(
        std::max(1u, std::min<unsigned>(threads, unsigned(std::min<size_t>(total, 1024)))));
    GroupScheduler sched(s, args);
    parallelFor(
        unsigned(spaces.size()), total, [&](size_t i, unsigned w) { sched.run(i, spaces[w]); },
        [&] { return s.stop.load(std::memory_order_relaxed); });
    LaunchResult result;
    for (auto& [group, text] : s.printf_output) result.printf_output += text;
    if (s.error_group != UINT64_MAX) {
        result.ok = false;
        result.error = s.error;
    }
    return result;
}

}  // namespace refdev::spirv
