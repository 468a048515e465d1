// Lookup in the generated opcode table, plus names of extension opcodes registered in extOps().
#include <algorithm>

#include "reference_device/spirv/ext_ops.h"
#include "reference_device/spirv/opcode_table.h"

namespace refdev::spirv {

const OpcodeEntry* findCoreOpcode(uint32_t opcode) {
    const OpcodeEntry* end = kOpcodeTable + kOpcodeTableSize;
    const OpcodeEntry* it = std::lower_bound(kOpcodeTable, end, opcode,
                                             [](const OpcodeEntry& e, uint32_t op) { return e.opcode < op; });
    return it != end && it->opcode == opcode ? it : nullptr;
}

const char* opcodeName(uint32_t opcode, const ExtOpTable& table) {
    if (const OpcodeEntry* e = findCoreOpcode(opcode)) return e->name;
    if (const ExtOpInfo* info = table.find(opcode)) return info->name;
    return nullptr;
}

const char* opcodeName(uint32_t opcode) {
    return opcodeName(opcode, extOps());
}

}  // namespace refdev::spirv
