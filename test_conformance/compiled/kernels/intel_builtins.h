// Built-ins of cl_intel_subgroups_char and cl_intel_media_block_io that clang-15's opencl-c.h does not
// declare. Overloadable, so clang mangles their names and llvm-spirv translates the calls to the extensions'
// opcodes (a plain C declaration would stay a call to an imported function).
#pragma once

#define OVLD __attribute__((overloadable))

uchar OVLD intel_sub_group_shuffle(uchar data, uint index);
uchar OVLD intel_sub_group_shuffle_down(uchar current, uchar next, uint delta);
uchar OVLD intel_sub_group_shuffle_up(uchar previous, uchar current, uint delta);
uchar OVLD intel_sub_group_shuffle_xor(uchar data, uint value);

uchar OVLD intel_sub_group_block_read_uc(const global uchar* p);
uchar2 OVLD intel_sub_group_block_read_uc2(const global uchar* p);
uchar4 OVLD intel_sub_group_block_read_uc4(const global uchar* p);
uchar8 OVLD intel_sub_group_block_read_uc8(const global uchar* p);
void OVLD intel_sub_group_block_write_uc(global uchar* p, uchar data);
void OVLD intel_sub_group_block_write_uc2(global uchar* p, uchar2 data);
void OVLD intel_sub_group_block_write_uc4(global uchar* p, uchar4 data);
void OVLD intel_sub_group_block_write_uc8(global uchar* p, uchar8 data);

uchar OVLD intel_sub_group_media_block_read_uc(int2 src_offset, int width, int height,
                                               read_only image2d_t image);
uchar2 OVLD intel_sub_group_media_block_read_uc2(int2 src_offset, int width, int height,
                                                 read_only image2d_t image);
uchar4 OVLD intel_sub_group_media_block_read_uc4(int2 src_offset, int width, int height,
                                                 read_only image2d_t image);
ushort OVLD intel_sub_group_media_block_read_us(int2 src_offset, int width, int height,
                                                read_only image2d_t image);
ushort2 OVLD intel_sub_group_media_block_read_us2(int2 src_offset, int width, int height,
                                                  read_only image2d_t image);
ushort4 OVLD intel_sub_group_media_block_read_us4(int2 src_offset, int width, int height,
                                                  read_only image2d_t image);
uint OVLD intel_sub_group_media_block_read_ui(int2 src_offset, int width, int height,
                                              read_only image2d_t image);
uint2 OVLD intel_sub_group_media_block_read_ui2(int2 src_offset, int width, int height,
                                                read_only image2d_t image);
uint4 OVLD intel_sub_group_media_block_read_ui4(int2 src_offset, int width, int height,
                                                read_only image2d_t image);

void OVLD intel_sub_group_media_block_write_uc(int2 src_offset, int width, int height, uchar pixels,
                                               write_only image2d_t image);
void OVLD intel_sub_group_media_block_write_uc2(int2 src_offset, int width, int height, uchar2 pixels,
                                                write_only image2d_t image);
void OVLD intel_sub_group_media_block_write_uc4(int2 src_offset, int width, int height, uchar4 pixels,
                                                write_only image2d_t image);
void OVLD intel_sub_group_media_block_write_us(int2 src_offset, int width, int height, ushort pixels,
                                               write_only image2d_t image);
void OVLD intel_sub_group_media_block_write_us2(int2 src_offset, int width, int height, ushort2 pixels,
                                                write_only image2d_t image);
void OVLD intel_sub_group_media_block_write_us4(int2 src_offset, int width, int height, ushort4 pixels,
                                                write_only image2d_t image);
void OVLD intel_sub_group_media_block_write_ui(int2 src_offset, int width, int height, uint pixels,
                                               write_only image2d_t image);
void OVLD intel_sub_group_media_block_write_ui2(int2 src_offset, int width, int height, uint2 pixels,
                                                write_only image2d_t image);
void OVLD intel_sub_group_media_block_write_ui4(int2 src_offset, int width, int height, uint4 pixels,
                                                write_only image2d_t image);
