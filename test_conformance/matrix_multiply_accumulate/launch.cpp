#include "test_conformance/matrix_multiply_accumulate/launch.h"

namespace cts::mma {
namespace {

using reference::LaneData;
using reference::MmaShape;

// Appends each lane's components (component_bits wide, little-endian) for lane slots s = g * N + lane.
void appendLanes(std::vector<uint8_t>& out, const LaneData& lanes, uint32_t component_bits) {
    const uint32_t bytes = component_bits / 8;
    for (const auto& lane : lanes)
        for (uint32_t v : lane)
            for (uint32_t i = 0; i < bytes; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

PackedOperands packOperands(const MmaCase& c, std::mt19937_64& rng) {
    const MmaShape& s = c.shape;
    const reference::OperandLayout al = reference::aLayout(s), bl = reference::bLayout(s),
                                   cl = reference::cLayout(s);
    PackedOperands p;
    p.ops.resize(c.subGroups());
    for (uint32_t g = 0; g < c.subGroups(); ++g) {
        std::vector<LaneData> a_lanes, b_lanes;
        for (uint32_t t = 0; t < c.steps; ++t) {
            p.ops[g].push_back(makeOperands(s, c.data, c.chainLength(), g * c.steps + t, rng));
            a_lanes.push_back(reference::packA(s, p.ops[g][t].a));
            poisonIgnoredA(s, a_lanes.back());  // ignored lanes (tf32, M = 1) hold poison
            b_lanes.push_back(reference::packB(s, p.ops[g][t].b));
        }
        for (uint32_t lane = 0; lane < s.n; ++lane)
            for (uint32_t t = 0; t < c.steps; ++t) {
                appendLanes(p.a_bytes, {a_lanes[t][lane]}, al.component_bits);
                appendLanes(p.b_bytes, {b_lanes[t][lane]}, bl.component_bits);
            }
        appendLanes(p.c_bytes, reference::packC(s, p.ops[g][0].c), cl.component_bits);
    }
    return p;
}

size_t resultBytes(const MmaCase& c) {
    const reference::OperandLayout rl = reference::resultLayout(c.shape);
    return size_t(c.subGroups()) * c.shape.n * c.outputs * rl.components * rl.component_bits / 8;
}

}  // namespace

MmaLaunch::MmaLaunch(RunContext& ctx, const MmaCase& c, std::mt19937_64& rng)
    : operands(packOperands(c, rng)),
      a_buf(ctx, operands.a_bytes.size()),
      b_buf(ctx, operands.b_bytes.size()),
      c_buf(ctx, operands.c_bytes.size()),
      out_buf(ctx, resultBytes(c)),
      steps_(c.steps),
      local_(size_t(c.sub_groups_per_work_group) * c.shape.n),
      global_(local_ * c.work_groups) {
    a_buf.write(operands.a_bytes.data(), operands.a_bytes.size());
    b_buf.write(operands.b_bytes.data(), operands.b_bytes.size());
    c_buf.write(operands.c_bytes.data(), operands.c_bytes.size());
}

void MmaLaunch::run(RunContext& ctx, cl_kernel kernel, const CaseSpec& spec) {
    KernelArgs args(kernel, spec);
    args.set("a", a_buf.mem());
    args.set("b", b_buf.mem());
    args.set("c", c_buf.mem());
    args.set("out", out_buf.mem());
    args.set("steps", cl_uint(steps_));
    runNDRange(ctx, args, 1, &global_, &local_);
}

std::vector<uint8_t> MmaLaunch::readResults(RunContext& ctx) const {
    const std::vector<uint8_t> out = out_buf.read();
    dumpBytes(ctx, "a", operands.a_bytes.data(), operands.a_bytes.size());
    dumpBytes(ctx, "b", operands.b_bytes.data(), operands.b_bytes.size());
    dumpBytes(ctx, "c", operands.c_bytes.data(), operands.c_bytes.size());
    dumpBytes(ctx, "out", out.data(), out.size());
    return out;
}

}  // namespace cts::mma
