// matrix_multiply_accumulate.*: runs one OpSubgroupMatrixMultiplyAccumulateINTEL configuration (a row of the
// OpenCL table, M, signedness) in one kernel shape with one data class, and checks every Result element of
// every lane of every sub-group against the host reference: integers bit-exactly, floats exactly for exact
// data and within the data-derived bound otherwise. Cases come from
// scripts/generators/matrix_multiply_accumulate.py (its docstring gives the kernel ABI).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include "test_common/harness/kernel_util.h"
#include "test_common/harness/mismatch.h"
#include "test_common/reference/mma.h"
#include "test_conformance/families.h"
#include "test_conformance/matrix_multiply_accumulate/data.h"

namespace cts {
namespace {

using reference::LaneData;
using reference::MmaAccumulator;
using reference::MmaElement;
using reference::MmaShape;
using reference::RawMatrix;

MmaElement parseElement(const std::string& s) {
    for (MmaElement e :
         {MmaElement::Int8, MmaElement::Int4, MmaElement::Fp16, MmaElement::Bf16, MmaElement::Tf32})
        if (s == reference::elementName(e)) return e;
    throw InternalError("matrix_multiply_accumulate: unknown element format '" + s + "'");
}

MmaAccumulator parseAccumulator(const std::string& s) {
    for (MmaAccumulator a :
         {MmaAccumulator::Int32, MmaAccumulator::Fp32, MmaAccumulator::Fp16, MmaAccumulator::Bf16})
        if (s == reference::accumulatorName(a)) return a;
    throw InternalError("matrix_multiply_accumulate: unknown accumulator format '" + s + "'");
}

enum class Scenario { Single, Chained, SecondMma, Branch };

struct MmaCase {
    MmaShape shape;
    Scenario scenario = Scenario::Single;
    mma::DataClass data = mma::DataClass::Exact;
    uint32_t work_groups = 1, sub_groups_per_work_group = 1, steps = 1, outputs = 1;

    static MmaCase fromParams(const Params& p) {
        MmaCase c;
        MmaShape& s = c.shape;
        s.n = uint32_t(p.u("n")), s.k = uint32_t(p.u("k")), s.m = uint32_t(p.u("m"));
        s.a = parseElement(p.s("a")), s.b = parseElement(p.s("b"));
        s.a_signed = p.b("a_signed"), s.b_signed = p.b("b_signed");
        s.c = parseAccumulator(p.s("c")), s.result = parseAccumulator(p.s("result"));
        std::string scenario = p.s("scenario");
        c.scenario =
            scenario == "single" || scenario == "multi_group" ? Scenario::Single
            : scenario == "chained"                           ? Scenario::Chained
            : scenario == "second_mma"                        ? Scenario::SecondMma
            : scenario == "branch"
                ? Scenario::Branch
                : throw InternalError("matrix_multiply_accumulate: unknown scenario '" + scenario + "'");
        c.data = mma::parseDataClass(p.s("data"), s);
        c.work_groups = uint32_t(p.u("work_groups"));
        c.sub_groups_per_work_group = uint32_t(p.u("sub_groups_per_work_group"));
        c.steps = uint32_t(p.u("steps"));
        c.outputs = uint32_t(p.u("outputs"));
        const uint32_t want_outputs = c.scenario == Scenario::SecondMma ? 2 : 1;
        const uint32_t want_steps = c.scenario == Scenario::SecondMma ? 2
                                    : c.scenario == Scenario::Chained ? c.steps
                                                                      : 1;
        if (c.outputs != want_outputs || c.steps != want_steps || c.steps == 0)
            throw InternalError("matrix_multiply_accumulate: steps/outputs do not fit scenario " + scenario);
        if (c.scenario == Scenario::Chained && !reference::isInteger(s.a) && c.data != mma::DataClass::Exact)
            throw InternalError("matrix_multiply_accumulate: chained float cases need exact data");
        return c;
    }

    uint32_t subGroups() const { return work_groups * sub_groups_per_work_group; }
    uint32_t chainLength() const { return scenario == Scenario::Chained ? steps : 1; }
    bool bitExact() const {
        return reference::isInteger(shape.a) || data == mma::DataClass::Exact ||
               data == mma::DataClass::Position;
    }
};

// Appends each lane's components (component_bits wide, little-endian) for lane slots s = g * N + lane.
void appendLanes(std::vector<uint8_t>& out, const LaneData& lanes, uint32_t component_bits) {
    const uint32_t bytes = component_bits / 8;
    for (const auto& lane : lanes)
        for (uint32_t v : lane)
            for (uint32_t i = 0; i < bytes; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

LaneData lanesFrom(const std::vector<uint8_t>& bytes, size_t first_slot, uint32_t lanes, uint32_t components,
                   uint32_t component_bits) {
    const uint32_t cb = component_bits / 8;
    LaneData d(lanes, std::vector<uint32_t>(components));
    for (uint32_t l = 0; l < lanes; ++l)
        for (uint32_t r = 0; r < components; ++r) {
            uint32_t v = 0;
            std::memcpy(&v, bytes.data() + ((first_slot + l) * components + r) * cb, cb);
            d[l][r] = v;
        }
    return d;
}

// One MMA of the host reference, as raw Result bits (floats: the exact value, which exact data makes
// representable), plus the per-element expectation for bounded comparison.
struct Expected {
    RawMatrix bits;
    std::vector<reference::FloatExpectation> bounded;  // floats only
};

Expected mmaOnce(const MmaShape& s, const RawMatrix& a, const RawMatrix& b, const RawMatrix& c, bool exact) {
    Expected e;
    if (reference::isInteger(s.a)) {
        e.bits = reference::mmaInteger(s, a, b, c);
        return e;
    }
    e.bounded = reference::mmaFloat(s, a, b, c);
    e.bits = RawMatrix(s.m, s.n);
    if (exact)
        for (uint32_t r = 0; r < s.m; ++r)
            for (uint32_t n = 0; n < s.n; ++n)
                e.bits.at(r, n) = reference::encodeExactAccumulator(s.result, e.bounded[r * s.n + n].exact);
    return e;
}

class MmaFamily : public Family {
public:
    std::string name() const override { return "matrix_multiply_accumulate"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema{{"m", ParamType::UInt},
                                        {"n", ParamType::UInt},
                                        {"k", ParamType::UInt},
                                        {"a", ParamType::String},
                                        {"a_signed", ParamType::Bool},
                                        {"b", ParamType::String},
                                        {"b_signed", ParamType::Bool},
                                        {"c", ParamType::String},
                                        {"result", ParamType::String},
                                        {"scenario", ParamType::String},
                                        {"data", ParamType::String},
                                        {"work_groups", ParamType::UInt},
                                        {"sub_groups_per_work_group", ParamType::UInt},
                                        {"steps", ParamType::UInt},
                                        {"outputs", ParamType::UInt}};
        return schema;
    }

    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        const MmaCase c = MmaCase::fromParams(spec.params);
        const MmaShape& s = c.shape;
        const uint32_t n = s.n, groups = c.subGroups();
        const reference::OperandLayout al = reference::aLayout(s), bl = reference::bLayout(s),
                                       cl = reference::cLayout(s), rl = reference::resultLayout(s);
        KernelHandle kernel = createKernel(ctx, spec.module, spec.kernel);
        std::mt19937_64 rng(ctx.seed);

        // ops[g][t]: sub-group g's operands of step t; the kernel reads C of step 0 only.
        std::vector<std::vector<mma::Operands>> ops(groups);
        std::vector<uint8_t> a_bytes, b_bytes, c_bytes;
        for (uint32_t g = 0; g < groups; ++g) {
            std::vector<LaneData> a_lanes, b_lanes;
            for (uint32_t t = 0; t < c.steps; ++t) {
                ops[g].push_back(mma::makeOperands(s, c.data, c.chainLength(), g * c.steps + t, rng));
                a_lanes.push_back(reference::packA(s, ops[g][t].a));
                mma::poisonIgnoredA(s, a_lanes.back());  // ignored lanes (tf32, M = 1) hold poison
                b_lanes.push_back(reference::packB(s, ops[g][t].b));
            }
            for (uint32_t lane = 0; lane < n; ++lane)
                for (uint32_t t = 0; t < c.steps; ++t) {
                    appendLanes(a_bytes, {a_lanes[t][lane]}, al.component_bits);
                    appendLanes(b_bytes, {b_lanes[t][lane]}, bl.component_bits);
                }
            appendLanes(c_bytes, reference::packC(s, ops[g][0].c), cl.component_bits);
        }
        GuardedBuffer a_buf(ctx, a_bytes.size()), b_buf(ctx, b_bytes.size()), c_buf(ctx, c_bytes.size());
        a_buf.write(a_bytes.data(), a_bytes.size());
        b_buf.write(b_bytes.data(), b_bytes.size());
        c_buf.write(c_bytes.data(), c_bytes.size());
        const size_t out_size = size_t(groups) * n * c.outputs * rl.components * rl.component_bits / 8;
        GuardedBuffer out_buf(ctx, out_size);  // poison-filled: a kernel that never ran leaves 0xA5 bytes
        KernelArgs args(kernel, spec);
        args.set("a", a_buf.mem());
        args.set("b", b_buf.mem());
        args.set("c", c_buf.mem());
        args.set("out", out_buf.mem());
        args.set("steps", cl_uint(c.steps));
        size_t local = size_t(c.sub_groups_per_work_group) * n, global = local * c.work_groups;
        runNDRange(ctx, args, 1, &global, &local);
        const std::vector<uint8_t> out = out_buf.read();
        dumpBytes(ctx, "a", a_bytes.data(), a_bytes.size());
        dumpBytes(ctx, "b", b_bytes.data(), b_bytes.size());
        dumpBytes(ctx, "c", c_bytes.data(), c_bytes.size());
        dumpBytes(ctx, "out", out.data(), out.size());

        MismatchLog log(
            reference::isInteger(s.a)
                ? "SPV_INTEL_subgroup_matrix_multiply_accumulate: integer Result is the low-order bits "
                  "of the correct result"
            : c.bitExact() ? "SPV_INTEL_subgroup_matrix_multiply_accumulate: every partial sum of "
                             "this data is exact, so every order of operations gives this Result"
                           : "SPV_INTEL_subgroup_matrix_multiply_accumulate: float Result within "
                             "(K + 2) * eps * (sum |a_k b_k| + |c|) + (K + 2) * min_normal");
        for (uint32_t g = 0; g < groups; ++g)
            for (uint32_t o = 0; o < c.outputs; ++o) {
                const Expected want = expected(c, g, o, ops[g]);
                const LaneData got = lanesFrom(out, size_t(g * n) * c.outputs, n * c.outputs, rl.components,
                                               rl.component_bits);
                compare(c, g, o, want, got, log);
            }
        for (const GuardedBuffer* b : {&a_buf, &b_buf, &c_buf, &out_buf})
            if (std::string bad = b->checkGuards(); !bad.empty()) log.addLine(bad);
        Outcome result = log.outcome();
        if (result.status != Status::Pass) result.message = s.str() + "\n" + result.message;
        return result;
    }

private:
    // What output o of sub-group g must hold.
    static Expected expected(const MmaCase& c, uint32_t g, uint32_t o,
                             const std::vector<mma::Operands>& ops) {
        const MmaShape& s = c.shape;
        const bool exact = c.bitExact();
        switch (c.scenario) {
            case Scenario::Single: return mmaOnce(s, ops[0].a, ops[0].b, ops[0].c, exact);
            case Scenario::SecondMma: return mmaOnce(s, ops[o].a, ops[o].b, ops[0].c, exact);
            case Scenario::Branch: {
                // Odd work-groups take the branch with the MMA; the others store C unchanged.
                if ((g / c.sub_groups_per_work_group) % 2)
                    return mmaOnce(s, ops[0].a, ops[0].b, ops[0].c, exact);
                Expected e;
                e.bits = ops[0].c;
                return e;
            }
            case Scenario::Chained: {
                // GEMM's loop over K: each Result is the next step's C.
                Expected e;
                RawMatrix acc = ops[0].c;
                for (uint32_t t = 0; t < c.steps; ++t) {
                    e = mmaOnce(s, ops[t].a, ops[t].b, acc, exact);
                    acc = e.bits;
                }
                return e;
            }
        }
        return {};
    }

    static void compare(const MmaCase& c, uint32_t g, uint32_t o, const Expected& want, const LaneData& lanes,
                        MismatchLog& log) {
        const MmaShape& s = c.shape;
        const unsigned bytes = reference::accumulatorBits(s.result) / 8;
        const bool is_float = !reference::isInteger(s.a);
        // Output o of lane l sits at slot l * outputs + o.
        LaneData mine(s.n);
        for (uint32_t l = 0; l < s.n; ++l) mine[l] = lanes[l * c.outputs + o];
        const RawMatrix got = reference::unpackC(
            MmaShape{s.n, s.k, s.m, s.a, s.b, s.a_signed, s.b_signed, s.result, s.result}, mine);
        const bool from_c = want.bounded.empty() && is_float;  // branch not taken: C stored as is
        const GridShape grid{"work-group " + std::to_string(g / c.sub_groups_per_work_group) + " sub-group " +
                                 std::to_string(g % c.sub_groups_per_work_group) +
                                 (c.outputs > 1 ? (o ? " second MMA" : " first MMA") : "") + ": Result " +
                                 std::to_string(s.m) + " x " + std::to_string(s.n),
                             s.m, s.n, "row", "column"};
        for (uint32_t r = 0; r < s.m; ++r)
            for (uint32_t col = 0; col < s.n; ++col) {
                char where[160];
                std::snprintf(where, sizeof where, "work-group %u sub-group %u lane %u (column %u) row %u%s",
                              g / c.sub_groups_per_work_group, g % c.sub_groups_per_work_group, col, col, r,
                              c.outputs > 1 ? (o ? " second MMA" : " first MMA") : "");
                const uint32_t actual = got.at(r, col), expect = want.bits.at(r, col);
                log.checked();
                if (!is_float) {
                    if (actual != expect) log.add(where, expect, actual, bytes);
                    if (actual != expect) log.mark(grid, r, col, expect, actual, bytes);
                    continue;
                }
                const double actual_v = reference::accumulatorValue(s.result, actual);
                if (from_c || c.bitExact()) {
                    const double expect_v = reference::accumulatorValue(s.result, expect);
                    // Exact data: any order gives this value; only the sign of a zero may differ.
                    if (!(actual_v == expect_v)) {
                        log.addFloat(where, expect_v, actual_v, expect, actual, bytes);
                        log.mark(grid, r, col, expect, actual, bytes);
                    }
                    continue;
                }
                const reference::FloatExpectation& e = want.bounded[r * s.n + col];
                if (!reference::floatResultAcceptable(s.result, e, actual)) {
                    char bound[64];
                    std::snprintf(bound, sizeof bound, " (bound %a)", e.bound);
                    log.addFloat(std::string(where) + bound, e.exact, actual_v, expect, actual, bytes);
                    log.mark(grid, r, col, expect, actual, bytes);
                }
            }
    }
};

void registerMatrixMultiplyAccumulateFamilies(Registry& registry) {
    registry.addFamily(std::make_unique<MmaFamily>());
}

}  // namespace

CTS_REGISTER_FAMILIES("matrix_multiply_accumulate", registerMatrixMultiplyAccumulateFamilies);

}  // namespace cts
