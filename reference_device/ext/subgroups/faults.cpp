// Planted SPV_INTEL_subgroups bugs: each is a mistake a driver could plausibly make (several are modelled
// on real driver or compiler bugs), so the suite must catch every one of them.
#include "reference_device/faults.h"

namespace refdev {

std::vector<FaultInfo> subgroupsFaults() {
    return {
        {"shuffle_down_ignores_next",
         "OpSubgroupShuffleDownINTEL takes Current (not Next) when SubgroupMaxSize <= L + Delta < "
         "2*SubgroupMaxSize"},
        {"shuffle_up_off_by_one",
         "OpSubgroupShuffleUpINTEL takes Previous already when L - Delta == 0 (<= 0 instead of < 0)"},
        {"shuffle_xor_uses_actual_size",
         "OpSubgroupShuffleXorINTEL masks Value with (actual sub-group size - 1): trailing partial "
         "sub-groups "
         "read the wrong invocation"},
        {"shuffle_index_masked",
         "OpSubgroupShuffleINTEL masks InvocationId with (SubgroupMaxSize/2 - 1): the upper half is never "
         "read"},
        {"shuffle_vec3_last_component_own",
         "3-component shuffles move only two components; the third keeps the invocation's own value"},
        {"shuffle_zero_when_some_workgroups",
         "shuffles return 0 in work-groups with an odd linear id (a driver returned 0 when only some "
         "work-groups took the branch holding the shuffle)"},
        {"shuffle_divergent_compacts_lanes",
         "in divergent control flow, shuffles read the n-th invocation that reached the instruction instead "
         "of "
         "SubgroupLocalInvocationId n"},
        {"shuffle_reads_inactive_lane",
         "in divergent control flow, a shuffle whose (active) source lane L has an inactive pair lane L ^ 1 "
         "reads the operand of lane L ^ 1 instead (channel pairs gathered with the wrong half enabled)"},
        {"block_read_stride_simd16",
         "OpSubgroupBlockReadINTEL strides components by 16 elements whatever SubgroupMaxSize is"},
        {"block_read_64bit_as_2x32",
         "64-bit OpSubgroupBlockReadINTEL is done as a 2-component 32-bit block read (halves from words "
         "L + 2jS and L + (2j+1)S)"},
        {"block_read_assumes_16b_alignment",
         "OpSubgroupBlockReadINTEL rounds Ptr down to 16 bytes (the write alignment) although reads need "
         "only 4"},
        {"block_write_assumes_32b_alignment",
         "OpSubgroupBlockWriteINTEL rounds Ptr down to 32 bytes although writes need only 16 (Ptr at an odd "
         "multiple of 16 writes 16 bytes too low)"},
        {"block_write_drops_last_component",
         "OpSubgroupBlockWriteINTEL of a vector does not write its last component"},
        {"image_block_read_x_in_elements",
         "OpSubgroupImageBlockReadINTEL takes the Coordinate x as elements of the result component type, not "
         "bytes"},
        {"image_block_read_oob_zero",
         "OpSubgroupImageBlockReadINTEL returns 0 out of bounds instead of clamping to the edge texel"},
        {"image_block_write_no_x_clip",
         "OpSubgroupImageBlockWriteINTEL does not drop texels right of the image: they land in the next row"},
        {"image_block_write_x_in_elements",
         "OpSubgroupImageBlockWriteINTEL takes the Coordinate x as elements of the Data component type, not "
         "bytes"},
        {"image_block_write_drops_last_row",
         "OpSubgroupImageBlockWriteINTEL of a vector does not write its last row (component)"},
        {"image_block_converts_texels",
         "OpSubgroupImageBlockReadINTEL converts the texels of UNORM/SNORM/HALF_FLOAT/FLOAT images (a typed "
         "read written back: SNORM minimum to -127/-32767, UNORM16 through half precision, NaNs made the "
         "default NaN, denormals flushed) instead of returning raw bits"},
        {"image_from_buffer_pitch_ignored",
         "OpSubgroupImageBlockReadINTEL / WriteINTEL on an image created from a buffer step rows by width * "
         "texel size instead of the image's row pitch"},
        // Sub-group sizes 4 and 64 (Intel's CPU device, profile cpu, is the only one reporting them).
        {"shuffle_source_lane_mod_32",
         "on a sub-group of 64 (SubgroupMaxSize > 32), every shuffle (plain, down, up, xor) takes its source "
         "lane mod 32, as a driver whose lane indices and execution masks are 32-bit: lanes 32-63 are read "
         "from lanes 0-31"},
        {"block_read_stride_max_32",
         "OpSubgroupBlockReadINTEL strides components by min(SubgroupMaxSize, 32) elements (a block-read "
         "lowering sized for SIMD32 at most): on a sub-group of 64, component j of lane L comes from "
         "Ptr[L + 32j]"},
        {"shuffle_down_sg4_window_8",
         "a sub-group of 4 run in 8-wide vector lanes: OpSubgroupShuffleDownINTEL joins Current and Next at "
         "the register width 8, so 4 <= L + Delta < 8 reads the unused lanes 4-7 of Current instead of Next "
         "and Next is read from lane L + Delta - 8"},
        {"block_io_sg4_stride_8",
         "a sub-group of 4 run in 8-wide vector lanes: OpSubgroupBlockReadINTEL / WriteINTEL stride "
         "components by 8 elements (the register width) instead of SubgroupMaxSize 4"},
        // Image block IO beside 2D block IO (profiles xe2 and xe3 are the only ones with both).
        {"image_block_read_via_2d_load",
         "on a device with SPV_INTEL_2d_block_io, OpSubgroupImageBlockReadINTEL is lowered to the untyped 2D "
         "block load, whose out-of-bounds elements read 0: 4-byte-texel reads beyond the image return 0 "
         "instead of the clamped edge texel (devices without 2D block IO keep the clamping image path)"},
        // Local-memory block IO (cl_intel_subgroup_local_block_io: Workgroup Ptr; every profile reports it).
        {"local_block_read_ignores_offset",
         "OpSubgroupBlockReadINTEL with a Workgroup Ptr reads from the start of the work-group's local "
         "memory: "
         "Ptr's offset within local memory is dropped"},
        {"local_block_write_first_half_only",
         "OpSubgroupBlockWriteINTEL with a Workgroup Ptr writes only lanes 0 to SubgroupMaxSize/2 - 1 (the "
         "first half of the sub-group); the other lanes' data never reaches local memory"},
        // Build faults (build_faults.cpp): valid modules a real compiler rejects at clBuildProgram.
        {"build_rejects_block_io_simd32",
         "clBuildProgram fails for a kernel with SubgroupSize 32 that uses buffer, image or media block "
         "read/write (as IGC on DG2)"},
        {"build_rejects_half_vector_shuffle",
         "clBuildProgram fails for a shuffle (plain, down, up, xor) of a half vector (as IGC: undefined "
         "built-in)"},
    };
}

REFDEV_REGISTER_FAULTS("subgroups", subgroupsFaults);

}  // namespace refdev
