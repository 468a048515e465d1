// cl_intel_subgroup_split_matrix_multiply_accumulate on the reference device. The extension's built-ins
// (intel_sub_group_<A>_<B>_split_matrix_mad_k<K>) have no SPIR-V instruction; builtins.cpp resolves them to
// the device's own opcode kOpSplitMatrixMad with the operands of OpSubgroupMatrixMultiplyAccumulateINTEL.
//
// What the extension says, in short: two sub-groups compute together, each supplying half of A's M rows
// (the first sub-group the upper M/2, the second the lower M/2), while `b`, `acc` and the result stay each
// sub-group's own (N columns, one per work item); every work item of both sub-groups must reach the call.
// Which two sub-groups cooperate is left to the
// implementation: this device pairs sub-groups 2i and 2i + 1 of a work-group (the scheduler, launch.cpp),
// the lower id being the first.
//
// The math is then the SPIR-V instruction's for M rows: each sub-group's result is the whole A (both halves,
// in sub-group order) times its B plus its C. So each sub-group runs mma::execute, with its own operands and
// Matrix A replaced by the whole A: the same table, undefined-behaviour checks and planted faults.
#include <cstring>
#include <vector>

#include "reference_device/ext/matrix_multiply_accumulate/mma_ops.h"

namespace refdev::spirv::mma {
namespace {

constexpr const char* kSplitName =
    "intel_sub_group_<A>_<B>_split_matrix_mad_k<K> (cl_intel_subgroup_split_matrix_multiply_accumulate)";

// A's type with twice the components (the whole A of M rows from a half of M / 2).
TypeInfo doubled(const TypeInfo& half) {
    TypeInfo t = half;
    t.components = half.components * 2;
    t.byte_size = half.byte_size * 2;
    t.kind = TypeInfo::Kind::Vector;
    t.component_kind = half.kind == TypeInfo::Kind::Vector ? half.component_kind : half.kind;
    return t;
}

// One sub-group's split mad seen as the SPIR-V instruction: operand 1 (Matrix A) is the whole A, lane l's
// components the first sub-group's lane l's and then the second's; everything else is the sub-group's own.
class WholeA final : public OpContext {
public:
    WholeA(OpContext& own, const TypeInfo& a_type, const std::vector<uint8_t>& a)
        : own_(own), a_type_(a_type), a_(a) {}

    uint32_t opcode() const override { return own_.opcode(); }
    const char* opName() const override { return own_.opName(); }
    uint32_t operandCount() const override { return own_.operandCount(); }
    const TypeInfo& resultType() const override { return own_.resultType(); }
    const TypeInfo& operandType(uint32_t k) const override { return k == 1 ? a_type_ : own_.operandType(k); }
    bool isConstant(uint32_t k) const override { return own_.isConstant(k); }
    uint32_t literal(uint32_t k) const override { return own_.literal(k); }
    uint32_t lanes() const override { return own_.lanes(); }
    uint32_t maxLanes() const override { return own_.maxLanes(); }
    bool active(uint32_t lane) const override { return own_.active(lane); }
    const uint8_t* operand(uint32_t lane, uint32_t k) const override {
        return k == 1 ? a_.data() + size_t(lane) * a_type_.byte_size : own_.operand(lane, k);
    }
    uint8_t* result(uint32_t lane) override { return own_.result(lane); }
    uint8_t* memory(uint32_t lane, uint64_t address, size_t bytes, bool write) override {
        return own_.memory(lane, address, bytes, write);
    }
    uint8_t* probeMemory(uint32_t lane, uint64_t address, size_t bytes, bool write) override {
        return own_.probeMemory(lane, address, bytes, write);
    }
    const ImageDesc* image(uint32_t lane, uint32_t k) override { return own_.image(lane, k); }
    const Faults& faults() const override { return own_.faults(); }
    const Profile* profile() const override { return own_.profile(); }
    uint32_t siteOrdinal() const override { return own_.siteOrdinal(); }
    uint64_t workGroupLinearId() const override { return own_.workGroupLinearId(); }
    uint64_t localMemoryBase() const override { return own_.localMemoryBase(); }
    uint64_t* faultState(uint32_t slot) override { return own_.faultState(slot); }
    void undefinedBehavior(uint32_t lane, const std::string& what) override {
        own_.undefinedBehavior(lane, std::string(kSplitName) + ", as " + what);
    }
    bool failed() const override { return own_.failed(); }
    bool uniform(uint32_t k) const override { return k == 1 ? false : own_.uniform(k); }
    bool allActive() const override { return own_.allActive(); }

private:
    OpContext& own_;
    const TypeInfo& a_type_;
    const std::vector<uint8_t>& a_;
};

}  // namespace

std::string checkSplitBuild(const ExtBuildView& view) {
    // The table row of the whole A: M = twice the components of a (the spec's "multiply the number of
    // components in a by two to compute the number of rows M").
    if (view.operand_types.size() < 4 || !view.operand_types[1]) return std::string(kSplitName) + ": needs a";
    ExtBuildView whole = view;
    const TypeInfo a = doubled(*view.operand_types[1]);
    whole.operand_types[1] = &a;
    const std::string why = checkBuild(whole);
    return why.empty() ? why : std::string(kSplitName) + ", as " + why;
}

void executeSplitPair(OpContext& first, OpContext& second) {
    // (the spec: encountered by every work item of both sub-groups), each a full sub-group of N = 8.
    OpContext* half[2] = {&first, &second};
    for (OpContext* ctx : half)
        if (!ctx->fullSubgroup()) {
            uint32_t lane = 0;
            while (lane + 1 < ctx->lanes() && ctx->active(lane)) ++lane;
            return ctx->undefinedBehavior(
                lane, std::string(kSplitName) +
                          ": must be encountered by every work item of both sub-groups (full sub-groups), "
                          "work item " +
                          std::to_string(lane) + " of this sub-group of " + std::to_string(ctx->lanes()) +
                          " did not");
        }
    const TypeInfo& a_half = first.operandType(1);
    if (a_half.byte_size == 0 || a_half.byte_size > 64)
        return first.undefinedBehavior(0, std::string(kSplitName) + ": a is not a 32-bit scalar or vector");
    // Both halves are read before either result is written.
    const TypeInfo a_type = doubled(a_half);
    std::vector<uint8_t> a(size_t(first.lanes()) * a_type.byte_size);
    for (uint32_t l = 0; l < first.lanes(); ++l) {
        uint8_t* out = a.data() + size_t(l) * a_type.byte_size;
        std::memcpy(out, first.operand(l, 1), a_half.byte_size);
        std::memcpy(out + a_half.byte_size, second.operand(l, 1), a_half.byte_size);
    }
    for (OpContext* ctx : half) {
        WholeA view(*ctx, a_type, a);
        execute(view);
        if (ctx->failed()) return;
    }
}

}  // namespace refdev::spirv::mma
