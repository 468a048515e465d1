#!/usr/bin/env python3
"""Where a run's time goes: runs spirv_intel_cts once for each --mode (runner options, e.g. --jobs=1, --jobs=2,
--isolate) on the selected cases and prints, per mode, the wall time, the case count and the report's
"phase_totals" (program builds, kernel launches, host checking, worker start-up; the sums over every case, so
with --jobs they can exceed the wall time) as a table.

usage: bench_phases.py [--runner PATH] [--icd FILE] [--mode OPTIONS]... [--json FILE] [PATTERN...]

The device is the build's reference device unless --icd names an .icd file (Intel's OpenCL CPU runtime:
scripts/setup/install_intel_cpu_runtime.sh --print-icd). Without a pattern the whole default selection runs. Each
--mode is one string of runner options (split as a shell would); without --mode one run with none. A runner
exit status of 0 or 1 (cases failed) is a measurement; anything else, or no report, is an error.

Exit status: 0 measured, 1 a run failed, 2 bad usage (one line on stderr). Standard library only.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: the import root
from reports import report_io  # noqa: E402  (the checked report loader, safe outputs)
from bench.bench import DEFAULT_RUNNER, clean_env  # noqa: E402

COLUMNS = ("build_ms", "builds", "cache_hits", "kernel_ms", "check_ms", "worker_start_ms")


def usage_error(what):
    sys.stderr.write("bench_phases.py: error: %s\n" % what)
    sys.exit(2)


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runner", default=DEFAULT_RUNNER)
    ap.add_argument("--icd", help="an .icd file: run on that driver instead of the reference device")
    ap.add_argument("--mode", action="append", default=None,
                    help="runner options for one run, e.g. --mode=--jobs=2 (repeatable)")
    ap.add_argument("--json", dest="json_file", help="also write the measurements as JSON")
    ap.add_argument("patterns", nargs="*")
    args = ap.parse_args(argv)
    if not os.access(args.runner, os.X_OK):
        usage_error("--runner %s is not an executable file" % args.runner)
    if args.icd is not None and not os.path.isfile(args.icd):
        usage_error("--icd %s: no such file" % args.icd)
    try:
        args.modes = [shlex.split(m) for m in (args.mode or [""])]
    except ValueError as e:
        usage_error("--mode: %s" % e)
    for words in args.modes:
        for w in words:
            if w.startswith(("--json", "--icd")):
                usage_error("--mode %s: the script sets --json and --icd itself" % w)
    if args.json_file:
        try:
            report_io.check_output(args.json_file)  # before the runs, not after them
        except report_io.ReportError as e:
            usage_error("--json %s" % e)
    return args


def measure(runner, icd, patterns, mode, report):
    """Runs one mode; returns {"mode", "wall_s", "cases", "device", "phase_totals"} or raises RuntimeError."""
    argv = [runner] + mode + ["--json=" + report] + (["--icd=" + icd] if icd else []) + patterns
    start = time.monotonic()
    p = subprocess.run(argv, env=clean_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       universal_newlines=True, errors="replace")
    wall = time.monotonic() - start
    if p.returncode not in (0, 1) or not os.path.exists(report):
        last = (p.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise RuntimeError("%s exited %d: %s" % (" ".join(shlex.quote(a) for a in argv), p.returncode, last))
    try:
        doc = report_io.load_report(report)
    except report_io.ReportError as e:
        raise RuntimeError(str(e))
    if "phase_totals" not in doc:
        raise RuntimeError("%s: no \"phase_totals\" (a runner older than the phase times)" % report)
    return {"mode": " ".join(mode) or "(default)", "wall_s": wall, "cases": len(doc["cases"]),
            "device": doc.get("device", ""), "phase_totals": doc["phase_totals"]}


def table(rows):
    """The measurements as a text table, one row a mode."""
    width = max([len("mode")] + [len(r["mode"]) for r in rows])
    head = "%-*s  %8s  %6s  %8s  %6s  %7s  %8s  %8s  %8s" % (
        width, "mode", "wall s", "cases", "build s", "built", "cached", "kernel s", "check s", "start s")
    lines = [head]
    for r in rows:
        t = r["phase_totals"]
        lines.append("%-*s  %8.2f  %6d  %8.2f  %6d  %7d  %8.2f  %8.2f  %8.2f" % (
            width, r["mode"], r["wall_s"], r["cases"], t["build_ms"] / 1000, t["builds"], t["cache_hits"],
            t["kernel_ms"] / 1000, t["check_ms"] / 1000, t["worker_start_ms"] / 1000))
    return "\n".join(lines)


def main(argv):
    args = parse_args(argv)
    runner = os.path.abspath(args.runner)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, mode in enumerate(args.modes):
            try:
                rows.append(measure(runner, args.icd, args.patterns, mode, os.path.join(tmp, "%d.json" % i)))
            except RuntimeError as e:
                sys.stderr.write("bench_phases.py: error: %s\n" % report_io.printable(str(e)))
                return 1
    print(report_io.printable("device: %s (%s); selection: %s" % (
        rows[0]["device"], "--icd=" + args.icd if args.icd else "reference device",
        " ".join(args.patterns) or "the default")))
    print(table(rows))
    if args.json_file:
        out = {"icd": args.icd, "patterns": args.patterns, "runs": rows}
        try:
            report_io.write_output(args.json_file, json.dumps(out, indent=1) + "\n")
        except report_io.ReportError as e:
            sys.stderr.write("bench_phases.py: error: %s\n" % e)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
