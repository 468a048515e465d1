// 2d_block_io.windowed: 2D block loads and stores whose byte offset y * Memory Pitch passes 2^31 or 2^32
// (cases 2d_block_io.scale.offset_past_*, tag huge). The surface buffer is larger than 2 or 4 GiB, so the
// family never fills, reads or mirrors all of it: it seeds and checks only windows of whole rows, the rows
// around each block plus the rows where 32-bit offset arithmetic would land (offset mod 2^32). A device
// truncating the offset then reads other seeded data, or writes into a window that must stay unchanged.
// Kernel ABI and parameters are those of the 2d_block_io family (scripts/assets/generators/2d_block_io.py),
// plus buffer_bytes; base_offset_bytes is 0.
#include <algorithm>
#include <random>

#include "test_common/harness/launch/kernel_util.h"
#include "test_common/harness/model/mismatch.h"
#include "test_common/harness/selection/done_record.h"
#include "test_common/reference/block_io_2d.h"
#include "test_conformance/2d_block_io/launch.h"
#include "test_conformance/2d_block_io/windowed_family.h"

namespace cts {
namespace {

using reference::BlockIo2dOp;
using reference::Coordinate2d;
using reference::Surface2d;

constexpr int64_t kTwoTo32 = int64_t(1) << 32;

struct RowRange {
    int64_t first = 0, end = 0;  // rows [first, end) of the surface buffer
    std::vector<uint8_t> data;   // their bytes as seeded
};

// The manifest's parameters, declared once in fields(); the schema and fromParams() follow from it.
struct WindowedParams : BlockIo2dParams {
    uint64_t buffer_bytes = 0;
};

const ParamFields<WindowedParams>& fields() {
    static const ParamFields<WindowedParams> fields =
        blockIo2dFields<WindowedParams>({{"buffer_bytes", &WindowedParams::buffer_bytes}});
    return fields;
}

struct WindowedCase : BlockIo2dLaunchParams {
    reference::BlockIo2dShape shape;
    uint64_t buffer_bytes = 0;

    static WindowedCase fromParams(const Params& params) {
        const WindowedParams p = readFields(params, fields());
        WindowedCase c;
        if (p.op != "load" && p.op != "store")
            throw InternalError("2d_block_io.windowed: op must be load or store");
        c.shape = readBlockShape(p, p.op == "load" ? BlockIo2dOp::Load : BlockIo2dOp::Store);
        c.readLaunchParams(p, "2d_block_io.windowed");
        c.buffer_bytes = p.buffer_bytes;
        if (p.base_offset_bytes != 0)
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

// The surface buffer, never filled or read whole: only its windows are seeded (with `random`) and read back.
struct WindowedSurface {
    MemHandle buffer;
    std::vector<RowRange> windows;  // with their seeded bytes

    WindowedSurface(RunContext& ctx, const WindowedCase& c,
                    const std::function<std::vector<uint8_t>(size_t)>& random)
        : windows(c.windows()) {
        const int64_t pitch = c.surface.memory_pitch_bytes;
        cl_int err = CL_SUCCESS;
        buffer.reset(clCreateBuffer(ctx.context, CL_MEM_READ_WRITE, size_t(c.buffer_bytes), nullptr, &err));
        checkCl(err, "clCreateBuffer(" + std::to_string(c.buffer_bytes) + " bytes)");
        for (RowRange& w : windows) {
            w.data = random(size_t((w.end - w.first) * pitch));
            checkCl(clEnqueueWriteBuffer(ctx.queue, buffer, CL_TRUE, size_t(w.first * pitch), w.data.size(),
                                         w.data.data(), 0, nullptr, nullptr),
                    "clEnqueueWriteBuffer (window)");
        }
    }

    std::vector<uint8_t> read(RunContext& ctx, const RowRange& w, int64_t pitch) const {
        std::vector<uint8_t> got(w.data.size());
        checkCl(clEnqueueReadBuffer(ctx.queue, buffer, CL_TRUE, size_t(w.first * pitch), got.size(),
                                    got.data(), 0, nullptr, nullptr),
                "clEnqueueReadBuffer (window)");
        return got;
    }
};

// Loads: what sub-group g's lanes hold against the host reference's load of its block from window w.
void checkLoadedLanes(const WindowedCase& c, size_t g, const RowRange& w, const Surface2d& local_surface,
                      Coordinate2d local_xy, const std::vector<uint8_t>& lanes_out, MismatchLog& log) {
    auto want = reference::load2d(c.shape, w.data, local_surface, local_xy);
    const reference::AssignedBlock a = reference::assignedBlock(c.shape);
    for (uint32_t lane = 0; lane < c.sub_group_size; ++lane) {
        const uint8_t* got = lanes_out.data() + (g * c.sub_group_size + lane) * c.lane_bytes;
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
                log.add("sub-group " + std::to_string(g) + " lane " + std::to_string(lane) + " element " +
                            std::to_string(k) + " coord (" + std::to_string(c.coords[g].x) + ", " +
                            std::to_string(c.coords[g].y) + "), block row 0 at byte offset " +
                            std::to_string(c.coords[g].y * c.surface.memory_pitch_bytes),
                        e.value, actual, a.element_bytes);
        }
    }
}

// Every byte of every window against what it must hold afterwards.
void checkWindows(RunContext& ctx, const WindowedCase& c, const WindowedSurface& surface,
                  const std::vector<std::vector<uint8_t>>& expected, MismatchLog& log) {
    const int64_t pitch = c.surface.memory_pitch_bytes;
    for (size_t wi = 0; wi < surface.windows.size(); ++wi) {
        const RowRange& w = surface.windows[wi];
        const std::vector<uint8_t> got = surface.read(ctx, w, pitch);
        for (size_t i = 0; i < got.size(); ++i) {
            log.checked();
            if (got[i] != expected[wi][i])
                log.add("surface byte offset " + std::to_string(w.first * pitch + int64_t(i)) + " (row " +
                            std::to_string(w.first + int64_t(i) / pitch) + ", byte " +
                            std::to_string(int64_t(i) % pitch) + ")",
                        expected[wi][i], got[i], 1);
        }
    }
}

class BlockIo2dWindowedFamily : public Family {
public:
    std::string name() const override { return "2d_block_io.windowed"; }
    const ParamSchema& paramSchema() const override {
        static const ParamSchema schema = schemaOf(fields());
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

        const WindowedSurface surface(ctx, c, random);
        const std::vector<RowRange>& windows = surface.windows;
        const bool store = c.shape.op == BlockIo2dOp::Store;
        BlockIo2dLaunch launch(ctx, c, store, random);
        launch.run(ctx, kernel, spec, surface.buffer.get(), c.surface, 0);

        MismatchLog log(store ? "SPV_INTEL_2d_block_io store at byte offsets past 2^31 / 2^32: in-bounds "
                                "elements written, every other byte of the windows unchanged"
                              : "SPV_INTEL_2d_block_io load at byte offsets past 2^31 / 2^32: block data "
                                "mapped to invocations; memory unchanged");
        checkDoneRecords(launch.done.read(), launch.layout, log);
        // What each window must hold afterwards: loads leave it as seeded; stores write their blocks.
        std::vector<std::vector<uint8_t>> expected;
        for (const RowRange& w : windows) expected.push_back(w.data);
        std::vector<uint8_t> lanes_out;
        if (!store) lanes_out = launch.lanes.read();
        for (size_t g = 0; g < c.coords.size(); ++g) {
            const RowRange& w = blockWindow(windows, c.coords[g]);
            const size_t wi = size_t(&w - windows.data());
            Surface2d local_surface = {c.surface.memory_width_bytes, c.surface.memory_height_rows - w.first,
                                       pitch};
            Coordinate2d local_xy = {c.coords[g].x, c.coords[g].y - w.first};
            if (store)
                reference::store2d(c.shape, launch.storedByLane(g), expected[wi], local_surface, local_xy);
            else
                checkLoadedLanes(c, g, w, local_surface, local_xy, lanes_out, log);
        }
        checkWindows(ctx, c, surface, expected, log);
        for (const GuardedBuffer* b : {&launch.lanes, &launch.coords, &launch.done})
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
