// SPV_INTEL_subgroup_matrix_multiply_accumulate operand rules, registered as rule set
// "matrix_multiply_accumulate" (see rules.h).
//
// The core rule set (rules_core.cpp) already requires the SubgroupMatrixMultiplyAccumulateINTEL capability
// and the OpExtension; this set checks the operands of OpSubgroupMatrixMultiplyAccumulateINTEL: a constant
// 32-bit K Dim, the M dimension, scalar or vector integer / floating-point operand types, and that the
// combination (K, Result, A, B, C, Matrix Multiply Accumulate Operands) is exactly one row of the OpenCL
// environment table for the sub-group size N (8 or 16; the SubgroupSize execution mode of the kernels that
// reach the instruction picks N when declared). Every message cites the sentence or table row it enforces.
#pragma once

#include <vector>

#include "test_common/spirv/module.h"
#include "test_common/spirv/rules.h"

namespace cts {

void checkMmaRules(const SpirvModule& module, std::vector<Violation>& out);

}  // namespace cts
