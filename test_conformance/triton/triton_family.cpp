// triton.*: modules compiled by Triton's Intel backend (spirv_new_assets/triton/, unmodified), launched as
// Triton's launcher launches them (arguments in Triton's order, the local buffer it appends when the kernel
// uses shared memory, work-group num_warps x threads_per_warp, global grid x work-group, the build options
// Triton records) and judged by plain host loops (docs/triton.md, "Cases").
//
// triton.gemm: C = A * B, A M x K and B K x N fp16 or bf16, C fp32, every matrix row-major at a pitch 16
// elements wider than its rows (the padding keeps its poison; a device that ignores the pitch reads the
// wrong rows). The data are multiples of 1/32 in [-2, 2]: every product and every partial sum is exact in
// fp32, so every order of accumulation gives the same C and C is compared for equality.
// triton.rows: copy and row max exact; row sum within n * eps * sum|x|; softmax within (n + 16) * eps of
// each value (exp, the subtraction of the maximum, the n-term sum and the division).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <random>

#include "test_common/harness/launch/kernel_util.h"
#include "test_common/harness/model/mismatch.h"
#include "test_common/harness/model/param_fields.h"
#include "test_conformance/families.h"
#include "test_conformance/triton/families.h"

namespace cts::triton {
namespace {

constexpr uint8_t kPoison = 0xA5;
constexpr double kEps = 1.0 / (1 << 23);  // fp32 unit roundoff x 2 (ulp of 1)

uint32_t cdiv(uint32_t a, uint32_t b) {
    return (a + b - 1) / b;
}

// The launch facts the generator copies from kernels.json into every case, then the problem.
struct GemmParams {
    std::string module_name, kind, build_options, dtype;
    uint32_t num_warps = 0, threads_per_warp = 0, shared_bytes = 0;
    uint32_t m = 0, n = 0, k = 0, block_m = 0, block_n = 0, block_k = 0;
};

struct RowsParams {
    std::string module_name, kind, build_options;
    uint32_t num_warps = 0, threads_per_warp = 0, shared_bytes = 0, block = 0;
    std::optional<uint32_t> rows, cols, row_stride, n_elements;
};

// The launch facts' rows, first in both tables, then the problem's (the order of the schema).
template <class P>
ParamFields<P> withLaunchFields(std::initializer_list<ParamField<P>> problem) {
    ParamFields<P> fields{{"module_name", &P::module_name},           {"kind", &P::kind},
                          {"build_options", &P::build_options},       {"num_warps", &P::num_warps},
                          {"threads_per_warp", &P::threads_per_warp}, {"shared_bytes", &P::shared_bytes}};
    fields.insert(fields.end(), problem);
    return fields;
}

const ParamFields<GemmParams>& gemmFields() {
    using P = GemmParams;
    static const ParamFields<P> fields = withLaunchFields<P>({{"dtype", &P::dtype},
                                                              {"m", &P::m},
                                                              {"n", &P::n},
                                                              {"k", &P::k},
                                                              {"block_m", &P::block_m},
                                                              {"block_n", &P::block_n},
                                                              {"block_k", &P::block_k}});
    return fields;
}

const ParamFields<RowsParams>& rowsFields() {
    using P = RowsParams;
    static const ParamFields<P> fields = withLaunchFields<P>({{"rows", &P::rows},
                                                              {"cols", &P::cols},
                                                              {"row_stride", &P::row_stride},
                                                              {"n_elements", &P::n_elements},
                                                              {"block", &P::block}});
    return fields;
}

uint16_t toBf16(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return uint16_t(bits >> 16);  // exact: the data have at most 8 significant bits
}

// An fp32 value with at most 11 significant bits, |v| in [2^-14, 65504] or 0, as fp16 bits.
uint16_t toHalf(float v) {
    if (v == 0) return 0;
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    uint16_t sign = uint16_t((bits >> 16) & 0x8000);
    int exp = int((bits >> 23) & 0xFF) - 127 + 15;
    uint16_t mant = uint16_t((bits >> 13) & 0x3FF);
    return uint16_t(sign | (exp << 10) | mant);
}

float loadFloat(const uint8_t* p) {
    float v;
    std::memcpy(&v, p, 4);
    return v;
}

std::string fmt(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

void checkPadding(const std::vector<uint8_t>& bytes, size_t rows, size_t row_bytes, size_t pitch_bytes,
                  const char* what, MismatchLog& log) {
    for (size_t r = 0; r < rows; ++r)
        for (size_t b = row_bytes; b < pitch_bytes; ++b)
            if (bytes[r * pitch_bytes + b] != kPoison) {
                log.addLine(std::string(what) + ": row " + std::to_string(r) + " byte " + std::to_string(b) +
                            " past the row's data was written (padding must keep its poison)");
                return;
            }
}

// The per-value check of both families: `have` against `want`, bit for bit as fp32 (kBitForBit) or within
// `bound`; a mismatch is logged under where() (built only then). Returns whether it matched.
constexpr double kBitForBit = -1;

template <class Where>
bool checkValue(MismatchLog& log, Where where, double want, float have, double bound) {
    log.checked();
    const float want_f = float(want);
    uint32_t want_bits, have_bits;
    std::memcpy(&want_bits, &want_f, 4);
    std::memcpy(&have_bits, &have, 4);
    const bool ok = bound == kBitForBit ? want_bits == have_bits : std::fabs(double(have) - want) <= bound;
    if (!ok) log.addFloat(where(), want, have, want_bits, have_bits, 4);
    return ok;
}

// Every buffer's guard bytes, each overwritten run a line of the log.
void checkGuards(std::initializer_list<const GuardedBuffer*> buffers, MismatchLog& log) {
    for (const GuardedBuffer* g : buffers)
        if (std::string bad = g->checkGuards(); !bad.empty()) log.addLine(bad);
}

template <class P>
void launch(RunContext& ctx, const KernelArgs& args, const P& p, uint32_t grid) {
    const size_t local = size_t(p.num_warps) * p.threads_per_warp;
    const size_t global = size_t(grid) * local;
    runNDRange(ctx, args, 1, &global, &local);
}

class GemmFamily : public Family {
public:
    std::string name() const override { return "triton.gemm"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema = schemaOf(gemmFields());
        return schema;
    }
    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        const GemmParams p = readFields(spec.params, gemmFields());
        const bool bf16 = p.dtype == "bf16";
        if (!bf16 && p.dtype != "fp16") throw InternalError("triton.gemm: dtype " + p.dtype);
        const uint32_t m = p.m, n = p.n, k = p.k;
        // Pitches in elements: 16 wider than the rows (Triton specialised the strides as multiples of 16).
        const uint32_t lda = k + 16, ldb = n + 16, ldc = n + 16;
        std::mt19937_64 rng(ctx.seed);
        std::uniform_int_distribution<int> dist(-64, 64);
        std::vector<float> a(size_t(m) * k), b(size_t(k) * n);
        for (float& v : a) v = float(dist(rng)) / 32.0f;
        for (float& v : b) v = float(dist(rng)) / 32.0f;
        std::vector<uint16_t> a_bits(size_t(m) * lda, 0x7E00), b_bits(size_t(k) * ldb, 0x7E00);  // NaN gaps
        for (uint32_t i = 0; i < m; ++i)
            for (uint32_t j = 0; j < k; ++j)
                a_bits[size_t(i) * lda + j] =
                    bf16 ? toBf16(a[size_t(i) * k + j]) : toHalf(a[size_t(i) * k + j]);
        for (uint32_t i = 0; i < k; ++i)
            for (uint32_t j = 0; j < n; ++j)
                b_bits[size_t(i) * ldb + j] =
                    bf16 ? toBf16(b[size_t(i) * n + j]) : toHalf(b[size_t(i) * n + j]);

        KernelHandle kernel = createKernel(ctx, spec.module, spec.kernel, p.build_options);
        GuardedBuffer a_buf(ctx, a_bits.size() * 2, 4096, kPoison),
            b_buf(ctx, b_bits.size() * 2, 4096, kPoison), c_buf(ctx, size_t(m) * ldc * 4, 4096, kPoison);
        a_buf.write(a_bits.data(), a_bits.size() * 2);
        b_buf.write(b_bits.data(), b_bits.size() * 2);
        KernelArgs args(kernel, spec);
        args.set("a_ptr", a_buf.mem());
        args.set("b_ptr", b_buf.mem());
        args.set("c_ptr", c_buf.mem());
        args.set("M", cl_uint(m));
        args.set("N", cl_uint(n));
        args.set("K", cl_uint(k));
        args.set("stride_am", cl_uint(lda));
        args.set("stride_bk", cl_uint(ldb));
        args.set("stride_cm", cl_uint(ldc));
        if (p.shared_bytes) args.setLocal("shared_memory", p.shared_bytes);
        launch(ctx, args, p, cdiv(m, p.block_m) * cdiv(n, p.block_n));
        const std::vector<uint8_t> c = c_buf.read();
        dumpBytes(ctx, "c", c.data(), c.size());

        MismatchLog log(
            "C = A * B: every product and partial sum of this data is exact in fp32, so C is exact");
        const GridShape grid{"C (M x N)", m, n};
        for (uint32_t i = 0; i < m; ++i)
            for (uint32_t j = 0; j < n; ++j) {
                float want = 0;  // fp32 sums in K order, each exact for this data
                for (uint32_t q = 0; q < k; ++q) want += a[size_t(i) * k + q] * b[size_t(q) * n + j];
                const float got = loadFloat(c.data() + (size_t(i) * ldc + j) * 4);
                const auto where = [&] { return "C[" + std::to_string(i) + "][" + std::to_string(j) + "]"; };
                if (!checkValue(log, where, want, got, kBitForBit)) log.mark(grid, i, j, fmt(want), fmt(got));
            }
        checkPadding(c, m, size_t(n) * 4, size_t(ldc) * 4, "C", log);
        checkGuards({&a_buf, &b_buf, &c_buf}, log);
        Outcome out = log.outcome();
        if (out.status != Status::Pass)
            out.message = p.module_name + ": " + p.dtype + " GEMM " + std::to_string(m) + " x " +
                          std::to_string(n) + " x " + std::to_string(k) + "\n" + out.message;
        return out;
    }
};

// copy: out[i] = x[i] bit for bit, i < n_elements.
Outcome runCopy(RunContext& ctx, const RowsParams& p, KernelArgs& args, std::mt19937_64& rng,
                std::uniform_real_distribution<float>& dist) {
    const uint32_t n = p.n_elements.value_or(0);
    std::vector<float> x(n);
    for (float& v : x) v = dist(rng);
    GuardedBuffer in(ctx, size_t(n) * 4, 4096, kPoison), out(ctx, size_t(n) * 4, 4096, kPoison);
    in.write(x.data(), x.size() * 4);
    args.set("out_ptr", out.mem());
    args.set("in_ptr", in.mem());
    args.set("n_elements", cl_uint(n));
    launch(ctx, args, p, cdiv(n, p.block));
    const std::vector<uint8_t> got = out.read();
    MismatchLog log("out[i] = x[i], i < n_elements: bit for bit");
    for (uint32_t i = 0; i < n; ++i) {
        const auto where = [&] { return "out[" + std::to_string(i) + "]"; };
        checkValue(log, where, x[i], loadFloat(got.data() + size_t(i) * 4), kBitForBit);
    }
    checkGuards({&in, &out}, log);
    return log.outcome();
}

// Row max (exact), row sum (within n * eps * sum |x|) or softmax (within (n + 16) * eps of each value) of
// each row of x against what the kernel wrote.
void checkRows(const RowsParams& p, const std::vector<float>& x, const std::vector<uint8_t>& got,
               MismatchLog& log) {
    const uint32_t rows = p.rows.value_or(0), cols = p.cols.value_or(0), stride = p.row_stride.value_or(0);
    const bool softmax = p.kind == "softmax";
    for (uint32_t r = 0; r < rows; ++r) {
        const float* row = &x[size_t(r) * stride];
        double mx = -INFINITY, sum = 0, abs_sum = 0;
        for (uint32_t c = 0; c < cols; ++c) {
            mx = std::max(mx, double(row[c]));
            sum += row[c];
            abs_sum += std::fabs(row[c]);
        }
        if (!softmax) {
            const double bound = p.kind == "row_max" ? 0.0 : double(cols) * kEps * abs_sum;
            const auto where = [&] { return "out[" + std::to_string(r) + "] (bound " + fmt(bound) + ")"; };
            checkValue(log, where, p.kind == "row_max" ? mx : sum, loadFloat(got.data() + size_t(r) * 4),
                       bound);
            continue;
        }
        double denom = 0;
        for (uint32_t c = 0; c < cols; ++c) denom += std::exp(double(row[c]) - mx);
        for (uint32_t c = 0; c < cols; ++c) {
            const double want = std::exp(double(row[c]) - mx) / denom;
            const double bound = (double(cols) + 16) * kEps * want;
            const auto where = [&] {
                return "out[" + std::to_string(r) + "][" + std::to_string(c) + "] (bound " + fmt(bound) + ")";
            };
            checkValue(log, where, want, loadFloat(got.data() + (size_t(r) * stride + c) * 4), bound);
        }
    }
}

class RowsFamily : public Family {
public:
    std::string name() const override { return "triton.rows"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema = schemaOf(rowsFields());
        return schema;
    }
    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        const RowsParams p = readFields(spec.params, rowsFields());
        std::mt19937_64 rng(ctx.seed);
        std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
        KernelHandle kernel = createKernel(ctx, spec.module, spec.kernel, p.build_options);
        KernelArgs args(kernel, spec);
        if (p.kind == "copy") return runCopy(ctx, p, args, rng, dist);
        const uint32_t rows = p.rows.value_or(0), cols = p.cols.value_or(0),
                       stride = p.row_stride.value_or(0);
        std::vector<float> x(size_t(rows) * stride, std::nanf(""));  // the gaps are NaN: reading one shows
        for (uint32_t r = 0; r < rows; ++r)
            for (uint32_t c = 0; c < cols; ++c) x[size_t(r) * stride + c] = dist(rng);
        const bool softmax = p.kind == "softmax";
        const size_t out_floats = softmax ? size_t(rows) * stride : rows;
        GuardedBuffer in(ctx, x.size() * 4, 4096, kPoison), out(ctx, out_floats * 4, 4096, kPoison);
        in.write(x.data(), x.size() * 4);
        args.set("out_ptr", out.mem());
        args.set("in_ptr", in.mem());
        args.set("in_row_stride", cl_uint(stride));
        if (softmax) args.set("out_row_stride", cl_uint(stride));
        args.set("n_cols", cl_uint(cols));
        if (p.shared_bytes) args.setLocal("shared_memory", p.shared_bytes);
        launch(ctx, args, p, rows);
        const std::vector<uint8_t> got = out.read();
        dumpBytes(ctx, "out", got.data(), got.size());

        MismatchLog log(p.kind == "row_max"   ? "out[r] = max_c x[r][c]: exact"
                        : p.kind == "row_sum" ? "out[r] = sum_c x[r][c] within n * eps * sum_c |x[r][c]|"
                                              : "softmax within (n + 16) * eps of each value");
        checkRows(p, x, got, log);
        if (softmax) checkPadding(got, rows, size_t(cols) * 4, size_t(stride) * 4, "out", log);
        checkGuards({&in, &out}, log);
        Outcome o = log.outcome();
        if (o.status != Status::Pass) o.message = p.module_name + ": " + p.kind + "\n" + o.message;
        return o;
    }
};

}  // namespace

std::unique_ptr<Family> makeGemmFamily() {
    return std::make_unique<GemmFamily>();
}
std::unique_ptr<Family> makeRowsFamily() {
    return std::make_unique<RowsFamily>();
}

}  // namespace cts::triton
