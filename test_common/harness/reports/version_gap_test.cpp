#include "test_common/harness/reports/version_gap.h"

#include <gtest/gtest.h>

namespace cts {
namespace {

Registry promising() {
    Registry r;
    r.promiseSpirvFrom("cl_intel_subgroup_2d_block_io", 1, 1);
    r.promiseSpirvFrom("cl_intel_subgroup_matrix_multiply_accumulate", 1, 1);
    return r;
}

TEST(VersionGap, OnlyExtensionsReportedWithAVersionBelowThePromise) {
    Registry r = promising();
    DeviceInfo d;
    d.extensions = {{"cl_intel_subgroup_2d_block_io", 1, 0, 0, true},
                    {"cl_intel_subgroup_matrix_multiply_accumulate", 1, 1, 0, true}};
    std::vector<VersionGapNote> gaps = deviceVersionGaps(d, r);
    ASSERT_EQ(gaps.size(), 1u);
    EXPECT_EQ(gaps[0].extension, "cl_intel_subgroup_2d_block_io");
    EXPECT_EQ(gaps[0].reported, "1.0.0");
    EXPECT_EQ(gaps[0].promised_from, "1.1.0");
    EXPECT_EQ(versionGapLine(gaps[0], false),
              "cl_intel_subgroup_2d_block_io 1.0.0: SPIR-V support is promised from 1.1.0; its cases run as "
              "device_specific");
    // No version reported: no gap (the requirement is unmet and api.extension_versions fails instead).
    d.extensions[0].version_known = false;
    EXPECT_TRUE(deviceVersionGaps(d, r).empty());
    // Not reported at all: no gap.
    d.extensions.clear();
    EXPECT_TRUE(deviceVersionGaps(d, r).empty());
}

TEST(VersionGap, CountsComeFromTheResults) {
    DeviceInfo d;
    d.extensions = {{"cl_intel_subgroup_2d_block_io", 1, 0, 0, true}, {"cl_other", 2, 0, 0, true}};
    std::vector<VersionGapNote> gaps = deviceVersionGaps(d, promising());
    countVersionGaps(gaps, {{"cl_intel_subgroup_2d_block_io", 1277}, {"cl_other", 1}}, d);
    ASSERT_EQ(gaps.size(), 2u);
    EXPECT_EQ(gaps[0].cases, 1277u);
    EXPECT_EQ(
        versionGapLine(gaps[0], true),
        "cl_intel_subgroup_2d_block_io 1.0.0: SPIR-V support is promised from 1.1.0; its 1277 cases ran "
        "as device_specific");
    EXPECT_EQ(gaps[1].extension, "cl_other");
    EXPECT_EQ(versionGapLine(gaps[1], true),
              "cl_other 2.0.0: SPIR-V support is promised from a later version; its 1 case ran as "
              "device_specific");
}

}  // namespace
}  // namespace cts
