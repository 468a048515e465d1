#!/usr/bin/env python3
"""Start-up benchmark of the runner (Python standard library only): the wall time and peak resident memory of
running one case, `--list` and `--list-tags`, and of selection by exact names: the whole `--list` read back as
a `--caselist-file` and (all but its last case) as an `--exclude-file`, and the api cases run with a waiver file
of 30,000 one-case entries; each the median of N runs (CPU time and peak RSS from os.wait4's rusage).
The targets (README, "Performance"): each under 50 ms and 30 MB on a 2-core machine. Prints figures; it asserts
nothing (a timed unit test would fail on a loaded machine).

usage: bench_startup.py [--build-dir DIR | --runner PATH] [--case NAME] [--runs N] [--json]
Exit status: 0, or 2 with one line on stderr for bad input (no runner, N < 1) or a run that failed.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: the import root
from reports import report_io  # noqa: E402  (printable paths)

DEFAULT_CASE = "subgroups.shuffle.i32.v1.sg16.index_0.wg_one.cf_some_lanes"


class BenchError(Exception):
    pass


def measure(argv, runs):
    """Median wall seconds, CPU seconds (user + system) and peak RSS (KiB) of `runs` runs of argv, its output
    discarded. The CPU time tells the program's own cost on a machine other work keeps busy."""
    walls, cpus, rss = [], [], []
    for _ in range(runs):
        start = time.monotonic()
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(p.pid, 0)
        walls.append(time.monotonic() - start)
        p.returncode = os.waitstatus_to_exitcode(status)
        err = p.stderr.read().decode("utf-8", "replace")
        p.stderr.close()
        if p.returncode != 0:
            first = (err.strip().splitlines() or ["no message"])[0]
            raise BenchError("%s exited %d: %s" % (" ".join(argv), p.returncode, first))
        cpus.append(usage.ru_utime + usage.ru_stime)
        rss.append(usage.ru_maxrss)  # KiB on Linux
    return statistics.median(walls), statistics.median(cpus), statistics.median(rss)


def write_selection_files(runner, all_txt, excl_txt, waivers):
    """The whole --list as a case list, all but its last name as an exclude file, and a waiver file of
    one-case entries for its first 30,000 names; returns how many names were listed. Written line by line: a
    run forked from this process counts its memory in the peak RSS (ru_maxrss covers the time before exec)."""
    with open(all_txt, "w") as f:
        subprocess.run([runner, "--list"], stdout=f, stderr=subprocess.DEVNULL, check=False)
    listed, previous = 0, None
    with open(all_txt) as listing, open(excl_txt, "w") as excl, open(waivers, "w") as w:
        w.write('{"waivers": [\n')
        for line in listing:
            name = line.split("#")[0].strip()
            if not name:
                continue
            if previous is not None:
                excl.write(previous + "\n")
            if listed < 30000:
                w.write("%s%s\n" % ("," if listed else "", json.dumps(
                    {"cases": [name], "device": {"platform": "RefDev*"}, "tracker": "T-%d" % listed,
                     "reason": "benchmark"})))
            previous, listed = name, listed + 1
        w.write("]}\n")
    return listed


def main(argv=None):
    ap = argparse.ArgumentParser(description="Start-up time and memory of spirv_intel_cts (median of N runs).")
    ap.add_argument("--build-dir", default="build", help="build directory holding bin/spirv_intel_cts")
    ap.add_argument("--runner", help="the runner to measure (default: BUILD_DIR/bin/spirv_intel_cts)")
    ap.add_argument("--case", default=DEFAULT_CASE, help="the one case to run (default %(default)s)")
    ap.add_argument("--runs", type=int, default=5, help="runs per measurement (default 5)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    runner = args.runner or os.path.join(args.build_dir, "bin", "spirv_intel_cts")
    try:
        if args.runs < 1:
            raise BenchError("--runs=%d: expected at least 1" % args.runs)
        if not (os.path.isfile(runner) and os.access(runner, os.X_OK)):
            raise BenchError("no runner at %s (build it, or pass --build-dir or --runner)" % runner)
        rows = []
        tmp = tempfile.TemporaryDirectory(prefix="bench_startup.")
        all_txt, excl_txt, waivers, report = (os.path.join(tmp.name, n)
                                              for n in ("all.txt", "excl.txt", "waivers.json", "r.json"))
        listed = write_selection_files(runner, all_txt, excl_txt, waivers)
        # One case in process (--jobs=1) and as a default run gives it: with more than one usable core the
        # default --jobs runs even one case in a worker, so that figure adds one worker start.
        for label, extra in (("one case", [args.case, "--jobs=1"]), ("one, worker", [args.case, "--jobs=2"]),
                             ("--list", ["--list"]), ("--list-tags", ["--list-tags"]),
                             ("caselist", ["--caselist-file=" + all_txt, "--list"]),
                             ("exclude", ["--exclude-file=" + excl_txt, "--list"]),
                             ("30k waivers", ["--jobs=1", "--waiver-file=" + waivers, "--json=" + report, "api"])):
            wall, cpu, rss = measure([runner] + extra, args.runs)
            rows.append({"what": label, "args": extra, "wall_ms": round(wall * 1000, 1),
                         "cpu_ms": round(cpu * 1000, 1), "peak_rss_mb": round(rss / 1024, 1)})
    except (BenchError, OSError) as e:
        print("bench_startup: error: %s" % report_io.printable(e), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"runner": runner, "runs": args.runs, "cpus": os.cpu_count(),
                          "load_average": os.getloadavg()[0], "listed": listed, "results": rows}, indent=1))
    else:
        print("start-up of %s, median of %d runs (%s cores, load average %.1f)" %
              (runner, args.runs, os.cpu_count(), os.getloadavg()[0]))
        print("selection by exact names: %d names (the whole --list); waivers: %d entries" %
              (listed, min(listed, 30000)))
        print("%-12s %10s %10s %14s" % ("what", "wall ms", "CPU ms", "peak RSS MB"))
        for r in rows:
            print("%-12s %10.1f %10.1f %14.1f" % (r["what"], r["wall_ms"], r["cpu_ms"], r["peak_rss_mb"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
