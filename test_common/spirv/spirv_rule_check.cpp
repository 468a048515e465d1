// spirv_rule_check <file.spv>...: runs the suite's SPIR-V rule sets over each module.
// Prints "file: rule: message (word N)" per violation. Exit 0 when every module is clean, 1 when any
// module breaks a rule or cannot be parsed, 2 for a usage error.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "test_common/spirv/rules.h"

int main(int argc, char** argv) {
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        std::fprintf(stderr, "usage: %s <file.spv>...\n       %s --list-rule-sets\n", argv[0], argv[0]);
        return argc < 2 ? 2 : 0;
    }
    if (!std::strcmp(argv[1], "--list-rule-sets")) {
        for (const auto& [name, rules] : cts::ruleSets()) std::printf("%s\n", name.c_str());
        return 0;
    }
    int status = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string file = argv[i];
        try {
            cts::SpirvModule module = cts::SpirvModule::fromFile(file);
            for (const auto& v : cts::checkModule(module)) {
                std::printf("%s: %s: %s (word %u)\n", file.c_str(), v.rule.c_str(), v.message.c_str(),
                            v.word_offset);
                status = 1;
            }
        } catch (const cts::SpirvParseError& e) {
            std::printf("%s: parse: %s\n", file.c_str(), e.what());
            status = 1;
        } catch (const std::exception& e) {
            // A rule set that hit a malformed operand list: report it against the file, keep going.
            std::printf("%s: internal: %s (word 0)\n", file.c_str(), e.what());
            status = 1;
        }
    }
    return status;
}
