// buildModule: parses and validates a SPIR-V module, then pre-decodes it (types.cpp, functions.cpp and the
// family decoders). Never throws on bad input; every problem is one log line naming the instruction.
#include <algorithm>
#include <cstring>
#include <new>

#include "reference_device/spirv/decode.h"
#include "reference_device/spirv/opcode_table.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {
namespace {

constexpr uint32_t kMagic = 0x07230203;
constexpr uint32_t kMaxBound = 1u << 22;  // ids; keeps per-id tables bounded for hostile input
constexpr uint32_t kExecutionModelKernel = token(spv::ExecutionModel::Kernel);
constexpr uint32_t kAddressingPhysical64 = token(spv::AddressingModel::Physical64);
constexpr uint32_t kMemoryModelOpenCL = token(spv::MemoryModel::OpenCL);
constexpr uint32_t kModeLocalSize = token(spv::ExecutionMode::LocalSize);
constexpr uint32_t kModeSubgroupSize = token(spv::ExecutionMode::SubgroupSize);
constexpr uint32_t kModeMaxWorkgroupSize = token(spv::ExecutionMode::MaxWorkgroupSizeINTEL);

std::string hexWord(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

// Reads a literal string starting at word k; false when it is not NUL-terminated within the instruction.
bool readString(const RawInsn& r, uint32_t k, std::string* out, uint32_t* next) {
    out->clear();
    for (uint32_t i = k; i < r.count; ++i) {
        uint32_t w = r.w[i];
        for (int b = 0; b < 4; ++b) {
            char c = char((w >> (8 * b)) & 0xff);
            if (c == 0) {
                *next = i + 1;
                return true;
            }
            out->push_back(c);
        }
    }
    return false;
}

std::string joinSizes(const std::vector<uint32_t>& sizes) {
    std::string s;
    for (uint32_t v : sizes) s += (s.empty() ? "" : ", ") + std::to_string(v);
    return s;
}

// OpenCL.std instructions whose last operand is a literal rather than an id.
bool oclStdLastIsLiteral(uint32_t number) {
    return number == OpenCLLIB::Vloadn || number == OpenCLLIB::Vload_halfn ||
           number == OpenCLLIB::Vloada_halfn || number == OpenCLLIB::Vstore_half_r ||
           number == OpenCLLIB::Vstore_halfn_r || number == OpenCLLIB::Vstorea_halfn_r;
}

class Loader {
public:
    Loader(DecodeCtx& ctx) : c(ctx) {}
    bool run(const uint32_t* words, size_t count);

private:
    DecodeCtx& c;
    bool parse(const uint32_t* words, size_t count);
    bool checkIds();
    bool moduleLevel(size_t* first_function);
    bool globalVariable();
    bool reflect();
    std::vector<std::pair<uint32_t, std::string>> entry_points_;  // function id, name
    struct Mode {
        uint32_t fn, mode, a, b, c;
        uint32_t raw;
    };
    std::vector<Mode> modes_;
};

bool Loader::parse(const uint32_t* words, size_t count) {
    if (count < 5) {
        c.log += "module: truncated: " + std::to_string(count) + " words, the header alone takes 5\n";
        return false;
    }
    if (words[0] != kMagic) {
        c.log += "module: bad magic number " + hexWord(words[0]) + " (expected 0x07230203)\n";
        return false;
    }
    uint32_t major = (words[1] >> 16) & 0xff, minor = (words[1] >> 8) & 0xff;
    if (major != 1 || minor > 4 || (words[1] & 0xff0000ffu) != 0) {
        c.log += "module: SPIR-V version " + std::to_string(major) + "." + std::to_string(minor) +
                 " is not supported (this device accepts 1.0 to 1.4)\n";
        return false;
    }
    c.version = words[1];
    c.bound = words[3];
    if (c.bound == 0 || c.bound > kMaxBound) {
        c.log += "module: id bound " + std::to_string(c.bound) + " is out of range (1.." +
                 std::to_string(kMaxBound) + ")\n";
        return false;
    }
    if (words[4] != 0) c.log += "module: warning: reserved schema word is " + hexWord(words[4]) + "\n";
    for (size_t pos = 5; pos < count;) {
        uint32_t wc = words[pos] >> 16, op = words[pos] & 0xffff;
        const char* name = opcodeName(op, c.ext);
        std::string who = std::string(name ? name : ("opcode " + std::to_string(op)).c_str());
        if (wc == 0) {
            c.log += who + " (word " + std::to_string(pos) + "): word count 0\n";
            return false;
        }
        if (pos + wc > count) {
            c.log += who + " (word " + std::to_string(pos) + "): word count " + std::to_string(wc) +
                     " runs past the end of the module (" + std::to_string(count - pos) + " words left)\n";
            return false;
        }
        c.raw.push_back(RawInsn{op, uint32_t(pos), wc, words + pos});
        pos += wc;
    }
    return true;
}

// Operand shapes: every id is below the bound, every result is defined once, every used id is defined.
bool Loader::checkIds() {
    c.ids.assign(c.bound, IdDef{});
    std::vector<uint8_t> defined(c.bound, 0);
    std::vector<std::pair<uint32_t, uint32_t>> uses;  // (id, raw index)
    bool ok = true;
    for (uint32_t ri = 0; ri < c.raw.size(); ++ri) {
        const RawInsn& r = c.raw[ri];
        c.in = &r;
        auto useId = [&](uint32_t k) {
            if (k < r.count) uses.emplace_back(r.w[k], ri);
        };
        auto defineId = [&](uint32_t k) {
            uint32_t id = r.w[k];
            if (id == 0 || id >= c.bound) return;  // reported by the use check below
            if (defined[id]) ok = c.fail("result id %" + std::to_string(id) + " is defined twice");
            defined[id] = 1;
            c.ids[id].def = ri;
        };
        // An instruction an extension family registered is checked against the family's ExtOpInfo, even where
        // the core grammar lists it too (it lists the SPV_INTEL_* instructions of every family).
        const ExtOpInfo* ext = c.ext.find(r.opcode);
        const OpcodeEntry* core = ext ? nullptr : findCoreOpcode(r.opcode);
        if (!core && !ext) {
            ok = c.fail("unknown opcode " + std::to_string(r.opcode) +
                        " (not in the SPIR-V core grammar nor an extension instruction this device has)");
            continue;
        }
        if (ext) {
            uint32_t k = 1;
            if (ext->has_result) {
                if (r.count < 3) {
                    ok = c.fail("too few words for result type and result");
                    continue;
                }
                useId(1);
                // defineId leaves an id outside the bound to the use check: queue it there, as for core
                // results (the function decoder indexes per-id tables with every result id).
                if (r.w[2] == 0 || r.w[2] >= c.bound) uses.emplace_back(r.w[2], ri);
                defineId(2);
                k = 3;
            }
            uint32_t operands = r.count - k;
            if (operands < ext->min_operands || operands > ext->max_operands) {
                ok = c.fail("has " + std::to_string(operands) + " operands, expected " +
                            std::to_string(ext->min_operands) + ".." + std::to_string(ext->max_operands));
                continue;
            }
            for (uint32_t j = 0; j < operands && j < ext->first_literal; ++j) useId(k + j);
            continue;
        }
        uint32_t k = 1;
        bool rest_literal = false;
        for (const char* s = core->shape; *s && k <= r.count && !rest_literal; ++s) {
            bool have = k < r.count;
            switch (*s) {
                case 't':
                case 'i':
                    if (!have) {
                        ok = c.fail("too few operands");
                        rest_literal = true;
                        break;
                    }
                    useId(k++);
                    break;
                case 'r':
                    if (!have) {
                        ok = c.fail("too few operands: no result id");
                        rest_literal = true;
                        break;
                    }
                    if (r.w[k] == 0 || r.w[k] >= c.bound) uses.emplace_back(r.w[k], ri);
                    defineId(k++);
                    break;
                case 'j':
                    if (have) useId(k++);
                    break;
                case 'I':
                case 'Q':
                    while (k < r.count) useId(k++);
                    break;
                case 'G':
                    // The mask is a literal; every operand it announces is an id, and the flag-only bits
                    // (SignExtend, ZeroExtend, Nontemporal, ...) announce none.
                    if (have) ++k;
                    while (k < r.count) useId(k++);
                    break;
                case 'R':
                    while (k < r.count) {
                        useId(k);
                        k += 2;
                    }
                    break;
                case 'l':
                    if (!have) {
                        ok = c.fail("too few operands");
                        rest_literal = true;
                        break;
                    }
                    ++k;
                    break;
                case 'o':
                    if (have) ++k;
                    break;
                case 's':
                case 'S': {
                    if (!have && *s == 'S') break;
                    std::string str;
                    uint32_t next = 0;
                    if (!readString(r, k, &str, &next)) {
                        ok = c.fail("literal string is not NUL-terminated within the instruction");
                        rest_literal = true;
                        break;
                    }
                    k = next;
                    break;
                }
                case 'x': {
                    if (!have) {
                        ok = c.fail("too few operands");
                        rest_literal = true;
                        break;
                    }
                    uint32_t number = r.w[k++];
                    uint32_t end = r.count;
                    if (r.w[3] == c.opencl_std && oclStdLastIsLiteral(number) && end > k) --end;
                    while (k < end) useId(k++);
                    rest_literal = true;
                    break;
                }
                default: rest_literal = true; break;  // literal tails: L, E, M, P
            }
        }
        // OpExtInstImport must be known before OpExtInst operands can be classified.
        if (r.opcode == token(spv::Op::OpExtInstImport) && r.count >= 3) {
            std::string name;
            uint32_t next = 0;
            if (readString(r, 2, &name, &next) && name == "OpenCL.std" && r.w[1] < c.bound)
                c.opencl_std = r.w[1];
        }
    }
    for (auto& u : uses) {
        c.in = &c.raw[u.second];
        if (u.first == 0 || u.first >= c.bound)
            ok = c.fail("id %" + std::to_string(u.first) + " is outside the id bound " +
                        std::to_string(c.bound));
        else if (!defined[u.first])
            ok = c.fail("id %" + std::to_string(u.first) + " is used but never defined");
    }
    return ok;
}

bool Loader::moduleLevel(size_t* first_function) {
    bool memory_model = false;
    size_t i = 0;
    for (; i < c.raw.size(); ++i) {
        const RawInsn& r = c.raw[i];
        c.in = &r;
        switch (r.opcode) {
            case token(spv::Op::OpCapability): {
                c.capabilities.push_back(c.word(1));
                if (!c.profile.buildsCapability(c.word(1)))
                    c.fail("capability " + std::to_string(c.word(1)) +
                           " is not supported by this device (profile " + c.profile.name + ")");
                break;
            }
            case token(spv::Op::OpExtension): {
                std::string name;
                uint32_t next;
                readString(r, 1, &name, &next);
                if (!c.profile.buildsSpirvExtension(name))
                    c.fail("extension " + name + " is not supported by this device (profile " +
                           c.profile.name + ")");
                break;
            }
            case token(spv::Op::OpExtInstImport): {
                std::string name;
                uint32_t next;
                readString(r, 2, &name, &next);
                // Debug information (OpenCL.DebugInfo.100, NonSemantic.*) changes no result: its instructions
                // are skipped wherever they stand.
                if (name == "OpenCL.DebugInfo.100" || name.compare(0, 12, "NonSemantic.") == 0)
                    c.ignored_sets.push_back(c.word(1));
                else if (name != "OpenCL.std")
                    c.fail("extended instruction set \"" + name +
                           "\" is not supported (only OpenCL.std, and OpenCL.DebugInfo.100 and NonSemantic.* "
                           "ignored)");
                c.ids[c.word(1)].what = IdDef::ExtSet;
                break;
            }
            case token(spv::Op::OpMemoryModel):
                memory_model = true;
                if (c.word(1) != kAddressingPhysical64)
                    c.fail("addressing model " + std::to_string(c.word(1)) +
                           " is not supported (only Physical64)");
                if (c.word(2) != kMemoryModelOpenCL)
                    c.fail("memory model " + std::to_string(c.word(2)) + " is not supported (only OpenCL)");
                break;
            case token(spv::Op::OpEntryPoint): {
                std::string name;
                uint32_t next;
                readString(r, 3, &name, &next);
                if (c.word(1) != kExecutionModelKernel)
                    c.fail("execution model " + std::to_string(c.word(1)) +
                           " is not supported (only Kernel)");
                else
                    entry_points_.emplace_back(c.word(2), name);
                break;
            }
            case token(spv::Op::OpExecutionMode): {
                Mode md{c.word(1), c.word(2), c.word(3), c.word(4), c.word(5), uint32_t(i)};
                if (md.mode == kModeSubgroupSize) {
                    if (r.count < 4) {
                        c.fail("SubgroupSize needs a size operand");
                    } else if (!std::count(c.profile.sub_group_sizes.begin(), c.profile.sub_group_sizes.end(),
                                           md.a)) {
                        c.fail("SubgroupSize " + std::to_string(md.a) +
                               " is not a sub-group size this device supports (" +
                               joinSizes(c.profile.sub_group_sizes) + ")");
                    }
                } else if (md.mode == kModeLocalSize && r.count < 6) {
                    c.fail("LocalSize needs three operands");
                } else if (md.mode == kModeMaxWorkgroupSize && (r.count < 6 || !md.a || !md.b || !md.c)) {
                    c.fail("MaxWorkgroupSizeINTEL needs three sizes of at least 1");
                }
                modes_.push_back(md);
                break;
            }
            case token(spv::Op::OpExecutionModeId): break;  // hints only
            case token(spv::Op::OpName): {
                std::string name;
                uint32_t next;
                readString(r, 2, &name, &next);
                c.names[c.word(1)] = name;
                break;
            }
            case token(spv::Op::OpDecorate):
                if (r.count >= 3) c.decorations.push_back({c.word(1), c.word(2), c.word(3)});
                if (r.count >= 4 && c.word(2) == token(spv::Decoration::LinkageAttributes)) {
                    std::string name;
                    uint32_t next = 0;
                    if (readString(r, 3, &name, &next) && next < r.count &&
                        r.w[next] == token(spv::LinkageType::Import))
                        c.import_names[c.word(1)] = name;
                }
                break;
            case token(spv::Op::OpDecorationGroup): c.ids[c.word(1)].what = IdDef::Group; break;
            case token(spv::Op::OpGroupDecorate):  // copy the group's decorations
                for (uint32_t k = 2; k < r.count; ++k) {
                    size_t n = c.decorations.size();
                    for (size_t d = 0; d < n; ++d)
                        if (c.decorations[d].target == c.word(1))
                            c.decorations.push_back(
                                {r.w[k], c.decorations[d].decoration, c.decorations[d].value});
                }
                break;
            case token(spv::Op::OpString): c.ids[c.word(1)].what = IdDef::String; break;
            case token(spv::Op::OpSourceContinued):
            case token(spv::Op::OpSource):
            case token(spv::Op::OpSourceExtension):
            case token(spv::Op::OpMemberName):
            case token(spv::Op::OpLine):
            case token(spv::Op::OpMemberDecorate):
            case token(spv::Op::OpNoLine):
            case token(spv::Op::OpModuleProcessed):
            case token(spv::Op::OpNop):
            case token(spv::Op::OpDecorateId):
            case token(spv::Op::OpDecorateString):
            case token(spv::Op::OpMemberDecorateString):
                break;  // debug information, member/id/string decorations (none changes execution), OpNop
            case token(spv::Op::OpVariable): globalVariable(); break;
            case token(spv::Op::OpExtInst):
                if (!c.ignoredExtInst()) c.fail("is not allowed at module scope");
                break;
            case token(spv::Op::OpFunction):
                *first_function = i;
                if (!memory_model) c.fail("no OpMemoryModel before the first function");
                return true;
            default:
                if (declareType(c) || declareConstant(c)) break;
                c.fail("is not allowed or not supported at module scope");
                break;
        }
    }
    *first_function = i;
    if (!memory_model) c.failModule("no OpMemoryModel");
    return true;
}

constexpr struct {
    uint32_t builtin;
    uint32_t offset;
} kBuiltins[] = {
    {token(spv::BuiltIn::GlobalInvocationId), builtin::GlobalInvocationId},
    {token(spv::BuiltIn::LocalInvocationId), builtin::LocalInvocationId},
    {token(spv::BuiltIn::WorkgroupId), builtin::WorkgroupId},
    {token(spv::BuiltIn::NumWorkgroups), builtin::NumWorkgroups},
    {token(spv::BuiltIn::WorkgroupSize), builtin::WorkgroupSize},
    {token(spv::BuiltIn::GlobalSize), builtin::GlobalSize},
    {token(spv::BuiltIn::GlobalOffset), builtin::GlobalOffset},
    {token(spv::BuiltIn::EnqueuedWorkgroupSize), builtin::EnqueuedWorkgroupSize},
    {token(spv::BuiltIn::GlobalLinearId), builtin::GlobalLinearId},
    {token(spv::BuiltIn::LocalInvocationIndex), builtin::LocalInvocationIndex},
    {token(spv::BuiltIn::SubgroupSize), builtin::SubgroupSize},
    {token(spv::BuiltIn::SubgroupMaxSize), builtin::SubgroupMaxSize},
    {token(spv::BuiltIn::NumSubgroups), builtin::NumSubgroups},
    {token(spv::BuiltIn::NumEnqueuedSubgroups), builtin::NumEnqueuedSubgroups},
    {token(spv::BuiltIn::SubgroupId), builtin::SubgroupId},
    {token(spv::BuiltIn::SubgroupLocalInvocationId), builtin::SubgroupLocalInvocationId},
    {token(spv::BuiltIn::WorkDim), builtin::WorkDim},
};

bool Loader::globalVariable() {
    uint32_t ptr_type = c.typeIndex(c.word(1));
    if (ptr_type == UINT32_MAX) return false;
    const Type& pt = c.type(ptr_type);
    if (pt.info.kind != TypeInfo::Kind::Pointer || pt.elem == UINT32_MAX)
        return c.fail("result type of OpVariable is not a pointer type");
    uint32_t storage = c.word(3);
    if (storage != pt.info.storage_class) return c.fail("storage class does not match the pointer type");
    const Type& pointee = c.type(pt.elem);
    uint32_t id = c.word(2);
    c.defineResult(c.word(1));
    c.ids[id].address = true;
    GlobalVar g{GlobalSpace::Private, c.reg(id), 0};
    uint32_t init = c.words() > 4 ? c.word(4) : UINT32_MAX;
    uint32_t init_type = UINT32_MAX;
    if (init != UINT32_MAX) {
        init_type = c.valueType(init, "initializer");
        if (init_type == UINT32_MAX) return false;
        if (c.ids[init].address)
            return c.fail("initializer depends on a variable's address, known only at launch: not supported");
        if (!c.ids[init].constant) return c.fail("initializer is not a constant");
        if (!sameShape(c.type(init_type), pointee))
            return c.fail("initializer type does not match the pointee");
    }
    auto alignUp = [](uint32_t v, uint32_t a) { return (v + a - 1) / a * a; };
    uint32_t align = 0;
    switch (storage) {
        case token(spv::StorageClass::Input): {
            uint32_t which = 0;
            if (!c.decorated(id, token(spv::Decoration::BuiltIn), &which))
                return c.fail("Input variable without a BuiltIn decoration");
            g.space = GlobalSpace::Builtin;
            bool found = false;
            for (auto& b : kBuiltins)
                if (b.builtin == which) {
                    g.offset = b.offset;
                    found = true;
                }
            if (!found) return c.fail("BuiltIn " + std::to_string(which) + " is not supported");
            break;
        }
        case token(spv::StorageClass::Workgroup):
            g.space = GlobalSpace::Workgroup;
            if (!(align = c.variableAlign(id, pointee, 16))) return false;
            g.offset = alignUp(c.m.local_static_size, align);
            c.m.local_static_size = g.offset + pointee.mem_size;
            break;
        case token(spv::StorageClass::UniformConstant): {  // constant data with an initializer
            if (init == UINT32_MAX)
                return c.fail("UniformConstant variable without an initializer is not supported");
            g.space = GlobalSpace::Constant;
            if (!(align = c.variableAlign(id, pointee, 16))) return false;
            g.offset = alignUp(uint32_t(c.m.const_data.size()), align);
            c.m.const_data.resize(g.offset + pointee.mem_size, 0);
            std::memcpy(c.m.const_data.data() + g.offset, c.m.reg_init.data() + c.reg(init),
                        c.type(init_type).reg_size);
            break;
        }
        case token(spv::StorageClass::Private):
            g.space = GlobalSpace::Private;
            if (!(align = c.variableAlign(id, pointee, 16))) return false;
            g.offset = alignUp(c.m.private_size, align);
            c.m.private_size = g.offset + pointee.mem_size;
            if (init != UINT32_MAX) {
                g.init_reg = c.reg(init);
                g.init_size = c.type(init_type).reg_size;
            }
            break;
        default:
            return c.fail("module-scope variable in storage class " + std::to_string(storage) +
                          " is not supported");
    }
    c.m.globals.push_back(g);
    return true;
}

std::string typeName(const Module& m, const Type& t) {
    // Iterative with a depth limit: forward pointers can make a pointer type point to itself.
    std::string stars;
    const Type* cur = &t;
    for (int depth = 0; depth < 8 && cur->name.empty(); ++depth) {
        if (cur->info.kind != TypeInfo::Kind::Pointer || cur->elem == UINT32_MAX) return "";
        stars += "*";
        cur = &m.types[cur->elem];
    }
    return cur->name.empty() ? "" : cur->name + stars;
}

bool Loader::reflect() {
    for (auto& ep : entry_points_) {
        uint32_t fn = ep.first;
        Kernel* k = nullptr;
        for (Kernel& cand : c.m.kernels)
            if (cand.function_id == fn) k = &cand;
        if (!k) {
            c.failModule("entry point \"" + ep.second + "\" names no function with a body");
            continue;
        }
        if (c.m.findKernel(ep.second)) {
            c.failModule("two entry points are named \"" + ep.second + "\"");
            continue;
        }
        if (!k->name.empty()) {
            c.failModule("function %" + std::to_string(fn) + " is named by two entry points");
            continue;
        }
        k->name = ep.second;
    }
    // Drop functions that are not entry points.
    c.m.kernels.erase(std::remove_if(c.m.kernels.begin(), c.m.kernels.end(),
                                     [](const Kernel& k) { return k.name.empty(); }),
                      c.m.kernels.end());
    for (Kernel& k : c.m.kernels) {
        KernelInfo info;
        info.name = k.name;
        for (const Mode& md : modes_) {
            if (md.fn != k.function_id) continue;
            if (md.mode == kModeSubgroupSize) k.sub_group_size = info.required_sub_group_size = md.a;
            if (md.mode == kModeLocalSize) {
                info.reqd_work_group_size[0] = md.a;
                info.reqd_work_group_size[1] = md.b;
                info.reqd_work_group_size[2] = md.c;
            }
            if (md.mode == kModeMaxWorkgroupSize) {
                info.max_work_group_size[0] = md.a;
                info.max_work_group_size[1] = md.b;
                info.max_work_group_size[2] = md.c;
            }
        }
        for (const KernelParam& p : k.params) {
            const Type& t = c.type(p.type);
            KernelArgInfo a;
            a.name = c.names[p.id];
            a.type_name = typeName(c.m, t);
            if (t.info.kind == TypeInfo::Kind::Pointer) {
                a.size = 8;
                switch (t.info.storage_class) {
                    case token(spv::StorageClass::CrossWorkgroup): a.kind = ArgKind::GlobalBuffer; break;
                    case token(spv::StorageClass::UniformConstant): a.kind = ArgKind::ConstantBuffer; break;
                    case token(spv::StorageClass::Workgroup): a.kind = ArgKind::LocalBuffer; break;
                    case token(spv::StorageClass::Function):  // ByVal aggregate: passed as a value of the
                                                              // pointee's size
                        a.kind = ArgKind::Value;
                        a.size = c.type(t.elem).mem_size;
                        a.type_name = typeName(c.m, c.type(t.elem));
                        break;
                    default: a.kind = ArgKind::GlobalBuffer; break;
                }
            } else if (t.info.kind == TypeInfo::Kind::Image) {
                a.kind = ArgKind::Image;
                a.size = 8;
                a.access = t.access;
            } else if (t.info.kind == TypeInfo::Kind::Sampler) {
                a.kind = ArgKind::Sampler;
                a.size = 8;
            } else {
                a.kind = ArgKind::Value;
                a.size = t.mem_size;
            }
            info.args.push_back(a);
        }
        c.m.kernel_infos.push_back(std::move(info));
    }
    return c.errors == 0;
}

bool Loader::run(const uint32_t* words, size_t count) {
    if (!words && count) count = 0;
    if (!parse(words, count)) return false;
    c.names.assign(c.bound, std::string());
    if (!checkIds()) return false;
    size_t first_function = 0;
    moduleLevel(&first_function);
    if (c.errors) return false;
    if (!decodeFunctions(c, first_function)) return false;
    if (!c.launch_constants.empty()) {
        c.m.launch_constants_pc = uint32_t(c.m.code.size());
        c.m.code.insert(c.m.code.end(), c.launch_constants.begin(), c.launch_constants.end());
        Insn ret;
        ret.kind = Kind::Return;
        c.m.code.push_back(ret);
    }
    // Per-work-item state is allocated for every lane of a work-group: keep it within what a device has.
    constexpr uint32_t kMaxPrivateBytes = 1u << 20, kMaxLocalBytes = 1u << 20, kMaxRegisterBytes = 1u << 24;
    if (c.m.private_size > kMaxPrivateBytes)
        c.failModule("private memory of " + std::to_string(c.m.private_size) +
                     " bytes per work-item exceeds this device's 1 MiB");
    if (c.m.local_static_size > kMaxLocalBytes)
        c.failModule("Workgroup variables of " + std::to_string(c.m.local_static_size) +
                     " bytes exceed this device's 1 MiB of local memory");
    if (c.reg_size > kMaxRegisterBytes)
        c.failModule("the module's values need " + std::to_string(c.reg_size) +
                     " bytes per work-item (limit 16 MiB)");
    if (c.errors) return false;
    // Parameter names come from OpName of the OpFunctionParameter ids (recorded as KernelParam::reg order).
    if (!reflect()) return false;
    // Planted compiler bugs see only modules that are otherwise valid, as a real compiler's back end does.
    return !c.faults || !c.faults->any() || checkBuildFaults(c, first_function);
}

}  // namespace

bool DecodeCtx::failAt(const RawInsn& r, const std::string& why) {
    const char* name = opcodeName(r.opcode, ext);
    log += (name ? std::string(name) : "opcode " + std::to_string(r.opcode)) + " (word " +
           std::to_string(r.offset) + "): " + why + "\n";
    ++errors;
    return false;
}

bool DecodeCtx::fail(const std::string& why) {
    return in ? failAt(*in, why) : failModule(why);
}

bool DecodeCtx::failModule(const std::string& why) {
    log += "module: " + why + "\n";
    ++errors;
    return false;
}

BuildResult buildModule(const uint32_t* words, size_t word_count, const Profile& profile,
                        const ExtOpTable& table, const Faults* faults) {
    BuildResult result;
    try {
        auto module = std::make_shared<Module>();
        module->ext_table = &table;
        DecodeCtx ctx(*module, profile, table);
        ctx.faults = faults;
        Loader loader(ctx);
        bool ok = loader.run(words, word_count) && ctx.errors == 0;
        result.log = ctx.log;
        if (ok) {
            module->reg_init.resize(ctx.reg_size, 0);
            result.module = module;
        }
    } catch (const std::bad_alloc&) {
        result.module = nullptr;
        result.log += "module: out of memory while building\n";
    }
    return result;
}

BuildResult buildModule(const uint32_t* words, size_t word_count, const Profile& profile) {
    return buildModule(words, word_count, profile, extOps());
}

BuildResult buildModule(const uint32_t* words, size_t word_count, const Profile& profile,
                        const Faults& faults) {
    return buildModule(words, word_count, profile, extOps(), &faults);
}

const std::vector<KernelInfo>& kernels(const Module& module) {
    return module.kernel_infos;
}

uint32_t subGroupSize(const Module& module, const std::string& kernel, const Profile& profile) {
    const Kernel* k = module.findKernel(kernel);
    if (k && k->sub_group_size) return k->sub_group_size;
    return profile.default_sub_group_size;
}

}  // namespace refdev::spirv
