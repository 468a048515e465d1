#include "test_common/cl/phase_clock.h"

namespace cts {
namespace phase_clock {
namespace {
PhaseClockReading g_reading;
}  // namespace

void reset() {
    g_reading = PhaseClockReading{};
}

PhaseClockReading read() {
    return g_reading;
}

void addBuild(double ms) {
    g_reading.build_ms += ms;
    ++g_reading.builds;
}

void addCacheHit() {
    ++g_reading.cache_hits;
}

void addKernel(double ms) {
    g_reading.kernel_ms += ms;
}

}  // namespace phase_clock
}  // namespace cts
