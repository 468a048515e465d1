// The triton.* families: Triton-compiled modules (gemm; rows: copy, row max, row sum, softmax).
#pragma once

#include <memory>

#include "test_common/harness/model/case.h"

namespace cts::triton {
std::unique_ptr<Family> makeGemmFamily();
std::unique_ptr<Family> makeRowsFamily();
}  // namespace cts::triton
