#include "test_common/harness/launch/build_only_launch.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "test_common/cl/device_info.h"
#include "test_common/cl/program_cache.h"
#include "test_common/cl/wrappers.h"
#include "test_common/errors.h"

#ifndef CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL
#define CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL 0x410A
#endif

namespace cts {
namespace {

std::string kernelName(cl_kernel kernel) {
    size_t size = 0;
    if (clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &size) != CL_SUCCESS || size == 0)
        return "";
    std::string name(size, '\0');
    if (clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, size, name.data(), nullptr) != CL_SUCCESS) return "";
    name.resize(name.find('\0') == std::string::npos ? name.size() : name.find('\0'));
    return name;
}

// The manifest's arguments of `name` (the module table), or null when no module of the case lists it.
const KernelSignature* manifestArgs(const RunContext& ctx, const std::string& name) {
    for (const auto& [module, signature] : ctx.module_signatures) {
        if (!signature) continue;
        auto kernel = signature->find(name);
        if (kernel != signature->end()) return &kernel->second;
    }
    return nullptr;
}

// The address qualifier CL_KERNEL_ARG_ADDRESS_QUALIFIER must report for a module table type, 0 when the
// type does not fix one (images, samplers, generic and other pointers).
cl_kernel_arg_address_qualifier addressQualifierOf(const std::string& type) {
    if (type == "global_buffer") return CL_KERNEL_ARG_ADDRESS_GLOBAL;
    if (type == "local_buffer") return CL_KERNEL_ARG_ADDRESS_LOCAL;
    if (type == "constant_buffer") return CL_KERNEL_ARG_ADDRESS_CONSTANT;
    if (type.find("image") != std::string::npos || type == "sampler" || type == "generic_pointer" ||
        type == "pointer" || type == "other")
        return 0;
    return CL_KERNEL_ARG_ADDRESS_PRIVATE;  // scalars and vectors are passed by value
}

// "" when every argument's address qualifier is the one its type in the module table fixes, else the first
// that is not. A driver without argument information for the program (CL_KERNEL_ARG_INFO_NOT_AVAILABLE, which
// OpenCL allows for a program not built from source with -cl-kernel-arg-info) is not asked further; *asked
// tells whether it answered.
std::string argumentQualifierProblem(cl_kernel kernel, const KernelSignature& args, bool* asked) {
    *asked = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const cl_kernel_arg_address_qualifier want = addressQualifierOf(args[i].type);
        if (!want) continue;
        cl_kernel_arg_address_qualifier got = 0;
        cl_int err = clGetKernelArgInfo(kernel, static_cast<cl_uint>(i), CL_KERNEL_ARG_ADDRESS_QUALIFIER,
                                        sizeof got, &got, nullptr);
        if (err == CL_KERNEL_ARG_INFO_NOT_AVAILABLE) return "";
        if (err != CL_SUCCESS)
            return "CL_KERNEL_ARG_ADDRESS_QUALIFIER query of argument " + std::to_string(i) + ": " +
                   clErrorName(err);
        *asked = true;
        if (got != want) {
            char text[64];
            std::snprintf(text, sizeof text, "0x%X, expected 0x%X", static_cast<unsigned>(got),
                          static_cast<unsigned>(want));
            return "CL_KERNEL_ARG_ADDRESS_QUALIFIER of argument " + std::to_string(i) + " (" +
                   (args[i].name.empty() ? std::string("<no OpName>") : args[i].name) + ": " + args[i].type +
                   ") is " + text;
        }
    }
    return "";
}

bool reportsSubGroups(const DeviceInfo& d) {
    return d.hasExtension("cl_khr_subgroups") || d.hasExtension("cl_intel_subgroups");
}

}  // namespace

std::string kernelQueryProblem(RunContext& ctx, cl_kernel kernel, cl_uint dims, const size_t* local,
                               std::string* checked) {
    const std::string name = kernelName(kernel);
    const std::string what = "kernel " + (name.empty() ? std::string("<unnamed>") : name);
    std::string done;
    auto note = [&done](const std::string& text) { done += (done.empty() ? "" : ", ") + text; };

    if (const KernelSignature* args = manifestArgs(ctx, name)) {
        bool asked = false;
        std::string problem = argumentQualifierProblem(kernel, *args, &asked);
        if (!problem.empty()) return what + ": " + problem;
        note(asked ? "argument address qualifiers as declared" : "no argument information from the driver");
    }
    cl_int err = CL_SUCCESS;
    size_t local_items = 0;
    if (local) {
        local_items = 1;
        for (cl_uint i = 0; i < dims; ++i) local_items *= local[i];
        size_t wg = 0;
        err = clGetKernelWorkGroupInfo(kernel, ctx.device.device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg,
                                       nullptr);
        if (err != CL_SUCCESS) return what + ": CL_KERNEL_WORK_GROUP_SIZE query: " + clErrorName(err);
        if (wg < local_items)
            return what + ": CL_KERNEL_WORK_GROUP_SIZE reports " + std::to_string(wg) +
                   ", below the case's work-group of " + std::to_string(local_items) +
                   " items: the launch would be refused";
        note("CL_KERNEL_WORK_GROUP_SIZE " + std::to_string(wg) + " >= " + std::to_string(local_items));
    }

    cl_program program = nullptr;
    clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof program, &program, nullptr);
    const uint32_t required = program ? ctx.programs.requiredSubGroupSize(program, name) : 0;
    if (required && ctx.device.hasExtension("cl_intel_required_subgroup_size")) {
        size_t compiled = 0;
        err = clGetKernelSubGroupInfo(kernel, ctx.device.device, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0,
                                      nullptr, sizeof compiled, &compiled, nullptr);
        if (err != CL_SUCCESS)
            return what + ": CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL query: " + clErrorName(err);
        if (compiled != required)
            return what + ": CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL reports " + std::to_string(compiled) +
                   ", the module requires SubgroupSize " + std::to_string(required);
        note("compiled sub-group size " + std::to_string(compiled));
    }
    if (local && reportsSubGroups(ctx.device)) {
        std::vector<size_t> shape(local, local + dims);
        size_t max_size = 0;
        err = clGetKernelSubGroupInfo(kernel, ctx.device.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                      shape.size() * sizeof(size_t), shape.data(), sizeof max_size, &max_size,
                                      nullptr);
        if (err != CL_SUCCESS)
            return what + ": CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE query: " + clErrorName(err);
        // A work-group smaller than the sub-group size makes one smaller sub-group, which may be the maximum.
        const auto& sizes = ctx.device.sub_group_sizes;
        const bool whole = max_size == local_items;
        const bool right = required ? max_size == required || (local_items < required && whole)
                                    : whole || sizes.empty() ||
                                          std::find(sizes.begin(), sizes.end(), max_size) != sizes.end();
        if (!right)
            return what + ": CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE for a work-group of " +
                   std::to_string(local_items) + " items reports " + std::to_string(max_size) +
                   (required ? ", the module requires SubgroupSize " + std::to_string(required)
                             : ", not a size CL_DEVICE_SUB_GROUP_SIZES_INTEL lists");
        note("CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE " + std::to_string(max_size));
    }
    if (checked) *checked = what + (done.empty() ? "" : ": " + done);
    return "";
}

void withholdLaunch(RunContext& ctx, cl_kernel kernel, cl_uint dims, const size_t* local) {
    std::string checked;
    std::string problem = kernelQueryProblem(ctx, kernel, dims, local, &checked);
    if (!problem.empty()) throw CaseFailure("build-only: " + problem);
    throw LaunchWithheld("build-only: built, not launched; " + checked);
}

}  // namespace cts
