// MismatchPicture <-> JSON, for the --json report ("mismatches" of a case) and the --isolate worker's
// results.
#pragma once

#include <nlohmann/json.hpp>

#include "test_common/harness/model/mismatch_picture.h"

namespace cts {

// {"grids": [{"title", "rows", "cols", "row_axis", "col_axis", "count", "marked": "0+16,40+2" (row-major
// index runs), "cells": [{"row", "col", "expected", "actual"}, ...]}, ...], "omitted_cells": N}
nlohmann::ordered_json pictureJson(const MismatchPicture& picture);
// The inverse; throws nlohmann::json::exception (or std::invalid_argument) on a malformed value.
MismatchPicture pictureFromJson(const nlohmann::json& json);

}  // namespace cts
