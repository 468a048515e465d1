// SPIRV-Headers' C++ header: the tokens of every SPIR-V instruction, capability and operand by name, as
// unscoped enumerators in namespace spv (spv::OpSubgroup2DBlockLoadINTEL, spv::CapabilityKernel,
// spv::MatrixMultiplyAccumulateOperandsMatrixASignedComponentsINTELMask, ...), with HasResultAndType.
// The include directory is the SPIRV-Headers release cmake/SpirvTools.cmake found (1.4.335.0 or another
// that knows the 2025 tokens), ahead of any older copy on the default include path.
#pragma once

#ifndef SPV_ENABLE_UTILITY_CODE
#define SPV_ENABLE_UTILITY_CODE
#endif
#include <spirv/unified1/spirv.hpp>
