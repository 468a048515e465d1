// Answers to clGetDeviceInfo from the platform's profile.
#pragma once

#include <vector>

#include "reference_device/icd/objects.h"

namespace refdev::icd {

// The device emulates GPU platform classes, and the extension specs describe GPU behaviour, so it reports
// itself as a GPU (docs/reference_device.md).
constexpr cl_device_type kDeviceType = CL_DEVICE_TYPE_GPU;

constexpr size_t kMaxWorkGroupSize = 1024;
constexpr size_t kImage2dMaxSize = 16384;
constexpr cl_uint kMemBaseAddrAlignBits = 1024;  // 128 bytes; sub-buffer origins must be multiples of it
constexpr cl_ulong kLocalMemSize = 64 * 1024;
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
