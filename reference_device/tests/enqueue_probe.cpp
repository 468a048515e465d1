// Enqueues the "copy" kernel of a fixture module once on the first platform and exits 0 on success.
// Exit codes: 2 no platform, 3 build failure, 4 enqueue failure. Used by check_faults.sh to show that the
// "hang" and "crash" faults take effect at kernel enqueue.
#include <CL/cl.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s module.spv\n", argv[0]);
        return 1;
    }
    std::ifstream in(argv[1], std::ios::binary);
    std::vector<char> il((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    cl_platform_id platform = nullptr;
    cl_uint n = 0;
    if (clGetPlatformIDs(1, &platform, &n) != CL_SUCCESS || n == 0) return 2;
    cl_device_id device = nullptr;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) != CL_SUCCESS) return 2;
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
    cl_program program = clCreateProgramWithIL(context, il.data(), il.size(), &err);
    if (clBuildProgram(program, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) return 3;
    cl_kernel kernel = clCreateKernel(program, "copy", &err);
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 64 * 4, nullptr, &err);
    cl_uint scale = 1;
    clSetKernelArg(kernel, 0, sizeof(cl_mem), &buffer);
    clSetKernelArg(kernel, 1, sizeof(cl_mem), &buffer);
    clSetKernelArg(kernel, 2, sizeof(scale), &scale);
    size_t global = 64;
    std::printf("enqueueing\n");
    std::fflush(stdout);
    if (clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr) !=
        CL_SUCCESS)
        return 4;
    clFinish(queue);
    clReleaseMemObject(buffer);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    std::printf("done\n");
    return 0;
}
