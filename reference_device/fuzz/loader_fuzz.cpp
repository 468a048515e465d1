// Fuzz target for the SPIR-V loader (buildModule). Built two ways:
//  - with clang and -fsanitize=fuzzer (REFDEV_LIBFUZZER defined): a libFuzzer target;
//  - otherwise: a standalone driver running a deterministic mutation loop (bit flips, truncation, word
//    replacement, word-count edits, chunk deletion/duplication) over seed modules for N iterations or
//    T seconds. A watchdog aborts if one build takes longer than 5 seconds (a loop on malformed input).
//    With --launch, every kernel of a module that builds also runs (small buffers, a branch budget).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "reference_device/fuzz/fuzz_mutate.h"
#include "reference_device/spirv/module.h"
#include "reference_device/spirv/opencl_capabilities.h"
#include "reference_device/spirv/program.h"
#include "reference_device/spirv/tokens.h"

namespace {

const refdev::Profile& fuzzProfile() {
    static const refdev::Profile p = [] {
        refdev::Profile p;
        p.name = "fuzz";
        p.sub_group_sizes = {16, 32};
        p.spirv_extensions = {"SPV_INTEL_subgroups"};
        p.spirv_capabilities = refdev::openclBaseCapabilities();
        return p;
    }();
    return p;
}

bool g_launch = false;  // also run every kernel of modules that build (standalone driver option)

// Runs a kernel with small buffers for every argument; any outcome but a crash or hang is fine.
void launchAll(const refdev::spirv::Module& m) {
    using namespace refdev::spirv;
    static std::vector<uint8_t> memory(1 << 16);
    static refdev::Faults faults;
    for (const KernelInfo& k : kernels(m)) {
        std::vector<ArgValue> args;
        size_t used = 0;
        for (const KernelArgInfo& a : k.args) {
            ArgValue v;
            v.kind = a.kind;
            switch (a.kind) {
                case ArgKind::GlobalBuffer:
                case ArgKind::ConstantBuffer:
                    v.base = memory.data() + used;
                    v.size = 1024;
                    used += 1024;
                    break;
                case ArgKind::LocalBuffer: v.size = 256; break;
                case ArgKind::Image:
                    v.image.data = memory.data() + 32768;
                    v.image.width = v.image.height = 16;
                    v.image.row_pitch = 64;
                    v.image.texel_bytes = 4;
                    break;
                default: v.bytes.assign(a.size, 0); break;
            }
            if (used > 30000) return;
            args.push_back(std::move(v));
        }
        NDRange r;
        r.global[0] = 40;
        r.local[0] = 20;
        (void)launch(m, k.name, args, r, fuzzProfile(), faults, 1, 2000);
    }
}

size_t buildOnce(const uint32_t* words, size_t count) {
    refdev::spirv::BuildResult r = refdev::spirv::buildModule(words, count, fuzzProfile());
    if (r.module) {
        // Reflection must be consistent for anything that built.
        for (const auto& k : refdev::spirv::kernels(*r.module))
            (void)refdev::spirv::subGroupSize(*r.module, k.name, fuzzProfile());
        if (g_launch) launchAll(*r.module);
    } else if (r.log.empty()) {
        std::fprintf(stderr, "loader rejected a module without a log line\n");
        std::abort();
    }
    return r.module ? 1 : 0;
}

}  // namespace

#ifdef REFDEV_LIBFUZZER
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::vector<uint32_t> words(size / 4);
    if (!words.empty()) std::memcpy(words.data(), data, words.size() * 4);
    buildOnce(words.data(), words.size());
    return 0;
}
#else

namespace {

using refdev::fuzz::readWords;
using refdev::fuzz::Rng;

void mutate(std::vector<uint32_t>& w, Rng& rng) {
    refdev::fuzz::mutateWords(w, rng);
}

}  // namespace

int main(int argc, char** argv) {
    long iterations = 0;
    double seconds = 10;
    uint64_t seed = 1;
    std::vector<std::vector<uint32_t>> seeds;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a.rfind("--iterations=", 0) == 0)
            iterations = std::atol(a.c_str() + 13);
        else if (a.rfind("--seconds=", 0) == 0)
            seconds = std::atof(a.c_str() + 10);
        else if (a.rfind("--seed=", 0) == 0)
            seed = std::strtoull(a.c_str() + 7, nullptr, 10);
        else if (a == "--launch")
            g_launch = true;
        else if (a.rfind("--", 0) == 0) {
            std::fprintf(stderr,
                         "usage: %s [--iterations=N] [--seconds=T] [--seed=S] [--launch] module.spv...\n",
                         argv[0]);
            return 2;
        } else {
            seeds.push_back(readWords(argv[i]));
            if (seeds.back().empty()) {
                std::fprintf(stderr, "cannot read seed module %s\n", argv[i]);
                return 2;
            }
        }
    }
    if (seeds.empty()) {
        std::fprintf(stderr, "no seed modules given\n");
        return 2;
    }
    std::atomic<int64_t> started_ms{-1};
    std::atomic<bool> done{false};
    const auto t0 = std::chrono::steady_clock::now();
    auto now_ms = [&] {
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    };
    std::thread watchdog([&] {
        while (!done) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            int64_t s = started_ms;
            if (s >= 0 && now_ms() - s > 5000) {
                std::fprintf(stderr, "watchdog: one build (and launch) ran for more than 5 s (hang)\n");
                std::abort();
            }
        }
    });
    Rng rng{seed * 0x9e3779b97f4a7c15ull + 1};
    long n = 0, built = 0;
    size_t seed_built = 0;
    for (auto& s : seeds) seed_built += buildOnce(s.data(), s.size());
    for (; (iterations == 0 || n < iterations) && (iterations != 0 || now_ms() < seconds * 1000); ++n) {
        std::vector<uint32_t> w = seeds[rng.below(uint32_t(seeds.size()))];
        for (uint32_t k = 1 + rng.below(4); k > 0; --k) mutate(w, rng);
        started_ms = now_ms();
        built += buildOnce(w.data(), w.size());
        started_ms = -1;
    }
    done = true;
    watchdog.join();
    std::printf(
        "loader fuzz: %ld mutated modules in %.1f s (%ld still built; %zu of %zu seeds build), no crash\n", n,
        now_ms() / 1000.0, built, seed_built, seeds.size());
    return 0;
}
#endif
