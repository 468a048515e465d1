// Planted media block IO bugs: each is a mistake a driver could plausibly make, so the suite must catch it.
// Each changes results only in its situation (e.g. media_x_offset_as_elements only for x != 0 with 2- or
// 4-byte elements).
#include "reference_device/faults.h"

namespace refdev {

std::vector<FaultInfo> mediaBlockIoFaults() {
    return {
        {"media_x_offset_as_elements",
         "media block IO takes the Coordinate x component as elements, not bytes (byte x = x * element "
         "size)"},
        {"media_x_rounded_to_8",
         "media block IO rounds the Coordinate x (bytes) down to a multiple of 8 (the environment requires "
         "only 4): x = 4, 12 address 4 bytes too far left"},
        {"media_width_as_bytes",
         "media block IO takes Width as bytes: Width / element size elements per row"},
        {"media_no_retiling",
         "media block IO gives lane i component j region element (j, i) (for i < Width), ignoring the "
         "re-tiling to SubgroupMaxSize-wide rows when Width differs from it"},
        {"media_padding_not_skipped",
         "media block IO packs region rows Width * element size bytes apart instead of padding them to a "
         "power of two"},
        {"media_edge_replicated_as_zero", "media block reads give 0 out of bounds instead of the edge texel"},
        {"media_byte_texels_replicated_as_dwords",
         "media block reads of 1-byte texel images replicate the edge 4-byte group out of bounds instead of "
         "the edge byte"},
        {"media_negative_coords_clamped",
         "media block reads clamp negative Coordinate components to 0 (the region shifts instead of "
         "replicating the edge)"},
        {"media_oob_writes_clamped",
         "media block writes out of bounds write the nearest edge texel instead of being dropped"},
        {"media_tail_written",
         "media block writes of a region smaller than the source also write the source's tail slots as rows "
         "past the region's last row"},
        {"media_write_converts_texels",
         "media block writes to UNORM/SNORM/HALF_FLOAT/FLOAT images store each channel through a typed write "
         "(SNORM minimum to -127/-32767, UNORM16 through half precision, NaNs made the default NaN, "
         "denormals flushed) instead of raw bits"},
        {"media_buffer_image_pitch_from_width",
         "media block IO on images created from a buffer steps rows by width * texel size instead of the row "
         "pitch"},
    };
}

REFDEV_REGISTER_FAULTS("media_block_io", mediaBlockIoFaults);

}  // namespace refdev
