// SPV_INTEL_2d_block_io operand rules, registered as rule set "2d_block_io" (see rules.h).
//
// The core rule set (rules_core.cpp) already requires each opcode's capability and the OpExtension; this set
// checks the operands: constant 32-bit shape operands and their legal values, pointer storage classes,
// integer memory operands, the two-component Coordinate, the transform destination type, and the OpenCL
// environment's 32-bit operand widths. Every message cites the sentence it enforces.
#pragma once

#include <vector>

#include "test_common/spirv/module.h"
#include "test_common/spirv/rules.h"

namespace cts {

void check2dBlockIoRules(const SpirvModule& module, std::vector<Violation>& out);

}  // namespace cts
