// matrix_multiply_accumulate.*: runs one OpSubgroupMatrixMultiplyAccumulateINTEL configuration (a row of the
// OpenCL table, M, signedness) in one kernel shape with one data class, and checks every Result element of
// every lane of every sub-group against the host reference: integers bit-exactly, floats exactly for exact
// data and within the data-derived bound otherwise. Cases come from
// scripts/assets/generators/matrix_multiply_accumulate.py (its docstring gives the kernel ABI); their
// parameters are mma_case.h's, the buffers the kernel runs on launch.h's.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>

#include "test_common/harness/launch/kernel_util.h"
#include "test_common/harness/model/mismatch.h"
#include "test_common/reference/mma.h"
#include "test_conformance/families.h"
#include "test_conformance/matrix_multiply_accumulate/data.h"
#include "test_conformance/matrix_multiply_accumulate/launch.h"
#include "test_conformance/matrix_multiply_accumulate/mma_case.h"

namespace cts {
namespace {

using reference::LaneData;
using reference::MmaShape;
using reference::RawMatrix;

using mma::MmaCase;
using mma::MmaLaunch;
using mma::Scenario;

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
    const ParamSchema& paramSchema() const override { return MmaCase::schema(); }

    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        const MmaCase c = MmaCase::fromParams(spec.params);
        KernelHandle kernel = createKernel(ctx, spec.module, spec.kernel);
        std::mt19937_64 rng(ctx.seed);
        MmaLaunch launch(ctx, c, rng);
        launch.run(ctx, kernel, spec);
        const std::vector<uint8_t> out = launch.readResults(ctx);

        MismatchLog log(rule(c));
        checkResults(c, launch.operands.ops, out, log);
        for (const GuardedBuffer* b : {&launch.a_buf, &launch.b_buf, &launch.c_buf, &launch.out_buf})
            if (std::string bad = b->checkGuards(); !bad.empty()) log.addLine(bad);
        Outcome result = log.outcome();
        if (result.status != Status::Pass) result.message = c.shape.str() + "\n" + result.message;
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

    // The rule a mismatch breaks, by element type and data class.
    static const char* rule(const MmaCase& c) {
        return reference::isInteger(c.shape.a)
                   ? "SPV_INTEL_subgroup_matrix_multiply_accumulate: integer Result is the low-order bits "
                     "of the correct result"
               : c.bitExact() ? "SPV_INTEL_subgroup_matrix_multiply_accumulate: every partial sum of "
                                "this data is exact, so every order of operations gives this Result"
                              : "SPV_INTEL_subgroup_matrix_multiply_accumulate: float Result within "
                                "(K + 2) * eps * (sum |a_k b_k| + |c|) + (K + 2) * min_normal";
    }

    // Every output of every sub-group in `out` (the Result buffer) against the host reference.
    static void checkResults(const MmaCase& c, const std::vector<std::vector<mma::Operands>>& ops,
                             const std::vector<uint8_t>& out, MismatchLog& log) {
        const uint32_t n = c.shape.n;
        const reference::OperandLayout rl = reference::resultLayout(c.shape);
        for (uint32_t g = 0; g < c.subGroups(); ++g)
            for (uint32_t o = 0; o < c.outputs; ++o) {
                const Expected want = expected(c, g, o, ops[g]);
                const LaneData got = lanesFrom(out, size_t(g * n) * c.outputs, n * c.outputs, rl.components,
                                               rl.component_bits);
                compare(c, g, o, want, got, log);
            }
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
