"""compiled.* cases: kernels as compilers emit them (docs/compiled.md).

OpenCL C kernels (test_conformance/compiled/kernels/*.cl) using the cl_intel_subgroups (+ _short, _char) and
cl_intel_media_block_io built-ins, written the way real code uses them (helper functions, private arrays,
loops, conditionals), compiled at -O0 and -O2 by clang-15 + llvm-spirv-15 into SPIR-V 1.1 with
SPV_INTEL_subgroups and SPV_INTEL_media_block_io. Each kernel keeps the argument names and meaning of the
generated kernels of subgroups.shuffle, subgroups.block_io, subgroups.image_block_io and media_block_io, so the
cases run on those families and are judged by the same host references (test_common/reference/).

The compilers come from build_assets.py (--clang, --llvm-spirv, --spirv-dis; CMake finds them). Without them
the group is absent: generate() emits nothing (CMake says so in one configure line). Compiled text is cached
under <assets>/compiled_cache by the hash of source, flags and tool versions.

Case names: compiled.<o0|o2>[.imported].<op>.<type>.v<n>.sg<S>[.<variant>].<shape>. The `imported` cases run the
sub-group, media and local block IO built-ins as calls of imported functions (docs/compiled.md, "Imported
sub-group, media and local block IO built-ins"): llvm-spirv-15 has no switch that keeps a built-in it knows as a
call (with its extension disabled it stops: "RequiresExtension"), so the kernel calls it under IMPORT_PREFIX,
which llvm-spirv does not know, and rename_imports() drops the prefix from the import's name.
"""

import hashlib
import importlib.util
import os
import re
import subprocess

from assets import spvgen

LEVELS = ("o0", "o2")
KERNELS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))),
                       "test_conformance", "compiled", "kernels")
CLANG_FLAGS = ["-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0", "-finclude-default-header",
               "-no-opaque-pointers",
               "-cl-ext=+cl_intel_subgroups,+cl_intel_subgroups_short,+cl_intel_subgroups_char",
               "-emit-llvm-bc"]
LLVM_SPIRV_FLAGS = ["--spirv-max-version=1.1", "--spirv-ext=+SPV_INTEL_subgroups,+SPV_INTEL_media_block_io"]
SPIRV_VERSION = "1.1"  # what llvm-spirv-15 emits for these kernels; kept as emitted

C_TYPES = {"i8": "uchar", "i16": "ushort", "i32": "uint", "u8": "uchar", "u16": "ushort", "u32": "uint"}
# u32 uses the unsuffixed names: clang-15's opencl-c.h declares intel_sub_group_block_write_ui* for read_only
# images instead of write_only.
IMAGE_SUFFIX = {"u16": "_us", "u32": ""}
MEDIA_SUFFIX = {1: "_uc", 2: "_us", 4: "_ui"}
SHUFFLE_OPS = ("shuffle", "shuffle_down", "shuffle_up", "shuffle_xor")
IMPORT_PREFIX = "__imported_"  # common.h's BUILTIN_NAME under IMPORTED


def rename_imports(text, origin):
    """The disassembly of an IMPORTED kernel with IMPORT_PREFIX dropped from every mangled name
    (_Z34__imported_intel_sub_group_shuffleDv4_jj -> _Z23intel_sub_group_shuffleDv4_jj: the length counts the
    source name). Fails unless the module then imports some intel_sub_group_ built-in and no prefix is left."""
    renamed = re.sub(r"_Z(\d+)%s" % IMPORT_PREFIX,
                     lambda m: "_Z%d" % (int(m.group(1)) - len(IMPORT_PREFIX)), text)
    if IMPORT_PREFIX in renamed or \
            not re.search(r'LinkageAttributes "_Z\d+intel_sub_group_\w+" Import', renamed):
        raise spvgen.SpvgenError("%s: the imported kernel's disassembly has no %s import to rename (or one left "
                                 "over)" % (origin, IMPORT_PREFIX))
    return renamed


def case_level(level, imported):
    """(case-name level, module folder): o0 / o2, with the imported dimension under it."""
    return (level + ".imported", level + "/imported") if imported else (level, level)


class Compiler:
    def __init__(self, emit):
        self.emit = emit
        self.tools = getattr(emit, "tools", {}) or {}
        self.cache = os.path.join(emit.out_dir, "compiled_cache")
        self.done = {}
        self.used = set()  # cache files this build produced or reused

    def prune(self):
        """Removes cached modules no build of this generator asks for any more (changed sources or flags)."""
        if os.path.isdir(self.cache):
            for fn in os.listdir(self.cache):
                if fn not in self.used:
                    os.remove(os.path.join(self.cache, fn))

    def available(self):
        return all(self.tools.get(t) for t in ("clang", "llvm_spirv", "spirv_dis"))

    def _version_key(self):
        if not hasattr(self, "_vkey"):
            parts = []
            for tool in ("clang", "llvm_spirv", "spirv_dis"):
                p = subprocess.run([self.tools[tool], "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   universal_newlines=True)
                parts.append(p.stdout)
            self._vkey = "\n".join(parts)
        return self._vkey

    def _sources_key(self):
        h = hashlib.sha256()
        for fn in sorted(os.listdir(KERNELS)):
            with open(os.path.join(KERNELS, fn), "rb") as f:
                h.update(fn.encode() + b"\0" + f.read())
        return h.hexdigest()

    def module(self, source, level, defines, relpath, comment):
        """Compiles kernels/<source> at level with -D defines; emits it as <relpath> and returns its path."""
        if relpath in self.done:
            return self.done[relpath]
        flags = ["-O%s" % level[1:]] + ["-D%s=%s" % kv for kv in sorted(defines.items())] + ["-I", KERNELS]
        key = hashlib.sha256("\0".join([self._version_key(), self._sources_key(), source] + flags +
                                       CLANG_FLAGS + LLVM_SPIRV_FLAGS).encode()).hexdigest()
        os.makedirs(self.cache, exist_ok=True)
        cached = os.path.join(self.cache, key + ".spvasm")
        self.used.add(os.path.basename(cached))
        if not os.path.exists(cached):
            bc, spv = cached[:-7] + ".bc", cached[:-7] + ".spv"
            for cmd in ([self.tools["clang"]] + CLANG_FLAGS + flags + [os.path.join(KERNELS, source), "-o", bc],
                        [self.tools["llvm_spirv"]] + LLVM_SPIRV_FLAGS + [bc, "-o", spv],
                        [self.tools["spirv_dis"], "--no-color", spv, "-o", cached + ".tmp"]):
                p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
                if p.returncode != 0:
                    raise spvgen.SpvgenError("%s: %s failed (%s):\n%s" % (self.emit.origin, os.path.basename(cmd[0]),
                                                                      " ".join(cmd), p.stdout.strip()))
            os.replace(cached + ".tmp", cached)
            for tmp in (bc, spv):
                os.remove(tmp)
        with open(cached, encoding="utf-8") as f:
            text = f.read()
        header = "; %s\n; compiled from test_conformance/compiled/kernels/%s: clang-15 %s, llvm-spirv-15\n" \
                 "; @version %s\n" % (comment, source, " ".join(flags[:-2]), SPIRV_VERSION)
        if defines.get("IMPORTED"):
            text = rename_imports(text, "%s (%s)" % (self.emit.origin, relpath))
            header += "; built-ins called as %s<name> and renamed to their mangled names (imports)\n" % IMPORT_PREFIX
        self.done[relpath] = self.emit.module(relpath, header + text)
        return self.done[relpath]


def sg_requires(sg, bits, imported=False):
    # An imported built-in is an OpenCL C one (cl_intel_subgroups), not the SPIR-V extension's instruction.
    req = ["ext=cl_intel_subgroups" if imported else "ext=cl_intel_spirv_subgroups", "spirv=%s" % SPIRV_VERSION,
           "sg_size=%d" % sg]
    if bits == 8:
        req.append("ext=cl_intel_subgroups_char")
    if bits == 16:
        req.append("ext=cl_intel_subgroups_short")
    return req


# (type, components, sub-group size, per-component loop): the environment's core shuffle types (32-bit
# vectors, 16-bit with _short) and 8-bit scalars (_char: device_specific, as in subgroups.*).
SHUFFLE_CONFIGS = [("i32", 4, 16, False), ("i32", 4, 16, True), ("i16", 2, 16, True), ("i8", 1, 16, False),
                   ("i32", 1, 8, False), ("i32", 1, 32, False)]
# The imported shuffles: a 32-bit vector, 16- and 8-bit scalars, and a second sub-group size.
IMPORTED_SHUFFLE_CONFIGS = [("i32", 4, 16, False), ("i16", 2, 16, True), ("i8", 1, 16, False), ("i32", 1, 8, False)]


def shuffle_cases(emit, cc, level, imported=False):
    tag, folder = case_level(level, imported)
    for op in SHUFFLE_OPS:
        for type_name, n, sg, per_component in IMPORTED_SHUFFLE_CONFIGS if imported else SHUFFLE_CONFIGS:
            bits = int(type_name[1:])
            variant = ".per_component" if per_component else ""
            defines = {"OP": SHUFFLE_OPS.index(op), "T": C_TYPES[type_name], "N": n, "SG": sg,
                       "VEC": C_TYPES[type_name] + ("" if n == 1 else str(n)), "PER_COMPONENT": int(per_component)}
            if imported:
                defines["IMPORTED"] = 1
            module = cc.module("shuffle.cl", level, defines,
                               "compiled/%s/%s_%s_v%d_sg%d%s" % (folder, op, type_name, n, sg,
                                                                variant.replace(".", "_")),
                               "%s of %s x %d at SubgroupSize %d%s" % (op, type_name, n, sg,
                                                                       ", imported" if imported else ""))
            index_range = sg + sg // 4 if op in ("shuffle", "shuffle_xor") else 2 * sg + 2
            kind = {"shuffle": "index", "shuffle_xor": "value"}.get(op, "delta")
            uniform = sg // 2 + 1
            for pname, pattern, shape, local, groups, period, lanes in (
                    # A trailing partial sub-group (2 S + 3 work-items a work-group), every lane runs.
                    ("%s_varying" % kind, {"pattern": "varying", "index_range": index_range}, "wg_partial",
                     2 * sg + 3, 3, 1, "all"),
                    # Only odd work-groups and a seeded subset of lanes run the shuffle.
                    ("%s_uniform" % kind, {"pattern": "uniform", "index": uniform}, "wg_several", 3 * sg, 3, 2,
                     "seeded")):
                params = dict(pattern, op=op, type=type_name, width=n, sg=sg, local=local, groups=groups,
                              exec_period=period, lane_mask=lanes)
                emit.case("compiled.%s.%s.%s.v%d.sg%d%s.%s.%s" % (tag, op, type_name, n, sg, variant, pname, shape),
                          "subgroups.shuffle", module, "test", params=params,
                          requires=sg_requires(sg, bits, imported), tier="device_specific" if bits == 8 else "core")


# (type, components, sub-group size, name suffix): u32 by the unsuffixed names, and (imported) by _ui as well.
BLOCK_CONFIGS = [("u32", 4, 16, ""), ("u32", 2, 8, ""), ("u16", 2, 16, "_us"), ("u8", 4, 16, "_uc")]
IMPORTED_BLOCK_CONFIGS = [("u32", 4, 16, ""), ("u32", 2, 8, "_ui"), ("u16", 2, 16, "_us"), ("u8", 4, 16, "_uc")]


def block_requires(type_name, sg, suffix, imported):
    bits = int(type_name[1:])
    req = sg_requires(sg, bits, imported)
    if suffix == "_ui":  # the _ui names come with cl_intel_subgroups_short
        req.append("ext=cl_intel_subgroups_short")
    return req


def block_io_cases(emit, cc, level, imported=False):
    tag, folder = case_level(level, imported)
    for write in (False, True):
        op = "block_write" if write else "block_read"
        for type_name, n, sg, suffix in IMPORTED_BLOCK_CONFIGS if imported else BLOCK_CONFIGS:
            bits = int(type_name[1:])
            defines = {"WRITE": int(write), "T": C_TYPES[type_name], "N": n, "SG": sg, "SUFFIX": suffix,
                       "VEC": C_TYPES[type_name] + ("" if n == 1 else str(n))}
            if imported:
                defines["IMPORTED"] = 1
            named = "_ui" if suffix == "_ui" else ""  # the other suffixes follow from the type
            module = cc.module("block_io.cl", level, defines,
                               "compiled/%s/%s%s_%s_v%d_sg%d" % (folder, op, named, type_name, n, sg),
                               "%s%s of %s x %d at SubgroupSize %d%s" % (op, named, type_name, n, sg,
                                                                         ", imported" if imported else ""))
            offset = 16 if write else 4  # the alignment the environment requires: 16 bytes writes, 4 reads
            params = {"op": op, "type": type_name, "width": n, "sg": sg, "offset_bytes": offset, "local": 4 * sg,
                      "groups": 2}
            emit.case("compiled.%s.%s.%s.v%d.sg%d.offset_%db.wg_several" % (tag, op, type_name, n, sg, offset),
                      "subgroups.block_io", module, "test", params=params,
                      requires=block_requires(type_name, sg, suffix, imported),
                      tier="device_specific" if bits == 8 else "core")


# Local-memory block IO (cl_intel_subgroup_local_block_io, device_specific as subgroups.local_*): the buffer
# configurations at the tile offset 48 (an odd multiple of the 16-byte alignment the extension requires).
LOCAL_OFFSET = 48


def local_block_io_cases(emit, cc, level, imported=False):
    tag, folder = case_level(level, imported)
    for write in (False, True):
        op = "block_write" if write else "block_read"
        for type_name, n, sg, suffix in IMPORTED_BLOCK_CONFIGS if imported else BLOCK_CONFIGS:
            block_bytes = sg * n * int(type_name[1:]) // 8
            stride_bytes = (block_bytes + 16 + 15) // 16 * 16  # as test_conformance/subgroups/block_io_family.cpp
            tile_bytes = LOCAL_OFFSET + 4 * stride_bytes  # 4 sub-groups a work-group
            defines = {"WRITE": int(write), "T": C_TYPES[type_name], "N": n, "SG": sg, "SUFFIX": suffix,
                       "VEC": C_TYPES[type_name] + ("" if n == 1 else str(n)), "TILE_BYTES": tile_bytes}
            if imported:
                defines["IMPORTED"] = 1
            named = "_ui" if suffix == "_ui" else ""
            module = cc.module("local_block_io.cl", level, defines,
                               "compiled/%s/local_%s%s_%s_v%d_sg%d" % (folder, op, named, type_name, n, sg),
                               "%s%s of %s x %d on local memory at SubgroupSize %d%s" % (
                                   op, named, type_name, n, sg, ", imported" if imported else ""))
            params = {"op": op, "type": type_name, "width": n, "sg": sg, "offset_bytes": LOCAL_OFFSET,
                      "local": 4 * sg, "groups": 2, "storage": "workgroup", "tile_bytes": tile_bytes}
            emit.case("compiled.%s.local_%s.%s.v%d.sg%d.offset_%db.wg_several" % (tag, op, type_name, n, sg,
                                                                                  LOCAL_OFFSET),
                      "subgroups.block_io", module, "test", params=params,
                      requires=block_requires(type_name, sg, suffix, imported) +
                      ["ext=cl_intel_subgroup_local_block_io"], tier="device_specific")


def image_block_io_cases(emit, cc, level, imported=False):
    tag, folder = case_level(level, imported)
    for write in (False, True):
        op = "image_block_write" if write else "image_block_read"
        for type_name, n, sg in (("u32", 4, 16), ("u16", 2, 16)):
            # Imported, u32 takes the _ui names, which the kernel declares itself (see IMAGE_SUFFIX).
            suffix = "_ui" if imported and type_name == "u32" else IMAGE_SUFFIX[type_name]
            defines = {"WRITE": int(write), "T": C_TYPES[type_name], "N": n, "SG": sg, "SUFFIX": suffix,
                       "VEC": C_TYPES[type_name] + ("" if n == 1 else str(n))}
            if imported:
                defines["IMPORTED"] = 1
            module = cc.module("image_block_io.cl", level, defines,
                               "compiled/%s/%s_%s_v%d_sg%d" % (folder, op, type_name, n, sg),
                               "%s of %s x %d at SubgroupSize %d%s" % (op, type_name, n, sg,
                                                                       ", %s, imported" % suffix if imported else ""))
            for coords in ("interior", "beyond_right"):
                params = {"op": op, "type": type_name, "width": n, "sg": sg, "format": "r32ui", "size": "size_tight",
                          "coords": coords, "local": 2 * sg, "groups": 2}
                emit.case("compiled.%s.%s.%s.v%d.sg%d.r32ui.size_tight.%s" % (tag, op, type_name, n, sg, coords),
                          "subgroups.image_block_io", module, "test", params=params,
                          requires=block_requires(type_name, sg, suffix, imported) +
                          ["images", "image_format=CL_R/CL_UNSIGNED_INT32"], tier="core")


def media_cases(emit, cc, level, imported=False):
    tag, folder = case_level(level, imported)
    # (element bytes, components, Width, Height, sub-group size): regions that fit the sub-group's data.
    for write in (False, True):
        op = "write" if write else "read"
        for e, comps, w, h, sg in ((4, 2, 4, 8, 16), (2, 4, 8, 4, 8), (1, 4, 16, 4, 16)):
            ctype = {1: "uchar", 2: "ushort", 4: "uint"}[e]
            defines = {"WRITE": int(write), "T": ctype, "N": comps, "SG": sg, "SUFFIX": MEDIA_SUFFIX[e], "WIDTH": w,
                       "HEIGHT": h, "VEC": ctype + ("" if comps == 1 else str(comps))}
            if imported:
                defines["IMPORTED"] = 1
            module = cc.module("media_block_io.cl", level, defines,
                               "compiled/%s/media_%s_e%d_c%d_w%d_h%d_sg%d" % (folder, op, e, comps, w, h, sg),
                               "media block %s of %d x %d %d-byte elements at SubgroupSize %d%s" % (
                                   op, w, h, e, sg, ", imported" if imported else ""))
            row_bytes = w * e
            coords = [("interior", 8, 2), ("corner_bottom_right", 48 - row_bytes // 2, 12 - h // 2)]
            if imported:
                coords.append(("interior_x12", 12, 2))  # x a multiple of 4 bytes (the least allowed), not of 8
            for cname, x, y in coords:
                params = dict(op=op, element_bytes=e, components=comps, width=w, height=h, sg=sg, format="r32ui",
                              texel_bytes=4, backing="image", image_width_bytes=48, image_height=12, x=x, y=y)
                # Imported too: the reference device reports the media instructions' extension
                # (cl_intel_spirv_media_block_io), not the OpenCL C one's name.
                emit.case("compiled.%s.media_%s.e%d.w%d.h%d.sg%d.c%d.r32ui.%s" % (tag, op, e, w, h, sg, comps,
                                                                                  cname),
                          "media_block_io", module, "test", params=params,
                          requires=["ext=cl_intel_spirv_media_block_io", "spirv=%s" % SPIRV_VERSION,
                                    "sg_size=%d" % sg, "images"], tier="core")


def _generator(name):
    """A sibling generator (2d_block_io.py, workloads.py) as a module: its shapes, variants and tokens."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name + ".py")
    spec = importlib.util.spec_from_file_location("cts_compiled_uses_" + name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# 2D block IO and matrix mad: llvm-spirv-15 knows neither SPV_INTEL_2d_block_io nor the MMA extension, so their
# OpenCL C built-ins stay calls of imported functions (docs/compiled.md, "Imported built-ins").
BLOCK_2D_BUILTIN = {"load": "read", "load_transform": "read_transform", "load_transpose": "read_transpose",
                    "store": "write", "prefetch": "prefetch"}
# (op, element bytes, width, height, count): table shapes of cl_intel_subgroup_2d_block_io at sub-group size 16.
BLOCK_2D_SHAPES = [("load", 2, 16, 8, 1), ("load", 1, 32, 8, 2), ("load_transform", 2, 16, 16, 1),
                   ("load_transform", 1, 16, 32, 1), ("load_transpose", 4, 8, 16, 1), ("store", 4, 16, 8, 1),
                   ("store", 2, 16, 8, 1), ("prefetch", 2, 16, 8, 1)]
# The variants of the 2d_block_io family's sweep these shapes run: inside, partly outside right, below, at the
# bottom-right corner, at a negative (top-left) coordinate, several sub-groups; a transform load also the
# Memory Height ending inside a packed row group.
BLOCK_2D_VARIANTS = ("coord_interior", "coord_right_edge", "coord_bottom_edge", "coord_corner", "coord_negative",
                     "multi_subgroup")


def block_2d_name(op, e, w, h, c):
    return "intel_sub_group_2d_block_%s_%db_%dr%dx%dc" % (BLOCK_2D_BUILTIN[op], 8 * e, h, w, c)


def block_2d_cases(emit, cc, level, b2d):
    requires = [b2d.EXT_TOKEN, "min_sg_size=16", "sg_size=16", "spirv=%s" % SPIRV_VERSION]
    for op, e, w, h, c in BLOCK_2D_SHAPES:
        access = "load" if op == "prefetch" else op
        lane_bytes, tb = b2d.lane_layout(access, e, w, h, c)
        n = lane_bytes // tb
        t = b2d.TYPE_NAME[tb]
        defines = {"BUILTIN": block_2d_name(access, e, w, h, c), "WRITE": int(op == "store"),
                   "PREFETCH": int(op == "prefetch"), "T": t, "N": n, "VEC": t + str(n), "SG": 16,
                   "POISON": b2d.POISON[tb]}
        if op == "prefetch":
            defines["PREFETCH_BUILTIN"] = block_2d_name("prefetch", e, w, h, c)
        module = cc.module("block_2d.cl", level, defines,
                           "compiled/%s/block_2d_%s_e%d_w%d_h%d_c%d" % (level, op, e, w, h, c),
                           "%s as a call of the imported built-in" % block_2d_name(op, e, w, h, c))
        for variant, params in b2d.variants(op, e, w, h, c):
            if variant not in BLOCK_2D_VARIANTS and not variant.startswith("vnni_group_cut_"):
                continue
            params = dict(params, op=op, element_size=e, block_width=w, block_height=h, block_count=c,
                          lane_bytes=lane_bytes)
            if op == "prefetch":
                params.update(load_element_size=e, load_block_width=w, load_block_height=h, load_block_count=c)
            emit.case("compiled.%s.block_2d.%s.e%d.w%d.h%d.c%d.%s" % (level, op, e, w, h, c, variant), "2d_block_io",
                      module, "test", params=params, requires=requires, tier=b2d.tier(op, e, w, h, c))


# (format, matrix-mad built-in)
MAD_BUILTIN = {"fp16_fp32": "intel_sub_group_f16_f16_matrix_mad_k16",
               "bf16_fp32": "intel_sub_group_bf16_bf16_matrix_mad_k16"}
MMA_TOKEN = "ext=cl_intel_subgroup_matrix_multiply_accumulate@1.1"


def gemm_cases(emit, cc, level, wl):
    """The Triton-style GEMM tile (gemm_2d.cl) on the workloads_gemm_2d family, at its sizes (not multiples of
    the tile: edge tiles need the loads' zero fill and the store's dropped elements)."""
    for fmt, prefetch in (("fp16_fp32", False), ("fp16_fp32", True), ("bf16_fp32", False)):
        variant = "prefetch" if prefetch else "plain"
        module = cc.module("gemm_2d.cl", level, {"MAD": MAD_BUILTIN[fmt], "PREFETCH_NEXT": int(prefetch), "SG": 16,
                                                 "T": "uint", "N": 1, "VEC": "uint"},
                           "compiled/%s/gemm_2d_%s_%s" % (level, fmt, variant),
                           "GEMM tile 8 x 16 (%s%s) through imported 2D block IO and matrix-mad built-ins"
                           % (fmt, ", prefetch" if prefetch else ""))
        m, n, k = wl.SIZES_16[fmt]
        for data in ("exact", "random"):
            params = dict(format=fmt, signed=False, b_layout="row_major", prefetch=prefetch, epilogue=False,
                          data=data, m=m, n=n, k=k, sub_groups_per_work_group=2)
            emit.case("compiled.%s.gemm_2d.%s.b_row_major.%s.%s" % (level, fmt, variant, data), "workloads_gemm_2d",
                      module, "test", params=params, requires=wl.HPC_REQ + ["sg_size=16", "spirv=%s" % SPIRV_VERSION],
                      tier=wl.TIER)


def mma_cases(emit, cc, level):
    """The matrix-mad built-ins chained over K (mma.cl) on the matrix_multiply_accumulate family's chained
    kernel shape, M = 8: fp16 and bf16 (K = 16, one A column per 16-bit component at N = 16) and int8 (K = 32,
    two columns per component, signed and unsigned), so a device that unpacks a component's columns wrongly
    fails here too."""
    float_args = {"A_ARG": "short8", "B_ARG": "int8", "ACC": "float8"}
    rows = [("fp16_fp32", "", MAD_BUILTIN["fp16_fp32"], 16, "fp16", False, "fp32", "exact", float_args),
            ("bf16_fp32", "", MAD_BUILTIN["bf16_fp32"], 16, "bf16", False, "fp32", "exact", float_args),
            ("int8_int32", "sign_ab", "intel_sub_group_i8_i8_matrix_mad_k32", 32, "int8", True, "int32",
             "full_range", {"A_ARG": "short8", "B_ARG": "int8", "ACC": "int8"}),
            ("int8_int32", "sign_none", "intel_sub_group_u8_u8_matrix_mad_k32", 32, "int8", False, "int32",
             "full_range", {"A_ARG": "ushort8", "B_ARG": "uint8", "ACC": "int8"})]
    for fmt, sign, builtin, k, elem, signed, acc, data, types in rows:
        stem = fmt + ("_" + sign if sign else "")
        module = cc.module("mma.cl", level, dict(types, MAD=builtin, SG=16, T="uint", N=1, VEC="uint"),
                           "compiled/%s/mma_%s_chained" % (level, stem),
                           "%s chained over K as a call of the imported built-in" % builtin)
        # The family's chained float cases take exact data (every order of the sums gives the same bits);
        # its integer ones take full_range data (the sums wrap).
        for shape, (wgs, sgs, steps) in (("chained", (1, 1, 4)), ("chained.wg2_sg2", (2, 2, 3))):
            params = dict(n=16, k=k, a=elem, b=elem, a_signed=signed, b_signed=signed, c=acc, result=acc, m=8,
                          work_groups=wgs, sub_groups_per_work_group=sgs, steps=steps, outputs=1,
                          scenario="chained", data=data)
            emit.case("compiled.%s.mma.n16.%s.m8.%s.%s" % (level, fmt + ("." + sign if sign else ""), shape, data),
                      "matrix_multiply_accumulate", module, "test", params=params,
                      requires=[MMA_TOKEN, "min_sg_size=16", "sg_size=16", "spirv=%s" % SPIRV_VERSION], tier="core")


class ImportedTier:
    """emit for the imported cases, which are device_specific: no spec promises that a driver resolves an OpenCL C
    built-in a SPIR-V module imports by name, and Intel's runtime 26.27 resolves the shuffles and most buffer
    block IO but not the image, media and SIMD8 _ui2 block built-ins (docs/compiled.md)."""

    def __init__(self, emit):
        self._emit = emit

    def __getattr__(self, name):
        return getattr(self._emit, name)

    def case(self, *args, **kwargs):
        kwargs["tier"] = "device_specific"
        return self._emit.case(*args, **kwargs)


def generate(emit):
    cc = Compiler(emit)
    if not cc.available():
        return
    b2d, wl = _generator("2d_block_io"), _generator("workloads")
    for level in LEVELS:
        shuffle_cases(emit, cc, level)
        block_io_cases(emit, cc, level)
        image_block_io_cases(emit, cc, level)
        media_cases(emit, cc, level)
        local_block_io_cases(emit, cc, level)
        block_2d_cases(emit, cc, level, b2d)
        gemm_cases(emit, cc, level, wl)
        mma_cases(emit, cc, level)
    imported = ImportedTier(emit)
    for level in LEVELS:
        shuffle_cases(imported, cc, level, imported=True)
        block_io_cases(imported, cc, level, imported=True)
        local_block_io_cases(imported, cc, level, imported=True)
        image_block_io_cases(imported, cc, level, imported=True)
        media_cases(imported, cc, level, imported=True)
    cc.prune()
