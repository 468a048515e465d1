// api.sub_group_sizes.consistent_with_kernel_queries: every size in CL_DEVICE_SUB_GROUP_SIZES_INTEL can be
// required by a kernel (SPIR-V SubgroupSize execution mode), and the kernel queries then report that size.
// The module is a few words built here, so the case depends on no asset.
#include <string>
#include <vector>

#include "test_common/cl/device_info.h"
#include "test_common/cl/program_cache.h"
#include "test_common/harness/launch/kernel_util.h"
#include "test_conformance/api/api_cases.h"

#ifndef CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL
#define CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL 0x410A
#endif

namespace cts {
namespace {

// SPIR-V 1.1 module: an empty kernel "k" with OpExecutionMode SubgroupSize `size`.
std::vector<uint32_t> requiredSizeModule(uint32_t size, bool physical64) {
    enum : uint32_t { kVoid = 1, kFnType = 2, kMain = 3, kLabel = 4, kBound = 5 };
    auto op = [](uint32_t opcode, uint32_t words) { return (words << 16) | opcode; };
    std::vector<uint32_t> w = {0x07230203, 0x00010100, 0, kBound, 0};
    for (uint32_t cap : {4u /*Addresses*/, 6u /*Kernel*/, 58u /*SubgroupDispatch*/})
        w.insert(w.end(), {op(17, 2), cap});
    w.insert(w.end(), {op(14, 3), physical64 ? 2u : 1u /*Physical64/32*/, 2u /*OpenCL*/});
    // OpEntryPoint Kernel %main "k": the name is one word ("k\0\0\0").
    w.insert(w.end(), {op(15, 4), 6u /*Kernel*/, kMain, 0x0000006b});
    w.insert(w.end(), {op(16, 4), kMain, 35u /*SubgroupSize*/, size});
    w.insert(w.end(), {op(19, 2), kVoid});
    w.insert(w.end(), {op(33, 3), kFnType, kVoid});
    w.insert(w.end(), {op(54, 5), kVoid, kMain, 0u /*None*/, kFnType});
    w.insert(w.end(), {op(248, 2), kLabel});
    w.push_back(op(253, 1));  // OpReturn
    w.push_back(op(56, 1));   // OpFunctionEnd
    return w;
}

Outcome checkOneSize(RunContext& ctx, size_t size) {
    std::string what = "kernel with SubgroupSize " + std::to_string(size);
    const BuiltProgram& built =
        ctx.programs.get(requiredSizeModule(static_cast<uint32_t>(size), ctx.device.address_bits == 64));
    if (!built.built)
        return Outcome::fail(what + " (a size the device reports) failed to build: " + built.log);
    cl_int err = CL_SUCCESS;
    KernelHandle kernel(clCreateKernel(built.program, "k", &err));
    if (err != CL_SUCCESS) return Outcome::fail(what + ": clCreateKernel: " + clErrorName(err));

    size_t compiled = 0;
    err = clGetKernelSubGroupInfo(kernel, ctx.device.device, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0,
                                  nullptr, sizeof compiled, &compiled, nullptr);
    if (err != CL_SUCCESS)
        return Outcome::fail(what + ": CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL query: " + clErrorName(err));
    if (compiled != size)
        return Outcome::fail(what + ": CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL reports " +
                             std::to_string(compiled));

    // A one-dimensional work-group of exactly `size` items holds one sub-group of the required size.
    size_t local = size, max_size = 0;
    if (local <= ctx.device.max_work_group_size) {
        err = clGetKernelSubGroupInfo(kernel, ctx.device.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                      sizeof local, &local, sizeof max_size, &max_size, nullptr);
        if (err != CL_SUCCESS)
            return Outcome::fail(what +
                                 ": CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE query: " + clErrorName(err));
        if (max_size != size)
            return Outcome::fail(what + ": CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE for a work-group of " +
                                 std::to_string(local) + " reports " + std::to_string(max_size));
    }
    return Outcome::pass();
}

class KernelSubGroupQueries : public Family {
public:
    std::string name() const override { return "api.kernel_sub_group_queries"; }
    Outcome checkSupport(const CaseSpec& spec, const DeviceInfo& d) const override {
        Outcome any = apiNeedAnyGatingExtension(spec, d);
        if (any.status != Status::Pass) return any;
        if (!d.hasExtension("cl_intel_required_subgroup_size"))
            return Outcome::notSupported("device does not report cl_intel_required_subgroup_size");
        if (!d.supportsSpirv(1, 1))
            return Outcome::notSupported("the SubgroupSize execution mode needs SPIR-V 1.1; device reports " +
                                         d.ilVersionsText());
        if (d.sub_group_sizes.empty())
            return Outcome::notSupported(
                "CL_DEVICE_SUB_GROUP_SIZES_INTEL is empty "
                "(api.sub_group_sizes.non_empty reports that)");
        return Outcome::pass();
    }
    Outcome run(const CaseSpec&, RunContext& ctx) const override {
        for (size_t size : ctx.device.sub_group_sizes) {
            Outcome o = checkOneSize(ctx, size);
            if (o.status != Status::Pass) return o;
        }
        return Outcome::pass();
    }
};

}  // namespace

void registerKernelSubGroupQueries(Registry& registry) {
    registry.addFamily(std::make_unique<KernelSubGroupQueries>());
    CaseSpec spec;
    spec.name = "api.sub_group_sizes.consistent_with_kernel_queries";
    spec.family = "api.kernel_sub_group_queries";
    spec.origin = "test_conformance/api/kernel_sub_group_queries.cpp";
    // regression: the guarantee docs/known_driver_bugs.md relies on against a silently chosen sub-group size.
    spec.tags = {"quick", "regression"};
    registry.addCase(std::move(spec));
}

std::vector<uint32_t> apiRequiredSizeModuleForTest(uint32_t size, bool physical64) {
    return requiredSizeModule(size, physical64);
}

}  // namespace cts
