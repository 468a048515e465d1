// Builds each SPIR-V module once per process (keyed by a hash of its bytes) and keeps the program.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <CL/cl.h>

namespace cts {

struct BuiltProgram {
    cl_program program = nullptr;  // owned by the cache; valid only when built is true
    bool built = false;
    std::string log;  // build log (and the CL error name on failure)
};

class ProgramCache {
public:
    ProgramCache(cl_context context, cl_device_id device);
    ~ProgramCache();
    ProgramCache(const ProgramCache&) = delete;
    ProgramCache& operator=(const ProgramCache&) = delete;

    // Reads `path` (throws cts::InternalError naming the file when missing, empty, not a multiple of 4
    // bytes or without the SPIR-V magic), then clCreateProgramWithIL + clBuildProgram once.
    // A build failure is returned (built=false, log filled), not thrown: the caller records Fail.
    const BuiltProgram& get(const std::string& path, const std::string& options = "");

    // Same, for words already in memory (key: hash of the words and options).
    const BuiltProgram& get(const std::vector<uint32_t>& words, const std::string& options = "");

    static std::vector<uint32_t> readSpirvFile(const std::string& path);  // validates as above

private:
    cl_context context_;
    cl_device_id device_;
    std::map<std::string, BuiltProgram> programs_;
};

}  // namespace cts
