// OpGroupAsyncCopy and OpGroupWaitEvents (Kernel capability; OpenCL C async_work_group_copy,
// async_work_group_strided_copy and wait_group_events). Every work-item of the work-group reaches the copy
// with the same operands, so the interpreter stops them all there (Kind::AsyncCopy, like a barrier) and
// copies once: the copy is complete when the instruction returns, and waiting for its event is a work-group
// barrier.
#include <cstring>

#include "reference_device/spirv/decode.h"
#include "reference_device/spirv/interp.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {
namespace {

using K = TypeInfo::Kind;
constexpr uint32_t kWorkgroup = token(spv::StorageClass::Workgroup),
                   kCrossWorkgroup = token(spv::StorageClass::CrossWorkgroup),
                   kScopeWorkgroup = token(spv::Scope::Workgroup);

uint64_t loadUnsigned(const uint8_t* regs, uint32_t off, uint32_t bytes) {
    uint64_t v = 0;
    std::memcpy(&v, regs + off, bytes);
    return v;
}

// Insn layout of AsyncCopy: a = Destination, b = Source, c = Num Elements, n = element bytes in memory,
// flags = 1 when the destination is local (the Stride then steps through the source), width = bytes of
// Num Elements, aux -> [Stride register, Stride bytes, Event register].
constexpr uint8_t kToLocal = 1;

}  // namespace

bool decodeAsyncCopy(DecodeCtx& c) {
    const uint32_t op = c.in->opcode;
    const bool copy = op == token(spv::Op::OpGroupAsyncCopy);
    uint64_t scope = 0;
    if (!c.intConstant(c.word(copy ? 3 : 1), &scope))
        return c.fail("Execution scope is not an integer constant");
    if (scope != kScopeWorkgroup) return c.fail("Execution scope must be Workgroup");
    if (!copy) {  // OpGroupWaitEvents: Num Events, Events List
        const uint32_t nt = c.valueType(c.word(2), "Num Events");
        const uint32_t lt = c.valueType(c.word(3), "Events List");
        if (nt == UINT32_MAX || lt == UINT32_MAX) return false;
        if (c.type(nt).info.kind != K::Int) return c.fail("Num Events is not an integer scalar");
        const Type& list = c.type(lt);
        if (list.info.kind != K::Pointer || list.elem == UINT32_MAX ||
            c.type(list.elem).info.kind != K::Event)
            return c.fail("Events List is not a pointer to events");
        // The copies are complete when OpGroupAsyncCopy returns: waiting is a work-group barrier.
        c.emit(c.start(Kind::Barrier));
        return true;
    }
    if (c.words() != 9) return c.fail("takes Execution, Destination, Source, Num Elements, Stride and Event");
    Insn in = c.start(Kind::AsyncCopy);
    const Type& rt = c.type(c.ids[c.word(2)].type);
    if (rt.info.kind != K::Event) return c.fail("Result Type is not OpTypeEvent");
    in.res = c.reg(c.word(2));
    uint32_t types[5];
    const char* names[5] = {"Destination", "Source", "Num Elements", "Stride", "Event"};
    for (uint32_t k = 0; k < 5; ++k)
        if ((types[k] = c.valueType(c.word(4 + k), names[k])) == UINT32_MAX) return false;
    const Type &dst = c.type(types[0]), &src = c.type(types[1]);
    if (dst.info.kind != K::Pointer || src.info.kind != K::Pointer || dst.elem == UINT32_MAX ||
        src.elem == UINT32_MAX)
        return c.fail("Destination and Source must be pointers");
    const uint32_t ds = dst.info.storage_class, ss = src.info.storage_class;
    if (!((ds == kWorkgroup && ss == kCrossWorkgroup) || (ds == kCrossWorkgroup && ss == kWorkgroup)))
        return c.fail("copies between Workgroup and CrossWorkgroup memory only (Destination storage class " +
                      std::to_string(ds) + ", Source " + std::to_string(ss) + ")");
    const Type& elem = c.type(dst.elem);
    if (!sameShape(elem, c.type(src.elem))) return c.fail("Destination and Source point to different types");
    if (elem.mem_size == 0) return c.fail("the element type has no size");
    if (c.type(types[2]).info.kind != K::Int || c.type(types[3]).info.kind != K::Int)
        return c.fail("Num Elements and Stride must be integer scalars");
    if (c.type(types[4]).info.kind != K::Event) return c.fail("Event is not an event");
    in.a = c.reg(c.word(4));
    in.b = c.reg(c.word(5));
    in.c = c.reg(c.word(6));
    in.width = uint8_t(c.type(types[2]).info.byte_size);
    in.n = elem.mem_size;
    in.flags = ds == kWorkgroup ? kToLocal : 0;
    in.aux = uint32_t(c.m.aux.size());
    c.m.aux.insert(c.m.aux.end(), {c.reg(c.word(7)), c.type(types[3]).info.byte_size, c.reg(c.word(8))});
    c.emit(in);
    return true;
}

bool execAsyncCopy(GroupRun& g, uint32_t pc) {
    const Insn& in = g.m->code[pc];
    const uint32_t* aux = g.m->aux.data() + in.aux;
    Lane& first = g.lanes[0];
    // Operand registers, with their sizes: each must hold the same value in every work-item.
    const struct {
        uint32_t reg, bytes;
        const char* name;
    } operands[] = {{in.a, 8, "Destination"},
                    {in.b, 8, "Source"},
                    {in.c, in.width, "Num Elements"},
                    {aux[0], aux[1], "Stride"},
                    {aux[2], 8, "Event"}};
    for (uint32_t i = 1; i < g.lane_count; ++i)
        for (const auto& op : operands)
            if (std::memcmp(g.lanes[i].regs + op.reg, first.regs + op.reg, op.bytes) != 0) {
                g.fail(g.lanes[i], in,
                       std::string("undefined behaviour: ") + op.name +
                           " differs between the work-items of the work-group (work-group functions take "
                           "the same arguments in every work-item)");
                return false;
            }
    const uint64_t dst = rd<uint64_t>(first.regs, in.a), src = rd<uint64_t>(first.regs, in.b);
    const uint64_t count = loadUnsigned(first.regs, in.c, in.width);
    uint64_t stride = loadUnsigned(first.regs, aux[0], aux[1]);
    // A driver that runs every copy as a contiguous one.
    if (g.shared->faults->has("async_copy_stride_ignored")) stride = 1;
    const uint64_t size = in.n;
    const bool to_local = in.flags == kToLocal;
    // The last element's byte offset on either side must not wrap around the address space.
    const unsigned __int128 last = (unsigned __int128)(count ? count - 1 : 0) * (stride ? stride : 1);
    if (last > (uint64_t(-1) >> 1) / size) {
        g.fail(first, in,
               "undefined behaviour: " + std::to_string(count) + " elements with stride " +
                   std::to_string(stride) + " reach beyond the address space");
        return false;
    }
    for (uint64_t i = 0; i < count; ++i) {
        const uint64_t s = src + (to_local ? i * stride : i) * size,
                       d = dst + (to_local ? i : i * stride) * size;
        const uint8_t* from = g.access(first, in, s, size, false);
        if (!from) return false;
        uint8_t* to = g.access(first, in, d, size, true);
        if (!to) return false;
        std::memmove(to, from, size);
    }
    // The event returned is the one passed in (the copy joins it) or a fresh one; either is complete.
    uint64_t event = rd<uint64_t>(first.regs, aux[2]);
    if (event == 0) event = uint64_t(pc) + 1;
    for (uint32_t i = 0; i < g.lane_count; ++i) wr<uint64_t>(g.lanes[i].regs, in.res, event);
    return true;
}

}  // namespace refdev::spirv
