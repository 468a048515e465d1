// Where a case's time goes: a process-wide accumulator of program builds and kernel launches. The case runner
// resets it when a case starts and reads it when the case ends (case_runner.cpp); ProgramCache feeds the
// builds, runNDRange (kernel_util.cpp) the launches. A process runs one case at a time, so no lock: only the
// thread that runs the case touches it.
#pragma once

#include <chrono>
#include <cstddef>

namespace cts {

struct PhaseClockReading {
    double build_ms = 0;    // inside clCreateProgramWithIL + clBuildProgram
    size_t builds = 0;      // programs built
    size_t cache_hits = 0;  // programs the cache already had
    double kernel_ms = 0;   // clEnqueueNDRangeKernel .. clFinish
};

namespace phase_clock {

void reset();
PhaseClockReading read();
void addBuild(double ms);
void addCacheHit();
void addKernel(double ms);

// Milliseconds since `since` on the steady clock.
inline double msSince(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace phase_clock
}  // namespace cts
