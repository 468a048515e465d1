// REFDEV_REPORT_AS: what each profile reports as the specs describe it and as compute-runtime 26.27 does.
#include "reference_device/driver_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <tuple>

#include "reference_device/spirv/tokens.h"

namespace refdev {
namespace {

const Profile& profile(const std::string& name) {
    const Profile* p = findProfile(name);
    if (!p) ADD_FAILURE() << "no profile " << name;
    return p ? *p : allProfiles().front();
}

const DriverReport& neo() {
    return driverReport("neo-26.27");
}

bool has(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(DriverReport, FromEnvironment) {
    std::string error;
    unsetenv("REFDEV_REPORT_AS");
    const DriverReport* r = driverReportFromEnv(&error);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->name, "spec");
    for (const char* name : {"spec", "neo-26.27"}) {
        setenv("REFDEV_REPORT_AS", name, 1);
        r = driverReportFromEnv(&error);
        ASSERT_NE(r, nullptr) << name;
        EXPECT_EQ(r->name, name);
    }
    for (const char* bad : {"neo", "neo-26.28", "NEO-26.27", " spec"}) {
        setenv("REFDEV_REPORT_AS", bad, 1);
        error.clear();
        EXPECT_EQ(driverReportFromEnv(&error), nullptr) << bad;
        EXPECT_EQ(error,
                  "REFDEV_REPORT_AS: unknown report '" + std::string(bad) + "'; valid: spec neo-26.27");
    }
    unsetenv("REFDEV_REPORT_AS");
}

TEST(DriverReport, SpecReportsTheProfileAsItIs) {
    const DriverReport& spec = driverReport("spec");
    EXPECT_EQ(spec.name, "spec");
    for (const Profile& p : allProfiles()) {
        std::vector<ExtensionEntry> e = reportedExtensions(p, spec);
        ASSERT_EQ(e.size(), p.extensions.size()) << p.name;
        for (size_t i = 0; i < e.size(); ++i) {
            EXPECT_EQ(e[i].name, p.extensions[i].name);
            EXPECT_EQ(std::make_tuple(e[i].major, e[i].minor, e[i].patch),
                      std::make_tuple(p.extensions[i].major, p.extensions[i].minor, p.extensions[i].patch))
                << p.name << " " << e[i].name;
        }
        EXPECT_EQ(reportedSpirvExtensions(p, spec), p.spirv_extensions) << p.name;
        EXPECT_EQ(reportedSpirvCapabilities(p, spec), p.spirv_capabilities) << p.name;
        EXPECT_EQ(reportedDeviceName(p, spec), p.device_name);
    }
    const Profile& hpc = profile("xe_hpc");
    EXPECT_TRUE(has(reportedSpirvExtensions(hpc, spec), "SPV_INTEL_2d_block_io"));
}

TEST(DriverReport, Neo2627ReportsEveryProfileExtensionAt100) {
    for (const Profile& p : allProfiles()) {
        std::vector<ExtensionEntry> e = reportedExtensions(p, neo());
        ASSERT_EQ(e.size(), p.extensions.size()) << p.name;
        for (size_t i = 0; i < e.size(); ++i) {
            EXPECT_EQ(e[i].name, p.extensions[i].name) << "same names, same order";
            EXPECT_EQ(std::make_tuple(e[i].major, e[i].minor, e[i].patch), std::make_tuple(1u, 0u, 0u))
                << p.name << " " << e[i].name;
        }
    }
    // The spec versions differ from it (otherwise the switch would show nothing).
    const Profile& hpc = profile("xe_hpc");
    for (const ExtensionEntry& e : hpc.extensions)
        if (e.name == "cl_intel_subgroup_2d_block_io") EXPECT_EQ(e.minor, 1u);
}

TEST(DriverReport, Neo2627VersionExceptionsApplyByName) {
    // The release's own exceptions (oclc_extensions.cpp getOclCExtensionVersion) on a profile that had them.
    Profile p = profile("xe_hpc");
    p.extensions.push_back({"cl_khr_integer_dot_product", 1, 0, 0});
    p.extensions.push_back({"cl_khr_external_memory", 1, 0, 0});
    std::vector<ExtensionEntry> e = reportedExtensions(p, neo());
    ASSERT_GE(e.size(), 2u);
    EXPECT_EQ(std::make_tuple(e[e.size() - 2].major, e[e.size() - 2].minor), std::make_tuple(2u, 0u));
    EXPECT_EQ(std::make_tuple(e.back().major, e.back().minor, e.back().patch), std::make_tuple(0u, 9u, 1u));
    // SPV_KHR_integer_dot_product follows the OpenCL extension, before SPV_INTEL_subgroups (and the release's
    // last row, SPV_INTEL_subgroup_buffer_prefetch).
    std::vector<std::string> s = reportedSpirvExtensions(p, neo());
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0], "SPV_KHR_integer_dot_product");
    EXPECT_EQ(s[1], "SPV_INTEL_subgroups");
    EXPECT_EQ(s[2], "SPV_INTEL_subgroup_buffer_prefetch");
}

TEST(DriverReport, Neo2627SpirvQueriesLackTheNewExtensions) {
    const Profile& hpc = profile("xe_hpc");
    EXPECT_EQ(reportedSpirvExtensions(hpc, neo()),
              (std::vector<std::string>{"SPV_INTEL_subgroups", "SPV_INTEL_subgroup_buffer_prefetch"}));
    const Profile& hpg = profile("xe_hpg");
    std::vector<std::string> hpg_expected;
    if (hpg.hasExtension("cl_intel_spirv_media_block_io")) hpg_expected.push_back("SPV_INTEL_media_block_io");
    hpg_expected.push_back("SPV_INTEL_subgroups");
    EXPECT_EQ(reportedSpirvExtensions(hpg, neo()), hpg_expected);
    const std::set<uint32_t> dropped = {token(spv::Capability::Subgroup2DBlockIOINTEL),
                                        token(spv::Capability::Subgroup2DBlockTransformINTEL),
                                        token(spv::Capability::Subgroup2DBlockTransposeINTEL),
                                        token(spv::Capability::SubgroupMatrixMultiplyAccumulateINTEL)};
    for (const Profile& p : allProfiles()) {
        std::vector<uint32_t> caps = reportedSpirvCapabilities(p, neo());
        std::vector<uint32_t> expected;
        for (uint32_t c : p.spirv_capabilities)
            if (!dropped.count(c)) expected.push_back(c);
        EXPECT_EQ(caps, expected) << p.name;
        // What the loader accepts stays the profile's: 2D block IO and MMA modules still build.
        EXPECT_EQ(p.hasSpirvExtension("SPV_INTEL_2d_block_io"),
                  p.name == "xe_hpc" || p.name == "xe2" || p.name == "xe3")
            << p.name;
        // The SPV_EXT_shader_atomic_float* rows are left out of the table: they need cl_ext_float_atomics.
        EXPECT_FALSE(p.hasExtension("cl_ext_float_atomics")) << p.name;
    }
    EXPECT_EQ(reportedDeviceName(hpc, neo()), hpc.device_name + " (reporting as compute-runtime 26.27)");
}

// What the device advertises as the release does, it builds: every SPIR-V extension and capability the
// neo-26.27 queries list is one the profile's loader accepts (e.g. SPV_INTEL_subgroup_buffer_prefetch, listed
// with cl_intel_subgroup_buffer_prefetch, and SubgroupBufferPrefetchINTEL).
TEST(DriverReport, Neo2627AdvertisesOnlyWhatTheDeviceBuilds) {
    for (const Profile& p : allProfiles()) {
        for (const std::string& e : reportedSpirvExtensions(p, neo()))
            EXPECT_TRUE(p.hasSpirvExtension(e)) << p.name << " advertises " << e << " but refuses it";
        for (uint32_t c : reportedSpirvCapabilities(p, neo()))
            EXPECT_TRUE(p.buildsCapability(c))
                << p.name << " advertises capability " << c << " but refuses it";
        EXPECT_EQ(has(reportedSpirvExtensions(p, neo()), "SPV_INTEL_subgroup_buffer_prefetch"),
                  p.hasExtension("cl_intel_subgroup_buffer_prefetch"))
            << p.name;
    }
}

}  // namespace
}  // namespace refdev
