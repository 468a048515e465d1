#!/usr/bin/env python3
"""A reconfigure never breaks the test tree: configures the source tree into a scratch build directory (no
build), then configures it again, then once more with a configure that stops with an error after every
directory was processed, and checks after each that `ctest -N` lists the same tests without an error. Also
checks the given build tree: no CTest include file there includes itself.

Issue 45: with gtest_discover_tests(... DISCOVERY_MODE PRE_TEST), CMake 3.25 writes
`<target>[1]_include.cmake` at configure time as `include("<itself>")` and gives it its real content only in
the generate step, so a configure that did not reach that step left `ctest` failing with "Maximum recursion
depth of 1000 exceeded" until the next complete configure.

    scripts/ci/reconfigure_check.py --build-dir build        # about 10 s: two configures and a failing one

Exit 0 when every check holds, 1 when one fails (each failure one line), 2 for a usage error.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Cache entries of the build tree the scratch configure takes over, so that it finds the same tools.
CARRIED = ("CMAKE_BUILD_TYPE", "CMAKE_C_COMPILER", "CMAKE_CXX_COMPILER", "CTS_SPIRV_TOOLS_PREFIX",
           "Python3_EXECUTABLE")
# Included at the end of project(): defers an error to the end of the top directory, after every
# add_subdirectory, so the configure step fails and the generate step never runs.
FAIL_LATE = ('cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL message SEND_ERROR\n'
             '    "reconfigure_check: this configure fails on purpose, after every directory")\n')


def read_cache(build_dir):
    entries = {}
    path = os.path.join(build_dir, "CMakeCache.txt")
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"^([A-Za-z_][A-Za-z0-9_]*):([A-Z]+)=(.*)$", line.rstrip("\n"))
            if m:
                entries[m.group(1)] = m.group(3)
    return entries


def self_including(build_dir):
    """CTest include files under build_dir whose content is an include() of themselves."""
    found = []
    for root, dirs, files in os.walk(build_dir):
        dirs[:] = [d for d in dirs if d not in ("CMakeFiles", "assets", "Testing")]
        for name in files:
            if not name.endswith("_include.cmake"):
                continue
            path = os.path.join(root, name)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            if re.fullmatch(r'\s*include\("%s"\)\s*' % re.escape(path), text):
                found.append(path)
    return found


def ctest_list(ctest, build_dir):
    """(exit status, number of tests, first error line) of `ctest -N` in build_dir."""
    p = subprocess.run([ctest, "--test-dir", build_dir, "-N"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, timeout=300)
    m = re.search(r"^Total Tests: (\d+)$", p.stdout, re.M)
    errors = [line for line in p.stdout.splitlines()
              if "CMake Error" in line or "recursion" in line or line.startswith("Errors while running CTest")]
    return p.returncode, int(m.group(1)) if m else -1, errors[0] if errors else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", required=True, help="a configured build tree (its cache gives the tools)")
    ap.add_argument("--cmake", default=shutil.which("cmake") or "cmake")
    ap.add_argument("--ctest", default=shutil.which("ctest") or "ctest")
    ap.add_argument("--keep", action="store_true", help="keep the scratch build directory")
    args = ap.parse_args()
    if not os.path.isfile(os.path.join(args.build_dir, "CMakeCache.txt")):
        print("reconfigure_check: --build-dir=%s holds no CMakeCache.txt" % args.build_dir, file=sys.stderr)
        return 2
    failures = []

    bad = self_including(args.build_dir)
    if bad:
        failures.append("%s includes itself (ctest there fails with a recursion error)" % bad[0])

    cache = read_cache(args.build_dir)
    configure = [args.cmake, "-S", SOURCE_DIR, "-G", cache.get("CMAKE_GENERATOR", "Unix Makefiles")]
    configure += ["-D%s=%s" % (k, cache[k]) for k in CARRIED if cache.get(k)]
    scratch = tempfile.mkdtemp(prefix="cts_reconfigure.")
    try:
        fail_late = os.path.join(scratch, "fail_late.cmake")
        with open(fail_late, "w") as f:
            f.write(FAIL_LATE)
        build = os.path.join(scratch, "build")
        expected = None
        for step, extra, want_rc in (("first configure", [], 0), ("second configure", [], 0),
                                     ("a configure that fails after every directory",
                                      ["-DCMAKE_PROJECT_INCLUDE=" + fail_late], None),
                                     ("a configure after the failed one", ["-UCMAKE_PROJECT_INCLUDE"], 0)):
            p = subprocess.run(configure + ["-B", build] + extra, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True, timeout=600)
            if want_rc is not None and p.returncode != want_rc:
                failures.append("%s exited with %d: %s" % (step, p.returncode,
                                                           (p.stdout.strip().splitlines() or [""])[-1]))
                break
            if want_rc is None and p.returncode == 0:
                failures.append("%s did not fail: the check cannot see a configure that stops early" % step)
            rc, count, error = ctest_list(args.ctest, build)
            if expected is None:
                expected = count
            if rc != 0 or count != expected or count <= 0 or error:
                failures.append("after %s, ctest -N exits %d listing %d tests (%d before)%s"
                                % (step, rc, count, expected, ": " + error if error else ""))
            bad = self_including(build)
            if bad:
                failures.append("after %s, %s includes itself" % (step, os.path.relpath(bad[0], build)))
            print("%s: ctest -N lists %d tests" % (step, count))
    finally:
        if args.keep:
            print("scratch build directory kept: " + scratch)
        else:
            shutil.rmtree(scratch, ignore_errors=True)

    for f in failures:
        print("reconfigure_check: FAIL: " + f)
    if not failures:
        print("reconfigure_check: every configure left a working test tree")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
