#include "reference_device/fuzz/fuzz_common.h"

#include <CL/cl.h>

#include <fcntl.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#include "reference_device/spirv/ext_ops.h"
#include "reference_device/spirv/tokens.h"

#if defined(__SANITIZE_ADDRESS__)
#define REFDEV_FUZZ_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define REFDEV_FUZZ_SANITIZED 1
#endif
#endif
#ifdef REFDEV_FUZZ_SANITIZED
#include <sanitizer/common_interface_defs.h>
#endif

namespace refdev::fuzz {

std::vector<std::string> findSeeds(const std::vector<std::string>& paths) {
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    for (const std::string& path : paths) {
        std::error_code ec;
        if (fs::is_directory(path, ec)) {
            for (fs::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
                if (it->is_regular_file(ec) && it->path().extension() == ".spv")
                    out.push_back(it->path().string());
        } else {
            out.push_back(path);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

uint32_t interestingValue(Rng& rng) {
    static const uint32_t kValues[] = {
        0,          1,          2,          3,          4,          5,          7,          8,
        12,         15,         16,         17,         31,         32,         33,         63,
        64,         65,         127,        128,        255,        256,        1024,       4096,
        0xFFFF,     0x10000,    0xFFFFFF,   0x1000000,  0x1000001,  0x3FFFFFFF, 0x40000000, 0x40000001,
        0x7FFFFFFF, 0x80000000, 0x80000001, 0xC0000000, 0xEA197FFA, 0xFFFFFFF0, 0xFFFFFFFE, 0xFFFFFFFF};
    constexpr uint32_t n = sizeof(kValues) / sizeof(kValues[0]);
    switch (rng.below(8)) {
        case 0: return uint32_t(rng.next());
        case 1: return 1u << rng.below(32);
        case 2: return (1u << rng.below(32)) + rng.below(3) - 1;
        default: return kValues[rng.below(n)];
    }
}

namespace {

struct InsnRef {
    size_t at;  // word offset
    uint32_t count, opcode;
};

// Instruction boundaries after the 5-word header, up to the first malformed word count.
std::vector<InsnRef> instructions(const std::vector<uint32_t>& w) {
    std::vector<InsnRef> out;
    size_t at = 5;
    while (at < w.size()) {
        const uint32_t count = w[at] >> 16, opcode = w[at] & 0xffff;
        if (count == 0 || at + count > w.size()) break;
        out.push_back({at, count, opcode});
        at += count;
    }
    return out;
}

constexpr uint32_t kOpConstant = token(spv::Op::OpConstant);
constexpr uint32_t kOpSpecConstant = token(spv::Op::OpSpecConstant);

// The opcodes of the extension instructions the device implements, to swap one for a sibling.
const std::vector<uint32_t>& extOpcodes() {
    static const std::vector<uint32_t> ops = [] {
        std::vector<uint32_t> v;
        for (const spirv::ExtOpInfo& info : spirv::extOps().all()) v.push_back(info.opcode);
        return v;
    }();
    return ops;
}

bool isExtOp(uint32_t opcode) {
    const auto& ops = extOpcodes();
    return std::find(ops.begin(), ops.end(), opcode) != ops.end();
}

}  // namespace

void mutateModule(std::vector<uint32_t>& w, Rng& rng) {
    const std::vector<InsnRef> insns = instructions(w);
    auto pick = [&](auto pred) -> const InsnRef* {
        std::vector<const InsnRef*> match;
        for (const InsnRef& i : insns)
            if (pred(i)) match.push_back(&i);
        return match.empty() ? nullptr : match[rng.below(uint32_t(match.size()))];
    };
    switch (rng.below(10)) {
        case 0:
        case 1:
        case 2: {  // a 32/64-bit OpConstant's value: shape operands, sizes, K Dim, Width, Height, ...
            const InsnRef* c = pick([](const InsnRef& i) {
                return (i.opcode == kOpConstant || i.opcode == kOpSpecConstant) && i.count >= 4;
            });
            if (!c) break;
            const uint32_t v = interestingValue(rng);
            w[c->at + 3] = v;
            if (c->count >= 5) w[c->at + 4] = rng.below(4) == 0 ? 0xFFFFFFFF : (rng.below(2) ? v : 0);
            return;
        }
        case 3:
        case 4: {  // an operand of an extension instruction: another id or an interesting literal
            const InsnRef* e = pick([](const InsnRef& i) { return isExtOp(i.opcode) && i.count > 1; });
            if (!e) break;
            uint32_t& x = w[e->at + 1 + rng.below(e->count - 1)];
            x = rng.below(3) == 0 ? interestingValue(rng) : 1 + rng.below(std::max<uint32_t>(w[3], 2) - 1);
            return;
        }
        case 5: {  // one extension instruction becomes another (operands of the wrong shape and type)
            const InsnRef* e = pick([](const InsnRef& i) { return isExtOp(i.opcode); });
            if (!e) break;
            const auto& ops = extOpcodes();
            w[e->at] = (w[e->at] & 0xFFFF0000u) | ops[rng.below(uint32_t(ops.size()))];
            return;
        }
        case 6: {  // any operand word of any instruction (types, execution modes, decorations, ...)
            const InsnRef* i = pick([](const InsnRef& r) { return r.count > 1; });
            if (!i) break;
            uint32_t& x = w[i->at + 1 + rng.below(i->count - 1)];
            x = rng.below(2) ? interestingValue(rng) : 1 + rng.below(std::max<uint32_t>(w[3], 2) - 1);
            return;
        }
        default: break;
    }
    mutateWords(w, rng);
}

uint64_t hashWords(const std::vector<uint32_t>& w) {
    uint64_t h = 1469598103934665603ull;
    for (uint32_t x : w) h = (h ^ x) * 1099511628211ull;
    return h;
}

void fillValue(std::vector<uint8_t>& bytes, bool sane, Rng& rng) {
    static const uint64_t kSane[] = {256, 256, 256, 64, 128, 192, 512, 1024, 4096, 0};
    static const uint64_t kOdd[] = {0, 1, 2, 3, 4, 16, 24};
    uint64_t v;
    if (sane)
        v = kSane[rng.below(sizeof(kSane) / sizeof(kSane[0]))];
    else
        switch (rng.below(3)) {
            case 0: v = interestingValue(rng); break;
            case 1: v = rng.next(); break;
            default: v = kOdd[rng.below(sizeof(kOdd) / sizeof(kOdd[0]))]; break;
        }
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = i < 8 ? uint8_t(v >> (8 * i)) : 0;
}

void fillBuffer(uint8_t* p, size_t bytes, Rng& rng) {
    const uint32_t mode = rng.below(5);
    for (size_t i = 0; i + 4 <= 4096 && i + 4 <= bytes; i += 4) {
        uint32_t v = mode == 0   ? 0
                     : mode <= 2 ? rng.below(16) * 4  // byte coordinates are multiples of 4
                     : mode == 3 ? rng.below(64)
                                 : uint32_t(rng.next());
        std::memcpy(p + i, &v, 4);
    }
    if (bytes > 4096) std::memset(p + 4096, 0x5A, bytes - 4096);
}

const std::vector<ImageFormat>& imageFormats() {
    static const std::vector<ImageFormat> formats = {
        {CL_R, CL_UNSIGNED_INT8, 1},    {CL_R, CL_UNSIGNED_INT16, 2},     {CL_R, CL_UNSIGNED_INT32, 4},
        {CL_RGBA, CL_UNSIGNED_INT8, 4}, {CL_RGBA, CL_UNORM_INT8, 4},      {CL_R, CL_FLOAT, 4},
        {CL_RG, CL_UNSIGNED_INT32, 8},  {CL_RGBA, CL_UNSIGNED_INT16, 8},  {CL_RGBA, CL_HALF_FLOAT, 8},
        {CL_RGBA, CL_FLOAT, 16},        {CL_RGBA, CL_UNSIGNED_INT32, 16}, {CL_RG, CL_UNSIGNED_INT8, 2},
    };
    return formats;
}

// ---------------------------------------------------------------------------------------------------------
// Crash and hang reports.

Current g_current;

namespace {

void writeStr(int fd, const char* s) {
    ssize_t r = ::write(fd, s, std::strlen(s));
    (void)r;
}

void writeNum(int fd, long v) {
    char buf[32];
    int n = 0;
    bool neg = v < 0;
    unsigned long u = neg ? 0ul - static_cast<unsigned long>(v) : static_cast<unsigned long>(v);
    do {
        buf[n++] = char('0' + u % 10);
        u /= 10;
    } while (u && n < 30);
    if (neg) buf[n++] = '-';
    char out[32];
    for (int i = 0; i < n; ++i) out[i] = buf[n - 1 - i];
    out[n] = 0;
    writeStr(fd, out);
}

#ifdef REFDEV_FUZZ_SANITIZED
void onSanitizerDeath() {
    dumpCurrent("sanitizer report");
}
#else
void onCrashSignal(int sig) {
    dumpCurrent(sig == SIGSEGV   ? "crash (SIGSEGV)"
                : sig == SIGBUS  ? "crash (SIGBUS)"
                : sig == SIGFPE  ? "crash (SIGFPE)"
                : sig == SIGILL  ? "crash (SIGILL)"
                : sig == SIGABRT ? "crash (SIGABRT)"
                                 : "crash");
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}
#endif

std::atomic<bool> g_watchdog_done{false};
std::thread g_watchdog;

}  // namespace

void dumpCurrent(const char* why) {
    writeStr(2, "\n");
    writeStr(2, g_current.tool);
    writeStr(2, ": ");
    writeStr(2, why);
    writeStr(2, " (profile ");
    writeStr(2, g_current.profile.load());
    writeStr(2, ", seed module ");
    writeStr(2, g_current.seed_path.load());
    writeStr(2, ", iteration ");
    writeNum(2, g_current.iteration.load());
    writeStr(2, ", stage: ");
    writeStr(2, g_current.stage.load());
    if (g_current.kernel.load() >= 0) {
        writeStr(2, " of kernel #");
        writeNum(2, g_current.kernel.load());
    }
    writeStr(2, ")\n");
    const size_t n = g_current.word_count.load();
    if (!g_current.words || !n || !g_current.dump_path[0]) return;
    int fd = ::open(g_current.dump_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    ssize_t r = ::write(fd, g_current.words, n * 4);
    (void)r;
    ::close(fd);
    writeStr(2, g_current.tool);
    writeStr(2, ": input written to ");
    writeStr(2, g_current.dump_path);
    writeStr(2, "; reproduce with: ");
    writeStr(2, g_current.replay);
    writeStr(2, g_current.profile.load());
    writeStr(2, g_current.replay_suffix);
    writeStr(2, g_current.dump_path);
    writeStr(2, "\n");
}

void installCrashHandlers() {
#ifdef REFDEV_FUZZ_SANITIZED
    // The sanitizers print the report (stack included); this adds which input it was.
    __sanitizer_set_death_callback(onSanitizerDeath);
#else
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(sig, onCrashSignal);
#endif
}

int64_t nowMs() {
    static const auto t0 = std::chrono::steady_clock::now();
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
        .count();
}

void startWatchdog(double timeout_s) {
    nowMs();
    g_watchdog = std::thread([timeout_s] {
        while (!g_watchdog_done) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            const int64_t s = g_current.started_ms;
            if (s >= 0 && nowMs() - s > int64_t(timeout_s * 1000)) {
                char why[128];
                std::snprintf(why, sizeof why, "hang: one input ran for more than %.1f s", timeout_s);
                std::fflush(stdout);
                dumpCurrent(why);
                std::_Exit(1);
            }
        }
    });
}

void stopWatchdog() {
    g_watchdog_done = true;
    if (g_watchdog.joinable()) g_watchdog.join();
}

}  // namespace refdev::fuzz
