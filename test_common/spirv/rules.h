// Rule sets of the suite's own SPIR-V checker: the extension rules that no SPIRV-Tools release checks.
//
// A rule set is a function that appends one Violation per broken rule. Rule sets live in files named
// rules_<area>.cpp in this directory, or rules.cpp in a family's folder <family>/ (CMake globs both into
// cts_spirv_check, which is linked whole-archive, so a file-scope registrar is enough to plug a new set in):
//
//     static void checkMyArea(const cts::SpirvModule& module, std::vector<cts::Violation>& out) { ... }
//     CTS_SPIRV_RULE_SET("<area>", checkMyArea);
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "test_common/spirv/module.h"

namespace cts {

struct Violation {
    std::string rule;      // short stable id, e.g. "capability.SubgroupShuffleINTEL"
    std::string message;   // what is wrong, in the spec's words
    uint32_t word_offset;  // first word of the offending instruction (0 for the module as a whole)
};

using RuleSet = void (*)(const SpirvModule&, std::vector<Violation>&);

// Adds a rule set under `name` (names are unique; registering a name twice aborts with a message).
void registerRuleSet(const char* name, RuleSet rules);
// All registered rule sets, sorted by name.
std::vector<std::pair<std::string, RuleSet>> ruleSets();
// Runs every registered rule set over `module`; violations are sorted by word offset then rule.
std::vector<Violation> checkModule(const SpirvModule& module);

namespace detail {
struct RuleSetRegistrar {
    RuleSetRegistrar(const char* name, RuleSet rules) { registerRuleSet(name, rules); }
};
}  // namespace detail

}  // namespace cts

#define CTS_SPIRV_RULE_SET_CAT2(a, b) a##b
#define CTS_SPIRV_RULE_SET_CAT(a, b) CTS_SPIRV_RULE_SET_CAT2(a, b)
#define CTS_SPIRV_RULE_SET(name, fn)                                                               \
    static const ::cts::detail::RuleSetRegistrar CTS_SPIRV_RULE_SET_CAT(cts_rule_set_, __LINE__) { \
        name, fn                                                                                   \
    }
