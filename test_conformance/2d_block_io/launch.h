// The buffers and arguments every 2d_block_io kernel takes (scripts/generators/2d_block_io.py, "Kernel ABI"),
// shared by the 2d_block_io and 2d_block_io.windowed families: the per-lane data, coordinate and completion
// buffers, the argument binding and the launch. The surface buffer is each family's own (a guarded buffer
// filled whole, or one past 4 GiB seeded in windows).
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "test_common/harness/done_record.h"
#include "test_common/harness/kernel_args.h"
#include "test_common/harness/kernel_util.h"
#include "test_common/harness/memory_object.h"
#include "test_common/harness/params.h"
#include "test_common/reference/block_io_2d.h"

namespace cts {

// Kernels run at 16 (OpExecutionMode SubgroupSize 16, the size the OpenCL environment names), except the
// device-specific 2d_block_io.sg32.* cases, whose parameter sub_group_size is 32.
constexpr uint32_t kBlockIo2dSubGroupSize = 16;

// The sub-group size of a case: its optional parameter sub_group_size, else kBlockIo2dSubGroupSize.
uint32_t blockIo2dSubGroupSize(const Params& p);

// The block shape of the parameters <prefix>element_size, block_width, block_height, block_count, for `op`,
// at the case's sub-group size.
reference::BlockIo2dShape readBlockShape(const Params& p, reference::BlockIo2dOp op,
                                         const std::string& prefix = "");

// The parameter schema of a 2d_block_io family: the block shape and launch parameters every case has
// (BlockIo2dLaunchParams, readBlockShape) plus the family's own `extra` ones.
ParamSchema blockIo2dSchema(std::initializer_list<ParamDecl> extra);

// The manifest parameters every 2d_block_io case has (scripts/generators/2d_block_io.py).
struct BlockIo2dLaunchParams {
    reference::Surface2d surface;
    std::vector<reference::Coordinate2d>
        coords;  // one per sub-group, g = work-group * sub-groups + sub-group
    uint32_t work_groups = 1, sub_groups_per_work_group = 1;
    uint32_t lane_bytes = 0;                           // per-lane bytes the kernel's private array holds
    uint32_t sub_group_size = kBlockIo2dSubGroupSize;  // the module's SubgroupSize execution mode

    // Reads them; coordinates that are not one (x, y) per sub-group are an InternalError naming `family`.
    void readLaunchParams(const Params& p, const char* family);
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
