"""SPV_INTEL_media_block_io cases: the OpenCL width x height table, re-tiling at sub-group sizes 8, 16 and 32,
edge replication at every edge and corner, 1-, 2- and 4-byte texels, images created from buffers, regions
smaller and larger than the sub-group's values, and the write-then-read round trip.

One module per (op, component type, component count, Width, Height, sub-group size): Width and Height must be
constants. The image, its format, the backing and the coordinate are chosen at run time. Kernel arguments:
    0 image   image2d (read_only for read, write_only for write, read_write for round trip)
    1 coords  CrossWorkgroup uint2*  Coordinate (x bytes, y rows) of sub-group g = WorkgroupId * NumSubgroups
                                     + SubgroupId
    2 lanes   CrossWorkgroup T*      read: lanes[s] = Result; write and round trip: Data = lanes[s]
    3 done    CrossWorkgroup uint*   done[s] = s + 0x1000 as the kernel's last store: the completion record
                                     (spvgen.done_record_code) that proves the kernel ran, which a write
                                     wholly out of bounds leaves nowhere else
    4 back    CrossWorkgroup T*      round trip only: back[s] = the read of the region just written
with s = g * S + SubgroupLocalInvocationId and T the Result / Data type.
"""

from assets import spvgen

EXT_TOKEN = "ext=cl_intel_spirv_media_block_io"
SIZES = [8, 16, 32]
TYPE = {1: "uchar", 2: "ushort", 4: "uint"}
COUNTS = {1: [1, 2, 4, 8, 16], 2: [1, 2, 4, 8, 16], 4: [1, 2, 4, 8]}
# Image formats by texel size: name -> (texel bytes); the format cases (section 5) use every format.
FORMATS = {"r8ui": 1, "r16ui": 2, "r32ui": 4}
ALL_FORMATS = {name: texel for name, (_, _, texel) in spvgen.IMAGE_FORMATS.items()}


def max_height(row_bytes):
    """The OpenCL environment's limit on Height for a row of row_bytes bytes."""
    return {4: 64, 8: 32, 12: 16, 16: 16}.get(row_bytes, 8 if 20 <= row_bytes <= 32 else 0)


def pow2(v):
    return 1 << (v - 1).bit_length()


def heights(row_bytes):
    top = max_height(row_bytes)
    hs = sorted({1, 2, 3, 4, top} | {h for h in (8, 16, 32, 64) if h <= top})
    return [h for h in hs if h <= top]


def fitting_count(e, w, h, sg):
    """Smallest component count whose S x count slots hold the whole (padded) region, or None."""
    slots = (h - 1) * (pow2(w * e) // e) + w
    for c in COUNTS[e]:
        if sg * c >= slots:
            return c
    return None


def vec(t, c):
    return t if c == 1 else "v%d%s" % (c, t)


def kernel_text(op, e, comps, w, h, sg):
    t = vec(TYPE[e], comps)
    access = {"read": "ReadOnly", "write": "WriteOnly", "round_trip": "ReadWrite"}[op]
    caps = ["Addresses", "Kernel", "ImageBasic", "Int8", "Int16", "Int64", "SubgroupDispatch"]
    if op == "round_trip":
        caps.append("ImageReadWrite")
    if comps >= 8:
        caps.append("Vector16")
    caps.append("SubgroupImageMediaBlockIOINTEL")
    lines = spvgen.kernel_header(["SPV_INTEL_media_block_io %s: %s, Width %d, Height %d, SubgroupSize %d"
                                  % (op, t, w, h, sg)], caps, ["SPV_INTEL_media_block_io"], sg,
                                 ["image", "coords", "lanes", "done"] + (["back"] if op == "round_trip" else []))
    lines += spvgen.types("void", "uchar", "ushort", "uint", "ulong", "v2uint", "v3ulong")
    if comps > 1 and t != "v2uint":
        lines.append("%%%s = OpTypeVector %%%s %d" % (t, TYPE[e], comps))
    lines += [
        "      %%img_t = OpTypeImage %%void 2D 0 0 0 0 Unknown %s" % access,
        "%ptr_in_uint = OpTypePointer Input %uint",
        "%ptr_in_v3ulong = OpTypePointer Input %v3ulong",
        "%%ptr_cw_t = OpTypePointer CrossWorkgroup %%%s" % t,
    ] + ([] if t == "uint" else ["%ptr_cw_uint = OpTypePointer CrossWorkgroup %uint"]) + [
    ] + ([] if t == "v2uint" else ["%ptr_cw_v2uint = OpTypePointer CrossWorkgroup %v2uint"]) + [
        "      %%width = OpConstant %%uint %d" % w,
        "     %%height = OpConstant %%uint %d" % h,
        "      %%lanes_per_sg = OpConstant %%uint %d" % sg,
        spvgen.DONE_MAGIC_CONSTANT,
        "   %scope_sg = OpConstant %uint 3",  # Subgroup
        "    %sem_img = OpConstant %uint 2056",  # AcquireRelease (0x8) | ImageMemory (0x800)
    ] + spvgen.SUBGROUP_INDEX_VARIABLES + [
    ]
    cptr = "%ptr_cw_t" if t == "v2uint" else "%ptr_cw_v2uint"
    params = "%img_t " + cptr + " %ptr_cw_t %ptr_cw_uint" + (" %ptr_cw_t" if op == "round_trip" else "")
    lines += [
        "  %%kernel_ty = OpTypeFunction %%void %s" % params,
        "       %test = OpFunction %void None %kernel_ty",
        "      %image = OpFunctionParameter %img_t",
        "     %coords = OpFunctionParameter " + cptr,
        "      %lanes = OpFunctionParameter %ptr_cw_t",
        "       %done = OpFunctionParameter %ptr_cw_uint",
    ]
    if op == "round_trip":
        lines.append("       %back = OpFunctionParameter %ptr_cw_t")
    lines += [
        "      %entry = OpLabel",
    ] + spvgen.SUBGROUP_INDEX_CODE + [
        "  %coord_ptr = OpInBoundsPtrAccessChain " + cptr + " %coords %g",
        "      %coord = OpLoad %v2uint %coord_ptr Aligned 8",
        "     %g_lane = OpIMul %uint %g %lanes_per_sg",
        "          %s = OpIAdd %uint %g_lane %lane",
        "   %lane_ptr = OpInBoundsPtrAccessChain %ptr_cw_t %lanes %s",
    ]
    if op == "read":
        lines += ["      %%value = OpSubgroupImageMediaBlockReadINTEL %%%s %%image %%coord %%width %%height" % t,
                  "               OpStore %lane_ptr %value"]
    else:
        lines += ["       %%data = OpLoad %%%s %%lane_ptr" % t,
                  "               OpSubgroupImageMediaBlockWriteINTEL %image %coord %width %height %data"]
    if op == "round_trip":
        # The write must be visible to the read of the same invocations: an image memory fence.
        lines += [
            "               OpMemoryBarrier %scope_sg %sem_img",
            "      %%again = OpSubgroupImageMediaBlockReadINTEL %%%s %%image %%coord %%width %%height" % t,
            "   %back_ptr = OpInBoundsPtrAccessChain %ptr_cw_t %back %s",
            "               OpStore %back_ptr %again",
        ]
    lines += spvgen.done_record_code("%s", "%done", "%ptr_cw_uint") + [
        "               OpReturn", "               OpFunctionEnd", ""]
    text = "\n".join(lines)
    return text.replace("%ptr_cw_uint", "%ptr_cw_t") if t == "uint" else text


def coordinates(image_w, image_h, row_bytes, h):
    """Coordinate classes (x bytes, y rows) for an image image_w bytes wide and image_h rows tall; x stays a
    multiple of 4."""
    half = max(4, (row_bytes // 2) // 4 * 4)
    return [
        ("interior", 8, 2),
        ("left_edge", -half, 2),
        ("right_edge", image_w - half, 2),
        ("top_edge", 8, -max(1, h // 2)),
        ("bottom_edge", 8, image_h - max(1, h // 2)),
        ("corner_top_left", -half, -max(1, h // 2)),
        ("corner_top_right", image_w - half, -max(1, h // 2)),
        ("corner_bottom_left", -half, image_h - max(1, h // 2)),
        ("corner_bottom_right", image_w - half, image_h - max(1, h // 2)),
        ("outside_before", -(row_bytes + 16), -(h + 3)),
        ("outside_after", image_w + 16, image_h + 2),
    ]


class Module:
    def __init__(self, emit):
        self.emit = emit
        self.done = {}

    def get(self, op, e, comps, w, h, sg):
        key = (op, e, comps, w, h, sg)
        if key not in self.done:
            path = "media_block_io/%s_e%d_c%d_w%d_h%d_sg%d" % key
            self.done[key] = self.emit.module(path, kernel_text(op, e, comps, w, h, sg))
        return self.done[key]


def tier(e, comps, w, h, sg):
    """The tier table (docs/media_block_io.md, "Tiers"). cl_intel_spirv_media_block_io rev 2 promises 8-, 16- and
    32-bit integer Result / Data types of 1, 2, 4, 8 or 16 components with a constant Width and Height (every
    module here). A region larger than the data the sub-group holds is valid SPIR-V whose tail is dropped, but no
    environment text promises that such a module builds (Intel's compiler rejects it: "attempt of N bytes"), so
    it is device_specific."""
    slots = (h - 1) * (pow2(w * e) // e) + w
    return "core" if slots <= sg * comps else "device_specific"


def emit_case(emit, modules, name, op, e, comps, w, h, sg, fmt, backing, coord, image_w, image_h, tags=None,
              fill=None):
    module = modules.get(op, e, comps, w, h, sg)
    params = dict(op=op, element_bytes=e, components=comps, width=w, height=h, sg=sg, format=fmt,
                  texel_bytes=ALL_FORMATS[fmt], backing=backing, image_width_bytes=image_w, image_height=image_h,
                  x=coord[0], y=coord[1])
    if fill:
        params["fill"] = fill
    emit.case(name, "media_block_io", module, "test", params=params,
              requires=[EXT_TOKEN, "sg_size=%d" % sg, "images"], tags=tags or [], tier=tier(e, comps, w, h, sg))


def generate(emit):
    modules = Module(emit)
    # 1. The table: every legal row width (4..32 bytes) x heights up to its limit x component types x
    #    sub-group sizes, with the smallest component count that holds the region; interior of a plain
    #    4-byte-texel image.
    for op in ("read", "write"):
        for e in (1, 2, 4):
            for row_bytes in range(4, 33, 4):
                if row_bytes % e:
                    continue
                w = row_bytes // e
                for h in heights(row_bytes):
                    for sg in SIZES:
                        comps = fitting_count(e, w, h, sg)
                        if comps is None:
                            continue  # the region does not fit the largest Result type at this size
                        emit_case(emit, modules, "media_block_io.%s.e%d.w%d.h%d.sg%d.c%d.table" % (
                            op, e, w, h, sg, comps), op, e, comps, w, h, sg, "r32ui", "image",
                            (8, 2), 64 + row_bytes, h + 4, tags=["quick"] if (h == 2 and sg == 16) else [])
    # 2. Edges and corners x texel sizes x plain images and images from buffers (row pitch a multiple of
    #    64, height <= 16), for a power-of-two row (16 bytes x 4 rows) and a padded one (12 bytes x 2 rows).
    for op in ("read", "write"):
        for e in (1, 2, 4):
            for row_bytes, h in ((16, 4), (12, 2)):
                w = row_bytes // e
                for sg in SIZES:
                    comps = fitting_count(e, w, h, sg)
                    for fmt in FORMATS:
                        for backing in ("image", "buffer"):
                            image_w, image_h = 48, 12  # 48-byte rows: the buffer's 64-byte pitch differs
                            # docs/known_driver_bugs.md: block reads of 4-byte data from an image created
                            # from a buffer (tag regression).
                            regression = (op == "read" and e == 4 and row_bytes == 16 and fmt == "r32ui"
                                          and backing == "buffer")
                            for cname, x, y in coordinates(image_w, image_h, row_bytes, h):
                                emit_case(emit, modules, "media_block_io.%s.e%d.w%d.h%d.sg%d.c%d.%s.%s.%s" % (
                                    op, e, w, h, sg, comps, fmt, backing, cname), op, e, comps, w, h, sg, fmt,
                                    backing, (x, y), image_w, image_h, tags=["regression"] if regression else [])
    # 3. Regions smaller than S x components (tail components undefined / not written) and larger (the
    #    region's tail dropped / undefined).
    for op in ("read", "write"):
        for e in (1, 2, 4):
            for sg in SIZES:
                small = (4 // e, 1, 4)  # one 4-byte row into 4 components
                w_big = 32 // e
                big = (w_big, 8, 1)  # 8 rows of 32 bytes into one component: most of it dropped
                for label, (w, h, comps) in (("region_smaller", small), ("region_larger", big)):
                    if comps not in COUNTS[e]:
                        continue
                    emit_case(emit, modules, "media_block_io.%s.e%d.w%d.h%d.sg%d.c%d.%s" % (
                        op, e, w, h, sg, comps, label), op, e, comps, w, h, sg, "r32ui", "image", (8, 2), 96, 16)
    # 4. Write then read back the same region in one kernel (read_write image).
    for e in (1, 2, 4):
        for sg in SIZES:
            w, h = 16 // e, 4
            comps = fitting_count(e, w, h, sg)
            for cname, x, y in (("interior", 8, 2), ("corner_bottom_right", 40, 10)):
                emit_case(emit, modules, "media_block_io.round_trip.e%d.w%d.h%d.sg%d.c%d.r32ui.image.%s" % (
                    e, w, h, sg, comps, cname), "round_trip", e, comps, w, h, sg, "r32ui", "image", (x, y), 48, 12)
    generate_formats(emit, modules)
    # 5. Alignment (docs/media_block_io.md, "Alignment"): x and the row width at the smallest legal step,
    #    4 bytes, and an odd multiple of it (x = 4, 12; rows of 4 and 12 bytes), inside the image; elsewhere x
    #    is mostly a multiple of 8.
    for op in ("read", "write"):
        for e in (1, 2, 4):
            for row_bytes in (4, 12):
                w, h, sg = row_bytes // e, 2, 16
                comps = fitting_count(e, w, h, sg)
                for x in (4, 12):
                    emit_case(emit, modules, "media_block_io.%s.e%d.w%d.h%d.sg%d.c%d.align_x_%d" % (
                        op, e, w, h, sg, comps, x), op, e, comps, w, h, sg, "r32ui", "image", (x, 2), 48, 8)
    generate_scale(emit)


def generate_formats(emit, modules):
    """5. Media block IO moves raw bits whatever the format: a 16-byte x 4-row region of 4-byte elements at
    sub-group size 16 at x = 16 bytes (a whole texel of every size) in a 48-byte x 12-row image of every
    format, filled with channel values a conversion would change ("fill": "distinctive"); on an image from a
    buffer too for one format per texel size (row pitch the smallest multiple of 64 bytes and of
    CL_DEVICE_IMAGE_PITCH_ALIGNMENT texels above the row)."""
    e, w, h, sg = 4, 4, 4, 16
    comps = fitting_count(e, w, h, sg)
    for op in ("read", "write"):
        for fmt in ALL_FORMATS:
            for backing in ("image", "buffer") if fmt in spvgen.FROM_BUFFER_FORMATS else ("image",):
                emit_case(emit, modules, "media_block_io.%s.e%d.w%d.h%d.sg%d.c%d.%s.%s.bits" % (
                    op, e, w, h, sg, comps, fmt, backing), op, e, comps, w, h, sg, fmt, backing, (16, 2), 48, 12,
                    fill="distinctive")


# ----------------------------------------------------------------------------------------------------------
# Scale (docs/media_block_io.md, "Scale"): media_block_io.scale.<the usual levels>, where
#   - the coordinate level groups_1024: 1024 work-groups of one sub-group, sub-group g at its own region of a
#     32 x 32 grid (the image is seed-random, so a sub-group reading or writing another's region fails);
#   - the backing level image_max_width / image_max_height: a plain image CL_DEVICE_IMAGE2D_MAX_WIDTH texels
#     wide and 12 rows high, or 48 bytes wide and MAX_HEIGHT rows high; the coordinate classes then count x
#     from the right edge and y from the bottom edge (the family adds the device's size).

SCALE_GROUPS = 1024
SCALE_GRID = 32


def generate_scale(emit):
    modules = Module(emit)
    e, w, h, sg, fmt = 1, 16, 4, 16, "r8ui"
    comps = fitting_count(e, w, h, sg)
    image_w, image_h = SCALE_GRID * (w * e + 4) + 8, SCALE_GRID * (h + 1) + 2
    coords = []
    for g in range(SCALE_GROUPS):
        coords += [4 + (g % SCALE_GRID) * (w * e + 4), 1 + (g // SCALE_GRID) * (h + 1)]
    for op in ("read", "write"):
        module = modules.get(op, e, comps, w, h, sg)
        params = dict(op=op, element_bytes=e, components=comps, width=w, height=h, sg=sg, format=fmt,
                      texel_bytes=FORMATS[fmt], backing="image", image_width_bytes=image_w, image_height=image_h,
                      x=coords[0], y=coords[1], coords=coords)
        emit.case("media_block_io.scale.%s.e%d.w%d.h%d.sg%d.c%d.%s.image.groups_1024" % (op, e, w, h, sg, comps, fmt),
                  "media_block_io", module, "test", params=params, requires=[EXT_TOKEN, "sg_size=%d" % sg, "images"],
                  tier=tier(e, comps, w, h, sg))
    # 4-byte texels: at the maximum width the byte coordinate passes 2^16.
    e, w, h, fmt = 4, 4, 4, "r32ui"
    row_bytes = w * e
    comps = fitting_count(e, w, h, sg)
    half = row_bytes // 2
    for op in ("read", "write"):
        for size, image_w, image_h, classes in (
                ("max_width", 0, 12, (("right_edge", -half, 2), ("corner_bottom_right", -half, 12 - h // 2))),
                ("max_height", 48, 0, (("bottom_edge", 8, -(h // 2)), ("corner_bottom_right", 48 - half, -(h // 2))))):
            for cname, x, y in classes:
                module = modules.get(op, e, comps, w, h, sg)
                params = dict(op=op, element_bytes=e, components=comps, width=w, height=h, sg=sg, format=fmt,
                              texel_bytes=FORMATS[fmt], backing="image", image_width_bytes=image_w,
                              image_height=image_h, x=x, y=y, image_size=size)
                emit.case("media_block_io.scale.%s.e%d.w%d.h%d.sg%d.c%d.%s.image_%s.%s" % (
                    op, e, w, h, sg, comps, fmt, size, cname), "media_block_io", module, "test", params=params,
                    requires=[EXT_TOKEN, "sg_size=%d" % sg, "images"], tier=tier(e, comps, w, h, sg))
