// MatrixMultiplyAccumulateOperands bits by the spec's short names, with SPIRV-Headers' values:
// CTS_MMA_BIT(CBFloat16) is spv::MatrixMultiplyAccumulateOperandsMatrixCBFloat16INTELMask as a uint32_t.
#pragma once

#include <cstdint>

#include "test_common/spirv/spirv_headers.h"

#define CTS_MMA_BIT(name) static_cast<uint32_t>(spv::MatrixMultiplyAccumulateOperandsMatrix##name##INTELMask)
