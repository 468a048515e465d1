// Coarse-grain buffer SVM allocations (svm.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include <CL/cl_icd.h>

namespace refdev::icd {

// Whether p lies inside a live SVM allocation; then *start = p and *bytes_left the bytes from p to its end.
// Call under apiMutex().
bool svmRange(const void* p, uint8_t** start, size_t* bytes_left);

void fillSvmEntries(cl_icd_dispatch& d);

}  // namespace refdev::icd
