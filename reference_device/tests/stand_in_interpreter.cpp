// A stand-in for the interpreter (reference_device/spirv/), linked only into the test ICD
// libRefDevOpenCLStandIn.so so that the API layer can be tested on its own. It reflects kernels from a SPIR-V
// module (entry points, parameters, OpName, LocalSize, SubgroupSize) and "launches" by doing nothing,
// except that a kernel named "undefined_behavior" reports undefined behaviour, to test the error path.
// Never linked into the real ICD.
#include <map>

#include "reference_device/spirv/program.h"
#include "reference_device/spirv/tokens.h"

namespace refdev::spirv {

class Module {
public:
    std::vector<KernelInfo> kernels;
};

namespace {

struct Type {
    uint32_t op = 0, width = 0, storage = 0, pointee = 0, components = 1, access = 0;
};

std::string decodeString(const uint32_t* w, size_t n) {
    std::string s;
    for (size_t i = 0; i < n; ++i)
        for (int b = 0; b < 4; ++b) {
            char c = char((w[i] >> (8 * b)) & 0xff);
            if (!c) return s;
            s += c;
        }
    return s;
}

}  // namespace

BuildResult buildModule(const uint32_t* words, size_t count, const Profile& profile) {
    BuildResult r;
    if (count < 5 || words[0] != 0x07230203u) {
        r.log = "not a SPIR-V module (bad magic number or shorter than the 5-word header)";
        return r;
    }
    auto module = std::make_shared<Module>();
    std::map<uint32_t, std::string> names;
    std::map<uint32_t, Type> types;
    std::map<uint32_t, std::string> entry_names;  // function id -> kernel name
    std::map<uint32_t, uint32_t[3]> local_size;
    std::map<uint32_t, uint32_t> sg_size;
    std::map<uint32_t, std::vector<std::pair<uint32_t, uint32_t>>> params;  // function -> (type, id)
    uint32_t current = 0;
    for (size_t i = 5; i < count;) {
        uint32_t op = words[i] & 0xffff, wc = words[i] >> 16;
        if (wc == 0 || i + wc > count) {
            r.log = "truncated instruction at word " + std::to_string(i);
            return r;
        }
        const uint32_t* w = words + i;
        switch (op) {
            case token(spv::Op::OpCapability):
                if (!profile.buildsCapability(w[1])) {
                    r.log = "OpCapability " + std::to_string(w[1]) + " is not supported by profile " +
                            profile.name;
                    return r;
                }
                break;
            case token(spv::Op::OpName): names[w[1]] = decodeString(w + 2, wc - 2); break;
            case token(spv::Op::OpEntryPoint):
                if (w[1] == token(spv::ExecutionModel::Kernel))
                    entry_names[w[2]] = decodeString(w + 3, wc - 3);
                break;  // OpEntryPoint Kernel
            case token(spv::Op::OpExecutionMode):
                if (w[2] == token(spv::ExecutionMode::LocalSize) && wc >= 6) {
                    local_size[w[1]][0] = w[3];
                    local_size[w[1]][1] = w[4];
                    local_size[w[1]][2] = w[5];
                }
                if (w[2] == token(spv::ExecutionMode::SubgroupSize) && wc >= 4) sg_size[w[1]] = w[3];
                break;
            case token(spv::Op::OpTypeInt): types[w[1]] = {op, w[2]}; break;
            case token(spv::Op::OpTypeFloat): types[w[1]] = {op, w[2]}; break;
            case token(spv::Op::OpTypeVector): types[w[1]] = {op, types[w[2]].width, 0, w[2], w[3]}; break;
            case token(spv::Op::OpTypeImage): types[w[1]] = {op, 0, 0, 0, 1, wc > 9 ? w[9] : 0}; break;
            case token(spv::Op::OpTypeSampler): types[w[1]] = {op}; break;
            case token(spv::Op::OpTypePointer): types[w[1]] = {op, 64, w[2], w[3]}; break;
            case token(spv::Op::OpFunction): current = w[2]; break;
            case token(spv::Op::OpFunctionParameter): params[current].push_back({w[1], w[2]}); break;
            default: break;
        }
        i += wc;
    }
    for (auto& [fn, name] : entry_names) {
        KernelInfo k;
        k.name = name;
        if (local_size.count(fn))
            for (int d = 0; d < 3; ++d) k.reqd_work_group_size[d] = local_size[fn][d];
        if (sg_size.count(fn)) {
            if (!profile.hasSubGroupSize(sg_size[fn])) {
                r.log = "SubgroupSize " + std::to_string(sg_size[fn]) + " is not supported by profile " +
                        profile.name;
                return r;
            }
            k.required_sub_group_size = sg_size[fn];
        }
        for (auto [type_id, id] : params[fn]) {
            KernelArgInfo a;
            a.name = names.count(id) ? names[id] : "";
            const Type& t = types[type_id];
            if (t.op == token(spv::Op::OpTypePointer)) {
                a.size = 8;
                a.kind = t.storage == token(spv::StorageClass::Workgroup)         ? ArgKind::LocalBuffer
                         : t.storage == token(spv::StorageClass::UniformConstant) ? ArgKind::ConstantBuffer
                                                                                  : ArgKind::GlobalBuffer;
                const Type& p = types[t.pointee];
                a.type_name = std::string(p.op == token(spv::Op::OpTypeFloat) ? "float" : "uint") + "*";
            } else if (t.op == token(spv::Op::OpTypeImage)) {
                a.kind = ArgKind::Image;
                a.size = 8;
                a.access = t.access;
                a.type_name = "image2d_t";
            } else if (t.op == token(spv::Op::OpTypeSampler)) {
                a.kind = ArgKind::Sampler;
                a.size = 8;
                a.type_name = "sampler_t";
            } else {
                a.kind = ArgKind::Value;
                a.size = t.width / 8 * t.components;
                a.type_name = t.op == token(spv::Op::OpTypeFloat) ? "float" : "uint";
                if (t.components > 1) a.type_name += std::to_string(t.components);
            }
            k.args.push_back(a);
        }
        module->kernels.push_back(k);
    }
    r.module = module;
    return r;
}

// Build faults act in the interpreter's decoder; the stand-in plants none.
BuildResult buildModule(const uint32_t* words, size_t count, const Profile& profile, const Faults&) {
    return buildModule(words, count, profile);
}

const std::vector<KernelInfo>& kernels(const Module& module) {
    return module.kernels;
}

uint32_t subGroupSize(const Module& module, const std::string& kernel, const Profile& profile) {
    for (const KernelInfo& k : module.kernels)
        if (k.name == kernel && k.required_sub_group_size) return k.required_sub_group_size;
    return profile.default_sub_group_size;
}

LaunchResult launch(const Module&, const std::string& kernel, const std::vector<ArgValue>&,
                    const NDRange& range, const Profile&, const Faults&, unsigned) {
    LaunchResult r;
    if (kernel == "undefined_behavior") {
        r.ok = false;
        r.error = "stand-in interpreter: undefined behaviour reported for work-item (0,0,0)";
    }
    return r;
}

LaunchResult launch(const Module& m, const std::string& kernel, const std::vector<ArgValue>& args,
                    const NDRange& range, const Profile& p, const Faults& f, unsigned threads, uint64_t) {
    return launch(m, kernel, args, range, p, f, threads);
}

// Linking is the interpreter's: the stand-in passes one module through (clCompileProgram, a link of one
// object) and refuses more.
LinkResult linkModules(const std::vector<std::vector<uint32_t>>& modules, bool) {
    LinkResult r;
    if (modules.size() == 1)
        r.words = modules[0];
    else
        r.log = "error: the stand-in interpreter does not link several modules\n";
    return r;
}

bool isImportedBuiltin(const std::string&) {
    return false;
}

}  // namespace refdev::spirv
