// OpSubgroupBlockPrefetchINTEL (SPV_INTEL_subgroup_buffer_prefetch): "Prefetching does not affect the
// functionality of a module but may change its performance characteristics." The device has no cache to fill,
// so executing one changes nothing; what it does is accept the instruction where the profile reports
// cl_intel_subgroup_buffer_prefetch and hold it to the operand rules:
//
// - at build time, "Ptr must be a pointer to an integer type scalar in the CrossWorkgroup Storage Class" and
//   "NumBytes must be a 32-bit integer type scalar whose Signedness operand is 0, and must come from a
//   constant instruction" (a module breaking them fails clBuildProgram, the rule in the log);
// - at run time, "Behavior is undefined unless Ptr and NumBytes are dynamically uniform for all
//   invocations in the subgroup" (NumBytes is a constant, so only Ptr can differ), reported as undefined
//   behaviour.
//
// TypeInfo carries no Signedness, so NumBytes' Signedness is left to the validator (OpenCL modules declare
// their integer types with Signedness 0). A NumBytes that is not a power of two in [1, 64] is legal ("may be
// silently ignored"), and no memory is touched, so a prefetch of any address is harmless.
#include "reference_device/ext/subgroups/subgroups_ops.h"

namespace refdev::spirv::subgroups {

namespace {

constexpr const char* kName = "OpSubgroupBlockPrefetchINTEL";
constexpr uint32_t kCrossWorkgroup = token(spv::StorageClass::CrossWorkgroup);

}  // namespace

std::string checkBlockPrefetch(const ExtBuildView& view) {
    const std::string name = std::string(kName) + ": ";
    if (!view.profile || !view.profile->hasExtension("cl_intel_subgroup_buffer_prefetch"))
        return name + "the device does not report cl_intel_subgroup_buffer_prefetch";
    if (view.operand_types.size() < 2) return name + "needs Ptr and NumBytes";
    const TypeInfo* ptr = view.operand_types[0];
    const bool int_scalar_pointee =
        ptr && ptr->pointee && ptr->pointee->kind == TypeInfo::Kind::Int && ptr->pointee->components == 1;
    if (!ptr || ptr->kind != TypeInfo::Kind::Pointer || ptr->storage_class != kCrossWorkgroup ||
        !int_scalar_pointee)
        return name + "Ptr must be a pointer to an integer type scalar in the CrossWorkgroup Storage Class";
    const TypeInfo* bytes = view.operand_types[1];
    if (!bytes || bytes->kind != TypeInfo::Kind::Int || bytes->components != 1 ||
        bytes->component_bits != 32 || !view.int_constant[1])
        return name +
               "NumBytes must be a 32-bit integer type scalar ... and must come from a constant instruction";
    return "";
}

void executeBlockPrefetch(OpContext& ctx) {
    if (!ctx.uniform(0))
        ctx.undefinedBehavior(firstActiveLane(ctx),
                              std::string(kName) +
                                  ": Ptr is not dynamically uniform for all invocations in "
                                  "the subgroup");
}

}  // namespace refdev::spirv::subgroups
