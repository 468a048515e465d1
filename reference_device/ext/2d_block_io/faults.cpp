// Planted 2D block IO bugs: each is a mistake a driver could plausibly make, so the suite must catch it.
#include "reference_device/faults.h"

namespace refdev {

std::vector<FaultInfo> blockIo2dFaults() {
    return {
        {"oob_load_stale", "2D loads leave out-of-bounds destination elements unchanged instead of zero"},
        {"padding_not_zeroed", "2D loads leave padded block elements unchanged instead of zero"},
        {"transform_row_order_swapped", "2D transform loads pack the higher-numbered row into the low bits"},
        {"transpose_h32_interleave_wrong",
         "2D transpose loads of 32-row blocks give lane i rows i and i+16 instead of 2i and 2i+1"},
        {"blocks_row_interleaved", "2D multi-block loads interleave blocks per row instead of block-major"},
        {"store_writes_oob_or_padding",
         "2D stores write elements right of Memory Width, below Memory Height and padded elements"},
        {"memory_width_as_elements", "2D block IO bounds-checks Memory Width as elements, not bytes"},
        {"pitch_ignored", "2D block IO steps rows by Memory Width instead of Memory Pitch"},
        {"coord_x_as_bytes", "2D block IO takes the Coordinate x component as bytes, not elements"},
        {"one_row_multiblock_noncontiguous",
         "2D loads of one-row multi-block shapes map all blocks as one wide row (lanes get the wrong "
         "columns)"},
        {"right_edge_from_pitch", "2D block IO bounds-checks the right edge against Memory Pitch, not Width"},
        {"oob_check_4byte_granularity",
         "2D loads bounds-check at 4-byte granularity and transform loads per packed row group (zeroing the "
         "last valid rows when Memory Height cuts a group)"},
        {"negative_coord_clamped", "2D block IO clamps negative Coordinate components to zero"},
        {"prefetch_touches_oob",
         "2D prefetches access out-of-bounds addresses (faulting outside the buffer)"},
        {"offset_32bit_wrap",
         "2D block IO keeps byte offsets in unsigned 32 bits: each element's y * Memory Pitch + x * Element "
         "Size (wraps past 4 GiB) and the block origin's (a negative origin wraps to near +4 GiB)"},
        {"offset_int32_overflow",
         "2D block IO keeps byte offsets in signed 32 bits: each element's (negative past 2 GiB) and the "
         "block origin's (below -2^31, e.g. y = -4 with a 512 MiB pitch, it turns positive)"},
        // Alignment: rounding a legal value down to a coarser step than the OpenCL environment requires.
        {"pitch_rounded_to_64",
         "2D block IO steps rows by Memory Pitch rounded down to 64 bytes (the environment requires only a "
         "multiple of 16)"},
        {"coord_x_rounded_to_4_elements",
         "2D block IO rounds the Coordinate x down to a multiple of 4 elements for every element size (the "
         "1-byte rule; 2-byte data needs only 2, 4-byte data 1)"},
        {"memory_width_rounded_to_16",
         "2D block IO bounds-checks against Memory Width rounded down to 16 bytes (the environment allows "
         "any multiple of 4): the last valid bytes read as 0, stores to them are dropped"},
        {"height_or_y_16bit",
         "2D block IO keeps Memory Height and the Coordinate y in 16 bits (rows past 65,535 are lost)"},
        {"width_pitch_or_x_16bit",
         "2D block IO keeps Memory Width, Memory Pitch and the Coordinate x in 16 bits (rows past 65,535 "
         "bytes are lost)"},
        // Sub-group size 32 only (the 2d_block_io.sg32.* cases).
        {"sg32_second_half_gets_first_half_rows",
         "2D block IO at sub-group size 32: lanes 16-31 receive (loads) or store (stores) lanes 0-15's data, "
         "as "
         "if the 16-lane mapping were run twice"},
        {"sg32_old_igc_layout",
         "2D block IO at sub-group size 32 maps blocks wider than 16 elements as IGC before 2.38 did: the "
         "16-lane result type halved, so a 1-byte block 32 wide gives lane 0 (row, column) (0,0), (0,1), "
         "(2,0), "
         "(2,1) instead of (0,0), (1,0), (2,0), (3,0)"},
        {"store_narrow_block_drops_rows",
         "a 2D store whose padded block is narrower than the sub-group (each lane's elements span several "
         "rows: 16/32/64-bit 2r8x1c and 4r4x1c at sub-group size 16) writes block row 0 only (the store "
         "shapes intel-xpu-backend-for-triton keeps off the SPIR-V path)"},
    };
}

REFDEV_REGISTER_FAULTS("2d_block_io", blockIo2dFaults);

}  // namespace refdev
