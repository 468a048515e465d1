// Kernel enqueue: NDRange validation, local-size choice, argument marshalling, faults, launch.
#pragma once

#include "reference_device/icd/objects.h"

namespace refdev::icd {

// Sub-group size the kernel runs with (its required size, else the profile's default).
size_t kernelSubGroupSize(cl_kernel k);

// Local size used when the application passes none: the kernel's required size if it has one, else per
// dimension the largest divisor of the global size that keeps the work-group within 256 work-items, so that
// work-groups are uniform and sub-groups full whenever the global size allows it.
void chooseLocalSize(cl_kernel k, cl_uint dims, const size_t* global, size_t* local);

void fillLaunchEntries(cl_icd_dispatch& d);

}  // namespace refdev::icd
