#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include "test_common/harness/device/device_under_test.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_common/harness/device/registered_drivers.h"
#include "test_common/harness/device/runtime_package.h"
#include "test_common/harness/model/case.h"

namespace cts {
namespace {

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

std::string platformName(cl_platform_id platform) {
    size_t size = 0;
    if (clGetPlatformInfo(platform, CL_PLATFORM_NAME, 0, nullptr, &size) != CL_SUCCESS || size == 0)
        return "";
    std::string name(size, '\0');
    if (clGetPlatformInfo(platform, CL_PLATFORM_NAME, size, &name[0], nullptr) != CL_SUCCESS) return "";
    return name.c_str();
}

// Why the library an --icd file names gave the loader no platform: most often it cannot be loaded (a
// dependency missing from the library path), which the loaders do not say.
std::string whyNoPlatform(const std::string& library) {
    void* handle = dlopen(library.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (!handle) {
        const char* err = dlerror();
        return "; " + library + " cannot be loaded: " + (err ? err : "unknown dlopen error");
    }
    dlclose(handle);
    return "; " + library + " loads but yields no platform";
}

// The registered drivers none of `platforms` comes from (none with --icd=FILE: one library, no directory).
std::vector<std::string> silentDrivers(const DeviceChoice& options,
                                       const std::vector<cl_platform_id>& platforms) {
    std::vector<std::string> out;
    if (!options.icd_file.empty()) return out;
    std::vector<std::string> libraries;
    for (cl_platform_id p : platforms) libraries.push_back(driverLibraryOf(p));
    for (const auto& d : driversWithoutPlatform(
             registeredDrivers(vendorsDirectory(std::getenv("OCL_ICD_VENDORS"))), libraries))
        out.push_back(noPlatformText(d));
    return out;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string text;
    for (const auto& l : lines) text += "; " + l;
    return text;
}

}  // namespace

bool parseDeviceType(const std::string& text, unsigned long long& type) {
    std::string t = text;
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return std::tolower(c); });
    if (t.rfind("cl_device_type_", 0) == 0) t = t.substr(15);
    if (t == "gpu")
        type = CL_DEVICE_TYPE_GPU;
    else if (t == "cpu")
        type = CL_DEVICE_TYPE_CPU;
    else if (t == "accelerator")
        type = CL_DEVICE_TYPE_ACCELERATOR;
    else if (t == "default")
        type = CL_DEVICE_TYPE_DEFAULT;
    else if (t == "all")
        type = CL_DEVICE_TYPE_ALL;
    else
        return false;
    return true;
}

std::string openDevice(const DeviceChoice& options, DeviceUnderTest& dut) {
    cl_uint num_platforms = 0;
    cl_int err = clGetPlatformIDs(0, nullptr, &num_platforms);
    if (err != CL_SUCCESS || num_platforms == 0) {
        const char* vendors = std::getenv("OCL_ICD_VENDORS");
        std::string text =
            std::string("no OpenCL platform found (clGetPlatformIDs: ") + clErrorName(err) + ")";
        if (!options.icd_file.empty())
            return text + " with --icd=" + options.icd_file + whyNoPlatform(options.icd_library);
        return text + "; OCL_ICD_VENDORS=" + (vendors ? vendors : "(unset)") +
               joined(silentDrivers(options, {}));
    }
    std::vector<cl_platform_id> platforms(num_platforms);
    checkInternal(clGetPlatformIDs(num_platforms, platforms.data(), nullptr), "clGetPlatformIDs");
    dut.silent_drivers = silentDrivers(options, platforms);
    dut.platform_index = options.platform < 0 ? 0 : options.platform;
    if (!options.platform_name.empty()) {
        // The first match, like the index options' first platform; the error lists what there is.
        dut.platform_index = -1;
        std::string seen;
        for (cl_uint i = 0; i < num_platforms; ++i) {
            std::string name = platformName(platforms[i]);
            if (dut.platform_index < 0 && lower(name).find(lower(options.platform_name)) != std::string::npos)
                dut.platform_index = static_cast<int>(i);
            seen += (i ? ", platform " : "platform ") + std::to_string(i) + " \"" + name + "\"";
        }
        if (dut.platform_index < 0)
            return "no platform name contains \"" + options.platform_name + "\" (--platform-name): found " +
                   seen + joined(dut.silent_drivers);
    }
    if (static_cast<cl_uint>(dut.platform_index) >= num_platforms)
        return "platform index " + std::to_string(dut.platform_index) +
               " is out of range: " + std::to_string(num_platforms) + " platform(s) found";
    cl_platform_id platform = platforms[dut.platform_index];
    dut.driver_library = driverLibraryOf(platform);
    // A loader that dispatches on its own hides the library: the --icd file still says which one it loaded.
    if (dut.driver_library.empty() && options.icd_library.find('/') != std::string::npos)
        dut.driver_library = options.icd_library;

    unsigned long long type = CL_DEVICE_TYPE_DEFAULT;
    if (!options.device_type.empty()) parseDeviceType(options.device_type, type);
    cl_uint num_devices = 0;
    err = clGetDeviceIDs(platform, type, 0, nullptr, &num_devices);
    if (err == CL_DEVICE_NOT_FOUND || (err == CL_SUCCESS && num_devices == 0))
        return "platform " + std::to_string(dut.platform_index) + " has no device of type " +
               (options.device_type.empty() ? "default" : options.device_type);
    if (err != CL_SUCCESS) return std::string("clGetDeviceIDs: ") + clErrorName(err);
    std::vector<cl_device_id> devices(num_devices);
    checkInternal(clGetDeviceIDs(platform, type, num_devices, devices.data(), nullptr), "clGetDeviceIDs");
    dut.device_index = options.device < 0 ? 0 : options.device;
    if (static_cast<cl_uint>(dut.device_index) >= num_devices)
        return "device index " + std::to_string(dut.device_index) + " is out of range: platform " +
               std::to_string(dut.platform_index) + " has " + std::to_string(num_devices) +
               " matching device(s)";
    cl_device_id device = devices[dut.device_index];

    try {
        dut.info = probeDevice(platform, device);
    } catch (const std::exception& e) {
        return std::string("device probe failed: ") + e.what();
    }
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform),
                                     0};
    dut.context.reset(clCreateContext(props, 1, &device, &DriverMessages::notify, &dut.messages, &err));
    if (err != CL_SUCCESS) return std::string("clCreateContext: ") + clErrorName(err);
    // clCreateCommandQueue exists in every driver generation; the suite needs no queue properties.
    dut.queue.reset(clCreateCommandQueue(dut.context, device, 0, &err));
    if (err != CL_SUCCESS) return std::string("clCreateCommandQueue: ") + clErrorName(err);
    dut.programs = std::make_unique<ProgramCache>(dut.context.get(), device);
    return "";
}

namespace {

// NEO's debug keys are integers (a missing or malformed value leaves the key at its default).
long neoKey(const EnvLookup& env, const char* name) {
    const char* v = env(name);
    if (!v || !*v) return 0;
    char* end = nullptr;
    long n = std::strtol(v, &end, 0);
    return *end == '\0' ? n : 0;
}

}  // namespace

std::string nonExecutingDriverMode(const EnvLookup& env) {
    // compute-runtime's CommandStreamReceiverType: 0 HW, 1 AUB, 2 TBX, 3 HW with AUB, 4 TBX with AUB. Only
    // AUB executes nowhere (TBX runs on a simulator server, the others on the GPU).
    if (neoKey(env, "NEOReadDebugKeys") == 0 || neoKey(env, "SetCommandStreamReceiver") != 1) return "";
    return "NEOReadDebugKeys=1 with SetCommandStreamReceiver=1 puts Intel's compute-runtime in its "
           "no-hardware "
           "(AUB) mode, which builds but never runs a kernel: results would be meaningless; run with "
           "--build-only (scripts/setup/run_intel_gpu_nohw.sh does)";
}

std::string deviceInfoJson(const DeviceInfo& d) {
    nlohmann::ordered_json j;
    j["platform_name"] = d.platform_name;
    j["platform_version"] = d.platform_version;
    j["device_name"] = d.device_name;
    j["device_version"] = d.device_version;
    j["driver_version"] = d.driver_version;
    j["vendor"] = d.vendor;
    j["vendor_id"] = d.vendor_id;
    j["type"] = d.type;
    nlohmann::ordered_json ext = nlohmann::ordered_json::array();
    for (const auto& e : d.extensions)
        ext.push_back({{"name", e.name},
                       {"version", e.version_known ? std::to_string(e.major) + "." + std::to_string(e.minor) +
                                                         "." + std::to_string(e.patch)
                                                   : ""}});
    j["extensions"] = ext;
    j["il_versions"] = d.il_versions;
    j["sub_group_sizes"] = d.sub_group_sizes;
    j["address_bits"] = d.address_bits;
    j["max_work_group_size"] = d.max_work_group_size;
    j["image_support"] = d.image_support;
    j["image2d_max_width"] = d.image2d_max_width;
    j["image2d_max_height"] = d.image2d_max_height;
    j["image_pitch_alignment"] = d.image_pitch_alignment;
    j["image_base_address_alignment"] = d.image_base_address_alignment;
    nlohmann::ordered_json formats = nlohmann::ordered_json::array();
    for (const auto& f : d.image2d_rw_formats) formats.push_back({f.order, f.type});
    j["image2d_rw_formats"] = formats;
    j["fp16"] = d.fp16;
    j["fp64"] = d.fp64;
    j["int64"] = d.int64;
    j["mem_base_addr_align_bits"] = d.mem_base_addr_align_bits;
    j["max_num_sub_groups"] = d.max_num_sub_groups;
    j["max_mem_alloc_size"] = d.max_mem_alloc_size;
    j["global_mem_size"] = d.global_mem_size;
    j["svm_capabilities"] = d.svm_capabilities;
    j["has_spirv_queries"] = d.has_spirv_queries;
    j["spirv_extensions"] = d.spirv_extensions;
    j["spirv_capabilities"] = d.spirv_capabilities;
    return j.dump(1);
}

}  // namespace cts
