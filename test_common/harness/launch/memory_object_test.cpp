#include "test_common/harness/launch/memory_object.h"

#include <gtest/gtest.h>

#include "test_common/cl/device_info.h"

namespace cts {
namespace {

CaseSpec withMemory(const char* kind) {
    CaseSpec spec;
    spec.name = "f.case";
    if (kind) spec.params.set("memory", kind);
    return spec;
}

TEST(MemorySupport, OnlySvmNeedsTheDevicesCoarseGrainBufferSvm) {
    DeviceInfo without, with;
    with.svm_capabilities = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER;
    for (const char* kind :
         {static_cast<const char*>(nullptr), "buffer", "sub_buffer_min_origin", "use_host_ptr"})
        EXPECT_EQ(memorySupport(withMemory(kind), without).status, Status::Pass) << (kind ? kind : "none");
    const Outcome lacking = memorySupport(withMemory("svm_coarse"), without);
    EXPECT_EQ(lacking.status, Status::NotSupported);
    EXPECT_EQ(lacking.message, "CL_DEVICE_SVM_CAPABILITIES lacks CL_DEVICE_SVM_COARSE_GRAIN_BUFFER");
    EXPECT_EQ(memorySupport(withMemory("svm_coarse"), with).status, Status::Pass);
    without.svm_capabilities = CL_DEVICE_SVM_FINE_GRAIN_BUFFER;  // another kind of SVM is not enough
    EXPECT_EQ(memorySupport(withMemory("svm_coarse"), without).status, Status::NotSupported);
}

}  // namespace
}  // namespace cts
