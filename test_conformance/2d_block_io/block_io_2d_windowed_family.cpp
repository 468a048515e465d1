// 2d_block_io.windowed: 2D block loads and stores whose byte offset y * Memory Pitch passes 2^31 or 2^32
// (cases 2d_block_io.scale.offset_past_*, tag huge). The surface buffer is larger than 2 or 4 GiB, so the
// family never fills, reads or mirrors all of it: it seeds and checks only windows of whole rows, the rows
// around each block plus the rows where 32-bit offset arithmetic would land (offset mod 2^32). A device
// truncating the offset then reads other seeded data, or writes into a window that must stay unchanged.
// Kernel ABI and parameters are those of the 2d_block_io family (scripts/generators/2d_block_io.py), plus
// buffer_bytes; base_offset_bytes is 0.
#include <algorithm>
#include <random>

#include "test_common/cl/kernel_util.h"
#include "test_common/harness/done_record.h"
#include "test_common/harness/mismatch.h"
#include "test_common/reference/block_io_2d.h"
#include "test_conformance/2d_block_io/windowed_family.h"

namespace cts {
namespace {

using reference::BlockIo2dOp;
using reference::BlockIo2dShape;
using reference::Coordinate2d;
using reference::Surface2d;

constexpr uint32_t kSubGroupSize = 16;
constexpr int64_t kTwoTo32 = int64_t(1) << 32;

struct RowRange {
    int64_t first = 0, end = 0;  // rows [first, end) of the surface buffer
    std::vector<uint8_t> data;   // their bytes as seeded
};

struct WindowedCase {
    BlockIo2dShape shape;
    Surface2d surface;
    std::vector<Coordinate2d> coords;  // one per sub-group
    uint32_t work_groups = 1, sub_groups_per_work_group = 1, lane_bytes = 0;
    uint64_t buffer_bytes = 0;

    static WindowedCase fromParams(const Params& p) {
        WindowedCase c;
        const std::string op = p.s("op");
        if (op != "load" && op != "store")
            throw InternalError("2d_block_io.windowed: op must be load or store");
        c.shape = {op == "load" ? BlockIo2dOp::Load : BlockIo2dOp::Store,
                   uint32_t(p.u("element_size")),
                   uint32_t(p.u("block_width")),
                   uint32_t(p.u("block_height")),
                   uint32_t(p.u("block_count")),
                   kSubGroupSize};
        c.surface = {p.i("memory_width_bytes"), p.i("memory_height_rows"), p.i("memory_pitch_bytes")};
        std::vector<int64_t> xy = p.list("coords");
        for (size_t i = 0; i + 1 < xy.size(); i += 2) c.coords.push_back({xy[i], xy[i + 1]});
        c.work_groups = uint32_t(p.u("work_groups"));
        c.sub_groups_per_work_group = uint32_t(p.u("sub_groups_per_work_group"));
        c.lane_bytes = uint32_t(p.u("lane_bytes"));
        c.buffer_bytes = p.u("buffer_bytes");
        if (xy.size() % 2 || c.coords.size() != size_t(c.work_groups) * c.sub_groups_per_work_group)
            throw InternalError("2d_block_io.windowed: coords must hold one (x, y) per sub-group");
        if (p.u("base_offset_bytes") != 0)
            throw InternalError("2d_block_io.windowed: base_offset_bytes must be 0");
        if (c.lane_bytes != reference::laneBytes(c.shape))
            throw InternalError("2d_block_io.windowed: lane_bytes disagrees with the host reference");
        for (const Coordinate2d& xy2 : c.coords)
            if (xy2.x < 0 || xy2.y < 1 ||
                (xy2.y + c.shape.block_height + 1) * c.surface.memory_pitch_bytes > int64_t(c.buffer_bytes))
                throw InternalError(
                    "2d_block_io.windowed: every block and the rows around it must lie inside "
                    "buffer_bytes");
        return c;
    }

    int64_t rows() const { return int64_t(buffer_bytes) / surface.memory_pitch_bytes; }

    // The rows each block reaches plus one above and below, and where those rows' offsets land modulo 2^32;
    // overlapping windows merged.
    std::vector<RowRange> windows() const {
        const int64_t pitch = surface.memory_pitch_bytes;
        std::vector<RowRange> w;
        auto add = [&](int64_t first, int64_t end) {
            first = std::max<int64_t>(first, 0), end = std::min(end, rows());
            if (first < end) w.push_back({first, end, {}});
        };
        for (const Coordinate2d& xy : coords)
            for (int64_t row = xy.y - 1; row <= xy.y + shape.block_height; ++row) {
                add(row, row + 1);
                if (row * pitch >= kTwoTo32) {
                    int64_t alias = (row * pitch) % kTwoTo32;
                    add(alias / pitch, alias / pitch + 2);  // an element may straddle two rows there
                }
            }
        std::sort(w.begin(), w.end(), [](const RowRange& a, const RowRange& b) { return a.first < b.first; });
        std::vector<RowRange> merged;
        for (RowRange& r : w)
            if (!merged.empty() && r.first <= merged.back().end)
                merged.back().end = std::max(merged.back().end, r.end);
            else
                merged.push_back(std::move(r));
        return merged;
    }
};

// The window holding sub-group g's block, and the surface and coordinate as seen from its first row.
const RowRange& blockWindow(const std::vector<RowRange>& w, Coordinate2d xy) {
    for (const RowRange& r : w)
        if (r.first <= xy.y - 1 && xy.y + 1 <= r.end) return r;
    throw InternalError("2d_block_io.windowed: no window holds the block");
}

class BlockIo2dWindowedFamily : public Family {
public:
    std::string name() const override { return "2d_block_io.windowed"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema{{"op", ParamType::String},
                                        {"element_size", ParamType::UInt},
                                        {"block_width", ParamType::UInt},
                                        {"block_height", ParamType::UInt},
                                        {"block_count", ParamType::UInt},
                                        {"memory_width_bytes", ParamType::UInt},
                                        {"memory_height_rows", ParamType::UInt},
                                        {"memory_pitch_bytes", ParamType::Int},
                                        {"base_offset_bytes", ParamType::UInt},
                                        {"buffer_bytes", ParamType::UInt},
                                        {"coords", ParamType::IntList},
                                        {"work_groups", ParamType::UInt},
                                        {"sub_groups_per_work_group", ParamType::UInt},
                                        {"lane_bytes", ParamType::UInt}};
        return schema;
    }

    Outcome run(const CaseSpec& spec, RunContext& ctx) const override {
        const WindowedCase c = WindowedCase::fromParams(spec.params);
        const int64_t pitch = c.surface.memory_pitch_bytes;
        KernelHandle kernel = createKernel(ctx, spec.module, spec.kernel);
        std::mt19937_64 rng(ctx.seed);
        std::uniform_int_distribution<int> byte(1, 255);  // never zero: zero means out of bounds
        auto random = [&](size_t n) {
            std::vector<uint8_t> v(n);
            for (auto& b : v) b = uint8_t(byte(rng));
            return v;
        };

        // No fill of the whole buffer: only the windows are seeded and compared.
        cl_int err = CL_SUCCESS;
        MemHandle surface(
            clCreateBuffer(ctx.context, CL_MEM_READ_WRITE, size_t(c.buffer_bytes), nullptr, &err));
        checkCl(err, "clCreateBuffer(" + std::to_string(c.buffer_bytes) + " bytes)");
        std::vector<RowRange> windows = c.windows();
        for (RowRange& w : windows) {
            w.data = random(size_t((w.end - w.first) * pitch));
            checkCl(clEnqueueWriteBuffer(ctx.queue, surface, CL_TRUE, size_t(w.first * pitch), w.data.size(),
                                         w.data.data(), 0, nullptr, nullptr),
                    "clEnqueueWriteBuffer (window)");
        }
        const bool store = c.shape.op == BlockIo2dOp::Store;
        GuardedBuffer lanes(ctx, c.coords.size() * kSubGroupSize * c.lane_bytes);
        std::vector<uint8_t> lane_data;
        if (store) {
            lane_data = random(lanes.size());
            lanes.write(lane_data.data(), lane_data.size());
        }
        std::vector<int32_t> coord_words;
        for (const Coordinate2d& xy : c.coords)
            coord_words.push_back(int32_t(xy.x)), coord_words.push_back(int32_t(xy.y));
        GuardedBuffer coords(ctx, coord_words.size() * 4);
        coords.write(coord_words.data(), coord_words.size() * 4);
        const DoneLayout layout{c.work_groups, c.sub_groups_per_work_group, kSubGroupSize};
        GuardedBuffer done(ctx, layout.bytes());

        KernelArgs args(kernel, spec);
        args.set("surface", surface.get());
        args.set("lanes", lanes.mem());
        args.set("coords", coords.mem());
        args.set("memory_width_bytes", cl_uint(c.surface.memory_width_bytes));
        args.set("memory_height_rows", cl_uint(c.surface.memory_height_rows));
        args.set("memory_pitch_bytes", cl_uint(pitch));
        args.set("base_offset_bytes", cl_uint(0));
        args.set("done", done.mem());
        size_t local = size_t(c.sub_groups_per_work_group) * kSubGroupSize;
        size_t global = local * c.work_groups;
        runNDRange(ctx, args, 1, &global, &local);

        MismatchLog log(store ? "SPV_INTEL_2d_block_io store at byte offsets past 2^31 / 2^32: in-bounds "
                                "elements written, every other byte of the windows unchanged"
                              : "SPV_INTEL_2d_block_io load at byte offsets past 2^31 / 2^32: block data "
                                "mapped to invocations; memory unchanged");
        checkDoneRecords(done.read(), layout, log);
        // What each window must hold afterwards: loads leave it as seeded; stores write their blocks.
        std::vector<std::vector<uint8_t>> expected;
        for (const RowRange& w : windows) expected.push_back(w.data);
        std::vector<uint8_t> lanes_out;
        if (!store) lanes_out = lanes.read();
        for (size_t g = 0; g < c.coords.size(); ++g) {
            const RowRange& w = blockWindow(windows, c.coords[g]);
            const size_t wi = size_t(&w - windows.data());
            Surface2d local_surface = {c.surface.memory_width_bytes, c.surface.memory_height_rows - w.first,
                                       pitch};
            Coordinate2d local_xy = {c.coords[g].x, c.coords[g].y - w.first};
            if (store) {
                std::vector<std::vector<uint8_t>> per_lane(kSubGroupSize);
                for (uint32_t lane = 0; lane < kSubGroupSize; ++lane) {
                    auto first = lane_data.begin() + (g * kSubGroupSize + lane) * c.lane_bytes;
                    per_lane[lane].assign(first, first + c.lane_bytes);
                }
                reference::store2d(c.shape, per_lane, expected[wi], local_surface, local_xy);
                continue;
            }
            auto want = reference::load2d(c.shape, w.data, local_surface, local_xy);
            const reference::AssignedBlock a = reference::assignedBlock(c.shape);
            for (uint32_t lane = 0; lane < kSubGroupSize; ++lane) {
                const uint8_t* got = lanes_out.data() + (g * kSubGroupSize + lane) * c.lane_bytes;
                for (size_t k = 0; k < want[lane].size(); ++k) {
                    const reference::LaneElement& e = want[lane][k];
                    if (!e.defined) {
                        log.skipped();  // no block data assigned to this slot: undefined, not compared
                        continue;
                    }
                    uint64_t actual = 0;
                    std::memcpy(&actual, got + k * a.element_bytes, a.element_bytes);
                    log.checked();
                    if (actual != e.value)
                        log.add("sub-group " + std::to_string(g) + " lane " + std::to_string(lane) +
                                    " element " + std::to_string(k) + " coord (" +
                                    std::to_string(c.coords[g].x) + ", " + std::to_string(c.coords[g].y) +
                                    "), block row 0 at byte offset " + std::to_string(c.coords[g].y * pitch),
                                e.value, actual, a.element_bytes);
                }
            }
        }
        for (size_t wi = 0; wi < windows.size(); ++wi) {
            const RowRange& w = windows[wi];
            std::vector<uint8_t> got(w.data.size());
            checkCl(clEnqueueReadBuffer(ctx.queue, surface, CL_TRUE, size_t(w.first * pitch), got.size(),
                                        got.data(), 0, nullptr, nullptr),
                    "clEnqueueReadBuffer (window)");
            for (size_t i = 0; i < got.size(); ++i) {
                log.checked();
                if (got[i] != expected[wi][i])
                    log.add("surface byte offset " + std::to_string(w.first * pitch + int64_t(i)) + " (row " +
                                std::to_string(w.first + int64_t(i) / pitch) + ", byte " +
                                std::to_string(int64_t(i) % pitch) + ")",
                            expected[wi][i], got[i], 1);
            }
        }
        for (const GuardedBuffer* b : {&lanes, &coords, &done})
            if (std::string bad = b->checkGuards(); !bad.empty()) log.addLine(bad);
        Outcome out = log.outcome();
        if (out.status != Status::Pass)
            out.message = c.shape.str() + ", pitch " + std::to_string(pitch) + " B, buffer " +
                          std::to_string(c.buffer_bytes) + " B\n" + out.message;
        return out;
    }
};

}  // namespace

void register2dBlockIoWindowedFamily(Registry& registry) {
    registry.addFamily(std::make_unique<BlockIo2dWindowedFamily>());
}

}  // namespace cts
