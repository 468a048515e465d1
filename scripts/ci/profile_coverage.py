#!/usr/bin/env python3
"""Every case passes on at least one reference-device profile, and none fails on any.

The reference device is the suite's own witness: a case that no profile can run has never been shown to pass
on a correct device, and no planted fault has ever been shown to fail it. This check runs the runner once per
profile (REFDEV_PROFILE=P, --jobs), or reads reports an earlier step wrote, and compares the union of the
passes with the list of cases the suite has (`--list`, with the same selection options).

  profile_coverage.py [--runner PATH] [--profiles xe_hpc,xe_hpg,...] [--jobs N] [--extended]
                      [--runner-arg ARG]... [--reports DIR] [--exempt FILE] [--json OUT]

--extended     also the --extended and --huge cases (runs and list alike)
--runner-arg   a selection option for the runs and the list alike (e.g. --quick, --tier=core), repeatable
--reports DIR  read DIR/results_<profile>.json instead of running (scripts/ci_tests.sh's reports); the
               list is still the runner's
--exempt FILE  cases allowed to pass nowhere, each with its reason (default:
               test_conformance/profile_coverage_exempt.json: {"exempt": [{"pattern": ..., "reason": ...}]},
               patterns as the runner's, with * and ?). An entry that matches no never-passing case is stale
               and an error, so the list cannot outlive its reason.

Prints per profile the pass, NotSupported and other counts and the run time, then the cases that pass
nowhere (grouped by the NotSupported reason one profile gave), the cases that failed anywhere and the stale
exemptions. Exit 0 when every listed case passes somewhere (or is exempt) and nothing failed, 1 otherwise,
2 for bad input.
"""

import argparse
import collections
import fnmatch
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: the import root
from reports import report_io  # noqa: E402

PROFILES = ["xe_hpc", "xe_hpg", "xe2", "xe3", "xe_lpg", "cpu"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_EXEMPT = os.path.join(ROOT, "test_conformance", "profile_coverage_exempt.json")
FAILING = ("Fail", "InternalError", "Crash", "Timeout")


def die(message):
    print(f"profile_coverage: {message}", file=sys.stderr)
    sys.exit(2)


def runner_env(profile):
    env = dict(os.environ, REFDEV_PROFILE=profile)
    for name in ("REFDEV_FAULTS", "REFDEV_REPORT_AS"):
        env.pop(name, None)
    return env


def listed_cases(runner, selection):
    cmd = [runner, "--list"] + selection
    r = subprocess.run(cmd, capture_output=True, text=True, env=runner_env(PROFILES[0]), check=False)
    if r.returncode != 0:
        die(f"{' '.join(cmd)} exited {r.returncode}: {r.stderr.strip()[:300]}")
    # "name  # tier" per line
    cases = [line.split()[0] for line in r.stdout.splitlines() if line.strip() and not line.startswith("#")]
    if not cases:
        die(f"{' '.join(cmd)} listed no case")
    return cases


def run_profile(runner, profile, jobs, selection, out_dir):
    path = os.path.join(out_dir, f"results_{profile}.json")
    cmd = [runner, f"--jobs={jobs}", f"--json={path}"] + selection
    start = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True, env=runner_env(profile), check=False)
    seconds = time.monotonic() - start
    if not os.path.exists(path):
        die(f"REFDEV_PROFILE={profile} {' '.join(cmd)} wrote no report (exit {r.returncode}): "
            f"{(r.stderr or r.stdout).strip()[-300:]}")
    return path, seconds


def load_exemptions(path):
    doc = report_io.load_json(path, "exemption file")
    entries = doc.get("exempt") if isinstance(doc, dict) else None
    if not isinstance(entries, list):
        die(f"{path}: expected {{\"exempt\": [{{\"pattern\": ..., \"reason\": ...}}]}}")
    out = []
    for i, e in enumerate(entries):
        if not (isinstance(e, dict) and isinstance(e.get("pattern"), str) and e["pattern"].strip()
                and isinstance(e.get("reason"), str) and e["reason"].strip()):
            die(f"{path}: entry {i} needs a non-empty \"pattern\" and a non-empty \"reason\"")
        out.append((e["pattern"], e["reason"]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runner", default=os.path.join(ROOT, "build", "bin", "spirv_intel_cts"))
    ap.add_argument("--profiles", default=",".join(PROFILES))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--extended", action="store_true")
    ap.add_argument("--runner-arg", action="append", default=[])
    ap.add_argument("--reports")
    ap.add_argument("--exempt", default=DEFAULT_EXEMPT)
    ap.add_argument("--json")
    args = ap.parse_args()
    profiles = [p for p in args.profiles.split(",") if p]
    if not profiles or len(set(profiles)) != len(profiles):
        die("--profiles: a comma-separated list of distinct profile names")
    if args.jobs < 1:
        die("--jobs: at least 1")
    if not os.access(args.runner, os.X_OK):
        die(f"--runner: {args.runner} is not an executable (build first)")
    if args.json:
        report_io.check_output(args.json)
    exemptions = load_exemptions(args.exempt)

    selection = (["--extended", "--huge"] if args.extended else []) + args.runner_arg
    cases = listed_cases(args.runner, selection)
    passed_on = collections.defaultdict(list)
    failed = []  # (case, profile, status, message)
    reason_of = {}  # case -> "profile: message" of its first non-pass
    rows = []
    with tempfile.TemporaryDirectory(prefix="profile_coverage.") as tmp:
        for profile in profiles:
            if args.reports:
                path, seconds = os.path.join(args.reports, f"results_{profile}.json"), None
            else:
                path, seconds = run_profile(args.runner, profile, args.jobs, selection, tmp)
            report = report_io.load_report(path)
            if report.get("aborted"):
                die(f"{path}: the run on {profile} was aborted ({report.get('aborted')})")
            counts = collections.Counter()
            for c in report["cases"]:
                status = c["status"]
                counts[status] += 1
                if status in ("Pass", "Flake"):
                    passed_on[c["name"]].append(profile)
                elif status in FAILING:
                    failed.append((c["name"], profile, status, c.get("message", "")))
                else:
                    reason_of.setdefault(c["name"], f"{profile}: {status}: {c.get('message', '')}")
            rows.append((profile, counts, seconds))

    print(f"{'profile':8} {'pass':>7} {'NotSupp':>7} {'other':>6} {'time':>8}")
    for profile, counts, seconds in rows:
        other = sum(counts.values()) - counts["Pass"] - counts["Flake"] - counts["NotSupported"]
        shown = f"{seconds:7.1f}s" if seconds is not None else "  (read)"
        print(f"{profile:8} {counts['Pass'] + counts['Flake']:7} {counts['NotSupported']:7} {other:6} {shown}")

    never = [c for c in cases if c not in passed_on]
    used = set()
    unexempt = []
    for case in never:
        hit = next((p for p, _ in exemptions if fnmatch.fnmatchcase(case, p)), None)
        if hit is None:
            unexempt.append(case)
        else:
            used.add(hit)
    stale = [p for p, _ in exemptions if p not in used]
    print(f"{len(cases)} cases listed; {len(cases) - len(never)} pass on some profile; "
          f"{len(never) - len(unexempt)} exempt; {len(unexempt)} pass nowhere; {len(failed)} failures")
    if unexempt:
        groups = collections.defaultdict(list)
        for case in unexempt:
            groups[reason_of.get(case, "(not run on any profile)")].append(case)
        print("Cases no profile passes (add the missing support, or an exemption with its reason):")
        for reason, names in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            print(f"  {len(names):6} {report_io.printable(reason)[:160]}")
            for name in names[:3]:
                print(f"           {name}")
    for case, profile, status, message in failed[:20]:
        print(f"FAILED on {profile}: {case}: {status}: {report_io.printable(message)[:160]}")
    for pattern in stale:
        print(f"stale exemption (matches no case that passes nowhere): {pattern}")
    if args.json:
        doc = {"profiles": {p: dict(c) for p, c, _ in rows}, "listed": len(cases),
               "pass_nowhere": unexempt, "failed": [list(f) for f in failed], "stale_exemptions": stale}
        report_io.write_output(args.json, json.dumps(doc, indent=1) + "\n")
    return 1 if unexempt or failed or stale else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except report_io.ReportError as e:
        die(str(e))
