#!/usr/bin/env python3
"""Checks the reference device's imitation of Intel's shipping GPU driver against the driver itself.

For each product, `spirv_intel_cts --device-info` (what the suite reads of a device: the runner's own probe)
runs twice: on the reference device with the matching profile reporting as compute-runtime 26.27
(REFDEV_PROFILE=<profile> REFDEV_REPORT_AS=neo-26.27) and on compute-runtime 26.27 itself in its no-hardware
mode (scripts/setup/run_intel_gpu_nohw.sh PRODUCT --device-info). Compared, limited to what the suite reads:

- extensions and their versions: every cl_* name of the manifest's requirement tokens, the family descriptors
  and the suite's C++ sources (test_common/, test_conformance/), and every cl_intel_subgroup* and
  cl_intel_spirv_* extension either side reports (the sub-group family's neighbours);
- SPIR-V: every IL version a case requires (spirv=X.Y tokens), CL_DEVICE_SPIRV_EXTENSIONS_KHR for the SPIR-V
  extensions the descriptors name, CL_DEVICE_SPIRV_CAPABILITIES_KHR for the capabilities they name;
- sub-group sizes, fp16, fp64, int64, image support, cl_khr_spirv_queries, and each 2D image format a case
  requires (image_format= tokens).
Not compared: names, versions of the platform and driver, vendor, memory sizes, work-group and sub-group
limits, which the no-hardware mode derives from its overrides (HardwareInfoOverride=1x4x8), not the product.

A difference is listed and fails the check unless docs/waivers/neo-26.27-report-differences.json explains it
(product, field, reason); an explanation no difference needs is stale and fails too.

  driver_report_cross_check.py [--build-dir=DIR] [--explained=FILE] [--skip-missing] [PRODUCT...]

Exit 0: no unexplained difference; 1: a difference or a stale explanation; 2: bad input; 77 (--skip-missing):
the driver is not installed (scripts/setup/install_intel_compute_runtime.sh).
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROFILE_OF = {"bmg": "xe2", "pvc": "xe_hpc", "dg2": "xe_hpg", "mtl": "xe_lpg", "lnl-m": "xe2", "ptl": "xe3"}
NEIGHBOURS = ("cl_intel_subgroup", "cl_intel_spirv_")
FLAGS = ("fp16", "fp64", "int64", "image_support", "has_spirv_queries")
# cl_channel_order / cl_channel_type values of the image_format= tokens' names (CL/cl.h).
ORDERS = {"CL_R": 0x10B0, "CL_RG": 0x10B2, "CL_RGBA": 0x10B5}
TYPES = {"CL_SNORM_INT8": 0x10D0, "CL_SNORM_INT16": 0x10D1, "CL_UNORM_INT8": 0x10D2, "CL_UNORM_INT16": 0x10D3,
         "CL_SIGNED_INT8": 0x10D7, "CL_SIGNED_INT16": 0x10D8, "CL_SIGNED_INT32": 0x10D9,
         "CL_UNSIGNED_INT8": 0x10DA, "CL_UNSIGNED_INT16": 0x10DB, "CL_UNSIGNED_INT32": 0x10DC,
         "CL_HALF_FLOAT": 0x10DD, "CL_FLOAT": 0x10DE}


class BadInput(Exception):
    pass


def read_json(path, what):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise BadInput("%s: %s: %s" % (path, what, e))


def suite_reads(build):
    """What the suite reads: extension names, IL versions, SPIR-V extensions, capabilities, image formats."""
    manifest = os.path.join(build, "assets", "manifest.json")
    try:
        with open(manifest) as f:
            text = f.read()
    except OSError as e:
        raise BadInput("%s: %s" % (manifest, e))
    sources = [p for d in ("test_common", "test_conformance") for p in glob.glob(os.path.join(ROOT, d, "**", "*"),
                                                                                  recursive=True)
               if p.endswith((".cpp", ".h")) and not p.endswith("_test.cpp")]
    names = set(re.findall(r'"ext=(cl_[a-z0-9_]+)', text))
    for path in sources:
        with open(path, errors="replace") as f:
            names |= set(re.findall(r'"(cl_(?:khr|intel|ext)_[a-z0-9_]+)"', f.read()))
    spirv_ext, caps = set(), set()
    for path in glob.glob(os.path.join(ROOT, "test_conformance", "*", "family.json")):
        d = read_json(path, "family descriptor")
        if d.get("opencl_extension"):
            names.add(d["opencl_extension"])
        if d.get("spirv_extension"):
            spirv_ext.add(d["spirv_extension"])
        caps |= {c[1] for c in d.get("capabilities", [])}
    il = {"SPIR-V_" + v for v in re.findall(r'"spirv=([0-9]+\.[0-9]+)"', text)}
    formats = set()
    for order, ctype in re.findall(r'"image_format=(CL_[A-Z]+)/(CL_[A-Z0-9_]+)"', text):
        if order in ORDERS and ctype in TYPES:
            formats.add((ORDERS[order], TYPES[ctype], order + "/" + ctype))
    return names, il, spirv_ext, caps, formats


def device_info(cmd, env, what):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    if p.returncode == 77:
        return None
    if p.returncode != 0:
        raise BadInput("%s: %s exited %d: %s" % (what, " ".join(cmd), p.returncode, p.stderr.strip()[-500:]))
    try:
        return json.loads(p.stdout)
    except ValueError as e:
        raise BadInput("%s: --device-info printed no JSON: %s" % (what, e))


def differences(real, ref, reads):
    names, il, spirv_ext, caps, formats = reads
    out = []
    rext = {e["name"]: e["version"] for e in real["extensions"]}
    fext = {e["name"]: e["version"] for e in ref["extensions"]}
    # The sub-group family's neighbours too (local block IO, extended block read, prefetch, split and tf32 MMA):
    # the OpenCL C faces of the hardware messages the suite tests, which the imitation must report alike.
    names = set(names) | {n for n in list(rext) + list(fext) if n.startswith(NEIGHBOURS)}
    for n in sorted(names):
        if (n in rext) != (n in fext):
            out.append(("extension:" + n, "driver %s, imitation %s" % (
                "reports it" if n in rext else "does not", "reports it" if n in fext else "does not")))
        elif n in rext and rext[n] != fext[n]:
            out.append(("extension_version:" + n, "driver %s, imitation %s" % (rext[n] or "-", fext[n] or "-")))
    for v in sorted(il):
        a, b = v in real["il_versions"], v in ref["il_versions"]
        if a != b:
            out.append(("il_version:" + v, "driver %s, imitation %s" % (a, b)))
    for x in sorted(spirv_ext):
        a, b = x in real["spirv_extensions"], x in ref["spirv_extensions"]
        if a != b:
            out.append(("spirv_extension:" + x, "driver %s, imitation %s" % (a, b)))
    for c in sorted(caps):
        a, b = c in real["spirv_capabilities"], c in ref["spirv_capabilities"]
        if a != b:
            out.append(("spirv_capability:%d" % c, "driver %s, imitation %s" % (a, b)))
    if sorted(real["sub_group_sizes"]) != sorted(ref["sub_group_sizes"]):
        out.append(("sub_group_sizes", "driver %s, imitation %s" % (real["sub_group_sizes"], ref["sub_group_sizes"])))
    for k in FLAGS:
        if real[k] != ref[k]:
            out.append((k, "driver %s, imitation %s" % (real[k], ref[k])))
    rf = {tuple(f) for f in real["image2d_rw_formats"]}
    ff = {tuple(f) for f in ref["image2d_rw_formats"]}
    for order, ctype, name in sorted(formats):
        a, b = (order, ctype) in rf, (order, ctype) in ff
        if a != b:
            out.append(("image_format:" + name, "driver %s, imitation %s" % (a, b)))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("products", nargs="*", help="bmg pvc dg2 mtl lnl-m ptl (default: all)")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--explained", default=os.path.join(ROOT, "docs", "waivers", "neo-26.27-report-differences.json"))
    ap.add_argument("--skip-missing", action="store_true")
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    products = args.products or list(PROFILE_OF)
    bad = [p for p in products if p not in PROFILE_OF]
    if bad:
        print("driver_report_cross_check: unknown product %s (one of %s)" % (bad[0], " ".join(PROFILE_OF)),
              file=sys.stderr)
        return 2
    try:
        explained = read_json(args.explained, "explained differences").get("differences", [])
        for e in explained:
            if not (isinstance(e, dict) and isinstance(e.get("products"), list) and isinstance(e.get("field"), str)
                    and isinstance(e.get("reason"), str) and e["reason"].strip()):
                raise BadInput("%s: an entry needs products (list), field and reason: %r" % (args.explained, e))
        reads = suite_reads(args.build_dir)
        runner = os.path.join(args.build_dir, "bin", "spirv_intel_cts")
        env = dict(os.environ)
        for k in ("OCL_ICD_VENDORS", "OCL_ICD_FILENAMES", "REFDEV_FAULTS"):
            env.pop(k, None)
        used, unexplained, compared = set(), 0, 0
        for product in products:
            real = device_info([os.path.join(ROOT, "scripts", "setup", "run_intel_gpu_nohw.sh"), product, "--no-install",
                                "--build-dir=" + args.build_dir, "--device-info"], env, product)
            if real is None:
                if args.skip_missing:
                    print("skipped: Intel's compute runtime is not installed (scripts/setup/install_intel_compute_runtime.sh)")
                    return 77
                raise BadInput("%s: the driver is not installed (scripts/setup/install_intel_compute_runtime.sh)" % product)
            ref_env = dict(env, REFDEV_PROFILE=PROFILE_OF[product], REFDEV_REPORT_AS="neo-26.27")
            ref = device_info([runner, "--device-info"], ref_env, "reference device " + PROFILE_OF[product])
            diffs = differences(real, ref, reads)
            compared += 1
            open_diffs = []
            for field, text in diffs:
                hit = [i for i, e in enumerate(explained) if e["field"] == field and product in e["products"]]
                used.update((i, product) for i in hit)
                if hit:
                    print("  %s (%s): %s: %s -- explained: %s" % (product, PROFILE_OF[product], field, text,
                                                                 explained[hit[0]]["reason"]))
                else:
                    open_diffs.append((field, text))
            for field, text in open_diffs:
                print("DIFFERENCE %s (%s): %s: %s" % (product, PROFILE_OF[product], field, text))
            unexplained += len(open_diffs)
            print("%s vs reference device %s (neo-26.27): %d difference(s), %d unexplained" % (
                product, PROFILE_OF[product], len(diffs), len(open_diffs)))
        stale = [(e, p) for i, e in enumerate(explained) for p in e["products"]
                 if p in products and (i, p) not in used]
        for e, p in stale:
            print("STALE explanation (no such difference on %s): %s" % (p, e["field"]))
    except BadInput as e:
        print("driver_report_cross_check: %s" % e, file=sys.stderr)
        return 2
    names, il, spirv_ext, caps, formats = reads
    print("driver_report_cross_check: %d product(s), %d extension(s), %d IL version(s), %d SPIR-V extension(s), "
          "%d capabilities, %d image formats compared; %d unexplained difference(s), %d stale explanation(s)" % (
              compared, len(names), len(il), len(spirv_ext), len(caps), len(formats), unexplained, len(stale)))
    return 1 if unexplained or stale else 0


if __name__ == "__main__":
    sys.exit(main())
