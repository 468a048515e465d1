// Each reference-device profile reports what the real device class reports: its sub-group sizes, extensions
// (with versions), fp16/fp64 and image support equal those of the class's target description
// (test_conformance/targets/*.json, written from public sources and used by the offline-compiler mode). The
// descriptions' "compilers" sections (what one compiler release reports) are release-specific and not
// compared; neither are "other_extensions" (what the class reports that no case looks at).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "reference_device/profile.h"
#include "test_common/harness/target_description.h"

namespace refdev {
namespace {

const std::map<std::string, std::string> kTargetOfProfile = {{"xe_hpc", "pvc"}, {"xe_hpg", "dg2-g10"}};

cts::TargetDescription description(const std::string& target) {
    cts::TargetDescription t;
    std::string err = cts::readTargetDescription(std::string(REFDEV_TARGETS_DIR) + "/" + target + ".json", t);
    EXPECT_EQ(err, "");
    return t;
}

// What a profile leaves out because its op family is not part of this build (profile.cpp): a device must not
// claim an extension it cannot execute.
bool builtWithoutFamilyOf(const std::string& extension) {
#ifndef REFDEV_HAVE_EXT_MATRIX_MULTIPLY_ACCUMULATE
    if (extension.rfind("cl_intel_subgroup_matrix_multiply_accumulate", 0) == 0) return true;
#endif
#ifndef REFDEV_HAVE_EXT_MEDIA_BLOCK_IO
    if (extension == "cl_intel_spirv_media_block_io") return true;
#endif
    (void)extension;
    return false;
}

TEST(ProfileTargets, EveryProfileHasADescription) {
    ASSERT_EQ(allProfiles().size(), kTargetOfProfile.size());
    for (const Profile& p : allProfiles()) EXPECT_TRUE(kTargetOfProfile.count(p.name)) << p.name;
}

TEST(ProfileTargets, SubGroupSizesFp16Fp64AndImagesAreTheClasses) {
    for (const Profile& p : allProfiles()) {
        cts::TargetDescription t = description(kTargetOfProfile.at(p.name));
        std::vector<size_t> sizes(p.sub_group_sizes.begin(), p.sub_group_sizes.end());
        EXPECT_EQ(sizes, t.sub_group_sizes) << p.name << " vs " << t.file;
        EXPECT_EQ(p.fp16, t.fp16) << p.name;
        EXPECT_EQ(p.fp64, t.fp64) << p.name << ": cl_khr_fp64 as " << t.file;
        EXPECT_EQ(p.images, t.images) << p.name << ": image support as " << t.file;
        // The capability goes with the extension: Float64 (10) only with fp64, ImageBasic (13) only with
        // images.
        EXPECT_EQ(p.hasCapability(10), p.fp64) << p.name;
        EXPECT_EQ(p.hasCapability(13), p.images) << p.name;
    }
}

TEST(ProfileTargets, ExtensionsAndVersionsAreTheClasses) {
    for (const Profile& p : allProfiles()) {
        cts::TargetDescription t = description(kTargetOfProfile.at(p.name));
        std::map<std::string, std::string> profile_ext, target_ext;
        auto version = [](uint32_t a, uint32_t b, uint32_t c) {
            return std::to_string(a) + "." + std::to_string(b) + "." + std::to_string(c);
        };
        for (const ExtensionEntry& e : p.extensions) profile_ext[e.name] = version(e.major, e.minor, e.patch);
        for (const auto& e : t.extensions)
            if (!builtWithoutFamilyOf(e.name)) target_ext[e.name] = version(e.major, e.minor, e.patch);
        for (const auto& [name, v] : profile_ext) {
            auto it = target_ext.find(name);
            if (it == target_ext.end())
                ADD_FAILURE() << p.name << " reports " << name << ", which " << t.file
                              << " says the class lacks";
            else
                EXPECT_EQ(v, it->second) << p.name << ": version of " << name;
        }
        for (const auto& [name, v] : target_ext)
            EXPECT_TRUE(profile_ext.count(name))
                << p.name << " lacks " << name << " " << v << " of " << t.file;
    }
}

}  // namespace
}  // namespace refdev
