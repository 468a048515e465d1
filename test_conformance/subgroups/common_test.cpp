// Unit tests of the subgroups families' shared pieces: the device-reported sub-group mapping and the data.
#include "test_conformance/subgroups/common.h"

#include <gtest/gtest.h>

#include <cstring>

namespace cts::subgroups {
namespace {

// Info records for `groups` work-groups of `local` work-items split linearly into sub-groups of `sg`.
std::vector<uint8_t> linearInfo(size_t local, size_t groups, uint32_t sg) {
    std::vector<uint8_t> info(local * groups * 16);
    for (size_t gid = 0; gid < local * groups; ++gid) {
        size_t l = gid % local;
        uint32_t rec[4] = {uint32_t(l % sg), uint32_t(l / sg),
                           uint32_t(std::min<size_t>(sg, local - l / sg * sg)), sg};
        std::memcpy(info.data() + gid * 16, rec, 16);
    }
    return info;
}

TEST(SubgroupsCommon, MappingOfPartialWorkGroup) {
    SubgroupMap map;
    ASSERT_EQ(buildSubgroupMap(linearInfo(19, 2, 8), 19, 2, 8, &map), "");
    ASSERT_EQ(map.lanes[1].size(), 3u);
    EXPECT_EQ(map.lanes[1][2].size(), 3u);  // trailing sub-group of 3
    EXPECT_EQ(map.lanes[1][2][1], 19u + 17u);
}

TEST(SubgroupsCommon, MappingRejectsDuplicateLane) {
    std::vector<uint8_t> info = linearInfo(16, 1, 8);
    uint32_t lane = 3;
    std::memcpy(info.data() + 4 * 16, &lane, 4);  // work-item 4 claims lane 3 too
    SubgroupMap map;
    EXPECT_NE(buildSubgroupMap(info, 16, 1, 8, &map), "");
}

TEST(SubgroupsCommon, MappingRejectsWrongMaxSizeAndMissingRecord) {
    SubgroupMap map;
    EXPECT_NE(buildSubgroupMap(linearInfo(16, 1, 8), 16, 1, 16, &map), "");
    std::vector<uint8_t> info = linearInfo(16, 1, 8);
    std::memset(info.data() + 5 * 16, kPoison, 16);
    EXPECT_NE(buildSubgroupMap(info, 16, 1, 8, &map), "");
}

TEST(SubgroupsCommon, GridNamesBlocksAndPartialSubGroups) {
    const SubgroupGrid whole{8, 16, 2};
    SubgroupMap map;
    ASSERT_EQ(whole.mapSubGroups(linearInfo(16, 2, 8), &map), "");
    EXPECT_EQ(whole.partialSubGroup(map), "");
    EXPECT_EQ(whole.blockOf(map, 16 + 9), 3u);  // work-group 1, sub-group 1
    // Work-groups of 12 at size 8: the trailing sub-group of 4 is partial, which block IO must not run.
    const SubgroupGrid partial{8, 12, 1};
    ASSERT_EQ(partial.mapSubGroups(linearInfo(12, 1, 8), &map), "");
    EXPECT_NE(partial.partialSubGroup(map).find("SubgroupSize 4"), std::string::npos);
    // A broken mapping is named as such.
    EXPECT_EQ(whole.mapSubGroups(linearInfo(16, 2, 16), &map).rfind("work-item to sub-group mapping: ", 0),
              0u);
}

TEST(SubgroupsCommon, RandomComponentsAvoidPoisonAndNonFinite) {
    Rng rng(42);
    for (const char* name : {"i8", "f16", "f32", "f64"}) {
        ComponentType t = componentType(name);
        std::vector<uint8_t> data = randomComponents(rng, t, 4096);
        for (size_t i = 0; i < 4096; ++i) {
            uint64_t v = loadComponent(data.data(), i, t.bytes);
            EXPECT_FALSE(isPoison(v, t.bytes)) << name;
            if (t.is_float) {
                unsigned mant = t.bytes == 2 ? 10 : t.bytes == 4 ? 23 : 52;
                unsigned exp_bits = t.bytes == 2 ? 5 : t.bytes == 4 ? 8 : 11;
                uint64_t exp = (v >> mant) & ((1ull << exp_bits) - 1);
                EXPECT_NE(exp, (1ull << exp_bits) - 1) << name;
            }
        }
    }
}

TEST(SubgroupsCommon, CompareLogsHexAndFloat) {
    MismatchLog log;
    compare(log, "wg 0 sg 0 lane 1 comp 0", componentType("f32"), 0x3f800000, 0x40000000);
    compare(log, "x", componentType("i16"), 7, 7);
    EXPECT_EQ(log.count(), 1u);
    EXPECT_EQ(log.checkedCount(), 2u);
    EXPECT_NE(log.outcome().message.find("0x1p+0"), std::string::npos);
}

}  // namespace
}  // namespace cts::subgroups
