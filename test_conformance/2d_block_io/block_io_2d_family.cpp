// 2d_block_io.*: runs one 2D block load, transform, transpose, prefetch or store configuration at one set of
// coordinates and checks every defined destination element (loads) or every surface byte (stores) against the
// host reference, and every invocation's completion record (test_common/harness/selection/done_record.h), so
// a store wholly out of bounds, which must change nothing, still fails when its kernel never ran. Cases come
// from scripts/assets/generators/2d_block_io.py (see its docstring for the kernel ABI).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <sstream>

#include "test_common/cl/device_info.h"
#include "test_common/harness/launch/kernel_util.h"
#include "test_common/harness/model/mismatch.h"
#include "test_common/harness/selection/done_record.h"
#include "test_common/reference/block_io_2d.h"
#include "test_conformance/2d_block_io/launch.h"
#include "test_conformance/2d_block_io/windowed_family.h"
#include "test_conformance/families.h"

namespace cts {
namespace {

using reference::BlockIo2dOp;
using reference::BlockIo2dShape;
using reference::Coordinate2d;
using reference::Surface2d;

constexpr cl_uint kCapabilityTransform = 6229, kCapabilityTranspose = 6230, kCapabilityIo = 6228;

BlockIo2dOp parseOp(const std::string& op) {
    if (op == "load") return BlockIo2dOp::Load;
    if (op == "load_transform") return BlockIo2dOp::LoadTransform;
    if (op == "load_transpose") return BlockIo2dOp::LoadTranspose;
    if (op == "prefetch") return BlockIo2dOp::Prefetch;
    if (op == "store") return BlockIo2dOp::Store;
    throw InternalError("2d_block_io: unknown op '" + op + "'");
}

// The manifest's parameters, declared once in fields(); the schema and fromParams() follow from it.
struct BlockIo2dCaseParams : BlockIo2dParams {
    // Prefetch: the load that follows it (required then; "case parameter '...' is missing" as before).
    std::optional<uint32_t> load_element_size, load_block_width, load_block_height, load_block_count;
    std::optional<std::string> memory;
    std::optional<uint64_t> surface_bytes;
};

using Fp = BlockIo2dCaseParams;
const ParamFields<Fp>& fields() {
    static const ParamFields<Fp> fields = blockIo2dFields<Fp>({{"load_element_size", &Fp::load_element_size},
                                                               {"load_block_width", &Fp::load_block_width},
                                                               {"load_block_height", &Fp::load_block_height},
                                                               {"load_block_count", &Fp::load_block_count},
                                                               {"memory", &Fp::memory},
                                                               {"surface_bytes", &Fp::surface_bytes}});
    return fields;
}

uint32_t required(const std::optional<uint32_t>& v, const char* key) {
    if (!v) throw InternalError(std::string("case parameter '") + key + "' is missing");
    return *v;
}

// One case's parameters (from the manifest).
struct BlockIo2dCase : BlockIo2dLaunchParams {
    BlockIo2dShape shape;       // the instruction under test
    BlockIo2dShape load_shape;  // the load whose result is checked (prefetch: the load that follows it)
    uint32_t base_offset_bytes = 0;
    std::string memory =
        "buffer";                // the surface's memory object (test_common/harness/launch/memory_object.h)
    uint64_t surface_bytes = 0;  // the buffer's size when the case gives it (0: surfaceBytes() derives it)

    static BlockIo2dCase fromParams(const Params& params) {
        const Fp p = readFields(params, fields());
        BlockIo2dCase c;
        c.shape = readBlockShape(p, parseOp(p.op));
        c.load_shape = c.shape;
        if (c.shape.op == BlockIo2dOp::Prefetch) {
            c.load_shape.op = BlockIo2dOp::Load;
            c.load_shape.element_size = required(p.load_element_size, "load_element_size");
            c.load_shape.block_width = required(p.load_block_width, "load_block_width");
            c.load_shape.block_height = required(p.load_block_height, "load_block_height");
            c.load_shape.block_count = required(p.load_block_count, "load_block_count");
        }
        c.readLaunchParams(p, "2d_block_io");
        c.base_offset_bytes = uint32_t(p.base_offset_bytes);
        c.memory = p.memory.value_or(c.memory);
        c.surface_bytes = p.surface_bytes.value_or(0);
        if (c.lane_bytes != reference::laneBytes(c.shape.op == BlockIo2dOp::Store ? c.shape : c.load_shape))
            throw InternalError("2d_block_io: lane_bytes " + std::to_string(c.lane_bytes) +
                                " disagrees with the host reference for " + c.load_shape.str());
        return c;
    }

    std::string str() const {
        std::ostringstream os;
        os << shape.str() << ", memory " << surface.memory_width_bytes << " B x "
           << surface.memory_height_rows << " rows, pitch " << surface.memory_pitch_bytes << " B, base +"
           << base_offset_bytes;
        return os.str();
    }

    // Bytes of surface the kernel gets: the memory itself plus everything the blocks could reach, so a
    // device writing or reading out of bounds stays inside the buffer and shows in the comparison.
    // A case may give the size instead (surface_bytes): one whose pitch is far larger than the rows in
    // bounds, where the buffer holds those rows only.
    size_t surfaceBytes() const {
        if (surface_bytes) return size_t(surface_bytes);
        int64_t rows = surface.memory_height_rows, row_bytes = surface.memory_width_bytes;
        for (const Coordinate2d& c : coords) {
            rows = std::max<int64_t>(rows, c.y + shape.block_height + 1);
            row_bytes = std::max<int64_t>(
                row_bytes, (c.x + int64_t(shape.block_width) * shape.block_count) * shape.element_size);
        }
        return size_t(base_offset_bytes + rows * surface.memory_pitch_bytes + row_bytes + 64);
    }
};

std::vector<uint8_t> randomBytes(std::mt19937_64& rng, size_t n) {
    // Never zero, so an element that should be zero (out of bounds, padding) is told from data.
    std::vector<uint8_t> v(n);
    std::uniform_int_distribution<int> byte(1, 255);
    for (auto& b : v) b = uint8_t(byte(rng));
    return v;
}

std::string subGroupName(const BlockIo2dCase& c, uint32_t g) {
    return "work-group " + std::to_string(g / c.sub_groups_per_work_group) + " sub-group " +
           std::to_string(g % c.sub_groups_per_work_group);
}

std::string where(const BlockIo2dCase& c, uint32_t g, uint32_t lane) {
    return subGroupName(c, g) + " lane " + std::to_string(lane);
}

// The picture of sub-group g's load: the padded block before transform or transpose (rows x columns as in
// memory, the blocks side by side), so a wrong cell points at the source element whatever the lane mapping.
GridShape loadGrid(const BlockIo2dCase& c, const reference::AssignedBlock& a, uint32_t g) {
    const bool transpose = c.load_shape.op == BlockIo2dOp::LoadTranspose;
    const uint32_t parts = a.element_bytes / c.load_shape.element_size;  // transform packs several rows
    const uint32_t rows = transpose ? a.cols : a.rows * parts, cols = transpose ? a.rows : a.cols;
    return {subGroupName(c, g) + ": " + c.load_shape.str() + " at (" + std::to_string(c.coords[g].x) + ", " +
                std::to_string(c.coords[g].y) + "), padded block rows x columns, blocks side by side",
            rows, cols * c.load_shape.block_count, "block row", "block column"};
}

// Marks the source elements of a wrong destination element (a transform's element packs several).
void markLoad(const BlockIo2dCase& c, const GridShape& grid, uint32_t cols_per_block,
              const reference::LaneElement& e, uint64_t actual, MismatchLog& log) {
    const uint32_t bytes = c.load_shape.element_size, bits = 8 * bytes;
    const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    for (size_t p = 0; p < e.parts.size(); ++p) {
        const uint64_t want = (e.value >> (bits * p)) & mask, got = (actual >> (bits * p)) & mask;
        const reference::ElementSource& s = e.parts[p];
        if (want != got)
            log.mark(grid, s.block_row, s.block * cols_per_block + s.block_col, want, got, bytes);
    }
}

// Loads: every defined destination element of every lane of every sub-group.
void checkLoads(const BlockIo2dCase& c, const std::vector<uint8_t>& surface,
                const std::vector<uint8_t>& lanes, MismatchLog& log) {
    const std::vector<uint8_t> memory(surface.begin() + c.base_offset_bytes, surface.end());
    const reference::AssignedBlock a = reference::assignedBlock(c.load_shape);
    for (uint32_t g = 0; g < c.coords.size(); ++g) {
        const GridShape grid = loadGrid(c, a, g);
        auto expected = reference::load2d(c.load_shape, memory, c.surface, c.coords[g]);
        for (uint32_t lane = 0; lane < c.sub_group_size; ++lane) {
            const uint8_t* got = lanes.data() + (size_t(g) * c.sub_group_size + lane) * c.lane_bytes;
            for (size_t k = 0; k < expected[lane].size(); ++k) {
                const reference::LaneElement& e = expected[lane][k];
                if (!e.defined) {
                    // No block data is assigned here ("padded block width less than the subgroup size" with
                    // too few rows to fill the sub-group): the value is undefined and not compared.
                    log.skipped();
                    continue;
                }
                uint64_t actual = 0;
                std::memcpy(&actual, got + k * a.element_bytes, a.element_bytes);
                log.checked();
                if (actual == e.value) continue;
                log.add(where(c, g, lane) + " element " + std::to_string(k) + " [" + reference::describe(e) +
                            "] coord (" + std::to_string(c.coords[g].x) + ", " +
                            std::to_string(c.coords[g].y) + ")",
                        e.value, actual, a.element_bytes);
                markLoad(c, grid, grid.cols / c.load_shape.block_count, e, actual, log);
            }
        }
    }
}

// The whole surface buffer against what it must hold; names the offset as memory row / byte column. The
// picture is the memory from the base in elements (rows of Memory Pitch), so a stray write shows where it
// landed relative to the block.
void checkSurface(const BlockIo2dCase& c, const std::vector<uint8_t>& expected,
                  const std::vector<uint8_t>& actual, const std::string& rule, MismatchLog& log) {
    const int64_t pitch = c.surface.memory_pitch_bytes, es = c.shape.element_size;
    const int64_t memory_bytes = int64_t(expected.size()) - c.base_offset_bytes;
    const GridShape grid{"memory from the base, " + std::to_string(es) + "-byte elements: " + rule,
                         uint32_t((memory_bytes + pitch - 1) / pitch), uint32_t((pitch + es - 1) / es),
                         "memory row", "element"};
    int64_t marked = -1;  // the element last marked: its other bytes need no second mark
    for (size_t i = 0; i < expected.size(); i += 1) {
        log.checked();
        if (expected[i] == actual[i]) continue;
        int64_t rel = int64_t(i) - c.base_offset_bytes;
        int64_t row = rel >= 0 ? rel / c.surface.memory_pitch_bytes : -1;
        int64_t col = rel >= 0 ? rel % c.surface.memory_pitch_bytes : rel;
        if (rel >= 0 && rel - col % es != marked) {
            marked = rel - col % es;
            uint64_t want = 0, got = 0;
            const size_t n = size_t(std::min<int64_t>(es, memory_bytes - marked));
            std::memcpy(&want, expected.data() + c.base_offset_bytes + marked, n);
            std::memcpy(&got, actual.data() + c.base_offset_bytes + marked, n);
            log.mark(grid, uint32_t(row), uint32_t(col / es), want, got, unsigned(es));
        }
        log.add("surface byte " + std::to_string(i) + " (memory row " + std::to_string(row) + ", byte " +
                    std::to_string(col) + ", element " + std::to_string(col / c.shape.element_size) +
                    "): " + rule,
                expected[i], actual[i], 1);
    }
}

class BlockIo2dFamily : public Family {
public:
    std::string name() const override { return "2d_block_io"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema = schemaOf(fields());
        return schema;
    }

    Outcome checkSupport(const CaseSpec& spec, const DeviceInfo& device) const override {
        if (Outcome memory = memorySupport(spec, device); memory.status != Status::Pass) return memory;
        // Transform and transpose have their own capabilities; a device with cl_khr_spirv_queries that lists
        // SPV_INTEL_2d_block_io says which of them it accepts. One that does not list the extension says
        // nothing of its capabilities: below extension version 1.1.0 it need not (the case then runs as
        // device_specific, version_gap.h), and at 1.1.0 the omission is api.spirv_queries' Fail.
        if (!device.has_spirv_queries ||
            std::find(device.spirv_extensions.begin(), device.spirv_extensions.end(),
                      "SPV_INTEL_2d_block_io") == device.spirv_extensions.end())
            return Outcome::pass();
        BlockIo2dOp op = parseOp(spec.params.s("op"));
        cl_uint need = op == BlockIo2dOp::LoadTransform   ? kCapabilityTransform
                       : op == BlockIo2dOp::LoadTranspose ? kCapabilityTranspose
                                                          : kCapabilityIo;
        const auto& caps = device.spirv_capabilities;
        if (std::find(caps.begin(), caps.end(), need) == caps.end())
            return Outcome::notSupported("CL_DEVICE_SPIRV_CAPABILITIES_KHR does not list capability " +
                                         std::to_string(need));
        return Outcome::pass();
    }

    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        const BlockIo2dCase c = BlockIo2dCase::fromParams(spec.params);
        KernelHandle kernel = createKernel(ctx, spec.module, spec.kernel);
        std::mt19937_64 rng(ctx.seed);
        const size_t sub_groups = c.coords.size();
        const bool store = c.shape.op == BlockIo2dOp::Store;

        // Surface: seed-random data (loads read it; for stores it is the canary every byte the store must not
        // touch keeps). Guard bands on both sides catch writes beyond the buffer.
        const std::vector<uint8_t> surface_data = randomBytes(rng, c.surfaceBytes());
        MemoryObject surface(ctx, c.memory, surface_data.size());
        surface.write(surface_data);
        BlockIo2dLaunch launch(ctx, c, store, [&](size_t n) { return randomBytes(rng, n); });
        launch.run(ctx, kernel, spec, surface, c.surface, c.base_offset_bytes);
        const std::vector<uint8_t>& lane_data = launch.lane_data;
        const std::vector<int32_t>& coord_words = launch.coord_words;

        MismatchLog log("completion record: every invocation's last store");
        checkDoneRecords(launch.done.read(), launch.layout, log);
        std::string memory_problem;
        std::vector<uint8_t> surface_after = surface.read(&memory_problem);
        if (!memory_problem.empty()) log.addLine(memory_problem);
        dumpBytes(ctx, "surface_in", surface_data.data(), surface_data.size());
        dumpBytes(ctx, "surface_out", surface_after.data(), surface_after.size());
        dumpBytes(ctx, "coords", coord_words.data(), coord_words.size() * 4);
        if (store) dumpBytes(ctx, "lanes_in", lane_data.data(), lane_data.size());
        if (store) {
            // "For stores, any out-of-bounds elements are ignored" and "the value of any padded elements is
            // ignored": only in-bounds block elements change; everything else keeps its canary byte.
            std::vector<uint8_t> memory(surface_data.begin() + c.base_offset_bytes, surface_data.end());
            for (size_t g = 0; g < sub_groups; ++g)
                reference::store2d(c.shape, launch.storedByLane(g), memory, c.surface, c.coords[g]);
            std::vector<uint8_t> expected(surface_data.begin(), surface_data.begin() + c.base_offset_bytes);
            expected.insert(expected.end(), memory.begin(), memory.end());
            log.setRule(
                "SPV_INTEL_2d_block_io store: in-bounds elements written, out-of-bounds and padded ignored");
            checkSurface(c, expected, surface_after, "store", log);
        } else {
            log.setRule(
                c.shape.op == BlockIo2dOp::Prefetch
                    ? "SPV_INTEL_2d_block_io prefetch has no effect; the following load is exact"
                    : "SPV_INTEL_2d_block_io load: block data mapped to invocations, out of bounds zero");
            std::vector<uint8_t> lanes_out = launch.lanes.read();
            dumpBytes(ctx, "lanes_out", lanes_out.data(), lanes_out.size());
            checkLoads(c, surface_data, lanes_out, log);
            // A load or prefetch never writes the memory it reads.
            checkSurface(c, surface_data, surface_after, "memory changed by a load or prefetch", log);
        }
        if (std::string bad = surface.checkGuards(); !bad.empty()) log.addLine(bad);
        for (const GuardedBuffer* b : {&launch.lanes, &launch.coords, &launch.done})
            if (std::string bad = b->checkGuards(); !bad.empty()) log.addLine(bad);
        Outcome out = log.outcome();
        if (out.status != Status::Pass) out.message = c.str() + "\n" + out.message;
        return out;
    }
};

void register2dBlockIoFamilies(Registry& registry) {
    registry.addFamily(std::make_unique<BlockIo2dFamily>());
    register2dBlockIoWindowedFamily(registry);
}

}  // namespace

CTS_REGISTER_FAMILIES("2d_block_io", register2dBlockIoFamilies);

}  // namespace cts
