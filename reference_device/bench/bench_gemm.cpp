// GEMM benchmark host: runs gemm_int8.spv (2D block loads, MMA, 2D block store; see its header) on the
// reference device's interpreter, checks C against a plain triple loop, and times the same int8 x int8 ->
// int32 GEMM as native C++ (i-k-j triple loop, the project's normal compiler flags, rows split over the
// threads). Both use REFDEV_THREADS threads (default 1). Prints multiply-accumulates per second of each and
// their ratio; run_gemm_bench.py runs it on 1 and 2 threads.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "reference_device/env_numbers.h"
#include "reference_device/profile.h"
#include "reference_device/spirv/program.h"

namespace {

// 64-byte aligned storage: the 2D block instructions require a cache-line aligned base.
template <typename T>
struct Aligned {
    explicit Aligned(size_t count) : size(count), data(static_cast<T*>(std::aligned_alloc(64, bytes()))) {
        std::memset(static_cast<void*>(data), 0, bytes());
    }
    ~Aligned() { std::free(data); }
    Aligned(const Aligned&) = delete;
    Aligned& operator=(const Aligned&) = delete;
    size_t bytes() const { return (size * sizeof(T) + 63) / 64 * 64; }
    size_t size;
    T* data;
};

struct Timing {
    double seconds = 0, cpu_seconds = 0;
};

template <typename F>
Timing timed(F&& f) {
    auto t0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    f();
    Timing t;
    t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    t.cpu_seconds = double(std::clock() - c0) / CLOCKS_PER_SEC;
    return t;
}

// The native competitor: a plain i-k-j triple loop over rows [row0, row1).
void nativeRows(const int8_t* a, const int8_t* b, int32_t* c, size_t row0, size_t row1, size_t n, size_t k) {
    for (size_t i = row0; i < row1; ++i) {
        int32_t* ci = c + i * n;
        for (size_t j = 0; j < n; ++j) ci[j] = 0;
        for (size_t p = 0; p < k; ++p) {
            const int32_t aip = a[i * k + p];
            const int8_t* bp = b + p * n;
            for (size_t j = 0; j < n; ++j) ci[j] += aip * bp[j];
        }
    }
}

void nativeGemm(const int8_t* a, const int8_t* b, int32_t* c, size_t m, size_t n, size_t k,
                unsigned threads) {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back(nativeRows, a, b, c, m * t / threads, m * (t + 1) / threads, n, k);
    for (std::thread& t : pool) t.join();
}

// The check: C[i][j] = sum over p of A[i][p] * B[p][j], written as the definition (i-j-k).
int verify(const int8_t* a, const int8_t* b, const int32_t* c, size_t m, size_t n, size_t k,
           const char* who) {
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) {
            int32_t sum = 0;
            for (size_t p = 0; p < k; ++p) sum += int32_t(a[i * k + p]) * int32_t(b[p * n + j]);
            if (c[i * n + j] != sum) {
                std::fprintf(stderr, "%s: wrong result at C[%zu][%zu]: got %d, expected %d\n", who, i, j,
                             c[i * n + j], sum);
                return 1;
            }
        }
    return 0;
}

std::vector<uint32_t> readWords(const char* path) {
    std::ifstream f(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    return words;
}

refdev::spirv::ArgValue buffer(void* base, size_t bytes) {
    refdev::spirv::ArgValue v;
    v.kind = refdev::spirv::ArgKind::GlobalBuffer;
    v.base = static_cast<uint8_t*>(base);
    v.size = bytes;
    return v;
}

refdev::spirv::ArgValue scalar(uint32_t x) {
    refdev::spirv::ArgValue v;
    v.bytes.resize(4);
    std::memcpy(v.bytes.data(), &x, 4);
    return v;
}

void report(const char* who, unsigned threads, const Timing& t, double macs) {
    std::printf("%s: threads=%u seconds=%.4f cpu_seconds=%.4f macs_per_s=%.4g\n", who, threads, t.seconds,
                t.cpu_seconds, macs / t.seconds);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: %s <gemm_int8.spv> <M> <N> <K>   (threads: REFDEV_THREADS, default 1)\n",
                     argv[0]);
        return 2;
    }
    const uint32_t m = uint32_t(std::strtoul(argv[2], nullptr, 10)),
                   n = uint32_t(std::strtoul(argv[3], nullptr, 10)),
                   k = uint32_t(std::strtoul(argv[4], nullptr, 10));
    if (!m || m % 8 || n < 64 || n % 64 || k < 64 || k % 32) {
        std::fprintf(stderr, "M must be a multiple of 8, N of 64, K of 32 (N, K >= 64)\n");
        return 2;
    }
    unsigned threads = 0;
    if (std::string e = refdev::threadsFromEnv(threads); !e.empty()) {
        std::fprintf(stderr, "%s\n", e.c_str());
        return 2;
    }
    if (threads == 0) threads = 1;

    std::string err;
    const refdev::Profile* profile = refdev::profileFromEnv(&err);
    if (!profile) {
        std::fprintf(stderr, "%s\n", err.c_str());
        return 2;
    }
    const std::vector<uint32_t> words = readWords(argv[1]);
    auto built = refdev::spirv::buildModule(words.data(), words.size(), *profile);
    if (!built.module) {
        std::fprintf(stderr, "build failed:\n%s", built.log.c_str());
        return 1;
    }

    Aligned<int8_t> a(size_t(m) * k), b(size_t(k) * n);
    Aligned<int32_t> c(size_t(m) * n), native(size_t(m) * n);
    std::mt19937 rng(12345);
    std::uniform_int_distribution<int> byte(-128, 127);
    for (size_t i = 0; i < a.size; ++i) a.data[i] = int8_t(byte(rng));
    for (size_t i = 0; i < b.size; ++i) b.data[i] = int8_t(byte(rng));

    refdev::spirv::NDRange range;
    range.dims = 2;
    range.global[0] = n, range.global[1] = m / 8;
    range.local[0] = 64, range.local[1] = 1;
    const std::vector<refdev::spirv::ArgValue> args = {buffer(a.data, a.bytes()),
                                                       buffer(b.data, b.bytes()),
                                                       buffer(c.data, c.bytes()),
                                                       scalar(m),
                                                       scalar(n),
                                                       scalar(k)};
    refdev::Faults faults;
    refdev::spirv::LaunchResult r;
    const Timing dev = timed(
        [&] { r = refdev::spirv::launch(*built.module, "gemm", args, range, *profile, faults, threads); });
    if (!r.ok) {
        std::fprintf(stderr, "launch failed: %s\n", r.error.c_str());
        return 1;
    }
    const Timing host = timed([&] { nativeGemm(a.data, b.data, native.data, m, n, k, threads); });
    // A benchmark of a wrong result means nothing: both results must be the GEMM.
    if (verify(a.data, b.data, c.data, m, n, k, "refdev") ||
        verify(a.data, b.data, native.data, m, n, k, "native"))
        return 1;

    const double macs = double(m) * n * k;
    std::printf("gemm: M=%u N=%u K=%u int8 x int8 -> int32 macs=%.0f (checked)\n", m, n, k, macs);
    report("refdev", threads, dev, macs);
    report("native", threads, host, macs);
    std::printf("ratio: threads=%u refdev/native=%.4f\n", threads, host.seconds / dev.seconds);
    return 0;
}
