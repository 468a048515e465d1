#!/usr/bin/env python3
"""Runs binaries of the Khronos OpenCL conformance suite (OpenCL-CTS) on the reference device's profiles, one
sub-test per process, and compares each sub-test's result with the expected-results list kept in the tree
(scripts/judges/khronos_cts/expected.json). docs/khronos_cts.md gives the recipe: which CTS commit, how it is built,
and why this runs on a developer's machine, not in CI (the CTS source is in no registry CI reaches).

  scripts/judges/khronos_cts/run.py --cts-build CTS_BUILD_DIR [--build-dir build] [--profile xe_hpc --profile cpu]
      [--binary test_basic ...] [--test NAME ...] [--jobs 2] [--timeout 900] [--json FILE]

Each sub-test runs as `BINARY NAME` with OCL_ICD_VENDORS naming only the reference device's ICD and
REFDEV_PROFILE set; binaries that compile OpenCL C (all but test_spirv_new) run in the CTS's offline mode with
scripts/judges/khronos_cts/offline_compile.py (clang-15 + llvm-spirv-15). A sub-test's result is the one the CTS
writes to CL_CONFORMANCE_RESULTS_FILENAME (pass, fail, skip); a process that dies, exceeds --timeout or writes
no result is a failure ("crash", "timeout", "no result").

expected.json: {"cts_commit": "...", "expected_failures": {BINARY: {PROFILE: {SUB_TEST: REASON}}},
"timeouts": {BINARY: {SUB_TEST: [SECONDS, REASON]}}}: a failure the profile is expected to show, with its reason
(a feature the profile does not claim); and the sub-tests that need more than --timeout on an interpreter, with
their own limit and why. Exit status 0 when
every sub-test that ran passed or skipped but for the listed failures, and every listed failure that ran still
fails; 1 otherwise (an unexpected failure, or a listed one that passes: the entry is stale); 2 for bad input
(no CTS build given, a binary missing from it, a malformed expected.json, an unknown profile).
"""

import argparse
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import shutil
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
PROFILES = ["xe_hpc", "xe_hpg", "xe2", "xe3", "xe_lpg", "cpu"]
# The binaries; each is built in test_conformance/<its name without "test_"> of the CTS build.
BINARIES = ["test_spirv_new", "test_basic", "test_subgroups"]
COMPILES_OPENCL_C = {"test_basic", "test_subgroups"}


def fail_usage(message):
    print("khronos_cts: %s" % message, file=sys.stderr)
    sys.exit(2)


def find_binary(cts_build, binary):
    for path in (os.path.join(cts_build, "test_conformance", binary[len("test_"):], binary),
                 os.path.join(cts_build, binary)):
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    fail_usage("%s not found in %s (build it: docs/khronos_cts.md)" % (binary, cts_build))


def list_sub_tests(path):
    out = subprocess.run([path, "--help"], capture_output=True, text=True, errors="replace").stdout
    names = out.split("Test names:", 1)[-1].split()
    if not names:
        fail_usage("%s --help lists no test names" % path)
    return names


def load_expected(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        table = data["expected_failures"]
        for binary, profiles in table.items():
            for profile, tests in profiles.items():
                for name, reason in tests.items():
                    if binary not in BINARIES or profile not in PROFILES or not isinstance(reason, str) \
                            or not reason.strip():
                        raise ValueError("%s/%s/%s" % (binary, profile, name))
        for binary, tests in data.get("timeouts", {}).items():
            for name, (seconds, reason) in tests.items():
                if binary not in BINARIES or not float(seconds) > 0 or not reason.strip():
                    raise ValueError("timeouts %s/%s" % (binary, name))
        return data
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        fail_usage("%s is not a readable expected-results list: %s" % (path, e))


def spirv_tools_bin(given):
    """The folder with spirv-val, which the CTS calls by name to validate the modules it compiles offline:
    --spirv-tools-bin, else PATH's, else the prefix scripts/setup/install_spirv_tools.sh installs."""
    if given:
        folders = [given]
    elif shutil.which("spirv-val"):
        return None
    else:
        cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        folders = sorted(glob.glob(os.path.join(cache, "spirv_intel_cts", "spirv-tools-*", "prefix", "bin")))
    for folder in reversed(folders):
        if os.access(os.path.join(folder, "spirv-val"), os.X_OK):
            return os.path.abspath(folder)
    fail_usage("spirv-val not found (on PATH, in --spirv-tools-bin, or installed by scripts/setup/install_spirv_tools.sh)")


def run_one(path, binary, name, profile, args, workdir):
    env = dict(os.environ, OCL_ICD_VENDORS=os.path.join(os.path.abspath(args.build_dir), "icd"),
               REFDEV_PROFILE=profile)
    if args.tools_bin:
        env["PATH"] = args.tools_bin + os.pathsep + env.get("PATH", "")
    env.pop("OCL_ICD_FILENAMES", None)
    results = os.path.join(workdir, "%s.%s.%s.json" % (binary, profile, name))
    env["CL_CONFORMANCE_RESULTS_FILENAME"] = results
    command = [path, name]
    if binary in COMPILES_OPENCL_C:
        cache = os.path.join(workdir, "cache.%s.%s" % (binary, profile))
        os.makedirs(cache, exist_ok=True)
        command += ["--compilation-mode", "spir-v", "--compilation-cache-path", cache,
                    "--compilation-program", os.path.join(HERE, "offline_compile.py")]
    start = time.monotonic()
    try:
        limit = args.timeouts.get(binary, {}).get(name, [args.timeout])[0]
        p = subprocess.run(command, env=env, cwd=os.path.dirname(path), capture_output=True, text=True,
                           errors="replace", timeout=float(limit))
        output = p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"") + (e.stderr or b"")
        return "timeout", time.monotonic() - start, out.decode(errors="replace")[-2000:]
    result = "no result"
    try:
        with open(results, encoding="utf-8") as f:
            result = json.load(f)["results"].get(name, "no result")
    except (OSError, ValueError, KeyError):
        if p.returncode < 0:
            result = "crash"
    if result == "pass" and p.returncode != 0:
        result = "fail"
    return result, time.monotonic() - start, output[-2000:]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cts-build", help="the CTS build directory (required)")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"), help="this project's build (build/)")
    ap.add_argument("--profile", action="append", choices=PROFILES, help="default: xe_hpc and cpu")
    ap.add_argument("--binary", action="append", choices=sorted(BINARIES), help="default: all three")
    ap.add_argument("--test", action="append", help="only these sub-tests")
    ap.add_argument("--expected", default=os.path.join(HERE, "expected.json"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=float, default=900.0)
    ap.add_argument("--json", help="write every result here")
    ap.add_argument("--spirv-tools-bin", help="the folder with spirv-val (default: PATH's, else the one "
                    "scripts/setup/install_spirv_tools.sh installed)")
    args = ap.parse_args(argv)
    if not args.cts_build:
        fail_usage("--cts-build is required: this runs only against a CTS checkout built as docs/khronos_cts.md "
                   "says")
    if not os.path.isdir(args.cts_build):
        fail_usage("--cts-build %s is not a directory" % args.cts_build)
    if not os.path.isfile(os.path.join(args.build_dir, "icd", "refdev.icd")):
        fail_usage("%s/icd/refdev.icd is missing: build the project first" % args.build_dir)
    if args.jobs < 1 or args.timeout <= 0:
        fail_usage("--jobs and --timeout must be positive")
    args.tools_bin = spirv_tools_bin(args.spirv_tools_bin)
    listed = load_expected(args.expected)
    expected = listed["expected_failures"]
    args.timeouts = listed.get("timeouts", {})
    profiles = args.profile or ["xe_hpc", "cpu"]
    binaries = args.binary or list(BINARIES)
    work = []
    for binary in binaries:
        path = find_binary(args.cts_build, binary)
        names = list_sub_tests(path)
        unknown = sorted(set(args.test or []) - set(names)) if args.binary and len(binaries) == 1 else []
        if unknown:
            fail_usage("%s has no sub-test %s" % (binary, ", ".join(unknown)))
        for profile in profiles:
            stale = sorted(set(expected.get(binary, {}).get(profile, {})) - set(names))
            if stale:
                fail_usage("expected.json names sub-tests %s has not: %s" % (binary, ", ".join(stale)))
            work += [(path, binary, n, profile) for n in names if not args.test or n in args.test]
    ok = True
    records = []
    counts = {}
    with tempfile.TemporaryDirectory(prefix="khronos_cts_") as workdir, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(run_one, *w, args, workdir): w for w in work}
        for done, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            path, binary, name, profile = futures[fut]
            result, seconds, output = fut.result()
            print("[%d/%d] %s %s [%s]: %s (%.1f s)" % (done, len(work), binary, name, profile, result, seconds),
                  file=sys.stderr, flush=True)
            reason = expected.get(binary, {}).get(profile, {}).get(name)
            if result in ("pass", "skip"):
                verdict = "stale expectation" if reason and result == "pass" else "ok"
            else:
                verdict = "expected" if reason else "UNEXPECTED"
            ok = ok and verdict in ("ok", "expected")
            key = (binary, profile, result)
            counts[key] = counts.get(key, 0) + 1
            records.append({"binary": binary, "profile": profile, "test": name, "result": result,
                            "verdict": verdict, "seconds": round(seconds, 2), "reason": reason})
            if verdict not in ("ok", "expected"):
                tail = "\n    ".join(re.sub(r"[^\x20-\x7e]", "?", l) for l in output.splitlines()[-8:])
                print("%s %s [%s]: %s (%s)\n    %s" % (binary, name, profile, result, verdict, tail))
    for binary in binaries:
        for profile in profiles:
            part = {r: counts.get((binary, profile, r), 0) for r in
                    ("pass", "fail", "skip", "crash", "timeout", "no result")}
            print("%-15s %-7s %s" % (binary, profile, ", ".join("%s %d" % kv for kv in part.items() if kv[1])))
    if args.json:
        records.sort(key=lambda r: (r["binary"], r["profile"], r["test"]))
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(records, f, indent=1)
    print("khronos_cts: %s" % ("every result as expected" if ok else "results differ from expected.json"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
