// Specialization constants of an IL program (clSetProgramSpecializationConstant): which SpecIds a SPIR-V
// module declares, with the size the API must be given, and the module with the recorded values put in place
// of the defaults before it is built. Word-level only, so the API layer needs nothing from the interpreter.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace refdev::icd {

struct SpecConstantDecl {
    uint32_t size = 0;  // bytes clSetProgramSpecializationConstant must be given (1 for a bool)
    bool is_bool = false;
    bool is_signed = false;  // integer types with Signedness 1: narrower values are sign-extended
};

// SpecId -> declaration of every OpSpecConstant / OpSpecConstantTrue / OpSpecConstantFalse with a SpecId
// decoration. A malformed module yields what could be read (its build reports the problem).
std::map<uint32_t, SpecConstantDecl> specConstants(const std::vector<uint32_t>& words);

// `words` with the default value of each specialization constant in `values` (SpecId -> bytes of the declared
// size, checked when recorded) replaced: literal words of OpSpecConstant, and for a bool the opcode
// (OpSpecConstantTrue for any non-zero byte, OpSpecConstantFalse for zero).
std::vector<uint32_t> specialize(const std::vector<uint32_t>& words,
                                 const std::map<uint32_t, std::vector<uint8_t>>& values);

}  // namespace refdev::icd
