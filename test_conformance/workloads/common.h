// Pieces the workloads.* families share: D-matrix checks and the launch size (completion records:
// test_common/harness/selection/done_record.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "test_common/harness/model/mismatch.h"
#include "test_conformance/workloads/gemm_host.h"

namespace cts::workloads {

uint32_t loadBits(const uint8_t* p, unsigned bytes);
void storeBits(uint8_t* p, uint32_t bits, unsigned bytes);

// Compares D element (i, j) of the m x n result (bits read from the device) with the host GEMM; a mismatch
// is also marked in the picture of D.
void checkElement(const FormatInfo& f, const GemmExpectation& want, uint32_t m, uint32_t n, uint32_t i,
                  uint32_t j, uint32_t actual_bits, MismatchLog& log);

// Sub-groups to launch for `tiles` tiles: rounded up to whole work-groups (the extra tiles lie wholly
// outside the matrix: their loads read zeros and their stores are dropped).
uint32_t launchSubGroups(uint32_t tiles, uint32_t sub_groups_per_work_group);

}  // namespace cts::workloads
