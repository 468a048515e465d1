// workloads.gemm_block_read.*: the Xe-HPG-like GEMM (sub-group size 8, MMA with N = 8) whose A rows and
// VNNI-packed B rows come through sub-group buffer block reads from host-padded buffers, chained over K, with
// per-lane stores inside m x n (see scripts/assets/generators/workloads.py). D is checked element by element
// against the plain host GEMM; every work-item's done record must be there.
#include <random>

#include "test_common/harness/launch/kernel_util.h"
#include "test_common/harness/model/param_fields.h"
#include "test_common/harness/selection/done_record.h"
#include "test_conformance/workloads/common.h"
#include "test_conformance/workloads/families.h"

namespace cts::workloads {
namespace {

constexpr uint32_t kSubGroup = 8, kTile = 8;

// The manifest's parameters, declared once in fields(); the schema and run()'s reading follow from it.
struct BlockReadParams {
    std::string format;
    bool is_signed = false;  // "signed"
    std::string data;
    uint32_t m = 0, n = 0, k = 0, sub_groups_per_work_group = 0;
};

const ParamFields<BlockReadParams>& fields() {
    using P = BlockReadParams;
    static const ParamFields<P> fields{{"format", &P::format},
                                       {"signed", &P::is_signed},
                                       {"data", &P::data},
                                       {"m", &P::m},
                                       {"n", &P::n},
                                       {"k", &P::k},
                                       {"sub_groups_per_work_group", &P::sub_groups_per_work_group}};
    return fields;
}

// A and B as the kernel reads them: N = 8, so K is 32 for int8 and 16 for fp16/bf16 (4 or 2 elements per
// 32-bit word); each padded with zeros to whole tiles, since block reads have no bounds and the host
// provides the zeros. A is row-major in words of K; B is VNNI-packed, a row of words per K/word step.
struct BlockReadOperands {
    uint32_t tiles_m, tiles_n, steps, a_words, b_words;
    std::vector<uint32_t> a_packed, b_packed;

    BlockReadOperands(const FormatInfo& f, uint32_t m, uint32_t n, uint32_t k, const std::vector<uint32_t>& a,
                      const std::vector<uint32_t>& b) {
        const uint32_t k_step = f.integer ? 32 : 16, per_word = 4 / f.element_bytes,
                       bits = 8 * f.element_bytes;
        tiles_m = (m + kTile - 1) / kTile;
        tiles_n = (n + kTile - 1) / kTile;
        steps = (k + k_step - 1) / k_step;
        const uint32_t kp = steps * k_step;
        a_words = kp / per_word;
        b_words = tiles_n * kTile;
        a_packed.assign(size_t(tiles_m) * kTile * a_words, 0);
        b_packed.assign(size_t(kp / per_word) * b_words, 0);
        for (uint32_t i = 0; i < m; ++i)
            for (uint32_t t = 0; t < k; ++t)
                a_packed[size_t(i) * a_words + t / per_word] |= a[size_t(i) * k + t]
                                                                << (bits * (t % per_word));
        for (uint32_t t = 0; t < k; ++t)
            for (uint32_t j = 0; j < n; ++j)
                b_packed[size_t(t / per_word) * b_words + j] |= b[size_t(t) * n + j]
                                                                << (bits * (t % per_word));
    }
};

class GemmBlockReadFamily : public Family {
public:
    std::string name() const override { return "workloads_gemm_block_read"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema = schemaOf(fields());
        return schema;
    }

    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        const BlockReadParams p = readFields(spec.params, fields());
        const FormatInfo& f = gemmFormat(p.format);
        const bool is_signed = p.is_signed;
        const std::string& data = p.data;
        const uint32_t m = p.m, n = p.n, k = p.k;
        const uint32_t sgs = p.sub_groups_per_work_group;
        std::mt19937_64 rng(ctx.seed);
        const std::vector<uint32_t> a = makeElements(f, data, size_t(m) * k, rng);
        const std::vector<uint32_t> b = makeElements(f, data, size_t(k) * n, rng);
        const BlockReadOperands ops(f, m, n, k, a, b);

        const uint32_t groups = launchSubGroups(ops.tiles_m * ops.tiles_n, sgs);
        KernelHandle kernel = createKernel(ctx, spec.module, spec.kernel);
        GuardedBuffer a_buf(ctx, ops.a_packed.size() * 4), b_buf(ctx, ops.b_packed.size() * 4),
            d_buf(ctx, size_t(m) * n * f.accumulator_bytes), done(ctx, size_t(groups) * kSubGroup * 4);
        a_buf.write(ops.a_packed.data(), ops.a_packed.size() * 4);
        b_buf.write(ops.b_packed.data(), ops.b_packed.size() * 4);
        KernelArgs args(kernel, spec);
        args.set("a", a_buf.mem());
        args.set("b", b_buf.mem());
        args.set("d", d_buf.mem());
        args.set("done", done.mem());
        args.set("m", cl_uint(m));
        args.set("n", cl_uint(n));
        args.set("a_words", cl_uint(ops.a_words));
        args.set("b_words", cl_uint(ops.b_words));
        args.set("k_steps", cl_uint(ops.steps));
        args.set("tiles_n", cl_uint(ops.tiles_n));
        const size_t local = size_t(sgs) * kSubGroup, global = size_t(groups) * kSubGroup;
        runNDRange(ctx, args, 1, &global, &local);
        const std::vector<uint8_t> d = d_buf.read();
        dumpBytes(ctx, "a_packed", ops.a_packed.data(), ops.a_packed.size() * 4);
        dumpBytes(ctx, "b_packed", ops.b_packed.data(), ops.b_packed.size() * 4);
        dumpBytes(ctx, "d", d.data(), d.size());

        MismatchLog log(
            f.integer ? "GEMM D = A * B: integer MMA results are the low-order bits of the exact sum"
            : data == "exact"
                ? "GEMM D = A * B: every partial sum of this data is exact, so every order gives D"
                : "GEMM D = A * B within (K + 2)(T + 1) eps sum|a b|");
        const GemmExpectation want = hostGemm(f, is_signed, data == "exact", m, n, k, a, b);
        for (uint32_t i = 0; i < m; ++i)
            for (uint32_t j = 0; j < n; ++j)
                checkElement(
                    f, want, m, n, i, j,
                    loadBits(d.data() + (size_t(i) * n + j) * f.accumulator_bytes, f.accumulator_bytes), log);
        checkDoneRecords(done.read(), DoneLayout{groups / sgs, sgs, kSubGroup}, log);
        for (const GuardedBuffer* g : {&a_buf, &b_buf, &d_buf, &done})
            if (std::string bad = g->checkGuards(); !bad.empty()) log.addLine(bad);
        Outcome out = log.outcome();
        if (out.status != Status::Pass)
            out.message = std::string(f.name) + " GEMM " + std::to_string(m) + " x " + std::to_string(n) +
                          " x " + std::to_string(k) + " through sub-group block reads\n" + out.message;
        return out;
    }
};

}  // namespace

std::unique_ptr<Family> makeGemmBlockReadFamily() {
    return std::make_unique<GemmBlockReadFamily>();
}

}  // namespace cts::workloads
