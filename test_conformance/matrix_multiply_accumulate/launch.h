// The buffers a matrix_multiply_accumulate kernel takes
// (scripts/assets/generators/matrix_multiply_accumulate.py, "Kernel ABI"): every sub-group's A, B and C
// packed per lane, and the Result buffer, with their binding and the launch.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "test_common/harness/launch/kernel_args.h"
#include "test_common/harness/launch/kernel_util.h"
#include "test_conformance/matrix_multiply_accumulate/data.h"
#include "test_conformance/matrix_multiply_accumulate/mma_case.h"

namespace cts::mma {

// Every sub-group's operands, and the bytes the kernel reads: a_bytes and b_bytes hold each lane's components
// of every step in turn (lane slots g * N + lane), c_bytes each sub-group's C of step 0.
struct PackedOperands {
    // ops[g][t]: sub-group g's operands of step t; the kernel reads C of step 0 only.
    std::vector<std::vector<Operands>> ops;
    std::vector<uint8_t> a_bytes, b_bytes, c_bytes;
};

class MmaLaunch {
public:
    // Draws every sub-group's operands from `rng` and writes them packed per lane.
    MmaLaunch(RunContext& ctx, const MmaCase& c, std::mt19937_64& rng);

    // Binds a, b, c, out and steps by name, then runs the kernel: sub_groups_per_work_group sub-groups of N
    // lanes in each of work_groups work-groups.
    void run(RunContext& ctx, cl_kernel kernel, const CaseSpec& spec);

    // The Result buffer after the kernel; with --dump-dir also writes a, b, c and it.
    std::vector<uint8_t> readResults(RunContext& ctx) const;

    PackedOperands operands;
    GuardedBuffer a_buf, b_buf, c_buf;
    GuardedBuffer out_buf;  // poison-filled: a kernel that never ran leaves 0xA5 bytes

private:
    uint32_t steps_;
    size_t local_, global_;
};

}  // namespace cts::mma
