// api.mma.*: device queries that cl_intel_subgroup_matrix_multiply_accumulate constrains. N, the MMA's
// column count, is the sub-group size, and the OpenCL environment keys it on the device's minimum reported
// sub-group size; its table has rows for N = 8 and N = 16 only, and the _tf32 rows only for N = 16.
#include <string>

#include "test_common/cl/device_info.h"
#include "test_conformance/api/api_cases.h"

namespace cts {
namespace {

constexpr const char* kMma = "cl_intel_subgroup_matrix_multiply_accumulate";
constexpr const char* kMmaTf32 = "cl_intel_subgroup_matrix_multiply_accumulate_tf32";

std::string sizes(const DeviceInfo& d) {
    std::string s;
    for (size_t v : d.sub_group_sizes) s += (s.empty() ? "" : ",") + std::to_string(v);
    return s.empty() ? "(empty)" : s;
}

class MmaQueryFamily : public Family {
public:
    std::string name() const override { return "api.mma"; }

    Outcome checkSupport(const CaseSpec& spec, const DeviceInfo& d) const override {
        const char* ext = spec.name == "api.mma.tf32_rows_need_n16" ? kMmaTf32 : kMma;
        if (!d.hasExtension(ext)) return Outcome::notSupported(std::string("device does not report ") + ext);
        return Outcome::pass();
    }

    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        const DeviceInfo& d = ctx.device;
        const size_t n = d.minSubGroupSize();
        if (spec.name == "api.mma.n_is_min_sub_group_size") {
            if (n != 8 && n != 16)
                return Outcome::fail(std::string(kMma) +
                                     ": N is the minimum of CL_DEVICE_SUB_GROUP_SIZES_INTEL (" + sizes(d) +
                                     "), and the extension's table has rows for N = 8 and N = 16 only");
            return Outcome::pass();
        }
        if (spec.name == "api.mma.tf32_rows_need_n16") {
            if (!d.hasExtension(kMma))
                return Outcome::fail(std::string(kMmaTf32) + " is reported without " + kMma);
            if (n != 16)
                return Outcome::fail(std::string(kMmaTf32) +
                                     " adds rows for N = 16 only, but the minimum of " +
                                     "CL_DEVICE_SUB_GROUP_SIZES_INTEL is " + sizes(d));
            return Outcome::pass();
        }
        throw InternalError("api.mma: unknown case " + spec.name);
    }
};

}  // namespace

void registerMmaQueries(Registry& registry) {
    registry.addFamily(std::make_unique<MmaQueryFamily>());
    for (const char* name : {"api.mma.n_is_min_sub_group_size", "api.mma.tf32_rows_need_n16"}) {
        CaseSpec spec;
        spec.name = name;
        spec.family = "api.mma";
        spec.origin = "test_conformance/api/mma_queries.cpp";
        spec.tags = {"quick"};
        registry.addCase(std::move(spec));
    }
}

}  // namespace cts
