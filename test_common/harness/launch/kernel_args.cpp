#include "test_common/harness/launch/kernel_args.h"

namespace cts {
namespace {

bool fits(const std::string& host_type, const std::string& arg_type) {
    if (host_type == "local") return arg_type == "local_buffer";
    if (host_type == "memory")
        return arg_type == "global_buffer" || arg_type == "constant_buffer" ||
               arg_type.rfind("image", 0) == 0;
    return host_type == arg_type;
}

}  // namespace

KernelArgs::KernelArgs(cl_kernel kernel, const CaseSpec& spec)
    : kernel_(kernel),
      where_("case '" + spec.name + "': kernel " + spec.kernel + " of module " + spec.module) {
    if (!spec.module_signature)
        throw InternalError(where_ + " has no signature in the manifest's module table");
    auto it = spec.module_signature->find(spec.kernel);
    if (it == spec.module_signature->end())
        throw InternalError(where_ + " is not in the manifest's module table");
    args_ = it->second;
    set_.assign(args_.size(), false);
}

cl_uint KernelArgs::indexOf(const std::string& name, const std::string& host_type) const {
    for (size_t i = 0; i < args_.size(); ++i) {
        if (args_[i].name != name) continue;
        if (!fits(host_type, args_[i].type))
            throw InternalError(where_ + ": argument '" + name + "' is " + args_[i].type +
                                ", the family binds a " + host_type + " value");
        return cl_uint(i);
    }
    throw InternalError(where_ + " has no argument '" + name + "': it has " + describeSignature(args_));
}

void KernelArgs::setLocal(const std::string& name, size_t bytes) {
    cl_uint index = indexOf(name, "local");
    checkCl(clSetKernelArg(kernel_, index, bytes, nullptr), "clSetKernelArg(" + name + ", local)");
    set_[index] = true;
}

void KernelArgs::setSvm(const std::string& name, const void* ptr) {
    cl_uint index = indexOf(name, "memory");
    checkCl(clSetKernelArgSVMPointer(kernel_, index, ptr), "clSetKernelArgSVMPointer(" + name + ")");
    set_[index] = true;
}

void KernelArgs::checkAllSet() const {
    std::string unset;
    for (size_t i = 0; i < args_.size(); ++i)
        if (!set_[i]) unset += (unset.empty() ? "" : ", ") + args_[i].name;
    if (!unset.empty()) throw InternalError(where_ + ": argument(s) not set before the launch: " + unset);
}

}  // namespace cts
