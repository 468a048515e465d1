// linkModules (program.h): merges SPIR-V modules into one, renumbering each module's ids past the previous
// ones, resolving LinkageAttributes Import declarations against Export definitions by name and declaring
// identical types and constants once (mergeDuplicates). Works on words with the core grammar's operand shapes
// (opcode_table.h) and the extension table; the merged module is then built like any other, so the loader
// checks what the linker leaves alone (types, calls, capabilities).
#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "reference_device/spirv/builtins.h"
#include "reference_device/spirv/ext_ops.h"
#include "reference_device/spirv/opcode_table.h"
#include "reference_device/spirv/program.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {
namespace {

constexpr uint32_t kMagic = 0x07230203;
constexpr uint32_t kExport = token(spv::LinkageType::Export);
constexpr uint32_t kImport = token(spv::LinkageType::Import);
constexpr uint32_t kLinkOnceODR = token(spv::LinkageType::LinkOnceODR);

std::string readString(const uint32_t* w, uint32_t from, uint32_t count, uint32_t* next) {
    std::string s;
    for (uint32_t i = from; i < count; ++i)
        for (int b = 0; b < 4; ++b) {
            char ch = char((w[i] >> (8 * b)) & 0xff);
            if (!ch) {
                *next = i + 1;
                return s;
            }
            s += ch;
        }
    *next = count;
    return s;
}

bool oclStdLastIsLiteral(uint32_t number) {
    return number == OpenCLLIB::Vloadn || number == OpenCLLIB::Vload_halfn ||
           number == OpenCLLIB::Vloada_halfn || number == OpenCLLIB::Vstore_half_r ||
           number == OpenCLLIB::Vstore_halfn_r || number == OpenCLLIB::Vstorea_halfn_r;
}

struct LinkInsn {
    uint32_t op = 0, count = 0;
    const uint32_t* w = nullptr;
    std::vector<uint32_t> ids;  // word positions holding ids (result type and result included)
    bool result = false;        // ids[0] or ids[1] is a result: the position is result_at
    uint32_t result_at = 0;
};

struct Input {
    uint32_t version = 0, bound = 0, offset = 0;
    std::vector<LinkInsn> insns;
    size_t first_function = 0;
};

struct Linkage {
    std::string name;
    uint32_t type = 0;  // Export, Import, LinkOnceODR
    uint32_t id = 0;    // global (renumbered) id
    size_t module = 0;
    bool function = false;  // else a variable
    bool has_body = false;
    bool builtin = false;  // a variable decorated BuiltIn: the device provides it
    uint32_t params = 0;
    size_t first = 0, last = 0;  // instruction range of the function or the variable
};

class Linker {
public:
    std::string log;
    bool run(const std::vector<std::vector<uint32_t>>& modules, bool library, std::vector<uint32_t>* out);

private:
    std::vector<Input> in_;
    std::unordered_map<uint32_t, uint32_t> redirect_;  // global id -> the id that replaces it
    std::set<uint32_t> dropped_;                       // global ids whose definitions are left out
    std::vector<std::vector<uint8_t>> skip_;           // per module, per instruction: left out
    std::set<uint32_t> merged_;  // global ids of types and constants replaced by an identical earlier one

    bool parse(size_t m, const std::vector<uint32_t>& words);
    bool operands(size_t m, LinkInsn& insn, const std::map<uint32_t, uint32_t>& widths,
                  const std::set<uint32_t>& ocl_std);
    uint32_t global(size_t m, uint32_t id) const { return in_[m].offset + id; }
    uint32_t mapped(uint32_t g) const {
        for (int hops = 0; hops < 8; ++hops) {  // redirections do not chain in practice; bounded anyway
            auto it = redirect_.find(g);
            if (it == redirect_.end()) return g;
            g = it->second;
        }
        return g;
    }
    std::vector<Linkage> linkages();
    void drop(const Linkage& l);
    void mergeDuplicates();
    bool fail(const std::string& why) {
        log += "error: " + why + "\n";
        return false;
    }
};

bool Linker::parse(size_t m, const std::vector<uint32_t>& words) {
    const std::string who = "module " + std::to_string(m + 1);
    if (words.size() < 5 || words[0] != kMagic)
        return fail(who + ": not a SPIR-V module (bad magic number or shorter than the 5-word header)");
    Input& input = in_[m];
    input.version = words[1];
    input.bound = words[3];
    if (input.bound == 0 || input.bound > (1u << 22)) return fail(who + ": id bound out of range");
    std::map<uint32_t, uint32_t> widths;  // value id -> bits of its integer type (OpSwitch literals)
    std::map<uint32_t, uint32_t> int_types;
    std::set<uint32_t> ocl_std;
    bool in_function = false;
    input.first_function = SIZE_MAX;
    for (size_t pos = 5; pos < words.size();) {
        uint32_t wc = words[pos] >> 16;
        if (wc == 0 || pos + wc > words.size())
            return fail(who + ": instruction at word " + std::to_string(pos) + " has a bad word count");
        LinkInsn insn;
        insn.op = words[pos] & 0xffffu;
        insn.count = wc;
        insn.w = words.data() + pos;
        if (insn.op == token(spv::Op::OpTypeInt) && wc >= 3) int_types[insn.w[1]] = insn.w[2];
        if (insn.op == token(spv::Op::OpExtInstImport) && wc >= 3) {
            uint32_t next = 0;
            if (readString(insn.w, 2, wc, &next) == "OpenCL.std") ocl_std.insert(insn.w[1]);
        }
        if (!operands(m, insn, widths, ocl_std))
            return fail(who + ": instruction at word " + std::to_string(pos) + " (opcode " +
                        std::to_string(insn.op) + ") is not one this device knows, or is malformed");
        for (uint32_t p : insn.ids)
            if (insn.w[p] == 0 || insn.w[p] >= input.bound)
                return fail(who + ": instruction at word " + std::to_string(pos) + " uses id %" +
                            std::to_string(insn.w[p]) + ", outside the id bound");
        if (insn.result && insn.ids.size() >= 2 && insn.ids[0] == 1 && int_types.count(insn.w[1]))
            widths[insn.w[2]] = int_types[insn.w[1]];
        if (insn.op == token(spv::Op::OpFunction) && !in_function) {
            in_function = true;
            if (input.first_function == SIZE_MAX) input.first_function = input.insns.size();
        }
        input.insns.push_back(std::move(insn));
        pos += wc;
    }
    if (input.first_function == SIZE_MAX) input.first_function = input.insns.size();
    return true;
}

// Word positions of the ids of `insn`, read with the operand shapes the loader uses.
bool Linker::operands(size_t m, LinkInsn& insn, const std::map<uint32_t, uint32_t>& widths,
                      const std::set<uint32_t>& ocl_std) {
    const uint32_t n = insn.count;
    auto id = [&](uint32_t k) {
        if (k < n) insn.ids.push_back(k);
    };
    if (const ExtOpInfo* ext = extOps().find(insn.op)) {
        uint32_t k = 1;
        if (ext->has_result) {
            id(1);
            id(2);
            insn.result = true;
            insn.result_at = 2;
            k = 3;
        }
        for (uint32_t j = 0; k + j < n && j < ext->first_literal; ++j) id(k + j);
        return true;
    }
    const OpcodeEntry* core = findCoreOpcode(insn.op);
    if (!core) return false;
    // Operands the shapes leave as literals but that are ids.
    if (insn.op == token(spv::Op::OpDecorateId) || insn.op == token(spv::Op::OpExecutionModeId)) {
        id(1);
        for (uint32_t k = 3; k < n; ++k) id(k);
        return true;
    }
    if (insn.op == token(spv::Op::OpSpecConstantOp)) {
        if (n < 4) return false;
        id(1);
        id(2);
        insn.result = true;
        insn.result_at = 2;
        uint32_t last = n;  // ids up to here; the rest are literal indices or components
        if (insn.w[3] == token(spv::Op::OpCompositeExtract) || insn.w[3] == token(spv::Op::OpVectorShuffle))
            last = std::min(n, insn.w[3] == token(spv::Op::OpVectorShuffle) ? 6u : 5u);
        if (insn.w[3] == token(spv::Op::OpCompositeInsert)) last = std::min(n, 6u);
        for (uint32_t k = 4; k < last; ++k) id(k);
        return true;
    }
    uint32_t k = 1;
    for (const char* s = core->shape; *s && k < n; ++s) {
        switch (*s) {
            case 't':
            case 'i':
            case 'j': id(k++); break;
            case 'r':
                insn.result = true;
                insn.result_at = k;
                id(k++);
                break;
            case 'I':
            case 'Q':
                while (k < n) id(k++);
                break;
            case 'G':
                ++k;  // the mask
                while (k < n) id(k++);
                break;
            case 'R':
                for (; k < n; k += 2) id(k);
                break;
            case 'P': {  // OpSwitch (literal, label) pairs: literals take the selector's width
                auto w = widths.find(insn.w[1]);
                uint32_t lw = (w != widths.end() && w->second > 32) ? 2 : 1;
                for (k += lw; k < n; k += lw + 1) id(k);
                break;
            }
            case 'l':
            case 'o': ++k; break;
            case 's':
            case 'S': readString(insn.w, k, n, &k); break;
            case 'x': {
                uint32_t number = insn.w[k++];
                uint32_t end = n;
                if (ocl_std.count(insn.w[3]) && oclStdLastIsLiteral(number) && end > k) --end;
                while (k < end) id(k++);
                k = n;
                break;
            }
            default: k = n; break;  // literal tails
        }
    }
    (void)m;
    return true;
}

// Every LinkageAttributes decoration, with what it decorates.
std::vector<Linkage> Linker::linkages() {
    std::vector<Linkage> out;
    for (size_t m = 0; m < in_.size(); ++m) {
        const Input& input = in_[m];
        std::map<uint32_t, size_t> def;  // id -> instruction index (functions and module-scope variables)
        std::set<uint32_t> builtins;     // ids decorated BuiltIn
        for (size_t i = 0; i < input.insns.size(); ++i) {
            const LinkInsn& insn = input.insns[i];
            if (insn.op == token(spv::Op::OpDecorate) && insn.count >= 3 &&
                insn.w[2] == token(spv::Decoration::BuiltIn))
                builtins.insert(insn.w[1]);
            if ((insn.op == token(spv::Op::OpFunction) || insn.op == token(spv::Op::OpVariable)) &&
                insn.count >= 3 && !def.count(insn.w[2]))
                def[insn.w[2]] = i;
        }
        for (const LinkInsn& insn : input.insns) {
            if (insn.op != token(spv::Op::OpDecorate) || insn.count < 4 ||
                insn.w[2] != token(spv::Decoration::LinkageAttributes))
                continue;
            Linkage l;
            uint32_t next = 0;
            l.name = readString(insn.w, 3, insn.count, &next);
            l.type = next < insn.count ? insn.w[next] : kExport;
            l.id = global(m, insn.w[1]);
            l.module = m;
            auto d = def.find(insn.w[1]);
            if (d == def.end()) continue;  // decorates something else: nothing to link
            l.first = l.last = d->second;
            l.function = input.insns[d->second].op == token(spv::Op::OpFunction);
            l.builtin = !l.function && builtins.count(insn.w[1]);
            if (l.function) {
                size_t i = d->second + 1;
                for (; i < input.insns.size() && input.insns[i].op != token(spv::Op::OpFunctionEnd); ++i) {
                    if (input.insns[i].op == token(spv::Op::OpFunctionParameter)) ++l.params;
                    if (input.insns[i].op == token(spv::Op::OpLabel)) l.has_body = true;
                }
                l.last = std::min(i, input.insns.size() - 1);
            } else {
                l.has_body = input.insns[d->second].count > 4;  // an initializer
            }
            out.push_back(std::move(l));
        }
    }
    return out;
}

// Leaves a declaration (or a LinkOnceODR duplicate) out: its instructions and every result they define.
void Linker::drop(const Linkage& l) {
    for (size_t i = l.first; i <= l.last; ++i) {
        skip_[l.module][i] = 1;
        const LinkInsn& insn = in_[l.module].insns[i];
        if (insn.result) dropped_.insert(global(l.module, insn.w[insn.result_at]));
    }
}

bool isSection(uint32_t op, std::initializer_list<spv::Op> ops) {
    for (spv::Op o : ops)
        if (token(o) == op) return true;
    return false;
}

bool isMergeable(uint32_t op) {
    // Types (OpTypeForwardPointer declares rather than defines) and constants; spec constants keep their
    // SpecIds apart, OpUndef and variables are distinct by definition.
    return (op >= token(spv::Op::OpTypeVoid) && op < token(spv::Op::OpTypeForwardPointer)) ||
           (op >= token(spv::Op::OpConstantTrue) && op <= token(spv::Op::OpConstantNull));
}

// Two declarations are one when their opcodes, literal words, operand ids (after the merges before them)
// and decorations agree; a struct's OpName counts too, since it names the type the kernel reflection
// reports. spirv-val refuses two declarations of one non-aggregate type, and a call across modules needs
// the parameter types to be the same ids. Ids decorated through a group or with OpDecorateId, and pointer
// types declared by OpTypeForwardPointer, are left as they are.
void Linker::mergeDuplicates() {
    std::map<std::vector<uint32_t>, uint32_t> seen;  // key -> the global id kept
    for (size_t m = 0; m < in_.size(); ++m) {
        const Input& input = in_[m];
        std::map<uint32_t, std::vector<std::vector<uint32_t>>> decorations;  // local id -> sorted below
        std::map<uint32_t, std::vector<uint32_t>> names;
        std::set<uint32_t> unmergeable;
        for (size_t i = 0; i < input.first_function; ++i) {
            const LinkInsn& insn = input.insns[i];
            const uint32_t op = insn.op;
            if (insn.count < 2) continue;
            if (isSection(op, {spv::Op::OpDecorate, spv::Op::OpMemberDecorate, spv::Op::OpDecorateString,
                               spv::Op::OpMemberDecorateString})) {
                std::vector<uint32_t> d{op};
                d.insert(d.end(), insn.w + 2, insn.w + insn.count);
                decorations[insn.w[1]].push_back(std::move(d));
            } else if (op == token(spv::Op::OpName)) {
                names[insn.w[1]].assign(insn.w + 2, insn.w + insn.count);
            } else if (op == token(spv::Op::OpDecorateId) || op == token(spv::Op::OpTypeForwardPointer)) {
                unmergeable.insert(insn.w[1]);
            } else if (op == token(spv::Op::OpGroupDecorate) || op == token(spv::Op::OpGroupMemberDecorate)) {
                const uint32_t stride = op == token(spv::Op::OpGroupDecorate) ? 1 : 2;
                for (uint32_t k = 2; k < insn.count; k += stride) unmergeable.insert(insn.w[k]);
            }
        }
        for (size_t i = 0; i < input.first_function; ++i) {
            const LinkInsn& insn = input.insns[i];
            if (skip_[m][i] || !insn.result || !isMergeable(insn.op)) continue;
            const uint32_t local = insn.w[insn.result_at];
            if (unmergeable.count(local)) continue;
            std::vector<uint32_t> key{insn.op, insn.count};
            for (uint32_t k = 1; k < insn.count; ++k) {
                if (k == insn.result_at) continue;
                const bool is_id = std::find(insn.ids.begin(), insn.ids.end(), k) != insn.ids.end();
                key.push_back(is_id ? mapped(global(m, insn.w[k])) : insn.w[k]);
            }
            auto d = decorations.find(local);
            if (d != decorations.end()) {
                std::sort(d->second.begin(), d->second.end());
                for (const std::vector<uint32_t>& one : d->second) {
                    key.push_back(uint32_t(one.size()));
                    key.insert(key.end(), one.begin(), one.end());
                }
            }
            key.push_back(UINT32_MAX);  // decorations end
            auto n = names.find(local);
            if (insn.op == token(spv::Op::OpTypeStruct) && n != names.end())
                key.insert(key.end(), n->second.begin(), n->second.end());
            const uint32_t id = global(m, local);
            auto [it, fresh] = seen.emplace(std::move(key), id);
            if (fresh) continue;
            redirect_[id] = it->second;
            merged_.insert(id);
            skip_[m][i] = 1;
        }
    }
}

bool Linker::run(const std::vector<std::vector<uint32_t>>& modules, bool library,
                 std::vector<uint32_t>* out) {
    if (modules.empty()) return fail("no modules to link");
    in_.resize(modules.size());
    uint32_t next_offset = 0, version = 0;
    for (size_t m = 0; m < modules.size(); ++m) {
        if (!parse(m, modules[m])) return false;
        in_[m].offset = next_offset;
        next_offset += in_[m].bound - 1;
        version = std::max(version, in_[m].version);
        skip_.emplace_back(in_[m].insns.size(), 0);
    }
    const uint32_t bound = next_offset + 1;
    // Resolve imports against definitions.
    std::vector<Linkage> links = linkages();
    std::map<std::string, const Linkage*> defined;
    bool ok = true;
    for (const Linkage& l : links) {
        if (l.type == kImport || !l.has_body) continue;
        auto it = defined.find(l.name);
        if (it == defined.end()) {
            defined[l.name] = &l;
        } else if (l.type == kLinkOnceODR && it->second->type == kLinkOnceODR) {
            redirect_[l.id] = it->second->id;  // one definition is kept
            drop(l);
        } else {
            ok = fail("\"" + l.name + "\" is defined (exported) by module " +
                      std::to_string(it->second->module + 1) + " and by module " +
                      std::to_string(l.module + 1));
        }
    }
    for (const Linkage& l : links) {
        if (l.type != kImport) continue;
        auto it = defined.find(l.name);
        if (it == defined.end()) {
            if (library) continue;
            if (l.function && isImportedBuiltin(l.name)) continue;  // the build resolves it (builtins.cpp)
            // An imported built-in variable (llvm-spirv's `__spirv_GlobalInvocationId` Import): the device
            // provides it whatever its linkage name.
            if (l.builtin) continue;
            ok = fail("unresolved import \"" + l.name + "\" (" + (l.function ? "function" : "variable") +
                      " of module " + std::to_string(l.module + 1) +
                      "): no input exports it and it is not a built-in of this device");
            continue;
        }
        const Linkage& d = *it->second;
        if (d.function != l.function) {
            ok = fail("import \"" + l.name + "\" of module " + std::to_string(l.module + 1) + " is a " +
                      (l.function ? "function" : "variable") + ", its export in module " +
                      std::to_string(d.module + 1) + " a " + (d.function ? "function" : "variable"));
            continue;
        }
        if (d.function && d.params != l.params) {
            ok = fail("import \"" + l.name + "\" of module " + std::to_string(l.module + 1) + " has " +
                      std::to_string(l.params) + " parameters, its export in module " +
                      std::to_string(d.module + 1) + " " + std::to_string(d.params));
            continue;
        }
        redirect_[l.id] = d.id;
        drop(l);
    }
    if (!ok) return false;
    mergeDuplicates();

    // Extended instruction sets: one import per name.
    std::map<std::string, uint32_t> sets;
    std::set<uint32_t> capabilities;
    std::set<std::string> extensions;
    std::vector<uint32_t> memory_model;
    enum Section { Capability, Extension, ExtImport, Memory, Entry, Mode, Debug, Annotation, Global, Count };
    std::vector<uint32_t> section[Count];
    std::vector<uint32_t> declarations, definitions;
    auto emit = [&](std::vector<uint32_t>& dst, size_t m, const LinkInsn& insn) {
        size_t at = dst.size();
        dst.insert(dst.end(), insn.w, insn.w + insn.count);
        for (uint32_t p : insn.ids) dst[at + p] = mapped(global(m, insn.w[p]));
    };
    for (size_t m = 0; m < in_.size(); ++m) {
        const Input& input = in_[m];
        for (size_t i = 0; i < input.first_function; ++i) {
            const LinkInsn& insn = input.insns[i];
            const uint32_t op = insn.op;
            if (skip_[m][i]) continue;
            uint32_t next = 0;
            if (op == token(spv::Op::OpCapability)) {
                if (insn.count >= 2 && capabilities.insert(insn.w[1]).second)
                    emit(section[Capability], m, insn);
            } else if (op == token(spv::Op::OpExtension)) {
                if (extensions.insert(readString(insn.w, 1, insn.count, &next)).second)
                    emit(section[Extension], m, insn);
            } else if (op == token(spv::Op::OpExtInstImport)) {
                std::string name = readString(insn.w, 2, insn.count, &next);
                auto it = sets.find(name);
                if (it != sets.end()) {
                    redirect_[global(m, insn.w[1])] = it->second;
                } else {
                    sets[name] = global(m, insn.w[1]);
                    emit(section[ExtImport], m, insn);
                }
            } else if (op == token(spv::Op::OpMemoryModel)) {
                std::vector<uint32_t> mm(insn.w, insn.w + insn.count);
                if (memory_model.empty()) {
                    memory_model = mm;
                    emit(section[Memory], m, insn);
                } else if (mm != memory_model) {
                    return fail("module " + std::to_string(m + 1) +
                                " has another memory model than module 1");
                }
            } else if (op == token(spv::Op::OpEntryPoint)) {
                emit(section[Entry], m, insn);
            } else if (op == token(spv::Op::OpExecutionMode) || op == token(spv::Op::OpExecutionModeId)) {
                emit(section[Mode], m, insn);
            } else if (isSection(op, {spv::Op::OpString, spv::Op::OpSource, spv::Op::OpSourceContinued,
                                      spv::Op::OpSourceExtension, spv::Op::OpName, spv::Op::OpMemberName,
                                      spv::Op::OpModuleProcessed})) {
                if ((op == token(spv::Op::OpName) || op == token(spv::Op::OpMemberName)) && insn.count >= 2 &&
                    (dropped_.count(global(m, insn.w[1])) || merged_.count(global(m, insn.w[1]))))
                    continue;  // names a declaration that was resolved or merged
                emit(section[Debug], m, insn);
            } else if (isSection(op, {spv::Op::OpDecorate, spv::Op::OpMemberDecorate,
                                      spv::Op::OpDecorationGroup, spv::Op::OpGroupDecorate,
                                      spv::Op::OpGroupMemberDecorate, spv::Op::OpDecorateId,
                                      spv::Op::OpDecorateString, spv::Op::OpMemberDecorateString})) {
                if (op == token(spv::Op::OpGroupDecorate) || op == token(spv::Op::OpGroupMemberDecorate)) {
                    // Keep the group's other targets.
                    std::vector<uint32_t> w{0, mapped(global(m, insn.w[1]))};
                    const uint32_t stride = op == token(spv::Op::OpGroupDecorate) ? 1 : 2;
                    for (uint32_t k = 2; k + stride - 1 < insn.count; k += stride) {
                        if (dropped_.count(global(m, insn.w[k]))) continue;
                        w.push_back(mapped(global(m, insn.w[k])));
                        if (stride == 2) w.push_back(insn.w[k + 1]);
                    }
                    w[0] = (uint32_t(w.size()) << 16) | op;
                    if (w.size() > 2)
                        section[Annotation].insert(section[Annotation].end(), w.begin(), w.end());
                    continue;
                }
                if (op != token(spv::Op::OpDecorationGroup) && insn.count >= 2 &&
                    (dropped_.count(global(m, insn.w[1])) || merged_.count(global(m, insn.w[1]))))
                    continue;  // decorates a declaration that was resolved, or merged with one that has the
                               // same decorations
                emit(section[Annotation], m, insn);
            } else {
                emit(section[Global], m, insn);  // types, constants, variables, OpLine, OpUndef
            }
        }
        // Functions: declarations first, as the logical layout asks.
        for (size_t i = input.first_function; i < input.insns.size();) {
            size_t end = i;
            bool body = false;
            while (end < input.insns.size() && input.insns[end].op != token(spv::Op::OpFunctionEnd)) {
                body = body || input.insns[end].op == token(spv::Op::OpLabel);
                ++end;
            }
            std::vector<uint32_t>& dst = body ? definitions : declarations;
            for (size_t k = i; k <= end && k < input.insns.size(); ++k)
                if (!skip_[m][k]) emit(dst, m, input.insns[k]);
            i = end + 1;
        }
    }
    if (memory_model.empty()) return fail("no module has an OpMemoryModel");
    *out = {kMagic, version, 0, bound, 0};
    for (auto& s : section) out->insert(out->end(), s.begin(), s.end());
    out->insert(out->end(), declarations.begin(), declarations.end());
    out->insert(out->end(), definitions.begin(), definitions.end());
    return true;
}

}  // namespace

bool isImportedBuiltin(const std::string& mangled) {
    const std::string name = demangledName(mangled);
    for (size_t i = 0; i < kOpenCLBuiltinCount; ++i)
        if (name == kOpenCLBuiltins[i].name) return true;
    return false;
}

LinkResult linkModules(const std::vector<std::vector<uint32_t>>& modules, bool library) {
    LinkResult r;
    Linker linker;
    try {
        if (!linker.run(modules, library, &r.words)) r.words.clear();
    } catch (const std::bad_alloc&) {
        r.words.clear();
        linker.log += "error: out of memory while linking\n";
    }
    r.log = linker.log;
    return r;
}

}  // namespace refdev::spirv
