#include "test_conformance/2d_block_io/launch.h"

namespace cts {

namespace {

std::vector<int32_t> coordinateWords(const std::vector<reference::Coordinate2d>& coords) {
    std::vector<int32_t> words;
    for (const reference::Coordinate2d& xy : coords)
        words.push_back(int32_t(xy.x)), words.push_back(int32_t(xy.y));
    return words;
}

// The memory width and height are declared UInt but were always read as int64_t: a value past INT64_MAX
// keeps the error Params::i gives.
int64_t asSigned(const char* key, uint64_t v) {
    if (v > uint64_t(INT64_MAX))
        throw InternalError(std::string("case parameter '") + key + "' = '" + std::to_string(v) +
                            "' is not an integer");
    return int64_t(v);
}

}  // namespace

uint32_t blockIo2dSubGroupSize(const BlockIo2dParams& p) {
    if (!p.sub_group_size) return kBlockIo2dSubGroupSize;
    const uint64_t sg = *p.sub_group_size;
    if (sg != 16 && sg != 32) throw InternalError("2d_block_io: sub_group_size must be 16 or 32");
    return uint32_t(sg);
}

reference::BlockIo2dShape readBlockShape(const BlockIo2dParams& p, reference::BlockIo2dOp op) {
    return {op, p.element_size, p.block_width, p.block_height, p.block_count, blockIo2dSubGroupSize(p)};
}

void BlockIo2dLaunchParams::readLaunchParams(const BlockIo2dParams& p, const char* family) {
    surface = {asSigned("memory_width_bytes", p.memory_width_bytes),
               asSigned("memory_height_rows", p.memory_height_rows), p.memory_pitch_bytes};
    const std::vector<int64_t>& xy = p.coords;
    for (size_t i = 0; i + 1 < xy.size(); i += 2) coords.push_back({xy[i], xy[i + 1]});
    work_groups = p.work_groups;
    sub_groups_per_work_group = p.sub_groups_per_work_group;
    lane_bytes = p.lane_bytes;
    sub_group_size = blockIo2dSubGroupSize(p);
    if (xy.size() % 2 || coords.size() != size_t(work_groups) * sub_groups_per_work_group)
        throw InternalError(std::string(family) + ": coords must hold one (x, y) per sub-group");
}

BlockIo2dLaunch::BlockIo2dLaunch(RunContext& ctx, const BlockIo2dLaunchParams& p, bool store,
                                 const std::function<std::vector<uint8_t>(size_t)>& random)
    : lanes(ctx, p.coords.size() * p.sub_group_size * p.lane_bytes),
      coords(ctx, p.coords.size() * 2 * sizeof(int32_t)),
      done(ctx, DoneLayout{p.work_groups, p.sub_groups_per_work_group, p.sub_group_size}.bytes()),
      coord_words(coordinateWords(p.coords)),
      layout{p.work_groups, p.sub_groups_per_work_group, p.sub_group_size},
      lane_bytes_(p.lane_bytes),
      sub_group_size_(p.sub_group_size) {
    // Stores read seed-random data; loads overwrite the poison.
    if (store) {
        lane_data = random(lanes.size());
        lanes.write(lane_data.data(), lane_data.size());
    }
    coords.write(coord_words.data(), coord_words.size() * sizeof(int32_t));
}

void BlockIo2dLaunch::run(RunContext& ctx, cl_kernel kernel, const CaseSpec& spec, cl_mem surface,
                          const reference::Surface2d& s, uint32_t base_offset_bytes) {
    KernelArgs args(kernel, spec);
    args.set("surface", surface);
    launch(ctx, args, s, base_offset_bytes);
}

void BlockIo2dLaunch::run(RunContext& ctx, cl_kernel kernel, const CaseSpec& spec,
                          const MemoryObject& surface, const reference::Surface2d& s,
                          uint32_t base_offset_bytes) {
    KernelArgs args(kernel, spec);
    surface.bind(args, "surface");
    launch(ctx, args, s, base_offset_bytes);
}

void BlockIo2dLaunch::launch(RunContext& ctx, KernelArgs& args, const reference::Surface2d& s,
                             uint32_t base_offset_bytes) {
    args.set("lanes", lanes.mem());
    args.set("coords", coords.mem());
    args.set("memory_width_bytes", cl_uint(s.memory_width_bytes));
    args.set("memory_height_rows", cl_uint(s.memory_height_rows));
    args.set("memory_pitch_bytes", cl_uint(s.memory_pitch_bytes));
    args.set("base_offset_bytes", cl_uint(base_offset_bytes));
    args.set("done", done.mem());
    size_t local = size_t(layout.sub_groups_per_work_group) * sub_group_size_;
    size_t global = local * layout.work_groups;
    runNDRange(ctx, args, 1, &global, &local);
}

std::vector<std::vector<uint8_t>> BlockIo2dLaunch::storedByLane(size_t g) const {
    std::vector<std::vector<uint8_t>> per_lane(sub_group_size_);
    for (uint32_t lane = 0; lane < sub_group_size_; ++lane) {
        auto first = lane_data.begin() + (g * sub_group_size_ + lane) * lane_bytes_;
        per_lane[lane].assign(first, first + lane_bytes_);
    }
    return per_lane;
}

}  // namespace cts
