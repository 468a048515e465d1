// --build-only: what a launch is judged by when it is not made. The case has built its module, created its
// kernel (createKernel checked CL_KERNEL_NUM_ARGS against the module, as in every run), set its arguments and
// made its buffers and images; in place of clEnqueueNDRangeKernel the kernel queries the launch relies on
// are checked against what the module and the case say:
//   - CL_KERNEL_ARG_ADDRESS_QUALIFIER of each argument is the one its type in the manifest's module table
//   fixes
//     (global, local, constant buffers; private for values), when the driver gives argument information;
//   - CL_KERNEL_WORK_GROUP_SIZE is at least the case's local size (else the launch would be refused);
//   - a kernel whose module declares OpExecutionMode SubgroupSize N: CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL
//     is N (on a device reporting cl_intel_required_subgroup_size) and
//     CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE for the case's local size is N; a kernel without one: that
//     query names a size the device reports.
// docs/user_guide.md, "Build-only runs".
#pragma once

#include <string>

#include <CL/cl.h>

#include "test_common/harness/model/case.h"

namespace cts {

// "" when every query above is right, else the first wrong one (what was asked, what came back, what the
// module or the case says). `checked` receives what was checked, for the Pass message.
std::string kernelQueryProblem(RunContext& ctx, cl_kernel kernel, cl_uint dims, const size_t* local,
                               std::string* checked);

// runNDRange's build-only path: throws CaseFailure for a wrong query, else LaunchWithheld.
[[noreturn]] void withholdLaunch(RunContext& ctx, cl_kernel kernel, cl_uint dims, const size_t* local);

}  // namespace cts
