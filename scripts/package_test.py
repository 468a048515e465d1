#!/usr/bin/env python3
"""Checks the installed package (CTest test package.install_and_run, scripts/ci_tests.sh).

Installs the build into a temporary prefix with `cmake --install`, checks what went where, then runs the
installed runner from another directory without OCL_ICD_VENDORS:
- with --quick: it must pass with at least one passed case, and its JSON report must name the installed
  assets and ICD directory (so it did not read the build tree); the installed results_html.py and
  compare_results.py must run on that report (they import modules installed beside them);
- after moving the whole prefix (as an unpacked archive is): the .icd file then names a library that is not
  there, and the runner must load the moved tree's own library and still pass;
- without the reference device, and then without the assets: it must fail (exit 1) naming where it looked.
Exit 0 when every check holds, 1 otherwise, 2 for bad input (a --tgz that is missing, not a regular file or
not a tar archive, a --build-dir that is not a directory: one line "package_test: FILE: what is wrong").

With --tgz ARCHIVE it instead unpacks a CPack archive (cpack -G TGZ) into a temporary directory and runs its
runner with --quick there: the archive's .icd file names no path, so the runner must load the unpacked
library.

Usage: package_test.py --build-dir BUILD [--cmake CMAKE] [--keep]
       package_test.py --tgz ARCHIVE [--keep]
"""

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report_io  # noqa: E402  (same directory: checked inputs)

SHARE = os.path.join("share", "spirv_intel_cts")
LIB = os.path.join("lib", "spirv_intel_cts", "libRefDevOpenCL.so")
# Variables that would steer the runner elsewhere than its defaults.
DROP = ("OCL_ICD_VENDORS", "OCL_ICD_FILENAMES", "OPENCL_VENDOR_PATH", "REFDEV_PROFILE", "REFDEV_FAULTS",
        "CL_PLATFORM_INDEX", "CL_DEVICE_INDEX", "CL_DEVICE_TYPE", "GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX",
        "CL_CONFORMANCE_RESULTS_FILENAME", "CTS_FAIL_IF_ALL_SKIPPED")

failures = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)
    return cond


def run_installed(prefix, args, cwd):
    env = {k: v for k, v in os.environ.items() if k not in DROP}
    p = subprocess.run([os.path.join(prefix, "bin", "spirv_intel_cts")] + args, cwd=cwd, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, timeout=900)
    return p.returncode, p.stdout


def passes_quick(prefix, cwd, icd_expected):
    report = os.path.join(cwd, "quick.json")
    rc, out = run_installed(prefix, ["--quick", "--json=" + report], cwd)
    print(out[-600:])
    if not check(rc == 0 and os.path.exists(report), "--quick from %s exits 0 (exit %d)" % (prefix, rc)):
        return
    try:
        doc = report_io.load_report(report)
    except report_io.ReportError as e:
        check(False, "the installed runner's report is readable: %s" % e)
        return
    passed = sum(1 for c in doc["cases"] if c["status"] == "Pass")
    check(passed > 0, "%d case(s) passed of %d" % (passed, len(doc["cases"])))
    check(doc.get("assets_dir") == os.path.join(prefix, SHARE, "assets"),
          "report names the installed assets: %s" % doc.get("assets_dir"))
    check(doc.get("icd_vendors") == icd_expected, "report names the installed ICD: %s" % doc.get("icd_vendors"))
    return report


def installed_scripts_run(prefix, report, cwd):
    """The installed scripts find the modules they import in their own directory."""
    scripts = os.path.join(prefix, SHARE, "scripts")
    for script, args in (("results_html.py", [report, "-o", os.path.join(cwd, "quick.html")]),
                         ("compare_results.py", [report, report])):
        p = subprocess.run([sys.executable, os.path.join(scripts, script)] + args, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        check(p.returncode == 0, "installed %s runs on the report (exit %d)\n%s" % (script, p.returncode,
                                                                                    p.stdout[-600:]))


def check_archive(archive, tmp):
    with tarfile.open(archive) as tar:
        members = tar.getmembers()
        tops = {m.name.split("/")[0] for m in members}
        if not check(len(tops) == 1, "one top-level directory in the archive: %s" % sorted(tops)):
            return
        unsafe = [m.name for m in members if m.name.startswith("/") or ".." in m.name.split("/")]
        if not check(not unsafe, "no member outside the archive's directory: %s" % unsafe[:3]):
            return
        tar.extractall(tmp)
    prefix = os.path.join(tmp, tops.pop())
    icd = open(os.path.join(prefix, SHARE, "icd", "refdev.icd")).read().strip()
    check(icd == os.path.basename(LIB), "the archive's .icd names the library without a path: " + icd)
    cwd = os.path.join(tmp, "work")
    os.mkdir(cwd)
    passes_quick(prefix, cwd, os.path.join(prefix, LIB))


def check_install(build, cmake, tmp):
    prefix = os.path.join(tmp, "prefix")
    inst = subprocess.run([cmake, "--install", build, "--prefix", prefix], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    if not check(inst.returncode == 0, "cmake --install exits 0"):
        print(inst.stdout)
        return

    for rel in ("bin/spirv_intel_cts", LIB, SHARE + "/icd/refdev.icd", SHARE + "/assets/manifest.json",
                SHARE + "/scripts/merge_results.py", SHARE + "/scripts/compare_results.py",
                SHARE + "/scripts/results_html.py", SHARE + "/scripts/install_intel_cpu_runtime.sh",
                SHARE + "/scripts/report_io.py", SHARE + "/scripts/failures_html.py",
                "share/doc/spirv_intel_cts/README.md",
                "share/doc/spirv_intel_cts/LICENSE", "share/doc/spirv_intel_cts/docs/user_guide.md"):
        check(os.path.isfile(os.path.join(prefix, rel)), "installed " + rel)
    spv = sum(len([f for f in fs if f.endswith(".spv")]) for _, _, fs in
              os.walk(os.path.join(prefix, SHARE, "assets", "modules")))
    check(spv > 0, "%d SPIR-V modules installed" % spv)
    tests = [f for f in os.listdir(os.path.join(prefix, "bin")) if f.endswith("_test")]
    check(not tests, "no unit-test programs installed %s" % tests)
    icd = open(os.path.join(prefix, SHARE, "icd", "refdev.icd")).read().strip()
    check(icd == os.path.join(prefix, LIB), ".icd names the installed library: " + icd)

    # From a directory outside both trees, so that nothing relative to the working directory is found.
    cwd = os.path.join(tmp, "work")
    os.mkdir(cwd)
    report = passes_quick(prefix, cwd, os.path.join(prefix, SHARE, "icd"))
    if report:
        installed_scripts_run(prefix, report, cwd)

    moved = os.path.join(tmp, "moved")
    os.rename(prefix, moved)
    passes_quick(moved, cwd, os.path.join(moved, LIB))

    os.rename(os.path.join(moved, LIB), os.path.join(tmp, "lib.hidden"))
    rc, out = run_installed(moved, ["--quick"], cwd)
    check(rc == 1 and "no reference device next to this program" in out and os.path.join(moved, LIB) in out,
          "without the reference device: exit 1 naming where it looked (exit %d)\n%s" % (rc, out[-400:]))
    os.rename(os.path.join(tmp, "lib.hidden"), os.path.join(moved, LIB))

    assets = os.path.join(moved, SHARE, "assets")
    shutil.rmtree(assets)
    rc, out = run_installed(moved, ["--quick"], cwd)
    check(rc == 1 and "no SPIR-V assets next to this program" in out and assets in out,
          "without the assets: exit 1 naming %s (exit %d)\n%s" % (assets, rc, out[-400:]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir")
    ap.add_argument("--tgz")
    ap.add_argument("--cmake", default="cmake")
    ap.add_argument("--keep", action="store_true", help="keep the temporary prefix")
    args = ap.parse_args()
    if bool(args.build_dir) == bool(args.tgz):
        ap.error("give --build-dir or --tgz")
    try:
        if args.tgz:
            report_io.check_regular(args.tgz, "CPack archive")
            tarfile.open(args.tgz).close()
        elif not os.path.isdir(args.build_dir):
            raise report_io.ReportError(args.build_dir, "not a build directory")
    except (report_io.ReportError, tarfile.TarError) as e:
        print("package_test: %s" % (e if isinstance(e, report_io.ReportError) else "%s: not a tar archive (%s)" % (
            args.tgz, str(e).splitlines()[0].rstrip(":"))), file=sys.stderr)
        return 2
    tmp = os.path.realpath(tempfile.mkdtemp(prefix="cts_package_"))
    try:
        if args.tgz:
            check_archive(args.tgz, tmp)
        else:
            check_install(os.path.realpath(args.build_dir), args.cmake, tmp)
    finally:
        if args.keep:
            print("kept " + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print("package test: %s" % ("FAILED: " + "; ".join(failures) if failures else "passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
