// Shared helpers of the interpreter's unit tests: assembling fixtures with spirv-as, a test profile,
// and launching kernels on host buffers.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "reference_device/spirv/opencl_capabilities.h"
#include "reference_device/spirv/program.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv::test {

// A profile defined here so the tests do not depend on the product profiles' contents.
inline const Profile& testProfile() {
    static const Profile p = [] {
        Profile p;
        p.name = "test";
        p.sub_group_sizes = {16, 32};
        p.default_sub_group_size = 16;
        p.spirv_extensions = {"SPV_INTEL_subgroups"};
        p.spirv_capabilities = openclBaseCapabilities();
        return p;
    }();
    return p;
}

inline std::string readText(const std::string& path) {
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// Assembles SPIR-V text with `assembler`, a command line completed by "IN -o OUT" (e.g. spirv-as with its
// options). Fails the test on error.
inline std::vector<uint32_t> assembleWith(const std::string& assembler, const std::string& text) {
    char in_path[] = "/tmp/refdev_spvasm_XXXXXX";
    int fd = mkstemp(in_path);
    if (fd < 0) {
        ADD_FAILURE() << "mkstemp failed";
        return {};
    }
    FILE* f = fdopen(fd, "w");
    fwrite(text.data(), 1, text.size(), f);
    fclose(f);
    std::string out_path = std::string(in_path) + ".spv";
    std::string cmd = assembler + " " + in_path + " -o " + out_path + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    std::string msg;
    char buf[256];
    while (p && fgets(buf, sizeof buf, p)) msg += buf;
    int rc = p ? pclose(p) : -1;
    std::remove(in_path);
    std::vector<uint32_t> words;
    if (rc != 0) {
        ADD_FAILURE() << assembler << " failed: " << msg << "\n" << text;
        return words;
    }
    std::ifstream bin(out_path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(bin)), std::istreambuf_iterator<char>());
    std::remove(out_path.c_str());
    words.resize(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    return words;
}

// fixturePath, assemble and assembleFixture need the fixture directory and spirv-as that refdev_spirv_test
// defines; other test targets include this header for the rest.
#if defined(REFDEV_SPIRV_AS) && defined(REFDEV_SPIRV_FIXTURES)
inline std::string fixturePath(const std::string& name) {
    return std::string(REFDEV_SPIRV_FIXTURES) + "/" + name;
}

// Assembles SPIR-V text with the configured spirv-as (SPIR-V 1.3 target). Fails the test on error.
inline std::vector<uint32_t> assemble(const std::string& text) {
    return assembleWith(std::string(REFDEV_SPIRV_AS) + " --target-env spv1.3", text);
}

// A fixture is assembled for SPIR-V 1.3 unless its first line says otherwise ("; target-env: spv1.4"; the
// fuzz seeds, reference_device/fuzz/CMakeLists.txt, read the same line).
inline std::vector<uint32_t> assembleFixture(const std::string& name) {
    const std::string text = readText(fixturePath(name));
    const std::string key = "; target-env: ";
    if (text.compare(0, key.size(), key) != 0) return assemble(text);
    const std::string env = text.substr(key.size(), text.find('\n') - key.size());
    return assembleWith(std::string(REFDEV_SPIRV_AS) + " --target-env " + env, text);
}
#endif

inline std::shared_ptr<const Module> build(const std::vector<uint32_t>& words, std::string* log = nullptr) {
    BuildResult r = buildModule(words.data(), words.size(), testProfile());
    if (log) *log = r.log;
    if (!r.module) ADD_FAILURE() << "build failed:\n" << r.log;
    return r.module;
}

template <typename T>
ArgValue buffer(std::vector<T>& v) {
    ArgValue a;
    a.kind = ArgKind::GlobalBuffer;
    a.base = reinterpret_cast<uint8_t*>(v.data());
    a.size = v.size() * sizeof(T);
    return a;
}
template <typename T>
ArgValue value(T v) {
    ArgValue a;
    a.kind = ArgKind::Value;
    a.bytes.resize(sizeof(T));
    std::memcpy(a.bytes.data(), &v, sizeof(T));
    return a;
}
inline ArgValue localBuffer(size_t bytes) {
    ArgValue a;
    a.kind = ArgKind::LocalBuffer;
    a.size = bytes;
    return a;
}

inline NDRange range1(size_t global, size_t local) {
    NDRange r;
    r.dims = 1;
    r.global[0] = global;
    r.local[0] = local;
    return r;
}

inline LaunchResult run(const Module& m, const std::string& kernel, const std::vector<ArgValue>& args,
                        const NDRange& r, unsigned threads = 2) {
    static const Faults none;
    return launch(m, kernel, args, r, testProfile(), none, threads);
}

}  // namespace refdev::spirv::test
