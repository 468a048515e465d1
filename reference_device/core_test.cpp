// Profiles and the fault registry, tested directly (no ICD).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <set>

#include "reference_device/faults.h"
#include "reference_device/profile.h"
#include "reference_device/spirv/tokens.h"
#ifdef REFDEV_HAVE_INTERPRETER
#include "reference_device/spirv/ext_ops.h"
#endif

namespace refdev {
namespace {

const Profile& profile(const std::string& name) {
    const Profile* p = findProfile(name);
    if (!p) ADD_FAILURE() << "no profile " << name;
    return p ? *p : allProfiles().front();
}

TEST(Profiles, SubGroupSizesAreAscendingAndContainTheDefault) {
    for (const Profile& p : allProfiles()) {
        EXPECT_TRUE(std::is_sorted(p.sub_group_sizes.begin(), p.sub_group_sizes.end())) << p.name;
        EXPECT_TRUE(p.hasSubGroupSize(p.default_sub_group_size)) << p.name;
        std::set<std::string> names;
        for (const ExtensionEntry& e : p.extensions) EXPECT_TRUE(names.insert(e.name).second) << e.name;
        EXPECT_TRUE(p.hasCapability(token(spv::Capability::Kernel))) << p.name;
    }
}

TEST(Profiles, PlatformClassesDifferAsIntelReports) {
    const Profile& hpc = profile("xe_hpc");
    const Profile& hpg = profile("xe_hpg");
    EXPECT_EQ(hpc.sub_group_sizes, (std::vector<uint32_t>{16, 32}));
    EXPECT_EQ(hpg.sub_group_sizes, (std::vector<uint32_t>{8, 16, 32}));
    // 2D block IO: Xe-HPC and later only; never on DG2.
    EXPECT_TRUE(hpc.hasExtension("cl_intel_subgroup_2d_block_io"));
    EXPECT_FALSE(hpg.hasExtension("cl_intel_subgroup_2d_block_io"));
    for (uint32_t cap : {token(spv::Capability::Subgroup2DBlockIOINTEL),
                         token(spv::Capability::Subgroup2DBlockTransformINTEL),
                         token(spv::Capability::Subgroup2DBlockTransposeINTEL)}) {
        EXPECT_TRUE(hpc.hasCapability(cap)) << cap;
        EXPECT_FALSE(hpg.hasCapability(cap)) << cap;
    }
    EXPECT_TRUE(hpc.hasSpirvExtension("SPV_INTEL_2d_block_io"));
    // Media block IO: up to Xe-HPG only.
    EXPECT_FALSE(hpc.hasExtension("cl_intel_spirv_media_block_io"));
    EXPECT_FALSE(hpc.hasCapability(token(spv::Capability::SubgroupImageMediaBlockIOINTEL)));
    // Every profile: the SPIR-V sub-group extension with its three capabilities.
    for (const Profile* p : {&hpc, &hpg}) {
        EXPECT_TRUE(p->hasExtension("cl_intel_spirv_subgroups"));
        EXPECT_TRUE(p->hasSpirvExtension("SPV_INTEL_subgroups"));
        for (uint32_t cap : {token(spv::Capability::SubgroupShuffleINTEL),
                             token(spv::Capability::SubgroupBufferBlockIOINTEL),
                             token(spv::Capability::SubgroupImageBlockIOINTEL)})
            EXPECT_TRUE(p->hasCapability(cap)) << cap;
        // An OpenCL extension and its SPIR-V extension are reported together.
        EXPECT_EQ(p->hasExtension("cl_intel_subgroup_matrix_multiply_accumulate"),
                  p->hasSpirvExtension("SPV_INTEL_subgroup_matrix_multiply_accumulate"));
        EXPECT_EQ(p->hasExtension("cl_intel_spirv_media_block_io"),
                  p->hasSpirvExtension("SPV_INTEL_media_block_io"));
        EXPECT_EQ(p->mma_n != 0, p->hasExtension("cl_intel_subgroup_matrix_multiply_accumulate"));
        if (p->mma_n)
            EXPECT_EQ(p->mma_n, p->sub_group_sizes.front()) << "MMA N is the minimum sub-group size";
    }
}

TEST(Profiles, FromEnvironment) {
    std::string error;
    setenv("REFDEV_PROFILE", "xe_hpg", 1);
    const Profile* p = profileFromEnv(&error);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->name, "xe_hpg");
    setenv("REFDEV_PROFILE", "xe_nope", 1);
    EXPECT_EQ(profileFromEnv(&error), nullptr);
    EXPECT_NE(error.find("unknown profile 'xe_nope'"), std::string::npos) << error;
    EXPECT_NE(error.find("xe_hpc"), std::string::npos) << error;
    unsetenv("REFDEV_PROFILE");
    p = profileFromEnv(&error);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->name, "xe_hpc");
}

TEST(Faults, RegistryNamesAreUniqueAndWellFormed) {
    std::set<std::string> names;
    const std::regex form("[a-z0-9]+(_[a-z0-9]+)*");
    for (const FaultInfo& f : allFaults()) {
        EXPECT_TRUE(names.insert(f.name).second) << "duplicate fault " << f.name;
        EXPECT_TRUE(std::regex_match(f.name, form)) << f.name;
        EXPECT_FALSE(f.description.empty()) << f.name;
    }
    EXPECT_TRUE(names.count("hang"));
    EXPECT_TRUE(names.count("crash"));
}

// Op families register their faults and instructions from their own folder; refdev_core is linked whole, so
// every family built is there (one fault and one opcode of each).
TEST(Faults, EveryOpFamilyBuiltRegistersItsFaultsAndOps) {
    std::set<std::string> names;
    for (const FaultInfo& f : allFaults()) names.insert(f.name);
    std::vector<std::pair<const char*, uint32_t>> expected;  // a fault and an opcode of each family
#ifdef REFDEV_HAVE_EXT_SUBGROUPS
    expected.push_back({"shuffle_down_ignores_next", token(spv::Op::OpSubgroupShuffleDownINTEL)});
#endif
#ifdef REFDEV_HAVE_EXT_2D_BLOCK_IO
    expected.push_back({"oob_load_stale", token(spv::Op::OpSubgroup2DBlockLoadINTEL)});
#endif
#ifdef REFDEV_HAVE_EXT_MATRIX_MULTIPLY_ACCUMULATE
    expected.push_back({"mma_c_ignored", token(spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL)});
#endif
#ifdef REFDEV_HAVE_EXT_MEDIA_BLOCK_IO
    expected.push_back({"media_x_offset_as_elements", token(spv::Op::OpSubgroupImageMediaBlockReadINTEL)});
#endif
    for (const auto& [fault, opcode] : expected) {
        EXPECT_TRUE(names.count(fault)) << fault << " is not registered";
#ifdef REFDEV_HAVE_INTERPRETER
        EXPECT_NE(spirv::extOps().find(opcode), nullptr) << "opcode " << opcode << " is not registered";
#else
        (void)opcode;
#endif
    }
    EXPECT_EQ(allFaults().size(), names.size());
}

TEST(Faults, ParseAcceptsListsAndRejectsUnknownNames) {
    Faults faults;
    std::string error;
    ASSERT_TRUE(faults.parse("crash, hang,crash", &error)) << error;
    EXPECT_EQ(faults.active(), (std::vector<std::string>{"crash", "hang"}));
    EXPECT_TRUE(faults.has("hang"));
    EXPECT_FALSE(faults.has("han"));
    ASSERT_TRUE(faults.parse("", &error));
    EXPECT_FALSE(faults.any());
    EXPECT_FALSE(faults.parse("hang,not_a_fault", &error));
    EXPECT_NE(error.find("REFDEV_FAULTS: unknown fault 'not_a_fault'; valid:"), std::string::npos) << error;
    EXPECT_NE(error.find(" crash"), std::string::npos) << error;
    EXPECT_FALSE(faults.any()) << "a failed parse leaves the faults unchanged (here: empty)";
}

}  // namespace
}  // namespace refdev
