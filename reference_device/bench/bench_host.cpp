// Benchmark host: runs the loop kernel either on the reference device's interpreter directly
// (`refdev <module.spv>`) or through the OpenCL API on whatever platform the ICD loader (or an
// interposer such as `oclgrind`) provides (`opencl <kernel.cl>`). Prints seconds and SPIR-V
// instructions per second, counting 13 instructions per loop iteration (see loop.spvasm).
#include <CL/cl.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "reference_device/env_numbers.h"
#include "reference_device/profile.h"
#include "reference_device/spirv/program.h"

namespace {

constexpr double kInstructionsPerIteration = 13, kInstructionsOutsideLoop = 12;

uint32_t expected(uint32_t gid, uint32_t n) {
    uint32_t acc = gid;
    float f = 0.0f;
    for (uint32_t i = 0; i < n; ++i) {
        acc = acc * 1664525u + (i ^ gid);
        f = f * 0.5f + 1.0f;
    }
    return acc + uint32_t(f);
}

int verify(const std::vector<uint32_t>& out, uint32_t n) {
    for (uint32_t g = 0; g < out.size(); ++g)
        if (out[g] != expected(g, n)) {
            std::fprintf(stderr, "wrong result at %u: got 0x%08x, expected 0x%08x\n", g, out[g],
                         expected(g, n));
            return 1;
        }
    return 0;
}

// Wall time says how fast a run was; process CPU time (all threads) says how much work it took, which is
// what to compare when other processes share the cores.
void report(const char* who, double seconds, double cpu_seconds, size_t global, uint32_t n,
            unsigned threads) {
    const double instructions = double(global) * (kInstructionsPerIteration * n + kInstructionsOutsideLoop);
    std::printf(
        "%s: work-items=%zu iterations=%u threads=%u seconds=%.4f cpu_seconds=%.4f instructions=%.0f "
        "ips=%.4g\n",
        who, global, n, threads, seconds, cpu_seconds, instructions, instructions / seconds);
}

double cpuSeconds() {
    return double(std::clock()) / CLOCKS_PER_SEC;
}

std::string readFile(const char* path) {
    std::ifstream f(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

int runRefdev(const char* path, size_t global, uint32_t n) {
    std::string bytes = readFile(path);
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    std::string err;
    const refdev::Profile* profile = refdev::profileFromEnv(&err);
    if (!profile) {
        std::fprintf(stderr, "%s\n", err.c_str());
        return 2;
    }
    auto built = refdev::spirv::buildModule(words.data(), words.size(), *profile);
    if (!built.module) {
        std::fprintf(stderr, "build failed:\n%s", built.log.c_str());
        return 1;
    }
    std::vector<uint32_t> out(global, 0);
    refdev::spirv::ArgValue buf;
    buf.kind = refdev::spirv::ArgKind::GlobalBuffer;
    buf.base = reinterpret_cast<uint8_t*>(out.data());
    buf.size = out.size() * 4;
    refdev::spirv::ArgValue count;
    count.bytes.resize(4);
    std::memcpy(count.bytes.data(), &n, 4);
    refdev::spirv::NDRange range;
    range.global[0] = global;
    range.local[0] = 64;
    refdev::Faults faults;
    unsigned threads = 0;
    if (std::string e = refdev::threadsFromEnv(threads); !e.empty()) {
        std::fprintf(stderr, "%s\n", e.c_str());
        return 2;
    }
    auto t0 = std::chrono::steady_clock::now();
    double c0 = cpuSeconds();
    auto r = refdev::spirv::launch(*built.module, "loop", {buf, count}, range, *profile, faults, threads);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r.ok) {
        std::fprintf(stderr, "launch failed: %s\n", r.error.c_str());
        return 1;
    }
    report("refdev", s, cpuSeconds() - c0, global, n, threads);
    return verify(out, n);
}

int runOpenCl(const char* path, size_t global, uint32_t n) {
    std::string src = readFile(path);
    cl_platform_id platform;
    cl_uint count = 0;
    if (clGetPlatformIDs(1, &platform, &count) != CL_SUCCESS || count == 0) {
        std::fprintf(stderr, "no OpenCL platform\n");
        return 2;
    }
    cl_device_id device;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) return 2;
    char name[256] = {};
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, nullptr);
    cl_int e;
    cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &e);
    cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &e);
    const char* text = src.c_str();
    cl_program prog = clCreateProgramWithSource(ctx, 1, &text, nullptr, &e);
    if (clBuildProgram(prog, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) {
        std::fprintf(stderr, "OpenCL C build failed\n");
        return 1;
    }
    cl_kernel k = clCreateKernel(prog, "loop", &e);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, global * 4, nullptr, &e);
    clSetKernelArg(k, 0, sizeof buf, &buf);
    clSetKernelArg(k, 1, sizeof n, &n);
    size_t local = 64;
    auto t0 = std::chrono::steady_clock::now();
    double c0 = cpuSeconds();
    e = clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr);
    clFinish(q);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (e != CL_SUCCESS) {
        std::fprintf(stderr, "enqueue failed: %d\n", e);
        return 1;
    }
    std::vector<uint32_t> out(global);
    clEnqueueReadBuffer(q, buf, CL_TRUE, 0, global * 4, out.data(), 0, nullptr, nullptr);
    std::string who = std::string("opencl[") + name + "]";
    report(who.c_str(), s, cpuSeconds() - c0, global, n, 0);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return verify(out, n);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 5) {
        std::fprintf(stderr, "usage: %s refdev|opencl <module.spv|kernel.cl> <work-items> <iterations>\n",
                     argv[0]);
        return 2;
    }
    size_t global = std::strtoull(argv[3], nullptr, 10);
    uint32_t n = uint32_t(std::strtoul(argv[4], nullptr, 10));
    if (global == 0 || global % 64) {
        std::fprintf(stderr, "work-items must be a positive multiple of 64\n");
        return 2;
    }
    if (std::strcmp(argv[1], "refdev") == 0) return runRefdev(argv[2], global, n);
    if (std::strcmp(argv[1], "opencl") == 0) return runOpenCl(argv[2], global, n);
    std::fprintf(stderr, "unknown mode %s\n", argv[1]);
    return 2;
}
