// Fuzzes the reference device through the OpenCL API, as an application sees it: mutated SPIR-V modules
// (the mutations of refdev_launch_fuzz) go through the ICD loader to clCreateProgramWithIL, clBuildProgram,
// clCreateKernelsInProgram, clSetKernelArg and clEnqueueNDRangeKernel. No input may hang or crash the device.
//
// The ICD reads REFDEV_PROFILE once per process, so one run covers one profile (--profile=NAME sets it, or
// the environment does: the CTest entries refdev_icd_fuzz.<profile>). The driver sets REFDEV_BRANCH_BUDGET
// (unless set), the ICD's hang check, so that a mutant that loops fails its enqueue instead of hanging.
// Argument kinds come from the API: the address qualifier picks a buffer, local memory or a value; a global
// argument that refuses a buffer takes an image; a private one takes the first value size the ICD accepts,
// or a sampler when it asks for one.
//
// Each input is written to --crash-dir before it runs and removed after, so a crash (which dies by its
// signal) or a hang (the watchdog exits 1 after --timeout seconds for one input) leaves it behind.
// Exit status: 0 no crash or hang; 1 hang; 2 bad usage, no platform or unusable seeds; a crash: its signal.
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "reference_device/fuzz/fuzz_common.h"
#include "reference_device/fuzz/fuzz_driver.h"

#ifndef CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL
#define CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL 0x410A
#endif

namespace {

using refdev::fuzz::g_current;
using refdev::fuzz::nowMs;
using refdev::fuzz::Rng;

using Options = refdev::fuzz::DriverOptions;
using refdev::fuzz::Stats;

struct Device {
    cl_device_id device = nullptr;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
    std::string profile;
    std::mutex mutex;
    std::string message;  // the last pfn_notify message
};

void CL_CALLBACK onNotify(const char* message, const void*, size_t, void* user) {
    auto* d = static_cast<Device*>(user);
    std::lock_guard<std::mutex> lock(d->mutex);
    d->message = message;
}

constexpr size_t kBufferBytes = 256 * 1024;

// The objects of one launch, released after it.
struct LaunchObjects {
    std::vector<cl_mem> mems;
    std::vector<cl_sampler> samplers;
    ~LaunchObjects() {
        for (cl_mem m : mems) clReleaseMemObject(m);
        for (cl_sampler s : samplers) clReleaseSampler(s);
    }
};

cl_mem makeImage(Device& d, Rng& rng, LaunchObjects& objs) {
    const auto& formats = refdev::fuzz::imageFormats();
    const refdev::fuzz::ImageFormat& f = formats[rng.below(uint32_t(formats.size()))];
    static const size_t kSides[] = {1, 3, 16, 32, 64};
    cl_image_format format{f.order, f.type};
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = kSides[rng.below(5)];
    desc.image_height = kSides[rng.below(5)];
    std::vector<uint8_t> texels(desc.image_width * desc.image_height * f.texel_bytes);
    for (size_t i = 0; i < texels.size(); ++i) texels[i] = uint8_t(i * 7 + 3);
    cl_int err = CL_SUCCESS;
    if (rng.below(4) == 0) {  // a 2D image over a buffer, rows padded to 64 bytes
        desc.image_row_pitch = (desc.image_width * f.texel_bytes + 63) / 64 * 64;
        cl_mem buf = clCreateBuffer(d.context, CL_MEM_READ_WRITE, desc.image_row_pitch * desc.image_height,
                                    nullptr, &err);
        if (buf) {
            objs.mems.push_back(buf);
            desc.buffer = buf;
            if (cl_mem m = clCreateImage(d.context, CL_MEM_READ_WRITE, &format, &desc, nullptr, &err))
                return m;
        }
        desc.buffer = nullptr;
        desc.image_row_pitch = 0;
    }
    return clCreateImage(d.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &format, &desc, texels.data(),
                         &err);
}

// Sets argument i as its kind asks (see the top of the file); returns clSetKernelArg's last result.
cl_int setArg(Device& d, cl_kernel k, cl_uint i, bool sane_values, Rng& rng, LaunchObjects& objs) {
    cl_kernel_arg_address_qualifier aq = CL_KERNEL_ARG_ADDRESS_PRIVATE;
    clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(aq), &aq, nullptr);
    if (aq == CL_KERNEL_ARG_ADDRESS_LOCAL) return clSetKernelArg(k, i, 4096, nullptr);
    if (aq == CL_KERNEL_ARG_ADDRESS_GLOBAL || aq == CL_KERNEL_ARG_ADDRESS_CONSTANT) {
        std::vector<uint8_t> init(kBufferBytes);
        refdev::fuzz::fillBuffer(init.data(), init.size(), rng);
        cl_int err = CL_SUCCESS;
        cl_mem b = rng.below(64) == 0  // now and then a NULL buffer argument
                       ? nullptr
                       : clCreateBuffer(d.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, init.size(),
                                        init.data(), &err);
        if (b) objs.mems.push_back(b);
        cl_int r = clSetKernelArg(k, i, sizeof(cl_mem), &b);
        if (r != CL_INVALID_MEM_OBJECT && r != CL_INVALID_ARG_VALUE) return r;
        cl_mem image = makeImage(d, rng, objs);  // an image argument
        if (!image) return CL_INVALID_MEM_OBJECT;
        objs.mems.push_back(image);
        return clSetKernelArg(k, i, sizeof(cl_mem), &image);
    }
    static const size_t kSizes[] = {4, 8, 2, 1, 16, 12, 24, 32, 6, 3, 48, 64, 128, 256};
    cl_int r = CL_INVALID_ARG_SIZE;
    for (size_t size : kSizes) {
        std::vector<uint8_t> bytes(size);
        refdev::fuzz::fillValue(bytes, sane_values || rng.below(4) != 0, rng);
        r = clSetKernelArg(k, i, size, bytes.data());
        if (r == CL_INVALID_SAMPLER) {  // a sampler argument
            static const cl_addressing_mode kModes[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE,
                                                        CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
                                                        CL_ADDRESS_MIRRORED_REPEAT};
            const cl_bool normalized = rng.below(2);
            cl_addressing_mode mode = kModes[rng.below(normalized ? 5 : 3)];
            cl_int err = CL_SUCCESS;
            const cl_filter_mode filter = rng.below(2) ? CL_FILTER_LINEAR : CL_FILTER_NEAREST;
            const cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                                   normalized,
                                                   CL_SAMPLER_ADDRESSING_MODE,
                                                   mode,
                                                   CL_SAMPLER_FILTER_MODE,
                                                   filter,
                                                   0};
            cl_sampler s = clCreateSamplerWithProperties(d.context, props, &err);
            if (!s) return err;
            objs.samplers.push_back(s);
            return clSetKernelArg(k, i, sizeof(cl_sampler), &s);
        }
        if (r != CL_INVALID_ARG_SIZE) return r;
    }
    return r;
}

// One launch of kernel k with a small NDRange: one or two work-groups of one or two sub-groups (the
// kernel's required sizes if it has them), now and then a partial work-group, a second dimension or an
// offset. Returns false if the kernel was skipped (arguments or sizes it cannot be given).
bool launch(Device& d, cl_kernel k, Rng& rng, Stats* st, bool print) {
    cl_uint nargs = 0;
    if (clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, nullptr) != CL_SUCCESS || nargs > 16)
        return false;
    LaunchObjects objs;
    const bool sane_values = rng.below(4) != 0;
    for (cl_uint i = 0; i < nargs; ++i)
        if (setArg(d, k, i, sane_values, rng, objs) != CL_SUCCESS) return false;
    size_t reqd[3] = {0, 0, 0}, sg = 0;
    clGetKernelWorkGroupInfo(k, d.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(reqd), reqd, nullptr);
    clGetKernelSubGroupInfo(k, d.device, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, nullptr, sizeof(sg), &sg,
                            nullptr);
    if (!sg) {
        const size_t local = 256;
        clGetKernelSubGroupInfo(k, d.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(local), &local,
                                sizeof(sg), &sg, nullptr);
    }
    cl_uint dims = 1;
    size_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1}, offset[3] = {0, 0, 0};
    if (reqd[0] || reqd[1] || reqd[2]) {
        if (std::max<size_t>(reqd[0], 1) * std::max<size_t>(reqd[1], 1) * std::max<size_t>(reqd[2], 1) > 256)
            return false;
        dims = reqd[2] > 1 ? 3 : reqd[1] > 1 ? 2 : 1;
        for (cl_uint i = 0; i < dims; ++i) {
            local[i] = std::max<size_t>(reqd[i], 1);
            global[i] = local[i] * (i == 0 ? 1 + rng.below(2) : 1);
        }
    } else {
        dims = rng.below(8) == 0 ? 2 : 1;
        local[0] = std::max<size_t>(sg, 1) * (1 + rng.below(2));
        global[0] = local[0] * (1 + rng.below(2));
        if (rng.below(16) == 0) global[0] += 1 + rng.below(uint32_t(local[0]));  // a partial work-group
        if (dims == 2) local[1] = 1 + rng.below(2), global[1] = local[1] * (1 + rng.below(2));
    }
    if (rng.below(16) == 0) offset[0] = rng.below(64);
    {
        std::lock_guard<std::mutex> lock(d.mutex);
        d.message.clear();
    }
    const cl_int r = clEnqueueNDRangeKernel(d.queue, k, dims, offset, global, local, 0, nullptr, nullptr);
    clFinish(d.queue);
    std::lock_guard<std::mutex> lock(d.mutex);
    st->countLaunch(r == CL_SUCCESS, d.message);
    if (print) std::printf("  launch: %d %s\n", r, d.message.substr(0, 300).c_str());
    return true;
}

void writeInput(const std::vector<uint32_t>& w) {
    if (FILE* f = std::fopen(g_current.dump_path, "wb")) {
        std::fwrite(w.data(), 4, w.size(), f);
        std::fclose(f);
    }
}

// Builds and launches one input; returns whether it built.
bool runInput(Device& d, const std::vector<uint32_t>& words, const Options& opt, Stats* st, bool print) {
    g_current.words = words.data();
    g_current.word_count = words.size();
    g_current.kernel = -1;
    g_current.stage = "build";
    writeInput(words);  // a crash may leave no chance to write it
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithIL(d.context, words.data(), words.size() * 4, &err);
    bool built = false;
    if (p && clBuildProgram(p, 1, &d.device, "", nullptr, nullptr) == CL_SUCCESS) {
        built = true;
        ++st->built;
        cl_uint n = 0;
        clCreateKernelsInProgram(p, 0, nullptr, &n);
        std::vector<cl_kernel> ks(n);
        if (n && clCreateKernelsInProgram(p, n, ks.data(), nullptr) != CL_SUCCESS) ks.clear();
        // Arguments and NDRange follow from the input's words, so that --replay repeats them.
        Rng rng{refdev::fuzz::hashWords(words) | 1};
        for (size_t i = 0; i < ks.size(); ++i) {
            g_current.kernel = int(i);
            g_current.stage = "launch";
            if (i < opt.max_kernels && !launch(d, ks[i], rng, st, print)) ++st->skipped;
            clReleaseKernel(ks[i]);
        }
    } else if (p) {
        size_t log_size = 0;
        clGetProgramBuildInfo(p, d.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &log_size);
        if (log_size <= 1) {
            std::fprintf(stderr, "icd fuzz: a module was rejected without a build log\n");
            refdev::fuzz::dumpCurrent("empty build log");
            std::_Exit(1);
        }
    }
    if (print && !built) std::printf("  not built (%d)\n", err);
    if (p) clReleaseProgram(p);
    std::remove(g_current.dump_path);
    return built;
}

bool openDevice(Device& d) {
    cl_platform_id platform = nullptr;
    cl_uint n = 0;
    if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0) return false;
    char version[256] = {0};
    clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof(version) - 1, version, nullptr);
    const char* refdev = std::strstr(version, "RefDev ");
    if (!refdev) return false;
    d.profile = refdev + 7;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &d.device, nullptr) != CL_SUCCESS) return false;
    cl_int err = CL_SUCCESS;
    d.context = clCreateContext(nullptr, 1, &d.device, onNotify, &d, &err);
    if (!d.context) return false;
    d.queue = clCreateCommandQueueWithProperties(d.context, d.device, nullptr, &err);
    return d.queue != nullptr;
}

int usage(const char* argv0) {
    std::fprintf(
        stderr,
        "usage: %s [--profile=NAME] (a REFDEV_PROFILE value) [--seconds=T] [--iterations=N] [--seed=S] "
        "[--timeout=T per input]\n"
        "          [--max-kernels=N] [--crash-dir=DIR] [--replay] [--verbose] (DIR | module.spv)...\n"
        "Runs on the first OpenCL platform, which must be the reference device "
        "(OCL_ICD_VENDORS=<build>/icd).\n"
        "Seeds: every .spv under each DIR (e.g. <build>/assets/modules), or the files given.\n"
        "--replay: run each module once as it is (no mutation), printing every launch.\n",
        argv0);
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    if (!refdev::fuzz::parseDriverOptions(argc, argv, false, opt)) return usage(argv[0]);
    // Before the first OpenCL call: the ICD reads it once.
    if (!opt.profiles.empty()) setenv("REFDEV_PROFILE", opt.profiles.back().c_str(), 1);
    // Per work-item; the suite's kernels loop a few dozen times (as refdev_launch_fuzz's default).
    setenv("REFDEV_BRANCH_BUDGET", "5000", 0);
    refdev::fuzz::Seeds seeds;
    if (std::string e = refdev::fuzz::loadSeeds(opt.paths, seeds); !e.empty()) {
        std::fprintf(stderr, "%s\n", e.c_str());
        return seeds.files.empty() ? usage(argv[0]) : 2;
    }
    Device d;
    if (!openDevice(d)) {
        std::fprintf(stderr,
                     "icd fuzz: no reference device platform (is OCL_ICD_VENDORS=<build>/icd set?)\n");
        return 2;
    }
    g_current.tool = "icd fuzz";
    g_current.replay = "REFDEV_PROFILE=";
    g_current.replay_suffix = " refdev_icd_fuzz --replay ";
    g_current.profile = d.profile.c_str();
    std::snprintf(g_current.dump_path, sizeof g_current.dump_path, "%s/icd_fuzz_%s_input.spv",
                  opt.crash_dir.c_str(), d.profile.c_str());
    refdev::fuzz::installCrashHandlers();
    refdev::fuzz::startWatchdog(opt.timeout);
    auto run = [&](const std::vector<uint32_t>& words, Stats& st, bool print) {
        return runInput(d, words, opt, &st, print);
    };
    const int status = refdev::fuzz::fuzzProfile("icd fuzz", d.profile, seeds, opt, run);
    refdev::fuzz::stopWatchdog();
    clReleaseCommandQueue(d.queue);
    clReleaseContext(d.context);
    return status;
}
