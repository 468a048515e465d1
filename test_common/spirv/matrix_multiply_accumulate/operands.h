// MatrixMultiplyAccumulateOperands bits by the spec's short names, with SPIRV-Headers' values:
// CTS_MMA_BIT(CBFloat16) is spv::MatrixMultiplyAccumulateOperandsMatrixCBFloat16INTELMask as a uint32_t.
#pragma once

#include <cstdint>

#include "test_common/spirv/spirv_headers.h"

#define CTS_MMA_BIT(name) static_cast<uint32_t>(spv::MatrixMultiplyAccumulateOperandsMatrix##name##INTELMask)

namespace cts {

// The A and B bits of one packing (or of signedness) together: the OpenCL environment table names them in
// pairs. rules.cpp's table and rules_test.cpp's independent reading of it both use these; rules_test.cpp
// checks them against the spec's bit values.
constexpr uint32_t kMmaSigned = CTS_MMA_BIT(ASignedComponents) | CTS_MMA_BIT(BSignedComponents);
constexpr uint32_t kMmaInt8 = CTS_MMA_BIT(APackedInt8) | CTS_MMA_BIT(BPackedInt8);
constexpr uint32_t kMmaInt4 = CTS_MMA_BIT(APackedInt4) | CTS_MMA_BIT(BPackedInt4);
constexpr uint32_t kMmaFp16 = CTS_MMA_BIT(APackedFloat16) | CTS_MMA_BIT(BPackedFloat16);
constexpr uint32_t kMmaBf16 = CTS_MMA_BIT(APackedBFloat16) | CTS_MMA_BIT(BPackedBFloat16);
constexpr uint32_t kMmaTf32 = CTS_MMA_BIT(ATF32) | CTS_MMA_BIT(BTF32);

}  // namespace cts
