// The four Intel extensions' instructions and capabilities as SPIRV-Headers' core grammar states them
// (generated at build time by gen_extension_grammar.py for the extensions the families' descriptors name).
#pragma once

#include <cstddef>
#include <cstdint>

namespace cts {

struct ExtensionInstruction {
    uint16_t opcode;
    const char* name;
    uint32_t capability;  // the capability the grammar says the instruction needs
    const char* capability_name;
    const char* extension;  // the extension that declares that capability
};

struct ExtensionCapability {
    uint32_t capability;
    const char* name;
    const char* extension;  // declaring the capability needs this OpExtension
    uint32_t implies;       // the capability it implicitly declares, 0 for none
};

extern const ExtensionInstruction kExtensionInstructions[];
extern const size_t kExtensionInstructionCount;
extern const ExtensionCapability kExtensionCapabilities[];
extern const size_t kExtensionCapabilityCount;

}  // namespace cts
