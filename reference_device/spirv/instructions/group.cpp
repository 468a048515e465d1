// Collectives: OpControlBarrier, core sub-group instructions (OpGroup* and OpGroupNonUniform* with Subgroup
// scope) and extension instructions from the ExtOpTable (through an OpContext).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "reference_device/spirv/builtins.h"
#include "reference_device/spirv/decode.h"
#include "reference_device/spirv/half.h"
#include "reference_device/spirv/interp.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {
namespace {

using K = TypeInfo::Kind;
constexpr uint32_t kScopeWorkgroup = token(spv::Scope::Workgroup),
                   kScopeSubgroup = token(spv::Scope::Subgroup);

enum Arith : uint8_t {
    AIAdd,
    AFAdd,
    AIMul,
    AFMul,
    ASMin,
    AUMin,
    AFMin,
    ASMax,
    AUMax,
    AFMax,
    AAnd,
    AOr,
    AXor,
    ALAnd,
    ALOr,
    ALXor,
    ANone
};

// Core opcode -> arithmetic of the reduction (ANone for non-arithmetic group ops).
Arith arithOf(uint32_t op) {
    switch (op) {
        case token(spv::Op::OpGroupIAdd):
        case token(spv::Op::OpGroupNonUniformIAdd): return AIAdd;
        case token(spv::Op::OpGroupFAdd):
        case token(spv::Op::OpGroupNonUniformFAdd): return AFAdd;
        case token(spv::Op::OpGroupNonUniformIMul): return AIMul;
        case token(spv::Op::OpGroupNonUniformFMul): return AFMul;
        case token(spv::Op::OpGroupFMin):
        case token(spv::Op::OpGroupNonUniformFMin): return AFMin;
        case token(spv::Op::OpGroupUMin):
        case token(spv::Op::OpGroupNonUniformUMin): return AUMin;
        case token(spv::Op::OpGroupSMin):
        case token(spv::Op::OpGroupNonUniformSMin): return ASMin;
        case token(spv::Op::OpGroupFMax):
        case token(spv::Op::OpGroupNonUniformFMax): return AFMax;
        case token(spv::Op::OpGroupUMax):
        case token(spv::Op::OpGroupNonUniformUMax): return AUMax;
        case token(spv::Op::OpGroupSMax):
        case token(spv::Op::OpGroupNonUniformSMax): return ASMax;
        case token(spv::Op::OpGroupNonUniformBitwiseAnd): return AAnd;
        case token(spv::Op::OpGroupNonUniformBitwiseOr): return AOr;
        case token(spv::Op::OpGroupNonUniformBitwiseXor): return AXor;
        case token(spv::Op::OpGroupNonUniformLogicalAnd): return ALAnd;
        case token(spv::Op::OpGroupNonUniformLogicalOr): return ALOr;
        case token(spv::Op::OpGroupNonUniformLogicalXor): return ALXor;
        default: return ANone;
    }
}

struct Num {  // one component, integer bits or float value
    uint64_t u = 0;
    double f = 0;
};

Num load(const uint8_t* p, uint32_t w, bool is_float) {
    Num v;
    if (is_float)
        v.f = w == 2 ? halfToFloat(rd<uint16_t>(p, 0)) : w == 4 ? double(rd<float>(p, 0)) : rd<double>(p, 0);
    else
        std::memcpy(&v.u, p, w);
    return v;
}
void store(uint8_t* p, uint32_t w, bool is_float, const Num& v) {
    if (!is_float)
        std::memcpy(p, &v.u, w);
    else if (w == 2)
        wr<uint16_t>(p, 0, doubleToHalf(v.f));
    else if (w == 4)
        wr<float>(p, 0, float(v.f));
    else
        wr<double>(p, 0, v.f);
}
// Rounds a float intermediate to the operation's precision, so a scan matches step-by-step evaluation.
double roundTo(double v, uint32_t w) {
    return w == 2 ? halfToFloat(doubleToHalf(v)) : w == 4 ? double(float(v)) : v;
}

Num identity(Arith a, uint32_t w) {
    Num v;
    const uint64_t m = w == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * w)) - 1;
    switch (a) {
        case AIMul: v.u = 1; break;
        case AFMul: v.f = 1; break;
        case AUMin:
        case AAnd: v.u = m; break;
        case ASMin: v.u = m >> 1; break;
        case ASMax: v.u = (m >> 1) + 1; break;
        case AFMin: v.f = INFINITY; break;
        case AFMax: v.f = -INFINITY; break;
        case ALAnd: v.u = 1; break;
        default: break;
    }
    return v;
}

Num combine(Arith a, uint32_t w, const Num& x, const Num& y) {
    Num r;
    const unsigned bits = 8 * w;
    auto sx = [&](uint64_t v) { return bits == 64 ? int64_t(v) : int64_t(v << (64 - bits)) >> (64 - bits); };
    const uint64_t m = w == 8 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    switch (a) {
        case AIAdd: r.u = (x.u + y.u) & m; break;
        case AIMul: r.u = (x.u * y.u) & m; break;
        case AFAdd: r.f = roundTo(x.f + y.f, w); break;
        case AFMul: r.f = roundTo(x.f * y.f, w); break;
        case AUMin: r.u = std::min(x.u, y.u); break;
        case AUMax: r.u = std::max(x.u, y.u); break;
        case ASMin: r.u = sx(x.u) < sx(y.u) ? x.u : y.u; break;
        case ASMax: r.u = sx(x.u) > sx(y.u) ? x.u : y.u; break;
        case AFMin: r.f = std::isnan(x.f) ? y.f : std::isnan(y.f) ? x.f : std::min(x.f, y.f); break;
        case AFMax: r.f = std::isnan(x.f) ? y.f : std::isnan(y.f) ? x.f : std::max(x.f, y.f); break;
        case AAnd:
        case ALAnd: r.u = x.u & y.u; break;
        case AOr:
        case ALOr: r.u = x.u | y.u; break;
        case AXor:
        case ALXor: r.u = x.u ^ y.u; break;
        default: break;
    }
    return r;
}

const char* scopeError(uint32_t scope) {
    return scope == kScopeWorkgroup ? "work-group scope is not supported for this instruction (only Subgroup)"
                                    : "Execution scope must be Subgroup";
}

class ExtContext final : public OpContext {
public:
    ExtContext(GroupRun& g, Lane* sg, uint32_t count, const uint8_t* active, const Insn& in)
        : g_(g),
          sg_(sg),
          count_(count),
          active_(active),
          in_(in),
          m_(*g.m),
          info_(*m_.ext_infos[in.a]),
          ops_(m_.aux.data() + in.aux) {
        // Operand types are looked up again and again by the checks; the deque lookup once per operand.
        for (uint32_t k = 0; k < in_.n && k < kCachedTypes; ++k)
            types_[k] = ops_[2 * k + 1] == UINT32_MAX ? &literalType() : &m_.types[ops_[2 * k + 1]].info;
    }

    uint32_t opcode() const override { return in_.opcode; }
    const char* opName() const override { return info_.name; }
    uint32_t operandCount() const override { return in_.n; }
    const TypeInfo& resultType() const override {
        return in_.b == UINT32_MAX ? voidType() : m_.types[in_.b].info;
    }
    const TypeInfo& operandType(uint32_t k) const override {
        if (k < kCachedTypes && k < in_.n) return *types_[k];
        if (k >= in_.n || ops_[2 * k + 1] == UINT32_MAX) return literalType();
        return m_.types[ops_[2 * k + 1]].info;
    }
    bool isConstant(uint32_t k) const override {
        return k < in_.n && ops_[2 * k + 1] != UINT32_MAX && (in_.c >> std::min<uint32_t>(k, 31) & 1);
    }
    uint32_t literal(uint32_t k) const override { return k < in_.n ? ops_[2 * k] : 0; }
    uint32_t lanes() const override { return count_; }
    uint32_t maxLanes() const override { return g_.shared->sub_group_size; }
    bool active(uint32_t lane) const override { return lane < count_ && active_[lane]; }
    bool uniform(uint32_t k) const override {
        // Literals and missing operands read the same bytes in every lane.
        if (k >= in_.n || ops_[2 * k + 1] == UINT32_MAX) return true;
        const uint32_t off = ops_[2 * k], size = operandType(k).byte_size;
        const uint8_t* first = nullptr;
        for (uint32_t lane = 0; lane < count_; ++lane) {
            if (!active_[lane]) continue;
            const uint8_t* v = sg_[lane].regs + off;
            if (!first)
                first = v;
            else if (std::memcmp(first, v, size) != 0)
                return false;
        }
        return true;
    }
    bool allActive() const override {
        for (uint32_t lane = 0; lane < count_; ++lane)
            if (!active_[lane]) return false;
        return true;
    }
    const uint8_t* operand(uint32_t lane, uint32_t k) const override {
        if (k >= in_.n || lane >= count_) return zeros();
        if (ops_[2 * k + 1] == UINT32_MAX) return reinterpret_cast<const uint8_t*>(&ops_[2 * k]);
        return sg_[lane].regs + ops_[2 * k];
    }
    uint8_t* result(uint32_t lane) override {
        if (in_.b == UINT32_MAX || lane >= count_) return scratch_;
        return sg_[lane].regs + in_.res;
    }
    uint8_t* memory(uint32_t lane, uint64_t address, size_t bytes, bool write) override {
        if (lane >= count_) return nullptr;
        return g_.access(sg_[lane], in_, address, bytes, write);
    }
    uint8_t* probeMemory(uint32_t lane, uint64_t address, size_t bytes, bool write) override {
        bool readonly = false;
        return lane < count_ ? g_.lookup(sg_[lane], address, bytes, write, &readonly) : nullptr;
    }
    const ImageDesc* image(uint32_t lane, uint32_t k) override {
        uint64_t p = rd<uint64_t>(operand(lane, k), 0);
        for (const ImageDesc& d : g_.shared->images)
            if (uint64_t(uintptr_t(&d)) == p) return &d;
        undefinedBehavior(lane, "operand " + std::to_string(k) + " is not an image argument of this launch");
        return nullptr;
    }
    const Faults& faults() const override { return *g_.shared->faults; }
    const Profile* profile() const override { return g_.shared->profile; }
    uint32_t siteOrdinal() const override { return in_.sub; }
    uint64_t workGroupLinearId() const override { return g_.group_linear; }
    uint64_t localMemoryBase() const override { return uint64_t(uintptr_t(g_.local)); }
    uint64_t* faultState(uint32_t slot) override {
        static_assert(std::tuple_size_v<decltype(GroupRun::fault_state)::mapped_type> == kFaultStateSlots);
        return slot < kFaultStateSlots ? &g_.fault_state[sg_][slot] : nullptr;
    }
    void undefinedBehavior(uint32_t lane, const std::string& what) override {
        g_.fail(sg_[lane < count_ ? lane : 0], in_, "undefined behaviour: " + what);
    }
    bool failed() const override { return g_.failed; }

private:
    static const TypeInfo& voidType() {
        static const TypeInfo t{TypeInfo::Kind::Void, TypeInfo::Kind::Void, 0, 1, 0, 0, 0, nullptr};
        return t;
    }
    static const TypeInfo& literalType() {
        static const TypeInfo t{TypeInfo::Kind::Other, TypeInfo::Kind::Other, 32, 1, 4, 0, 0, nullptr};
        return t;
    }
    static const uint8_t* zeros() {
        static const uint8_t z[256] = {};
        return z;
    }
    GroupRun& g_;
    Lane* sg_;
    uint32_t count_;
    const uint8_t* active_;
    const Insn& in_;
    const Module& m_;
    const ExtOpInfo& info_;
    const uint32_t* ops_;
    static constexpr uint32_t kCachedTypes = 16;
    const TypeInfo* types_[kCachedTypes] = {};
    uint8_t scratch_[512] = {};
};

std::string laneList(const uint8_t* active, uint32_t count) {
    std::string s;
    for (uint32_t i = 0; i < count; ++i)
        if (active[i]) s += (s.empty() ? "" : ",") + std::to_string(i);
    return s;
}

}  // namespace

bool execPairCollective(GroupRun& g, const PairPart& first, const PairPart& second, uint32_t pc) {
    const Insn& in = g.m->code[pc];
    ExtContext a(g, first.lanes, first.count, first.active, in),
        b(g, second.lanes, second.count, second.active, in);
    g.m->ext_infos[in.a]->execute_pair(a, b);
    return !g.failed;
}

bool execCollective(GroupRun& g, Lane* sg, uint32_t count, const uint8_t* active, uint32_t pc) {
    const Insn& in = g.m->code[pc];
    uint32_t first = 0;
    while (first < count && !active[first]) ++first;
    if (first == count) return true;
    bool all = true;
    for (uint32_t i = 0; i < count; ++i) all &= active[i] != 0;
    if (in.kind == Kind::ExtOp) {
        ExtContext ctx(g, sg, count, active, in);
        const ExtOpInfo& info = *g.m->ext_infos[in.a];
        if (info.execute)
            info.execute(ctx);
        else
            ctx.undefinedBehavior(first, std::string(info.name) + ": executed by one sub-group alone");
        return !g.failed;
    }
    if (in.kind == Kind::SubgroupBarrier ||
        (in.kind == Kind::GroupOp && in.opcode >= token(spv::Op::OpGroupAll) &&
         in.opcode <= token(spv::Op::OpGroupSMax))) {
        if (!all) {
            g.fail(sg[first], in,
                   "undefined behaviour: reached by only part of the sub-group (lanes " +
                       laneList(active, count) + " of " + std::to_string(count) + ")");
            return false;
        }
        if (in.kind == Kind::SubgroupBarrier) return true;
    }
    const uint32_t w = in.width, n = in.n, size = w * n;
    const bool is_float = in.c == 1;
    switch (in.opcode) {
        case token(spv::Op::OpGroupAll):
        case token(spv::Op::OpGroupAny):
        case token(spv::Op::OpGroupNonUniformAll):
        case token(spv::Op::OpGroupNonUniformAny): {  // All / Any
            bool any = false, every = true;
            for (uint32_t i = 0; i < count; ++i)
                if (active[i]) {
                    any |= sg[i].regs[in.a] != 0;
                    every &= sg[i].regs[in.a] != 0;
                }
            bool r =
                (in.opcode == token(spv::Op::OpGroupAll) || in.opcode == token(spv::Op::OpGroupNonUniformAll))
                    ? every
                    : any;
            for (uint32_t i = 0; i < count; ++i)
                if (active[i]) sg[i].regs[in.res] = r;
            return true;
        }
        case token(spv::Op::OpGroupNonUniformAllEqual): {  // AllEqual
            bool eq = true;
            for (uint32_t i = 0; i < count; ++i)
                if (active[i]) eq &= std::memcmp(sg[i].regs + in.a, sg[first].regs + in.a, size) == 0;
            for (uint32_t i = 0; i < count; ++i)
                if (active[i]) sg[i].regs[in.res] = eq;
            return true;
        }
        case token(spv::Op::OpGroupNonUniformElect):  // Elect: the lowest active lane
            for (uint32_t i = 0; i < count; ++i)
                if (active[i]) sg[i].regs[in.res] = i == first;
            return true;
        case token(spv::Op::OpGroupBroadcast):
        case token(spv::Op::OpGroupNonUniformBroadcast):
        case token(spv::Op::OpGroupNonUniformBroadcastFirst): {  // Broadcast, BroadcastFirst
            uint64_t id = first;
            if (in.opcode != token(spv::Op::OpGroupNonUniformBroadcastFirst)) {
                id = 0;
                std::memcpy(&id, sg[first].regs + in.b, in.flags);
                for (uint32_t i = 0; i < count; ++i) {
                    uint64_t other = 0;
                    if (!active[i]) continue;
                    std::memcpy(&other, sg[i].regs + in.b, in.flags);
                    if (other != id) {
                        g.fail(sg[i], in,
                               "undefined behaviour: the lane id is not uniform across the sub-group");
                        return false;
                    }
                }
                if (id >= count || !active[id]) {
                    g.fail(sg[first], in,
                           "undefined behaviour: broadcast from lane " + std::to_string(id) +
                               ", which is not an active lane of the sub-group");
                    return false;
                }
            }
            for (uint32_t i = 0; i < count; ++i)
                if (active[i] && i != id) std::memcpy(sg[i].regs + in.res, sg[id].regs + in.a, size);
            std::memmove(sg[id].regs + in.res, sg[id].regs + in.a, size);
            return true;
        }
        case token(spv::Op::OpGroupNonUniformBallot): {  // Ballot: uvec4 with one bit per active lane whose
                                                         // predicate is true
            uint32_t bits[4] = {0, 0, 0, 0};
            for (uint32_t i = 0; i < count && i < 128; ++i)
                if (active[i] && sg[i].regs[in.a]) bits[i / 32] |= 1u << (i % 32);
            for (uint32_t i = 0; i < count; ++i)
                if (active[i]) std::memcpy(sg[i].regs + in.res, bits, 16);
            return true;
        }
        case token(spv::Op::OpGroupNonUniformShuffle):
        case token(spv::Op::OpGroupNonUniformShuffleXor):
        case token(spv::Op::OpGroupNonUniformShuffleUp):
        case token(spv::Op::OpGroupNonUniformShuffleDown): {  // Shuffle, ShuffleXor, ShuffleUp, ShuffleDown
            std::vector<uint8_t> values(size_t(count) * size);
            for (uint32_t i = 0; i < count; ++i)
                std::memcpy(values.data() + i * size, sg[i].regs + in.a, size);
            for (uint32_t i = 0; i < count; ++i) {
                if (!active[i]) continue;
                uint64_t v = 0;
                std::memcpy(&v, sg[i].regs + in.b, in.flags);
                uint64_t src = in.opcode == token(spv::Op::OpGroupNonUniformShuffle)      ? v
                               : in.opcode == token(spv::Op::OpGroupNonUniformShuffleXor) ? (i ^ v)
                               : in.opcode == token(spv::Op::OpGroupNonUniformShuffleUp)  ? i - v
                                                                                          : i + v;
                if (src >= count || !active[src]) {
                    // the result is undefined; zero keeps it deterministic
                    std::memset(sg[i].regs + in.res, 0, size);
                    continue;
                }
                std::memcpy(sg[i].regs + in.res, values.data() + src * size, size);
            }
            return true;
        }
        default: break;
    }
    const Arith arith = arithOf(in.opcode);
    if (arith == ANone) {
        g.fail(sg[first], in, "internal error: collective has no implementation");
        return false;
    }
    // Reduce (0), InclusiveScan (1), ExclusiveScan (2), ClusteredReduce (3, cluster size in in.aux)
    const uint32_t cluster = in.flags == 3 ? std::max<uint32_t>(in.aux, 1) : count;
    for (uint32_t comp = 0; comp < n; ++comp) {
        const uint32_t off = comp * w;
        for (uint32_t base = 0; base < count; base += cluster) {
            const uint32_t end = std::min(count, base + cluster);
            Num total = identity(arith, w);
            for (uint32_t i = base; i < end; ++i) {
                if (!active[i]) continue;
                Num v = load(sg[i].regs + in.a + off, w, is_float);
                if (in.flags == 2) store(sg[i].regs + in.res + off, w, is_float, total);  // exclusive scan
                total = combine(arith, w, total, v);
                if (in.flags == 1) store(sg[i].regs + in.res + off, w, is_float, total);  // inclusive scan
            }
            if (in.flags == 0 || in.flags == 3)
                for (uint32_t i = base; i < end; ++i)
                    if (active[i]) store(sg[i].regs + in.res + off, w, is_float, total);
        }
    }
    return true;
}

bool decodeGroup(DecodeCtx& c) {
    const uint32_t op = c.in->opcode;
    if (op == token(spv::Op::OpGroupAsyncCopy) || op == token(spv::Op::OpGroupWaitEvents))
        return decodeAsyncCopy(c);  // async_copy.cpp
    const bool barrier = op == token(spv::Op::OpControlBarrier) || op == token(spv::Op::OpMemoryBarrier);
    const bool group =
        (op >= token(spv::Op::OpGroupAll) && op <= token(spv::Op::OpGroupSMax)) ||
        (op >= token(spv::Op::OpGroupNonUniformElect) && op <= token(spv::Op::OpGroupNonUniformBallot)) ||
        (op >= token(spv::Op::OpGroupNonUniformShuffle) && op <= token(spv::Op::OpGroupNonUniformLogicalXor));
    if (!barrier && !group) return false;
    auto scope = [&](uint32_t w, uint32_t* s) {
        uint64_t v;
        if (!c.intConstant(c.word(w), &v)) return c.fail("Execution scope is not an integer constant");
        *s = uint32_t(v);
        return true;
    };
    Insn in = c.start(Kind::GroupOp);
    uint32_t s = 0;
    if (op == token(spv::Op::OpMemoryBarrier)) {
        in.kind = Kind::MemoryBarrier;
        c.emit(in);
        return true;
    }
    if (op == token(spv::Op::OpControlBarrier)) {
        if (!scope(1, &s)) return true;
        if (s == kScopeWorkgroup)
            in.kind = Kind::Barrier;
        else if (s == kScopeSubgroup)
            in.kind = Kind::SubgroupBarrier;
        else
            return c.fail("Execution scope " + std::to_string(s) +
                          " is not supported (Workgroup or Subgroup)");
        c.emit(in);
        return true;
    }
    if (!scope(3, &s)) return true;
    if (s != kScopeSubgroup) return c.fail(scopeError(s));
    const Type& rt = c.type(c.ids[c.word(2)].type);
    in.res = c.reg(c.word(2));
    if (op == token(spv::Op::OpGroupNonUniformElect)) {  // Elect
        if (!isBool(rt)) return c.fail("result is not a bool");
        c.emit(in);
        return true;
    }
    uint32_t value_word = 4;
    const Arith arith = arithOf(op);
    if (arith != ANone) {
        in.flags = uint8_t(c.word(4));
        if (in.flags > 3 || (op < token(spv::Op::OpGroupNonUniformIAdd) && in.flags > 2))
            return c.fail("GroupOperation " + std::to_string(in.flags) + " is not supported");
        value_word = 5;
        if (in.flags == 3) {
            uint64_t cs;
            if (c.words() < 7 || !c.intConstant(c.word(6), &cs) || cs == 0 || (cs & (cs - 1)))
                return c.fail("ClusterSize must be a power-of-two integer constant");
            in.aux = uint32_t(std::min<uint64_t>(cs, 1u << 16));
        }
    }
    uint32_t vt = c.valueType(c.word(value_word), "Value");
    if (vt == UINT32_MAX) return true;
    const Type& v = c.type(vt);
    in.a = c.reg(c.word(value_word));
    in.width = uint8_t(componentBytes(v));
    in.n = v.info.components;
    in.c = isFloat(v) ? 1 : 0;
    switch (op) {
        case token(spv::Op::OpGroupAll):
        case token(spv::Op::OpGroupAny):
        case token(spv::Op::OpGroupNonUniformAll):
        case token(spv::Op::OpGroupNonUniformAny):
        case token(spv::Op::OpGroupNonUniformBallot):
            if (!isBool(v) || v.info.kind != K::Bool) return c.fail("Predicate is not a bool");
            if (op == token(spv::Op::OpGroupNonUniformBallot) &&
                (rt.info.components != 4 || rt.info.component_bits != 32))
                return c.fail("Ballot result must be a 4-component 32-bit integer vector");
            break;
        case token(spv::Op::OpGroupNonUniformAllEqual):
            if (!isBool(rt)) return c.fail("result is not a bool");
            break;
        case token(spv::Op::OpGroupBroadcast):
        case token(spv::Op::OpGroupNonUniformBroadcast):
        case token(spv::Op::OpGroupNonUniformShuffle):
        case token(spv::Op::OpGroupNonUniformShuffleXor):
        case token(spv::Op::OpGroupNonUniformShuffleUp):
        case token(spv::Op::OpGroupNonUniformShuffleDown): {
            uint32_t it = c.valueType(c.word(5), "lane id");
            if (it == UINT32_MAX) return true;
            const Type& idt = c.type(it);
            if (!isInt(idt)) return c.fail("lane id is not an integer");
            in.b = c.reg(c.word(5));
            in.flags = uint8_t(std::min<uint32_t>(componentBytes(idt), 8));  // LocalId vectors: x component
            if (!sameShape(v, rt)) return c.fail("Value type does not match the result type");
            break;
        }
        case token(spv::Op::OpGroupNonUniformBroadcastFirst):
            if (!sameShape(v, rt)) return c.fail("Value type does not match the result type");
            break;
        default: {
            if (!sameShape(v, rt)) return c.fail("X type does not match the result type");
            bool float_op = arith == AFAdd || arith == AFMul || arith == AFMin || arith == AFMax;
            bool logical = arith >= ALAnd && arith <= ALXor;
            if (float_op ? !isFloat(v) : logical ? !isBool(v) : !isInt(v))
                return c.fail("X has the wrong type for this operation");
            break;
        }
    }
    c.emit(in);
    return true;
}

bool decodeExtOp(DecodeCtx& c) {
    const ExtOpInfo* info = c.ext.find(c.in->opcode);
    // The device's own opcodes stand for built-ins only; a module's instruction with one is unknown.
    if (!info || c.in->opcode >= kFirstBuiltinOnlyOpcode || (!info->execute && !info->execute_pair))
        return false;
    if (!info->capabilities.empty()) {
        bool enabled = false;
        for (uint32_t cap : info->capabilities)
            enabled |= std::count(c.capabilities.begin(), c.capabilities.end(), cap) > 0;
        if (!enabled)
            return c.fail("needs capability " + std::to_string(info->capabilities[0]) +
                          ", which the module does not declare");
    }
    const uint32_t first = info->has_result ? 3 : 1;
    std::vector<BuiltinOperand> operands;
    std::vector<uint32_t> ids;
    for (uint32_t k = 0; first + k < c.words(); ++k) {
        const uint32_t w = c.word(first + k);
        if (k >= info->first_literal) {
            operands.push_back({BuiltinOperand::Kind::Literal, w});
        } else {
            operands.push_back({BuiltinOperand::Kind::Argument, uint32_t(ids.size())});
            ids.push_back(w);
        }
    }
    decodeExtOpOperands(c, info, info->has_result ? c.word(2) : 0, operands, ids);
    return true;
}

// The 32-bit integer type constants synthesised for a built-in call are read as: the module's own when it
// declares one, else one added to the module's types.
static uint32_t int32TypeIndex(DecodeCtx& c) {
    for (uint32_t t = 0; t < c.m.types.size(); ++t) {
        const TypeInfo& info = c.m.types[t].info;
        if (info.kind == K::Int && info.component_bits == 32) return t;
    }
    c.m.types.emplace_back();
    Type& t = c.m.types.back();
    t.info.kind = t.info.component_kind = K::Int;
    t.info.component_bits = 32;
    t.info.byte_size = t.reg_size = t.mem_size = t.mem_align = 4;
    t.name = "uint";
    return uint32_t(c.m.types.size() - 1);
}

bool decodeExtOpOperands(DecodeCtx& c, const ExtOpInfo* info, uint32_t result_id,
                         const std::vector<BuiltinOperand>& operands,
                         const std::vector<uint32_t>& argument_ids) {
    Insn in = c.start(Kind::ExtOp);
    in.b = UINT32_MAX;
    if (info->has_result) {
        in.b = c.ids[result_id].type;
        in.res = c.reg(result_id);
    }
    in.n = uint32_t(operands.size());
    in.aux = uint32_t(c.m.aux.size());
    ExtBuildView view;
    view.result = in.b == UINT32_MAX ? nullptr : &c.type(in.b).info;
    view.profile = &c.profile;
    for (uint32_t k = 0; k < in.n; ++k) {
        const BuiltinOperand& op = operands[k];
        if (op.kind == BuiltinOperand::Kind::Literal) {
            c.m.aux.insert(c.m.aux.end(), {op.value, UINT32_MAX});
            view.operand_types.push_back(nullptr);
            view.int_constant.push_back(false);
            view.int_value.push_back(0);
            view.literal.push_back(op.value);
            continue;
        }
        if (op.kind == BuiltinOperand::Kind::Constant) {
            const uint32_t t = int32TypeIndex(c);
            const uint32_t reg = c.allocReg(4);
            std::memcpy(c.m.reg_init.data() + reg, &op.value, 4);
            if (k < 32) in.c |= 1u << k;
            c.m.aux.insert(c.m.aux.end(), {reg, t});
            view.operand_types.push_back(&c.type(t).info);
            view.int_constant.push_back(true);
            view.int_value.push_back(op.value);
            view.literal.push_back(0);
            continue;
        }
        const uint32_t w = argument_ids[op.value];
        uint32_t t = c.valueType(w);
        if (t == UINT32_MAX) return false;
        if (c.ids[w].constant && k < 32) in.c |= 1u << k;
        c.m.aux.insert(c.m.aux.end(), {c.reg(w), t});
        uint64_t value = 0;
        bool known = c.intConstant(w, &value);
        view.operand_types.push_back(&c.type(t).info);
        view.int_constant.push_back(known);
        view.int_value.push_back(known ? value : 0);
        view.literal.push_back(0);
    }
    if (info->check)
        if (std::string why = info->check(view); !why.empty()) return c.fail(why);
    // Which instance of this opcode in module order (OpContext::siteOrdinal).
    in.opcode = uint16_t(info->opcode);
    in.sub = uint16_t(std::count_if(c.m.code.begin(), c.m.code.end(), [&](const Insn& i) {
        return i.kind == Kind::ExtOp && i.opcode == in.opcode;
    }));
    auto it = std::find(c.m.ext_infos.begin(), c.m.ext_infos.end(), info);
    in.a = uint32_t(it - c.m.ext_infos.begin());
    if (it == c.m.ext_infos.end()) c.m.ext_infos.push_back(info);
    c.emit(in);
    return true;
}

}  // namespace refdev::spirv
