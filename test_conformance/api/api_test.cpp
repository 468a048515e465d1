#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

#include "test_common/cl/device_info.h"
#include "test_common/cl/program_cache.h"
#include "test_conformance/api/api_cases.h"
#include "test_conformance/families.h"

namespace cts {
namespace {

// The hand-built module must be valid SPIR-V for an OpenCL environment, or a correct driver would
// reject it and the case would blame the driver.
TEST(RequiredSizeModule, ValidatesWithSpirvVal) {
    for (bool physical64 : {false, true}) {
        for (uint32_t size : {8u, 16u, 32u}) {
            auto words = apiRequiredSizeModuleForTest(size, physical64);
            std::string path =
                ::testing::TempDir() + "api_required_size_" + std::to_string(getpid()) + ".spv";
            FILE* f = std::fopen(path.c_str(), "wb");
            ASSERT_NE(f, nullptr);
            std::fwrite(words.data(), 4, words.size(), f);
            std::fclose(f);
            std::string cmd = std::string(CTS_SPIRV_VAL) + " --target-env opencl2.2 " + path;
            EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
            std::remove(path.c_str());
        }
    }
}

TEST(RequiredSizeModule, CarriesTheSize) {
    auto words = apiRequiredSizeModuleForTest(32, true);
    bool found = false;
    for (size_t i = 5; i + 3 < words.size(); ++i)
        if (words[i] == ((4u << 16) | 16u) && words[i + 2] == 35u && words[i + 3] == 32u) found = true;
    EXPECT_TRUE(found);
}

}  // namespace
}  // namespace cts

namespace cts {
namespace {

// The device-query cases run on a DeviceInfo alone, so fake devices show each can pass and fail.
struct ApiCases : ::testing::Test {
    Registry registry;
    void SetUp() override { registerApiFamilies(registry); }

    DeviceInfo goodDevice() {
        DeviceInfo d;
        d.extensions = {{"cl_intel_spirv_subgroups", 1, 0, 0, true},
                        {"cl_intel_subgroup_2d_block_io", 1, 1, 0, true},
                        {"cl_khr_spirv_queries", 1, 0, 0, true}};
        d.il_versions = {"SPIR-V_1.2"};
        d.sub_group_sizes = {16, 32};
        d.max_num_sub_groups = 64;
        d.max_work_group_size = 1024;
        d.image_support = true;
        d.has_spirv_queries = true;
        d.spirv_extensions = {"SPV_INTEL_subgroups", "SPV_INTEL_2d_block_io"};
        d.spirv_capabilities = {5568, 5569, 5570, 6228, 6229, 6230};
        return d;
    }

    Status run(const std::string& name, const DeviceInfo& d, std::string* message = nullptr) {
        for (const auto& spec : registry.cases()) {
            if (spec.name != name) continue;
            const Family* f = registry.family(spec.family);
            Outcome o = f->checkSupport(spec, d);
            if (o.status == Status::Pass) {
                ProgramCache programs(nullptr, nullptr);
                RunContext ctx{d, nullptr, nullptr, programs, 0, false, "", "", name};
                o = f->run(spec, ctx);
            }
            if (message) *message = o.message;
            return o.status;
        }
        ADD_FAILURE() << "no case " << name;
        return Status::InternalError;
    }
};

const char* const kQueryCases[] = {"api.il_version.spirv_listed_for_gating_extension",
                                   "api.sub_group_sizes.non_empty",
                                   "api.sub_group_sizes.consistent_with_device_limits",
                                   "api.extension_versions.cl_intel_subgroup_2d_block_io",
                                   "api.spirv_queries.cl_intel_spirv_subgroups",
                                   "api.spirv_queries.cl_intel_subgroup_2d_block_io"};

TEST_F(ApiCases, NamesAreUniqueDottedLowercase) {
    std::set<std::string> names;
    for (const auto& c : registry.cases()) {
        EXPECT_TRUE(names.insert(c.name).second) << c.name;
        EXPECT_EQ(c.name.rfind("api.", 0), 0u) << c.name;
    }
    EXPECT_GE(names.size(), 10u);
}

TEST_F(ApiCases, ConsistentDevicePasses) {
    for (const char* name : kQueryCases) EXPECT_EQ(run(name, goodDevice()), Status::Pass) << name;
}

TEST_F(ApiCases, NoGatingExtensionIsNotSupported) {
    DeviceInfo d;
    d.extensions = {{"cl_khr_fp64", 1, 0, 0, true}};
    for (const char* name : kQueryCases) {
        std::string msg;
        EXPECT_EQ(run(name, d, &msg), Status::NotSupported) << name;
        EXPECT_FALSE(msg.empty()) << name;
    }
}

TEST_F(ApiCases, InconsistentDevicesFail) {
    std::string msg;
    DeviceInfo d = goodDevice();
    d.il_versions.clear();
    EXPECT_EQ(run("api.il_version.spirv_listed_for_gating_extension", d, &msg), Status::Fail);

    for (std::vector<size_t> sizes : {std::vector<size_t>{}, {16, 12}, {32, 16}, {16, 16}, {0}}) {
        d = goodDevice();
        d.sub_group_sizes = sizes;
        EXPECT_EQ(run("api.sub_group_sizes.non_empty", d, &msg), Status::Fail) << sizes.size();
    }
    d = goodDevice();
    d.max_num_sub_groups = 0;
    EXPECT_EQ(run("api.sub_group_sizes.consistent_with_device_limits", d, &msg), Status::Fail);

    // Below 1.1.0 the device promised less (its cases run as device_specific, version_gap.h): no Fail. No
    // version at all, or a major version 0, is no version the specification defines: Fail.
    d = goodDevice();
    d.extensions[1] = {"cl_intel_subgroup_2d_block_io", 1, 0, 0, true};
    EXPECT_EQ(run("api.extension_versions.cl_intel_subgroup_2d_block_io", d, &msg), Status::Pass) << msg;
    d.extensions[1] = {"cl_intel_subgroup_2d_block_io", 0, 9, 0, true};
    EXPECT_EQ(run("api.extension_versions.cl_intel_subgroup_2d_block_io", d, &msg), Status::Fail);
    EXPECT_NE(msg.find("0.9.0"), std::string::npos) << msg;
    d.extensions[1].version_known = false;
    EXPECT_EQ(run("api.extension_versions.cl_intel_subgroup_2d_block_io", d, &msg), Status::Fail);
    EXPECT_NE(msg.find("without a version"), std::string::npos) << msg;

    // At 1.0.0 the SPIR-V queries need not list SPV_INTEL_2d_block_io; when they do, they must be whole.
    d = goodDevice();
    d.extensions[1] = {"cl_intel_subgroup_2d_block_io", 1, 0, 0, true};
    d.spirv_extensions = {"SPV_INTEL_subgroups"};
    EXPECT_EQ(run("api.spirv_queries.cl_intel_subgroup_2d_block_io", d, &msg), Status::NotSupported);
    EXPECT_NE(msg.find("below 1.1"), std::string::npos) << msg;
    d = goodDevice();
    d.extensions[1] = {"cl_intel_subgroup_2d_block_io", 1, 0, 0, true};
    d.spirv_capabilities = {5568, 5569, 5570, 6228};
    EXPECT_EQ(run("api.spirv_queries.cl_intel_subgroup_2d_block_io", d, &msg), Status::Fail);
    EXPECT_NE(msg.find("6229"), std::string::npos) << msg;

    // The known driver gap: SPV_INTEL_2d_block_io missing from CL_DEVICE_SPIRV_EXTENSIONS_KHR.
    d = goodDevice();
    d.spirv_extensions = {"SPV_INTEL_subgroups"};
    EXPECT_EQ(run("api.spirv_queries.cl_intel_subgroup_2d_block_io", d, &msg), Status::Fail);
    EXPECT_NE(msg.find("SPV_INTEL_2d_block_io"), std::string::npos) << msg;
    d = goodDevice();
    d.spirv_capabilities = {5568, 5569, 6228, 6229, 6230};
    EXPECT_EQ(run("api.spirv_queries.cl_intel_spirv_subgroups", d, &msg), Status::Fail);
    EXPECT_NE(msg.find("5570"), std::string::npos) << msg;
    d.image_support = false;  // without images, image block IO need not be listed
    EXPECT_EQ(run("api.spirv_queries.cl_intel_spirv_subgroups", d, &msg), Status::Pass);
}

TEST_F(ApiCases, MmaNIsTheMinimumSubGroupSizeOfTheTable) {
    std::string msg;
    DeviceInfo d = goodDevice();
    EXPECT_EQ(run("api.mma.n_is_min_sub_group_size", d, &msg), Status::NotSupported);
    EXPECT_NE(msg.find("cl_intel_subgroup_matrix_multiply_accumulate"), std::string::npos) << msg;
    d.extensions.push_back({"cl_intel_subgroup_matrix_multiply_accumulate", 1, 1, 0, true});
    EXPECT_EQ(run("api.mma.n_is_min_sub_group_size", d), Status::Pass);  // {16, 32}
    d.sub_group_sizes = {8, 16, 32};
    EXPECT_EQ(run("api.mma.n_is_min_sub_group_size", d), Status::Pass);
    d.sub_group_sizes = {32};
    EXPECT_EQ(run("api.mma.n_is_min_sub_group_size", d, &msg), Status::Fail);
    EXPECT_NE(msg.find("32"), std::string::npos) << msg;
}

TEST_F(ApiCases, MmaTf32NeedsTheBaseExtensionAndN16) {
    std::string msg;
    DeviceInfo d = goodDevice();
    EXPECT_EQ(run("api.mma.tf32_rows_need_n16", d), Status::NotSupported);
    d.extensions.push_back({"cl_intel_subgroup_matrix_multiply_accumulate_tf32", 1, 0, 0, true});
    EXPECT_EQ(run("api.mma.tf32_rows_need_n16", d, &msg), Status::Fail);  // no base extension
    d.extensions.push_back({"cl_intel_subgroup_matrix_multiply_accumulate", 1, 1, 0, true});
    EXPECT_EQ(run("api.mma.tf32_rows_need_n16", d), Status::Pass);
    d.sub_group_sizes = {8, 16, 32};
    EXPECT_EQ(run("api.mma.tf32_rows_need_n16", d, &msg), Status::Fail);
    EXPECT_NE(msg.find("8,16,32"), std::string::npos) << msg;
}

}  // namespace
}  // namespace cts
