// OpenCL C built-ins called as imported functions. Compilers that do not know an extension's SPIR-V
// instructions (llvm-spirv without SPV_INTEL_2d_block_io, Triton's Intel backend) keep its OpenCL C built-ins
// as OpFunctionCall of a function declared with LinkageAttributes ... Import and named by its Itanium-mangled
// name. The device resolves such a call to the extension instruction the built-in stands for and decodes it
// as that instruction (decodeExtOpCall), so it gets the same build checks, undefined-behaviour checks and
// profile gating. Internal to reference_device/spirv/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace refdev::spirv {

class DecodeCtx;
struct ExtOpInfo;

// One declaration of the extensions' function lists (builtins/opencl_builtins.txt, generated into
// opencl_builtins_table.cpp): OpenCL C spellings, parameters comma-separated ("global void*,int,int2").
struct BuiltinDecl {
    const char* extension;
    const char* ret;
    const char* name;
    const char* params;
};
extern const BuiltinDecl kOpenCLBuiltins[];
extern const size_t kOpenCLBuiltinCount;

// The source name of an Itanium-mangled function name ("_Z38intel_sub_group_f16_f16_matrix_mad_k16Dv8_s..."
// -> "intel_sub_group_f16_f16_matrix_mad_k16"); a name that is not mangled is returned as it is.
std::string demangledName(const std::string& mangled);

// One operand of the instruction a built-in call becomes.
struct BuiltinOperand {
    enum class Kind : uint8_t { Argument, Constant, Literal };
    Kind kind = Kind::Argument;
    uint32_t value =
        0;  // Argument: index of the call argument; Constant: a 32-bit integer; Literal: the word
};
struct BuiltinInstruction {
    uint32_t opcode = 0;
    std::vector<BuiltinOperand> operands;
};

// The instruction a built-in of the table stands for, read from its name (the shape of a 2D block
// operation, K and the element types of a matrix mad) and, for block IO, whether the first argument is an
// image. False for names of the table no instruction implements.
bool builtinInstruction(const std::string& name, bool first_argument_is_image, uint32_t result_bits,
                        uint32_t accumulator_bits, BuiltinInstruction* out);

// An OpFunctionCall (ctx.in) of a function without a body: resolves it through the table and decodes the
// instruction it stands for. False (after logging an error naming the import) when the callee is not a
// built-in of the table, the call's types match none of its overloads, or the device does not implement
// the instruction (the profile does not report its extension).
bool decodeBuiltinCall(DecodeCtx& c, uint32_t callee, const std::vector<uint32_t>& params);

// Decodes extension instruction `info` with the given operands (ids of ctx's module, constants the caller
// synthesises, literals); `result_id` is the id receiving the result when info has one.
bool decodeExtOpOperands(DecodeCtx& c, const ExtOpInfo* info, uint32_t result_id,
                         const std::vector<BuiltinOperand>& operands,
                         const std::vector<uint32_t>& argument_ids);

}  // namespace refdev::spirv
