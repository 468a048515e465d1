// The workloads.* families (one per kernel shape); registerWorkloadsFamilies adds them all.
#pragma once

#include <memory>

#include "test_common/harness/model/case.h"

namespace cts::workloads {
std::unique_ptr<Family> makeGemm2dFamily();
std::unique_ptr<Family> makeGemmBlockReadFamily();
std::unique_ptr<Family> makeMediaFilterFamily();
std::unique_ptr<Family> makeImageTile2dFamily();
}  // namespace cts::workloads
