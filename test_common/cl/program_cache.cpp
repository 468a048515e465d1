#include "test_common/cl/program_cache.h"

#include <sys/stat.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>

#include "test_common/cl/build_log.h"
#include "test_common/cl/phase_clock.h"
#include "test_common/cl/wrappers.h"
#include "test_common/errors.h"
#include "test_common/spirv/module.h"

namespace cts {
namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;

// The words' part of a program key. FNV-1a 64 over the bytes: stable, cheap, and collisions across a few
// thousand modules are not a concern because the size is part of the key too.
std::string contentKey(const std::vector<uint32_t>& words) {
    uint64_t h = 1469598103934665603ull;
    const auto* p = reinterpret_cast<const unsigned char*>(words.data());
    for (size_t i = 0; i < words.size() * 4; ++i) h = (h ^ p[i]) * 1099511628211ull;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%016llx:%zu", static_cast<unsigned long long>(h), words.size());
    return buf;
}

std::string programKey(const std::string& content, const std::string& options) {
    return content + ":" + options;
}

void checkHash(const std::string& path, const std::string& actual, const std::string& expected) {
    if (expected.empty())
        throw InternalError("SPIR-V module " + path +
                            " has no hash in the manifest to check it against (rebuild the assets target)");
    if (actual != expected)
        throw InternalError("SPIR-V module " + path + " is corrupt: its hash is " + actual +
                            ", the manifest records " + expected +
                            " (the file changed after the asset build; rebuild the assets target)");
}

}  // namespace

ProgramCache::ProgramCache(cl_context context, cl_device_id device) : context_(context), device_(device) {}

ProgramCache::~ProgramCache() {
    for (auto& entry : programs_)
        if (entry.second.program) clReleaseProgram(entry.second.program);
}

std::string ProgramCache::moduleHash(const void* data, size_t bytes) {
    // Slicing by 8 (eight bytes a step through eight tables): the case index is hashed at every start-up.
    static const std::array<std::array<uint32_t, 256>, 8> table = [] {
        std::array<std::array<uint32_t, 256>, 8> t{};
        for (uint32_t i = 0; i < 256; ++i) {
            uint32_t c = i;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[0][i] = c;
        }
        for (uint32_t i = 0; i < 256; ++i)
            for (size_t s = 1; s < 8; ++s) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xFFu];
        return t;
    }();
    uint32_t crc = 0xFFFFFFFFu;
    const auto* p = static_cast<const unsigned char*>(data);
    size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        uint32_t lo = crc ^ (uint32_t(p[i]) | uint32_t(p[i + 1]) << 8 | uint32_t(p[i + 2]) << 16 |
                             uint32_t(p[i + 3]) << 24);
        crc = table[7][lo & 0xFFu] ^ table[6][(lo >> 8) & 0xFFu] ^ table[5][(lo >> 16) & 0xFFu] ^
              table[4][lo >> 24] ^ table[3][p[i + 4]] ^ table[2][p[i + 5]] ^ table[1][p[i + 6]] ^
              table[0][p[i + 7]];
    }
    for (; i < bytes; ++i) crc = table[0][(crc ^ p[i]) & 0xFFu] ^ (crc >> 8);
    char buf[32];
    std::snprintf(buf, sizeof buf, "crc32:%08x", static_cast<unsigned>(crc ^ 0xFFFFFFFFu));
    return buf;
}

std::vector<uint32_t> ProgramCache::readSpirvFile(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw InternalError("SPIR-V module " + path + " is missing or unreadable");
    // A directory opens and "seeks" to a huge end on some file systems: say what it is instead.
    if (!S_ISREG(st.st_mode))
        throw InternalError("SPIR-V module " + path + " is not a regular file" +
                            (S_ISDIR(st.st_mode) ? std::string(" but a directory") : std::string()));
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

std::vector<uint32_t> ProgramCache::readSpirvFile(const std::string& path, const std::string& expected_hash) {
    std::vector<uint32_t> words = readSpirvFile(path);
    checkHash(path, moduleHash(words.data(), words.size() * 4), expected_hash);
    return words;
}

const BuiltProgram& ProgramCache::get(const std::string& path, const std::string& expected_hash,
                                      const std::string& options) {
    auto known = files_.find(path);
    if (known != files_.end()) {
        // Read and verified before: compare with the recorded hash only (once per module per process).
        checkHash(path, known->second.hash, expected_hash);
        auto found = programs_.find(programKey(known->second.content, options));
        if (found != programs_.end()) {
            phase_clock::addCacheHit();
            return found->second;
        }
    }
    std::vector<uint32_t> words = readSpirvFile(path);
    FileInfo info{moduleHash(words.data(), words.size() * 4), contentKey(words)};
    files_[path] = info;
    checkHash(path, info.hash, expected_hash);
    const BuiltProgram& built = build(words, programKey(info.content, options), options);
    if (built.program) paths_.emplace(built.program, path);
    return built;
}

uint32_t ProgramCache::requiredSubGroupSize(cl_program program, const std::string& kernel) const {
    auto path = paths_.find(program);
    if (path == paths_.end()) return 0;
    auto sizes = required_sizes_.find(path->second);
    if (sizes == required_sizes_.end()) return 0;
    auto size = sizes->second.find(kernel);
    return size == sizes->second.end() ? 0 : size->second;
}

std::string ProgramCache::signatureMismatch(const std::string& path, const std::string& expected_hash,
                                            const ModuleSignature& manifest) {
    auto it = signatures_.find(path);
    if (it == signatures_.end()) {
        ModuleSignature read;
        std::vector<uint32_t> words = readSpirvFile(path, expected_hash);
        try {
            const SpirvModule module = SpirvModule::parse(words);
            read = moduleSignature(module);
            required_sizes_[path] = requiredSubGroupSizes(module);
        } catch (const SpirvParseError& e) {
            throw InternalError("module " + path +
                                " cannot be parsed for its kernel signatures: " + e.what());
        }
        it = signatures_.emplace(path, std::move(read)).first;
    }
    return cts::signatureMismatch(manifest, it->second);
}

const BuiltProgram& ProgramCache::get(const std::vector<uint32_t>& words, const std::string& options) {
    return build(words, programKey(contentKey(words), options), options);
}

const BuiltProgram& ProgramCache::build(const std::vector<uint32_t>& words, const std::string& key,
                                        const std::string& options) {
    auto found = programs_.find(key);
    if (found != programs_.end()) {
        phase_clock::addCacheHit();
        return found->second;
    }

    BuiltProgram built;
    cl_int err = CL_SUCCESS;
    const auto start = std::chrono::steady_clock::now();
    cl_program program = clCreateProgramWithIL(context_, words.data(), words.size() * 4, &err);
    if (err != CL_SUCCESS || !program) {
        phase_clock::addBuild(phase_clock::msSince(start));
        // The device accepted the module's requirements but not the module: that is the device's failure.
        built.log = std::string("clCreateProgramWithIL: ") + clErrorName(err);
        return programs_.emplace(key, std::move(built)).first->second;
    }
    built.program = program;
    err = clBuildProgram(program, 1, &device_, options.c_str(), nullptr, nullptr);
    phase_clock::addBuild(phase_clock::msSince(start));  // the build log's query is not the build
    size_t log_size = 0;
    if (clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &log_size) == CL_SUCCESS &&
        log_size > 1) {
        std::string log(log_size, '\0');
        if (clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, log_size, &log[0], nullptr) ==
            CL_SUCCESS) {
            while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
            built.log = capText(log);  // a driver's log can be any size (build_log.h)
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
