// Standalone host for the reproducers in this folder: OpenCL C API only, no project code, so a driver team
// can build it alone (g++ repro_host.cpp -lOpenCL). It runs one reproducer module on the first device of the
// first platform the ICD loader offers (point OCL_ICD_VENDORS at the driver) and prints, per texel or lane,
// what the spec gives and what the device gave.
//
//   repro_host MODULE.spv read  X_BYTES Y   one sub-group of 16 reads a 32-bit block at (X_BYTES, Y)
//   repro_host MODULE.spv write X_BYTES Y   one sub-group of 16 writes 0x100 + lane at (X_BYTES, Y)
//   repro_host MODULE.spv subgroup_id       one sub-group of 16 stores SubgroupId read in a called function
//
// The image is CL_R / CL_UNSIGNED_INT32, 8 texels wide and 4 rows high, texel (c, r) = 0xA0000000 + r * 0x100
// + c. The device runs in a child process, so a crash is reported rather than fatal.
// Exit status: 0 the bug reproduced (a wrong value or a crash), 3 the device behaved as the spec says,
// 2 setup error (no device, build failure, bad arguments).
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

constexpr int kWidth = 8, kHeight = 4, kLanes = 16;

uint32_t texel(int c, int r) {
    return 0xA0000000u + static_cast<uint32_t>(r) * 0x100u + static_cast<uint32_t>(c);
}

int clampTo(int v, int lo, int hi) {
    return v < lo ? lo : v > hi ? hi : v;
}

#define CHECK(call)                                                               \
    do {                                                                          \
        cl_int e_ = (call);                                                       \
        if (e_ != CL_SUCCESS) {                                                   \
            std::fprintf(stderr, "%s failed: %d\n", #call, static_cast<int>(e_)); \
            return 2;                                                             \
        }                                                                         \
    } while (0)

struct Device {
    cl_context ctx = nullptr;
    cl_command_queue queue = nullptr;
    cl_kernel kernel = nullptr;
};

// Builds the module on the first device of the first platform and creates its kernel "repro".
int openRepro(const std::string& spv_path, Device* dev) {
    std::ifstream in(spv_path, std::ios::binary);
    std::vector<char> il((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (il.empty()) {
        std::fprintf(stderr, "cannot read %s\n", spv_path.c_str());
        return 2;
    }
    cl_platform_id platform;
    cl_device_id device;
    cl_uint n = 0;
    CHECK(clGetPlatformIDs(1, &platform, &n));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));
    char name[256] = {}, driver[256] = {};
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, nullptr);
    clGetDeviceInfo(device, CL_DRIVER_VERSION, sizeof driver, driver, nullptr);
    std::printf("device: %s, driver %s\n", name, driver);
    cl_int err = CL_SUCCESS;
    dev->ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    CHECK(err);
    dev->queue = clCreateCommandQueueWithProperties(dev->ctx, device, nullptr, &err);
    CHECK(err);
    cl_program program = clCreateProgramWithIL(dev->ctx, il.data(), il.size(), &err);
    CHECK(err);
    if (clBuildProgram(program, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) {
        std::fprintf(stderr, "build of %s failed\n", spv_path.c_str());
        return 2;
    }
    dev->kernel = clCreateKernel(program, "repro", &err);
    CHECK(err);
    return 0;
}

// One sub-group of 16 stores SubgroupId (read in a called function) at out[lane]: every value must be 0.
int runSubgroupId(const std::string& spv_path) {
    Device dev;
    if (int rc = openRepro(spv_path, &dev)) return rc;
    cl_int err = CL_SUCCESS;
    cl_mem out = clCreateBuffer(dev.ctx, CL_MEM_READ_WRITE, kLanes * 4, nullptr, &err);
    CHECK(err);
    CHECK(clSetKernelArg(dev.kernel, 0, sizeof out, &out));
    size_t global = kLanes, local = kLanes;
    CHECK(clEnqueueNDRangeKernel(dev.queue, dev.kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    std::vector<uint32_t> got(kLanes);
    CHECK(clEnqueueReadBuffer(dev.queue, out, CL_TRUE, 0, kLanes * 4, got.data(), 0, nullptr, nullptr));
    int wrong = 0;
    for (int lane = 0; lane < kLanes; ++lane) {
        wrong += got[lane] != 0;
        std::printf("lane %2d: expected SubgroupId 0 actual %u%s\n", lane, got[lane],
                    got[lane] ? "  <-- wrong" : "");
    }
    std::printf("%d wrong value(s)\n", wrong);
    return wrong ? 0 : 3;
}

int run(const std::string& spv_path, bool write, int x_bytes, int y) {
    Device dev;
    if (int rc = openRepro(spv_path, &dev)) return rc;
    cl_context ctx = dev.ctx;
    cl_command_queue queue = dev.queue;
    cl_kernel kernel = dev.kernel;
    cl_int err = CL_SUCCESS;
    std::vector<uint32_t> pixels(kWidth * kHeight);
    for (int r = 0; r < kHeight; ++r)
        for (int c = 0; c < kWidth; ++c) pixels[r * kWidth + c] = texel(c, r);
    cl_image_format format{CL_R, CL_UNSIGNED_INT32};
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = kWidth;
    desc.image_height = kHeight;
    cl_mem image =
        clCreateImage(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, &format, &desc, pixels.data(), &err);
    CHECK(err);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, kLanes * 4, nullptr, &err);
    CHECK(err);
    cl_uint x = static_cast<cl_uint>(x_bytes), yy = static_cast<cl_uint>(y);
    cl_uint arg = 0;
    CHECK(clSetKernelArg(kernel, arg++, sizeof image, &image));
    if (!write) CHECK(clSetKernelArg(kernel, arg++, sizeof out, &out));
    CHECK(clSetKernelArg(kernel, arg++, sizeof x, &x));
    CHECK(clSetKernelArg(kernel, arg++, sizeof yy, &yy));
    size_t global = kLanes, local = kLanes;
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr));
    CHECK(clFinish(queue));
    int wrong = 0;
    if (!write) {
        std::vector<uint32_t> got(kLanes);
        CHECK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, kLanes * 4, got.data(), 0, nullptr, nullptr));
        // Lane L reads the texel at byte x + 4L of row y, clamped to the edge texel (4-byte texels).
        for (int lane = 0; lane < kLanes; ++lane) {
            int c = clampTo(x_bytes / 4 + lane, 0, kWidth - 1), r = clampTo(y, 0, kHeight - 1);
            bool ok = got[lane] == texel(c, r);
            wrong += !ok;
            std::printf("lane %2d: expected 0x%08x (texel %d, row %d) actual 0x%08x%s\n", lane, texel(c, r),
                        c, r, got[lane], ok ? "" : "  <-- wrong");
        }
    } else {
        std::vector<uint32_t> got(kWidth * kHeight);
        size_t origin[3] = {0, 0, 0}, region[3] = {kWidth, kHeight, 1};
        CHECK(
            clEnqueueReadImage(queue, image, CL_TRUE, origin, region, 0, 0, got.data(), 0, nullptr, nullptr));
        // Texels the block covers inside the image hold 0x100 + lane; every other texel is unchanged.
        for (int r = 0; r < kHeight; ++r)
            for (int c = 0; c < kWidth; ++c) {
                int lane = c - x_bytes / 4;
                uint32_t want = (r == y && lane >= 0 && lane < kLanes) ? 0x100u + lane : texel(c, r);
                bool ok = got[r * kWidth + c] == want;
                wrong += !ok;
                std::printf("texel %d row %d: expected 0x%08x actual 0x%08x%s\n", c, r, want,
                            got[r * kWidth + c], ok ? "" : "  <-- wrong");
            }
    }
    std::printf("%d wrong value(s)\n", wrong);
    return wrong ? 0 : 3;
}

}  // namespace

int main(int argc, char** argv) {
    const bool subgroup_id = argc == 3 && std::strcmp(argv[2], "subgroup_id") == 0;
    if (!subgroup_id &&
        (argc != 5 || (std::strcmp(argv[2], "read") != 0 && std::strcmp(argv[2], "write") != 0))) {
        std::fprintf(stderr, "usage: %s MODULE.spv read|write X_BYTES Y | MODULE.spv subgroup_id\n", argv[0]);
        return 2;
    }
    std::fflush(stdout);
    pid_t pid = fork();  // before any OpenCL call: the child owns the driver
    if (pid == 0) {
        int rc = subgroup_id ? runSubgroupId(argv[1])
                             : run(argv[1], std::strcmp(argv[2], "write") == 0, std::atoi(argv[3]),
                                   std::atoi(argv[4]));
        std::fflush(nullptr);
        _exit(rc);  // not exit(): the driver's atexit handlers belong to the parent's copy too
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0) return 2;
    if (WIFSIGNALED(status)) {
        std::printf("the device process died by signal %d (%s)\n", WTERMSIG(status),
                    strsignal(WTERMSIG(status)));
        return 0;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 2;
}
