// The buffers and arguments every 2d_block_io kernel takes (scripts/assets/generators/2d_block_io.py, "Kernel
// ABI"), shared by the 2d_block_io and 2d_block_io.windowed families: the per-lane data, coordinate and
// completion buffers, the argument binding and the launch. The surface buffer is each family's own (a guarded
// buffer filled whole, or one past 4 GiB seeded in windows).
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "test_common/harness/launch/kernel_args.h"
#include "test_common/harness/launch/kernel_util.h"
#include "test_common/harness/launch/memory_object.h"
#include "test_common/harness/model/param_fields.h"
#include "test_common/harness/model/params.h"
#include "test_common/harness/selection/done_record.h"
#include "test_common/reference/block_io_2d.h"

namespace cts {

// Kernels run at 16 (OpExecutionMode SubgroupSize 16, the size the OpenCL environment names), except the
// device-specific 2d_block_io.sg32.* cases, whose parameter sub_group_size is 32.
constexpr uint32_t kBlockIo2dSubGroupSize = 16;

// The manifest parameters every 2d_block_io case has (scripts/assets/generators/2d_block_io.py), as read:
// each family's parameter struct derives from it and its field table starts with blockIo2dFields().
struct BlockIo2dParams {
    std::string op;
    uint32_t element_size = 0, block_width = 0, block_height = 0, block_count = 0;
    uint64_t memory_width_bytes = 0, memory_height_rows = 0;
    int64_t memory_pitch_bytes = 0;
    uint64_t base_offset_bytes = 0;
    std::vector<int64_t> coords;  // x0, y0, x1, y1, ...
    uint32_t work_groups = 0, sub_groups_per_work_group = 0, lane_bytes = 0;
    std::optional<uint64_t> sub_group_size;
};

// The field table of a 2d_block_io family: BlockIo2dParams' parameters, then the family's own `extra` ones.
template <class S>
ParamFields<S> blockIo2dFields(std::initializer_list<ParamField<S>> extra) {
    static_assert(std::is_base_of_v<BlockIo2dParams, S>);
    using P = BlockIo2dParams;
    ParamFields<S> fields{{"op", &P::op},
                          {"element_size", &P::element_size},
                          {"block_width", &P::block_width},
                          {"block_height", &P::block_height},
                          {"block_count", &P::block_count},
                          {"memory_width_bytes", &P::memory_width_bytes},
                          {"memory_height_rows", &P::memory_height_rows},
                          {"memory_pitch_bytes", &P::memory_pitch_bytes},
                          {"base_offset_bytes", &P::base_offset_bytes},
                          {"coords", &P::coords},
                          {"work_groups", &P::work_groups},
                          {"sub_groups_per_work_group", &P::sub_groups_per_work_group},
                          {"lane_bytes", &P::lane_bytes},
                          {"sub_group_size", &P::sub_group_size}};
    fields.insert(fields.end(), extra);
    return fields;
}

// The sub-group size of a case: its optional parameter sub_group_size, else kBlockIo2dSubGroupSize.
uint32_t blockIo2dSubGroupSize(const BlockIo2dParams& p);

// The block shape of the parameters element_size, block_width, block_height, block_count, for `op`, at the
// case's sub-group size.
reference::BlockIo2dShape readBlockShape(const BlockIo2dParams& p, reference::BlockIo2dOp op);

// The launch shape of a case.
struct BlockIo2dLaunchParams {
    reference::Surface2d surface;
    std::vector<reference::Coordinate2d>
        coords;  // one per sub-group, g = work-group * sub-groups + sub-group
    uint32_t work_groups = 1, sub_groups_per_work_group = 1;
    uint32_t lane_bytes = 0;                           // per-lane bytes the kernel's private array holds
    uint32_t sub_group_size = kBlockIo2dSubGroupSize;  // the module's SubgroupSize execution mode

    // Takes them from `p`; coordinates that are not one (x, y) per sub-group are an InternalError naming
    // `family`.
    void readLaunchParams(const BlockIo2dParams& p, const char* family);
};

class BlockIo2dLaunch {
public:
    // One sub-group per coordinate. For stores, `random` fills what each lane stores (drawn after the
    // caller's surface data, so a case's seed gives the same bytes as before).
    BlockIo2dLaunch(RunContext& ctx, const BlockIo2dLaunchParams& params, bool store,
                    const std::function<std::vector<uint8_t>(size_t)>& random);

    // Binds surface, lanes, coordinates, width, height, pitch, base offset and done by name (the module
    // table's signature of spec.kernel), then runs the kernel.
    void run(RunContext& ctx, cl_kernel kernel, const CaseSpec& spec, cl_mem surface,
             const reference::Surface2d& s, uint32_t base_offset_bytes);
    // The same with the surface in any memory object (a sub-buffer, USE_HOST_PTR, SVM).
    void run(RunContext& ctx, cl_kernel kernel, const CaseSpec& spec, const MemoryObject& surface,
             const reference::Surface2d& s, uint32_t base_offset_bytes);

    // What sub-group g's lanes stored (stores only), one vector per lane, for reference::store2d.
    std::vector<std::vector<uint8_t>> storedByLane(size_t g) const;

    GuardedBuffer lanes, coords, done;
    std::vector<uint8_t> lane_data;    // stores: the bytes written to `lanes` before the launch
    std::vector<int32_t> coord_words;  // x0, y0, x1, y1, ...
    DoneLayout layout;

private:
    void launch(RunContext& ctx, KernelArgs& args, const reference::Surface2d& s, uint32_t base_offset_bytes);
    uint32_t lane_bytes_;
    uint32_t sub_group_size_;
};

}  // namespace cts
