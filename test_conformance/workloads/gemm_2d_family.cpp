// workloads.gemm_2d.*: the Xe-HPC-like GEMM tile kernel (2D block load of A, load-transform or load-transpose
// of B, optional prefetch, MMA chained over K, 2D block store of D, optional shuffle-butterfly row epilogue;
// see scripts/assets/generators/workloads.py for the kernel ABI). D is checked element by element against the
// plain host GEMM, the pitch gaps and rows past m of D must keep their poison, and every work-item's done
// record must be there.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "test_common/harness/launch/kernel_util.h"
#include "test_common/harness/model/param_fields.h"
#include "test_common/harness/selection/done_record.h"
#include "test_conformance/families.h"
#include "test_conformance/workloads/common.h"
#include "test_conformance/workloads/families.h"

namespace cts::workloads {
namespace {

constexpr uint32_t kSubGroup = 16, kTileM = 8, kTileN = 16;

uint32_t align(uint32_t v, uint32_t a) {
    return (v + a - 1) / a * a;
}

// A row-major surface of `rows` rows of `data_bytes`, zero-padded to a Memory Width that is a multiple of 4
// (the kernel rounds the same way), at a pitch with a 64-byte gap the kernel must not read as data; the gap
// holds junk.
struct Surface {
    uint32_t width_bytes = 0, rows = 0, pitch = 0;
    std::vector<uint8_t> bytes;
    Surface(uint32_t data_bytes, uint32_t height, std::mt19937_64& rng)
        : width_bytes(align(data_bytes, 4)),
          rows(height),
          pitch(align(width_bytes, 64) + 64),
          bytes(size_t(pitch) * height) {
        for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = i % pitch < width_bytes ? 0 : uint8_t(rng());
    }
    void put(uint32_t row, uint32_t col, uint32_t bits, unsigned bytes_per) {
        storeBits(bytes.data() + size_t(row) * pitch + size_t(col) * bytes_per, bits, bytes_per);
    }
};

// The manifest's parameters, declared once in fields(); the schema and GemmCase follow from it.
struct Gemm2dParams {
    std::string format, b_layout;
    bool is_signed = false;  // "signed"
    bool prefetch = false;   // only reported: the module holds the prefetch or not
    bool epilogue = false;
    std::string data;
    uint32_t m = 0, n = 0, k = 0, sub_groups_per_work_group = 0;
};

const ParamFields<Gemm2dParams>& fields() {
    using P = Gemm2dParams;
    static const ParamFields<P> fields{{"format", &P::format},
                                       {"b_layout", &P::b_layout},
                                       {"signed", &P::is_signed},
                                       {"prefetch", &P::prefetch},
                                       {"epilogue", &P::epilogue},
                                       {"data", &P::data},
                                       {"m", &P::m},
                                       {"n", &P::n},
                                       {"k", &P::k},
                                       {"sub_groups_per_work_group", &P::sub_groups_per_work_group}};
    return fields;
}

// A case's parameters and the launch shape that follows from them.
struct GemmCase {
    const FormatInfo& f;
    bool is_signed, col_major_b, epilogue;
    std::string data;  // the data class (makeElements)
    uint32_t m, n, k, sgs;
    unsigned eb, db;  // bytes of one A or B element, of one D element
    uint32_t d_pitch, tiles_m, tiles_n, groups;
    uint32_t row_slots;  // epilogue results: one per row of every tile row a launched sub-group reaches

    explicit GemmCase(const Params& params) : GemmCase(readFields(params, fields())) {}
    explicit GemmCase(const Gemm2dParams& p)
        : f(gemmFormat(p.format)),
          is_signed(p.is_signed),
          col_major_b(p.b_layout == "col_major"),
          epilogue(p.epilogue),
          data(p.data),
          m(p.m),
          n(p.n),
          k(p.k),
          sgs(p.sub_groups_per_work_group),
          eb(f.element_bytes),
          db(f.accumulator_bytes),
          d_pitch(align(n * db, 64) + 64),
          tiles_m((m + kTileM - 1) / kTileM),
          tiles_n((n + kTileN - 1) / kTileN),
          groups(launchSubGroups(tiles_m * tiles_n, sgs)),
          row_slots((groups + tiles_n - 1) / tiles_n * kTileM * tiles_n) {}

    std::string str() const {
        return std::string(f.name) + " GEMM " + std::to_string(m) + " x " + std::to_string(n) + " x " +
               std::to_string(k) + (col_major_b ? ", column-major B" : ", row-major B");
    }
};

// A (m x k) and B (k x n) as element bits, row-major, and as the surfaces the kernel reads (B transposed
// for a column-major B).
struct GemmOperands {
    std::vector<uint32_t> a, b;
    Surface as, bs;

    GemmOperands(const GemmCase& c, std::mt19937_64& rng)
        : a(makeElements(c.f, c.data, size_t(c.m) * c.k, rng)),
          b(makeElements(c.f, c.data, size_t(c.k) * c.n, rng)),
          as(c.k * c.eb, c.m, rng),
          bs(c.col_major_b ? c.k * c.eb : c.n * c.eb, c.col_major_b ? c.n : c.k, rng) {
        for (uint32_t i = 0; i < c.m; ++i)
            for (uint32_t t = 0; t < c.k; ++t) as.put(i, t, a[size_t(i) * c.k + t], c.eb);
        for (uint32_t t = 0; t < c.k; ++t)
            for (uint32_t j = 0; j < c.n; ++j) {
                if (c.col_major_b)
                    bs.put(j, t, b[size_t(t) * c.n + j], c.eb);
                else
                    bs.put(t, j, b[size_t(t) * c.n + j], c.eb);
            }
    }
};

// The kernel and its buffers (A and B written, D, done records and epilogue rows poisoned), bound by
// argument name (scripts/assets/generators/workloads.py) and launched.
struct Gemm2dLaunch {
    KernelHandle kernel;
    GuardedBuffer a_buf, b_buf, d_buf, done, rows;

    Gemm2dLaunch(RunContext& ctx, const CaseSpec& spec, const GemmCase& c, const GemmOperands& ops)
        : kernel(createKernel(ctx, spec.module, spec.kernel)),
          a_buf(ctx, ops.as.bytes.size()),
          b_buf(ctx, ops.bs.bytes.size()),
          d_buf(ctx, size_t(c.d_pitch) * c.m),
          done(ctx, size_t(c.groups) * kSubGroup * 4),
          rows(ctx, size_t(c.row_slots) * 4) {
        a_buf.write(ops.as.bytes.data(), ops.as.bytes.size());
        b_buf.write(ops.bs.bytes.data(), ops.bs.bytes.size());
    }

    void run(RunContext& ctx, const CaseSpec& spec, const GemmCase& c, const GemmOperands& ops) {
        KernelArgs args(kernel, spec);
        args.set("a", a_buf.mem());
        args.set("b", b_buf.mem());
        args.set("d", d_buf.mem());
        args.set("done", done.mem());
        args.set("rows", rows.mem());
        args.set("m", cl_uint(c.m));
        args.set("n", cl_uint(c.n));
        args.set("k", cl_uint(c.k));
        args.set("a_pitch", cl_uint(ops.as.pitch));
        args.set("b_pitch", cl_uint(ops.bs.pitch));
        args.set("d_pitch", cl_uint(c.d_pitch));
        args.set("tiles_n", cl_uint(c.tiles_n));
        const size_t local = size_t(c.sgs) * kSubGroup, global = size_t(c.groups) * kSubGroup;
        runNDRange(ctx, args, 1, &global, &local);
    }
};

// Every D element against the host GEMM, and the pitch gap of every D row.
void checkD(const GemmCase& c, const GemmExpectation& want, const std::vector<uint8_t>& d, MismatchLog& log) {
    for (uint32_t i = 0; i < c.m; ++i) {
        for (uint32_t j = 0; j < c.n; ++j)
            checkElement(c.f, want, c.m, c.n, i, j,
                         loadBits(d.data() + size_t(i) * c.d_pitch + size_t(j) * c.db, c.db), log);
        // Past Memory Width the store drops elements: the pitch gap keeps its poison.
        for (uint32_t x = c.n * c.db; x < c.d_pitch; ++x) {
            log.checked();
            if (d[size_t(i) * c.d_pitch + x] != 0xA5)
                log.add("D row " + std::to_string(i) + " byte " + std::to_string(x) +
                            " past Memory Width (out-of-bounds store must be dropped)",
                        0xA5, d[size_t(i) * c.d_pitch + x], 1);
        }
    }
}

class Gemm2dFamily : public Family {
public:
    std::string name() const override { return "workloads_gemm_2d"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema = schemaOf(fields());
        return schema;
    }

    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        const GemmCase c(spec.params);
        std::mt19937_64 rng(ctx.seed);
        const GemmOperands ops(c, rng);
        Gemm2dLaunch launch(ctx, spec, c, ops);
        launch.run(ctx, spec, c, ops);
        const std::vector<uint8_t> d = launch.d_buf.read();
        dumpBytes(ctx, "a", ops.as.bytes.data(), ops.as.bytes.size());
        dumpBytes(ctx, "b", ops.bs.bytes.data(), ops.bs.bytes.size());
        dumpBytes(ctx, "d", d.data(), d.size());

        MismatchLog log(
            c.f.integer ? "GEMM D = A * B: integer MMA results are the low-order bits of the exact sum"
            : c.data == "exact"
                ? "GEMM D = A * B: every partial sum of this data is exact, so every order gives D"
                : "GEMM D = A * B within (K + 2)(T + 1) eps sum|a b| (implementation-defined "
                  "float order and rounding)");
        const GemmExpectation want =
            hostGemm(c.f, c.is_signed, c.data == "exact", c.m, c.n, c.k, ops.a, ops.b);
        checkD(c, want, d, log);
        if (c.epilogue) checkRows(c, want, launch.rows.read(), log);
        checkDoneRecords(launch.done.read(), DoneLayout{c.groups / c.sgs, c.sgs, kSubGroup}, log);
        for (const GuardedBuffer* g :
             {&launch.a_buf, &launch.b_buf, &launch.d_buf, &launch.done, &launch.rows})
            if (std::string bad = g->checkGuards(); !bad.empty()) log.addLine(bad);
        Outcome out = log.outcome();
        if (out.status != Status::Pass) out.message = c.str() + "\n" + out.message;
        return out;
    }

private:
    // Row r of tile (tm, tn) reduced over the tile's 16 columns, columns past n (zero-filled loads) as 0:
    // int32 wrapping sum, float maximum (exact in any order; the interval comes from the D bounds).
    static void checkRows(const GemmCase& c, const GemmExpectation& want, const std::vector<uint8_t>& rows,
                          MismatchLog& log) {
        const FormatInfo& f = c.f;
        const uint32_t m = c.m, n = c.n, tiles_n = c.tiles_n, groups = c.groups, row_slots = c.row_slots;
        for (uint32_t slot = 0; slot < row_slots; ++slot) {
            const uint32_t i = slot / tiles_n, tn = slot % tiles_n;
            if ((i / kTileM) * tiles_n + tn >= groups) continue;  // no sub-group computes this tile
            uint32_t sum = 0;
            double lo = -INFINITY, hi = -INFINITY;
            for (uint32_t c = 0; c < kTileN; ++c) {
                const uint32_t j = tn * kTileN + c;
                const bool inside = i < m && j < n;
                const double v = inside ? want.value[size_t(i) * n + j] : 0.0;
                const double bound = inside ? want.bound[size_t(i) * n + j] : 0.0;
                sum += uint32_t(int32_t(v));
                lo = std::max(lo, v - bound);
                hi = std::max(hi, v + bound);
            }
            const uint32_t got = loadBits(rows.data() + 4 * size_t(slot), 4);
            const std::string where =
                "epilogue row " + std::to_string(i) + " of tile column " + std::to_string(tn);
            log.checked();
            if (f.integer) {
                if (got != sum) log.add(where + " (ShuffleXor butterfly sum)", sum, got, 4);
                continue;
            }
            const double v = decodeAccumulator(f, got);
            if (!(v >= lo && v <= hi)) {
                char text[160];
                std::snprintf(text, sizeof text,
                              " (ShuffleXor butterfly max): expected in [%a, %a], actual 0x%08x (%a)", lo, hi,
                              got, v);
                log.addLine(where + text);
            }
        }
    }
};

}  // namespace

std::unique_ptr<Family> makeGemm2dFamily() {
    return std::make_unique<Gemm2dFamily>();
}

}  // namespace cts::workloads
