// subgroups.block_read / subgroups.block_write: OpSubgroupBlockReadINTEL / OpSubgroupBlockWriteINTEL on a
// global buffer; subgroups.local_block_read / local_block_write (storage "workgroup"): the same on a local
// memory tile that mirrors the work-group's window of that buffer (cl_intel_subgroup_local_block_io).
//
// Kernel (scripts/assets/generators/subgroups.py): out, info, src, offset, stride (elements). Sub-group block
// b = WorkgroupId * NumSubgroups + SubgroupId accesses the block starting at element offset + b * stride;
// blocks are separated by untouched gaps, and the whole buffer sits between guard bands. Work-groups are
// whole sub-groups (a partial sub-group is undefined for block IO). The local kernels copy the buffer
// through their tile with barriers, so the buffer holds the same results and one check serves both.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "test_common/cl/device_info.h"
#include "test_common/harness/launch/kernel_util.h"
#include "test_common/harness/launch/memory_object.h"
#include "test_common/harness/model/param_fields.h"
#include "test_common/reference/subgroups.h"
#include "test_conformance/subgroups/common.h"
#include "test_conformance/subgroups/families.h"

namespace cts::subgroups {
namespace {

struct BlockCase : SubgroupGrid {
    bool write;
    ComponentType type;
    uint32_t width;
    size_t offset_bytes;
    std::string memory;      // the memory object of Ptr (block_memory.h)
    bool workgroup = false;  // Ptr in the kernel's Workgroup tile of tile_bytes (storage "workgroup")
    size_t tile_bytes = 0;

    static BlockCase fromParams(const Params& params);
};

// The manifest's parameters as scripts/assets/generators/subgroups.py writes them, each declared once in
// blockFields(): the family's schema and fromParams' reading follow from that table.
struct BlockParams {
    std::string op, type;
    uint32_t width = 0, sg = 0;
    uint64_t offset_bytes = 0, local = 0, groups = 0;
    std::optional<std::string> memory, storage;
    std::optional<uint64_t> tile_bytes;
};

const ParamFields<BlockParams>& blockFields() {
    static const ParamFields<BlockParams> fields{{"op", &BlockParams::op},
                                                 {"type", &BlockParams::type},
                                                 {"width", &BlockParams::width},
                                                 {"sg", &BlockParams::sg},
                                                 {"offset_bytes", &BlockParams::offset_bytes},
                                                 {"local", &BlockParams::local},
                                                 {"groups", &BlockParams::groups},
                                                 {"memory", &BlockParams::memory},
                                                 {"storage", &BlockParams::storage},
                                                 {"tile_bytes", &BlockParams::tile_bytes}};
    return fields;
}

BlockCase BlockCase::fromParams(const Params& params) {
    const BlockParams p = readFields(params, blockFields());
    BlockCase c{};
    if (p.op != "block_read" && p.op != "block_write") throw InternalError("unknown block op '" + p.op + "'");
    c.write = p.op == "block_write";
    c.type = componentType(p.type);
    c.width = p.width;
    c.sg = p.sg;
    c.offset_bytes = p.offset_bytes;
    c.local = p.local;
    c.groups = p.groups;
    c.memory = p.memory.value_or("buffer");
    if (p.storage && *p.storage != "workgroup") throw InternalError("unknown storage '" + *p.storage + "'");
    c.workgroup = p.storage.has_value();
    c.tile_bytes = p.tile_bytes.value_or(0);
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

// Bytes from one block's start to the next: each block is S * width elements; a 16-byte (at least) gap
// follows it and the stride stays a multiple of 16 bytes so every block start keeps the write alignment.
// The local kernels' tile must hold the work-group's window of the buffer.
size_t blockStrideBytes(const BlockCase& c) {
    const size_t block_bytes = size_t(c.sg) * c.width * c.type.bytes;
    const size_t stride_bytes = (block_bytes + 16 + 15) / 16 * 16;
    if (c.workgroup && c.offset_bytes + c.subGroupsPerGroup() * stride_bytes > c.tile_bytes)
        throw InternalError("the work-group's window of " +
                            std::to_string(c.offset_bytes + c.subGroupsPerGroup() * stride_bytes) +
                            " bytes exceeds the kernel's local tile of " + std::to_string(c.tile_bytes));
    return stride_bytes;
}

// One launch of the kernel (out, info, src, offset, stride): Ptr's memory (reads: seeded components; writes:
// poison), the lanes' components (writes: seeded) and the info records, created in declaration order.
struct BlockLaunch {
    BlockLaunch(RunContext& ctx, const CaseSpec& spec, const BlockCase& c)
        : stride_bytes(blockStrideBytes(c)),
          mem_bytes(c.offset_bytes + c.groups * c.subGroupsPerGroup() * stride_bytes + 64),
          kernel(createKernel(ctx, spec.module, spec.kernel)),
          memory(ctx, c.memory, mem_bytes),
          lanes(ctx, c.global() * c.width * c.type.bytes),
          info(ctx, c.global() * 16) {
        Rng rng(ctx.seed);
        if (c.write) {
            lane_data = randomComponents(rng, c.type, c.global() * c.width);
            lanes.write(lane_data.data(), lane_data.size());
            memory.write(std::vector<uint8_t>(mem_bytes, kPoison));
        } else {
            mem_init = randomComponents(rng, c.type, mem_bytes / c.type.bytes);
            mem_init.resize(mem_bytes, kPoison);
            memory.write(mem_init);
        }
    }

    // out, info, src: a read fills `lanes` from memory, a write fills memory from `lanes`.
    void run(RunContext& ctx, const CaseSpec& spec, const BlockCase& c) {
        KernelArgs args(kernel, spec);
        memory.bind(args, c.write ? "out" : "src");
        args.set(c.write ? "src" : "out", lanes.mem());
        args.set("info", info.mem());
        args.set("offset", cl_uint(c.offset_bytes / c.type.bytes));
        args.set("stride", cl_uint(stride_bytes / c.type.bytes));
        c.run(ctx, args);
    }

    // Where block b starts in memory.
    size_t blockStart(const BlockCase& c, size_t block) const {
        return c.offset_bytes + block * stride_bytes;
    }

    const size_t stride_bytes, mem_bytes;
    KernelHandle kernel;
    MemoryObject memory;
    GuardedBuffer lanes, info;
    std::vector<uint8_t> mem_init, lane_data;  // reads: memory before the launch; writes: the lanes' data
};

// Reads: every component of every lane against the block in memory.
void checkReads(const BlockCase& c, const BlockLaunch& launch, const SubgroupMap& map, MismatchLog& log) {
    log.setRule("OpSubgroupBlockReadINTEL: component j of lane L is Ptr[L + j*SubgroupMaxSize]");
    const unsigned bytes = c.type.bytes;
    std::vector<uint8_t> result = launch.lanes.read();
    for (size_t gid = 0; gid < c.global(); ++gid) {
        const SubgroupMap::Item& it = map.items[gid];
        const size_t block = c.blockOf(map, gid);
        const uint8_t* ptr = launch.mem_init.data() + launch.blockStart(c, block);
        for (uint32_t j = 0; j < c.width; ++j) {
            uint64_t expected = reference::blockReadComponent(ptr, bytes, it.lane, j, c.sg);
            uint64_t actual = loadComponent(result.data(), gid * c.width + j, bytes);
            if (expected == actual) {
                log.checked();
                continue;
            }
            compare(log,
                    where(gid / c.local, it.sub_group, it.lane, j) + " (block " + std::to_string(block) + ")",
                    c.type, expected, actual,
                    LaneCell{gid / c.local, it.sub_group, it.lane, j, c.sg, c.width});
        }
    }
}

// Writes: every element of memory against the lanes' components written there, the gaps against the poison.
void checkWrites(const BlockCase& c, const BlockLaunch& launch, const SubgroupMap& map,
                 const std::vector<uint8_t>& actual, MismatchLog& log) {
    log.setRule(
        "OpSubgroupBlockWriteINTEL: component j of lane L goes to Ptr[L + j*SubgroupMaxSize]; "
        "nothing else changes");
    const unsigned bytes = c.type.bytes;
    std::vector<uint8_t> expected(launch.mem_bytes, kPoison);
    // owner[e]: gid * width + j of the lane component written there, or -1 for gaps that keep the poison.
    std::vector<int64_t> owner(launch.mem_bytes / bytes, -1);
    for (size_t gid = 0; gid < c.global(); ++gid) {
        const SubgroupMap::Item& it = map.items[gid];
        std::vector<uint64_t> data(c.width);
        for (uint32_t j = 0; j < c.width; ++j)
            data[j] = loadComponent(launch.lane_data.data(), gid * c.width + j, bytes);
        const size_t start = launch.blockStart(c, c.blockOf(map, gid));
        reference::blockWriteLane(expected.data() + start, bytes, it.lane, data, c.sg);
        for (uint32_t j = 0; j < c.width; ++j)
            owner[start / bytes + reference::blockElementIndex(it.lane, j, c.sg)] =
                int64_t(gid * c.width + j);
    }
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
        at += where(gid / c.local, it.sub_group, it.lane, j) + " (block " +
              std::to_string(c.blockOf(map, gid)) + ")";
        compare(log, at, c.type, want, got, LaneCell{gid / c.local, it.sub_group, it.lane, j, c.sg, c.width});
    }
}

class BlockIoFamily : public Family {
public:
    std::string name() const override { return "subgroups.block_io"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema = schemaOf(blockFields());
        return schema;
    }

    Outcome checkSupport(const CaseSpec& spec, const DeviceInfo& device) const override {
        return memorySupport(spec, device);
    }

    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        const BlockCase c = BlockCase::fromParams(spec.params);
        BlockLaunch launch(ctx, spec, c);
        launch.run(ctx, spec, c);

        for (const std::string& guard :
             {launch.memory.checkGuards(), launch.lanes.checkGuards(), launch.info.checkGuards()})
            if (!guard.empty()) return Outcome::fail(guard);
        std::string memory_problem;
        const std::vector<uint8_t> memory_after = launch.memory.read(&memory_problem);
        if (!memory_problem.empty()) return Outcome::fail(memory_problem);
        std::vector<uint8_t> info_bytes = launch.info.read();
        dumpBytes(ctx, "in_memory", launch.mem_init.data(), launch.mem_init.size());
        dumpBytes(ctx, "in_lanes", launch.lane_data.data(), launch.lane_data.size());
        dumpBytes(ctx, "out_info", info_bytes.data(), info_bytes.size());
        if (!ctx.dump_dir.empty()) {
            std::vector<uint8_t> after = c.write ? memory_after : launch.lanes.read();
            dumpBytes(ctx, c.write ? "out_memory" : "out_lanes", after.data(), after.size());
        }
        SubgroupMap map;
        if (std::string bad = c.mapSubGroups(info_bytes, &map); !bad.empty()) return Outcome::fail(bad);
        if (std::string bad = c.partialSubGroup(map); !bad.empty()) return Outcome::fail(bad);

        MismatchLog log;
        if (c.write)
            checkWrites(c, launch, map, memory_after, log);
        else
            checkReads(c, launch, map, log);
        return log.outcome();
    }
};

}  // namespace

std::unique_ptr<Family> makeBlockIoFamily() {
    return std::make_unique<BlockIoFamily>();
}

}  // namespace cts::subgroups
