// Each reference-device profile reports what the real device class reports: its sub-group sizes, extensions
// (with versions), fp16/fp64 and image support equal those of the class's target description
// (test_conformance/targets/*.json, written from public sources and used by the offline-compiler mode).
// "other_extensions" (what the class reports that no case looks at) are not compared. The descriptions'
// "compilers" sections (what one compiler release reports) are compared only with the profile as the
// reference device reports it as that release's driver (REFDEV_REPORT_AS, driver_report.h): "2.40.14" with
// "neo-26.27".
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "reference_device/driver_report.h"
#include "reference_device/profile.h"
#include "reference_device/spirv/tokens.h"
#include "test_common/harness/offline/target_description.h"

namespace refdev {
namespace {

// Each profile's target descriptions: every class member it stands for (xe2: Battlemage and Lunar Lake). The
// CPU device is not an offline-compiler target; its description, written from the installed runtime's own
// report, lives in targets/runtime/.
const std::map<std::string, std::vector<std::string>> kTargetsOfProfile = {
    {"xe_hpc", {"pvc"}}, {"xe_hpg", {"dg2-g10"}}, {"xe2", {"bmg", "lnl-m"}},
    {"xe3", {"ptl"}},    {"xe_lpg", {"mtl"}},     {"cpu", {"runtime/intel-cpu"}}};

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
    if (extension.rfind("cl_intel_subgroup_matrix_multiply_accumulate", 0) == 0 ||
        extension == "cl_intel_subgroup_split_matrix_multiply_accumulate")
        return true;
#endif
#ifndef REFDEV_HAVE_EXT_MEDIA_BLOCK_IO
    if (extension == "cl_intel_spirv_media_block_io") return true;
#endif
    (void)extension;
    return false;
}

std::string versionText(uint32_t a, uint32_t b, uint32_t c) {
    return std::to_string(a) + "." + std::to_string(b) + "." + std::to_string(c);
}

bool withholds(const Profile& p, const std::string& extension) {
    for (const auto& w : p.withheld_extensions)
        if (w.first == extension) return true;
    return false;
}

// Both lists of {extension: version} agree, but for what this build lacks and what the profile withholds
// (profile.h: the class reports it, the device cannot honour it).
void expectSameExtensions(const Profile& p, const std::vector<ExtensionEntry>& reported,
                          const std::vector<cts::ExtensionVersion>& described, const std::string& what) {
    std::map<std::string, std::string> profile_ext, target_ext;
    for (const ExtensionEntry& e : reported) profile_ext[e.name] = versionText(e.major, e.minor, e.patch);
    for (const auto& e : described)
        if (!builtWithoutFamilyOf(e.name) && !withholds(p, e.name))
            target_ext[e.name] = versionText(e.major, e.minor, e.patch);
    for (const auto& [name, v] : profile_ext) {
        auto it = target_ext.find(name);
        if (it == target_ext.end())
            ADD_FAILURE() << what << ": reports " << name << ", which the description says the class lacks";
        else
            EXPECT_EQ(v, it->second) << what << ": version of " << name;
    }
    for (const auto& [name, v] : target_ext)
        EXPECT_TRUE(profile_ext.count(name)) << what << ": lacks " << name << " " << v;
}

// Every (profile, description) pair.
std::vector<std::pair<const Profile*, cts::TargetDescription>> profileTargets() {
    std::vector<std::pair<const Profile*, cts::TargetDescription>> v;
    for (const Profile& p : allProfiles())
        for (const std::string& target : kTargetsOfProfile.at(p.name))
            v.emplace_back(&p, description(target));
    return v;
}

TEST(ProfileTargets, EveryProfileHasADescription) {
    ASSERT_EQ(allProfiles().size(), kTargetsOfProfile.size());
    for (const Profile& p : allProfiles()) {
        EXPECT_TRUE(kTargetsOfProfile.count(p.name)) << p.name;
        EXPECT_FALSE(p.class_name.empty()) << p.name << ": names no device class";
    }
    // xe3 reports nothing xe2 does not (profile.cpp): it must stay so, or it is no longer a thin alias.
    const Profile* xe2 = findProfile("xe2");
    const Profile* xe3 = findProfile("xe3");
    ASSERT_TRUE(xe2 && xe3);
    EXPECT_EQ(xe2->sub_group_sizes, xe3->sub_group_sizes);
    EXPECT_EQ(xe2->spirv_capabilities, xe3->spirv_capabilities);
    EXPECT_EQ(xe2->mma_n, xe3->mma_n);
}

TEST(ProfileTargets, SubGroupSizesFp16Fp64AndImagesAreTheClasses) {
    for (const auto& [pp, t] : profileTargets()) {
        const Profile& p = *pp;
        std::vector<size_t> sizes(p.sub_group_sizes.begin(), p.sub_group_sizes.end());
        EXPECT_EQ(sizes, t.sub_group_sizes) << p.name << " vs " << t.file;
        EXPECT_EQ(p.fp16, t.fp16) << p.name;
        EXPECT_EQ(p.fp64, t.fp64) << p.name << ": cl_khr_fp64 as " << t.file;
        EXPECT_EQ(p.images, t.images) << p.name << ": image support as " << t.file;
        // The capability goes with the extension: Float64 (10) only with fp64, ImageBasic (13) only with
        // images.
        EXPECT_EQ(p.hasCapability(token(spv::Capability::Float64)), p.fp64) << p.name;
        EXPECT_EQ(p.hasCapability(token(spv::Capability::ImageBasic)), p.images) << p.name;
    }
}

TEST(ProfileTargets, ExtensionsAndVersionsAreTheClasses) {
    for (const auto& [p, t] : profileTargets()) {
        expectSameExtensions(*p, p->extensions, t.extensions, p->name + " vs " + t.file);
    }
}

// A withheld extension is one the class reports (else the entry is stale), the profile does not report, and
// the reason names what the device cannot do.
TEST(ProfileTargets, WithheldExtensionsAreTheClassesAndNotReported) {
    size_t withheld = 0;
    for (const auto& [p, t] : profileTargets()) {
        for (const auto& [name, why] : p->withheld_extensions) {
            ++withheld;
            EXPECT_FALSE(p->hasExtension(name)) << p->name << " withholds and reports " << name;
            EXPECT_FALSE(why.empty()) << p->name << ": " << name << " withheld without a reason";
            bool described = false;
            for (const auto& e : t.extensions) described = described || e.name == name;
            EXPECT_TRUE(described) << p->name << " withholds " << name << ", which " << t.file << " lacks";
        }
    }
    EXPECT_GT(withheld, 0u) << "no profile withholds cl_khr_subgroups (profile.cpp)";
}

// The shipped driver whose report REFDEV_REPORT_AS=neo-26.27 copies: compute-runtime 26.27, whose compiler is
// the descriptions' release "2.40.14".
const char* const kNeoReport = "neo-26.27";
const char* const kNeoRelease = "2.40.14";

// Intel's GPU driver (NEO) reports for the GPU classes; Intel's CPU device has its own runtime, which
// REFDEV_REPORT_AS does not copy.
bool isNeoDevice(const Profile& p) {
    return p.name != "cpu";
}

const cts::CompilerRelease* release(const cts::TargetDescription& t, const std::string& igc_version) {
    for (const cts::CompilerRelease& r : t.compilers)
        if (r.igc_version == igc_version) return &r;
    return nullptr;
}

TEST(ProfileTargets, AsShippedExtensionsAndVersionsAreTheReleases) {
    const DriverReport& neo = driverReport(kNeoReport);
    ASSERT_EQ(neo.name, kNeoReport);
    for (const auto& [pp, t] : profileTargets()) {
        const Profile& p = *pp;
        if (!isNeoDevice(p)) continue;
        const cts::CompilerRelease* r = release(t, kNeoRelease);
        ASSERT_NE(r, nullptr) << t.file << " has no \"compilers\" section \"" << kNeoRelease << "\"";
        ASSERT_TRUE(r->has_extensions) << t.file << " " << kNeoRelease << ": no \"extensions\"";
        expectSameExtensions(p, reportedExtensions(p, neo), r->extensions,
                             p.name + " reporting as " + kNeoReport + " vs " + t.file + " " + kNeoRelease);
    }
}

TEST(ProfileTargets, AsShippedSpirvExtensionsAreTheReleases) {
    const DriverReport& neo = driverReport(kNeoReport);
    // The OpenCL extension the release lists a SPIR-V extension for (cl_device_caps.cpp; the float-atomics
    // entries follow cl_ext_float_atomics).
    auto gate = [&](const std::string& spirv) -> std::string {
        for (const auto& [cl, s] : neo.spirv_extension_of)
            if (s == spirv) return cl;
        if (spirv.rfind("SPV_EXT_shader_atomic_float", 0) == 0) return "cl_ext_float_atomics";
        return "";
    };
    for (const auto& [pp, t] : profileTargets()) {
        const Profile& p = *pp;
        if (!isNeoDevice(p)) continue;
        const cts::CompilerRelease* r = release(t, kNeoRelease);
        ASSERT_NE(r, nullptr) << t.file << " has no \"compilers\" section \"" << kNeoRelease << "\"";
        ASSERT_TRUE(r->has_reported_spirv_extensions)
            << t.file << " " << kNeoRelease << ": no \"reported_spirv_extensions\"";
        // The release's list, but for what follows an extension the profile does not claim: one of the
        // class's "other_extensions", or one whose op family this build lacks.
        std::set<std::string> expected;
        for (const std::string& s : r->reported_spirv_extensions) {
            std::string cl = gate(s);
            bool other = std::find(t.other_extensions.begin(), t.other_extensions.end(), cl) !=
                         t.other_extensions.end();
            if (!cl.empty() && (other || builtWithoutFamilyOf(cl))) continue;
            expected.insert(s);
        }
        std::vector<std::string> reported = reportedSpirvExtensions(p, neo);
        std::set<std::string> reported_set(reported.begin(), reported.end());
        EXPECT_EQ(reported_set.size(), reported.size()) << p.name << ": a SPIR-V extension listed twice";
        EXPECT_EQ(reported_set, expected) << p.name << " reporting as " << kNeoReport << " vs " << t.file
                                          << " " << kNeoRelease << " reported_spirv_extensions";
    }
}

}  // namespace
}  // namespace refdev
