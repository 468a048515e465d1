// The runner: command line -> case tree -> selection -> device -> cases -> reports -> exit status.
#pragma once

#include <string>
#include <vector>

#include "test_common/harness/model/case.h"

namespace cts {

// Runs the suite; returns the process exit status (0 all Pass/NotSupported, 1 otherwise, 2 usage error).
int runnerMain(int argc, char** argv, const std::vector<RegisterFamilies>& families);

}  // namespace cts
