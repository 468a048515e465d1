// subgroups.shuffle*: OpSubgroupShuffleINTEL / DownINTEL / UpINTEL / XorINTEL.
//
// Kernel (scripts/generators/subgroups.py): out, info, a, b, index, exec_period, lane_mask. Every invocation
// loads its components from a (Data / Current / Previous) and b (Next / Current); those of work-groups with
// WorkgroupId % exec_period == exec_period - 1 whose bit (SubgroupLocalInvocationId % 32) is set in
// lane_mask then load the per-work-item index (or an OpConstant in test_const), shuffle, and store; the
// others store nothing. The invocations expected to skip the shuffle hold kInactive in a and b, a value no
// executing invocation holds, so a device that reads one of them is caught. Every value the spec defines
// is compared with the host reference; undefined ones are skipped.
#include <memory>
#include <string>
#include <vector>

#include "test_common/harness/kernel_util.h"
#include "test_common/reference/subgroups.h"
#include "test_conformance/subgroups/common.h"
#include "test_conformance/subgroups/families.h"

namespace cts::subgroups {
namespace {

// Fill of the operands of the invocations that skip the shuffle: differs from the output poison (kPoison),
// and randomComponents values equal to it are moved off it.
constexpr uint8_t kInactive = 0x5A;

uint64_t inactivePattern(unsigned bytes) {
    uint64_t v = 0;
    for (unsigned b = 0; b < bytes; ++b) v |= uint64_t(kInactive) << (8 * b);
    return v;
}

void storeComponent(std::vector<uint8_t>& data, size_t index, unsigned bytes, uint64_t v) {
    for (unsigned b = 0; b < bytes; ++b) data[index * bytes + b] = uint8_t(v >> (8 * b));
}

// Gives the invocations expected to skip the shuffle kInactive in every component of a and b; the others
// keep their random values, moved off kInactive. Expected: the work-group skips it, or the lane the common
// linear mapping gives (local id % SubgroupMaxSize) has its lane_mask bit clear. On a device whose mapping
// differs the check stays exact (it compares with the bytes written), only the poison lands elsewhere.
void poisonInactive(std::vector<uint8_t>& data, const ComponentType& type, uint32_t width, size_t local,
                    uint32_t sg, uint32_t exec_period, uint32_t lane_mask) {
    const uint64_t inactive = inactivePattern(type.bytes);
    const size_t global = data.size() / type.bytes / width;
    for (size_t gid = 0; gid < global; ++gid) {
        const size_t wg = gid / local;
        const uint32_t lane = uint32_t((gid % local) % sg);
        const bool runs = wg % exec_period == exec_period - 1 && ((lane_mask >> (lane % 32)) & 1) != 0;
        for (uint32_t j = 0; j < width; ++j) {
            const size_t k = gid * width + j;
            if (!runs)
                storeComponent(data, k, type.bytes, inactive);
            else if (loadComponent(data.data(), k, type.bytes) == inactive)
                storeComponent(data, k, type.bytes, inactive ^ 2);  // finite, not kPoison either
        }
    }
}

using reference::ShuffleOp;
using reference::ShuffleOperand;

struct ShuffleCase {
    ShuffleOp op;
    ComponentType type;
    uint32_t width, sg;
    std::string pattern;  // const, uniform, varying, all_masks
    uint32_t index = 0, index_range = 0;
    size_t local, groups;
    uint32_t exec_period;
    bool seeded_lane_mask;  // only a seeded subset of lanes runs the shuffle

    static ShuffleCase fromParams(const Params& p) {
        ShuffleCase c{};
        std::string op = p.s("op");
        if (op == "shuffle")
            c.op = ShuffleOp::Shuffle;
        else if (op == "shuffle_down")
            c.op = ShuffleOp::ShuffleDown;
        else if (op == "shuffle_up")
            c.op = ShuffleOp::ShuffleUp;
        else if (op == "shuffle_xor")
            c.op = ShuffleOp::ShuffleXor;
        else
            throw InternalError("unknown shuffle op '" + op + "'");
        c.type = componentType(p.s("type"));
        c.width = uint32_t(p.u("width"));
        c.sg = uint32_t(p.u("sg"));
        c.pattern = p.s("pattern");
        if (c.pattern == "const" || c.pattern == "uniform") c.index = uint32_t(p.u("index"));
        if (c.pattern == "varying") c.index_range = uint32_t(p.u("index_range"));
        if (c.pattern != "const" && c.pattern != "uniform" && c.pattern != "varying" &&
            c.pattern != "all_masks")
            throw InternalError("unknown index pattern '" + c.pattern + "'");
        c.local = p.u("local");
        c.groups = p.u("groups");
        c.exec_period = uint32_t(p.u("exec_period"));
        std::string mask = p.s("lane_mask");
        if (mask != "all" && mask != "seeded")
            throw InternalError("lane_mask must be all or seeded, not " + mask);
        c.seeded_lane_mask = mask == "seeded";
        if (c.width == 0 || c.sg == 0 || c.local == 0 || c.groups == 0 || c.exec_period == 0)
            throw InternalError("zero width, sg, local, groups or exec_period");
        return c;
    }
};

const char* operandName(ShuffleOperand o) {
    switch (o) {
        case ShuffleOperand::Data: return "Data";
        case ShuffleOperand::Current: return "Current";
        case ShuffleOperand::Next: return "Next";
        case ShuffleOperand::Previous: return "Previous";
    }
    return "?";
}

class ShuffleFamily : public Family {
public:
    std::string name() const override { return "subgroups.shuffle"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema{{"op", ParamType::String},
                                        {"type", ParamType::String},
                                        {"width", ParamType::UInt},
                                        {"sg", ParamType::UInt},
                                        {"pattern", ParamType::String},
                                        {"index", ParamType::UInt, kOptional},
                                        {"index_range", ParamType::UInt, kOptional},
                                        {"local", ParamType::UInt},
                                        {"groups", ParamType::UInt},
                                        {"exec_period", ParamType::UInt},
                                        {"lane_mask", ParamType::String}};
        return schema;
    }

    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        const ShuffleCase c = ShuffleCase::fromParams(spec.params);
        const size_t global = c.local * c.groups;
        const size_t comps = global * c.width;
        const unsigned bytes = c.type.bytes;
        Rng rng(ctx.seed);

        std::vector<uint8_t> a = randomComponents(rng, c.type, comps);
        std::vector<uint8_t> b = randomComponents(rng, c.type, comps);
        // Lane L runs the shuffle when bit (L % 32) of lane_mask is set. Lanes 0 and S-1 always do, so the
        // boundary patterns whose only defined result is lane S-1 reading lane 0 keep something to check.
        const uint32_t lane_mask =
            c.seeded_lane_mask ? uint32_t(rng.next()) | 1u | (1u << ((c.sg - 1) % 32)) : 0xffffffffu;
        poisonInactive(a, c.type, c.width, c.local, c.sg, c.exec_period, lane_mask);
        poisonInactive(b, c.type, c.width, c.local, c.sg, c.exec_period, lane_mask);
        std::vector<uint32_t> index(global);
        for (size_t gid = 0; gid < global; ++gid) {
            if (c.pattern == "varying")
                index[gid] = rng.below(c.index_range);
            else if (c.pattern == "all_masks")
                index[gid] = uint32_t((gid / c.sg) % c.sg);  // each run of S work-items shares one mask
            else
                index[gid] = c.index;
        }

        KernelHandle kernel = createKernel(ctx, spec.module, spec.kernel);
        GuardedBuffer out(ctx, comps * bytes), info(ctx, global * 16), buf_a(ctx, comps * bytes),
            buf_b(ctx, comps * bytes), buf_index(ctx, global * 4);
        buf_a.write(a.data(), a.size());
        buf_b.write(b.data(), b.size());
        buf_index.write(index.data(), index.size() * 4);
        KernelArgs args(kernel, spec);
        args.set("out", out.mem());
        args.set("info", info.mem());
        args.set("a", buf_a.mem());
        args.set("b", buf_b.mem());
        args.set("index", buf_index.mem());
        args.set("exec_period", cl_uint(c.exec_period));
        args.set("lane_mask", cl_uint(lane_mask));
        runNDRange(ctx, args, 1, &global, &c.local);

        std::vector<uint8_t> result = out.read();
        std::vector<uint8_t> info_bytes = info.read();
        dumpBytes(ctx, "in_a", a.data(), a.size());
        dumpBytes(ctx, "in_b", b.data(), b.size());
        dumpBytes(ctx, "in_index", index.data(), index.size() * 4);
        dumpBytes(ctx, "out", result.data(), result.size());
        dumpBytes(ctx, "out_info", info_bytes.data(), info_bytes.size());
        for (const GuardedBuffer* g : {&out, &info}) {
            std::string guard = g->checkGuards();
            if (!guard.empty()) return Outcome::fail((g == &out ? "output: " : "info: ") + guard);
        }
        SubgroupMap map;
        std::string bad = buildSubgroupMap(info_bytes, c.local, c.groups, c.sg, &map);
        if (!bad.empty()) return Outcome::fail("work-item to sub-group mapping: " + bad);

        MismatchLog log(
            std::string(reference::shuffleOpName(c.op)) +
            ": result is the named operand of the invocation the index rule selects (SubgroupMaxSize " +
            std::to_string(c.sg) + ")");
        for (size_t wg = 0; wg < c.groups; ++wg) {
            const bool executed_wg = wg % c.exec_period == c.exec_period - 1;
            for (uint32_t sgid = 0; sgid < map.lanes[wg].size(); ++sgid) {
                const std::vector<size_t>& lanes = map.lanes[wg][sgid];
                std::vector<bool> executed(lanes.size());
                for (uint32_t lane = 0; lane < lanes.size(); ++lane)
                    executed[lane] = executed_wg && ((lane_mask >> (lane % 32)) & 1) != 0;
                for (uint32_t lane = 0; lane < lanes.size(); ++lane) {
                    const size_t gid = lanes[lane];
                    if (!executed[lane]) {
                        // The invocation skipped the branch: its output must keep the poison.
                        for (uint32_t j = 0; j < c.width; ++j) {
                            uint64_t actual = loadComponent(result.data(), gid * c.width + j, bytes);
                            if (isPoison(actual, bytes)) {
                                log.checked();
                                continue;
                            }
                            uint64_t poison =
                                loadComponent(std::vector<uint8_t>(8, kPoison).data(), 0, bytes);
                            compare(log, where(wg, sgid, lane, j) + " (did not execute the shuffle)", c.type,
                                    poison, actual, LaneCell{wg, sgid, lane, j, c.sg, c.width});
                        }
                        continue;
                    }
                    auto src = reference::definedShuffleSource(c.op, lane, index[gid], c.sg, executed);
                    if (!src) {
                        log.skipped(c.width);  // undefined: out of range, or the source is absent
                        continue;
                    }
                    const size_t src_gid = lanes[src->lane];
                    // a holds Data (Shuffle, Xor), Current (Down), Previous (Up); b holds Next (Down) and
                    // Current (Up).
                    const bool from_b =
                        src->operand == ShuffleOperand::Next ||
                        (c.op == ShuffleOp::ShuffleUp && src->operand == ShuffleOperand::Current);
                    const std::vector<uint8_t>& from = from_b ? b : a;
                    for (uint32_t j = 0; j < c.width; ++j) {
                        uint64_t expected = loadComponent(from.data(), src_gid * c.width + j, bytes);
                        uint64_t actual = loadComponent(result.data(), gid * c.width + j, bytes);
                        if (expected == actual) {
                            log.checked();
                            continue;
                        }
                        compare(log,
                                where(wg, sgid, lane, j) + " (index " + std::to_string(index[gid]) + " -> " +
                                    operandName(src->operand) + " of lane " + std::to_string(src->lane) + ")",
                                c.type, expected, actual, LaneCell{wg, sgid, lane, j, c.sg, c.width});
                    }
                }
            }
        }
        return log.outcome();
    }
};

}  // namespace

std::unique_ptr<Family> makeShuffleFamily() {
    return std::make_unique<ShuffleFamily>();
}

}  // namespace cts::subgroups
