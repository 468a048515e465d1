// KernelArgs: binding by name refuses unknown names, values of the wrong kind and launches with arguments
// unset, before any CL call.
#include "test_common/harness/launch/kernel_args.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>

namespace cts {
namespace {

CaseSpec shuffleCase() {
    CaseSpec spec;
    spec.name = "subgroups.x";
    spec.module = "subgroups/x.spv";
    spec.kernel = "test";
    spec.module_signature = std::make_shared<const ModuleSignature>(ModuleSignature{
        {"test", {{"out", "global_buffer"}, {"img", "image2d_ro"}, {"exec_period", "uint"}}}});
    return spec;
}

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const InternalError& e) {
        return e.what();
    }
    return "(no InternalError)";
}

TEST(KernelArgs, UnknownNameIsAnInternalErrorListingTheSignature) {
    KernelArgs args(nullptr, shuffleCase());
    EXPECT_EQ(
        errorOf([&] { args.set("lane_mask", cl_uint(1)); }),
        "case 'subgroups.x': kernel test of module subgroups/x.spv has no argument 'lane_mask': it has (out: "
        "global_buffer, img: image2d_ro, exec_period: uint)");
}

TEST(KernelArgs, ValueOfTheWrongKindIsAnInternalError) {
    KernelArgs args(nullptr, shuffleCase());
    EXPECT_EQ(
        errorOf([&] { args.set("exec_period", cl_mem(nullptr)); }),
        "case 'subgroups.x': kernel test of module subgroups/x.spv: argument 'exec_period' is uint, the "
        "family binds a memory value");
    EXPECT_NE(errorOf([&] { args.set("out", cl_ulong(1)); }).find("argument 'out' is global_buffer"),
              std::string::npos);
    EXPECT_NE(errorOf([&] { args.set("exec_period", cl_ushort(1)); }).find("binds a ushort value"),
              std::string::npos);
    // A fitting value gets as far as the CL call (a null kernel: the device's answer, not an InternalError).
    EXPECT_THROW(args.set("img", cl_mem(nullptr)), CaseFailure);
    EXPECT_THROW(args.set("exec_period", cl_int(3)), CaseFailure);
}

TEST(KernelArgs, LaunchWithArgumentsUnsetIsAnInternalErrorNamingThem) {
    KernelArgs args(nullptr, shuffleCase());
    EXPECT_EQ(
        errorOf([&] { args.checkAllSet(); }),
        "case 'subgroups.x': kernel test of module subgroups/x.spv: argument(s) not set before the launch: "
        "out, img, exec_period");
    CaseSpec no_arguments = shuffleCase();
    no_arguments.module_signature = std::make_shared<const ModuleSignature>(ModuleSignature{{"test", {}}});
    EXPECT_NO_THROW(KernelArgs(nullptr, no_arguments).checkAllSet());
}

TEST(KernelArgs, KernelMissingFromTheModuleTableIsAnInternalError) {
    CaseSpec spec = shuffleCase();
    spec.kernel = "main";
    EXPECT_NE(errorOf([&] { KernelArgs args(nullptr, spec); }).find("is not in the manifest's module table"),
              std::string::npos);
    spec.module_signature = nullptr;
    EXPECT_NE(errorOf([&] { KernelArgs args(nullptr, spec); }).find("has no signature"), std::string::npos);
}

}  // namespace
}  // namespace cts
