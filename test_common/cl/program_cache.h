// Builds each SPIR-V module once per process (keyed by a hash of its bytes) and keeps the program.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <CL/cl.h>

#include "test_common/spirv/kernel_signature.h"

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

    // Reads `path` and checks its bytes against `expected_hash` (the manifest's "module_hash"), then
    // clCreateProgramWithIL + clBuildProgram once. Throws cts::InternalError naming the file when it is
    // missing, not a regular file, empty, not a multiple of 4 bytes, without the SPIR-V magic, or when its
    // hash is not `expected_hash` (or that is empty); the message then gives both hashes. A path is read and
    // hashed once per cache (= per process); later calls compare `expected_hash` with the recorded hash.
    // A build failure is returned (built=false, log filled), not thrown: the caller records Fail.
    const BuiltProgram& get(const std::string& path, const std::string& expected_hash,
                            const std::string& options = "");

    // "" when the kernel signatures read from the module at `path` are `manifest`'s, else what differs
    // (cts::signatureMismatch). The file is read and checked as by get(path, expected_hash), and parsed, once
    // per path; later calls compare `manifest` with the signatures recorded then.
    std::string signatureMismatch(const std::string& path, const std::string& expected_hash,
                                  const ModuleSignature& manifest);

    // The SubgroupSize execution mode `kernel` declares in the module `program` was built from (by get(path,
    // ...), after signatureMismatch(path, ...) parsed it), or 0: none declared, or not known for this
    // program.
    uint32_t requiredSubGroupSize(cl_program program, const std::string& kernel) const;

    // Same, for words already in memory (key: hash of the words and options).
    const BuiltProgram& get(const std::vector<uint32_t>& words, const std::string& options = "");

    static std::vector<uint32_t> readSpirvFile(const std::string& path);  // validates as above
    // readSpirvFile, then the hash check of get().
    static std::vector<uint32_t> readSpirvFile(const std::string& path, const std::string& expected_hash);

    // "crc32:<8 lowercase hex digits>": the CRC-32 (IEEE 802.3, as zlib and Python's binascii.crc32) of the
    // bytes. scripts/assets/build_assets.py writes the same for every module into the manifest
    // ("module_hash").
    static std::string moduleHash(const void* data, size_t bytes);

private:
    struct FileInfo {
        std::string hash;     // moduleHash of the file as read
        std::string content;  // program key of its words, without the options
    };
    cl_context context_;
    cl_device_id device_;
    std::map<std::string, BuiltProgram> programs_;
    std::map<std::string, FileInfo> files_;  // path -> what reading it gave (read and verified once)
    std::map<std::string, ModuleSignature> signatures_;  // path -> the kernel signatures read from it
    // path -> kernel -> its SubgroupSize execution mode (kernels that declare one), read with the signatures
    std::map<std::string, std::map<std::string, uint32_t>> required_sizes_;
    std::map<cl_program, std::string> paths_;  // program built by get(path, ...) -> path

    const BuiltProgram& build(const std::vector<uint32_t>& words, const std::string& key,
                              const std::string& options);
};

}  // namespace cts
