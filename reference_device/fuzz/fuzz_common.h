// Shared by the launch fuzz drivers (launch_fuzz.cpp: the interpreter API; icd_fuzz.cpp: the OpenCL API):
// seed discovery, the structure-aware mutation of a SPIR-V module, argument contents, and the report of the
// input being run when it crashes or hangs.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "reference_device/fuzz/fuzz_mutate.h"

namespace refdev::fuzz {

// The .spv files under each directory (recursively) or the files given, sorted.
std::vector<std::string> findSeeds(const std::vector<std::string>& paths);

// Values that tend to break size and bounds checks (0, 1, powers of two and their neighbours, sign bits).
uint32_t interestingValue(Rng& rng);

// One mutation: a constant's value, an extension instruction's operand or opcode, any operand word, or one of
// the word mutations of fuzz_mutate.h.
void mutateModule(std::vector<uint32_t>& w, Rng& rng);

uint64_t hashWords(const std::vector<uint32_t>& w);

// A scalar argument. Sane: a size the suite's kernels take (widths, heights, pitches, offsets in bytes, all
// multiples of 64); otherwise anything.
void fillValue(std::vector<uint8_t>& bytes, bool sane, Rng& rng);

// Buffer contents: small words (coordinates, indices, sizes) in front, then a byte pattern.
void fillBuffer(uint8_t* p, size_t bytes, Rng& rng);

struct ImageFormat {
    uint32_t order, type, texel_bytes;
};
const std::vector<ImageFormat>& imageFormats();

// The input being run, for the watchdog and the crash handlers (written with async-signal-safe calls only).
struct Current {
    const char* tool = "fuzz";            // names the driver in messages
    const char* replay = "";              // command line that replays the dumped input: replay PROFILE
    const char* replay_suffix = " ";      // replay_suffix FILE
    std::atomic<int64_t> started_ms{-1};  // since the driver's start; -1: idle
    std::atomic<const char*> stage{"idle"};
    std::atomic<const char*> profile{""};
    std::atomic<const char*> seed_path{""};
    std::atomic<long> iteration{-1};
    std::atomic<int> kernel{-1};
    const uint32_t* words = nullptr;
    std::atomic<size_t> word_count{0};
    char dump_path[4096] = {0};
};
extern Current g_current;

// Describes the current input on stderr and writes its words to g_current.dump_path.
void dumpCurrent(const char* why);

// Crash signals (or a sanitizer's report) dump the current input first, then the process dies as it would.
void installCrashHandlers();

// Milliseconds since the first call (the clock of g_current.started_ms).
int64_t nowMs();

// A thread that dumps the current input and exits 1 ("hang") once one input has run for more than timeout_s
// seconds. stopWatchdog() ends it.
void startWatchdog(double timeout_s);
void stopWatchdog();

}  // namespace refdev::fuzz
