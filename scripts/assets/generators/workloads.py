"""workloads.* cases: kernels shaped like what compilers build from these extensions together (Triton's Intel
backend, SYCL joint_matrix, oneDNN), checked element by element against plain host loops written apart from
the per-instruction host reference (test_conformance/workloads/).

gemm_2d (Xe-HPC-like, sub-group size 16): one sub-group computes one 8 x 16 tile of D = A * B: a loop over K
with a 2D block load of A, a 2D block load-transform (VNNI) of row-major B or a 2D block load-transpose of
column-major B, an optional 2D prefetch of the next K step, OpSubgroupMatrixMultiplyAccumulateINTEL chained
over K, and a 2D block store of the tile. Matrix sizes are not multiples of the tile, so edge tiles rely on
out-of-bounds zero fill (loads) and dropped elements (stores). With an epilogue, the tile's rows are reduced
across the sub-group with a ShuffleXor butterfly (int32: wrapping sum; float: maximum).
Kernel arguments:
    0 a, 1 b, 2 d       CrossWorkgroup uchar*  surfaces: A (m x k), B (k x n, or n x k when transposed),
                                               D (m x n), each row-major with its own pitch
    3 done              CrossWorkgroup uint*   done[s] = s + 0x1000 at the end: the record that the kernel ran
    4 rows              CrossWorkgroup uint*   epilogue: rows[(8 tm + r) * tiles_n + tn] = reduction of tile
                                               row r (written by lane r); unused otherwise
    5 m, 6 n, 7 k, 8 a_pitch, 9 b_pitch, 10 d_pitch (bytes), 11 tiles_n   (uint)
Sub-group g = WorkgroupId * NumSubgroups + SubgroupId computes tile (tm, tn) = (g / tiles_n, g % tiles_n),
and s = g * 16 + SubgroupLocalInvocationId.

gemm_block_read (Xe-HPG-like, sub-group size 8, no 2D block IO): the same GEMM with an 8 x 8 tile whose A rows
and packed B rows come through OpSubgroupBlockReadINTEL from buffers the host padded to whole tiles (A: rows of
packed 32-bit words; B: VNNI-packed, 4 int8 or 2 16-bit rows per word); lane L stores column L of each row
with a plain store, only inside m x n. Arguments: 0 a, 1 b (uint*), 2 d (T*), 3 done, 4 m, 5 n, 6 a_words,
7 b_words (words per padded row), 8 k_steps, 9 tiles_n.

media_filter (Xe-HPG-like, sub-group size 8): each sub-group reads an 8 x 8 tile of a 32-bit image with
OpSubgroupImageMediaBlockReadINTEL, plus the tiles left and right of it, and applies the 1D filter
out = left + 2 * centre + right with ShuffleUp(prev, cur, 1) and ShuffleDown(cur, next, 1); out-of-bounds reads
replicate the edge. Arguments: 0 image (read_only image2d), 1 out (uint*, width x height), 2 done,
3 width, 4 height, 5 tiles_x.

image_tile_2d (Xe2-like, sub-group size 16, images and 2D block IO on one device): one sub-group moves one
tile of TW x H elements (e = 1, 2 or 4 bytes; TW = 32 for e = 1, else 16; H = 4 or 8) between a CL_R
unsigned-integer image of e-byte texels and a row-major buffer, adding c(x) = 3 x + 1 (mod 2^(8e)) to the
element of column x. image_to_buffer: OpSubgroupImageBlockReadINTEL of H components (uint for e = 4, ushort
otherwise: for e = 1 lane L gets texels 2L and 2L + 1, the layout of a 1-byte 2D block 32 wide), then
OpSubgroup2DBlockStoreINTEL into the buffer with Memory Height = height, so rows past the image are dropped.
Memory Width is width * e (columns past the image dropped) for 1- and 2-byte texels, whose out-of-bounds
image reads are undefined; for 4-byte texels it is the width of whole tiles, so the buffer also holds the
clamped edge texels an out-of-bounds image block read returns. buffer_to_image: OpSubgroup2DBlockLoadINTEL of the same block, then OpSubgroupImageBlockWriteINTEL.
Arguments: 0 image (read_only or write_only image2d), 1 buf (uchar*), 2 done, 3 width, 4 height (texels),
5 pitch, 6 mem_width (bytes: the 2D block Memory Width), 7 tiles_x, 8 tiles (sub-groups with g >= tiles do only their done record).
"""

from assets import spvgen

HPC_REQ = ["ext=cl_intel_subgroup_2d_block_io@1.1", "ext=cl_intel_subgroup_matrix_multiply_accumulate@1.1",
           "min_sg_size=16"]
HPG_REQ = ["ext=cl_intel_subgroup_matrix_multiply_accumulate@1.1", "ext=cl_intel_spirv_subgroups",
           "min_sg_size=8"]
MEDIA_REQ = ["ext=cl_intel_spirv_media_block_io", "ext=cl_intel_spirv_subgroups", "sg_size=8", "images",
             "image_format=CL_R/CL_UNSIGNED_INT32"]

IMAGE_TILE_REQ = ["ext=cl_intel_subgroup_2d_block_io@1.1", "min_sg_size=16", "images", "ext=cl_intel_spirv_subgroups"]
IMAGE_TILE_FORMAT = {1: "CL_UNSIGNED_INT8", 2: "CL_UNSIGNED_INT16", 4: "CL_UNSIGNED_INT32"}

# Formats of the N = 16 GEMM: name -> (K, A element bytes, B element bytes, A lane type, B lane type,
# accumulator lane type, accumulator bytes, operand mask, extra requirements)
FORMATS_16 = {
    "int8": (32, 1, 1, "v8ushort", "v8uint", "v8uint", 4,
             "MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL", []),
    "fp16_fp32": (16, 2, 2, "v8ushort", "v8uint", "v8float", 4,
                  "MatrixAPackedFloat16INTEL|MatrixBPackedFloat16INTEL", []),
    "fp16_fp16": (16, 2, 2, "v8ushort", "v8uint", "v8half", 2,
                  "MatrixAPackedFloat16INTEL|MatrixBPackedFloat16INTEL", ["fp16"]),
    "bf16_fp32": (16, 2, 2, "v8ushort", "v8uint", "v8float", 4,
                  "MatrixAPackedBFloat16INTEL|MatrixBPackedBFloat16INTEL", []),
    "bf16_bf16": (16, 2, 2, "v8ushort", "v8uint", "v8ushort", 2,
                  "MatrixAPackedBFloat16INTEL|MatrixBPackedBFloat16INTEL|MatrixCBFloat16INTEL|"
                  "MatrixResultBFloat16INTEL", []),
    "tf32_fp32": (8, 4, 4, "v4float", "v8float", "v8float", 4, "MatrixATF32INTEL|MatrixBTF32INTEL",
                  ["ext=cl_intel_subgroup_matrix_multiply_accumulate_tf32"]),
}
# Formats of the N = 8 GEMM: name -> (K, elements per A/B word, accumulator lane type, operand mask)
FORMATS_8 = {
    "int8": (32, 4, "v8uint", "MatrixAPackedInt8INTEL|MatrixBPackedInt8INTEL"),
    "fp16_fp32": (16, 2, "v8float", "MatrixAPackedFloat16INTEL|MatrixBPackedFloat16INTEL"),
    "bf16_fp32": (16, 2, "v8float", "MatrixAPackedBFloat16INTEL|MatrixBPackedBFloat16INTEL"),
}
SIGNED_MASK = "MatrixASignedComponentsINTEL|MatrixBSignedComponentsINTEL|"
SCALAR = {"v8ushort": "ushort", "v8uint": "uint", "v8float": "float", "v8half": "half", "v4float": "float"}
COUNT = {"v8ushort": 8, "v8uint": 8, "v8float": 8, "v8half": 8, "v4float": 4}

# Matrix sizes (m, n, k) per format: none a multiple of the tile, every 2D surface at least 64 bytes wide, and
# an even tile count (two sub-groups per work-group).
# k is not a multiple of the VNNI packing either (int8 99, 16-bit 51): the last K step's B block ends inside a
# packed row group.
SIZES_16 = {"int8": (44, 72, 99), "fp16_fp32": (44, 40, 51), "fp16_fp16": (44, 40, 51),
            "bf16_fp32": (44, 40, 51), "bf16_bf16": (44, 40, 51), "tf32_fp32": (44, 40, 28)}
SIZES_8 = {"int8": (20, 28, 100), "fp16_fp32": (20, 28, 52), "bf16_fp32": (20, 28, 52)}


def header(comment, caps, extensions, sg, names):
    return spvgen.kernel_header([comment], caps, extensions, sg, names)


BASE_TYPES = spvgen.types("void", "bool", "uchar", "ushort", "uint", "ulong", "float", "v2uint", "v3ulong", "v8bool",
                          "v8uint", "ptr_in_uint", "ptr_in_v3ulong", "ptr_cw_uchar", "ptr_cw_uint") + [
    "     %uint_0 = OpConstant %uint 0",
    "     %uint_1 = OpConstant %uint 1",
    "     %uint_2 = OpConstant %uint 2",
    "     %uint_3 = OpConstant %uint 3",
    "     %uint_4 = OpConstant %uint 4",
    "  %uint_not3 = OpConstant %uint 0xfffffffc",
    "     %uint_8 = OpConstant %uint 8",
    "    %uint_16 = OpConstant %uint 16",
    spvgen.DONE_MAGIC_CONSTANT,
]


def vector_types(names, have):
    out = []
    for t in names:
        if t in have:
            continue
        have.add(t)
        out.append("%%%s = OpTypeVector %%%s %d" % (t, SCALAR[t], COUNT[t]))
    return out


def done_record(sg_size):
    return ["    %%g_lanes = OpIMul %%uint %%g %s" % sg_size,
            "          %s = OpIAdd %uint %g_lanes %lane"] + spvgen.done_record_code("%s", "%done", "%ptr_cw_uint")


def gemm2d_text(fmt, b_layout, prefetch, epilogue, signed, prefetch_distance=1):
    """prefetch_distance: how many K steps ahead the 2D prefetch reads (1: the next step)."""
    k_tile, ea, eb, a_t, b_t, acc_t, acc_bytes, mask, _ = FORMATS_16[fmt]
    if signed:
        mask = SIGNED_MASK + mask
    caps = ["Addresses", "Kernel", "Int8", "Int16", "Int64", "Vector16", "SubgroupDispatch"]
    if acc_t == "v8half":
        caps.append("Float16")
    caps += ["Subgroup2DBlockIOINTEL", "Subgroup2DBlockTransformINTEL" if b_layout == "row_major"
             else "Subgroup2DBlockTransposeINTEL", "SubgroupMatrixMultiplyAccumulateINTEL"]
    exts = ["SPV_INTEL_2d_block_io", "SPV_INTEL_subgroup_matrix_multiply_accumulate"]
    if epilogue:
        caps.append("SubgroupShuffleINTEL")
        exts.append("SPV_INTEL_subgroups")
    lines = header("workloads GEMM tile 8 x 16 (%s, B %s%s%s): 2D load A, 2D %s B, MMA chained over K, "
                   "2D store D" % (fmt, b_layout, (", prefetch %d K steps ahead" % prefetch_distance
                                                   if prefetch_distance > 1 else ", prefetch") if prefetch else "",
                                   ", epilogue" if epilogue else "",
                                   "load-transform" if b_layout == "row_major" else "load-transpose"),
                   caps, exts, 16, ["a", "b", "d", "done", "rows", "m", "n", "k", "a_pitch", "b_pitch",
                                    "d_pitch", "tiles_n"])
    lines += BASE_TYPES
    have = {"v8uint"}
    if acc_t == "v8half":
        lines.append("       %half = OpTypeFloat 16")
    lines += vector_types([a_t, b_t, acc_t], have)
    for t in sorted({a_t, b_t, acc_t}):
        lines += ["%%ptr_fn_%s = OpTypePointer Function %%%s" % (t, t)]
    for s in sorted({SCALAR[a_t], SCALAR[b_t], SCALAR[acc_t]}):
        lines += ["%%ptr_fn_%s = OpTypePointer Function %%%s" % (s, s)]
    a_tile_w = {1: 32, 2: 16, 4: 8}[ea]  # A block: K elements of one row, 8 rows
    if b_layout == "row_major":
        b_op = "OpSubgroup2DBlockLoadTransformINTEL" if eb < 4 else "OpSubgroup2DBlockLoadINTEL"
        b_shape = (eb, 16, k_tile)  # element size, width (columns of B), height (K rows)
    else:
        b_op = "OpSubgroup2DBlockLoadTransposeINTEL"
        b_shape = (4, 8, 16)  # 8 dwords of K (packed), 16 columns of B
    lines += [
        "  %%k_tile = OpConstant %%uint %d" % k_tile,
        "      %%eb = OpConstant %%uint %d" % eb,
        "  %%a_e = OpConstant %%uint %d" % ea,
        " %%a_w = OpConstant %%uint %d" % a_tile_w,
        "  %%b_e = OpConstant %%uint %d" % b_shape[0],
        "  %%b_w = OpConstant %%uint %d" % b_shape[1],
        "  %%b_h = OpConstant %%uint %d" % b_shape[2],
        "  %%d_e = OpConstant %%uint %d" % acc_bytes,
        "  %%acc_zero = OpConstantNull %%%s" % acc_t,
    ]
    lines += spvgen.SUBGROUP_INDEX_VARIABLES
    lines += [
        "  %kernel_ty = OpTypeFunction %void %ptr_cw_uchar %ptr_cw_uchar %ptr_cw_uchar %ptr_cw_uint "
        "%ptr_cw_uint %uint %uint %uint %uint %uint %uint %uint",
        "       %test = OpFunction %void None %kernel_ty",
        "          %a = OpFunctionParameter %ptr_cw_uchar",
        "          %b = OpFunctionParameter %ptr_cw_uchar",
        "          %d = OpFunctionParameter %ptr_cw_uchar",
        "       %done = OpFunctionParameter %ptr_cw_uint",
        "       %rows = OpFunctionParameter %ptr_cw_uint",
        "          %m = OpFunctionParameter %uint",
        "          %n = OpFunctionParameter %uint",
        "          %k = OpFunctionParameter %uint",
        "    %a_pitch = OpFunctionParameter %uint",
        "    %b_pitch = OpFunctionParameter %uint",
        "    %d_pitch = OpFunctionParameter %uint",
        "    %tiles_n = OpFunctionParameter %uint",
        "      %entry = OpLabel",
        "      %%a_var = OpVariable %%ptr_fn_%s Function" % a_t,
        "      %%b_var = OpVariable %%ptr_fn_%s Function" % b_t,
        "      %%d_var = OpVariable %%ptr_fn_%s Function" % acc_t,
    ] + spvgen.SUBGROUP_INDEX_CODE + [
        "         %tm = OpUDiv %uint %g %tiles_n",
        "         %tn = OpUMod %uint %g %tiles_n",
        "       %row0 = OpIMul %uint %tm %uint_8",
        "       %col0 = OpIMul %uint %tn %uint_16",
        # Memory Width of 1- and 2-byte data must be a multiple of 4 bytes: a row of k elements is padded to
        # one (with zeros the host provides), while B keeps exactly k rows, so K can end inside a VNNI row group.
        "    %a_bytes = OpIMul %uint %k %a_e",
        "    %a_bytes3 = OpIAdd %uint %a_bytes %uint_3",
        "    %a_width = OpBitwiseAnd %uint %a_bytes3 %uint_not3",
        "    %d_width = OpIMul %uint %n %d_e",
        "      %%a_dst = OpInBoundsAccessChain %%ptr_fn_%s %%a_var %%uint_0" % SCALAR[a_t],
        "      %%b_dst = OpInBoundsAccessChain %%ptr_fn_%s %%b_var %%uint_0" % SCALAR[b_t],
        "      %%d_src = OpInBoundsAccessChain %%ptr_fn_%s %%d_var %%uint_0" % SCALAR[acc_t],
    ]
    if b_layout == "row_major":
        lines += ["    %b_width = OpIMul %uint %n %eb", "   %b_height = OpCopyObject %uint %k"]
    else:
        lines += ["    %b_bytes = OpIMul %uint %k %eb", "    %b_bytes3 = OpIAdd %uint %b_bytes %uint_3",
                  "    %b_width = OpBitwiseAnd %uint %b_bytes3 %uint_not3", "   %b_height = OpCopyObject %uint %n"]

    def coords(tag, kk):
        out = ["   %%%s_ca = OpCompositeConstruct %%v2uint %s %%row0" % (tag, kk)]
        if b_layout == "row_major":
            out.append("   %%%s_cb = OpCompositeConstruct %%v2uint %%col0 %s" % (tag, kk))
        else:
            # Column-major B read as 4-byte elements: x counts dwords of packed K.
            out += ["   %%%s_kb = OpIMul %%uint %s %%eb" % (tag, kk),
                    "   %%%s_kx = OpUDiv %%uint %%%s_kb %%uint_4" % (tag, tag),
                    "   %%%s_cb = OpCompositeConstruct %%v2uint %%%s_kx %%col0" % (tag, tag)]
        return out

    lines += [
        "               OpBranch %head",
        "       %head = OpLabel",
        "         %kk = OpPhi %uint %uint_0 %entry %kk_next %body",
        "        %%acc = OpPhi %%%s %%acc_zero %%entry %%acc_next %%body" % acc_t,
        "       %more = OpULessThan %bool %kk %k",
        "               OpLoopMerge %end %body None",
        "               OpBranchConditional %more %body %end",
        "       %body = OpLabel",
        "    %kk_next = OpIAdd %uint %kk %k_tile",
    ] + coords("cur", "%kk")
    if prefetch:
        # The next K step's tiles (or prefetch_distance steps ahead); past the end they are out of bounds,
        # which a prefetch ignores.
        if prefetch_distance > 1:
            lines += ["   %%kk_pf_off = OpIMul %%uint %%k_tile %%uint_%d" % prefetch_distance,
                      "      %kk_pf = OpIAdd %uint %kk %kk_pf_off"]
        lines += coords("nxt", "%kk_next" if prefetch_distance == 1 else "%kk_pf") + [
            "               OpSubgroup2DBlockPrefetchINTEL %a_e %a_w %uint_8 %uint_1 %a %a_width %m %a_pitch "
            "%nxt_ca",
            "               OpSubgroup2DBlockPrefetchINTEL %b_e %b_w %b_h %uint_1 %b %b_width %b_height "
            "%b_pitch %nxt_cb",
        ]
    lines += [
        "               OpSubgroup2DBlockLoadINTEL %a_e %a_w %uint_8 %uint_1 %a %a_width %m %a_pitch %cur_ca "
        "%a_dst",
        "               %s %%b_e %%b_w %%b_h %%uint_1 %%b %%b_width %%b_height %%b_pitch %%cur_cb %%b_dst" % b_op,
        "      %%a_val = OpLoad %%%s %%a_var" % a_t,
        "      %%b_val = OpLoad %%%s %%b_var" % b_t,
        "   %%acc_next = OpSubgroupMatrixMultiplyAccumulateINTEL %%%s %%k_tile %%a_val %%b_val %%acc %s"
        % (acc_t, mask),
        "               OpBranch %head",
        "        %end = OpLabel",
        "               OpStore %d_var %acc",
        "      %d_crd = OpCompositeConstruct %v2uint %col0 %row0",
        "               OpSubgroup2DBlockStoreINTEL %d_e %uint_16 %uint_8 %uint_1 %d_src %d %d_width %m %d_pitch "
        "%d_crd",
    ]
    if epilogue:
        lines += epilogue_code(acc_t)
    lines += done_record("%uint_16") + ["               OpReturn", "               OpFunctionEnd", ""]
    return "\n".join(lines)


def epilogue_code(acc_t):
    """Butterfly across the 16 lanes: every lane ends with the reduction of each row; lane r stores row r."""
    lines = []
    prev = "%acc"
    for step in (8, 4, 2, 1):
        lines.append("   %%x%d = OpSubgroupShuffleXorINTEL %%%s %s %%uint_%d" % (step, acc_t, prev, step))
        if acc_t == "v8uint":
            lines.append("   %%r%d = OpIAdd %%v8uint %s %%x%d" % (step, prev, step))
        else:
            lines += ["   %%gt%d = OpFOrdGreaterThan %%v8bool %s %%x%d" % (step, prev, step),
                      "   %%r%d = OpSelect %%%s %%gt%d %s %%x%d" % (step, acc_t, step, prev, step)]
        prev = "%%r%d" % step
    lines += [
        "   %red_row = OpULessThan %bool %lane %uint_8",
        "               OpSelectionMerge %red_end None",
        "               OpBranchConditional %red_row %red_store %red_end",
        "  %red_store = OpLabel",
        "   %%red_v = OpVectorExtractDynamic %%%s %s %%lane" % (SCALAR[acc_t], prev),
        ("   %red_bits = OpBitcast %uint %red_v" if acc_t != "v8uint" else
         "   %red_bits = OpCopyObject %uint %red_v"),
        "   %red_r = OpIAdd %uint %row0 %lane",
        "   %red_i0 = OpIMul %uint %red_r %tiles_n",
        "   %red_i = OpIAdd %uint %red_i0 %tn",
        "   %red_p = OpInBoundsPtrAccessChain %ptr_cw_uint %rows %red_i",
        "               OpStore %red_p %red_bits",
        "               OpBranch %red_end",
        "    %red_end = OpLabel",
    ]
    return lines


def gemm_block_read_text(fmt, signed):
    k_tile, per_word, acc_t, mask = FORMATS_8[fmt]
    if signed:
        mask = SIGNED_MASK + mask
    acc_s = SCALAR[acc_t]
    caps = ["Addresses", "Kernel", "Int8", "Int16", "Int64", "Vector16", "SubgroupDispatch",
            "SubgroupBufferBlockIOINTEL", "SubgroupMatrixMultiplyAccumulateINTEL"]
    lines = header("workloads GEMM tile 8 x 8 (%s), sub-group size 8: A and packed B rows through sub-group "
                   "buffer block reads, MMA chained over K, per-lane stores inside m x n" % fmt,
                   caps, ["SPV_INTEL_subgroups", "SPV_INTEL_subgroup_matrix_multiply_accumulate"], 8,
                   ["a", "b", "d", "done", "m", "n", "a_words", "b_words", "k_steps", "tiles_n"])
    lines += BASE_TYPES
    lines += vector_types([acc_t], {"v8uint"})
    if acc_s != "uint":
        lines.append("%%ptr_cw_%s = OpTypePointer CrossWorkgroup %%%s" % (acc_s, acc_s))
    lines += ["  %%k_tile = OpConstant %%uint %d" % k_tile,
              "  %%k_words = OpConstant %%uint %d" % (k_tile // per_word),
              "  %%acc_zero = OpConstantNull %%%s" % acc_t]
    lines += ["  %%uint_c%d = OpConstant %%uint %d" % (i, i) for i in range(8)]
    lines += spvgen.SUBGROUP_INDEX_VARIABLES
    lines += [
        "  %%kernel_ty = OpTypeFunction %%void %%ptr_cw_uint %%ptr_cw_uint %%ptr_cw_%s %%ptr_cw_uint %%uint %%uint "
        "%%uint %%uint %%uint %%uint" % acc_s,
        "       %test = OpFunction %void None %kernel_ty",
        "          %a = OpFunctionParameter %ptr_cw_uint",
        "          %b = OpFunctionParameter %ptr_cw_uint",
        "          %%d = OpFunctionParameter %%ptr_cw_%s" % acc_s,
        "       %done = OpFunctionParameter %ptr_cw_uint",
        "          %m = OpFunctionParameter %uint",
        "          %n = OpFunctionParameter %uint",
        "    %a_words = OpFunctionParameter %uint",
        "    %b_words = OpFunctionParameter %uint",
        "    %k_steps = OpFunctionParameter %uint",
        "    %tiles_n = OpFunctionParameter %uint",
        "      %entry = OpLabel",
    ] + spvgen.SUBGROUP_INDEX_CODE + [
        "         %tm = OpUDiv %uint %g %tiles_n",
        "         %tn = OpUMod %uint %g %tiles_n",
        "       %row0 = OpIMul %uint %tm %uint_8",
        "       %col0 = OpIMul %uint %tn %uint_8",
        "               OpBranch %head",
        "       %head = OpLabel",
        "          %t = OpPhi %uint %uint_0 %entry %t_next %body",
        "        %%acc = OpPhi %%%s %%acc_zero %%entry %%acc_next %%body" % acc_t,
        "       %more = OpULessThan %bool %t %k_steps",
        "               OpLoopMerge %end %body None",
        "               OpBranchConditional %more %body %end",
        "       %body = OpLabel",
        "     %t_next = OpIAdd %uint %t %uint_1",
        "      %a_col = OpIMul %uint %t %k_words",
        "      %b_row = OpIMul %uint %t %uint_8",
    ]
    for r in range(8):
        # A row row0 + r, words [a_col, a_col + 8): lane L gets word L (K elements 4L.. or 2L..).
        lines += ["   %%ar%d = OpIAdd %%uint %%row0 %%uint_c%d" % (r, r),
                  "   %%ao%d = OpIMul %%uint %%ar%d %%a_words" % (r, r),
                  "   %%ai%d = OpIAdd %%uint %%ao%d %%a_col" % (r, r),
                  "   %%ap%d = OpInBoundsPtrAccessChain %%ptr_cw_uint %%a %%ai%d" % (r, r),
                  "   %%av%d = OpSubgroupBlockReadINTEL %%uint %%ap%d" % (r, r),
                  # Packed B row b_row + r (K rows 4 (b_row + r).. or 2 (b_row + r)..), columns col0 + L.
                  "   %%br%d = OpIAdd %%uint %%b_row %%uint_c%d" % (r, r),
                  "   %%bo%d = OpIMul %%uint %%br%d %%b_words" % (r, r),
                  "   %%bi%d = OpIAdd %%uint %%bo%d %%col0" % (r, r),
                  "   %%bp%d = OpInBoundsPtrAccessChain %%ptr_cw_uint %%b %%bi%d" % (r, r),
                  "   %%bv%d = OpSubgroupBlockReadINTEL %%uint %%bp%d" % (r, r)]
    lines += ["   %%a_val = OpCompositeConstruct %%v8uint %s" % " ".join("%%av%d" % r for r in range(8)),
              "   %%b_val = OpCompositeConstruct %%v8uint %s" % " ".join("%%bv%d" % r for r in range(8)),
              "   %%acc_next = OpSubgroupMatrixMultiplyAccumulateINTEL %%%s %%k_tile %%a_val %%b_val %%acc %s"
              % (acc_t, mask),
              "               OpBranch %head",
              "        %end = OpLabel",
              "       %dcol = OpIAdd %uint %col0 %lane",
              "     %col_in = OpULessThan %bool %dcol %n"]
    for r in range(8):
        lines += ["   %%dr%d = OpIAdd %%uint %%row0 %%uint_c%d" % (r, r),
                  "   %%rin%d = OpULessThan %%bool %%dr%d %%m" % (r, r),
                  "   %%ok%d = OpLogicalAnd %%bool %%rin%d %%col_in" % (r, r),
                  "               OpSelectionMerge %%sm%d None" % r,
                  "               OpBranchConditional %%ok%d %%st%d %%sm%d" % (r, r, r),
                  "   %%st%d = OpLabel" % r,
                  "   %%dv%d = OpCompositeExtract %%%s %%acc %d" % (r, acc_s, r),
                  "   %%do%d = OpIMul %%uint %%dr%d %%n" % (r, r),
                  "   %%di%d = OpIAdd %%uint %%do%d %%dcol" % (r, r),
                  "   %%dp%d = OpInBoundsPtrAccessChain %%ptr_cw_%s %%d %%di%d" % (r, acc_s, r),
                  "               OpStore %%dp%d %%dv%d" % (r, r),
                  "               OpBranch %%sm%d" % r,
                  "   %%sm%d = OpLabel" % r]
    lines += done_record("%uint_8") + ["               OpReturn", "               OpFunctionEnd", ""]
    return "\n".join(lines)


def media_filter_text():
    caps = ["Addresses", "Kernel", "Int8", "Int16", "Int64", "Vector16", "SubgroupDispatch", "ImageBasic",
            "SubgroupShuffleINTEL", "SubgroupImageMediaBlockIOINTEL"]
    lines = header("workloads media block read tile 8 x 8 (32-bit texels) feeding a 1D filter "
                   "left + 2 centre + right through ShuffleUp / ShuffleDown, sub-group size 8",
                   caps, ["SPV_INTEL_subgroups", "SPV_INTEL_media_block_io"], 8,
                   ["image", "out", "done", "width", "height", "tiles_x"])
    lines += BASE_TYPES
    lines += [
        "      %img_t = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly",
        "     %int_32 = OpConstant %uint 32",
    ]
    lines += ["  %%uint_c%d = OpConstant %%uint %d" % (i, i) for i in range(8)]
    lines += spvgen.SUBGROUP_INDEX_VARIABLES
    lines += [
        "  %kernel_ty = OpTypeFunction %void %img_t %ptr_cw_uint %ptr_cw_uint %uint %uint %uint",
        "       %test = OpFunction %void None %kernel_ty",
        "      %image = OpFunctionParameter %img_t",
        "        %out = OpFunctionParameter %ptr_cw_uint",
        "       %done = OpFunctionParameter %ptr_cw_uint",
        "      %width = OpFunctionParameter %uint",
        "     %height = OpFunctionParameter %uint",
        "    %tiles_x = OpFunctionParameter %uint",
        "      %entry = OpLabel",
    ] + spvgen.SUBGROUP_INDEX_CODE + [
        "         %ty = OpUDiv %uint %g %tiles_x",
        "         %tx = OpUMod %uint %g %tiles_x",
        "         %x0 = OpIMul %uint %tx %uint_8",
        "         %y0 = OpIMul %uint %ty %uint_8",
        "     %x_byte = OpIMul %uint %x0 %uint_4",
        "     %x_prev = OpISub %uint %x_byte %int_32",
        "     %x_next = OpIAdd %uint %x_byte %int_32",
        "     %c_prev = OpCompositeConstruct %v2uint %x_prev %y0",
        "      %c_cur = OpCompositeConstruct %v2uint %x_byte %y0",
        "     %c_next = OpCompositeConstruct %v2uint %x_next %y0",
        "       %prev = OpSubgroupImageMediaBlockReadINTEL %v8uint %image %c_prev %uint_8 %uint_8",
        "        %cur = OpSubgroupImageMediaBlockReadINTEL %v8uint %image %c_cur %uint_8 %uint_8",
        "       %next = OpSubgroupImageMediaBlockReadINTEL %v8uint %image %c_next %uint_8 %uint_8",
        "       %left = OpSubgroupShuffleUpINTEL %v8uint %prev %cur %uint_1",
        "      %right = OpSubgroupShuffleDownINTEL %v8uint %cur %next %uint_1",
        "       %cur2 = OpIAdd %v8uint %cur %cur",
        "       %sum0 = OpIAdd %v8uint %left %cur2",
        "        %sum = OpIAdd %v8uint %sum0 %right",
        "          %x = OpIAdd %uint %x0 %lane",
        "       %x_in = OpULessThan %bool %x %width",
    ]
    for r in range(8):
        lines += ["   %%yr%d = OpIAdd %%uint %%y0 %%uint_c%d" % (r, r),
                  "   %%yin%d = OpULessThan %%bool %%yr%d %%height" % (r, r),
                  "   %%ok%d = OpLogicalAnd %%bool %%yin%d %%x_in" % (r, r),
                  "               OpSelectionMerge %%sm%d None" % r,
                  "               OpBranchConditional %%ok%d %%st%d %%sm%d" % (r, r, r),
                  "   %%st%d = OpLabel" % r,
                  "   %%v%d = OpCompositeExtract %%uint %%sum %d" % (r, r),
                  "   %%o%d = OpIMul %%uint %%yr%d %%width" % (r, r),
                  "   %%i%d = OpIAdd %%uint %%o%d %%x" % (r, r),
                  "   %%p%d = OpInBoundsPtrAccessChain %%ptr_cw_uint %%out %%i%d" % (r, r),
                  "               OpStore %%p%d %%v%d" % (r, r),
                  "               OpBranch %%sm%d" % r,
                  "   %%sm%d = OpLabel" % r]
    lines += done_record("%uint_8") + ["               OpReturn", "               OpFunctionEnd", ""]
    return "\n".join(lines)


# The tier (docs/workloads.md, "Tiers"): every workload is built from configurations the environment tables
# promise (2D block shapes of the 117-entry table, MMA rows of its table, 32-bit block reads, media regions no
# larger than the sub-group's data), so each is core: a device reporting the extensions must build it.
TIER = "core"


def generate_scale(emit):
    """workloads.scale.*: the same kernels over 1024 work-groups (one sub-group each, one tile each), so every
    sub-group of a large dispatch computes its own part of one big result."""
    module = emit.module("workloads/gemm_2d_int8_signed_row_major_prefetch",
                         gemm2d_text("int8", "row_major", True, False, True))
    emit.case("workloads.scale.gemm_2d.int8.signed.b_row_major.prefetch.full_range.groups_1024",
              "workloads_gemm_2d", module, "test",
              params=dict(format="int8", signed=True, b_layout="row_major", prefetch=True, epilogue=False,
                          data="full_range", m=256, n=512, k=64, sub_groups_per_work_group=1),
              requires=HPC_REQ, tier=TIER)
    module = emit.module("workloads/gemm_block_read_int8_signed", gemm_block_read_text("int8", True))
    emit.case("workloads.scale.gemm_block_read.int8.signed.full_range.groups_1024", "workloads_gemm_block_read",
              module, "test", params=dict(format="int8", signed=True, data="full_range", m=256, n=256, k=64,
                                          sub_groups_per_work_group=1), requires=HPG_REQ, tier=TIER)
    module = emit.module("workloads/media_filter", media_filter_text())
    emit.case("workloads.scale.media_filter.r32ui.w256_h256.groups_1024", "workloads_media_filter", module, "test",
              params=dict(width=256, height=256, sub_groups_per_work_group=1), requires=MEDIA_REQ, tier=TIER)


# docs/known_driver_bugs.md: GEMMs at the sizes and formats of public reports (tag regression). Each entry:
# (format, B layout, prefetch distance or 0, data, (m, n, k), huge). The GEMM kernel is the family's; only the
# size (and, for the prefetch report, how far ahead the prefetch reads) differs.
REGRESSION_GEMMS = [
    # intel/compute-runtime#1000 and #1001: fp16 / bf16 GEMM NaN or garbage at 512 x 512 and larger, 64 x 64
    # right. The report's passing size, its K at a small M and N (default run), and 512 x 512 x 512 (--huge).
    # intel-xpu-backend-for-triton#416 (DPAS GEMM wrong at sub-group size 32, outside the environment): the
    # same fp16 -> fp32 GEMM with its K loop at sub-group size 16 is the 64 x 64 x 64 case.
    ("fp16_fp32", "row_major", 0, "random", (64, 64, 64), False),
    ("bf16_fp32", "row_major", 0, "random", (64, 64, 64), False),
    ("fp16_fp32", "row_major", 0, "random", (64, 64, 512), False),
    ("bf16_fp32", "row_major", 0, "random", (64, 64, 512), False),
    ("fp16_fp32", "row_major", 0, "random", (512, 512, 512), True),
    ("bf16_fp32", "row_major", 0, "random", (512, 512, 512), True),
    # intel/llvm#21741 and IGCIT#1501: DPAS right only for the first work-item / work-group. IGCIT#1501's
    # problem (32 x 32 x 32, half A and B, float C) over 4 work-groups.
    ("fp16_fp32", "row_major", 0, "exact", (32, 32, 32), False),
    # intel/llvm#20594: bf16 (and half) accumulator and result, 2 x 2 x 2 tiles of 8 x 16 x 16.
    ("bf16_bf16", "row_major", 0, "exact", (16, 32, 32), False),
    ("fp16_fp16", "row_major", 0, "exact", (16, 32, 32), False),
    # intel/llvm#16922: bf16 1044 x 1044 x 1048 with out-of-bounds edge tiles, 8 x 16 x 16: the same edges
    # (M, N = 20 past a multiple of 64, K = 24 past it) at 84 x 84 x 88. The report's size took 103 s on the
    # reference device, too long even for --huge.
    ("bf16_fp32", "row_major", 0, "random", (84, 84, 88), False),
    # intel/llvm PR #13590: bf16 32 x 64 x 16 wrong only with prefetch, the prefetch 3 K steps ahead.
    ("bf16_fp32", "row_major", 3, "random", (32, 64, 64), False),
]


def generate_regression(emit):
    for fmt, b_layout, distance, data, (m, n, k), huge in REGRESSION_GEMMS:
        variant = "prefetch_%d" % distance if distance else "plain"
        stem = "gemm_2d_%s_%s_%s" % (fmt, b_layout, "prefetch" if distance == 1 else variant)
        module = emit.module("workloads/" + stem, gemm2d_text(fmt, b_layout, distance > 0, False, False,
                                                              max(distance, 1)))
        name = "workloads.gemm_2d.%s.b_%s.%s.%s.m%d_n%d_k%d" % (fmt, b_layout, variant, data, m, n, k)
        params = dict(format=fmt, signed=False, b_layout=b_layout, prefetch=distance > 0, epilogue=False,
                      data=data, m=m, n=n, k=k, sub_groups_per_work_group=2)
        emit.case(name, "workloads_gemm_2d", module, "test", params=params, requires=HPC_REQ + FORMATS_16[fmt][8],
                  tags=["regression"] + (["huge"] if huge else []), tier=TIER)


def image_tile_text(direction, e, h):
    """One sub-group per tile: image block read + per-column add + 2D block store (image_to_buffer), or 2D
    block load + per-column add + image block write (buffer_to_image)."""
    to_buffer = direction == "image_to_buffer"
    tw = 32 if e == 1 else 16
    lane_s = "uint" if e == 4 else "ushort"
    vec = "v%d%s" % (h, lane_s)
    caps = ["Addresses", "Kernel", "Int8", "Int16", "Int64", "Vector16", "SubgroupDispatch", "ImageBasic",
            "SubgroupImageBlockIOINTEL", "Subgroup2DBlockIOINTEL"]
    lines = header("workloads image tile %d x %d of %d-byte texels, sub-group size 16: %s" % (
        tw, h, e, "image block read, add 3x + 1, 2D block store" if to_buffer
        else "2D block load, add 3x + 1, image block write"),
        caps, ["SPV_INTEL_subgroups", "SPV_INTEL_2d_block_io"], 16,
        ["image", "buf", "done", "width", "height", "pitch", "mem_width", "tiles_x", "tiles"])
    lines += BASE_TYPES
    if vec != "v8uint":
        lines.append("%%%s = OpTypeVector %%%s %d" % (vec, lane_s, h))
    lines += [
        "      %%img_t = OpTypeImage %%void 2D 0 0 0 0 Unknown %s" % ("ReadOnly" if to_buffer else "WriteOnly"),
        "  %%ptr_fn_vec = OpTypePointer Function %%%s" % vec,
        "  %%ptr_fn_lane = OpTypePointer Function %%%s" % lane_s,
        "      %%e = OpConstant %%uint %d" % e,
        "     %%tw = OpConstant %%uint %d" % tw,
        "     %%th = OpConstant %%uint %d" % h,
    ]
    if e == 1:
        lines += ["  %ushort_8 = OpConstant %ushort 8",
                  "  %ushort_ff = OpConstant %ushort 255",
                  "  %ushort_ff00 = OpConstant %ushort 65280",
                  "  %%lo_mask = OpConstantComposite %%%s %s" % (vec, " ".join(["%ushort_ff"] * h)),
                  "  %%hi_mask = OpConstantComposite %%%s %s" % (vec, " ".join(["%ushort_ff00"] * h))]
    lines += spvgen.SUBGROUP_INDEX_VARIABLES
    lines += [
        "  %kernel_ty = OpTypeFunction %void %img_t %ptr_cw_uchar %ptr_cw_uint %uint %uint %uint %uint %uint %uint",
        "       %test = OpFunction %void None %kernel_ty",
        "      %image = OpFunctionParameter %img_t",
        "        %buf = OpFunctionParameter %ptr_cw_uchar",
        "       %done = OpFunctionParameter %ptr_cw_uint",
        "      %width = OpFunctionParameter %uint",
        "     %height = OpFunctionParameter %uint",
        "      %pitch = OpFunctionParameter %uint",
        "  %mem_width = OpFunctionParameter %uint",
        "    %tiles_x = OpFunctionParameter %uint",
        "      %tiles = OpFunctionParameter %uint",
        "      %entry = OpLabel",
        "        %var = OpVariable %ptr_fn_vec Function",
    ] + spvgen.SUBGROUP_INDEX_CODE + [
        "    %in_tile = OpULessThan %bool %g %tiles",
        "               OpSelectionMerge %tile_end None",
        "               OpBranchConditional %in_tile %tile %tile_end",
        "       %tile = OpLabel",
        "         %ty = OpUDiv %uint %g %tiles_x",
        "         %tx = OpUMod %uint %g %tiles_x",
        "         %x0 = OpIMul %uint %tx %tw",
        "         %y0 = OpIMul %uint %ty %th",
        "     %x_byte = OpIMul %uint %x0 %e",
        "    %i_coord = OpCompositeConstruct %v2uint %x_byte %y0",
        "    %b_coord = OpCompositeConstruct %v2uint %x0 %y0",
        "        %ptr = OpInBoundsAccessChain %ptr_fn_lane %var %uint_0",
    ]
    if to_buffer:
        lines.append("         %%in = OpSubgroupImageBlockReadINTEL %%%s %%image %%i_coord" % vec)
    else:
        lines += ["               OpSubgroup2DBlockLoadINTEL %e %tw %th %uint_1 %buf %mem_width %height %pitch "
                  "%b_coord %ptr",
                  "         %%in = OpLoad %%%s %%var" % vec]
    # c(x) = 3 x + 1 for the column x of the lane's element (e = 1: the two texels 2L and 2L + 1).
    lines += ["     %lane_e = OpIMul %uint %lane %uint_2" if e == 1 else "     %lane_e = OpCopyObject %uint %lane",
              "         %cx = OpIAdd %uint %x0 %lane_e",
              "        %cx3 = OpIMul %uint %cx %uint_3",
              "         %c0 = OpIAdd %uint %cx3 %uint_1"]
    if e == 4:
        lines += ["         %%cv = OpCompositeConstruct %%%s %s" % (vec, " ".join(["%c0"] * h)),
                  "        %%out = OpIAdd %%%s %%in %%cv" % vec]
    elif e == 2:
        lines += ["         %cs = OpUConvert %ushort %c0",
                  "         %%cv = OpCompositeConstruct %%%s %s" % (vec, " ".join(["%cs"] * h)),
                  "        %%out = OpIAdd %%%s %%in %%cv" % vec]
    else:
        # Two texels per ushort: the low byte gets c(2L), the high byte c(2L + 1) = c(2L) + 3, each mod 256.
        lines += ["         %c1 = OpIAdd %uint %c0 %uint_3",
                  "       %c0_s = OpUConvert %ushort %c0",
                  "       %c1_s = OpUConvert %ushort %c1",
                  "      %c1_hi = OpShiftLeftLogical %ushort %c1_s %ushort_8",
                  "        %%cv0 = OpCompositeConstruct %%%s %s" % (vec, " ".join(["%c0_s"] * h)),
                  "        %%cv1 = OpCompositeConstruct %%%s %s" % (vec, " ".join(["%c1_hi"] * h)),
                  "       %%lo_s = OpIAdd %%%s %%in %%cv0" % vec,
                  "         %%lo = OpBitwiseAnd %%%s %%lo_s %%lo_mask" % vec,
                  "       %%hi_in = OpBitwiseAnd %%%s %%in %%hi_mask" % vec,
                  "       %%hi_s = OpIAdd %%%s %%hi_in %%cv1" % vec,
                  "         %%hi = OpBitwiseAnd %%%s %%hi_s %%hi_mask" % vec,
                  "        %%out = OpBitwiseOr %%%s %%lo %%hi" % vec]
    if to_buffer:
        lines += ["               OpStore %var %out",
                  "               OpSubgroup2DBlockStoreINTEL %e %tw %th %uint_1 %ptr %buf %mem_width %height %pitch "
                  "%b_coord"]
    else:
        lines.append("               OpSubgroupImageBlockWriteINTEL %image %i_coord %out")
    lines += ["               OpBranch %tile_end",
              "   %tile_end = OpLabel"]
    lines += done_record("%uint_16") + ["               OpReturn", "               OpFunctionEnd", ""]
    return "\n".join(lines)


# image_tile_2d shapes: (direction, element bytes) -> (width, height) in texels. Reads: widths not a multiple
# of the tile (1- and 2-byte texels: out-of-bounds reads are undefined, so the 2D store drops the columns past
# the image; 4-byte texels: the buffer is whole tiles wide and holds the clamped edge texels). Writes: an out-of-bounds image block write
# is dropped only for 4-byte texels, so only the 4-byte image has a partial tile; the 1- and 2-byte images
# are whole tiles. Every Memory Width is at least 64 bytes and a multiple of 4.
IMAGE_TILE_SIZES = {("image_to_buffer", 1): (100, 21), ("image_to_buffer", 2): (50, 19),
                    ("image_to_buffer", 4): (37, 21), ("buffer_to_image", 1): (96, 24),
                    ("buffer_to_image", 2): (48, 24), ("buffer_to_image", 4): (37, 21)}


def generate_image_tile(emit):
    for (direction, e), (w, h) in IMAGE_TILE_SIZES.items():
        for th in (4, 8):
            module = emit.module("workloads/image_tile_2d_%s_e%d_h%d" % (direction, e, th),
                                 image_tile_text(direction, e, th))
            requires = IMAGE_TILE_REQ + (["ext=cl_intel_subgroups_short"] if e < 4 else []) + [
                "image_format=CL_R/" + IMAGE_TILE_FORMAT[e]]
            emit.case("workloads.image_tile_2d.%s.e%d.tile_%dx%d.w%d_h%d" % (
                direction, e, 32 if e == 1 else 16, th, w, h), "workloads_image_tile_2d", module, "test",
                params=dict(direction=direction, element_bytes=e, tile_height=th, width=w, height=h,
                            sub_groups_per_work_group=2),
                requires=requires, tags=["quick"] if th == 8 and e == 4 else [], tier=TIER)


def generate(emit):
    for fmt, (_, _, _, _, _, _, _, _, extra) in FORMATS_16.items():
        m, n, k = SIZES_16[fmt]
        signs = [("signed", True), ("unsigned", False)] if fmt == "int8" else [("", False)]
        b_layouts = ["row_major", "col_major"]
        for sign_name, signed in signs:
            for b_layout in b_layouts:
                for variant, prefetch, epilogue in (("plain", False, False), ("prefetch", True, False),
                                                    ("epilogue", False, True)):
                    if epilogue and fmt not in ("int8", "fp16_fp32"):
                        continue
                    stem = "gemm_2d_%s%s_%s_%s" % (fmt, "_" + sign_name if sign_name else "", b_layout, variant)
                    module = emit.module("workloads/" + stem,
                                         gemm2d_text(fmt, b_layout, prefetch, epilogue, signed))
                    datas = ["full_range"] if fmt == "int8" else ["exact", "random"]
                    for data in datas:
                        name = "workloads.gemm_2d.%s%s.b_%s.%s.%s" % (
                            fmt, "." + sign_name if sign_name else "", b_layout, variant, data)
                        params = dict(format=fmt, signed=signed, b_layout=b_layout, prefetch=prefetch,
                                      epilogue=epilogue, data=data, m=m, n=n, k=k, sub_groups_per_work_group=2)
                        requires = HPC_REQ + extra + (["ext=cl_intel_spirv_subgroups"] if epilogue else [])
                        tags = ["quick"] if (variant == "plain" and b_layout == "row_major" and
                                             data in ("full_range", "random")) else []
                        # docs/known_driver_bugs.md: the K edge inside a packed row group (4-byte / packed-row
                        # bounds check) and the fp16 MMA destination in a GEMM.
                        if (variant == "plain" and b_layout == "row_major" and fmt != "tf32_fp32") or \
                                fmt == "fp16_fp16":
                            tags.append("regression")
                        emit.case(name, "workloads_gemm_2d", module, "test", params=params, requires=requires,
                                  tags=tags, tier=TIER)
    for fmt in FORMATS_8:
        m, n, k = SIZES_8[fmt]
        signs = [("signed", True), ("unsigned", False)] if fmt == "int8" else [("", False)]
        for sign_name, signed in signs:
            module = emit.module("workloads/gemm_block_read_%s%s" % (fmt, "_" + sign_name if sign_name else ""),
                                 gemm_block_read_text(fmt, signed))
            for data in (["full_range"] if fmt == "int8" else ["exact", "random"]):
                name = "workloads.gemm_block_read.%s%s.%s" % (fmt, "." + sign_name if sign_name else "", data)
                emit.case(name, "workloads_gemm_block_read", module, "test",
                          params=dict(format=fmt, signed=signed, data=data, m=m, n=n, k=k,
                                      sub_groups_per_work_group=2),
                          requires=HPG_REQ, tags=["quick"] if data != "exact" else [], tier=TIER)
    module = emit.module("workloads/media_filter", media_filter_text())
    for w, h in ((61, 21), (8, 8), (3, 13)):
        emit.case("workloads.media_filter.r32ui.w%d_h%d" % (w, h), "workloads_media_filter", module, "test",
                  params=dict(width=w, height=h, sub_groups_per_work_group=2),
                  requires=MEDIA_REQ, tags=["quick"] if w == 61 else [], tier=TIER)
    generate_image_tile(emit)
    generate_scale(emit)
    generate_regression(emit)
