// subgroups.shuffle*: OpSubgroupShuffleINTEL / DownINTEL / UpINTEL / XorINTEL.
//
// Kernel (scripts/assets/generators/subgroups.py): out, info, a, b, index, exec_period, lane_mask. Every
// invocation loads its components from a (Data / Current / Previous) and b (Next / Current); those of
// work-groups with WorkgroupId % exec_period == exec_period - 1 whose bit (SubgroupLocalInvocationId % 32) is
// set in lane_mask then load the per-work-item index (or an OpConstant in test_const), shuffle, and store;
// the others store nothing. The invocations expected to skip the shuffle hold kInactive in a and b, a value
// no executing invocation holds, so a device that reads one of them is caught. Every value the spec defines
// is compared with the host reference; undefined ones are skipped.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "test_common/harness/launch/kernel_util.h"
#include "test_common/harness/model/param_fields.h"
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

struct ShuffleCase : SubgroupGrid {
    ShuffleOp op;
    ComponentType type;
    uint32_t width;
    std::string pattern;  // const, uniform, varying, all_masks
    uint32_t index = 0, index_range = 0;
    uint32_t exec_period;
    bool seeded_lane_mask;  // only a seeded subset of lanes runs the shuffle

    static ShuffleCase fromParams(const Params& params);
};

// The manifest's parameters as scripts/assets/generators/subgroups.py writes them, each declared once in
// shuffleFields(): the family's schema and fromParams' reading follow from that table.
struct ShuffleParams {
    std::string op, type;
    uint32_t width = 0, sg = 0;
    std::string pattern;
    std::optional<uint64_t> index, index_range;  // the patterns const / uniform, varying
    uint64_t local = 0, groups = 0;
    uint32_t exec_period = 0;
    std::string lane_mask;
};

const ParamFields<ShuffleParams>& shuffleFields() {
    static const ParamFields<ShuffleParams> fields{{"op", &ShuffleParams::op},
                                                   {"type", &ShuffleParams::type},
                                                   {"width", &ShuffleParams::width},
                                                   {"sg", &ShuffleParams::sg},
                                                   {"pattern", &ShuffleParams::pattern},
                                                   {"index", &ShuffleParams::index},
                                                   {"index_range", &ShuffleParams::index_range},
                                                   {"local", &ShuffleParams::local},
                                                   {"groups", &ShuffleParams::groups},
                                                   {"exec_period", &ShuffleParams::exec_period},
                                                   {"lane_mask", &ShuffleParams::lane_mask}};
    return fields;
}

// An optional parameter the case's pattern needs: missing, Params' getter error.
uint32_t needed(const std::optional<uint64_t>& value, const char* name) {
    if (!value) throw InternalError(std::string("case parameter '") + name + "' is missing");
    return uint32_t(*value);
}

ShuffleCase ShuffleCase::fromParams(const Params& params) {
    const ShuffleParams p = readFields(params, shuffleFields());
    ShuffleCase c{};
    if (p.op == "shuffle")
        c.op = ShuffleOp::Shuffle;
    else if (p.op == "shuffle_down")
        c.op = ShuffleOp::ShuffleDown;
    else if (p.op == "shuffle_up")
        c.op = ShuffleOp::ShuffleUp;
    else if (p.op == "shuffle_xor")
        c.op = ShuffleOp::ShuffleXor;
    else
        throw InternalError("unknown shuffle op '" + p.op + "'");
    c.type = componentType(p.type);
    c.width = p.width;
    c.sg = p.sg;
    c.pattern = p.pattern;
    if (c.pattern == "const" || c.pattern == "uniform") c.index = needed(p.index, "index");
    if (c.pattern == "varying") c.index_range = needed(p.index_range, "index_range");
    if (c.pattern != "const" && c.pattern != "uniform" && c.pattern != "varying" && c.pattern != "all_masks")
        throw InternalError("unknown index pattern '" + c.pattern + "'");
    c.local = p.local;
    c.groups = p.groups;
    c.exec_period = p.exec_period;
    if (p.lane_mask != "all" && p.lane_mask != "seeded")
        throw InternalError("lane_mask must be all or seeded, not " + p.lane_mask);
    c.seeded_lane_mask = p.lane_mask == "seeded";
    if (c.width == 0 || c.sg == 0 || c.local == 0 || c.groups == 0 || c.exec_period == 0)
        throw InternalError("zero width, sg, local, groups or exec_period");
    return c;
}

const char* operandName(ShuffleOperand o) {
    switch (o) {
        case ShuffleOperand::Data: return "Data";
        case ShuffleOperand::Current: return "Current";
        case ShuffleOperand::Next: return "Next";
        case ShuffleOperand::Previous: return "Previous";
    }
    return "?";
}

// The seeded inputs of a case, drawn in this order: a, b, the lane mask, the varying indices.
struct ShuffleInputs {
    std::vector<uint8_t> a, b;    // invocations expected to skip the shuffle hold kInactive
    uint32_t lane_mask;           // lane L runs the shuffle when bit (L % 32) is set
    std::vector<uint32_t> index;  // per work-item

    static ShuffleInputs seeded(const ShuffleCase& c, uint64_t seed) {
        Rng rng(seed);
        const size_t comps = c.global() * c.width;
        ShuffleInputs in;
        in.a = randomComponents(rng, c.type, comps);
        in.b = randomComponents(rng, c.type, comps);
        // Lanes 0 and S-1 always run, so the boundary patterns whose only defined result is lane S-1 reading
        // lane 0 keep something to check.
        in.lane_mask =
            c.seeded_lane_mask ? uint32_t(rng.next()) | 1u | (1u << ((c.sg - 1) % 32)) : 0xffffffffu;
        poisonInactive(in.a, c.type, c.width, c.local, c.sg, c.exec_period, in.lane_mask);
        poisonInactive(in.b, c.type, c.width, c.local, c.sg, c.exec_period, in.lane_mask);
        in.index.resize(c.global());
        for (size_t gid = 0; gid < c.global(); ++gid) {
            if (c.pattern == "varying")
                in.index[gid] = rng.below(c.index_range);
            else if (c.pattern == "all_masks")
                in.index[gid] = uint32_t((gid / c.sg) % c.sg);  // each run of S work-items shares one mask
            else
                in.index[gid] = c.index;
        }
        return in;
    }
};

// One launch of the kernel (out, info, a, b, index, exec_period, lane_mask): the seeded inputs, then the
// kernel and the buffers, created in declaration order.
struct ShuffleLaunch {
    ShuffleLaunch(RunContext& ctx, const CaseSpec& spec, const ShuffleCase& c)
        : in(ShuffleInputs::seeded(c, ctx.seed)),
          kernel(createKernel(ctx, spec.module, spec.kernel)),
          out(ctx, in.a.size()),
          info(ctx, c.global() * 16),
          a(ctx, in.a.size()),
          b(ctx, in.b.size()),
          index(ctx, in.index.size() * 4) {
        a.write(in.a.data(), in.a.size());
        b.write(in.b.data(), in.b.size());
        index.write(in.index.data(), in.index.size() * 4);
    }

    void run(RunContext& ctx, const CaseSpec& spec, const ShuffleCase& c) {
        KernelArgs args(kernel, spec);
        args.set("out", out.mem());
        args.set("info", info.mem());
        args.set("a", a.mem());
        args.set("b", b.mem());
        args.set("index", index.mem());
        args.set("exec_period", cl_uint(c.exec_period));
        args.set("lane_mask", cl_uint(in.lane_mask));
        c.run(ctx, args);
    }

    const ShuffleInputs in;
    KernelHandle kernel;
    GuardedBuffer out, info, a, b, index;
};

// Compares the outputs of one sub-group at a time with the host reference: an invocation that skipped the
// shuffle keeps the poison; one that ran it holds the operand of the invocation the index rule selects,
// where the spec defines one.
class ShuffleCheck {
public:
    ShuffleCheck(const ShuffleCase& c, const ShuffleInputs& in, const std::vector<uint8_t>& result,
                 MismatchLog& log)
        : c_(c), in_(in), result_(result), log_(log) {}

    // lanes[lane]: the global id of the work-item the device reports at that lane of sub-group sgid.
    void subGroup(size_t wg, uint32_t sgid, const std::vector<size_t>& lanes) {
        const bool executed_wg = wg % c_.exec_period == c_.exec_period - 1;
        std::vector<bool> executed(lanes.size());
        for (uint32_t lane = 0; lane < lanes.size(); ++lane)
            executed[lane] = executed_wg && ((in_.lane_mask >> (lane % 32)) & 1) != 0;
        for (uint32_t lane = 0; lane < lanes.size(); ++lane) {
            if (executed[lane])
                shuffled(wg, sgid, lane, lanes, executed);
            else
                keptPoison(wg, sgid, lane, lanes[lane]);
        }
    }

private:
    // The invocation skipped the branch: its output must keep the poison.
    void keptPoison(size_t wg, uint32_t sgid, uint32_t lane, size_t gid) {
        const unsigned bytes = c_.type.bytes;
        for (uint32_t j = 0; j < c_.width; ++j) {
            uint64_t actual = loadComponent(result_.data(), gid * c_.width + j, bytes);
            if (isPoison(actual, bytes)) {
                log_.checked();
                continue;
            }
            uint64_t poison = loadComponent(std::vector<uint8_t>(8, kPoison).data(), 0, bytes);
            compare(log_, where(wg, sgid, lane, j) + " (did not execute the shuffle)", c_.type, poison,
                    actual, LaneCell{wg, sgid, lane, j, c_.sg, c_.width});
        }
    }

    void shuffled(size_t wg, uint32_t sgid, uint32_t lane, const std::vector<size_t>& lanes,
                  const std::vector<bool>& executed) {
        const unsigned bytes = c_.type.bytes;
        const size_t gid = lanes[lane];
        auto src = reference::definedShuffleSource(c_.op, lane, in_.index[gid], c_.sg, executed);
        if (!src) {
            log_.skipped(c_.width);  // undefined: out of range, or the source is absent
            return;
        }
        const size_t src_gid = lanes[src->lane];
        // a holds Data (Shuffle, Xor), Current (Down), Previous (Up); b holds Next (Down) and Current (Up).
        const bool from_b = src->operand == ShuffleOperand::Next ||
                            (c_.op == ShuffleOp::ShuffleUp && src->operand == ShuffleOperand::Current);
        const std::vector<uint8_t>& from = from_b ? in_.b : in_.a;
        for (uint32_t j = 0; j < c_.width; ++j) {
            uint64_t expected = loadComponent(from.data(), src_gid * c_.width + j, bytes);
            uint64_t actual = loadComponent(result_.data(), gid * c_.width + j, bytes);
            if (expected == actual) {
                log_.checked();
                continue;
            }
            compare(log_,
                    where(wg, sgid, lane, j) + " (index " + std::to_string(in_.index[gid]) + " -> " +
                        operandName(src->operand) + " of lane " + std::to_string(src->lane) + ")",
                    c_.type, expected, actual, LaneCell{wg, sgid, lane, j, c_.sg, c_.width});
        }
    }

    const ShuffleCase& c_;
    const ShuffleInputs& in_;
    const std::vector<uint8_t>& result_;
    MismatchLog& log_;
};

class ShuffleFamily : public Family {
public:
    std::string name() const override { return "subgroups.shuffle"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema = schemaOf(shuffleFields());
        return schema;
    }

    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        const ShuffleCase c = ShuffleCase::fromParams(spec.params);
        ShuffleLaunch launch(ctx, spec, c);
        launch.run(ctx, spec, c);

        std::vector<uint8_t> result = launch.out.read();
        std::vector<uint8_t> info_bytes = launch.info.read();
        const ShuffleInputs& in = launch.in;
        dumpBytes(ctx, "in_a", in.a.data(), in.a.size());
        dumpBytes(ctx, "in_b", in.b.data(), in.b.size());
        dumpBytes(ctx, "in_index", in.index.data(), in.index.size() * 4);
        dumpBytes(ctx, "out", result.data(), result.size());
        dumpBytes(ctx, "out_info", info_bytes.data(), info_bytes.size());
        for (const GuardedBuffer* g : {&launch.out, &launch.info}) {
            std::string guard = g->checkGuards();
            if (!guard.empty()) return Outcome::fail((g == &launch.out ? "output: " : "info: ") + guard);
        }
        SubgroupMap map;
        if (std::string bad = c.mapSubGroups(info_bytes, &map); !bad.empty()) return Outcome::fail(bad);

        MismatchLog log(
            std::string(reference::shuffleOpName(c.op)) +
            ": result is the named operand of the invocation the index rule selects (SubgroupMaxSize " +
            std::to_string(c.sg) + ")");
        ShuffleCheck check(c, in, result, log);
        for (size_t wg = 0; wg < c.groups; ++wg)
            for (uint32_t sgid = 0; sgid < map.lanes[wg].size(); ++sgid)
                check.subGroup(wg, sgid, map.lanes[wg][sgid]);
        return log.outcome();
    }
};

}  // namespace

std::unique_ptr<Family> makeShuffleFamily() {
    return std::make_unique<ShuffleFamily>();
}

}  // namespace cts::subgroups
