"""SPV_INTEL_2d_block_io cases: every configuration of the OpenCL environment table x coordinate variants.

One module per configuration (Element Size, Block Width, Block Height and Block Count must be constant
instructions); memory width, height, pitch, base offset and per-sub-group coordinates are kernel arguments.
Kernel arguments of every module:
    0 surface   CrossWorkgroup uchar*   the 2D region (the base pointer is surface + base_offset)
    1 lanes     CrossWorkgroup T*       per-lane data: loads write it, stores read it
    2 coords    CrossWorkgroup uint2*   one Coordinate per sub-group g = WorkgroupId.x * NumSubgroups + SubgroupId
    3 memory_width_bytes, 4 memory_height_rows, 5 memory_pitch_bytes, 6 base_offset_bytes (uint)
    7 done      CrossWorkgroup uint*    done[s] = s + 0x1000 as the kernel's last store, s = g * 16 + L: the
                                        completion record (spvgen.done_record_code) that proves every
                                        invocation ran, which a store wholly out of bounds leaves nowhere else
Lane L of sub-group g owns lanes[(g * S + L) * N .. + N), N = per-lane elements of type T, S the module's
SubgroupSize (16; 32 for the device-specific 2d_block_io.sg32.* cases, see generate_sg32).
"""

from assets import spvgen

SG = 16
EXT_TOKEN = "ext=cl_intel_subgroup_2d_block_io@1.1"

# The OpenCL environment table (cl_intel_subgroup_2d_block_io, sub-group size 16): (element size,
# block widths, block heights, block counts) per instruction. 117 configurations in all.
P2 = [1, 2, 4, 8, 16, 32]
TABLE = {
    "load": [(1, [32], P2, [1, 2]), (1, [16], [8, 16, 32], [4]), (2, [16], P2, [1, 2]), (4, [8], P2, [1, 2]),
             (4, [16], P2, [1])],
    "load_transform": [(1, [16], [32], [1, 2, 4]), (2, [16], [16, 32], [1, 2])],
    "load_transpose": [(4, [8], [16, 32], [1])],
    "store": [(1, [16, 32], [1, 2, 4, 8], [1]), (2, [16], [1, 2, 4, 8], [1]), (4, [16], [1, 2, 4, 8], [1])],
    "prefetch": [(1, [32], P2, [1, 2]), (1, [16], [32], [1, 2]), (1, [16], [8, 16, 32], [4]),
                 (2, [16], P2, [1, 2]), (4, [8], P2, [1, 2]), (4, [16], P2, [1])],
}

# SPIR-V-legal shapes outside the OpenCL table (device-specific; tag "extended", not for conformance):
# 8-byte elements, widths that need padding, transform/transpose heights that need padding.
EXTENDED = [
    ("load", 8, 8, 4, 1), ("load", 8, 4, 8, 2), ("load", 2, 12, 4, 2), ("load", 1, 8, 4, 2), ("load", 4, 4, 8, 1),
    ("load", 2, 8, 2, 4),
    ("load_transform", 2, 12, 7, 1), ("load_transform", 1, 12, 30, 1), ("load_transform", 2, 8, 16, 2),
    ("load_transpose", 4, 8, 12, 1), ("load_transpose", 8, 4, 8, 1), ("load_transpose", 4, 4, 16, 1),
    ("store", 8, 8, 4, 1), ("store", 2, 12, 4, 1), ("store", 4, 8, 2, 1),
    ("prefetch", 8, 8, 8, 1),
]

OPCODE_NAME = {
    "load": "OpSubgroup2DBlockLoadINTEL",
    "load_transform": "OpSubgroup2DBlockLoadTransformINTEL",
    "load_transpose": "OpSubgroup2DBlockLoadTransposeINTEL",
    "prefetch": "OpSubgroup2DBlockPrefetchINTEL",
    "store": "OpSubgroup2DBlockStoreINTEL",
}
CAPABILITY = {"load_transform": "Subgroup2DBlockTransformINTEL", "load_transpose": "Subgroup2DBlockTransposeINTEL"}
TYPE_NAME = {1: "uchar", 2: "ushort", 4: "uint", 8: "ulong"}
POISON = {1: "0xA5", 2: "0xA5A5", 4: "0xA5A5A5A5", 8: "0xA5A5A5A5A5A5A5A5"}


def configurations():
    for op, rows in TABLE.items():
        for e, widths, heights, counts in rows:
            for w in widths:
                for h in heights:
                    for c in counts:
                        yield op, e, w, h, c


TABLE_CONFIGS = frozenset(configurations())


def pow2(v):
    return 1 << (v - 1).bit_length()


def align(v, a):
    return (v + a - 1) // a * a


def lane_layout(op, e, w, h, c, sg=SG):
    """(bytes per lane for all blocks, bytes of the kernel's element type T) as the spec's mapping gives at
    sub-group size sg."""
    if op == "load_transform":
        pack = 4 if e == 1 else 2
        rows, cols, eb = -(-h // pack), pow2(w), 4
    elif op == "load_transpose":
        rows, cols, eb = w, pow2(h), e
    else:
        rows, cols, eb = h, pow2(w), e
    per_lane = -(-rows * cols // sg)
    # 1-byte x 32 at 16 lanes: the OpenCL built-ins return one ushort per row (two adjacent bytes per lane).
    t = 2 if op in ("load", "store", "prefetch") and e == 1 and cols == 2 * sg else eb
    return per_lane * eb * c, t


def prefetch_follow(e, w, h, c):
    """The load run after a prefetch: the same shape where the OpenCL table has it as a load."""
    if any(op == "load" and tuple(cfg) == (e, w, h, c) for op, *cfg in configurations()):
        return (e, w, h, c)
    return (1, 16, 32, 4)  # 1-byte 16 x 32 with 1 or 2 blocks is a prefetch-only shape


def kernel_text(op, e, w, h, c, follow=None, prefetch_delta=None, sg=SG):
    """prefetch_delta (dx elements, dy rows): the prefetch reads the tile that far from the load's Coordinate.
    sg: the module's SubgroupSize execution mode."""
    access_op = "load" if op == "prefetch" else op
    le, lw, lh, lc = follow if op == "prefetch" else (e, w, h, c)
    lane_bytes, tb = lane_layout(access_op, le, lw, lh, lc, sg)
    n = lane_bytes // tb
    t = TYPE_NAME[tb]
    caps = ["Subgroup2DBlockIOINTEL"] + ([CAPABILITY[op]] if op in CAPABILITY else [])
    ptr_cw_t = "%ptr_cw_uchar" if t == "uchar" else "%ptr_cw_" + t
    comments = ["SPV_INTEL_2d_block_io %s: Element Size %d, Block Width %d, Block Height %d, Block Count %d"
                % (op, e, w, h, c)]
    if sg != SG:
        comments.append("at sub-group size %d (device-specific: the OpenCL environment names %d)" % (sg, SG))
    if op == "prefetch" and prefetch_delta:
        comments.append("of the tile (%d, %d) from the Coordinate, followed by a %d-byte %dx%d x%d load at the "
                        "Coordinate" % (prefetch_delta + follow))
    elif op == "prefetch":
        comments.append("followed by a %d-byte %dx%d x%d load of the same region" % follow)
    lines = spvgen.kernel_header(
        comments, ["Addresses", "Kernel", "Int8", "Int16", "Int64", "SubgroupDispatch"] + caps,
        ["SPV_INTEL_2d_block_io"], sg,
        ["surface", "lanes", "coords", ("memory_width", "memory_width_bytes"),
         ("memory_height", "memory_height_rows"), ("memory_pitch", "memory_pitch_bytes"),
         ("base_offset", "base_offset_bytes"), "done"])
    lines += spvgen.types("void", "bool", "uchar", "ushort", "uint", "ulong", "v2uint", "v3ulong", "ptr_in_uint",
                          "ptr_in_v3ulong", "ptr_cw_uchar")
    if t != "uchar":
        lines.append("%s = OpTypePointer CrossWorkgroup %%%s" % (ptr_cw_t, t))
    if t != "uint":
        lines.append("%ptr_cw_uint = OpTypePointer CrossWorkgroup %uint")
    lines += [
        "%ptr_cw_v2uint = OpTypePointer CrossWorkgroup %v2uint",
        "     %uint_0 = OpConstant %uint 0",
        "     %uint_1 = OpConstant %uint 1",
        "    %%uint_%d = OpConstant %%uint %d" % (sg, sg),
        spvgen.DONE_MAGIC_CONSTANT,
        " %%lane_elems = OpConstant %%uint %d" % n,
        "     %%poison = OpConstant %%%s %s" % (t, POISON[tb]),
        "%%element_size = OpConstant %%uint %d" % e,
        "%%block_width = OpConstant %%uint %d" % w,
        "%%block_height = OpConstant %%uint %d" % h,
        "%%block_count = OpConstant %%uint %d" % c,
    ]
    if op == "prefetch":
        lines += ["%%load_element_size = OpConstant %%uint %d" % le,
                  "%%load_block_width = OpConstant %%uint %d" % lw,
                  "%%load_block_height = OpConstant %%uint %d" % lh,
                  "%%load_block_count = OpConstant %%uint %d" % lc]
    if prefetch_delta:
        lines += ["   %%delta_x = OpConstant %%uint %d" % prefetch_delta[0],
                  "   %%delta_y = OpConstant %%uint %d" % prefetch_delta[1],
                  "%prefetch_delta = OpConstantComposite %v2uint %delta_x %delta_y"]
    lines += [
        "  %%lane_array = OpTypeArray %%%s %%lane_elems" % t,
        "%ptr_fn_array = OpTypePointer Function %lane_array",
        "%%ptr_fn_elem = OpTypePointer Function %%%s" % t,
    ] + spvgen.SUBGROUP_INDEX_VARIABLES + [
        "  %%kernel_ty = OpTypeFunction %%void %%ptr_cw_uchar %s %%ptr_cw_v2uint %%uint %%uint %%uint %%uint "
        "%%ptr_cw_uint" % ptr_cw_t,
        "       %test = OpFunction %void None %kernel_ty",
        "    %surface = OpFunctionParameter %ptr_cw_uchar",
        "      %%lanes = OpFunctionParameter %s" % ptr_cw_t,
        "     %coords = OpFunctionParameter %ptr_cw_v2uint",
        "%memory_width = OpFunctionParameter %uint",
        "%memory_height = OpFunctionParameter %uint",
        "%memory_pitch = OpFunctionParameter %uint",
        "%base_offset = OpFunctionParameter %uint",
        "       %done = OpFunctionParameter %ptr_cw_uint",
        "      %entry = OpLabel",
        "       %priv = OpVariable %ptr_fn_array Function",
    ] + spvgen.SUBGROUP_INDEX_CODE + [
        "  %coord_ptr = OpInBoundsPtrAccessChain %ptr_cw_v2uint %coords %g",
        "      %coord = OpLoad %v2uint %coord_ptr Aligned 8",
        "       %base = OpInBoundsPtrAccessChain %ptr_cw_uchar %surface %base_offset",
        "   %%g_lanes = OpIMul %%uint %%g %%uint_%d" % sg,
        " %lane_index = OpIAdd %uint %g_lanes %lane",
        " %lane_first = OpIMul %uint %lane_index %lane_elems",
        "      %priv0 = OpInBoundsAccessChain %ptr_fn_elem %priv %uint_0",
    ]

    def loop(name, body, after):
        # for (k = 0; k < lane_elems; ++k) body(k)
        return [
            "               OpBranch %%%s_head" % name,
            "  %%%s_head = OpLabel" % name,
            "   %%%s_k = OpPhi %%uint %%uint_0 %%%s %%%s_next %%%s_body" % (name, after, name, name),
            "%%%s_more = OpULessThan %%bool %%%s_k %%lane_elems" % (name, name),
            "               OpLoopMerge %%%s_end %%%s_body None" % (name, name),
            "               OpBranchConditional %%%s_more %%%s_body %%%s_end" % (name, name, name),
            "  %%%s_body = OpLabel" % name,
        ] + body("%%%s_k" % name, name) + [
            "   %%%s_next = OpIAdd %%uint %%%s_k %%uint_1" % (name, name),
            "               OpBranch %%%s_head" % name,
            "   %%%s_end = OpLabel" % name,
        ]

    def priv_at(k, name):
        return "%%%s_pp = OpInBoundsAccessChain %%ptr_fn_elem %%priv %s" % (name, k)

    def lanes_at(k, name):
        return ["%%%s_li = OpIAdd %%uint %%lane_first %s" % (name, k),
                "%%%s_gp = OpInBoundsPtrAccessChain %s %%lanes %%%s_li" % (name, ptr_cw_t, name)]

    if op == "store":
        # Private source data comes from the lanes buffer.
        lines += loop("fill", lambda k, nm: [priv_at(k, nm)] + lanes_at(k, nm) + [
            "%%%s_v = OpLoad %%%s %%%s_gp" % (nm, t, nm), "               OpStore %%%s_pp %%%s_v" % (nm, nm)], "entry")
        lines.append("               OpSubgroup2DBlockStoreINTEL %element_size %block_width %block_height "
                     "%block_count %priv0 %base %memory_width %memory_height %memory_pitch %coord")
    else:
        # Poison the destination first, so elements an implementation leaves unwritten show.
        lines += loop("fill", lambda k, nm: [priv_at(k, nm), "               OpStore %%%s_pp %%poison" % nm],
                      "entry")
        if op == "prefetch":
            where = "%coord"
            if prefetch_delta:
                lines.append("%prefetch_coord = OpIAdd %v2uint %coord %prefetch_delta")
                where = "%prefetch_coord"
            lines.append("               OpSubgroup2DBlockPrefetchINTEL %element_size %block_width %block_height "
                         "%block_count %base %memory_width %memory_height %memory_pitch " + where)
            lines.append("               OpSubgroup2DBlockLoadINTEL %load_element_size %load_block_width "
                         "%load_block_height %load_block_count %base %memory_width %memory_height %memory_pitch "
                         "%coord %priv0")
        else:
            lines.append("               %s %%element_size %%block_width %%block_height %%block_count %%base "
                         "%%memory_width %%memory_height %%memory_pitch %%coord %%priv0" % OPCODE_NAME[op])
        lines += loop("copy", lambda k, nm: [priv_at(k, nm)] + lanes_at(k, nm) + [
            "%%%s_v = OpLoad %%%s %%%s_pp" % (nm, t, nm), "               OpStore %%%s_gp %%%s_v" % (nm, nm)],
            "fill_end")
    lines += spvgen.done_record_code("%lane_index", "%done", "%ptr_cw_uint")
    lines += ["               OpReturn", "               OpFunctionEnd", ""]
    return "\n".join(lines), lane_bytes


def variants(op, e, w, h, c, extended=False):
    """(name, params) per coordinate/memory variant. Coordinates are (x elements, y rows) per sub-group."""
    rw = w * c  # the block's reach in elements along a row, all blocks
    x_align = 4  # a multiple of 4 satisfies the 1-byte (4) and 2-byte (2) Coordinate rule

    def surface(mw, mh, mp, coords, base_offset=0, wgs=1, sgs=1):
        return {"memory_width_bytes": mw, "memory_height_rows": mh, "memory_pitch_bytes": mp,
                "base_offset_bytes": base_offset, "coords": [v for xy in coords for v in xy],
                "work_groups": wgs, "sub_groups_per_work_group": sgs}

    wide = align((4 + rw + 4) * e, 64)  # interior: 4 elements of margin either side
    edge_mw = max(64, align(rw * e, 64))
    edge_x = max(0, (edge_mw // e - rw // 2) // x_align * x_align)
    gap_mw = max(64, align(rw * e, 16)) + 16  # not a multiple of 64
    gap_x = max(0, (gap_mw // e - rw // 2) // x_align * x_align)
    gap_mp = align(gap_mw + rw * e + 64, 64)  # the pitch gap is wider than the block's overhang
    half_h = max(1, h // 2)
    neg_x = -max(x_align, (rw // 2) // x_align * x_align)
    out = [
        ("coord_interior", surface(wide, 2 + h + 2, wide, [(4, 2)])),
        ("coord_right_edge", surface(edge_mw, 1 + h + 1, edge_mw, [(edge_x, 1)])),
        ("coord_right_edge_pitch_gap", surface(gap_mw, 1 + h + 1, gap_mp, [(gap_x, 1)])),
        ("coord_bottom_edge", surface(wide, 4 + half_h, wide + 64, [(4, 4)])),
        ("coord_corner", surface(edge_mw, 3 + half_h, edge_mw, [(edge_x, 3)])),
        ("coord_outside_right", surface(edge_mw, h + 2, edge_mw * 2, [(align(edge_mw // e + 4, x_align), 1)])),
        ("coord_outside_below", surface(wide, h + 2, wide, [(4, h + 4)])),
        ("coord_negative", surface(align((rw + 8) * e, 64), h + 2, align((rw + 8) * e, 64), [(neg_x, -(h // 2))])),
        ("base_offset", surface(wide, 2 + h + 2, wide + 64, [(4, 2)], base_offset=192)),
    ]
    # Several sub-groups in several work-groups, each with its own coordinate (disjoint columns, so stores do
    # not overlap); the last one is cut by the right edge.
    step = align(rw + 4, x_align)
    multi_mw = align((4 * step - step // 2) * e, 16)
    out.append(("multi_subgroup", surface(multi_mw, h + 4, align(multi_mw, 64) + 64,
                                          [(0, 0), (step, 1), (2 * step, 3), (3 * step, 2)], wgs=2, sgs=2)))
    if op == "load_transform" and not extended:
        # Memory Height ending inside a packed (VNNI) row group: rows past it must be zero, the rows before it
        # exact (a packed-row-granular bounds check would zero them).
        pack = 4 if e == 1 else 2
        for rows_in in range(1, pack):
            out.append(("vnni_group_cut_%dof%d" % (rows_in, pack),
                        surface(wide, 2 + h - pack + rows_in, wide, [(4, 2)])))
    if not extended and (op, e, w, h, c) in ALIGN_SHAPES:
        out += align_variants(e, rw, h, surface)
    if extended:
        keep = ("coord_interior", "coord_right_edge_pitch_gap", "coord_corner", "coord_negative")
        out = [v for v in out if v[0] in keep]
    return out


# Alignment rules at their smallest legal step and odd multiples of it (docs/2d_block_io.md, "Alignment"),
# on one table shape per instruction and element size: the other variants keep every value a multiple of 64
# bytes (pitch, width) or of 4 elements (x), which a device rounding to those would pass.
ALIGN_SHAPES = {("load", 1, 32, 2, 1), ("load", 2, 16, 2, 1), ("load", 4, 16, 2, 1), ("load", 4, 8, 2, 2),
                ("load_transform", 2, 16, 16, 1), ("load_transpose", 4, 8, 16, 1), ("store", 1, 32, 2, 1),
                ("store", 2, 16, 2, 1), ("store", 4, 16, 2, 1), ("prefetch", 1, 32, 2, 1)}


def align_variants(e, rw, h, surface):
    """OpenCL environment: base 64-byte aligned; Memory Width a multiple of 4 bytes (1/2-byte data) or of the
    element size; Memory Pitch a multiple of 16; Coordinate x a multiple of 4 (1-byte) or 2 (2-byte) elements."""
    x_step = {1: 4, 2: 2}.get(e, 1)  # elements
    w_step = max(4, e)  # bytes
    out = []
    for k in (1, 3):  # the smallest legal x and an odd multiple of it
        x = k * x_step
        mw = align((x + rw + 4) * e, 64)
        out.append(("align_x_%d" % x, surface(mw, h + 4, mw, [(x, 1)])))
    # Memory Width one step past a multiple of 64 bytes, the block across its right edge; the pitch is the
    # width rounded up to 16 bytes (an odd multiple of 16).
    mw = max(64, align(rw * e, 64)) + w_step
    x = (mw // e - rw // 2) // x_step * x_step
    out.append(("align_width_%d" % mw, surface(mw, h + 3, align(mw, 16) + (16 if align(mw, 16) % 32 == 0 else 0),
                                               [(x, 1)])))
    # Memory Pitch an odd multiple of 16 bytes (never a multiple of 32 or 64), rows 1 and up.
    mw = align((4 + rw + 4) * e, 64)
    out.append(("align_pitch_%d" % (mw + 16), surface(mw, h + 3, mw + 16, [(4, 1)])))
    # The smallest base offset (64 bytes; the base_offset variant has 192 = 3 x 64).
    out.append(("align_base_64", surface(mw, h + 3, mw, [(4, 1)], base_offset=64)))
    return out


# Shapes and variants docs/known_driver_bugs.md names (tag regression): a load shape once lowered with the
# wrong width, the store shapes once wrong below sub-group size 16, and Memory Height cutting a packed row
# group of a transform load (a packed-row-granular bounds check zeroes the last valid rows).
REGRESSION_SHAPES = {("load", 4, 8, 8, 2), ("store", 1, 32, 1, 1), ("store", 2, 16, 2, 1)}


def tier(op, e, w, h, c):
    """The tier table (docs/2d_block_io.md, "Tiers") is TABLE: cl_intel_subgroup_2d_block_io lists exactly these
    117 configurations as its built-in functions, so a device reporting it promises to accept them at sub-group
    size 16. Every other SPIR-V-legal shape (8-byte elements, padded widths and heights) is device_specific."""
    return "core" if (op, e, w, h, c) in TABLE_CONFIGS else "device_specific"


def regression(op, e, w, h, c, variant):
    return (op, e, w, h, c) in REGRESSION_SHAPES or variant.startswith("vnni_group_cut_")


def emit_config(emit, op, e, w, h, c, extended):
    follow = prefetch_follow(e, w, h, c) if op == "prefetch" else None
    if extended and op == "prefetch":
        follow = (e, w, h, c)
    text, lane_bytes = kernel_text(op, e, w, h, c, follow)
    prefix = "2d_block_io.extended" if extended else "2d_block_io"
    stem = "%s_e%d_w%d_h%d_c%d" % (op, e, w, h, c)
    module = emit.module("2d_block_io/%s%s" % ("extended_" if extended else "", stem), text)
    requires = [EXT_TOKEN, "min_sg_size=16"]
    for variant, params in variants(op, e, w, h, c, extended):
        params = dict(params, op=op, element_size=e, block_width=w, block_height=h, block_count=c,
                      lane_bytes=lane_bytes)
        if follow:
            params.update(load_element_size=follow[0], load_block_width=follow[1], load_block_height=follow[2],
                          load_block_count=follow[3])
        tags = ["extended"] if extended else (["quick"] if variant == "coord_corner" else [])
        if not extended and regression(op, e, w, h, c, variant):
            tags.append("regression")
        emit.case("%s.%s.e%d.w%d.h%d.c%d.%s" % (prefix, op, e, w, h, c, variant), "2d_block_io", module, "test",
                  params=params, requires=requires, tags=tags, tier=tier(op, e, w, h, c))


# Memory objects other than a plain buffer (docs/2d_block_io.md, "Memory objects"): the surface as a sub-buffer
# whose origin is the smallest legal one (CL_DEVICE_MEM_BASE_ADDR_ALIGN), a CL_MEM_USE_HOST_PTR buffer (results
# checked in host memory after a map) and coarse-grain SVM, with the block base 64 bytes into it.
MEMORY_KINDS = ("sub_buffer_min_origin", "use_host_ptr", "svm_coarse")
MEMORY_SHAPES = (("load", 2, 16, 8, 1), ("store", 1, 32, 4, 1))


def generate_memory(emit):
    for op, e, w, h, c in MEMORY_SHAPES:
        text, lane_bytes = kernel_text(op, e, w, h, c)
        module = emit.module("2d_block_io/%s_e%d_w%d_h%d_c%d" % (op, e, w, h, c), text)
        params = dict(dict(variants(op, e, w, h, c))["coord_interior"], base_offset_bytes=64, op=op,
                      element_size=e, block_width=w, block_height=h, block_count=c, lane_bytes=lane_bytes)
        for kind in MEMORY_KINDS:
            emit.case("2d_block_io.memory.%s.%s.e%d.w%d.h%d.c%d.base_64" % (kind, op, e, w, h, c), "2d_block_io",
                      module, "test", params=dict(params, memory=kind), requires=[EXT_TOKEN, "min_sg_size=16"],
                      tier=tier(op, e, w, h, c))


def generate(emit):
    configs = list(configurations())
    if len(configs) != 117:  # the OpenCL extension's mandatory function count
        raise ValueError("2d_block_io.py: the OpenCL table expands to %d configurations, expected 117" % len(configs))
    for op, e, w, h, c in configs:
        emit_config(emit, op, e, w, h, c, extended=False)
    for op, e, w, h, c in EXTENDED:
        emit_config(emit, op, e, w, h, c, extended=True)
    generate_memory(emit)
    generate_default_extras(emit)
    generate_scale(emit)
    generate_past_16bit(emit)
    generate_sg32(emit)
    generate_triton_spv_gaps(emit)


# ----------------------------------------------------------------------------------------------------------
# Default-run cases for what the table's shapes cannot show (docs/2d_block_io.md, "Padding, prefetch of another
# tile, origin offsets"): padded blocks (no table shape needs padding; the modules are the extended ones), a
# prefetch of another tile before a load, and a block origin below -2^31 bytes in a small buffer.

PADDING_SHAPES = [("load", 2, 12, 4, 2), ("load_transform", 2, 12, 7, 1), ("load_transpose", 4, 8, 12, 1),
                  ("store", 2, 12, 4, 1)]
PREFETCH_OTHER_TILE = (2, 16, 8, 1)
FAR_PITCH = (1 << 29) + 64  # y = -4 puts the block origin at -(2^31 + 256) + 16 bytes: below -2^31


def generate_default_extras(emit):
    requires = [EXT_TOKEN, "min_sg_size=16"]
    for op, e, w, h, c in PADDING_SHAPES:
        # Loads: the destination is poisoned first, so padded elements left unwritten show; stores: the lanes'
        # padded elements hold seed-random non-zero data that must not reach memory.
        text, lane_bytes = kernel_text(op, e, w, h, c)
        module = emit.module("2d_block_io/extended_%s_e%d_w%d_h%d_c%d" % (op, e, w, h, c), text)
        name, params = variants(op, e, w, h, c, extended=True)[0]
        params = dict(params, op=op, element_size=e, block_width=w, block_height=h, block_count=c,
                      lane_bytes=lane_bytes)
        emit.case("2d_block_io.padding.%s.e%d.w%d.h%d.c%d.%s" % (op, e, w, h, c, name), "2d_block_io", module,
                  "test", params=params, requires=requires, tier=tier(op, e, w, h, c))
    # A prefetch of the tile below, then a load at the Coordinate: a stale prefetch buffer serving the load
    # gives the other tile's rows.
    e, w, h, c = PREFETCH_OTHER_TILE
    text, lane_bytes = kernel_text("prefetch", e, w, h, c, (e, w, h, c), prefetch_delta=(0, h))
    module = emit.module("2d_block_io/prefetch_other_tile_e%d_w%d_h%d_c%d" % (e, w, h, c), text)
    wide = align((8 + w * c) * e, 64)
    params = {"memory_width_bytes": wide, "memory_height_rows": 2 + 2 * h + 2, "memory_pitch_bytes": wide,
              "base_offset_bytes": 0, "coords": [4, 2], "work_groups": 1, "sub_groups_per_work_group": 1,
              "op": "prefetch", "element_size": e, "block_width": w, "block_height": h, "block_count": c,
              "lane_bytes": lane_bytes, "load_element_size": e, "load_block_width": w, "load_block_height": h,
              "load_block_count": c}
    emit.case("2d_block_io.prefetch.e%d.w%d.h%d.c%d.other_tile" % (e, w, h, c), "2d_block_io", module, "test",
              params=params, requires=requires, tags=["quick"], tier=tier("prefetch", e, w, h, c))
    # Memory Height 1 and y = -4: only memory row 0 is in bounds, so the buffer holds one row although the
    # pitch is 512 MiB. The pitch is a legal 32-bit (OpenCL int) value but past the 2^24 bytes hardware is
    # reported to take (docs/2d_block_io.md): device_specific.
    e, w, h, c = 4, 16, 8, 1
    text, lane_bytes = kernel_text("load", e, w, h, c)
    module = emit.module("2d_block_io/load_e%d_w%d_h%d_c%d" % (e, w, h, c), text)
    params = {"memory_width_bytes": 128, "memory_height_rows": 1, "memory_pitch_bytes": FAR_PITCH,
              "base_offset_bytes": 0, "coords": [4, -4], "work_groups": 1, "sub_groups_per_work_group": 1,
              "op": "load", "element_size": e, "block_width": w, "block_height": h, "block_count": c,
              "lane_bytes": lane_bytes, "surface_bytes": 128 + 64}
    emit.case("2d_block_io.load.e%d.w%d.h%d.c%d.negative_y_far_pitch" % (e, w, h, c), "2d_block_io", module,
              "test", params=params, requires=requires, tier="device_specific")


# ----------------------------------------------------------------------------------------------------------
# Scale (docs/2d_block_io.md, "Scale"): 2d_block_io.scale.<op>.e<E>.w<W>.h<H>.c<C>.<variant>, the modules of
# the table configurations with launch sizes and offsets that only real workloads reach.

SCALE_GROUPS = 1024          # work-groups of the groups_1024 variant, 2 sub-groups each
SCALE_GRID_COLUMNS = 32      # blocks side by side; the 2048 sub-groups fill 64 rows of blocks
HUGE_PITCH = 1 << 16         # bytes; divides 2^32, so a 32-bit wrap lands exactly 2^16 rows higher


def scale_groups_params(e, w, h):
    """1024 work-groups x 2 sub-groups, each sub-group its own block of a 32 x 64 grid of disjoint blocks:
    the surface is seed-random, so a sub-group that reads or writes another's block fails."""
    sub_groups = SCALE_GROUPS * 2
    width = SCALE_GRID_COLUMNS * w * e
    coords = []
    for g in range(sub_groups):
        coords += [(g % SCALE_GRID_COLUMNS) * w, (g // SCALE_GRID_COLUMNS) * h]
    return {"memory_width_bytes": width, "memory_height_rows": sub_groups // SCALE_GRID_COLUMNS * h,
            "memory_pitch_bytes": width + 64, "base_offset_bytes": 0, "coords": coords,
            "work_groups": SCALE_GROUPS, "sub_groups_per_work_group": 2}


def scale_huge_params(h, first_row_past):
    """One block whose rows start 4 rows below byte offset first_row_past (2^31 or 2^32) and end 4 rows past
    it, at x = 1024 elements of a 64 KiB pitch; the buffer ends two rows after the block."""
    y = first_row_past // HUGE_PITCH - 4
    return {"memory_width_bytes": HUGE_PITCH, "memory_height_rows": y + h + 1, "memory_pitch_bytes": HUGE_PITCH,
            "base_offset_bytes": 0, "coords": [1024, y], "work_groups": 1, "sub_groups_per_work_group": 1,
            "buffer_bytes": (y + h + 2) * HUGE_PITCH}


def generate_scale(emit):
    requires = [EXT_TOKEN, "min_sg_size=16"]
    for op, e, w, h, c in (("load", 2, 16, 8, 1), ("load_transform", 2, 16, 16, 2), ("store", 4, 16, 8, 1)):
        text, lane_bytes = kernel_text(op, e, w, h, c)
        module = emit.module("2d_block_io/%s_e%d_w%d_h%d_c%d" % (op, e, w, h, c), text)
        shape = dict(op=op, element_size=e, block_width=w, block_height=h, block_count=c, lane_bytes=lane_bytes)
        emit.case("2d_block_io.scale.%s.e%d.w%d.h%d.c%d.groups_1024" % (op, e, w, h, c), "2d_block_io", module,
                  "test", params=dict(scale_groups_params(e, w * c, h), **shape), requires=requires,
                  tier=tier(op, e, w, h, c))
        if op == "load_transform":
            continue
        for variant, past in (("offset_past_2gib", 1 << 31), ("offset_past_4gib", 1 << 32)):
            params = dict(scale_huge_params(h, past), **shape)
            size = params["buffer_bytes"]
            emit.case("2d_block_io.scale.%s.e%d.w%d.h%d.c%d.%s" % (op, e, w, h, c, variant), "2d_block_io.windowed",
                      module, "test", params=params,
                      requires=requires + ["max_alloc=%d" % size, "global_mem=%d" % size], tags=["huge"],
                      tier=tier(op, e, w, h, c))


# ----------------------------------------------------------------------------------------------------------
# Past 16 bits (docs/2d_block_io.md, "Past 16 bits"): 2d_block_io.past_16bit.<op>.e<E>.w<W>.h<H>.c<C>.<variant>,
# default-run cases whose Memory Height and y, or Memory Width, Pitch and x, need more than 16 bits. The
# OpenCL environment allows width and height up to 2^24 (core tier). A 64-byte-pitch surface of 70,000 rows
# (4.48 MB) and a 2-row surface 70,016 bytes wide keep them cheap.

PAST_16BIT_ROWS = 70000        # Memory Height, rows (> 2^16)
PAST_16BIT_WIDTH = 70016       # Memory Width and Pitch, bytes (> 2^16, a multiple of 64)


def past_16bit_cases():
    """(op, e, w, h, c, variant, surface params) of the past-16-bit cases."""
    tall = {"memory_width_bytes": 64, "memory_height_rows": PAST_16BIT_ROWS, "memory_pitch_bytes": 64}
    wide = {"memory_width_bytes": PAST_16BIT_WIDTH, "memory_height_rows": 2, "memory_pitch_bytes": PAST_16BIT_WIDTH}
    bottom_y = PAST_16BIT_ROWS - 4  # an 8-row block with 4 rows inside
    edge_byte = PAST_16BIT_WIDTH - 16  # a 32-byte block row (1-byte x 32, 2-byte x 16) half inside
    out = []
    for op in ("load", "store"):
        if op == "load":
            out.append((op, 2, 16, 8, 1, "rows_70000_y69990", dict(tall, coords=[8, PAST_16BIT_ROWS - 10])))
        out.append((op, 2, 16, 8, 1, "rows_70000_bottom_edge", dict(tall, coords=[8, bottom_y])))
        for e, w in ((1, 32), (2, 16), (4, 16)):
            out.append((op, e, w, 2, 1, "width_70016_right_edge", dict(wide, coords=[edge_byte // e, 0])))
    return out


def generate_past_16bit(emit):
    requires = [EXT_TOKEN, "min_sg_size=16"]
    for op, e, w, h, c, variant, surface in past_16bit_cases():
        if (op, e, w, h, c) not in TABLE_CONFIGS:
            raise ValueError("2d_block_io.py: past-16-bit case %s e%d w%d h%d c%d is not in the OpenCL table"
                             % (op, e, w, h, c))
        text, lane_bytes = kernel_text(op, e, w, h, c)
        module = emit.module("2d_block_io/%s_e%d_w%d_h%d_c%d" % (op, e, w, h, c), text)
        params = dict(surface, base_offset_bytes=0, work_groups=1, sub_groups_per_work_group=1, op=op,
                      element_size=e, block_width=w, block_height=h, block_count=c, lane_bytes=lane_bytes)
        emit.case("2d_block_io.past_16bit.%s.e%d.w%d.h%d.c%d.%s" % (op, e, w, h, c, variant), "2d_block_io",
                  module, "test", params=params, requires=requires, tier=tier(op, e, w, h, c))


# ----------------------------------------------------------------------------------------------------------
# Sub-group size 32 (docs/2d_block_io.md, "Sub-group size 32"): 2d_block_io.sg32.<op>.e<E>.w<W>.h<H>.c<C>.<variant>,
# modules with OpExecutionMode SubgroupSize 32. The SPIR-V spec maps a block to any power-of-two sub-group size;
# the OpenCL environment promises only 16, so these are device_specific and require sg_size=32. The shapes are
# ones Intel's compiler builds at SIMD32 (IGC's ocloc_tests block_loads_sg32.ll, block_stores_sg32.ll,
# prefetches_sg32.ll), chosen to cover the spec's three mapping scenarios at 32 lanes: padded width below 32
# (two or more rows per sub-group row), equal to 32 (one element per lane per row) and above 32 (runs of
# elements per lane). Widths of 32 and 64 one-byte elements and 32 two-byte ones are the shapes that a
# lowering which halves the SIMD16 result type (IGC before 2.38) maps wrongly.

SG32 = 32
SG32_SHAPES = [
    # load: padded width 32 (= sub-group size) for 1- and 2-byte data, 64 (above), 8 and 16 (below)
    ("load", 1, 32, 1, 1), ("load", 1, 32, 1, 2), ("load", 1, 32, 4, 1), ("load", 1, 32, 4, 2),
    ("load", 1, 32, 32, 1), ("load", 1, 32, 32, 2), ("load", 1, 64, 4, 1), ("load", 1, 16, 1, 1),
    ("load", 1, 16, 8, 4), ("load", 1, 16, 32, 4), ("load", 2, 32, 2, 1), ("load", 2, 32, 16, 1),
    ("load", 2, 16, 1, 1), ("load", 2, 16, 8, 1), ("load", 2, 16, 8, 2), ("load", 2, 16, 32, 2),
    ("load", 2, 8, 8, 2), ("load", 4, 8, 2, 1), ("load", 4, 8, 16, 2), ("load", 4, 16, 1, 1),
    ("load", 4, 16, 8, 1),
    # load_transform: packed width 16, two packed rows per sub-group row
    ("load_transform", 1, 16, 32, 1), ("load_transform", 1, 16, 32, 2), ("load_transform", 1, 16, 32, 4),
    ("load_transform", 2, 16, 16, 1), ("load_transform", 2, 16, 32, 2),
    # load_transpose: transposed width 8 and 16 (below 32) and 32 (equal)
    ("load_transpose", 4, 8, 8, 1), ("load_transpose", 4, 8, 16, 1), ("load_transpose", 4, 8, 32, 1),
    # store: the shapes IGC lists for SIMD32 stores (1-byte 16 and 32 wide, 2- and 4-byte 16 wide)
    ("store", 1, 32, 1, 1), ("store", 1, 32, 2, 1), ("store", 1, 32, 8, 1), ("store", 1, 16, 1, 1),
    ("store", 1, 16, 4, 1), ("store", 2, 16, 2, 1), ("store", 2, 16, 8, 1), ("store", 4, 16, 1, 1),
    ("store", 4, 16, 8, 1),
    # prefetch, each followed by a load of the same shape and region
    ("prefetch", 1, 32, 8, 2), ("prefetch", 2, 16, 16, 1), ("prefetch", 4, 8, 32, 2), ("prefetch", 4, 16, 4, 1),
]
# One shape per instruction gets every variant of the 16-lane sweep; the others get the interior, a corner cut,
# negative coordinates and several sub-groups (the variants that see every lane, both edges and the origin).
SG32_ALL_VARIANTS = {("load", 1, 32, 4, 2), ("load", 2, 16, 8, 1), ("load", 1, 64, 4, 1),
                     ("load_transform", 1, 16, 32, 1), ("load_transform", 2, 16, 32, 2),
                     ("load_transpose", 4, 8, 16, 1), ("store", 1, 32, 8, 1), ("store", 2, 16, 8, 1),
                     ("prefetch", 2, 16, 16, 1)}
SG32_SOME_VARIANTS = ("coord_interior", "coord_corner", "coord_negative", "multi_subgroup")
# intel/intel-xpu-backend-for-triton#4709 (docs/known_driver_bugs.md): the SIMD32 SPIR-V block stores it found
# wrong, 8b_1r32x1c and 16b_2r16x1c, are regression cases.
SG32_REGRESSION = {("store", 1, 32, 1, 1), ("store", 2, 16, 2, 1)}


def generate_sg32(emit):
    requires = [EXT_TOKEN, "sg_size=%d" % SG32]
    for op, e, w, h, c in SG32_SHAPES:
        follow = (e, w, h, c) if op == "prefetch" else None
        text, lane_bytes = kernel_text(op, e, w, h, c, follow, sg=SG32)
        module = emit.module("2d_block_io/sg32_%s_e%d_w%d_h%d_c%d" % (op, e, w, h, c), text)
        for variant, params in variants(op, e, w, h, c):
            if (op, e, w, h, c) not in SG32_ALL_VARIANTS and variant not in SG32_SOME_VARIANTS:
                continue
            if variant.startswith("align_"):
                continue
            params = dict(params, op=op, element_size=e, block_width=w, block_height=h, block_count=c,
                          lane_bytes=lane_bytes, sub_group_size=SG32)
            if follow:
                params.update(load_element_size=e, load_block_width=w, load_block_height=h, load_block_count=c)
            emit.case("2d_block_io.sg32.%s.e%d.w%d.h%d.c%d.%s" % (op, e, w, h, c, variant), "2d_block_io", module,
                      "test", params=params, requires=requires, tier="device_specific",
                      tags=["regression"] if (op, e, w, h, c) in SG32_REGRESSION else None)


# docs/known_driver_bugs.md, "Shapes Triton keeps off the SPIR-V path" (tag regression): the sub-group size 16
# shapes that intel-xpu-backend-for-triton's TritonGENToLLVMPass.cpp lowers to GenISA instead of the SPIR-V
# built-ins because they are "not valid in SPV interface" (loads 64b_2r8x1c, 64b_4r4x1c, 32b_4r4x1c; stores
# 16/32/64-bit 2r8x1c and 4r4x1c; prefetches 16b_?r32x1c and 8b_?r16x1c, here at 8 rows). None but the
# prefetches' neighbours is in the OpenCL table, so all are device_specific: a device may reject them at build
# time (NotSupported), but one that builds them must give the spec's bytes. Three coordinate variants each.
TRITON_SPV_GAP_SHAPES = [("load", 8, 8, 2, 1), ("load", 8, 4, 4, 1), ("load", 4, 4, 4, 1),
                         ("store", 2, 8, 2, 1), ("store", 4, 8, 2, 1), ("store", 8, 8, 2, 1),
                         ("store", 2, 4, 4, 1), ("store", 4, 4, 4, 1), ("store", 8, 4, 4, 1),
                         ("prefetch", 2, 32, 8, 1), ("prefetch", 1, 16, 8, 1)]
TRITON_SPV_GAP_VARIANTS = ("coord_interior", "coord_corner", "multi_subgroup")


def generate_triton_spv_gaps(emit):
    requires = [EXT_TOKEN, "min_sg_size=16"]
    for op, e, w, h, c in TRITON_SPV_GAP_SHAPES:
        follow = prefetch_follow(e, w, h, c) if op == "prefetch" else None
        text, lane_bytes = kernel_text(op, e, w, h, c, follow)
        module = emit.module("2d_block_io/triton_spv_%s_e%d_w%d_h%d_c%d" % (op, e, w, h, c), text)
        for variant, params in variants(op, e, w, h, c):
            if variant not in TRITON_SPV_GAP_VARIANTS:
                continue
            params = dict(params, op=op, element_size=e, block_width=w, block_height=h, block_count=c,
                          lane_bytes=lane_bytes)
            if follow:
                params.update(load_element_size=follow[0], load_block_width=follow[1],
                              load_block_height=follow[2], load_block_count=follow[3])
            emit.case("2d_block_io.triton_spv_sg16.%s.e%d.w%d.h%d.c%d.%s" % (op, e, w, h, c, variant),
                      "2d_block_io", module, "test", params=params, requires=requires, tags=["regression"],
                      tier=tier(op, e, w, h, c))
