#include "test_common/harness/model/layout.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace cts {
namespace {

// A scratch tree standing in for a build or install prefix.
class LayoutTest : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/cts_layout_XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        root = tmpl;
    }
    void TearDown() override { std::system(("rm -rf '" + root + "'").c_str()); }
    void write(const std::string& rel, const std::string& text) {
        std::string path = root + "/" + rel;
        std::system(("mkdir -p \"$(dirname '" + path + "')\"").c_str());
        std::ofstream(path) << text;
    }
    std::string root;
};

TEST_F(LayoutTest, NothingThereNamesEveryPlaceTried) {
    DefaultPaths p = findDefaultPaths(root);
    EXPECT_EQ(p.assets_dir, "");
    EXPECT_EQ(p.icd_vendors, "");
    EXPECT_EQ(joinTried(p.assets_tried), root + "/assets or " + root + "/share/spirv_intel_cts/assets");
    EXPECT_EQ(joinTried(p.icd_tried), root + "/icd or " + root + "/lib/spirv_intel_cts/libRefDevOpenCL.so");
}

TEST_F(LayoutTest, BuildTreeComesFirst) {
    write("assets/manifest.json", "{}");
    write("icd/refdev.icd", "/x/libRefDevOpenCL.so\n");
    write("share/spirv_intel_cts/assets/manifest.json", "{}");
    DefaultPaths p = findDefaultPaths(root);
    EXPECT_EQ(p.assets_dir, root + "/assets");
    EXPECT_EQ(p.icd_vendors, root + "/icd");
    EXPECT_EQ(p.icd_filenames, "");
}

TEST_F(LayoutTest, BuildTreeUsesItsIcdDirectoryWhenItNamesItsOwnLibrary) {
    write("lib/libRefDevOpenCL.so", "");
    write("icd/refdev.icd", root + "/lib/libRefDevOpenCL.so\n");
    DefaultPaths p = findDefaultPaths(root);
    EXPECT_EQ(p.icd_vendors, root + "/icd");
    EXPECT_EQ(p.icd_filenames, "");
}

// A copied build tree's .icd file names the original tree's library, which may still be there.
TEST_F(LayoutTest, CopiedBuildTreeNamesItsOwnLibrary) {
    write("lib/libRefDevOpenCL.so", "");
    write("original/lib/libRefDevOpenCL.so", "");
    write("icd/refdev.icd", root + "/original/lib/libRefDevOpenCL.so\n");
    DefaultPaths p = findDefaultPaths(root);
    EXPECT_EQ(p.icd_vendors, root + "/lib/libRefDevOpenCL.so");
    EXPECT_EQ(p.icd_filenames, p.icd_vendors);
}

// A copy of an installed prefix whose .icd file names the original prefix's library (as older installs
// wrote it) still loads its own.
// The build tree's icd/refdev.icd as a FIFO blocked the start-up, as /dev/zero read it without end: it is
// treated as naming no library, so the tree loads its own.
TEST_F(LayoutTest, ASpecialFileAsTheBuildTreesIcdFileIsNotRead) {
    write("lib/libRefDevOpenCL.so", "");
    std::system(("mkdir -p '" + root + "/icd'").c_str());
    ASSERT_EQ(mkfifo((root + "/icd/refdev.icd").c_str(), 0600), 0);
    DefaultPaths p = findDefaultPaths(root);
    EXPECT_EQ(p.icd_vendors, root + "/lib/libRefDevOpenCL.so");
}

TEST_F(LayoutTest, InstalledTreeNamesItsOwnLibraryWhateverItsIcdFileSays) {
    write("share/spirv_intel_cts/assets/manifest.json", "{}");
    write("lib/spirv_intel_cts/libRefDevOpenCL.so", "");
    write("original/lib/spirv_intel_cts/libRefDevOpenCL.so", "");
    write("share/spirv_intel_cts/icd/refdev.icd",
          root + "/original/lib/spirv_intel_cts/libRefDevOpenCL.so\n");
    DefaultPaths p = findDefaultPaths(root);
    EXPECT_EQ(p.assets_dir, root + "/share/spirv_intel_cts/assets");
    EXPECT_EQ(p.icd_vendors, root + "/lib/spirv_intel_cts/libRefDevOpenCL.so");
    EXPECT_EQ(p.icd_filenames, p.icd_vendors);
}

TEST_F(LayoutTest, MovedInstalledTreeNamesItsOwnLibrary) {
    write("lib/spirv_intel_cts/libRefDevOpenCL.so", "");
    write("share/spirv_intel_cts/icd/refdev.icd", "libRefDevOpenCL.so\n");
    DefaultPaths p = findDefaultPaths(root);
    EXPECT_EQ(p.icd_vendors, root + "/lib/spirv_intel_cts/libRefDevOpenCL.so");
    EXPECT_EQ(p.icd_filenames, p.icd_vendors);
}

TEST_F(LayoutTest, InstalledTreeWithoutItsLibraryIsNotFound) {
    write("share/spirv_intel_cts/icd/refdev.icd", "libRefDevOpenCL.so\n");
    DefaultPaths p = findDefaultPaths(root);
    EXPECT_EQ(p.icd_vendors, "");
    EXPECT_EQ(p.icd_tried.back(), root + "/lib/spirv_intel_cts/libRefDevOpenCL.so");
}

TEST_F(LayoutTest, TargetDescriptionsFromTheBuildTreeThenTheInstalledOne) {
    EXPECT_EQ(findDefaultPaths(root).targets_dir, "");
    EXPECT_EQ(joinTried(findDefaultPaths(root).targets_tried),
              root + "/targets or " + root + "/share/spirv_intel_cts/targets");
    write("share/spirv_intel_cts/targets/pvc.json", "{}");
    EXPECT_EQ(findDefaultPaths(root).targets_dir, root + "/share/spirv_intel_cts/targets");
    write("targets/pvc.json", "{}");
    EXPECT_EQ(findDefaultPaths(root).targets_dir, root + "/targets");
}

}  // namespace
}  // namespace cts
