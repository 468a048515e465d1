#!/usr/bin/env python3
"""Checks the installed tree and the packages (CTest test package.install_and_run, scripts/ci_tests.sh).

With --build-dir it installs the build into a temporary prefix with `cmake --install`, checks what went where,
then runs the installed runner from another directory without OCL_ICD_VENDORS:
- with --quick: it must pass with at least one passed case, its JSON report must name the installed assets
  and library, and the reference device it loaded (LD_DEBUG=files) must be the prefix's own; the installed
  results_html.py and compare_results.py must run on that report (they import modules installed beside them);
- from a copy of the prefix, the original kept: the copy's runner must load the copy's library;
- after moving the copy (as an unpacked archive is): it must load the moved tree's library and still pass;
- without the reference device, and then without the assets: it must fail (exit 1) naming where it looked.
No installed file may hold the path of the prefix, nor (outside the debug information of unstripped
programs) of the build tree. With --cpack as well it then writes the TGZ and DEB packages into the temporary
directory (its staging directory _CPack_Packages stays there) and checks both as below.

With --tgz ARCHIVE and/or --deb PACKAGE it checks packages already written: each is unpacked into a
temporary directory (the DEB's data archive read with the standard library, as `dpkg-deb -x` extracts it)
and its runner run with --quick there; it must load the unpacked library, and no packaged file may name a
CPack staging directory or (with --build-dir) the build tree.

Exit 0 when every check holds, 1 otherwise, 2 for a usage error or bad input (a --tgz or --deb that is missing
or not a regular file, a --tgz that is not a tar archive, a --build-dir that is not a directory: one line
"package_test: FILE: what is wrong" on stderr).

Usage: package_test.py --build-dir BUILD [--cmake CMAKE] [--cpack CPACK] [--keep]
       package_test.py [--build-dir BUILD] [--tgz ARCHIVE] [--deb PACKAGE] [--keep]
"""

import argparse
import glob
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: the import root
from reports import report_io  # noqa: E402  (checked inputs)

SHARE = os.path.join("share", "spirv_intel_cts")
LIB = os.path.join("lib", "spirv_intel_cts", "libRefDevOpenCL.so")
LIB_NAME = os.path.basename(LIB)
# Variables that would steer the runner elsewhere than its defaults.
DROP = ("OCL_ICD_VENDORS", "OCL_ICD_FILENAMES", "OPENCL_VENDOR_PATH", "REFDEV_PROFILE", "REFDEV_FAULTS",
        "REFDEV_THREADS", "REFDEV_BRANCH_BUDGET", "CL_PLATFORM_INDEX", "CL_DEVICE_INDEX", "CL_DEVICE_TYPE",
        "GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX", "CL_CONFORMANCE_RESULTS_FILENAME", "CTS_FAIL_IF_ALL_SKIPPED",
        "LD_LIBRARY_PATH", "LD_PRELOAD", "LD_DEBUG", "LD_DEBUG_OUTPUT")

failures = []


def check(cond, what):
    print(report_io.printable(("ok: " if cond else "FAIL: ") + what))
    if not cond:
        failures.append(what)
    return cond


def run_installed(prefix, args, cwd, extra_env=None):
    env = {k: v for k, v in os.environ.items() if k not in DROP}
    env.update(extra_env or {})
    p = subprocess.run([os.path.join(prefix, "bin", "spirv_intel_cts")] + args, cwd=cwd, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, timeout=900)
    return p.returncode, p.stdout


def loaded_libraries(debug_prefix):
    """The reference-device libraries the dynamic linker initialised, from LD_DEBUG=files output files."""
    found = set()
    for path in glob.glob(debug_prefix + ".*"):
        for line in open(path, errors="replace"):
            _, sep, lib = line.partition("calling init: ")
            if sep and os.path.basename(lib.strip()) == LIB_NAME:
                found.add(os.path.realpath(lib.strip()))
    return found


def passes_quick(prefix, cwd):
    """Runs --quick from `prefix`; it must pass, name the prefix's assets and library, and load that library."""
    report = os.path.join(cwd, "quick.json")
    if os.path.exists(report):
        os.remove(report)
    debug = tempfile.mkdtemp(prefix="ld_debug_", dir=cwd)
    rc, out = run_installed(prefix, ["--quick", "--json=" + report], cwd,
                            {"LD_DEBUG": "files", "LD_DEBUG_OUTPUT": os.path.join(debug, "ld")})
    print(out[-600:])
    own = os.path.join(prefix, LIB)
    loaded = loaded_libraries(os.path.join(debug, "ld"))
    shutil.rmtree(debug)
    check(loaded == {os.path.realpath(own)}, "the runner in %s loaded its own reference device: %s" %
          (prefix, ", ".join(sorted(loaded)) or "none"))
    check("no case index" not in out, "the installed runner selects on its case index (manifest.index)")
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
    check(doc.get("icd_vendors") == own, "report names the installed library: %s" % doc.get("icd_vendors"))
    return report


def installed_scripts_run(prefix, report, cwd):
    """The installed scripts find the modules they import under the installed scripts/ (their import root)."""
    scripts = os.path.join(prefix, SHARE, "scripts")
    for script, args in (("reports/results_html.py", [report, "-o", os.path.join(cwd, "quick.html")]),
                         ("reports/compare_results.py", [report, report]), ("faults/fault_campaign.py", ["--help"])):
        p = subprocess.run([sys.executable, os.path.join(scripts, script)] + args, cwd=cwd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        check(p.returncode == 0, "installed %s runs on the report (exit %d)\n%s" % (script, p.returncode,
                                                                                    p.stdout[-600:]))


def no_tree_paths(root, paths, elf_paths):
    """No file under root holds any of `paths`, nor an ELF file any of `elf_paths`."""
    offenders = []
    for dirpath, _, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            data = open(path, "rb").read()
            offenders += ["%s (%s)" % (os.path.relpath(path, root), p)
                          for p in (elf_paths if data[:4] == b"\x7fELF" else paths) if p.encode() in data]
    check(not offenders, "no file in %s names %s: %s" % (root, " or ".join(sorted(set(paths + elf_paths))),
                                                       ", ".join(offenders[:10]) or "none does"))


def check_prefix_files(prefix):
    for rel in ("bin/spirv_intel_cts", LIB, SHARE + "/icd/refdev.icd", SHARE + "/assets/manifest.json",
                SHARE + "/assets/manifest.sha256", SHARE + "/assets/manifest.index",
                SHARE + "/scripts/reports/merge_results.py", SHARE + "/scripts/reports/compare_results.py",
                SHARE + "/scripts/reports/results_html.py", SHARE + "/scripts/setup/install_intel_cpu_runtime.sh",
                SHARE + "/scripts/reports/report_io.py", SHARE + "/scripts/reports/failures_html.py",
                SHARE + "/scripts/faults/fault_campaign.py", SHARE + "/scripts/faults/fault_runs.py",
                SHARE + "/scripts/setup/lib/installer.sh", "share/doc/spirv_intel_cts/README.md",
                "share/doc/spirv_intel_cts/LICENSE", "share/doc/spirv_intel_cts/docs/user_guide.md"):
        check(os.path.isfile(os.path.join(prefix, rel)), "installed " + rel)
    spv = sum(len([f for f in fs if f.endswith(".spv")]) for _, _, fs in
              os.walk(os.path.join(prefix, SHARE, "assets", "modules")))
    check(spv > 0, "%d SPIR-V modules installed" % spv)
    tests = [f for f in os.listdir(os.path.join(prefix, "bin")) if f.endswith("_test")]
    check(not tests, "no unit-test programs installed %s" % tests)
    icd = open(os.path.join(prefix, SHARE, "icd", "refdev.icd")).read().strip()
    check(icd == LIB_NAME, "the .icd file names the library without a path: " + icd)
    # The installer sources lib/installer.sh beside it: its --help (which that library's option parser serves)
    # works from the installed tree.
    helped = subprocess.run([os.path.join(prefix, SHARE, "scripts", "setup", "install_intel_cpu_runtime.sh"), "--help"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, timeout=60)
    check(helped.returncode == 0 and "--print-icd" in helped.stdout,
          "the installed install_intel_cpu_runtime.sh --help works (exit %d: %s)"
          % (helped.returncode, helped.stdout.strip().splitlines()[-1:] or ""))


def unpack_deb(deb, dest):
    """Extracts the data archive of a .deb (an ar archive) into dest, as `dpkg-deb -x` does."""
    with open(deb, "rb") as f:
        if f.read(8) != b"!<arch>\n":
            return False
        while True:
            header = f.read(60)
            if len(header) < 60:
                return False
            name, size = header[:16].decode().strip().rstrip("/"), int(header[48:58].decode())
            body = f.read(size)
            f.read(size % 2)
            if name.startswith("data.tar"):
                with tarfile.open(fileobj=io.BytesIO(body)) as tar:
                    tar.extractall(dest)
                return True


def unpack(kind, package, dest):
    """Unpacks a package into dest; returns the prefix it holds, or "" after a failed check."""
    try:
        if kind == "deb":
            return os.path.join(dest, "usr") if check(unpack_deb(package, dest), "%s holds a data archive" %
                                                      package) else ""
        with tarfile.open(package) as tar:
            tops = {m.name.split("/")[0] for m in tar.getmembers()}
            if not check(len(tops) == 1, "one top-level directory in the archive: %s" % sorted(tops)):
                return ""
            tar.extractall(dest)
        return os.path.join(dest, tops.pop())
    except (OSError, ValueError, tarfile.TarError) as e:
        check(False, "%s can be unpacked: %s" % (package, " ".join(str(e).split())[:300]))
        return ""


def check_package(kind, package, tmp, forbidden):
    dest = os.path.join(tmp, kind)
    os.mkdir(dest)
    prefix = unpack(kind, package, dest)
    if not prefix:
        return
    print("%s unpacked into %s" % (package, prefix))
    check_prefix_files(prefix)
    no_tree_paths(prefix, forbidden, forbidden)
    cwd = os.path.join(tmp, kind + "_work")
    os.mkdir(cwd)
    passes_quick(prefix, cwd)


def check_install(build, cmake, cpack, tmp):
    prefix = os.path.join(tmp, "prefix")
    inst = subprocess.run([cmake, "--install", build, "--prefix", prefix], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)
    if not check(inst.returncode == 0, "cmake --install exits 0"):
        print(inst.stdout)
        return
    check_prefix_files(prefix)
    # Unstripped programs keep the build directory in their debug information; nothing else may name it.
    no_tree_paths(prefix, [build + "/", prefix], [prefix])

    # From a directory outside both trees, so that nothing relative to the working directory is found.
    cwd = os.path.join(tmp, "work")
    os.mkdir(cwd)
    report = passes_quick(prefix, cwd)
    if report:
        installed_scripts_run(prefix, report, cwd)

    # A copy with the original kept: its runner must not load the original's library.
    copy = os.path.join(tmp, "copy")
    shutil.copytree(prefix, copy, symlinks=True)
    passes_quick(copy, cwd)

    moved = os.path.join(tmp, "moved")
    os.rename(copy, moved)
    passes_quick(moved, cwd)

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
    shutil.rmtree(moved)

    if not cpack:
        return
    # Packages written outside the build tree: CPack stages them in packages/_CPack_Packages, which stays
    # while the unpacked runners run, so a package naming its staging library would load it.
    packages = os.path.join(tmp, "packages")
    p = subprocess.run([cpack, "-G", "TGZ;DEB", "--config", os.path.join(build, "CPackConfig.cmake"), "-B",
                        packages], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    tgz = glob.glob(os.path.join(packages, "*.tar.gz"))
    deb = glob.glob(os.path.join(packages, "*.deb"))
    if not check(p.returncode == 0 and len(tgz) == 1 and len(deb) == 1,
                 "cpack writes one TGZ and one DEB (exit %d)" % p.returncode):
        print(p.stdout[-2000:])
        return
    forbidden = [build + "/", "_CPack_Packages"]
    check_package("tgz", tgz[0], tmp, forbidden)
    check_package("deb", deb[0], tmp, forbidden)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir")
    ap.add_argument("--tgz")
    ap.add_argument("--deb")
    ap.add_argument("--cmake", default="cmake")
    ap.add_argument("--cpack", help="also write the TGZ and DEB packages with this cpack and check them")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = ap.parse_args()
    archives = [(kind, path) for kind, path in (("tgz", args.tgz), ("deb", args.deb)) if path]
    if not args.build_dir and not archives:
        ap.error("give --build-dir, --tgz or --deb")
    if archives and args.cpack:
        ap.error("--cpack writes its own packages: give it without --tgz and --deb")
    try:
        if args.build_dir and not os.path.isdir(args.build_dir):
            raise report_io.ReportError(args.build_dir, "not a build directory")
        for kind, path in archives:
            report_io.check_regular(path, "CPack archive" if kind == "tgz" else "Debian package")
            if kind == "tgz":
                try:
                    tarfile.open(path).close()
                except tarfile.TarError as e:
                    raise report_io.ReportError(path, "not a tar archive (%s)" % str(e).splitlines()[0].rstrip(":"))
    except report_io.ReportError as e:
        print("package_test: %s" % e, file=sys.stderr)
        return 2
    build = os.path.realpath(args.build_dir) if args.build_dir else None
    tmp = os.path.realpath(tempfile.mkdtemp(prefix="cts_package_"))
    try:
        if archives:
            forbidden = ["_CPack_Packages"] + ([build + "/"] if build else [])
            for kind, path in archives:
                check_package(kind, os.path.realpath(path), tmp, forbidden)
        else:
            check_install(build, args.cmake, args.cpack, tmp)
    finally:
        if args.keep:
            print("kept " + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print("package test: %s" % ("FAILED: " + "; ".join(failures) if failures else "passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
