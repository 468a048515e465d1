// The objects a media_block_io kernel runs on (scripts/assets/generators/media_block_io.py, "Kernel ABI"):
// the image, plain or created from a buffer, and the per-sub-group coordinate, lane data, completion and
// read-back buffers, with their binding and the launch.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "test_common/harness/launch/kernel_args.h"
#include "test_common/harness/launch/kernel_util.h"
#include "test_common/harness/selection/done_record.h"
#include "test_conformance/media_block_io/media_case.h"

namespace cts::media {

// The image the case's kernel reads or writes, holding `model`'s bytes: plain (copied from the host) or a
// view of a buffer with the model's row pitch.
class MediaImageObject {
public:
    MediaImageObject(RunContext& ctx, const MediaCase& c, const reference::MediaImage& model);
    cl_mem image() const { return image_.get(); }
    // The image's bytes after the kernel, in the model's layout (row_pitch_bytes apart; from a buffer the
    // pitch gaps too).
    std::vector<uint8_t> read(RunContext& ctx, const reference::MediaImage& model) const;

private:
    MemHandle buffer_, image_;
};

// One sub-group per work-group: sub-group g is work-group g, at Coordinate c.coords[g].
class MediaBlockLaunch {
public:
    // Writes and round trips: `data` is what each lane writes, drawn from `rng` after the image, with the
    // slots the write ignores holding ignoredDataByte(image).
    MediaBlockLaunch(RunContext& ctx, const MediaCase& c, const reference::MediaImage& image,
                     std::mt19937_64& rng);

    // Binds image, coords, lanes, done (and back for round trips) by name, then runs the kernel.
    void run(RunContext& ctx, cl_kernel kernel, const CaseSpec& spec, cl_mem image);

    // Sub-group g's part of `bytes` (lanes read back, or `data`).
    std::vector<uint8_t> subGroupBytes(const std::vector<uint8_t>& bytes, size_t g) const;

    DoneLayout layout;
    GuardedBuffer coords, lanes, done, back;
    std::vector<uint8_t> data;  // writes: the bytes written to `lanes` before the launch

private:
    Op op_;
    size_t sub_group_bytes_;
};

}  // namespace cts::media
