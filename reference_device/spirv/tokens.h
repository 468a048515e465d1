// SPIR-V tokens by name. The device reads opcodes, capabilities and the like as plain words; these helpers
// turn the SPIRV-Headers enums (spirv.hpp11, target cts_spirv_headers) into those words, so that code
// spells `case token(spv::Op::OpIAdd):` instead of a number. OpenCL.std instructions are OpenCLLIB::
// enumerators (an unscoped enum: they compare with words as they are).
#pragma once

#include <cstdint>

#include <spirv/unified1/OpenCL.std.h>
#include <spirv/unified1/spirv.hpp11>

namespace refdev {

constexpr uint32_t token(spv::Op op) {
    return static_cast<uint32_t>(op);
}
constexpr uint32_t token(spv::Capability capability) {
    return static_cast<uint32_t>(capability);
}

}  // namespace refdev
