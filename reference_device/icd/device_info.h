// Answers to clGetDeviceInfo from the platform's profile.
#pragma once

#include <vector>

#include "reference_device/icd/objects.h"

namespace refdev::icd {

// The device reports the type of the class its profile stands for: a GPU, or for the cpu profile (Intel's
// OpenCL CPU device) a CPU (docs/reference_device.md).
inline cl_device_type deviceType(const Profile& p) {
    return p.cpu_device ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_GPU;
}
// Work-group and local-memory limits: the profile's (1024 and 64 KiB on the GPU classes).
inline size_t maxWorkGroupSize(const Profile& p) {
    return p.max_work_group_size;
}
inline cl_ulong localMemSize(const Profile& p) {
    return p.local_mem_size;
}

constexpr size_t kImage2dMaxSize = 16384;        // also the width limit of 1D images and 1D arrays
constexpr size_t kImage3dMaxSize = 2048;         // width, height and depth
constexpr size_t kImageMaxArraySize = 2048;      // layers of 1D and 2D arrays
constexpr size_t kImageMaxBufferSize = 65536;    // texels of a 1D image from a buffer
constexpr cl_uint kMemBaseAddrAlignBits = 1024;  // 128 bytes; sub-buffer origins must be multiples of it
// Large enough for 2D block IO past 2^32 bytes (the huge cases), as devices of the Xe-HPC class allow; the
// storage is allocated lazily (memory.cpp), so only the pages a kernel or a transfer touches cost memory.
constexpr cl_ulong kMaxMemAlloc = 8ull << 30;
constexpr cl_ulong kGlobalMemSize = 16ull << 30;
constexpr cl_uint kImagePitchAlignment = 4;        // pixels, for images created from buffers
constexpr cl_uint kImageBaseAddressAlignment = 4;  // pixels

// The extensions with versions that the profile reports under the driver report (REFDEV_REPORT_AS), as
// changed by the planted query faults (REFDEV_FAULTS).
std::vector<cl_name_version> extensionsWithVersion(const Profile& profile, const DriverReport& report,
                                                   const Faults& faults);
cl_int deviceInfo(const _cl_platform_id& platform, cl_device_info name, size_t size, void* value,
                  size_t* size_ret);

// Image formats the device supports (2D images; all access modes).
const std::vector<cl_image_format>& supportedImageFormats();
// Bytes per texel, 0 for an unsupported format.
size_t texelBytes(const cl_image_format& format);

}  // namespace refdev::icd
