#include "test_common/harness/model/requirements.h"

#include <algorithm>
#include <cstdio>

namespace cts {
namespace {

struct NamedValue {
    const char* name;
    unsigned value;
};

const NamedValue kOrders[] = {{"CL_R", CL_R},
                              {"CL_A", CL_A},
                              {"CL_RG", CL_RG},
                              {"CL_RA", CL_RA},
                              {"CL_RGB", CL_RGB},
                              {"CL_RGBA", CL_RGBA},
                              {"CL_BGRA", CL_BGRA},
                              {"CL_ARGB", CL_ARGB},
                              {"CL_INTENSITY", CL_INTENSITY},
                              {"CL_LUMINANCE", CL_LUMINANCE},
                              {"CL_Rx", CL_Rx},
                              {"CL_RGx", CL_RGx},
                              {"CL_RGBx", CL_RGBx},
                              {"CL_DEPTH", CL_DEPTH},
                              {"CL_ABGR", CL_ABGR}};

const NamedValue kTypes[] = {{"CL_SNORM_INT8", CL_SNORM_INT8},
                             {"CL_SNORM_INT16", CL_SNORM_INT16},
                             {"CL_UNORM_INT8", CL_UNORM_INT8},
                             {"CL_UNORM_INT16", CL_UNORM_INT16},
                             {"CL_UNORM_SHORT_565", CL_UNORM_SHORT_565},
                             {"CL_UNORM_SHORT_555", CL_UNORM_SHORT_555},
                             {"CL_UNORM_INT_101010", CL_UNORM_INT_101010},
                             {"CL_SIGNED_INT8", CL_SIGNED_INT8},
                             {"CL_SIGNED_INT16", CL_SIGNED_INT16},
                             {"CL_SIGNED_INT32", CL_SIGNED_INT32},
                             {"CL_UNSIGNED_INT8", CL_UNSIGNED_INT8},
                             {"CL_UNSIGNED_INT16", CL_UNSIGNED_INT16},
                             {"CL_UNSIGNED_INT32", CL_UNSIGNED_INT32},
                             {"CL_HALF_FLOAT", CL_HALF_FLOAT},
                             {"CL_FLOAT", CL_FLOAT}};

template <size_t N>
bool lookup(const NamedValue (&table)[N], const std::string& name, unsigned& value) {
    for (const auto& e : table)
        if (name == e.name) {
            value = e.value;
            return true;
        }
    return false;
}

bool parseVersion(const std::string& text, uint32_t& major, uint32_t& minor) {
    unsigned ma = 0, mi = 0;
    char tail = 0;
    if (std::sscanf(text.c_str(), "%u.%u%c", &ma, &mi, &tail) != 2) return false;
    major = ma;
    minor = mi;
    return true;
}

bool parseCount(const std::string& text, size_t& n) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 9)
        return false;
    n = std::stoul(text);
    return true;
}

// Byte counts of the memory tokens: decimal, at most 2^63 (a buffer size the manifest can state).
bool parseBytes(const std::string& text, uint64_t& n) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 19)
        return false;
    n = std::stoull(text);
    return n > 0;
}

std::string gibText(uint64_t bytes) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%llu bytes (%.2f GiB)", static_cast<unsigned long long>(bytes),
                  double(bytes) / double(1ull << 30));
    return buf;
}

std::string sizesText(const DeviceInfo& device) {
    if (device.sub_group_sizes.empty()) return "none reported";
    std::string s;
    for (size_t v : device.sub_group_sizes) s += (s.empty() ? "" : ",") + std::to_string(v);
    return s;
}

}  // namespace

bool channelOrderFromName(const std::string& name, cl_channel_order& order) {
    unsigned v = 0;
    if (!lookup(kOrders, name, v)) return false;
    order = v;
    return true;
}

bool channelTypeFromName(const std::string& name, cl_channel_type& type) {
    unsigned v = 0;
    if (!lookup(kTypes, name, v)) return false;
    type = v;
    return true;
}

std::string VersionGap::reportedText() const {
    return std::to_string(reported_major) + "." + std::to_string(reported_minor) + "." +
           std::to_string(reported_patch);
}

std::string VersionGap::needText() const {
    return std::to_string(need_major) + "." + std::to_string(need_minor) + ".0";
}

Outcome evaluateRequirements(const std::vector<std::string>& tokens, const DeviceInfo& device,
                             std::vector<VersionGap>* gaps) {
    for (const std::string& token : tokens) {
        size_t eq = token.find('=');
        std::string key = token.substr(0, eq);
        std::string value = eq == std::string::npos ? "" : token.substr(eq + 1);
        bool has_value = eq != std::string::npos;
        auto malformed = [&]() {
            return Outcome::internalError("malformed requirement token '" + token + "'");
        };

        if (key == "ext" && has_value) {
            size_t at = value.find('@');
            std::string ext = value.substr(0, at);
            if (ext.empty()) return malformed();
            uint32_t major = 0, minor = 0;
            if (at != std::string::npos && !parseVersion(value.substr(at + 1), major, minor))
                return malformed();
            const ExtensionVersion* e = device.extension(ext);
            if (!e) return Outcome::notSupported("device does not report " + ext);
            if (at != std::string::npos) {
                std::string need = ext + " version " + std::to_string(major) + "." + std::to_string(minor);
                if (!e->version_known)
                    return Outcome::notSupported("needs " + need + ", but the device reports no version of " +
                                                 ext + " (CL_DEVICE_EXTENSIONS_WITH_VERSION)");
                if (!device.hasExtension(ext, major, minor) && gaps) {
                    gaps->push_back({ext, e->major, e->minor, e->patch, major, minor});
                } else if (!device.hasExtension(ext, major, minor)) {
                    return Outcome::notSupported("needs " + need + ", device reports " +
                                                 std::to_string(e->major) + "." + std::to_string(e->minor) +
                                                 "." + std::to_string(e->patch));
                }
            }
        } else if (key == "spirv" && has_value) {
            uint32_t major = 0, minor = 0;
            if (!parseVersion(value, major, minor)) return malformed();
            if (!device.supportsSpirv(static_cast<int>(major), static_cast<int>(minor)))
                return Outcome::notSupported("needs SPIR-V " + value +
                                             " in CL_DEVICE_IL_VERSION, device reports " +
                                             device.ilVersionsText());
        } else if (key == "sg_size" && has_value) {
            size_t n = 0;
            if (!parseCount(value, n)) return malformed();
            if (std::find(device.sub_group_sizes.begin(), device.sub_group_sizes.end(), n) ==
                device.sub_group_sizes.end())
                return Outcome::notSupported("sub-group size " + value +
                                             " not in CL_DEVICE_SUB_GROUP_SIZES_INTEL (" + sizesText(device) +
                                             ")");
        } else if (key == "min_sg_size" && has_value) {
            size_t n = 0;
            if (!parseCount(value, n)) return malformed();
            if (device.minSubGroupSize() != n)
                return Outcome::notSupported("needs minimum sub-group size " + value +
                                             ", CL_DEVICE_SUB_GROUP_SIZES_INTEL is " + sizesText(device));
        } else if (token == "images") {
            if (!device.image_support) return Outcome::notSupported("device has no image support");
        } else if (token == "fp16") {
            if (!device.fp16) return Outcome::notSupported("device does not support fp16 (cl_khr_fp16)");
        } else if (token == "fp64") {
            if (!device.fp64) return Outcome::notSupported("device does not support fp64 (cl_khr_fp64)");
        } else if (token == "int64") {
            if (!device.int64) return Outcome::notSupported("device does not support 64-bit integers");
        } else if (key == "image_format" && has_value) {
            size_t slash = value.find('/');
            cl_channel_order order = 0;
            cl_channel_type type = 0;
            if (slash == std::string::npos || !channelOrderFromName(value.substr(0, slash), order) ||
                !channelTypeFromName(value.substr(slash + 1), type))
                return malformed();
            if (!device.image_support) return Outcome::notSupported("device has no image support");
            if (!device.hasImageFormat(order, type))
                return Outcome::notSupported("2D image format " + value + " not supported for read-write");
        } else if ((key == "max_alloc" || key == "global_mem") && has_value) {
            uint64_t need = 0;
            if (!parseBytes(value, need)) return malformed();
            bool alloc = key == "max_alloc";
            uint64_t have = alloc ? device.max_mem_alloc_size : device.global_mem_size;
            if (have < need)
                return Outcome::notSupported(
                    std::string("needs ") + (alloc ? "one buffer of " : "global memory of ") + gibText(need) +
                    (alloc ? ", CL_DEVICE_MAX_MEM_ALLOC_SIZE is " : ", CL_DEVICE_GLOBAL_MEM_SIZE is ") +
                    gibText(have));
        } else {
            return Outcome::internalError("unknown requirement token '" + token + "'");
        }
    }
    return Outcome::pass();
}

}  // namespace cts
