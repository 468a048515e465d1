// SPV_INTEL_subgroups operand-type rules, registered as rule set "subgroups" (see rules.h).
//
// The core rule set (rules_core.cpp) already requires each opcode's capability and the OpExtension; this set
// checks the operand-type sentences of the eight instructions: shuffle data types equal to Result Type,
// 32-bit integer scalar InvocationId / Delta / Value, block IO pointers to a scalar whose type is the data's
// component type, and image block IO Image / Coordinate / data types. Every message cites the sentence.
#pragma once

#include <vector>

#include "test_common/spirv/module.h"
#include "test_common/spirv/rules.h"

namespace cts {

void checkSubgroupsRules(const SpirvModule& module, std::vector<Violation>& out);

}  // namespace cts
