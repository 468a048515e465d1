#include "test_common/harness/model/requirements.h"

#include <gtest/gtest.h>

namespace cts {
namespace {

DeviceInfo device() {
    DeviceInfo d;
    d.extensions = {{"cl_intel_spirv_subgroups", 1, 0, 0, true},
                    {"cl_intel_subgroup_2d_block_io", 1, 1, 0, true},
                    {"cl_khr_fp16", 1, 0, 0, true}};
    d.il_versions = {"SPIR-V_1.0", "SPIR-V_1.2"};
    d.sub_group_sizes = {16, 32};
    d.image_support = true;
    d.image2d_rw_formats = {{CL_R, CL_UNSIGNED_INT32}};
    d.fp16 = true;
    d.fp64 = false;
    d.max_mem_alloc_size = 1ull << 30;
    d.global_mem_size = 4ull << 30;
    return d;
}

Status eval(std::vector<std::string> tokens, std::string* msg = nullptr) {
    Outcome o = evaluateRequirements(tokens, device());
    if (msg) *msg = o.message;
    return o.status;
}

TEST(Requirements, SatisfiedTokensPass) {
    EXPECT_EQ(eval({"ext=cl_intel_spirv_subgroups", "ext=cl_intel_subgroup_2d_block_io@1.1", "spirv=1.2",
                    "sg_size=16", "sg_size=32", "min_sg_size=16", "images", "fp16", "int64",
                    "image_format=CL_R/CL_UNSIGNED_INT32"}),
              Status::Pass);
    EXPECT_EQ(eval({}), Status::Pass);
}

TEST(Requirements, MissingThingsAreNotSupportedNamingThem) {
    std::string msg;
    EXPECT_EQ(eval({"ext=cl_intel_spirv_media_block_io"}, &msg), Status::NotSupported);
    EXPECT_NE(msg.find("cl_intel_spirv_media_block_io"), std::string::npos);
    EXPECT_EQ(eval({"ext=cl_intel_subgroup_2d_block_io@1.2"}, &msg), Status::NotSupported);
    EXPECT_NE(msg.find("1.2"), std::string::npos);
    EXPECT_EQ(eval({"spirv=1.3"}, &msg), Status::NotSupported);
    EXPECT_NE(msg.find("SPIR-V 1.3"), std::string::npos);
    EXPECT_EQ(eval({"sg_size=8"}, &msg), Status::NotSupported);
    EXPECT_NE(msg.find("8"), std::string::npos);
    EXPECT_EQ(eval({"min_sg_size=8"}, &msg), Status::NotSupported);
    EXPECT_EQ(eval({"fp64"}, &msg), Status::NotSupported);
    EXPECT_NE(msg.find("fp64"), std::string::npos);
    EXPECT_EQ(eval({"image_format=CL_RGBA/CL_UNSIGNED_INT8"}, &msg), Status::NotSupported);
    EXPECT_NE(msg.find("CL_RGBA/CL_UNSIGNED_INT8"), std::string::npos);
}

TEST(Requirements, UnknownVersionIsNotSupportedForVersionedToken) {
    DeviceInfo d = device();
    d.extensions[1].version_known = false;
    EXPECT_EQ(evaluateRequirements({"ext=cl_intel_subgroup_2d_block_io"}, d).status, Status::Pass);
    EXPECT_EQ(evaluateRequirements({"ext=cl_intel_subgroup_2d_block_io@1.1"}, d).status,
              Status::NotSupported);
}

// Below the version a token names, the device meets it in name only: NotSupported, or with a gap list the
// token is a gap and the rest is still evaluated.
TEST(Requirements, VersionBelowTheTokenIsAGapWhenGapsAreCollected) {
    DeviceInfo d = device();
    d.extensions[1].minor = 0;  // cl_intel_subgroup_2d_block_io 1.0.0
    const std::vector<std::string> tokens = {"ext=cl_intel_subgroup_2d_block_io@1.1", "sg_size=16"};
    EXPECT_EQ(evaluateRequirements(tokens, d).status, Status::NotSupported);
    std::vector<VersionGap> gaps;
    EXPECT_EQ(evaluateRequirements(tokens, d, &gaps).status, Status::Pass);
    ASSERT_EQ(gaps.size(), 1u);
    EXPECT_EQ(gaps[0].extension, "cl_intel_subgroup_2d_block_io");
    EXPECT_EQ(gaps[0].reportedText(), "1.0.0");
    EXPECT_EQ(gaps[0].needText(), "1.1.0");
    // A gap does not hide a requirement the device lacks, nor is an unknown version a gap.
    gaps.clear();
    EXPECT_EQ(evaluateRequirements({"ext=cl_intel_subgroup_2d_block_io@1.1", "sg_size=8"}, d, &gaps).status,
              Status::NotSupported);
    d.extensions[1].version_known = false;
    gaps.clear();
    EXPECT_EQ(evaluateRequirements(tokens, d, &gaps).status, Status::NotSupported);
    EXPECT_TRUE(gaps.empty());
    // At the version or above: no gap.
    gaps.clear();
    EXPECT_EQ(evaluateRequirements(tokens, device(), &gaps).status, Status::Pass);
    EXPECT_TRUE(gaps.empty());
}

TEST(Requirements, NoImagesMeansNotSupported) {
    DeviceInfo d = device();
    d.image_support = false;
    EXPECT_EQ(evaluateRequirements({"images"}, d).status, Status::NotSupported);
    EXPECT_EQ(evaluateRequirements({"image_format=CL_R/CL_UNSIGNED_INT32"}, d).status, Status::NotSupported);
}

TEST(Requirements, MalformedTokensAreInternalErrors) {
    for (const char* t : {"ext=", "ext=x@1", "spirv=one", "sg_size=x", "sg_size=", "image_format=CL_R",
                          "image_format=CL_NOPE/CL_FLOAT", "gpu", "fp32", "min_sg_size=-1"}) {
        std::string msg;
        EXPECT_EQ(eval({t}, &msg), Status::InternalError) << t;
        EXPECT_NE(msg.find(t), std::string::npos) << msg;
    }
}

TEST(Requirements, MemorySizesAgainstTheDeviceQueries) {
    std::string msg;
    EXPECT_EQ(eval({"max_alloc=1073741824", "global_mem=4294967296"}), Status::Pass);
    // One byte more than CL_DEVICE_MAX_MEM_ALLOC_SIZE: NotSupported naming the query and both sizes.
    EXPECT_EQ(eval({"max_alloc=1073741825"}, &msg), Status::NotSupported);
    EXPECT_NE(msg.find("CL_DEVICE_MAX_MEM_ALLOC_SIZE is 1073741824 bytes"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1073741825"), std::string::npos) << msg;
    EXPECT_EQ(eval({"global_mem=4294967297"}, &msg), Status::NotSupported);
    EXPECT_NE(msg.find("CL_DEVICE_GLOBAL_MEM_SIZE is 4294967296 bytes"), std::string::npos) << msg;
    for (const char* bad : {"max_alloc=", "max_alloc=0", "max_alloc=-1", "max_alloc=4G", "global_mem=1e9",
                            "max_alloc=99999999999999999999", "max_alloc"})
        EXPECT_EQ(eval({bad}), Status::InternalError) << bad;
}

}  // namespace
}  // namespace cts
