"""triton.*: the modules Triton's Intel backend emitted (spirv_new_assets/triton/, frozen byte for byte), run
unmodified with Triton's launch conventions and judged by host loops (test_conformance/triton/, docs/triton.md).

The modules are taken as they are (emit.binary_module: copied, hashed, not assembled). spirv-val rejects every
one of them at its first vector of a length other than 2, 3, 4, 8 or 16, which the modules' VectorAnyINTEL
capability allows (spirv_new_assets/triton/validation.json, docs/triton.md "Validation"): that rejection, and
only that one, is the documented exception. Their parameters have no OpName; the module table names them from
kernels.json (Triton's argument names), which the family binds by.

Every case requires what the target Triton compiled for reports (kernels.json "target_arch": 2D block IO and
matrix multiply-accumulate), the sub-group size the module's SubgroupSize states (threads_per_warp) and the
module's SPIR-V version. The tier is device_specific: VectorAnyINTEL, SPV_INTEL_kernel_attributes and
SPV_INTEL_cache_controls are beyond what the OpenCL environment promises for those extensions.
"""

import json
import os

ASSETS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))),
                      "spirv_new_assets", "triton")
ORIGIN = "spirv_new_assets/triton/kernels.json"

VAL_EXCEPTION = {
    "description": "VectorAnyINTEL vector lengths (spirv_new_assets/triton/validation.json)",
    "pattern": r"error: line \d+: Illegal number of components \((?!(?:2|3|4|8|16)\))\d+\) for TypeVector\n"
               r"\s*%\S+ = OpTypeVector %\S+ \d+",
}

REQUIRES = ["ext=cl_intel_subgroup_2d_block_io", "ext=cl_intel_subgroup_matrix_multiply_accumulate"]

# module -> [(case suffix, params)]. GEMM: K and N multiples of 16 (Triton specialised the leading strides as
# divisible by 16: kernels.json "divisible_by_16"), M free; "full" is one tile (or the tile's K twice),
# "partial" sizes that are no multiple of the tile (boundary_check / masks cut them), "tiles" several tiles
# (Triton's grouped program order).
GEMM_SIZES = {
    "gemm_bp_f16_32x32x32_w4": [("full", 32, 32, 32), ("tiles", 96, 64, 64), ("partial", 40, 48, 48)],
    "gemm_bp_bf16_32x32x32_w4": [("full", 32, 32, 32), ("partial", 40, 48, 48)],
    "gemm_bp_f16_64x128x32_w8": [("full", 64, 128, 32), ("partial", 80, 144, 48)],
    "gemm_bp_f16_256x256x32_w32_grf256": [("full", 256, 256, 64)],
    "gemm_bp_bf16_256x256x32_w32_grf256": [("full", 256, 256, 64)],
    "gemm_ptr_f16_64x64x32_w4": [("full", 64, 64, 32), ("partial", 72, 80, 48)],
}
# Rows: n_rows, n_cols (<= BLOCK 1024), in_row_stride (elements; not specialised by Triton).
ROW_SIZES = [("full", 3, 1024, 1024), ("partial", 5, 1000, 1003)]
COPY_SIZES = [("full", 2048), ("partial", 3001)]


def _load_facts():
    with open(os.path.join(ASSETS, "kernels.json"), encoding="utf-8") as f:
        return json.load(f)


def generate(emit):
    facts = _load_facts()
    for name in sorted(facts["modules"]):
        m = facts["modules"][name]
        with open(os.path.join(ASSETS, m["file"]), "rb") as f:
            data = f.read()
        version = "%d.%d" % ((data[6]), (data[5]))
        module = emit.binary_module("triton/" + name, data, {m["kernel"]: [a["name"] for a in m["arguments"]]},
                                    val_exception=VAL_EXCEPTION, origin=ORIGIN)
        requires = REQUIRES + ["sg_size=%d" % m["threads_per_warp"], "spirv=" + version]
        launch = {"module_name": name, "num_warps": m["num_warps"], "threads_per_warp": m["threads_per_warp"],
                  "shared_bytes": m["shared_memory_bytes"], "build_options": m["build_options"]}
        kernel = m["kernel"]
        if kernel.startswith("gemm"):
            c = m["constexprs"]
            dtype = m["arguments"][0]["triton_type"].lstrip("*")
            for suffix, mm, nn, kk in GEMM_SIZES.get(name, []):
                params = dict(launch, kind="gemm", dtype=dtype, m=mm, n=nn, k=kk, block_m=c["BLOCK_M"],
                              block_n=c["BLOCK_N"], block_k=c["BLOCK_K"])
                emit.case("triton.%s.%s.m%dn%dk%d" % (name, suffix, mm, nn, kk), "triton.gemm", module, kernel,
                          params, requires, tier="device_specific", origin=ORIGIN)
        elif kernel == "copy":
            for suffix, n in COPY_SIZES:
                params = dict(launch, kind="copy", n_elements=n, block=m["constexprs"]["BLOCK"])
                emit.case("triton.%s.%s.n%d" % (name, suffix, n), "triton.rows", module, kernel, params, requires,
                          tier="device_specific", origin=ORIGIN)
        else:
            for suffix, rows, cols, stride in ROW_SIZES:
                params = dict(launch, kind=kernel, rows=rows, cols=cols, row_stride=stride,
                              block=m["constexprs"]["BLOCK"])
                emit.case("triton.%s.%s.r%dc%d" % (name, suffix, rows, cols), "triton.rows", module, kernel,
                          params, requires, tier="device_specific", origin=ORIGIN)
