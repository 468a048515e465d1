#!/usr/bin/env python3
"""Measures how fast spirv_intel_cts runs on this machine: one-case latency and peak memory, --list latency
(median of 5 each), and the whole default run's wall time for each --jobs value on each reference-device
profile (the median of --repeat runs, the --jobs values taking turns so that a change in the machine's load
reaches each of them alike), with cases per second and the speed-up over --jobs=1. It also checks that the
--jobs=2 and --jobs=1 reports of a profile are identical once timings are dropped
(scripts/reports/compare_results.py --fail-on-change and a field-by-field comparison): a parallel run that changed a
result would be no speed-up.

usage: bench.py [--runner PATH] [--profiles xe_hpc,xe_hpg] [--jobs 1,2,4,8,CORES] [--repeat 3] [--json FILE]

Exit status: 0 measured (and the reports agree), 1 the reports of --jobs=2 and --jobs=1 differ or a run
failed, 2 bad usage (one line on stderr). Standard library only; runs the build's reference device.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, SCRIPTS)  # scripts/: the import root
from reports import report_io  # noqa: E402  (safe outputs)
DEFAULT_RUNNER = os.path.join(SCRIPTS, "..", "build", "bin", "spirv_intel_cts")
ONE_CASE = "api.sub_group_sizes.non_empty"
DROP = ("duration_ms", "phases", "phase_totals", "command", "cmd")  # timings and the command line


def usage_error(what):
    sys.stderr.write("bench.py: error: %s\n" % what)
    sys.exit(2)


def clean_env(profile=None):
    env = {k: v for k, v in os.environ.items()
           if k not in ("OCL_ICD_VENDORS", "REFDEV_FAULTS", "REFDEV_THREADS", "GTEST_TOTAL_SHARDS",
                        "GTEST_SHARD_INDEX", "CL_CONFORMANCE_RESULTS_FILENAME")}
    if profile:
        env["REFDEV_PROFILE"] = profile
    return env


def timed(argv, env):
    """Runs argv; returns (exit status, wall seconds, peak resident set in MiB of the process tree's largest)."""
    start = time.monotonic()
    with open(os.devnull, "w") as null:
        p = subprocess.Popen(argv, env=env, stdout=null, stderr=subprocess.PIPE)
        _, wstatus, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(wstatus)
        p.stderr.read()
        p.stderr.close()
    return p.returncode, time.monotonic() - start, usage.ru_maxrss / 1024.0


def median_of(argv, env, n=5):
    runs = [timed(argv, env) for _ in range(n)]
    if any(r[0] != 0 for r in runs):
        raise RuntimeError("%s exited %d" % (" ".join(argv), next(r[0] for r in runs if r[0] != 0)))
    return statistics.median(r[1] for r in runs), statistics.median(r[2] for r in runs)


def strip(doc):
    if isinstance(doc, dict):
        return {k: strip(v) for k, v in doc.items() if k not in DROP}
    if isinstance(doc, list):
        return [strip(v) for v in doc]
    return doc


def same_reports(a, b):
    """'' when the two JSON reports agree once timings are dropped, else what differs."""
    p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "reports", "compare_results.py"), "--fail-on-change", a, b],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if p.returncode != 0:
        return "compare_results.py --fail-on-change: " + p.stdout.strip().splitlines()[-1]
    with open(a) as fa, open(b) as fb:
        if strip(json.load(fa)) != strip(json.load(fb)):
            return "the JSON reports differ beyond timings"
    return ""


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], add_help=True)
    ap.add_argument("--runner", default=DEFAULT_RUNNER)
    ap.add_argument("--profiles", default="xe_hpc,xe_hpg")
    ap.add_argument("--jobs", default="1,2,4,8,%d" % len(os.sched_getaffinity(0)))
    ap.add_argument("--repeat", default="3")
    ap.add_argument("--json", dest="json_file")
    args = ap.parse_args(argv)
    if not args.repeat.isdigit() or not 1 <= int(args.repeat) <= 100:
        usage_error("--repeat %s: a number of runs in 1..100" % args.repeat)
    args.repeat = int(args.repeat)
    if not os.access(args.runner, os.X_OK):
        usage_error("--runner %s is not an executable file" % args.runner)
    try:
        args.jobs = sorted(set(int(j) for j in args.jobs.split(",")))
    except ValueError:
        usage_error("--jobs %s: expected numbers separated by commas" % args.jobs)
    if not args.jobs or min(args.jobs) < 1 or max(args.jobs) > 256:
        usage_error("--jobs: each value in 1..256")
    if 1 not in args.jobs:
        args.jobs.insert(0, 1)  # the speed-up is against --jobs=1
    args.profiles = [p for p in args.profiles.split(",") if p]
    if not args.profiles:
        usage_error("--profiles: at least one profile")
    if args.json_file:
        try:
            report_io.check_output(args.json_file)  # before minutes of runs, not after them
        except report_io.ReportError as e:
            usage_error("--json %s" % e)
    return args


def main(argv):
    args = parse_args(argv)
    runner = os.path.abspath(args.runner)
    out = {"machine": {"cores": len(os.sched_getaffinity(0)), "load_before": os.getloadavg()}, "profiles": {}}
    status = 0
    try:
        lat, mem = median_of([runner, ONE_CASE], clean_env())
        list_lat, _ = median_of([runner, "--list"], clean_env())
    except RuntimeError as e:
        sys.stderr.write("bench.py: error: %s\n" % e)
        return 1
    out["one_case"] = {"case": ONE_CASE, "seconds": lat, "peak_rss_mib": mem}
    out["list_seconds"] = list_lat
    print("one case (%s): %.3f s, peak RSS %.0f MiB; --list: %.3f s (medians of 5)" % (ONE_CASE, lat, mem, list_lat))
    with tempfile.TemporaryDirectory() as tmp:
        for profile in args.profiles:
            walls = {jobs: [] for jobs in args.jobs}
            cases = {}
            for rep in range(args.repeat):
                for jobs in args.jobs:
                    # The first round's reports are the ones compared below.
                    js = os.path.join(tmp, "%s.j%d%s.json" % (profile, jobs, "" if rep == 0 else ".again"))
                    rc, wall, _ = timed([runner, "--jobs=%d" % jobs, "--json=" + js], clean_env(profile))
                    if rc != 0:
                        sys.stderr.write("bench.py: error: %s --jobs=%d exited %d\n" % (profile, jobs, rc))
                        return 1
                    with open(js) as f:
                        cases[jobs] = len(json.load(f)["cases"])
                    walls[jobs].append(wall)
            rows = []
            for jobs in args.jobs:
                wall = statistics.median(walls[jobs])
                rows.append({"jobs": jobs, "seconds": wall, "runs": walls[jobs], "cases": cases[jobs],
                             "cases_per_second": cases[jobs] / wall})
            base = rows[0]["seconds"]
            for r in rows:
                r["speedup"] = base / r["seconds"]
            check = ""
            if 2 in args.jobs:
                check = same_reports(os.path.join(tmp, "%s.j1.json" % profile), os.path.join(tmp, "%s.j2.json" % profile))
                if check:
                    status = 1
            out["profiles"][profile] = {"runs": rows, "jobs2_vs_jobs1": check or "identical"}
            print("\n%s: whole default run (median of %d)" % (profile, args.repeat))
            print("  jobs   wall s   cases/s   speed-up")
            for r in rows:
                print("  %4d  %7.2f  %8.0f  %8.2fx" % (r["jobs"], r["seconds"], r["cases_per_second"], r["speedup"]))
            if 2 in args.jobs:
                print("  --jobs=2 vs --jobs=1 reports: %s" % (check or "identical once timings are dropped"))
    out["machine"]["load_after"] = os.getloadavg()
    print("\nload average before %.1f, after %.1f (1 min)" % (out["machine"]["load_before"][0],
                                                            out["machine"]["load_after"][0]))
    if args.json_file:
        try:
            report_io.write_output(args.json_file, json.dumps(out, indent=1))
        except report_io.ReportError as e:
            sys.stderr.write("bench.py: error: %s\n" % e)
            return 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
