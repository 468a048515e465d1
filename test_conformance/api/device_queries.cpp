// api.*: consistency of the device queries that gate the four SPIR-V extensions. These need no kernel:
// a driver that reports an extension must also report what the extension's OpenCL text requires.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "test_common/cl/device_info.h"
#include "test_conformance/api/api_cases.h"
#include "test_conformance/families.h"

namespace cts {
namespace {

// The OpenCL extensions that gate the SPIR-V extensions, with what each promises.
struct GatingExtension {
    const char* cl_extension;
    const char* spirv_extension;
    std::vector<cl_uint> capabilities;  // SPIR-V capability enumerants (spirv.core.grammar.json)
    uint32_t min_major, min_minor;      // minimum extension version the suite's specs describe
};

const std::vector<GatingExtension>& gatingExtensions() {
    static const std::vector<GatingExtension> list = {
        // SubgroupShuffleINTEL, SubgroupBufferBlockIOINTEL, SubgroupImageBlockIOINTEL
        {"cl_intel_spirv_subgroups", "SPV_INTEL_subgroups", {5568, 5569, 5570}, 0, 0},
        // SubgroupImageMediaBlockIOINTEL
        {"cl_intel_spirv_media_block_io", "SPV_INTEL_media_block_io", {5579}, 0, 0},
        // Subgroup2DBlockIOINTEL, Subgroup2DBlockTransformINTEL, Subgroup2DBlockTransposeINTEL
        {"cl_intel_subgroup_2d_block_io", "SPV_INTEL_2d_block_io", {6228, 6229, 6230}, 1, 1},
        // SubgroupMatrixMultiplyAccumulateINTEL
        {"cl_intel_subgroup_matrix_multiply_accumulate",
         "SPV_INTEL_subgroup_matrix_multiply_accumulate",
         {6236},
         1,
         1},
    };
    return list;
}

const GatingExtension* findGating(const std::string& cl_extension) {
    for (const auto& g : gatingExtensions())
        if (cl_extension == g.cl_extension) return &g;
    return nullptr;
}

std::string reportedGating(const DeviceInfo& d) {
    std::string s;
    for (const auto& g : gatingExtensions())
        if (d.hasExtension(g.cl_extension)) s += (s.empty() ? "" : ", ") + std::string(g.cl_extension);
    return s;
}

std::string sizesText(const std::vector<size_t>& sizes) {
    std::string s;
    for (size_t v : sizes) s += (s.empty() ? "" : ",") + std::to_string(v);
    return s.empty() ? "(empty)" : s;
}

// One family per query area; each case is a function of the device info alone.
class DeviceQueryFamily : public Family {
public:
    using Check = std::function<Outcome(const CaseSpec&, const DeviceInfo&)>;
    DeviceQueryFamily(std::string name, Check support, Check check)
        : name_(std::move(name)), support_(std::move(support)), check_(std::move(check)) {}
    std::string name() const override { return name_; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema{{"extension", ParamType::String, kOptional}};
        return schema;
    }
    Outcome checkSupport(const CaseSpec& spec, const DeviceInfo& device) const override {
        return support_(spec, device);
    }
    Outcome run(const CaseSpec& spec, RunContext& ctx) const override { return check_(spec, ctx.device); }

private:
    std::string name_;
    Check support_, check_;
};

}  // namespace

Outcome apiNeedAnyGatingExtension(const CaseSpec&, const DeviceInfo& d) {
    if (reportedGating(d).empty())
        return Outcome::notSupported(
            "device reports none of cl_intel_spirv_subgroups, cl_intel_spirv_media_block_io, "
            "cl_intel_subgroup_2d_block_io, cl_intel_subgroup_matrix_multiply_accumulate");
    return Outcome::pass();
}

namespace {

const auto needAnyGating = apiNeedAnyGatingExtension;

Outcome needParamExtension(const CaseSpec& spec, const DeviceInfo& d) {
    std::string ext = spec.params.s("extension");
    if (!findGating(ext)) throw InternalError("api case names unknown extension " + ext);
    if (!d.hasExtension(ext)) return Outcome::notSupported("device does not report " + ext);
    return Outcome::pass();
}

Outcome ilVersionListsSpirv(const CaseSpec&, const DeviceInfo& d) {
    if (d.supportsSpirv(1, 0)) return Outcome::pass();
    return Outcome::fail("device reports " + reportedGating(d) + ", which consume SPIR-V modules, but " +
                         "CL_DEVICE_IL_VERSION lists no SPIR-V version (" + d.ilVersionsText() + ")");
}

Outcome subGroupSizesValid(const CaseSpec&, const DeviceInfo& d) {
    const auto& s = d.sub_group_sizes;
    std::string where =
        "CL_DEVICE_SUB_GROUP_SIZES_INTEL = " + sizesText(s) + " (device reports " + reportedGating(d) + ")";
    if (s.empty()) return Outcome::fail(where + ": must list at least one sub-group size");
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == 0 || (s[i] & (s[i] - 1)) != 0)
            return Outcome::fail(where + ": " + std::to_string(s[i]) + " is not a power of two");
        if (i > 0 && s[i] <= s[i - 1]) return Outcome::fail(where + ": sizes are not ascending and unique");
    }
    return Outcome::pass();
}

Outcome subGroupSizesWithinLimits(const CaseSpec&, const DeviceInfo& d) {
    if (d.max_num_sub_groups == 0)
        return Outcome::fail("device reports " + reportedGating(d) +
                             " but CL_DEVICE_MAX_NUM_SUB_GROUPS is 0");
    for (size_t size : d.sub_group_sizes)
        if (size > d.max_work_group_size)
            return Outcome::fail("sub-group size " + std::to_string(size) +
                                 " exceeds CL_DEVICE_MAX_WORK_GROUP_SIZE " +
                                 std::to_string(d.max_work_group_size));
    return Outcome::pass();
}

Outcome extensionVersion(const CaseSpec& spec, const DeviceInfo& d) {
    const GatingExtension* g = findGating(spec.params.s("extension"));
    const ExtensionVersion* e = d.extension(g->cl_extension);
    std::string need = std::to_string(g->min_major) + "." + std::to_string(g->min_minor);
    if (!e->version_known)
        return Outcome::fail(std::string(g->cl_extension) +
                             " is reported without a version "
                             "(CL_DEVICE_EXTENSIONS_WITH_VERSION); the suite's specification is version " +
                             need);
    if (!d.hasExtension(g->cl_extension, g->min_major, g->min_minor))
        return Outcome::fail(std::string(g->cl_extension) + " version " + std::to_string(e->major) + "." +
                             std::to_string(e->minor) + "." + std::to_string(e->patch) + " is below " + need +
                             ", the first version whose SPIR-V environment this suite covers");
    return Outcome::pass();
}

Outcome needSpirvQueries(const CaseSpec& spec, const DeviceInfo& d) {
    if (!d.has_spirv_queries) return Outcome::notSupported("device does not report cl_khr_spirv_queries");
    return needParamExtension(spec, d);
}

Outcome spirvQueriesList(const CaseSpec& spec, const DeviceInfo& d) {
    const GatingExtension* g = findGating(spec.params.s("extension"));
    std::vector<std::string> missing;
    if (std::find(d.spirv_extensions.begin(), d.spirv_extensions.end(), g->spirv_extension) ==
        d.spirv_extensions.end())
        missing.push_back(std::string(g->spirv_extension) + " in CL_DEVICE_SPIRV_EXTENSIONS_KHR");
    for (cl_uint cap : g->capabilities) {
        // Image block IO needs image support; a device without images need not list its capability.
        if (cap == 5570 && !d.image_support) continue;
        if (std::find(d.spirv_capabilities.begin(), d.spirv_capabilities.end(), cap) ==
            d.spirv_capabilities.end())
            missing.push_back("capability " + std::to_string(cap) + " in CL_DEVICE_SPIRV_CAPABILITIES_KHR");
    }
    if (missing.empty()) return Outcome::pass();
    std::string msg = std::string("device reports ") + g->cl_extension +
                      " and cl_khr_spirv_queries, so the SPIR-V "
                      "environment must accept " +
                      g->spirv_extension + ", but the queries lack:";
    for (const auto& m : missing) msg += "\n  " + m;
    return Outcome::fail(msg);
}

void addCase(Registry& r, std::string name, std::string family, std::string extension = "") {
    CaseSpec spec;
    spec.name = std::move(name);
    spec.family = std::move(family);
    spec.origin = "test_conformance/api/device_queries.cpp";
    spec.tags = {"quick"};
    if (!extension.empty()) spec.params.set("extension", extension);
    r.addCase(std::move(spec));
}

}  // namespace

void registerApiFamilies(Registry& registry) {
    registry.addFamily(
        std::make_unique<DeviceQueryFamily>("api.il_version", needAnyGating, ilVersionListsSpirv));
    registry.addFamily(
        std::make_unique<DeviceQueryFamily>("api.sub_group_sizes", needAnyGating, subGroupSizesValid));
    registry.addFamily(std::make_unique<DeviceQueryFamily>("api.sub_group_limits", needAnyGating,
                                                           subGroupSizesWithinLimits));
    registry.addFamily(
        std::make_unique<DeviceQueryFamily>("api.extension_versions", needParamExtension, extensionVersion));
    registry.addFamily(
        std::make_unique<DeviceQueryFamily>("api.spirv_queries", needSpirvQueries, spirvQueriesList));

    addCase(registry, "api.il_version.spirv_listed_for_gating_extension", "api.il_version");
    addCase(registry, "api.sub_group_sizes.non_empty", "api.sub_group_sizes");
    addCase(registry, "api.sub_group_sizes.consistent_with_device_limits", "api.sub_group_limits");
    registerKernelSubGroupQueries(registry);
    registerMmaQueries(registry);
    for (const auto& g : gatingExtensions()) {
        if (g.min_major || g.min_minor)
            addCase(registry, std::string("api.extension_versions.") + g.cl_extension,
                    "api.extension_versions", g.cl_extension);
        addCase(registry, std::string("api.spirv_queries.") + g.cl_extension, "api.spirv_queries",
                g.cl_extension);
    }
}

}  // namespace cts
