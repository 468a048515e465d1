#!/usr/bin/env python3
"""Regenerates the Triton modules into a temporary directory (scripts/assets/triton/generate.py with the venv's
python) and compares them byte for byte with the frozen ones in spirv_new_assets/triton/.

    scripts/assets/triton/check_frozen.py [--python PY] [--frozen DIR] [--spirv-val PATH]

Exit 0 when every .spv and kernels.json is identical, 1 naming each module (or file) that differs, is
missing or is new, 77 when triton-xpu is not installed (scripts/setup/install_triton.sh), 2 for a usage error.
validation.json (spirv-val's verdicts) is compared too when the spirv-val found is the release that wrote it;
with another release it is left out, and the run says so.
Standard library only: runs with any python3.
"""

import argparse
import filecmp
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
FROZEN = os.path.join(REPO, "spirv_new_assets", "triton")
TRITON_VENV = "triton-xpu-3.3.0b1"
SPIRV_TOOLS = "spirv-tools-2025.5"
SKIP = 77


def cache_dir():
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
                        "spirv_intel_cts")


def default_python():
    """The venv python of scripts/setup/install_triton.sh (its --dir default: $TRITON_DIR, else the cache)."""
    d = os.environ.get("TRITON_DIR") or os.path.join(cache_dir(), TRITON_VENV)
    return os.path.join(d, "venv", "bin", "python")


def default_spirv_val():
    """$SPIRV_VAL (CTest sets it), else scripts/setup/install_spirv_tools.sh's prefix, else PATH."""
    candidates = [os.environ.get("SPIRV_VAL"), os.path.join(cache_dir(), SPIRV_TOOLS, "prefix", "bin", "spirv-val"),
                  shutil.which("spirv-val")]
    return next((c for c in candidates if c and os.path.isfile(c) and os.access(c, os.X_OK)), None)


def tool_version(tool):
    p = subprocess.run([tool, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    return (p.stdout.splitlines() or [""])[0].strip()


def has_triton(python):
    if not os.path.isfile(python):
        return False
    # The distribution, not `import triton`: run from scripts/, this folder would pass for the package.
    return subprocess.run([python, "-c", "import importlib.metadata as m; m.version('triton-xpu')"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def compare(frozen, fresh, with_validation):
    """Differences, one line each, naming the module."""
    names = lambda d: sorted(f for f in os.listdir(d) if f.endswith(".spv"))  # noqa: E731
    old, new = names(frozen), names(fresh)
    problems = []
    for f in sorted(set(old) | set(new)):
        module = f[:-len(".spv")]
        if f not in new:
            problems.append("%s: frozen, but the generator no longer makes it" % module)
        elif f not in old:
            problems.append("%s: made by the generator, not frozen" % module)
        elif not filecmp.cmp(os.path.join(frozen, f), os.path.join(fresh, f), shallow=False):
            a, b = (open(os.path.join(d, f), "rb").read() for d in (frozen, fresh))
            at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            problems.append("%s: %s differs (frozen %d bytes, regenerated %d; first difference at byte %d)" %
                            (module, f, len(a), len(b), at))
    for f in ["kernels.json"] + (["validation.json"] if with_validation else []):
        a, b = (os.path.join(d, f) for d in (frozen, fresh))
        if not os.path.exists(a) or not os.path.exists(b):
            problems.append("%s: %s" % (f, "not frozen" if not os.path.exists(a) else "not regenerated"))
        elif not filecmp.cmp(a, b, shallow=False):
            with open(a) as fa, open(b) as fb:
                ma, mb = json.load(fa).get("modules", {}), json.load(fb).get("modules", {})
            changed = sorted(m for m in set(ma) | set(mb) if ma.get(m) != mb.get(m))
            problems.append("%s differs%s" % (f, ": modules " + ", ".join(changed) if changed else
                                              " outside the modules' entries"))
    return problems


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--python", help="python with triton-xpu (default: scripts/setup/install_triton.sh's venv)")
    p.add_argument("--frozen", default=FROZEN, help="the frozen modules (default: spirv_new_assets/triton)")
    p.add_argument("--spirv-val", help="spirv-val for validation.json (default: $SPIRV_VAL, "
                   "scripts/setup/install_spirv_tools.sh's, PATH)")
    p.add_argument("--keep", metavar="DIR", help="regenerate into DIR (kept) instead of a temporary directory")
    args = p.parse_args(argv)
    python = args.python or os.environ.get("TRITON_PYTHON") or default_python()
    if not os.path.isdir(args.frozen):
        print("check_frozen: error: %s is not a directory" % args.frozen, file=sys.stderr)
        return 2
    if not has_triton(python):
        print("check_frozen: skipped: no triton in %s (install it: scripts/setup/install_triton.sh)" % python)
        return SKIP
    validation = os.path.join(args.frozen, "validation.json")
    spirv_val, with_validation = args.spirv_val or default_spirv_val(), False
    if os.path.exists(validation):
        with open(validation) as f:
            recorded = json.load(f).get("spirv_val")
        found = tool_version(spirv_val) if spirv_val else None
        with_validation = found == recorded
        if not with_validation:
            print("check_frozen: validation.json not compared: it is %s's, the spirv-val here is %s" %
                  (recorded, "%s (%s)" % (found, spirv_val) if spirv_val else "none"))
    out = args.keep or tempfile.mkdtemp(prefix="triton_regen_")
    try:
        cmd = [python, os.path.join(HERE, "generate.py"), "--out", out]
        if with_validation:
            cmd += ["--spirv-val", spirv_val]
        gen = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        if gen.returncode == SKIP:
            print("check_frozen: skipped: %s" % gen.stdout.strip())
            return SKIP
        if gen.returncode != 0:
            print("check_frozen: error: generate.py failed (exit %d):\n%s" % (gen.returncode, gen.stdout[-3000:]),
                  file=sys.stderr)
            return 1
        problems = compare(args.frozen, out, with_validation)
    finally:
        if not args.keep:
            shutil.rmtree(out, ignore_errors=True)
    if problems:
        for line in problems:
            print("check_frozen: %s" % line, file=sys.stderr)
        print("check_frozen: %d difference(s) from the frozen modules in %s; regenerate them with the command in "
              "its kernels.json and commit, or find what changed the compiler's output" %
              (len(problems), os.path.relpath(args.frozen, REPO)), file=sys.stderr)
        return 1
    count = len([f for f in os.listdir(args.frozen) if f.endswith(".spv")])
    print("check_frozen: %d modules and kernels.json%s regenerate byte for byte" %
          (count, " and validation.json" if with_validation else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
