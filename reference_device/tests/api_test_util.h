// Shared fixture of the reference device's API tests: one platform, its device, a context whose pfn_notify
// messages are collected, and an in-order profiling queue. Everything goes through the ICD loader.
#pragma once

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace refdev_test {

// True when the tests run against the stand-in interpreter (kernels are reflected, not executed).
bool standIn();

// Reads a fixture module assembled at build time (REFDEV_FIXTURE_DIR).
std::vector<unsigned char> readFixture(const std::string& name);

// Profile name the device reports in CL_DEVICE_VERSION ("xe_hpc", "xe_hpg").
std::string deviceString(cl_device_id device, cl_device_info param);

class ApiTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;

    // Builds `fixture` with clCreateProgramWithIL + clBuildProgram and expects success.
    cl_program buildFixture(const std::string& fixture);
    std::string buildLog(cl_program program);
    std::string profileName();
    bool imageSupport();  // CL_DEVICE_IMAGE_SUPPORT (xe_hpg; Xe-HPC has no OpenCL images)

    cl_platform_id platform_ = nullptr;
    cl_device_id device_ = nullptr;
    cl_context context_ = nullptr;
    cl_command_queue queue_ = nullptr;
    std::vector<std::string> messages_;  // pfn_notify messages of context_
};

}  // namespace refdev_test
