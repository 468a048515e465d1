#include "test_common/harness/device/registered_drivers.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

namespace cts {
namespace {

class RegisteredDrivers : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/cts_vendors_XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir = tmpl;
    }
    void TearDown() override { std::system(("rm -rf '" + dir + "'").c_str()); }
    void icd(const std::string& name, const std::string& text) { std::ofstream(dir + "/" + name) << text; }
    std::string dir;
};

TEST_F(RegisteredDrivers, ReadsTheIcdFilesOfTheDirectory) {
    icd("pocl.icd", "libpocl.so.2.10.0");
    icd("intel.icd", "/usr/lib/x86_64-linux-gnu/intel-opencl/libigdrcl.so\r\n");
    icd("notes.txt", "/not/a/driver.so");
    icd("empty.icd", "");
    auto drivers = registeredDrivers(dir);
    ASSERT_EQ(drivers.size(), 2u);
    EXPECT_EQ(drivers[0].icd_file, dir + "/intel.icd");
    EXPECT_EQ(drivers[0].library, "/usr/lib/x86_64-linux-gnu/intel-opencl/libigdrcl.so");
    EXPECT_EQ(drivers[1].library, "libpocl.so.2.10.0");
    EXPECT_TRUE(registeredDrivers(dir + "/missing").empty());
}

TEST_F(RegisteredDrivers, SpecialFilesNamedIcdAreSkippedUnread) {
    // A FIFO blocked the header of --icd=system until a writer came; /dev/zero was read without end.
    icd("pocl.icd", "libpocl.so.2.10.0\n");
    ASSERT_EQ(mkfifo((dir + "/fifo.icd").c_str(), 0600), 0);
    ASSERT_EQ(symlink("/dev/zero", (dir + "/zero.icd").c_str()), 0);
    auto drivers = registeredDrivers(dir);
    ASSERT_EQ(drivers.size(), 1u);
    EXPECT_EQ(drivers[0].library, "libpocl.so.2.10.0");
}

TEST_F(RegisteredDrivers, TheOnesNoPlatformCameFrom) {
    icd("pocl.icd", "libpocl.so.2.10.0");
    icd("intel.icd", "/usr/lib/x86_64-linux-gnu/intel-opencl/libigdrcl.so");
    // pocl's platform comes from the library its bare name resolves to; Intel's GPU driver gave none.
    auto silent = driversWithoutPlatform(registeredDrivers(dir), {"/lib/x86_64-linux-gnu/libpocl.so.2.10.0"});
    ASSERT_EQ(silent.size(), 1u);
    EXPECT_EQ(silent[0].icd_file, dir + "/intel.icd");
    EXPECT_EQ(driversWithoutPlatform(registeredDrivers(dir), {}).size(), 2u);
    EXPECT_TRUE(driversWithoutPlatform(
                    registeredDrivers(dir),
                    {"/usr/lib/x86_64-linux-gnu/intel-opencl/libigdrcl.so", "/x/libpocl.so.2.10.0"})
                    .empty());
}

TEST_F(RegisteredDrivers, SaysWhyADriverGaveNothing) {
    std::string text = noPlatformText({dir + "/x.icd", "/nonexistent/libnothing.so"});
    EXPECT_NE(text.find(dir + "/x.icd (/nonexistent/libnothing.so) cannot be loaded: "), std::string::npos)
        << text;
    text = noPlatformText({dir + "/c.icd", "libc.so.6"});  // loads: a library that is no driver at all
    EXPECT_NE(text.find("loads but reports no platform"), std::string::npos) << text;
}

TEST(VendorsDirectory, TheLoadersChoice) {
    EXPECT_EQ(vendorsDirectory(nullptr), "/etc/OpenCL/vendors");
    EXPECT_EQ(vendorsDirectory(""), "/etc/OpenCL/vendors");
    EXPECT_EQ(vendorsDirectory("/tmp"), "/tmp");
    EXPECT_EQ(vendorsDirectory("/nonexistent/libdriver.so"), "");
}

}  // namespace
}  // namespace cts
