// Device-level fuzz target: builds AND launches mutated SPIR-V modules on the reference device under its real
// profiles (CTest runs xe_hpc, xe_hpg and cpu, the one with sub-group sizes 4 and 64), whose Intel
// capabilities make the op families (2D block IO, MMA, media block IO, sub-groups) reachable;
// refdev_loader_fuzz's own profile has none of them.
//
// It calls the interpreter API the ICD's clBuildProgram / clEnqueueNDRangeKernel call (buildModule, launch
// with allProfiles() profiles) directly, so that one process covers both profiles (the ICD picks its profile
// once per process) and sees the interpreter's own results; refdev_icd_fuzz (icd_fuzz.cpp) runs the same
// mutations through the OpenCL API, one process per profile.
//
// A standalone mutation driver (any compiler), like refdev_loader_fuzz. Seeds are the .spv files found at
// run time under the given directories (the suite's modules: <build>/assets/modules) or given as files. Per
// profile it keeps the seeds that build, then for --seconds (or --iterations) mutates one (structure-aware:
// constants, operands, extension opcodes; and the loader fuzz's word mutations), builds it and launches
// every kernel with a small NDRange, generously sized buffers, images for image arguments, and a
// per-work-item branch budget. A watchdog stops the run if one input (build + launches) takes longer than
// --timeout seconds; a crash dies by its signal. Either way the input is written to --crash-dir first.
// Exit status: 0 no crash or hang; 1 hang; 2 bad usage or unusable seeds; a crash: its signal.
#include <CL/cl.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "reference_device/fuzz/fuzz_common.h"
#include "reference_device/fuzz/fuzz_driver.h"
#include "reference_device/profile.h"
#include "reference_device/spirv/module.h"
#include "reference_device/spirv/program.h"

namespace {

using refdev::Profile;
using refdev::fuzz::dumpCurrent;
using refdev::fuzz::g_current;
using refdev::fuzz::nowMs;
using refdev::fuzz::Rng;
namespace spirv = refdev::spirv;

using Options = refdev::fuzz::DriverOptions;
using refdev::fuzz::Stats;

// ---------------------------------------------------------------------------------------------------------
// Launching every kernel of a module.

// Fixed-size arenas reused by every launch (buffers and images stay well inside them), 4096-byte aligned like
// the ICD's allocations (2D block IO needs 64-byte aligned base addresses).
constexpr size_t kBufferBytes = 256 * 1024, kMaxBuffers = 16, kImageBytes = 128 * 1024, kMaxImages = 4;
uint8_t* aligned(std::vector<uint8_t>& v) {
    return v.data() + (4096 - uintptr_t(v.data()) % 4096) % 4096;
}
uint8_t* bufferArena() {
    static std::vector<uint8_t> a(kBufferBytes * kMaxBuffers + 4096);
    return aligned(a);
}
uint8_t* imageArena() {
    static std::vector<uint8_t> a(kImageBytes * kMaxImages + 4096);
    return aligned(a);
}

refdev::ImageDesc makeImage(uint8_t* data, Rng& rng) {
    refdev::ImageDesc d;
    const auto& formats = refdev::fuzz::imageFormats();
    const refdev::fuzz::ImageFormat& f = formats[rng.below(uint32_t(formats.size()))];
    static const size_t kSides[] = {1, 3, 16, 32, 64};
    d.width = kSides[rng.below(5)];
    d.height = kSides[rng.below(5)];
    d.texel_bytes = f.texel_bytes;
    d.channel_order = f.order;
    d.channel_type = f.type;
    d.from_buffer = rng.below(4) == 0;
    d.row_pitch = d.width * d.texel_bytes;
    if (d.from_buffer) d.row_pitch = (d.row_pitch + 63) / 64 * 64;
    d.data = data;
    for (size_t i = 0; i < d.row_pitch * d.height; ++i) data[i] = uint8_t(i * 7 + 3);
    return d;
}

struct LaunchOutcome {
    bool ran = false, ok = false;
    std::string error;
};

LaunchOutcome launchKernel(const spirv::Module& m, const spirv::KernelInfo& k, const Profile& profile,
                           const Options& opt, Rng& rng) {
    static const refdev::Faults kNoFaults;
    LaunchOutcome out;
    if (k.args.size() > kMaxBuffers) return out;
    std::vector<spirv::ArgValue> args;
    size_t buffers = 0, images = 0;
    const bool sane_values = rng.below(4) != 0;  // every scalar argument sane, or each one anything
    for (const spirv::KernelArgInfo& a : k.args) {
        spirv::ArgValue v;
        v.kind = a.kind;
        switch (a.kind) {
            case spirv::ArgKind::GlobalBuffer:
            case spirv::ArgKind::ConstantBuffer: {
                uint8_t* p = bufferArena() + kBufferBytes * buffers++;
                refdev::fuzz::fillBuffer(p, kBufferBytes, rng);
                v.base = rng.below(64) == 0 ? nullptr : p;  // now and then a NULL buffer argument
                v.size = v.base ? kBufferBytes : 0;
                break;
            }
            case spirv::ArgKind::LocalBuffer: v.size = 4096; break;
            case spirv::ArgKind::Image:
                if (images == kMaxImages) return out;
                v.image = makeImage(imageArena() + kImageBytes * images++, rng);
                break;
            case spirv::ArgKind::Sampler: {
                // As the ICD passes samplers: addressing mode, normalized coordinates, filter mode.
                const uint32_t words[3] = {rng.below(5), rng.below(2), rng.below(2)};
                v.bytes.assign(reinterpret_cast<const uint8_t*>(words),
                               reinterpret_cast<const uint8_t*>(words) + sizeof(words));
                break;
            }
            case spirv::ArgKind::Value:
                v.bytes.assign(std::max<uint32_t>(a.size, 1), 0);
                refdev::fuzz::fillValue(v.bytes, sane_values || rng.below(4) != 0, rng);
                break;
        }
        args.push_back(std::move(v));
    }
    // Small NDRanges: one or two work-groups of one or two sub-groups (the kernel's required size if it has
    // one), mostly uniform; now and then a partial work-group or a second dimension.
    const uint32_t sg = spirv::subGroupSize(m, k.name, profile);
    spirv::NDRange r;
    const uint32_t* reqd = k.reqd_work_group_size;
    if (reqd[0] || reqd[1] || reqd[2]) {
        size_t product = 1;
        for (int d = 0; d < 3; ++d) product *= std::max<uint32_t>(reqd[d], 1);
        if (product > 256) return out;
        r.dims = reqd[2] > 1 ? 3 : reqd[1] > 1 ? 2 : 1;
        for (uint32_t d = 0; d < r.dims; ++d) {
            r.local[d] = std::max<uint32_t>(reqd[d], 1);
            r.global[d] = r.local[d] * (d == 0 ? 1 + rng.below(2) : 1);
        }
    } else {
        r.dims = rng.below(8) == 0 ? 2 : 1;
        r.local[0] = size_t(std::max<uint32_t>(sg, 1)) * (1 + rng.below(2));
        r.global[0] = r.local[0] * (1 + rng.below(2));
        if (rng.below(16) == 0) r.global[0] += 1 + rng.below(uint32_t(r.local[0]));  // a partial group
        if (r.dims == 2) r.local[1] = 1 + rng.below(2), r.global[1] = r.local[1] * (1 + rng.below(2));
    }
    if (rng.below(16) == 0) r.offset[0] = rng.below(64);
    spirv::LaunchResult res = spirv::launch(m, k.name, args, r, profile, kNoFaults, 1, opt.branch_budget);
    out.ran = true;
    out.ok = res.ok;
    out.error = res.error;
    return out;
}

// Builds and launches one input; returns whether it built.
bool runInput(const std::vector<uint32_t>& words, const Profile& profile, const Options& opt, Stats* st,
              bool print) {
    g_current.words = words.data();
    g_current.word_count = words.size();
    g_current.kernel = -1;
    g_current.stage = "build";
    spirv::BuildResult b = spirv::buildModule(words.data(), words.size(), profile);
    if (!b.module) {
        if (b.log.empty()) {
            std::fprintf(stderr, "launch fuzz: a module was rejected without a build log line\n");
            dumpCurrent("empty build log");
            std::_Exit(1);
        }
        if (print) std::printf("  build failed: %s\n", b.log.substr(0, b.log.find('\n')).c_str());
        return false;
    }
    ++st->built;
    // Arguments and NDRange follow from the input's words, so that --replay repeats them.
    Rng rng{refdev::fuzz::hashWords(words) | 1};
    const auto& ks = spirv::kernels(*b.module);
    for (size_t i = 0; i < ks.size() && i < opt.max_kernels; ++i) {
        g_current.kernel = int(i);
        g_current.stage = "launch";
        (void)spirv::subGroupSize(*b.module, ks[i].name, profile);
        LaunchOutcome o = launchKernel(*b.module, ks[i], profile, opt, rng);
        if (!o.ran) {
            ++st->skipped;
            continue;
        }
        st->countLaunch(o.ok, o.error);
        if (print)
            std::printf("  kernel '%s': %s\n", ks[i].name.c_str(),
                        o.ok ? "ran" : o.error.substr(0, 300).c_str());
    }
    return true;
}

int usage(const char* argv0) {
    std::fprintf(
        stderr,
        "usage: %s [--profile=NAME|all] (NAME: a REFDEV_PROFILE value)... [--seconds=T per profile] "
        "[--iterations=N per "
        "profile]\n"
        "          [--seed=S] [--timeout=T per input] [--branch-budget=N] [--max-kernels=N]\n"
        "          [--crash-dir=DIR] [--replay] [--save-slowest] [--verbose] (DIR | module.spv)...\n"
        "Seeds: every .spv under each DIR (e.g. <build>/assets/modules), or the files given.\n"
        "--replay: run each module once as it is (no mutation), printing every launch.\n"
        "--save-slowest: write the slowest mutated input to DIR/launch_fuzz_<profile>_slowest.spv.\n",
        argv0);
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    if (!refdev::fuzz::parseDriverOptions(argc, argv, true, opt)) return usage(argv[0]);
    opt.profiles.erase(std::remove(opt.profiles.begin(), opt.profiles.end(), "all"), opt.profiles.end());
    std::vector<const Profile*> profiles;
    for (const Profile& p : refdev::allProfiles())
        if (opt.profiles.empty() || std::count(opt.profiles.begin(), opt.profiles.end(), p.name))
            profiles.push_back(&p);
    if (profiles.size() != (opt.profiles.empty() ? refdev::allProfiles().size() : opt.profiles.size())) {
        std::fprintf(stderr, "unknown profile; the device has:");
        for (const Profile& p : refdev::allProfiles()) std::fprintf(stderr, " %s", p.name.c_str());
        std::fprintf(stderr, "\n");
        return 2;
    }
    refdev::fuzz::Seeds seeds;
    if (std::string e = refdev::fuzz::loadSeeds(opt.paths, seeds); !e.empty()) {
        std::fprintf(stderr, "%s\n", e.c_str());
        return seeds.files.empty() ? usage(argv[0]) : 2;
    }
    g_current.tool = "launch fuzz";
    g_current.replay = "refdev_launch_fuzz --replay --profile=";
    refdev::fuzz::installCrashHandlers();
    refdev::fuzz::startWatchdog(opt.timeout);

    int status = 0;
    for (const Profile* profile : profiles) {
        g_current.profile = profile->name.c_str();
        std::snprintf(g_current.dump_path, sizeof g_current.dump_path, "%s/launch_fuzz_%s_input.spv",
                      opt.crash_dir.c_str(), profile->name.c_str());
        std::vector<uint32_t> slowest;
        auto run = [&](const std::vector<uint32_t>& words, Stats& st, bool print) {
            return runInput(words, *profile, opt, &st, print);
        };
        status = std::max(status,
                          refdev::fuzz::fuzzProfile("launch fuzz", profile->name, seeds, opt, run, &slowest));
        if (opt.save_slowest && !slowest.empty()) {
            const std::string path = opt.crash_dir + "/launch_fuzz_" + profile->name + "_slowest.spv";
            if (FILE* f = std::fopen(path.c_str(), "wb")) {
                std::fwrite(slowest.data(), 4, slowest.size(), f);
                std::fclose(f);
                std::printf("launch fuzz (%s): slowest input written to %s\n", profile->name.c_str(),
                            path.c_str());
            }
        }
        std::fflush(stdout);
    }
    refdev::fuzz::stopWatchdog();
    return status;
}
