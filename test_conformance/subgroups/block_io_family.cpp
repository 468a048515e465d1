// subgroups.block_read / subgroups.block_write: OpSubgroupBlockReadINTEL / OpSubgroupBlockWriteINTEL on a
// global buffer; subgroups.local_block_read / local_block_write (storage "workgroup"): the same on a local
// memory tile that mirrors the work-group's window of that buffer (cl_intel_subgroup_local_block_io).
//
// Kernel (scripts/generators/subgroups.py): out, info, src, offset, stride (elements). Sub-group block
// b = WorkgroupId * NumSubgroups + SubgroupId accesses the block starting at element offset + b * stride;
// blocks are separated by untouched gaps, and the whole buffer sits between guard bands. Work-groups are
// whole sub-groups (a partial sub-group is undefined for block IO). The local kernels copy the buffer
// through their tile with barriers, so the buffer holds the same results and one check serves both.
#include <memory>
#include <string>
#include <vector>

#include "test_common/cl/device_info.h"
#include "test_common/harness/kernel_util.h"
#include "test_common/harness/memory_object.h"
#include "test_common/reference/subgroups.h"
#include "test_conformance/subgroups/common.h"
#include "test_conformance/subgroups/families.h"

namespace cts::subgroups {
namespace {

struct BlockCase {
    bool write;
    ComponentType type;
    uint32_t width, sg;
    size_t offset_bytes, local, groups;
    std::string memory;      // the memory object of Ptr (block_memory.h)
    bool workgroup = false;  // Ptr in the kernel's Workgroup tile of tile_bytes (storage "workgroup")
    size_t tile_bytes = 0;

    static BlockCase fromParams(const Params& p) {
        BlockCase c{};
        std::string op = p.s("op");
        if (op != "block_read" && op != "block_write") throw InternalError("unknown block op '" + op + "'");
        c.write = op == "block_write";
        c.type = componentType(p.s("type"));
        c.width = uint32_t(p.u("width"));
        c.sg = uint32_t(p.u("sg"));
        c.offset_bytes = p.u("offset_bytes");
        c.local = p.u("local");
        c.groups = p.u("groups");
        c.memory = p.has("memory") ? p.s("memory") : "buffer";
        if (p.has("storage") && p.s("storage") != "workgroup")
            throw InternalError("unknown storage '" + p.s("storage") + "'");
        c.workgroup = p.has("storage");
        c.tile_bytes = p.has("tile_bytes") ? p.u("tile_bytes") : 0;
        const uint32_t align = c.workgroup ? reference::kLocalBlockAlignment
                               : c.write   ? reference::kBlockWriteAlignment
                                           : reference::kBlockReadAlignment;
        if (c.sg == 0 || c.local % c.sg != 0 || c.groups == 0)
            throw InternalError("block IO needs work-groups of whole sub-groups");
        if (c.offset_bytes % align != 0 || c.offset_bytes % c.type.bytes != 0)
            throw InternalError("offset_bytes " + std::to_string(c.offset_bytes) + " breaks the " +
                                std::to_string(align) + "-byte Ptr alignment the environment requires");
        return c;
    }
};

class BlockIoFamily : public Family {
public:
    std::string name() const override { return "subgroups.block_io"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema{{"op", ParamType::String},
                                        {"type", ParamType::String},
                                        {"width", ParamType::UInt},
                                        {"sg", ParamType::UInt},
                                        {"offset_bytes", ParamType::UInt},
                                        {"local", ParamType::UInt},
                                        {"groups", ParamType::UInt},
                                        {"memory", ParamType::String, false},
                                        {"storage", ParamType::String, false},
                                        {"tile_bytes", ParamType::UInt, false}};
        return schema;
    }

    Outcome checkSupport(const CaseSpec& spec, const DeviceInfo& device) const override {
        if (spec.params.has("memory") && spec.params.s("memory") == "svm_coarse" &&
            !(device.svm_capabilities & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
            return Outcome::notSupported(
                "CL_DEVICE_SVM_CAPABILITIES lacks CL_DEVICE_SVM_COARSE_GRAIN_BUFFER");
        return Outcome::pass();
    }

    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        const BlockCase c = BlockCase::fromParams(spec.params);
        const unsigned bytes = c.type.bytes;
        const size_t global = c.local * c.groups;
        const size_t sgs_per_group = c.local / c.sg;
        const size_t blocks = c.groups * sgs_per_group;
        // Each block is S * width elements; a 16-byte (at least) gap follows it and the stride stays a
        // multiple of 16 bytes so every block start keeps the write alignment.
        const size_t block_bytes = size_t(c.sg) * c.width * bytes;
        const size_t stride_bytes = (block_bytes + 16 + 15) / 16 * 16;
        const size_t mem_bytes = c.offset_bytes + blocks * stride_bytes + 64;
        const size_t comps = global * c.width;
        if (c.workgroup && c.offset_bytes + sgs_per_group * stride_bytes > c.tile_bytes)
            throw InternalError("the work-group's window of " +
                                std::to_string(c.offset_bytes + sgs_per_group * stride_bytes) +
                                " bytes exceeds the kernel's local tile of " + std::to_string(c.tile_bytes));
        Rng rng(ctx.seed);

        KernelHandle kernel = createKernel(ctx, spec.module, spec.kernel);
        MemoryObject memory(ctx, c.memory, mem_bytes);
        GuardedBuffer lanes_buf(ctx, comps * bytes), info(ctx, global * 16);
        std::vector<uint8_t> mem_init, lane_data;
        if (c.write) {
            lane_data = randomComponents(rng, c.type, comps);
            lanes_buf.write(lane_data.data(), lane_data.size());
            memory.write(std::vector<uint8_t>(mem_bytes, kPoison));
        } else {
            mem_init = randomComponents(rng, c.type, mem_bytes / bytes);
            mem_init.resize(mem_bytes, kPoison);
            memory.write(mem_init);
        }
        // out, info, src: a read fills lanes_buf from memory, a write fills memory from lanes_buf.
        KernelArgs args(kernel, spec);
        memory.bind(args, c.write ? "out" : "src");
        args.set(c.write ? "src" : "out", lanes_buf.mem());
        args.set("info", info.mem());
        args.set("offset", cl_uint(c.offset_bytes / bytes));
        args.set("stride", cl_uint(stride_bytes / bytes));
        runNDRange(ctx, args, 1, &global, &c.local);

        for (const std::string& guard : {memory.checkGuards(), lanes_buf.checkGuards(), info.checkGuards()})
            if (!guard.empty()) return Outcome::fail(guard);
        std::string memory_problem;
        const std::vector<uint8_t> memory_after = memory.read(&memory_problem);
        if (!memory_problem.empty()) return Outcome::fail(memory_problem);
        std::vector<uint8_t> info_bytes = info.read();
        dumpBytes(ctx, "in_memory", mem_init.data(), mem_init.size());
        dumpBytes(ctx, "in_lanes", lane_data.data(), lane_data.size());
        dumpBytes(ctx, "out_info", info_bytes.data(), info_bytes.size());
        if (!ctx.dump_dir.empty()) {
            std::vector<uint8_t> after = c.write ? memory_after : lanes_buf.read();
            dumpBytes(ctx, c.write ? "out_memory" : "out_lanes", after.data(), after.size());
        }
        SubgroupMap map;
        std::string bad = buildSubgroupMap(info_bytes, c.local, c.groups, c.sg, &map);
        if (!bad.empty()) return Outcome::fail("work-item to sub-group mapping: " + bad);
        for (const SubgroupMap::Item& it : map.items)
            if (it.size != c.sg)
                return Outcome::fail(
                    "the device formed a partial sub-group (SubgroupSize " + std::to_string(it.size) +
                    ") from work-groups of whole sub-groups; block IO needs full sub-groups");

        MismatchLog log;
        auto blockOf = [&](size_t gid) { return (gid / c.local) * sgs_per_group + map.items[gid].sub_group; };
        if (!c.write) {
            log.setRule("OpSubgroupBlockReadINTEL: component j of lane L is Ptr[L + j*SubgroupMaxSize]");
            std::vector<uint8_t> result = lanes_buf.read();
            for (size_t gid = 0; gid < global; ++gid) {
                const SubgroupMap::Item& it = map.items[gid];
                const size_t block = blockOf(gid);
                const uint8_t* ptr = mem_init.data() + c.offset_bytes + block * stride_bytes;
                for (uint32_t j = 0; j < c.width; ++j) {
                    uint64_t expected = reference::blockReadComponent(ptr, bytes, it.lane, j, c.sg);
                    uint64_t actual = loadComponent(result.data(), gid * c.width + j, bytes);
                    if (expected == actual) {
                        log.checked();
                        continue;
                    }
                    compare(log,
                            where(gid / c.local, it.sub_group, it.lane, j) + " (block " +
                                std::to_string(block) + ")",
                            c.type, expected, actual,
                            LaneCell{gid / c.local, it.sub_group, it.lane, j, c.sg, c.width});
                }
            }
            return log.outcome();
        }

        log.setRule(
            "OpSubgroupBlockWriteINTEL: component j of lane L goes to Ptr[L + j*SubgroupMaxSize]; "
            "nothing else changes");
        std::vector<uint8_t> expected(mem_bytes, kPoison);
        // owner[e]: gid * width + j of the lane component written there, or -1 for gaps that keep the poison.
        std::vector<int64_t> owner(mem_bytes / bytes, -1);
        for (size_t gid = 0; gid < global; ++gid) {
            const SubgroupMap::Item& it = map.items[gid];
            const size_t block = blockOf(gid);
            std::vector<uint64_t> data(c.width);
            for (uint32_t j = 0; j < c.width; ++j)
                data[j] = loadComponent(lane_data.data(), gid * c.width + j, bytes);
            const size_t start = c.offset_bytes + block * stride_bytes;
            reference::blockWriteLane(expected.data() + start, bytes, it.lane, data, c.sg);
            for (uint32_t j = 0; j < c.width; ++j)
                owner[start / bytes + reference::blockElementIndex(it.lane, j, c.sg)] =
                    int64_t(gid * c.width + j);
        }
        const std::vector<uint8_t>& actual = memory_after;
        for (size_t e = 0; e < owner.size(); ++e) {
            uint64_t want = loadComponent(expected.data(), e, bytes),
                     got = loadComponent(actual.data(), e, bytes);
            if (want == got) {
                log.checked();
                continue;
            }
            std::string at = "element " + std::to_string(e) + ": ";
            if (owner[e] < 0) {
                compare(log, at + "gap (must stay untouched)", c.type, want, got);
                continue;
            }
            size_t gid = size_t(owner[e]) / c.width;
            const SubgroupMap::Item& it = map.items[gid];
            const uint32_t j = uint32_t(owner[e] % c.width);
            at += where(gid / c.local, it.sub_group, it.lane, j) + " (block " + std::to_string(blockOf(gid)) +
                  ")";
            compare(log, at, c.type, want, got,
                    LaneCell{gid / c.local, it.sub_group, it.lane, j, c.sg, c.width});
        }
        return log.outcome();
    }
};

}  // namespace

std::unique_ptr<Family> makeBlockIoFamily() {
    return std::make_unique<BlockIoFamily>();
}

}  // namespace cts::subgroups
