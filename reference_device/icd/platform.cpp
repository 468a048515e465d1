// Platform and device: initialisation from REFDEV_PROFILE / REFDEV_REPORT_AS / REFDEV_FAULTS /
// REFDEV_THREADS / REFDEV_BRANCH_BUDGET, clGetPlatformInfo, clGetDeviceIDs, clGetDeviceInfo.
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "reference_device/env_numbers.h"
#include "reference_device/icd/common.h"
#include "reference_device/icd/device_info.h"

namespace refdev::icd {

namespace {

struct PlatformState {
    _cl_platform_id platform;
    _cl_device_id device;
    bool ok = false;
};

// Reads the environment once. A bad value of any REFDEV_* variable leaves the platform unavailable (zero
// platforms) so that nothing runs silently without the requested profile or fault.
PlatformState& state() {
    static PlatformState* s = [] {
        auto* st = new PlatformState;
        std::string error;
        const char* wanted_profile = std::getenv("REFDEV_PROFILE");
        if (wanted_profile && std::string(wanted_profile) == "list") {
            std::fprintf(stderr, "REFDEV_PROFILE=list: profiles of the reference device:\n%s",
                         profileTable().c_str());
            std::fprintf(stderr, "(the reference device reports no platform while REFDEV_PROFILE=list)\n");
            return st;
        }
        const Profile* profile = profileFromEnv(&error);
        if (!profile) {
            std::fprintf(stderr, "%s (the reference device reports no platform)\n", error.c_str());
            return st;
        }
        const DriverReport* report = driverReportFromEnv(&error);
        if (!report) {
            std::fprintf(stderr, "%s (the reference device reports no platform)\n", error.c_str());
            return st;
        }
        const char* faults = std::getenv("REFDEV_FAULTS");
        if (faults && std::string(faults) == "list") {
            std::fprintf(stderr, "REFDEV_FAULTS=list: faults of the reference device:\n");
            for (const FaultInfo& f : allFaults())
                std::fprintf(stderr, "  %-40s %s\n", f.name.c_str(), f.description.c_str());
            std::fprintf(stderr, "(the reference device reports no platform while REFDEV_FAULTS=list)\n");
            return st;
        }
        if (faults && !st->platform.faults.parse(faults, &error)) {
            std::fprintf(stderr, "%s (the reference device reports no platform)\n", error.c_str());
            return st;
        }
        bool numbers_ok = true;
        for (const std::string& e :
             {threadsFromEnv(st->platform.threads), branchBudgetFromEnv(st->platform.branch_budget)}) {
            if (!e.empty())
                std::fprintf(stderr, "%s (the reference device reports no platform)\n", e.c_str());
            numbers_ok = numbers_ok && e.empty();
        }
        if (!numbers_ok) return st;
        st->platform.profile = profile;
        st->platform.report = report;
        st->platform.spirv_extensions = reportedSpirvExtensions(*profile, *report);
        st->platform.version = "OpenCL 3.0 RefDev " + profile->name;
        for (const ExtensionEntry& e : profile->extensions) st->platform.extensions += e.name + " ";
        st->device.platform = &st->platform;
        registerObject(&st->platform);
        registerObject(&st->device);
        st->ok = true;
        if (st->platform.faults.any()) {
            std::string list;
            for (const std::string& f : st->platform.faults.active()) list += " " + f;
            std::fprintf(stderr, "refdev: faults active:%s\n", list.c_str());
        }
        return st;
    }();
    return *s;
}

cl_int CL_API_CALL GetPlatformIDs(cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms) {
    if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return CL_INVALID_VALUE;
    cl_platform_id p = thePlatform();
    if (num_platforms) *num_platforms = p ? 1 : 0;
    if (platforms && num_entries > 0 && p) platforms[0] = p;
    return p ? CL_SUCCESS : CL_PLATFORM_NOT_FOUND_KHR;
}

cl_int CL_API_CALL GetPlatformInfo(cl_platform_id platform, cl_platform_info name, size_t size, void* value,
                                   size_t* size_ret) {
    Lock lock(apiMutex());
    cl_platform_id p = thePlatform();
    if (!p || (platform != nullptr && platform != p)) return CL_INVALID_PLATFORM;
    switch (name) {
        case CL_PLATFORM_PROFILE: return infoString(size, value, size_ret, "FULL_PROFILE");
        case CL_PLATFORM_VERSION: return infoString(size, value, size_ret, p->version);
        case CL_PLATFORM_NUMERIC_VERSION:
            return infoValue<cl_version>(size, value, size_ret, CL_MAKE_VERSION(3, 0, 0));
        case CL_PLATFORM_NAME: return infoString(size, value, size_ret, "RefDev SPIR-V reference device");
        case CL_PLATFORM_VENDOR: return infoString(size, value, size_ret, "spirv_intel_cts project");
        case CL_PLATFORM_EXTENSIONS: return infoString(size, value, size_ret, p->extensions);
        case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
            return infoArray(size, value, size_ret,
                             extensionsWithVersion(*p->profile, *p->report, p->faults));
        case CL_PLATFORM_HOST_TIMER_RESOLUTION: return infoValue<cl_ulong>(size, value, size_ret, 0);
        case CL_PLATFORM_ICD_SUFFIX_KHR: return infoString(size, value, size_ret, "RefDev");
        default: return CL_INVALID_VALUE;
    }
}

cl_int CL_API_CALL GetDeviceIDs(cl_platform_id platform, cl_device_type type, cl_uint num_entries,
                                cl_device_id* devices, cl_uint* num_devices) {
    Lock lock(apiMutex());
    cl_platform_id p = thePlatform();
    if (!p || (platform != nullptr && platform != p)) return CL_INVALID_PLATFORM;
    const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                 CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
    if (type != CL_DEVICE_TYPE_ALL && (type & ~known)) return CL_INVALID_DEVICE_TYPE;
    if ((num_entries == 0 && devices) || (!devices && !num_devices)) return CL_INVALID_VALUE;
    bool match = type == CL_DEVICE_TYPE_ALL || (type & (deviceType(*p->profile) | CL_DEVICE_TYPE_DEFAULT));
    if (!match) {
        if (num_devices) *num_devices = 0;
        return CL_DEVICE_NOT_FOUND;
    }
    if (num_devices) *num_devices = 1;
    if (devices) devices[0] = theDevice();
    return CL_SUCCESS;
}

cl_int CL_API_CALL GetDeviceInfo(cl_device_id device, cl_device_info name, size_t size, void* value,
                                 size_t* size_ret) {
    Lock lock(apiMutex());
    if (!isDevice(device)) return CL_INVALID_DEVICE;
    return deviceInfo(*thePlatform(), name, size, value, size_ret);
}

cl_int CL_API_CALL RetainDevice(cl_device_id device) {
    return isDevice(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}
cl_int CL_API_CALL ReleaseDevice(cl_device_id device) {
    return isDevice(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

cl_int CL_API_CALL CreateSubDevices(cl_device_id device, const cl_device_partition_property*, cl_uint,
                                    cl_device_id*, cl_uint*) {
    return isDevice(device) ? CL_DEVICE_PARTITION_FAILED : CL_INVALID_DEVICE;
}

cl_int CL_API_CALL UnloadPlatformCompiler(cl_platform_id platform) {
    return platform == thePlatform() && platform ? CL_SUCCESS : CL_INVALID_PLATFORM;
}
cl_int CL_API_CALL UnloadCompiler() {
    return CL_SUCCESS;
}

void* CL_API_CALL GetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char* name) {
    if (platform != thePlatform() || name == nullptr) return nullptr;
    return extensionFunction(name);
}

}  // namespace

}  // namespace refdev::icd

extern "C" void* CL_API_CALL clGetExtensionFunctionAddress(const char* name);

namespace refdev::icd {

cl_platform_id thePlatform() {
    return state().ok ? &state().platform : nullptr;
}
cl_device_id theDevice() {
    return state().ok ? &state().device : nullptr;
}

void fillPlatformEntries(cl_icd_dispatch& d) {
    d.clGetPlatformIDs = GetPlatformIDs;
    d.clGetPlatformInfo = GetPlatformInfo;
    d.clGetDeviceIDs = GetDeviceIDs;
    d.clGetDeviceInfo = GetDeviceInfo;
    d.clRetainDevice = RetainDevice;
    d.clReleaseDevice = ReleaseDevice;
    d.clRetainDeviceEXT = RetainDevice;
    d.clReleaseDeviceEXT = ReleaseDevice;
    d.clGetExtensionFunctionAddress = clGetExtensionFunctionAddress;
    d.clCreateSubDevices = CreateSubDevices;
    d.clUnloadPlatformCompiler = UnloadPlatformCompiler;
    d.clUnloadCompiler = UnloadCompiler;
    d.clGetExtensionFunctionAddressForPlatform = GetExtensionFunctionAddressForPlatform;
}

}  // namespace refdev::icd

// The only exported symbols: the ICD loader finds everything else through the dispatch table.
extern "C" {

__attribute__((visibility("default"))) cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                                                 cl_platform_id* platforms,
                                                                                 cl_uint* num_platforms) {
    using namespace refdev::icd;
    if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return CL_INVALID_VALUE;
    cl_platform_id p = thePlatform();
    if (num_platforms) *num_platforms = p ? 1 : 0;
    if (platforms && p) platforms[0] = p;
    return p ? CL_SUCCESS : CL_PLATFORM_NOT_FOUND_KHR;
}

__attribute__((visibility("default"))) void* CL_API_CALL clGetExtensionFunctionAddress(const char* name) {
    if (name == nullptr) return nullptr;
    const std::string n = name;
    if (n == "clIcdGetPlatformIDsKHR") return reinterpret_cast<void*>(&clIcdGetPlatformIDsKHR);
    // Debian's ocl-icd looks up clGetPlatformInfo in the ICD (dlsym, then this function) before it uses the
    // dispatch table; answering here keeps the plain clXxx symbols unexported.
    if (n == "clGetPlatformInfo")
        return reinterpret_cast<void*>(refdev::icd::dispatchTable()->clGetPlatformInfo);
    return refdev::icd::extensionFunction(name);
}

__attribute__((visibility("default"))) void* CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char* name) {
    if (name == nullptr || platform != refdev::icd::thePlatform()) return nullptr;
    return clGetExtensionFunctionAddress(name);
}

}  // extern "C"
