#!/usr/bin/env python3
"""Compiles the Triton kernels of kernels.py with Triton's Intel backend (PyPI triton-xpu, pinned by
scripts/setup/install_triton.sh), without a GPU, and writes each module's SPIR-V and one kernels.json of the launch
facts Triton records, into spirv_new_assets/triton/ (or --out DIR).

Run with the venv's python:

    scripts/setup/install_triton.sh
    $(scripts/setup/install_triton.sh --print-python) scripts/assets/triton/generate.py

No GPU, SYCL or Level Zero is needed: the backend's constructor compiles a SYCL helper (arch_parser.c, which
includes sycl/sycl.hpp) only to name the device's architecture; the generator replaces that helper by a stub
naming none (see `_stub_arch_parser`), so the backend takes the device's properties from the target given
here alone and never asks ocloc. Everything else is Triton's own pipeline, unchanged.

The output depends only on Triton, the kernels and the constants below: no time, path or host name is in it,
and compilation runs with a fresh Triton cache and line info off (TRITON_DISABLE_LINE_INFO=1: with line info
Triton emits OpenCL.DebugInfo.100 instructions that spirv-val 2025.5 rejects, and file paths). A second run
writes the same bytes; scripts/assets/triton/check_frozen.py checks that against the frozen files.
"""

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))

def _load_spirv_signature():
    """scripts/assets/spirv_signature.py (standard library only), loaded from its file: with scripts/assets/ on sys.path,
    this folder (scripts/assets/triton/) would pass for the triton package when triton is not installed."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("spirv_signature", os.path.join(os.path.dirname(HERE),
                                                                                  "spirv_signature.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


spirv_signature = _load_spirv_signature()

TRITON_DISTRIBUTION, TRITON_VERSION = "triton-xpu", "3.3.0b1"
DEFAULT_OUT = os.path.join(REPO, "spirv_new_assets", "triton")
COMMAND = ("$(scripts/setup/install_triton.sh --print-python) scripts/assets/triton/generate.py --out spirv_new_assets/triton "
           "--spirv-val $(scripts/setup/install_spirv_tools.sh --print-prefix)/bin/spirv-val")
# Settings that change Triton's output, fixed for every run (applied before triton is imported).
ENVIRONMENT = {"TRITON_DISABLE_LINE_INFO": "1"}
LINE_INFO = ("off (TRITON_DISABLE_LINE_INFO=1). With line info on, Triton adds OpenCL.DebugInfo.100 instructions "
             "naming the absolute paths of kernels.py and of the venv's triton/language/*.py, so the bytes would "
             "depend on where the tree and the venv are")
LAUNCH = ("Triton's launcher (triton/backends/intel/driver.py): local size (num_warps * threads_per_warp, 1, 1) and "
          "global size (grid[0] * num_warps * threads_per_warp, grid[1], grid[2]) in OpenCL's dimension order "
          "(SYCL's range(z, y, x) there); the arguments that are not constexpr, in order, then a local buffer of "
          "shared_memory_bytes when that is not 0; the build options as recorded (empty: none)")

# The device Triton compiles for: the properties the Intel backend's parse_target reads
# (triton/backends/intel/compiler.py), as Triton's XPU driver reports them for a Data Center GPU Max (PVC):
# sub-group sizes 16 and 32, 2D block IO, DPAS (matrix multiply-accumulate), bf16 conversions.
TARGET_ARCH = {
    "name": "Intel(R) Data Center GPU Max 1550",
    "platform_name": "Intel(R) OpenCL Graphics",
    "vendor": "Intel(R) Corporation",
    "max_work_group_size": 1024,
    "max_num_sub_groups": 64,
    "sub_group_sizes": [16, 32],
    "has_fp64": True,
    "has_subgroup_matrix_multiply_accumulate": True,
    "has_subgroup_matrix_multiply_accumulate_tensor_float32": False,
    "has_subgroup_2d_block_io": True,
    "has_bfloat16_conversions": True,
}
TARGET_WARP_SIZE = 32  # what Triton's XPU driver gives GPUTarget; the backend picks 16 for DPAS kernels itself

GEMM_ARGS = ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn",
             "stride_cm", "stride_cn", "BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M"]


def gemm(name, fn, ab, tile, group_m, num_warps, **options):
    """A row-major GEMM C (fp32) = A x B as Triton's JIT specialises it for contiguous tensors: the unit
    strides become the constant 1, the pointers and the leading strides are marked divisible by 16 (so
    K and N must be multiples of 16 elements, M, N and K need not be multiples of the tile)."""
    bm, bn, bk = tile
    signature = {"a_ptr": "*" + ab, "b_ptr": "*" + ab, "c_ptr": "*fp32", "M": "i32", "N": "i32", "K": "i32",
                 "stride_am": "i32", "stride_ak": "constexpr", "stride_bk": "i32", "stride_bn": "constexpr",
                 "stride_cm": "i32", "stride_cn": "constexpr", "BLOCK_M": "constexpr", "BLOCK_N": "constexpr",
                 "BLOCK_K": "constexpr", "GROUP_M": "constexpr"}
    constexprs = {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1, "BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk,
                  "GROUP_M": group_m}
    divisible = ["a_ptr", "b_ptr", "c_ptr", "stride_am", "stride_bk", "stride_cm"]
    return dict(name=name, fn=fn, signature=signature, constexprs=constexprs, divisible_by_16=divisible,
                options=dict(num_warps=num_warps, **options),
                grid=["cdiv(M, %d) * cdiv(N, %d)" % (bm, bn), "1", "1"],
                problem=dict(M="rows of A and C", N="columns of B and C", K="columns of A, rows of B"),
                host_loop="C[m*stride_cm + n] = sum_k A[m*stride_am + k] * B[k*stride_bk + n] (fp32 sums)")


def rows(name, fn, args, block, num_warps, what):
    signature = {a: ("*fp32" if a.endswith("_ptr") else "i32") for a in args}
    signature["BLOCK"] = "constexpr"
    return dict(name=name, fn=fn, signature=signature, constexprs={"BLOCK": block},
                divisible_by_16=[a for a in args if a.endswith("_ptr")], options=dict(num_warps=num_warps),
                grid=["n_rows", "1", "1"], problem=dict(n_rows="rows", n_cols="columns, at most %d" % block),
                host_loop=what)


def modules(k):
    """The frozen set. k: the kernels module."""
    return [
        gemm("gemm_bp_f16_32x32x32_w4", k.gemm_block_ptr, "fp16", (32, 32, 32), 4, 4),
        gemm("gemm_bp_f16_64x128x32_w8", k.gemm_block_ptr, "fp16", (64, 128, 32), 4, 8),
        # Intel's block-pointer tutorial (python/tutorials/10-experimental-block-pointer.py): 256x256x32 tiles,
        # GROUP_SIZE_M 4, 32 warps, grf_mode 'large' (-cl-intel-256-GRF-per-thread), num_stages 2.
        gemm("gemm_bp_f16_256x256x32_w32_grf256", k.gemm_block_ptr, "fp16", (256, 256, 32), 4, 32,
             num_stages=2, grf_mode="large"),
        gemm("gemm_bp_bf16_32x32x32_w4", k.gemm_block_ptr, "bf16", (32, 32, 32), 4, 4),
        gemm("gemm_bp_bf16_256x256x32_w32_grf256", k.gemm_block_ptr, "bf16", (256, 256, 32), 4, 32,
             num_stages=2, grf_mode="large"),
        gemm("gemm_ptr_f16_64x64x32_w4", k.gemm_pointers, "fp16", (64, 64, 32), 4, 4),
        rows("softmax_f32_1024_w4", k.softmax, ["out_ptr", "in_ptr", "in_row_stride", "out_row_stride", "n_cols"],
             1024, 4, "out[r][c] = exp(x[r][c] - max_c x[r][c]) / sum_c exp(x[r][c] - max_c x[r][c]), c < n_cols"),
        rows("row_sum_f32_1024_w4", k.row_sum, ["out_ptr", "in_ptr", "in_row_stride", "n_cols"], 1024, 4,
             "out[r] = sum_{c < n_cols} x[r*in_row_stride + c]"),
        rows("row_max_f32_1024_w4", k.row_max, ["out_ptr", "in_ptr", "in_row_stride", "n_cols"], 1024, 4,
             "out[r] = max_{c < n_cols} x[r*in_row_stride + c]"),
        dict(name="copy_f32_1024_w4", fn=k.copy, signature={"out_ptr": "*fp32", "in_ptr": "*fp32",
                                                             "n_elements": "i32", "BLOCK": "constexpr"},
             constexprs={"BLOCK": 1024}, divisible_by_16=["out_ptr", "in_ptr"], options=dict(num_warps=4),
             grid=["cdiv(n_elements, 1024)", "1", "1"], problem=dict(n_elements="elements"),
             host_loop="out[i] = x[i], i < n_elements"),
    ]


def _stub_arch_parser():
    """XPUBackend.__init__ compiles arch_parser.c (sycl/sycl.hpp, libsycl) to turn target.arch['architecture']
    into a name such as 'pvc'; parse_target then asks `ocloc query CL_DEVICE_EXTENSIONS` for that name when
    ocloc is on PATH. The stub answers '' (no name), as the helper does for an architecture it does not know:
    the properties are those of TARGET_ARCH alone, on every machine."""
    from triton.backends import backends

    class ArchParserStub:
        @staticmethod
        def parse_device_arch(_architecture):
            return ""

    def compile_module_from_src(src, name):
        if name != "arch_utils":
            raise RuntimeError("the generator compiles no host module but the architecture parser (asked: %s)" % name)
        return ArchParserStub()

    # triton.backends loads each backend's compiler.py as a module of its own (not triton.backends.intel.compiler):
    # the name XPUBackend.__init__ calls is looked up in that module's globals.
    backends["intel"].compiler.__init__.__globals__["compile_module_from_src"] = compile_module_from_src


def compile_module(spec, triton, ASTSource, GPUTarget):
    fn = spec["fn"]
    attrs = {(fn.arg_names.index(a), ): [["tt.divisibility", 16]] for a in spec["divisible_by_16"]}
    src = ASTSource(fn, spec["signature"], constexprs=spec["constexprs"], attrs=attrs)
    compiled = triton.compile(src, target=GPUTarget("xpu", TARGET_ARCH, TARGET_WARP_SIZE), options=spec["options"])
    return compiled.asm["spv"], compiled.metadata


def describe(spec, spv, md):
    """The kernels.json entry of one module."""
    fn = spec["fn"]
    sig_spirv = spirv_signature.module_signatures(spv)
    if list(sig_spirv) != [md.name]:
        raise RuntimeError("%s: the module's kernels %s are not Triton's kernel %s" % (spec["name"], list(sig_spirv),
                                                                                       md.name))
    params = sig_spirv[md.name]
    runtime_args = [a for a in fn.arg_names if spec["signature"][a] != "constexpr"]
    expected = len(runtime_args) + (1 if md.shared else 0)
    if len(params) != expected:
        raise RuntimeError("%s: %d kernel parameters in the SPIR-V, Triton's launcher passes %d" %
                           (spec["name"], len(params), expected))
    arguments = []
    for i, a in enumerate(runtime_args):
        entry = {"name": a, "triton_type": spec["signature"][a], "spirv_type": params[i][1]}
        if a in spec["divisible_by_16"]:
            entry["divisible_by_16"] = True  # Triton's tt.divisibility = 16: bytes for pointers, the value for ints
        arguments.append(entry)
    if md.shared:
        # Triton's launcher (backends/intel/driver.py) appends a local buffer of `shared` bytes.
        arguments.append({"name": "shared_memory", "triton_type": "local", "spirv_type": params[-1][1],
                          "size_bytes": md.shared})
    wg = md.num_warps * md.threads_per_warp
    return {
        "kernel": md.name,
        "file": spec["name"] + ".spv",
        "sha256": hashlib.sha256(spv).hexdigest(),
        "size_bytes": len(spv),
        "source": "scripts/assets/triton/kernels.py:" + fn.__name__,
        "arguments": arguments,
        "constexprs": {a: spec["constexprs"][a] for a in fn.arg_names if a in spec["constexprs"]},
        "num_warps": md.num_warps,
        "threads_per_warp": md.threads_per_warp,
        "work_group_size": [wg, 1, 1],
        "grid": spec["grid"],
        "global_work_size": ["grid[0] * %d" % wg, "grid[1]", "grid[2]"],
        "problem": spec["problem"],
        "host_loop": spec["host_loop"],
        "shared_memory_bytes": md.shared,
        "build_options": md.build_flags,
        "options": {k: (list(v) if isinstance(v, tuple) else v) for k, v in sorted(spec["options"].items())},
        "num_stages": md.num_stages,
        "grf_mode": md.grf_mode if isinstance(md.grf_mode, str) else None,
    }


def spirv_env(spv):
    """spirv-val's --target-env for the module's SPIR-V version, as scripts/assets/build_assets.py chooses it."""
    major, minor = spv[6], spv[5]  # the version word, little-endian: 0x00MMmm00
    return "opencl2.2" if (major, minor) <= (1, 2) else "spv%d.%d" % (major, minor)


def validate(out_dir, names, spirv_val):
    """validation.json: spirv-val's verdict on every module (informational: the modules stay as Triton made
    them whatever it says)."""
    version = subprocess.run([spirv_val, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True).stdout.splitlines()[0].strip()
    doc = {"spirv_val": version, "modules": {}}
    for name in names:
        path = os.path.join(out_dir, name + ".spv")
        with open(path, "rb") as f:
            env = spirv_env(f.read(8))
        p = subprocess.run([spirv_val, "--target-env", env, name + ".spv"], cwd=out_dir, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        doc["modules"][name] = {"target_env": env, "valid": p.returncode == 0, "output": p.stdout.strip()}
        print("%s: spirv-val --target-env %s: %s" % (name, env, "valid" if p.returncode == 0 else
                                                     p.stdout.strip().splitlines()[0]))
    with open(os.path.join(out_dir, "validation.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def generate(out_dir, spirv_val=None):
    for k, v in ENVIRONMENT.items():
        os.environ[k] = v
    cache = tempfile.mkdtemp(prefix="triton_cache_")
    os.environ["TRITON_CACHE_DIR"] = cache  # a fresh cache: every module compiled, none taken from a past run
    try:
        import importlib.metadata
        import triton
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource
        sys.path.insert(0, HERE)
        import kernels

        version = importlib.metadata.version(TRITON_DISTRIBUTION)
        if version != TRITON_VERSION:
            raise RuntimeError("%s %s is installed; the frozen modules are %s's (scripts/setup/install_triton.sh)" %
                               (TRITON_DISTRIBUTION, version, TRITON_VERSION))
        _stub_arch_parser()
        os.makedirs(out_dir, exist_ok=True)
        doc = {
            "generator": "scripts/assets/triton/generate.py",
            "command": COMMAND,
            "triton": {"distribution": TRITON_DISTRIBUTION, "version": version,
                       "triton.__version__": triton.__version__},
            "environment": ENVIRONMENT,
            "line_info": LINE_INFO,
            "target": {"backend": "xpu", "arch": TARGET_ARCH, "warp_size": TARGET_WARP_SIZE},
            "launch": LAUNCH,
            "modules": {},
        }
        for spec in modules(kernels):
            spv, md = compile_module(spec, triton, ASTSource, GPUTarget)
            with open(os.path.join(out_dir, spec["name"] + ".spv"), "wb") as f:
                f.write(spv)
            doc["modules"][spec["name"]] = describe(spec, spv, md)
            print("%s: %s, %d bytes, %d x %d work-items, %s" % (spec["name"], md.name, len(spv), md.num_warps,
                                                                  md.threads_per_warp,
                                                                  md.build_flags or "no build options"))
        with open(os.path.join(out_dir, "kernels.json"), "w") as f:
            json.dump(doc, f, indent=1, sort_keys=False)
            f.write("\n")
        if spirv_val:
            validate(out_dir, list(doc["modules"]), spirv_val)
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default=DEFAULT_OUT, help="where to write the .spv files and kernels.json "
                   "(default: spirv_new_assets/triton)")
    p.add_argument("--spirv-val", metavar="PATH", help="also run this spirv-val on every module and write "
                   "validation.json (the project's: $(scripts/setup/install_spirv_tools.sh --print-prefix)/bin/spirv-val)")
    args = p.parse_args(argv)
    try:
        import triton  # noqa: F401
    except ImportError:
        print("generate.py: error: triton is not installed in %s: run scripts/setup/install_triton.sh and this script "
              "with its python ($(scripts/setup/install_triton.sh --print-python))" % sys.executable, file=sys.stderr)
        return 77
    generate(args.out, args.spirv_val)
    return 0


if __name__ == "__main__":
    sys.exit(main())
