// SPV_INTEL_media_block_io operand rules, registered as rule set "media_block_io" (see rules.h).
//
// The core rule set (rules_core.cpp) already requires SubgroupImageMediaBlockIOINTEL for opcodes 5580-5581
// and the OpExtension; this set checks the operands: Width and Height 32-bit integer constants (the OpenCL
// environment's compile-time width and height), an Image of OpTypeImage with Sampled 0 or 2, a two-component
// integer Coordinate and an integer Result Type / Data. Every message cites the sentence it enforces.
#pragma once

#include <vector>

#include "test_common/spirv/module.h"
#include "test_common/spirv/rules.h"

namespace cts {

void checkMediaBlockIoRules(const SpirvModule& module, std::vector<Violation>& out);

}  // namespace cts
