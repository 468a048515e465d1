// Completion records: the last thing every invocation of a kernel does is store done[s] = s + kDoneMagic,
// s its global lane index (WorkgroupId * NumSubgroups + SubgroupId) * SubgroupSize +
// SubgroupLocalInvocationId (scripts/assets/spvgen.py done_record_code writes it). A family that requires
// every record fails a case whose kernel was dropped, stopped early or read back corrupt, even where the
// operation under test must leave no other trace (a store or write wholly out of bounds).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "test_common/harness/model/mismatch.h"

namespace cts {

constexpr uint32_t kDoneMagic = 0x1000;  // spvgen.DONE_MAGIC

// The launch the records cover: work_groups x sub_groups_per_work_group whole sub-groups of sub_group_size.
struct DoneLayout {
    uint32_t work_groups = 1, sub_groups_per_work_group = 1, sub_group_size = 0;

    size_t invocations() const { return size_t(work_groups) * sub_groups_per_work_group * sub_group_size; }
    size_t bytes() const { return invocations() * 4; }  // the done buffer
};

// Checks the record of every lane of every sub-group of every work-group; a missing or wrong one is logged
// with its work-group, sub-group and lane. A buffer smaller than layout.bytes() is logged as such.
void checkDoneRecords(const std::vector<uint8_t>& done, const DoneLayout& layout, MismatchLog& log);

}  // namespace cts
