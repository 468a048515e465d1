#include "test_common/cl/program_cache.h"

#include <cstdio>
#include <fstream>

#include "test_common/cl/wrappers.h"
#include "test_common/harness/case.h"

namespace cts {
namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;

std::string keyOf(const std::vector<uint32_t>& words, const std::string& options) {
    // FNV-1a over the bytes: stable, cheap, and collisions across a few hundred modules are not a concern
    // because the size is part of the key too.
    uint64_t h = 1469598103934665603ull;
    auto mix = [&](const unsigned char* p, size_t n) {
        for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
    };
    mix(reinterpret_cast<const unsigned char*>(words.data()), words.size() * 4);
    mix(reinterpret_cast<const unsigned char*>(options.data()), options.size());
    char buf[64];
    std::snprintf(buf, sizeof buf, "%016llx:%zu", static_cast<unsigned long long>(h), words.size());
    return std::string(buf) + ":" + options;
}

}  // namespace

ProgramCache::ProgramCache(cl_context context, cl_device_id device) : context_(context), device_(device) {}

ProgramCache::~ProgramCache() {
    for (auto& entry : programs_)
        if (entry.second.program) clReleaseProgram(entry.second.program);
}

std::vector<uint32_t> ProgramCache::readSpirvFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) throw InternalError("SPIR-V module " + path + " is missing or unreadable");
    std::streamsize size = in.tellg();
    if (size <= 0) throw InternalError("SPIR-V module " + path + " is empty");
    if (size % 4 != 0)
        throw InternalError("SPIR-V module " + path + " is corrupt: " + std::to_string(size) +
                            " bytes is not a whole number of 32-bit words");
    std::vector<uint32_t> words(static_cast<size_t>(size) / 4);
    in.seekg(0);
    if (!in.read(reinterpret_cast<char*>(words.data()), size))
        throw InternalError("SPIR-V module " + path + " could not be read");
    if (words.size() < 5)
        throw InternalError("SPIR-V module " + path + " is corrupt: shorter than the header");
    if (words[0] != kSpirvMagic) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "0x%08x", words[0]);
        throw InternalError("SPIR-V module " + path + " is corrupt: bad magic number " + buf);
    }
    return words;
}

const BuiltProgram& ProgramCache::get(const std::string& path, const std::string& options) {
    return get(readSpirvFile(path), options);
}

const BuiltProgram& ProgramCache::get(const std::vector<uint32_t>& words, const std::string& options) {
    std::string key = keyOf(words, options);
    auto found = programs_.find(key);
    if (found != programs_.end()) return found->second;

    BuiltProgram built;
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithIL(context_, words.data(), words.size() * 4, &err);
    if (err != CL_SUCCESS || !program) {
        // The device accepted the module's requirements but not the module: that is the device's failure.
        built.log = std::string("clCreateProgramWithIL: ") + clErrorName(err);
        return programs_.emplace(key, std::move(built)).first->second;
    }
    built.program = program;
    err = clBuildProgram(program, 1, &device_, options.c_str(), nullptr, nullptr);
    size_t log_size = 0;
    if (clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &log_size) == CL_SUCCESS &&
        log_size > 1) {
        std::string log(log_size, '\0');
        if (clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, log_size, &log[0], nullptr) ==
            CL_SUCCESS) {
            while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
            built.log = log;
        }
    }
    if (err != CL_SUCCESS) {
        built.log =
            std::string("clBuildProgram: ") + clErrorName(err) + (built.log.empty() ? "" : "\n") + built.log;
    } else {
        built.built = true;
    }
    return programs_.emplace(key, std::move(built)).first->second;
}

}  // namespace cts
