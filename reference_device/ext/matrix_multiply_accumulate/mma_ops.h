// SPV_INTEL_subgroup_matrix_multiply_accumulate on the reference device:
// OpSubgroupMatrixMultiplyAccumulateINTEL, its build-time check against the OpenCL environment table, its
// undefined-behaviour checks and planted faults. registerMatrixMultiplyAccumulateOps (ext_ops.h) adds it to
// the interpreter's table.
#pragma once

#include <cstdint>
#include <string>

#include "reference_device/spirv/ext_ops.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv::mma {

constexpr uint32_t kCapability = token(spv::Capability::SubgroupMatrixMultiplyAccumulateINTEL);
constexpr uint32_t kOp = token(spv::Op::OpSubgroupMatrixMultiplyAccumulateINTEL);
constexpr const char* kOpName = "OpSubgroupMatrixMultiplyAccumulateINTEL";
constexpr const char* kTf32Extension = "cl_intel_subgroup_matrix_multiply_accumulate_tf32";

// Matrix Multiply Accumulate Operands bits.
enum : uint32_t {
    kNone = 0x0,
    kASigned = 0x1,
    kBSigned = 0x2,
    kCBFloat16 = 0x4,
    kResultBFloat16 = 0x8,
    kAPackedInt8 = 0x10,
    kBPackedInt8 = 0x20,
    kAPackedInt4 = 0x40,
    kBPackedInt4 = 0x80,
    kATF32 = 0x100,
    kBTF32 = 0x200,
    kAPackedFloat16 = 0x400,
    kBPackedFloat16 = 0x800,
    kAPackedBFloat16 = 0x1000,
    kBPackedBFloat16 = 0x2000,
};

// Element formats of Matrix A and B, and of Matrix C and Result (Bf16: bf16 bits in a 16-bit integer).
enum class Elem : uint8_t { Int8, Int4, Fp16, Bf16, Tf32 };
enum class Acc : uint8_t { I32, F32, F16, Bf16 };

// A scalar or vector type as the table writes it ("4 x i16"): kind 'i' or 'f', '?' for anything else.
struct TypeDesc {
    char kind = '?';
    uint32_t bits = 0, components = 0;
    bool operator==(const TypeDesc& o) const {
        return kind == o.kind && bits == o.bits && components == o.components;
    }
};
TypeDesc describe(const TypeInfo& t);
std::string toString(const TypeDesc& t);  // "4 x i32", "f16" (scalar), "a non-numeric type"

// One instruction as the OpenCL environment table sees it.
struct Instruction {
    uint32_t n = 0;     // the device's MMA N: its minimum sub-group size
    bool tf32 = false;  // the device reports cl_intel_subgroup_matrix_multiply_accumulate_tf32
    uint32_t k = 0;     // K Dim
    TypeDesc result, a, b, c;
    uint32_t operands = kNone;  // Matrix Multiply Accumulate Operands (None when omitted)
};

// What the matching row says about the data.
struct Shape {
    uint32_t m = 0, n = 0, k = 0;
    Elem a = Elem::Int8, b = Elem::Int8;
    Acc c = Acc::I32, result = Acc::I32;
    bool a_signed = false, b_signed = false;
};

// "" and *shape filled when the instruction matches exactly one row of the table for its N; otherwise why
// not, without the instruction name, e.g. "no row of the cl_intel_subgroup_matrix_multiply_accumulate table
// for N = 8 matches K = 32, Result 4 x i32, A 4 x i16, B 8 x i32, C 4 x i32, operands 0x30 (A must be
// 4 x i32 at N = 8)".
std::string matchTable(const Instruction& in, Shape* shape);

// ExtOpInfo::check: K Dim a 32-bit integer constant and a row of the table for the device's N.
std::string checkBuild(const ExtBuildView& view);
void execute(OpContext& ctx);

// cl_intel_subgroup_split_matrix_multiply_accumulate (split_mma.cpp): the build check and the execution by
// a pair of sub-groups (ExtOpInfo::execute_pair), first the one providing A's first M / 2 rows.
std::string checkSplitBuild(const ExtBuildView& view);
void executeSplitPair(OpContext& first, OpContext& second);

}  // namespace refdev::spirv::mma

// The family's instructions and planted faults (registered with the device from this folder; the tests
// call them directly).
namespace refdev {
std::vector<FaultInfo> mmaFaults();
std::vector<FaultInfo> mmaCompositionFaults();
}  // namespace refdev

namespace refdev::spirv {
void registerMatrixMultiplyAccumulateOps(ExtOpTable& table);
}  // namespace refdev::spirv
