// workloads.gemm_2d.*: the Xe-HPC-like GEMM tile kernel (2D block load of A, load-transform or load-transpose
// of B, optional prefetch, MMA chained over K, 2D block store of D, optional shuffle-butterfly row epilogue;
// see scripts/generators/workloads.py for the kernel ABI). D is checked element by element against the plain
// host GEMM, the pitch gaps and rows past m of D must keep their poison, and every work-item's done record
// must be there.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "test_common/harness/done_record.h"
#include "test_common/harness/kernel_util.h"
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

class Gemm2dFamily : public Family {
public:
    std::string name() const override { return "workloads_gemm_2d"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema{
            {"format", ParamType::String}, {"b_layout", ParamType::String},
            {"signed", ParamType::Bool},   {"prefetch", ParamType::Bool},
            {"epilogue", ParamType::Bool}, {"data", ParamType::String},
            {"m", ParamType::UInt},        {"n", ParamType::UInt},
            {"k", ParamType::UInt},        {"sub_groups_per_work_group", ParamType::UInt}};
        return schema;
    }

    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        const Params& p = spec.params;
        const FormatInfo& f = gemmFormat(p.s("format"));
        const bool is_signed = p.b("signed"), col_major_b = p.s("b_layout") == "col_major";
        const bool epilogue = p.b("epilogue");
        const std::string data = p.s("data");
        const uint32_t m = uint32_t(p.u("m")), n = uint32_t(p.u("n")), k = uint32_t(p.u("k"));
        const uint32_t sgs = uint32_t(p.u("sub_groups_per_work_group"));
        const unsigned eb = f.element_bytes, db = f.accumulator_bytes;
        std::mt19937_64 rng(ctx.seed);

        const std::vector<uint32_t> a = makeElements(f, data, size_t(m) * k, rng);
        const std::vector<uint32_t> b = makeElements(f, data, size_t(k) * n, rng);
        Surface as(k * eb, m, rng), bs(col_major_b ? k * eb : n * eb, col_major_b ? n : k, rng);
        for (uint32_t i = 0; i < m; ++i)
            for (uint32_t t = 0; t < k; ++t) as.put(i, t, a[size_t(i) * k + t], eb);
        for (uint32_t t = 0; t < k; ++t)
            for (uint32_t j = 0; j < n; ++j) {
                if (col_major_b)
                    bs.put(j, t, b[size_t(t) * n + j], eb);
                else
                    bs.put(t, j, b[size_t(t) * n + j], eb);
            }
        const uint32_t d_pitch = align(n * db, 64) + 64;
        const uint32_t tiles_m = (m + kTileM - 1) / kTileM, tiles_n = (n + kTileN - 1) / kTileN;
        const uint32_t groups = launchSubGroups(tiles_m * tiles_n, sgs);
        const uint32_t row_slots = (groups + tiles_n - 1) / tiles_n * kTileM * tiles_n;

        KernelHandle kernel = createKernel(ctx, spec.module, spec.kernel);
        GuardedBuffer a_buf(ctx, as.bytes.size()), b_buf(ctx, bs.bytes.size()),
            d_buf(ctx, size_t(d_pitch) * m), done(ctx, size_t(groups) * kSubGroup * 4),
            rows(ctx, size_t(row_slots) * 4);
        a_buf.write(as.bytes.data(), as.bytes.size());
        b_buf.write(bs.bytes.data(), bs.bytes.size());
        KernelArgs args(kernel, spec);
        args.set("a", a_buf.mem());
        args.set("b", b_buf.mem());
        args.set("d", d_buf.mem());
        args.set("done", done.mem());
        args.set("rows", rows.mem());
        args.set("m", cl_uint(m));
        args.set("n", cl_uint(n));
        args.set("k", cl_uint(k));
        args.set("a_pitch", cl_uint(as.pitch));
        args.set("b_pitch", cl_uint(bs.pitch));
        args.set("d_pitch", cl_uint(d_pitch));
        args.set("tiles_n", cl_uint(tiles_n));
        const size_t local = size_t(sgs) * kSubGroup, global = size_t(groups) * kSubGroup;
        runNDRange(ctx, args, 1, &global, &local);
        const std::vector<uint8_t> d = d_buf.read();
        dumpBytes(ctx, "a", as.bytes.data(), as.bytes.size());
        dumpBytes(ctx, "b", bs.bytes.data(), bs.bytes.size());
        dumpBytes(ctx, "d", d.data(), d.size());

        MismatchLog log(
            f.integer ? "GEMM D = A * B: integer MMA results are the low-order bits of the exact sum"
            : data == "exact"
                ? "GEMM D = A * B: every partial sum of this data is exact, so every order gives D"
                : "GEMM D = A * B within (K + 2)(T + 1) eps sum|a b| (implementation-defined "
                  "float order and rounding)");
        const GemmExpectation want = hostGemm(f, is_signed, data == "exact", m, n, k, a, b);
        for (uint32_t i = 0; i < m; ++i) {
            for (uint32_t j = 0; j < n; ++j)
                checkElement(f, want, m, n, i, j,
                             loadBits(d.data() + size_t(i) * d_pitch + size_t(j) * db, db), log);
            // Past Memory Width the store drops elements: the pitch gap keeps its poison.
            for (uint32_t x = n * db; x < d_pitch; ++x) {
                log.checked();
                if (d[size_t(i) * d_pitch + x] != 0xA5)
                    log.add("D row " + std::to_string(i) + " byte " + std::to_string(x) +
                                " past Memory Width (out-of-bounds store must be dropped)",
                            0xA5, d[size_t(i) * d_pitch + x], 1);
            }
        }
        if (epilogue) checkRows(f, want, m, n, tiles_n, groups, row_slots, rows.read(), log);
        checkDoneRecords(done.read(), DoneLayout{groups / sgs, sgs, kSubGroup}, log);
        for (const GuardedBuffer* g : {&a_buf, &b_buf, &d_buf, &done, &rows})
            if (std::string bad = g->checkGuards(); !bad.empty()) log.addLine(bad);
        Outcome out = log.outcome();
        if (out.status != Status::Pass)
            out.message = std::string(f.name) + " GEMM " + std::to_string(m) + " x " + std::to_string(n) +
                          " x " + std::to_string(k) + (col_major_b ? ", column-major B" : ", row-major B") +
                          "\n" + out.message;
        return out;
    }

private:
    // Row r of tile (tm, tn) reduced over the tile's 16 columns, columns past n (zero-filled loads) as 0:
    // int32 wrapping sum, float maximum (exact in any order; the interval comes from the D bounds).
    static void checkRows(const FormatInfo& f, const GemmExpectation& want, uint32_t m, uint32_t n,
                          uint32_t tiles_n, uint32_t groups, uint32_t row_slots,
                          const std::vector<uint8_t>& rows, MismatchLog& log) {
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
