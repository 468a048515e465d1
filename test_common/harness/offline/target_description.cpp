#include "test_common/harness/offline/target_description.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "test_common/cl/build_log.h"
#include "test_common/harness/input/json_input.h"
#include "test_common/harness/input/path_guard.h"
#include "test_common/harness/model/requirements.h"
#include "test_common/harness/reports/waivers.h"

namespace cts {
namespace {

using nlohmann::json;

// A description is read by people and by the judge alike: a misspelt key must not silently drop a fact.
std::string checkKeys(const json& object, const std::set<std::string>& allowed, const std::string& where) {
    for (auto it = object.begin(); it != object.end(); ++it)
        if (!allowed.count(it.key())) return "unknown key \"" + it.key() + "\" in " + where;
    return "";
}

std::string readStrings(const json& v, const std::string& what, std::vector<std::string>& out) {
    if (!v.is_array()) return what + " must be a list of strings";
    for (const auto& s : v) {
        if (!s.is_string() || s.get<std::string>().empty())
            return what + " must be a list of non-empty strings";
        out.push_back(s.get<std::string>());
    }
    return "";
}

// "1.0.0" -> ExtensionVersion with version_known.
bool parseVersion3(const std::string& text, ExtensionVersion& e) {
    unsigned a = 0, b = 0, c = 0;
    char tail = 0;
    if (std::sscanf(text.c_str(), "%u.%u.%u%c", &a, &b, &c, &tail) != 3) return false;
    e.major = a, e.minor = b, e.patch = c;
    e.version_known = true;
    return true;
}

std::string readExtensions(const json& v, const std::string& what, std::vector<ExtensionVersion>& out) {
    if (!v.is_object()) return what + " must be an object of extension name -> \"major.minor.patch\"";
    for (auto it = v.begin(); it != v.end(); ++it) {
        ExtensionVersion e;
        e.name = it.key();
        if (e.name.rfind("cl_", 0) != 0) return what + ": \"" + e.name + "\" is not an OpenCL extension name";
        if (!it.value().is_string() || !parseVersion3(it.value().get<std::string>(), e))
            return what + ": the version of " + e.name + " must be a string \"major.minor.patch\"";
        out.push_back(e);
    }
    return "";
}

std::string readIlVersions(const json& v, const std::string& what, std::vector<std::string>& out) {
    std::string err = readStrings(v, what, out);
    if (!err.empty()) return err;
    for (const auto& il : out) {
        unsigned a = 0, b = 0;
        char tail = 0;
        if (std::sscanf(il.c_str(), "SPIR-V_%u.%u%c", &a, &b, &tail) != 2)
            return what + ": \"" + il + "\" is not of the form SPIR-V_<major>.<minor>";
    }
    return "";
}

std::string readBytes(const json& v, const std::string& what, cl_ulong& out) {
    if (v.is_null()) return "";  // not described
    if (!v.is_number_unsigned() || v.get<uint64_t>() == 0) return what + " must be a positive number or null";
    out = v.get<uint64_t>();
    return "";
}

std::string readImages(const json& v, TargetDescription& t) {
    if (!v.is_object()) return "\"images\" must be an object";
    std::string err =
        checkKeys(v, {"supported", "max_width", "max_height", "read_write_formats"}, "\"images\"");
    if (!err.empty()) return err;
    if (!v.contains("supported") || !v["supported"].is_boolean())
        return "\"images\" needs \"supported\": true/false";
    t.images = v["supported"].get<bool>();
    if (!t.images) {
        if (v.size() != 1) return "\"images\": a target without images lists no limits or formats";
        return "";
    }
    for (const char* k : {"max_width", "max_height"})
        if (!v.contains(k) || !v[k].is_number_unsigned() || v[k].get<uint64_t>() == 0)
            return std::string("\"images\" needs \"") + k + "\", a positive number";
    t.image2d_max_width = v["max_width"].get<size_t>();
    t.image2d_max_height = v["max_height"].get<size_t>();
    std::vector<std::string> formats;
    if (!v.contains("read_write_formats")) return "\"images\" needs \"read_write_formats\"";
    err = readStrings(v["read_write_formats"], "\"images\".\"read_write_formats\"", formats);
    if (!err.empty()) return err;
    for (const auto& f : formats) {
        size_t slash = f.find('/');
        cl_channel_order order = 0;
        cl_channel_type type = 0;
        if (slash == std::string::npos || !channelOrderFromName(f.substr(0, slash), order) ||
            !channelTypeFromName(f.substr(slash + 1), type))
            return "\"images\".\"read_write_formats\": \"" + f +
                   "\" is not ORDER/TYPE (e.g. CL_R/CL_UNSIGNED_INT8)";
        t.image2d_rw_formats.push_back({order, type});
    }
    return "";
}

std::string readCompiler(const std::string& key, const json& v, CompilerRelease& c) {
    std::string where = "\"compilers\".\"" + key + "\"";
    if (!v.is_object()) return where + " must be an object";
    std::string err = checkKeys(v,
                                {"ocloc_driver_version", "sources", "extensions", "il_versions",
                                 "spirv_extensions", "reported_spirv_extensions", "notes"},
                                where);
    if (!err.empty()) return err;
    std::vector<uint64_t> numbers;
    c.igc_version = key;
    if (!parseDottedVersion(key, numbers))
        return where + ": the key must be an IGC version such as 1.0.12504";
    if (!v.contains("ocloc_driver_version") || !v["ocloc_driver_version"].is_string() ||
        !parseDottedVersion(v["ocloc_driver_version"].get<std::string>(), numbers))
        return where +
               " needs \"ocloc_driver_version\", the dotted version `ocloc query OCL_DRIVER_VERSION` prints";
    c.ocloc_driver_version = v["ocloc_driver_version"].get<std::string>();
    std::vector<std::string> sources;
    if (!v.contains("sources") ||
        !(err = readStrings(v["sources"], where + ".\"sources\"", sources)).empty() || sources.empty())
        return err.empty() ? where + " needs \"sources\": the public sources its facts come from" : err;
    if (v.contains("extensions")) {
        c.has_extensions = true;
        if (!(err = readExtensions(v["extensions"], where + ".\"extensions\"", c.extensions)).empty())
            return err;
    }
    if (v.contains("il_versions") &&
        !(err = readIlVersions(v["il_versions"], where + ".\"il_versions\"", c.il_versions)).empty())
        return err;
    if (v.contains("spirv_extensions") &&
        !(err = readStrings(v["spirv_extensions"], where + ".\"spirv_extensions\"", c.spirv_extensions))
             .empty())
        return err;
    if (v.contains("reported_spirv_extensions")) {
        const std::string what = where + ".\"reported_spirv_extensions\"";
        c.has_reported_spirv_extensions = true;
        if (!(err = readStrings(v["reported_spirv_extensions"], what, c.reported_spirv_extensions)).empty())
            return err;
        for (const auto& name : c.reported_spirv_extensions)
            if (name.rfind("SPV_", 0) != 0) return what + ": \"" + name + "\" is not a SPIR-V extension name";
    }
    if (v.contains("notes") && !(err = readStrings(v["notes"], where + ".\"notes\"", c.notes)).empty())
        return err;
    return "";
}

std::string parseInto(const json& doc, TargetDescription& t) {
    if (!doc.is_object()) return "the description must be a JSON object";
    std::string err =
        checkKeys(doc,
                  {"target", "device_name", "vendor_id", "sources", "notes", "sub_group_sizes", "fp16",
                   "fp64", "int64", "images", "il_versions", "extensions", "other_extensions",
                   "max_mem_alloc_size", "global_mem_size", "compilers", "runtime"},
                  "the description");
    if (!err.empty()) return err;
    // A runtime's device (e.g. Intel's OpenCL CPU device) is described from what that runtime reports; it is
    // no offline-compiler target, so it has no compiler releases.
    if (doc.contains("runtime")) {
        if (!doc["runtime"].is_string() || doc["runtime"].get<std::string>().empty())
            return "\"runtime\" must name the runtime and its version, e.g. \"intel-opencl-rt 2026.2.0\"";
        t.runtime = doc["runtime"].get<std::string>();
        if (doc.contains("compilers")) return "a \"runtime\" description has no \"compilers\"";
    }
    for (const char* k : {"target", "device_name", "sources", "sub_group_sizes", "fp16", "fp64", "images",
                          "il_versions", "extensions", "compilers"})
        if (!doc.contains(k) && !(t.runtime.size() && std::string(k) == "compilers"))
            return std::string("missing \"") + k + "\"";
    if (!doc["target"].is_string() || doc["target"].get<std::string>().empty())
        return "\"target\" must be the offline compiler's device name, e.g. \"dg2-g10\"";
    t.target = doc["target"].get<std::string>();
    // It goes on ocloc's command line and into the quoted lines of `ocloc multi` command files.
    if (!std::isalnum(static_cast<unsigned char>(t.target[0])) ||
        t.target.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") !=
            std::string::npos)
        return "\"target\" must be one word of letters, digits, '.', '_' and '-' starting with a letter or "
               "digit (ocloc's -device name, e.g. \"dg2-g10\"), not " +
               capText(json(t.target).dump(-1, ' ', true, json::error_handler_t::replace), 64, 16);
    if (!doc["device_name"].is_string()) return "\"device_name\" must be a string";
    t.device_name = doc["device_name"].get<std::string>();
    if (doc.contains("vendor_id")) {
        const json& v = doc["vendor_id"];
        std::string s = v.is_string() ? v.get<std::string>() : "";
        if (s.size() < 3 || s.compare(0, 2, "0x") != 0 ||
            s.find_first_not_of("0123456789abcdefABCDEF", 2) != std::string::npos || s.size() > 10)
            return "\"vendor_id\" must be a hex string such as \"0x8086\"";
        t.vendor_id = static_cast<uint32_t>(std::stoul(s.substr(2), nullptr, 16));
    }
    std::vector<std::string> strings;
    if (!(err = readStrings(doc["sources"], "\"sources\"", strings)).empty()) return err;
    if (strings.empty()) return "\"sources\" must name the public sources the facts come from";
    strings.clear();
    if (doc.contains("notes") && !(err = readStrings(doc["notes"], "\"notes\"", strings)).empty()) return err;
    const json& sizes = doc["sub_group_sizes"];
    if (!sizes.is_array() || sizes.empty()) return "\"sub_group_sizes\" must be a non-empty list of numbers";
    for (const auto& s : sizes) {
        if (!s.is_number_unsigned() || s.get<uint64_t>() == 0 || s.get<uint64_t>() > 1024)
            return "\"sub_group_sizes\" must be a non-empty list of numbers from 1 to 1024";
        t.sub_group_sizes.push_back(s.get<size_t>());
    }
    if (!std::is_sorted(t.sub_group_sizes.begin(), t.sub_group_sizes.end()) ||
        std::adjacent_find(t.sub_group_sizes.begin(), t.sub_group_sizes.end()) != t.sub_group_sizes.end())
        return "\"sub_group_sizes\" must be ascending without repeats";
    for (const char* k : {"fp16", "fp64", "int64"})
        if (doc.contains(k) && !doc[k].is_boolean())
            return std::string("\"") + k + "\" must be true or false";
    t.fp16 = doc["fp16"].get<bool>();
    t.fp64 = doc["fp64"].get<bool>();
    if (doc.contains("int64")) t.int64 = doc["int64"].get<bool>();
    if (!(err = readImages(doc["images"], t)).empty()) return err;
    if (!(err = readIlVersions(doc["il_versions"], "\"il_versions\"", t.il_versions)).empty()) return err;
    if (!(err = readExtensions(doc["extensions"], "\"extensions\"", t.extensions)).empty()) return err;
    if (doc.contains("other_extensions") &&
        !(err = readStrings(doc["other_extensions"], "\"other_extensions\"", t.other_extensions)).empty())
        return err;
    for (const auto& o : t.other_extensions)
        for (const auto& e : t.extensions)
            if (o == e.name) return "\"" + o + "\" is in both \"extensions\" and \"other_extensions\"";
    if (doc.contains("max_mem_alloc_size") &&
        !(err = readBytes(doc["max_mem_alloc_size"], "\"max_mem_alloc_size\"", t.max_mem_alloc_size)).empty())
        return err;
    if (doc.contains("global_mem_size") &&
        !(err = readBytes(doc["global_mem_size"], "\"global_mem_size\"", t.global_mem_size)).empty())
        return err;
    // The extensions that decide whether a case may run must agree with the flags beside them.
    auto listed = [&](const char* name) {
        return std::any_of(t.extensions.begin(), t.extensions.end(),
                           [&](const ExtensionVersion& e) { return e.name == name; });
    };
    if (listed("cl_khr_fp16") != t.fp16) return "\"fp16\" and cl_khr_fp16 in \"extensions\" disagree";
    if (listed("cl_khr_fp64") != t.fp64) return "\"fp64\" and cl_khr_fp64 in \"extensions\" disagree";
    if (listed("cl_khr_image2d_from_buffer") && !t.images)
        return "cl_khr_image2d_from_buffer is listed for a target without images";
    if (!t.runtime.empty()) return "";
    const json& compilers = doc["compilers"];
    if (!compilers.is_object() || compilers.empty())
        return "\"compilers\" must name at least one compiler release (IGC version -> what it reports)";
    for (auto it = compilers.begin(); it != compilers.end(); ++it) {
        CompilerRelease c;
        if (!(err = readCompiler(it.key(), it.value(), c)).empty()) return err;
        // CL_DEVICE_SPIRV_EXTENSIONS_KHR is a query of cl_khr_spirv_queries: only a release reporting it has
        // one.
        const auto& reported = c.has_extensions ? c.extensions : t.extensions;
        if (c.has_reported_spirv_extensions &&
            std::none_of(reported.begin(), reported.end(),
                         [](const ExtensionVersion& e) { return e.name == "cl_khr_spirv_queries"; }))
            return "\"compilers\".\"" + c.igc_version +
                   "\" has \"reported_spirv_extensions\" but does not report cl_khr_spirv_queries";
        for (const auto& other : t.compilers)
            if (other.ocloc_driver_version == c.ocloc_driver_version)
                return "compiler releases " + other.igc_version + " and " + c.igc_version +
                       " have the same ocloc_driver_version " + c.ocloc_driver_version;
        t.compilers.push_back(c);
    }
    return "";
}

// The description parsed into `doc`, from the file `file`.
std::string targetOf(const json& doc, const std::string& file, TargetDescription& out) {
    out = TargetDescription{};
    out.file = file;
    std::string err = parseInto(doc, out);
    return err.empty() ? "" : file + ": " + err;
}

}  // namespace

std::string parseTargetDescription(const std::string& text, const std::string& file, TargetDescription& out) {
    json doc;
    out = TargetDescription{};
    // The file is edited by hand: a JSON error names the line.
    if (std::string err = parseJsonFile(text, file, &doc); !err.empty()) return err;
    return targetOf(doc, file, out);
}

std::string readTargetDescription(const std::string& path, TargetDescription& out) {
    // A description is a few KB: /dev/zero, a FIFO or a huge file is refused unread.
    JsonFile file;
    out = TargetDescription{};
    if (std::string err = readJsonFile(path, &file, kMaxSmallFileBytes); !err.empty()) return err;
    return targetOf(file.doc, path, out);
}

const CompilerRelease* findCompilerRelease(const TargetDescription& target,
                                           const std::string& ocloc_driver_version) {
    std::vector<uint64_t> want, have;
    if (!parseDottedVersion(ocloc_driver_version, want)) return nullptr;
    for (const auto& c : target.compilers)
        if (parseDottedVersion(c.ocloc_driver_version, have) && compareVersions(want, have) == 0) return &c;
    return nullptr;
}

DeviceInfo targetDeviceInfo(const TargetDescription& target, const CompilerRelease* release) {
    DeviceInfo d;
    d.platform_name = "ocloc";
    d.platform_version = "offline compiler";
    d.device_name = target.target;
    d.device_version = target.device_name;
    d.driver_version = release ? release->igc_version : "";
    d.vendor = "Intel(R) Corporation";
    d.type = CL_DEVICE_TYPE_GPU;
    d.vendor_id = target.vendor_id;
    d.extensions = release && release->has_extensions ? release->extensions : target.extensions;
    d.il_versions = release && !release->il_versions.empty() ? release->il_versions : target.il_versions;
    d.has_spirv_queries =
        std::any_of(d.extensions.begin(), d.extensions.end(),
                    [](const ExtensionVersion& e) { return e.name == "cl_khr_spirv_queries"; });
    if (release && release->has_reported_spirv_extensions)
        d.spirv_extensions = release->reported_spirv_extensions;
    d.sub_group_sizes = target.sub_group_sizes;
    d.address_bits = 64;
    d.image_support = target.images;
    d.image2d_max_width = target.image2d_max_width;
    d.image2d_max_height = target.image2d_max_height;
    d.image2d_rw_formats = target.image2d_rw_formats;
    d.fp16 = target.fp16;
    d.fp64 = target.fp64;
    d.int64 = target.int64;
    d.max_mem_alloc_size = target.max_mem_alloc_size;
    d.global_mem_size = target.global_mem_size;
    // Intel's GPU runtime reports coarse-grain buffer SVM on every target described; an SVM case builds the
    // same module as its plain-buffer twin, so only the launch depends on it.
    d.svm_capabilities = CL_DEVICE_SVM_COARSE_GRAIN_BUFFER;
    return d;
}

}  // namespace cts
