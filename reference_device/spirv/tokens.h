// SPIR-V tokens by name. The device reads opcodes, capabilities and the like as plain words; token() turns
// the SPIRV-Headers enums (spirv.hpp11, target cts_spirv_headers) into those words, so that code spells
// `case token(spv::Op::OpIAdd):` instead of a number. OpenCL.std instructions are OpenCLLIB::
// enumerators (an unscoped enum: they compare with words as they are).
#pragma once

#include <cstdint>
#include <type_traits>

#include <spirv/unified1/OpenCL.std.h>
#include <spirv/unified1/spirv.hpp11>

namespace refdev {

// Any SPIR-V enumerant (spv::Op, spv::Capability, spv::ExecutionMode, spv::Decoration, ...) as its word.
template <typename Enum>
constexpr uint32_t token(Enum value) {
    static_assert(std::is_enum_v<Enum>, "token() takes a SPIRV-Headers enumerant");
    return static_cast<uint32_t>(value);
}

}  // namespace refdev
