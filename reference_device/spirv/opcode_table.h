// Opcode names and operand shapes of the SPIR-V core instruction set (opcode_table.cpp, generated at build
// time by tools/gen_opcode_table.py from the configured SPIRV-Headers grammar).
#pragma once

#include <cstddef>
#include <cstdint>

namespace refdev::spirv {

struct OpcodeEntry {
    uint16_t opcode;
    const char* name;
    const char* shape;  // operand shape codes, documented in tools/gen_opcode_table.py
};

extern const OpcodeEntry kOpcodeTable[];
extern const size_t kOpcodeTableSize;

// Core opcode entry, or nullptr when the opcode is not in the core grammar.
const OpcodeEntry* findCoreOpcode(uint32_t opcode);
// Name of a core or extension opcode ("Op<number>" written into `buf` when unknown).
const char* opcodeName(uint32_t opcode);
// Same, looking extension opcodes up in `table` (the one a module was built with).
class ExtOpTable;
const char* opcodeName(uint32_t opcode, const ExtOpTable& table);

}  // namespace refdev::spirv
