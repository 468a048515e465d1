#include "test_common/spirv/rules.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace cts {

namespace {
// Filled by file-scope registrars before main; read-only afterwards.
std::map<std::string, RuleSet>& table() {
    static std::map<std::string, RuleSet> sets;
    return sets;
}
}  // namespace

void registerRuleSet(const char* name, RuleSet rules) {
    if (!table().emplace(name, rules).second) {
        std::fprintf(stderr, "spirv rule set '%s' registered twice\n", name);
        std::abort();
    }
}

std::vector<std::pair<std::string, RuleSet>> ruleSets() {
    return {table().begin(), table().end()};
}

std::vector<Violation> checkModule(const SpirvModule& module) {
    std::vector<Violation> out;
    for (const auto& [name, rules] : table()) rules(module, out);
    std::stable_sort(out.begin(), out.end(), [](const Violation& a, const Violation& b) {
        return a.word_offset != b.word_offset ? a.word_offset < b.word_offset : a.rule < b.rule;
    });
    return out;
}

}  // namespace cts
