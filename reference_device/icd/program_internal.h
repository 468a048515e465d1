// Shared by the program entry points: program.cpp (create, build, queries, specialization), program_link.cpp
// (clCompileProgram, clLinkProgram) and program_source.cpp (OpenCL C through clang-15 + llvm-spirv-15).
#pragma once

#include <string>
#include <vector>

#include "reference_device/icd/common.h"

namespace refdev::icd {

cl_program newProgram(cl_context c);
cl_int checkDeviceList(cl_uint num_devices, const cl_device_id* devices);

// The SPIR-V of an IL program with its specialization constants applied (the planted fault
// spec_constant_ignored leaves the defaults). False, with the log set, when the IL is not whole words.
bool specializedWords(cl_program p, std::vector<uint32_t>* words);

// Builds `words` into p's executable (module, log, status, binary type); CL_SUCCESS or `failure`.
cl_int buildExecutable(cl_program p, const std::vector<uint32_t>& words, cl_int failure);

// OpenCL C source -> SPIR-V words with clang-15 and llvm-spirv-15 (program_source.cpp). Returns CL_SUCCESS,
// `failure` with the compiler's messages (or the missing tool) in *log, or `bad_options` for options the
// device does not know. Headers: (include name, source) pairs clCompileProgram was given.
cl_int compileSource(const std::string& source, const std::string& options,
                     const std::vector<std::pair<std::string, std::string>>& headers, cl_int failure,
                     cl_int bad_options, std::vector<uint32_t>* words, std::string* log);

cl_int CL_API_CALL CompileProgram(cl_program p, cl_uint num_devices, const cl_device_id* devices,
                                  const char* options, cl_uint num_headers, const cl_program* headers,
                                  const char** header_names, void(CL_CALLBACK* notify)(cl_program, void*),
                                  void* user_data);
cl_program CL_API_CALL LinkProgram(cl_context c, cl_uint num_devices, const cl_device_id* devices,
                                   const char* options, cl_uint num_inputs, const cl_program* inputs,
                                   void(CL_CALLBACK* notify)(cl_program, void*), void* user_data,
                                   cl_int* err);

}  // namespace refdev::icd
