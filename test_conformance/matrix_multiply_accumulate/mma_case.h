// One matrix_multiply_accumulate case's parameters (scripts/assets/generators/matrix_multiply_accumulate.py).
#pragma once

#include <cstdint>

#include "test_common/harness/model/params.h"
#include "test_common/reference/mma.h"
#include "test_conformance/matrix_multiply_accumulate/data.h"

namespace cts::mma {

// What the kernel does with the MMA: one (single, multi_group), a chain feeding each Result into the next
// step's C (chained), two MMAs of one C (second_mma), or one MMA in odd work-groups only (branch).
enum class Scenario { Single, Chained, SecondMma, Branch };

struct MmaCase {
    reference::MmaShape shape;
    Scenario scenario = Scenario::Single;
    DataClass data = DataClass::Exact;
    uint32_t work_groups = 1, sub_groups_per_work_group = 1, steps = 1, outputs = 1;

    // The schema and the reader of the case parameters, both from one field table (mma_case.cpp, fields()).
    static const ParamSchema& schema();
    static MmaCase fromParams(const Params& p);

    uint32_t subGroups() const { return work_groups * sub_groups_per_work_group; }
    uint32_t chainLength() const { return scenario == Scenario::Chained ? steps : 1; }
    bool bitExact() const {
        return reference::isInteger(shape.a) || data == DataClass::Exact || data == DataClass::Position;
    }
};

}  // namespace cts::mma
