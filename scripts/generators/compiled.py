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

Case names: compiled.<o0|o2>.<op>.<type>.v<n>.sg<S>[.<variant>].<shape>.
"""

import hashlib
import os
import subprocess

import spvgen

LEVELS = ("o0", "o2")
KERNELS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                       "test_conformance", "compiled", "kernels")
CLANG_FLAGS = ["-cc1", "-triple", "spir64-unknown-unknown", "-cl-std=CL2.0", "-finclude-default-header",
               "-no-opaque-pointers",
               "-cl-ext=+cl_intel_subgroups,+cl_intel_subgroups_short,+cl_intel_subgroups_char",
               "-emit-llvm-bc"]
LLVM_SPIRV_FLAGS = ["--spirv-max-version=1.1", "--spirv-ext=+SPV_INTEL_subgroups,+SPV_INTEL_media_block_io"]
SPIRV_VERSION = "1.1"  # what llvm-spirv-15 emits for these kernels; kept as emitted

C_TYPES = {"i8": "uchar", "i16": "ushort", "i32": "uint", "u8": "uchar", "u16": "ushort", "u32": "uint"}
SUFFIX = {"u8": "_uc", "u16": "_us", "u32": ""}
# u32 uses the unsuffixed names: clang-15's opencl-c.h declares intel_sub_group_block_write_ui* for read_only
# images instead of write_only.
IMAGE_SUFFIX = {"u16": "_us", "u32": ""}
MEDIA_SUFFIX = {1: "_uc", 2: "_us", 4: "_ui"}
SHUFFLE_OPS = ("shuffle", "shuffle_down", "shuffle_up", "shuffle_xor")


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
        self.done[relpath] = self.emit.module(relpath, header + text)
        return self.done[relpath]


def sg_requires(sg, bits):
    req = ["ext=cl_intel_spirv_subgroups", "spirv=%s" % SPIRV_VERSION, "sg_size=%d" % sg]
    if bits == 8:
        req.append("ext=cl_intel_subgroups_char")
    if bits == 16:
        req.append("ext=cl_intel_subgroups_short")
    return req


def shuffle_cases(emit, cc, level):
    # (type, components, sub-group size, per-component loop): the environment's core shuffle types (32-bit
    # vectors, 16-bit with _short) and 8-bit scalars (_char: device_specific, as in subgroups.*).
    configs = [("i32", 4, 16, False), ("i32", 4, 16, True), ("i16", 2, 16, True), ("i8", 1, 16, False),
               ("i32", 1, 8, False), ("i32", 1, 32, False)]
    for op in SHUFFLE_OPS:
        for type_name, n, sg, per_component in configs:
            bits = int(type_name[1:])
            variant = ".per_component" if per_component else ""
            module = cc.module("shuffle.cl", level, {
                "OP": SHUFFLE_OPS.index(op), "T": C_TYPES[type_name], "N": n, "SG": sg,
                "VEC": C_TYPES[type_name] + ("" if n == 1 else str(n)), "PER_COMPONENT": int(per_component)},
                "compiled/%s/%s_%s_v%d_sg%d%s" % (level, op, type_name, n, sg, variant.replace(".", "_")),
                "%s of %s x %d at SubgroupSize %d" % (op, type_name, n, sg))
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
                emit.case("compiled.%s.%s.%s.v%d.sg%d%s.%s.%s" % (level, op, type_name, n, sg, variant, pname, shape),
                          "subgroups.shuffle", module, "test", params=params, requires=sg_requires(sg, bits),
                          tier="device_specific" if bits == 8 else "core")


def block_io_cases(emit, cc, level):
    for write in (False, True):
        op = "block_write" if write else "block_read"
        for type_name, n, sg in (("u32", 4, 16), ("u32", 2, 8), ("u16", 2, 16), ("u8", 4, 16)):
            bits = int(type_name[1:])
            module = cc.module("block_io.cl", level, {
                "WRITE": int(write), "T": C_TYPES[type_name], "N": n, "SG": sg, "SUFFIX": SUFFIX[type_name],
                "VEC": C_TYPES[type_name] + ("" if n == 1 else str(n))},
                "compiled/%s/%s_%s_v%d_sg%d" % (level, op, type_name, n, sg),
                "%s of %s x %d at SubgroupSize %d" % (op, type_name, n, sg))
            offset = 16 if write else 4  # the alignment the environment requires: 16 bytes writes, 4 reads
            params = {"op": op, "type": type_name, "width": n, "sg": sg, "offset_bytes": offset, "local": 4 * sg,
                      "groups": 2}
            emit.case("compiled.%s.%s.%s.v%d.sg%d.offset_%db.wg_several" % (level, op, type_name, n, sg, offset),
                      "subgroups.block_io", module, "test", params=params, requires=sg_requires(sg, bits),
                      tier="device_specific" if bits == 8 else "core")


def image_block_io_cases(emit, cc, level):
    for write in (False, True):
        op = "image_block_write" if write else "image_block_read"
        for type_name, n, sg in (("u32", 4, 16), ("u16", 2, 16)):
            module = cc.module("image_block_io.cl", level, {
                "WRITE": int(write), "T": C_TYPES[type_name], "N": n, "SG": sg, "SUFFIX": IMAGE_SUFFIX[type_name],
                "VEC": C_TYPES[type_name] + ("" if n == 1 else str(n))},
                "compiled/%s/%s_%s_v%d_sg%d" % (level, op, type_name, n, sg),
                "%s of %s x %d at SubgroupSize %d" % (op, type_name, n, sg))
            for coords in ("interior", "beyond_right"):
                params = {"op": op, "type": type_name, "width": n, "sg": sg, "format": "r32ui", "size": "size_tight",
                          "coords": coords, "local": 2 * sg, "groups": 2}
                emit.case("compiled.%s.%s.%s.v%d.sg%d.r32ui.size_tight.%s" % (level, op, type_name, n, sg, coords),
                          "subgroups.image_block_io", module, "test", params=params,
                          requires=sg_requires(sg, int(type_name[1:])) + ["images", "image_format=CL_R/CL_UNSIGNED_INT32"],
                          tier="core")


def media_cases(emit, cc, level):
    # (element bytes, components, Width, Height, sub-group size): regions that fit the sub-group's data.
    for write in (False, True):
        op = "write" if write else "read"
        for e, comps, w, h, sg in ((4, 2, 4, 8, 16), (2, 4, 8, 4, 8), (1, 4, 16, 4, 16)):
            ctype = {1: "uchar", 2: "ushort", 4: "uint"}[e]
            module = cc.module("media_block_io.cl", level, {
                "WRITE": int(write), "T": ctype, "N": comps, "SG": sg, "SUFFIX": MEDIA_SUFFIX[e], "WIDTH": w,
                "HEIGHT": h, "VEC": ctype + ("" if comps == 1 else str(comps))},
                "compiled/%s/media_%s_e%d_c%d_w%d_h%d_sg%d" % (level, op, e, comps, w, h, sg),
                "media block %s of %d x %d %d-byte elements at SubgroupSize %d" % (op, w, h, e, sg))
            row_bytes = w * e
            for cname, x, y in (("interior", 8, 2), ("corner_bottom_right", 48 - row_bytes // 2, 12 - h // 2)):
                params = dict(op=op, element_bytes=e, components=comps, width=w, height=h, sg=sg, format="r32ui",
                              texel_bytes=4, backing="image", image_width_bytes=48, image_height=12, x=x, y=y)
                emit.case("compiled.%s.media_%s.e%d.w%d.h%d.sg%d.c%d.r32ui.%s" % (level, op, e, w, h, sg, comps,
                                                                                  cname),
                          "media_block_io", module, "test", params=params,
                          requires=["ext=cl_intel_spirv_media_block_io", "spirv=%s" % SPIRV_VERSION,
                                    "sg_size=%d" % sg, "images"], tier="core")


def generate(emit):
    cc = Compiler(emit)
    if not cc.available():
        return
    for level in LEVELS:
        shuffle_cases(emit, cc, level)
        block_io_cases(emit, cc, level)
        image_block_io_cases(emit, cc, level)
        media_cases(emit, cc, level)
    cc.prune()
