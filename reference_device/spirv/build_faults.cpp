// Planted build faults (ExtOpTable::addBuildFault): real compilers reject some valid modules at
// clBuildProgram. Each kernel of a module that otherwise built is shown with its SubgroupSize and the
// extension instructions it reaches (imported built-in calls count as the instruction they resolve to), since
// a compiler judges what it compiles for that kernel.
#include <map>
#include <set>

#include "reference_device/spirv/decode.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {
namespace {

struct FunctionBody {
    std::vector<uint32_t> callees;
    std::vector<KernelBuildView::Use> uses;
};

KernelBuildView view(const Kernel& k, const std::vector<uint32_t>& order,
                     const std::map<uint32_t, FunctionBody>& bodies) {
    KernelBuildView v;
    v.name = k.name;
    v.sub_group_size = k.sub_group_size;
    // The functions the kernel reaches (the decoder rejected recursion and calls to missing bodies).
    std::set<uint32_t> reached;
    std::vector<uint32_t> todo{k.function_id};
    while (!todo.empty()) {
        uint32_t fn = todo.back();
        todo.pop_back();
        if (!reached.insert(fn).second) continue;
        const FunctionBody& b = bodies.at(fn);
        todo.insert(todo.end(), b.callees.begin(), b.callees.end());
    }
    // Uses in module order, so an error names the first offending instruction of the module.
    for (uint32_t fn : order)
        if (reached.count(fn)) {
            const FunctionBody& b = bodies.at(fn);
            v.uses.insert(v.uses.end(), b.uses.begin(), b.uses.end());
        }
    return v;
}

}  // namespace

bool checkBuildFaults(DecodeCtx& c, size_t first_raw) {
    if (!c.faults || c.ext.buildFaults().empty()) return true;
    std::map<uint32_t, FunctionBody> bodies;  // by function id
    std::vector<uint32_t> order;              // function ids in module order
    FunctionBody* body = nullptr;
    // The module decoded, so every instruction has the words and ids read here.
    for (size_t i = first_raw; i < c.raw.size(); ++i) {
        const RawInsn& r = c.raw[i];
        if (r.opcode == token(spv::Op::OpFunction)) {
            order.push_back(r.w[2]);
            body = &bodies[r.w[2]];
        } else if (r.opcode == token(spv::Op::OpFunctionEnd)) {
            body = nullptr;
        } else if (!body) {
            continue;
        } else if (r.opcode == token(spv::Op::OpFunctionCall)) {
            // A call of an imported built-in is the instruction it was resolved to (builtins.cpp).
            auto builtin = c.builtin_calls.find(i);
            const ExtOpInfo* info = builtin == c.builtin_calls.end() ? nullptr : c.ext.find(builtin->second);
            if (info)
                body->uses.push_back(
                    {builtin->second, info->has_result ? &c.type(c.ids[r.w[2]].type).info : nullptr});
            else
                body->callees.push_back(r.w[3]);
        } else if (const ExtOpInfo* info = c.ext.find(r.opcode)) {
            const TypeInfo* result = info->has_result ? &c.type(c.ids[r.w[2]].type).info : nullptr;
            body->uses.push_back({r.opcode, result});
        }
    }
    std::string errors;
    for (const Kernel& k : c.m.kernels) {
        const KernelBuildView v = view(k, order, bodies);
        for (BuildFault check : c.ext.buildFaults())
            if (std::string why = check(v, *c.faults); !why.empty())
                errors += "error: " + k.name + ": " + why + "\n";
    }
    if (errors.empty()) return true;
    // First in the log: a test reports the first line of a failed build.
    c.log = errors + c.log;
    ++c.errors;
    return false;
}

}  // namespace refdev::spirv
