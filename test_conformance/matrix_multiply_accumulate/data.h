// Operand data of the matrix_multiply_accumulate cases: one A, B and C per sub-group and step, by data class.
//
//   exact       small integers every format holds, chosen so that every partial sum of the whole chain of
//               steps is an integer the result format holds exactly: any order, any rounding gives the
//               exact sum, so the comparison is bit-exact (up to the sign of zero).
//   full_range  integers over the whole element range, C over all of int32: sums wrap at 32 bits.
//   extremes    every A and B element at its extreme (-128 / -8 signed, 255 / 15 unsigned), C alternating
//               INT32_MAX and INT32_MIN by row, so the sums over all of K wrap.
//   position    elements computed from (row, column): a wrong A packing, B VNNI order or lane mapping moves
//               a value to a place where the sum changes. Small enough to be exact in every format.
//   random      seed-random floats of the input format (normal, exponents -3..3), C random in the result
//               format; compared with the data-derived bound of reference::mmaFloat.
//   near_max    fp16 accumulator: products all of one sign per column summing to about 58,000 (the fp16
//               maximum is 65,504), so no partial sum in any order overflows.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "test_common/reference/mma.h"

namespace cts::mma {

enum class DataClass { Exact, FullRange, Extremes, Position, Random, NearMax };

// Throws InternalError for an unknown name or a class that does not apply to the shape's formats.
DataClass parseDataClass(const std::string& name, const reference::MmaShape& shape);

struct Operands {
    reference::RawMatrix a, b, c;  // M x K, K x N, M x N raw element bits
};

// The operands of one step. `steps` is the length of the chain of MMAs the result goes through (exact data
// keeps every partial sum of the whole chain exact); `salt` tells sub-groups and steps apart for the
// position class.
Operands makeOperands(const reference::MmaShape& shape, DataClass data, uint32_t steps, uint32_t salt,
                      std::mt19937_64& rng);

// Fills the A components the spec says are ignored (reference::aComponentIgnored) with poison: distinctive,
// non-zero and different per lane (floats 2048 + 64 * lane, exact in every float format; integers 0x5A5A5A5A
// masked to the component), so a device that reads them, or substitutes a constant, changes the Result.
void poisonIgnoredA(const reference::MmaShape& shape, reference::LaneData& lanes);

// Largest |element| of the exact class for this shape and chain length (exposed for tests).
int exactElementLimit(const reference::MmaShape& shape, uint32_t steps);
constexpr int kExactCLimit = 20;

}  // namespace cts::mma
