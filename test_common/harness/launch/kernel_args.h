// Binds a kernel's arguments by the names the module gives them (docs/assets.md, "How a family binds"):
//
//   KernelHandle kernel = createKernel(ctx, spec.module, spec.kernel);  // checks the module's signature
//   KernelArgs args(kernel, spec);
//   args.set("out", out.mem());
//   args.set("exec_period", cl_uint(c.exec_period));
//   runNDRange(ctx, args, 1, &global, &local);  // refuses a launch with an argument left unset
//
// An unknown name, a host value whose type does not fit the argument's (a cl_mem for a uint) and a launch
// with an argument left unset are InternalErrors naming the case, the kernel and the argument.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <CL/cl.h>

#include "test_common/cl/wrappers.h"
#include "test_common/harness/model/case.h"

namespace cts {

class KernelArgs {
public:
    // The arguments of spec.kernel as the manifest's module table lists them.
    KernelArgs(cl_kernel kernel, const CaseSpec& spec);

    template <typename T>
    void set(const std::string& name, const T& value) {
        static_assert(std::is_same_v<T, cl_mem> || std::is_same_v<T, cl_sampler> || std::is_arithmetic_v<T>,
                      "a kernel argument is a cl_mem, a cl_sampler or a number");
        cl_uint index = indexOf(name, hostType<T>());
        checkCl(clSetKernelArg(kernel_, index, sizeof(T), &value), "clSetKernelArg(" + name + ")");
        set_[index] = true;
    }
    // A local_buffer argument: `bytes` of Workgroup memory per work-group (clSetKernelArg with no value).
    void setLocal(const std::string& name, size_t bytes);
    // A pointer argument bound to (a pointer into) a shared virtual memory allocation.
    void setSvm(const std::string& name, const void* ptr);
    // Throws InternalError naming every argument not set yet.
    void checkAllSet() const;
    cl_kernel kernel() const { return kernel_; }

    // The kernel argument types a host value of type T may be bound to: "memory" (buffers and images),
    // "sampler", "float", "double", or the unsigned integer of its size ("uint" for cl_uint and cl_int:
    // OpenCL SPIR-V integers carry no sign).
    template <typename T>
    static const char* hostType() {
        if constexpr (std::is_same_v<T, cl_mem>)
            return "memory";
        else if constexpr (std::is_same_v<T, cl_sampler>)
            return "sampler";
        else if constexpr (std::is_same_v<T, float>)
            return "float";
        else if constexpr (std::is_same_v<T, double>)
            return "double";
        else if constexpr (sizeof(T) == 1)
            return "uchar";
        else if constexpr (sizeof(T) == 2)
            return "ushort";
        else if constexpr (sizeof(T) == 4)
            return "uint";
        else
            return "ulong";
    }

private:
    cl_uint indexOf(const std::string& name, const std::string& host_type) const;

    cl_kernel kernel_;
    std::string where_;  // "case 'x': kernel test of module m.spv"
    KernelSignature args_;
    std::vector<bool> set_;
};

}  // namespace cts
