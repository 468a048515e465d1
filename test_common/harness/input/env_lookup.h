// How the runner reads an environment variable: std::getenv in a run, a table in a test.
#pragma once

#include <functional>

namespace cts {

using EnvLookup = std::function<const char*(const char*)>;

}  // namespace cts
