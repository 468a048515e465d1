#include "test_common/harness/device/runtime_package.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "test_common/harness/device/icd_file.h"

namespace cts {
namespace {

// A scratch tree standing in for a venv with an installed driver.
class RuntimePackageTest : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/cts_runtime_XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        root = tmpl;
        site = root + "/venv/lib/python3.11/site-packages";
        lib = root + "/venv/lib/libdriver.so";
        write("venv/lib/libdriver.so", "not really a library");
    }
    void TearDown() override { std::system(("rm -rf '" + root + "'").c_str()); }
    void write(const std::string& rel, const std::string& text) {
        std::string path = root + "/" + rel;
        std::system(("mkdir -p \"$(dirname '" + path + "')\"").c_str());
        std::ofstream(path) << text;
    }
    // A dist-info directory in the venv's site-packages.
    void distribution(const std::string& dir, const std::string& name, const std::string& version,
                      const std::string& record) {
        std::string base = "venv/lib/python3.11/site-packages/" + dir + ".dist-info/";
        write(base + "METADATA", "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version +
                                     "\nSummary: x\n\nName: not-a-header\n");
        write(base + "INSTALLER", "pip\n");
        write(base + "RECORD", record);
    }
    std::string root, site, lib;
};

TEST_F(RuntimePackageTest, RecordListingTheLibraryNamesItsDistribution) {
    distribution("other-1.0", "other", "1.0", "../../libother.so,sha256=a,1\nother/__init__.py,,\n");
    distribution("driver_rt-2026.2.0", "driver-rt", "2026.2.0",
                 "../../libdriver.so.2026,sha256=b,2\n../../libdriver.so,sha256=c,3\n");
    RuntimePackage p = findRuntimePackage(lib, "");
    EXPECT_EQ(p.name, "driver-rt 2026.2.0");
    EXPECT_EQ(p.source, "pip, " + root + "/venv");
}

TEST_F(RuntimePackageTest, LibraryNamedByALinkedDirectoryIsFound) {
    distribution("driver_rt-1.0", "driver-rt", "1.0", "../../libdriver.so,sha256=c,3\n");
    ASSERT_EQ(symlink("lib", (root + "/venv/lib64").c_str()), 0);
    EXPECT_EQ(findRuntimePackage(root + "/venv/lib64/libdriver.so", "").name, "driver-rt 1.0");
}

TEST_F(RuntimePackageTest, QuotedRecordPathsAndAbsolutePaths) {
    write("venv/lib/lib,comma.so", "");
    distribution("a-1.0", "a", "1.0", "\"../../lib,comma.so\",sha256=c,3\n");
    EXPECT_EQ(findRuntimePackage(root + "/venv/lib/lib,comma.so", "").name, "a 1.0");
    distribution("b-2.0", "b", "2.0", lib + ",,\n");
    EXPECT_EQ(findRuntimePackage(lib, "").name, "b 2.0");
}

TEST_F(RuntimePackageTest, LibraryNoDistributionListsIsUnknown) {
    distribution("driver_rt-1.0", "driver-rt", "1.0", "../../libdriver.so.1,sha256=c,3\n");
    RuntimePackage p = findRuntimePackage(lib, "");
    EXPECT_EQ(p.name, "");
    EXPECT_EQ(p.source, "the library belongs to no Python package");
    EXPECT_EQ(findRuntimePackage(root + "/missing.so", "").name, "");
    EXPECT_EQ(findRuntimePackage("", "").source, "the driver library is not known");
}

TEST_F(RuntimePackageTest, MetadataWithoutAVersionIsNotAPackage) {
    distribution("driver_rt-1.0", "driver-rt", "", "../../libdriver.so,,\n");
    EXPECT_EQ(findRuntimePackage(lib, "").name, "");
}

TEST_F(RuntimePackageTest, PackageFileBesideTheIcdFileWins) {
    distribution("driver_rt-1.0", "driver-rt", "1.0", "../../libdriver.so,,\n");
    write("icd/cpu.icd", lib + "\n");
    write("icd/cpu.package", "intel-opencl-rt 2026.2.0\n");
    RuntimePackage p = findRuntimePackage(lib, root + "/icd/cpu.icd");
    EXPECT_EQ(p.name, "intel-opencl-rt 2026.2.0");
    EXPECT_EQ(p.source, "from " + root + "/icd/cpu.package");
    // An empty package file says nothing: the venv's record does.
    write("icd/cpu.package", "\n");
    EXPECT_EQ(findRuntimePackage(lib, root + "/icd/cpu.icd").name, "driver-rt 1.0");
    // Without --icd there is no .icd file to look beside.
    write("icd/cpu.package", "intel-opencl-rt 2026.2.0\n");
    EXPECT_EQ(findRuntimePackage(lib, "").name, "driver-rt 1.0");
}

TEST(PackageFile, ReplacesTheIcdSuffix) {
    EXPECT_EQ(packageFileFor("/a/intel-cpu.icd"), "/a/intel-cpu.package");
    EXPECT_EQ(packageFileFor("/a/driver"), "/a/driver.package");
    EXPECT_EQ(packageFileFor("/a.icd/x"), "/a.icd/x.package");
}

TEST(DriverLibrary, NoPlatformNoLibrary) {
    EXPECT_EQ(driverLibraryOf(nullptr), "");
}

}  // namespace
}  // namespace cts
