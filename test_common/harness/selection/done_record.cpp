#include "test_common/harness/selection/done_record.h"

#include <string>

namespace cts {

void checkDoneRecords(const std::vector<uint8_t>& done, const DoneLayout& layout, MismatchLog& log) {
    if (done.size() < layout.bytes()) {
        log.addLine("done buffer holds " + std::to_string(done.size()) + " bytes, the launch needs " +
                    std::to_string(layout.bytes()));
        return;
    }
    const size_t per_group = size_t(layout.sub_groups_per_work_group) * layout.sub_group_size;
    for (size_t s = 0; s < layout.invocations(); ++s) {
        const uint32_t got = uint32_t(done[4 * s]) | uint32_t(done[4 * s + 1]) << 8 |
                             uint32_t(done[4 * s + 2]) << 16 | uint32_t(done[4 * s + 3]) << 24;
        const uint32_t want = uint32_t(s) + kDoneMagic;
        log.checked();
        if (got == want) continue;
        log.add("work-group " + std::to_string(s / per_group) + " sub-group " +
                    std::to_string(s % per_group / layout.sub_group_size) + " lane " +
                    std::to_string(s % layout.sub_group_size) +
                    " completion record (did every invocation run to its end?)",
                want, got, 4);
    }
}

}  // namespace cts
