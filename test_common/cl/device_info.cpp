#include "test_common/cl/device_info.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "test_common/cl/wrappers.h"
#include "test_common/errors.h"

namespace cts {
namespace {

// Returns false when the query itself is not supported (e.g. an optional or vendor query).
bool queryBytes(cl_device_id device, cl_device_info param, std::vector<unsigned char>& out) {
    size_t size = 0;
    if (clGetDeviceInfo(device, param, 0, nullptr, &size) != CL_SUCCESS) return false;
    out.assign(size, 0);
    if (size == 0) return true;
    return clGetDeviceInfo(device, param, size, out.data(), nullptr) == CL_SUCCESS;
}

std::string deviceString(cl_device_id device, cl_device_info param, const char* what, bool mandatory) {
    std::vector<unsigned char> bytes;
    if (!queryBytes(device, param, bytes)) {
        if (mandatory) throw InternalError(std::string("clGetDeviceInfo(") + what + ") failed");
        return "";
    }
    std::string s(bytes.begin(), bytes.end());
    while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
    return s;
}

std::string platformString(cl_platform_id platform, cl_platform_info param) {
    size_t size = 0;
    if (clGetPlatformInfo(platform, param, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
    std::string s(size, '\0');
    if (clGetPlatformInfo(platform, param, size, &s[0], nullptr) != CL_SUCCESS) return "";
    while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
    return s;
}

template <typename T>
T deviceScalar(cl_device_id device, cl_device_info param, const char* what) {
    T value{};
    checkInternal(clGetDeviceInfo(device, param, sizeof value, &value, nullptr),
                  std::string("clGetDeviceInfo(") + what + ")");
    return value;
}

template <typename T>
bool optionalScalar(cl_device_id device, cl_device_info param, T& value) {
    return clGetDeviceInfo(device, param, sizeof value, &value, nullptr) == CL_SUCCESS;
}

std::vector<std::string> splitWords(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    std::string w;
    while (in >> w) out.push_back(w);
    return out;
}

// A cl_name_version array, or nothing when the query is unsupported (pre-3.0 drivers).
bool nameVersions(cl_device_id device, cl_device_info param, std::vector<cl_name_version>& out) {
    std::vector<unsigned char> bytes;
    if (!queryBytes(device, param, bytes)) return false;
    out.resize(bytes.size() / sizeof(cl_name_version));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(cl_name_version));
    return true;
}

std::string nameOf(const cl_name_version& nv) {
    return std::string(nv.name, strnlen(nv.name, CL_NAME_VERSION_MAX_NAME_SIZE));
}

// cl_khr_spirv_queries returns its string lists as `const char*[]`: pointers to strings owned by the
// implementation, not the characters themselves.
std::vector<std::string> pointerStrings(cl_device_id device, cl_device_info param) {
    std::vector<unsigned char> bytes;
    std::vector<std::string> out;
    if (!queryBytes(device, param, bytes)) return out;
    size_t n = bytes.size() / sizeof(const char*);
    for (size_t i = 0; i < n; ++i) {
        const char* p = nullptr;
        std::memcpy(&p, bytes.data() + i * sizeof p, sizeof p);
        if (p) out.emplace_back(p);
    }
    return out;
}

void probeImages(DeviceInfo& info) {
    optionalScalar(info.device, CL_DEVICE_SVM_CAPABILITIES, info.svm_capabilities);
    cl_bool images = CL_FALSE;
    optionalScalar(info.device, CL_DEVICE_IMAGE_SUPPORT, images);
    info.image_support = images == CL_TRUE;
    if (!info.image_support) return;
    info.image2d_max_width =
        deviceScalar<size_t>(info.device, CL_DEVICE_IMAGE2D_MAX_WIDTH, "IMAGE2D_MAX_WIDTH");
    info.image2d_max_height =
        deviceScalar<size_t>(info.device, CL_DEVICE_IMAGE2D_MAX_HEIGHT, "IMAGE2D_MAX_HEIGHT");
    if (info.hasExtension("cl_khr_image2d_from_buffer")) {
        info.image_pitch_alignment =
            deviceScalar<cl_uint>(info.device, CL_DEVICE_IMAGE_PITCH_ALIGNMENT, "IMAGE_PITCH_ALIGNMENT");
        info.image_base_address_alignment = deviceScalar<cl_uint>(
            info.device, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, "IMAGE_BASE_ADDRESS_ALIGNMENT");
    }

    // A throwaway context: image formats are a context query.
    cl_int err = CL_SUCCESS;
    ContextHandle context(clCreateContext(nullptr, 1, &info.device, nullptr, nullptr, &err));
    checkInternal(err, "clCreateContext (image format probe)");
    auto formats = [&](cl_mem_flags flags) {
        cl_uint n = 0;
        std::vector<cl_image_format> list;
        if (clGetSupportedImageFormats(context, flags, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &n) != CL_SUCCESS)
            return list;
        list.resize(n);
        if (n && clGetSupportedImageFormats(context, flags, CL_MEM_OBJECT_IMAGE2D, n, list.data(), nullptr) !=
                     CL_SUCCESS)
            list.clear();
        return list;
    };
    auto same = [](const cl_image_format& a, const cl_image_format& b) {
        return a.image_channel_order == b.image_channel_order &&
               a.image_channel_data_type == b.image_channel_data_type;
    };
    // A format counts when a CL_MEM_READ_WRITE image of it can be read and written by kernels, or when it
    // is usable both read-only and write-only (block reads and writes may use separate image objects).
    std::vector<cl_image_format> rw;
    auto addUnique = [&](const cl_image_format& f) {
        if (!std::any_of(rw.begin(), rw.end(), [&](const cl_image_format& x) { return same(f, x); }))
            rw.push_back(f);
    };
    for (const auto& f : formats(CL_MEM_READ_WRITE)) addUnique(f);
    for (const auto& f : formats(CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE)) addUnique(f);
    std::vector<cl_image_format> write = formats(CL_MEM_WRITE_ONLY);
    for (const auto& r : formats(CL_MEM_READ_ONLY))
        if (std::any_of(write.begin(), write.end(), [&](const cl_image_format& w) { return same(r, w); }))
            addUnique(r);
    for (const auto& f : rw)
        info.image2d_rw_formats.push_back({f.image_channel_order, f.image_channel_data_type});
}

}  // namespace

const ExtensionVersion* DeviceInfo::extension(const std::string& name) const {
    for (const auto& e : extensions)
        if (e.name == name) return &e;
    return nullptr;
}

bool DeviceInfo::hasExtension(const std::string& name, uint32_t min_major, uint32_t min_minor) const {
    const ExtensionVersion* e = extension(name);
    if (!e) return false;
    if (min_major == 0 && min_minor == 0) return true;
    if (!e->version_known) return false;
    return e->major > min_major || (e->major == min_major && e->minor >= min_minor);
}

bool DeviceInfo::supportsSpirv(int major, int minor) const {
    for (const auto& v : il_versions) {
        int ma = 0, mi = 0;
        if (std::sscanf(v.c_str(), "SPIR-V_%d.%d", &ma, &mi) == 2 &&
            (ma > major || (ma == major && mi >= minor)))
            return true;
    }
    return false;
}

size_t DeviceInfo::minSubGroupSize() const {
    return sub_group_sizes.empty() ? 0 : *std::min_element(sub_group_sizes.begin(), sub_group_sizes.end());
}

bool DeviceInfo::hasImageFormat(cl_channel_order order, cl_channel_type type) const {
    for (const auto& f : image2d_rw_formats)
        if (f.order == order && f.type == type) return true;
    return false;
}

std::string DeviceInfo::ilVersionsText() const {
    std::string s;
    for (const auto& v : il_versions) s += (s.empty() ? "" : " ") + v;
    return s.empty() ? "none" : s;
}

DeviceInfo probeDevice(cl_platform_id platform, cl_device_id device) {
    DeviceInfo info;
    info.platform = platform;
    info.device = device;
    info.platform_name = platformString(platform, CL_PLATFORM_NAME);
    info.platform_version = platformString(platform, CL_PLATFORM_VERSION);
    info.device_name = deviceString(device, CL_DEVICE_NAME, "CL_DEVICE_NAME", true);
    info.device_version = deviceString(device, CL_DEVICE_VERSION, "CL_DEVICE_VERSION", true);
    info.driver_version = deviceString(device, CL_DRIVER_VERSION, "CL_DRIVER_VERSION", true);
    info.vendor = deviceString(device, CL_DEVICE_VENDOR, "CL_DEVICE_VENDOR", false);
    info.type = deviceScalar<cl_device_type>(device, CL_DEVICE_TYPE, "CL_DEVICE_TYPE");
    info.vendor_id = deviceScalar<cl_uint>(device, CL_DEVICE_VENDOR_ID, "CL_DEVICE_VENDOR_ID");
    info.address_bits = deviceScalar<cl_uint>(device, CL_DEVICE_ADDRESS_BITS, "CL_DEVICE_ADDRESS_BITS");
    info.max_work_group_size =
        deviceScalar<size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, "CL_DEVICE_MAX_WORK_GROUP_SIZE");
    info.mem_base_addr_align_bits =
        deviceScalar<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, "CL_DEVICE_MEM_BASE_ADDR_ALIGN");
    optionalScalar(device, CL_DEVICE_MAX_NUM_SUB_GROUPS, info.max_num_sub_groups);
    info.max_mem_alloc_size =
        deviceScalar<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, "CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    info.global_mem_size =
        deviceScalar<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE, "CL_DEVICE_GLOBAL_MEM_SIZE");

    // Extensions: with versions when the driver has CL 3.0 extended versioning, names only otherwise. A name
    // in CL_DEVICE_EXTENSIONS that the versioned list leaves out is still reported, without a version
    // (api.extension_versions fails it).
    std::vector<cl_name_version> nv;
    if (nameVersions(device, CL_DEVICE_EXTENSIONS_WITH_VERSION, nv) && !nv.empty()) {
        for (const auto& e : nv)
            info.extensions.push_back({nameOf(e), CL_VERSION_MAJOR(e.version), CL_VERSION_MINOR(e.version),
                                       CL_VERSION_PATCH(e.version), true});
    }
    for (const auto& name :
         splitWords(deviceString(device, CL_DEVICE_EXTENSIONS, "CL_DEVICE_EXTENSIONS", true)))
        if (!info.extension(name)) info.extensions.push_back({name, 0, 0, 0, false});

    // IL versions: the versioned query, else the space-separated string ("SPIR-V_1.2 SPIR-V_1.0").
    nv.clear();
    if (nameVersions(device, CL_DEVICE_ILS_WITH_VERSION, nv) && !nv.empty()) {
        for (const auto& e : nv) {
            char buf[96];
            std::snprintf(buf, sizeof buf, "%s_%u.%u", nameOf(e).c_str(), CL_VERSION_MAJOR(e.version),
                          CL_VERSION_MINOR(e.version));
            info.il_versions.push_back(buf);
        }
    } else {
        info.il_versions =
            splitWords(deviceString(device, CL_DEVICE_IL_VERSION, "CL_DEVICE_IL_VERSION", false));
    }

    std::vector<unsigned char> bytes;
    if (queryBytes(device, CL_DEVICE_SUB_GROUP_SIZES_INTEL, bytes)) {
        info.sub_group_sizes.resize(bytes.size() / sizeof(size_t));
        if (!info.sub_group_sizes.empty())
            std::memcpy(info.sub_group_sizes.data(), bytes.data(),
                        info.sub_group_sizes.size() * sizeof(size_t));
    }

    probeImages(info);

    info.fp16 = info.hasExtension("cl_khr_fp16");
    cl_device_fp_config fp64_config = 0;
    info.fp64 = info.hasExtension("cl_khr_fp64") ||
                (optionalScalar(device, CL_DEVICE_DOUBLE_FP_CONFIG, fp64_config) && fp64_config != 0);
    // 64-bit integers are mandatory in the full profile only.
    std::string profile = deviceString(device, CL_DEVICE_PROFILE, "CL_DEVICE_PROFILE", false);
    info.int64 = profile != "EMBEDDED_PROFILE" || info.hasExtension("cles_khr_int64");

    info.has_spirv_queries = info.hasExtension("cl_khr_spirv_queries");
    if (info.has_spirv_queries) {
        info.spirv_extensions = pointerStrings(device, CL_DEVICE_SPIRV_EXTENSIONS_KHR);
        if (queryBytes(device, CL_DEVICE_SPIRV_CAPABILITIES_KHR, bytes)) {
            info.spirv_capabilities.resize(bytes.size() / sizeof(cl_uint));
            if (!info.spirv_capabilities.empty())
                std::memcpy(info.spirv_capabilities.data(), bytes.data(),
                            info.spirv_capabilities.size() * sizeof(cl_uint));
        }
    }
    return info;
}

}  // namespace cts
