#!/usr/bin/env python3
"""End-to-end checks of --jobs (parallel worker processes): the reports of --jobs=2 are those of --jobs=1, a
planted crash costs only the cases that crash, and SIGINT/SIGTERM leave no worker and valid reports.

usage: jobs_e2e.py <check> <path to spirv_intel_cts> <build dir>
Exit 0 = pass, 1 = fail, 77 = skipped (CTest SKIP_RETURN_CODE) with the reason printed.
"""
import json
import os
import re
import signal
import subprocess
import sys

import runner_e2e as e2e
from runner_e2e import describe, expect, read_text, run

HERE = os.path.dirname(os.path.abspath(__file__))
COMPARE = os.path.join(HERE, "..", "..", "scripts", "reports", "compare_results.py")


def multi_module_cases_or_skip(runner, build, tmp, modules=6):
    """One passing case from each of `modules` modules, and the module-less (query) cases of one family: a
    selection that --jobs=2 spreads over both workers."""
    first = {}
    for c in e2e.refdev_manifest_cases_or_skip(build):
        if c.get("module") and "extended" not in c.get("tags", []):
            first.setdefault(c["module"], c["name"])
    candidates = sorted(first.values())[::7][:60]
    js = os.path.join(tmp, "candidates.json")
    caselist = os.path.join(tmp, "candidates.txt")
    with open(caselist, "w") as f:
        f.write("\n".join(candidates) + "\n")
    rc, out, err = run(runner, ["--jobs=1", "--caselist-file=" + caselist, "--json=" + js])
    passing = [c["name"] for c in json.load(open(js))["cases"] if c["status"] == "Pass"] if os.path.exists(js) else []
    if len(passing) < 2:
        print("skipped: fewer than 2 kernel cases pass on the clean reference device\n" + describe(rc, out, err))
        sys.exit(e2e.SKIP)
    return passing[:modules]


def strip_timings(doc):
    """A JSON report without what differs between two runs of the same cases: timings and the command."""
    if isinstance(doc, dict):
        return {k: strip_timings(v) for k, v in doc.items()
                if k not in ("duration_ms", "phases", "phase_totals", "command", "cmd")}
    if isinstance(doc, list):
        return [strip_timings(v) for v in doc]
    return doc


def first_difference(a, b, path="$"):
    """Where two JSON values first differ, for the failure message."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                return first_difference(a.get(k), b.get(k), path + "." + k)
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return first_difference(x, y, "%s[%d]" % (path, i))
    return "%s: %s != %s" % (path, json.dumps(a)[:300], json.dumps(b)[:300])


def strip_log(text):
    """The line log without timings and without --isolate's notes of the workers it started."""
    text = re.sub(r"\t[0-9.]+ ms\t", "\t", text)
    return "\n".join(l for l in text.splitlines() if not re.match(r"^(note\t)?worker \d+ for ", l))


def strip_junit(text):
    text = re.sub(r' time="[0-9.]+"', "", text)
    return re.sub(r'<property name="cmd" value="[^"]*"/>', "", text)


def run_reports(runner, tmp, tag, args, env=None):
    js, ju, log = (os.path.join(tmp, tag + ext) for ext in (".json", ".xml", ".log"))
    rc, out, err = run(runner, ["--json=" + js, "--junit=" + ju, "--log=" + log] + args, env, timeout=300)
    return rc, out, err, js, ju, log


def expect_same_reports(a, b, what):
    _, out_a, _, js_a, ju_a, log_a = a
    _, out_b, _, js_b, ju_b, log_b = b
    da, db = strip_timings(e2e.load_json_report(js_a, what)), strip_timings(e2e.load_json_report(js_b, what))
    expect(da == db, "%s: JSON reports differ beyond timings: %s" % (what, first_difference(da, db)))
    expect(strip_junit(read_text(ju_a)) == strip_junit(read_text(ju_b)), "%s: JUnit reports differ" % what)
    expect(strip_log(read_text(log_a)) == strip_log(read_text(log_b)),
           "%s: logs differ:\n%s\n---\n%s" % (what, read_text(log_a)[-1500:], read_text(log_b)[-1500:]))
    def summary(out):
        return [l for l in out.splitlines() if re.match(r"^\d+ passed|^  (core|device_specific):", l)]
    expect(summary(out_a) and summary(out_a) == summary(out_b), "%s: console summaries differ" % what)
    p = subprocess.run([sys.executable, COMPARE, "--fail-on-change", js_a, js_b], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    expect(p.returncode == 0, "%s: compare_results.py --fail-on-change: %d\n%s" % (what, p.returncode, p.stdout))


def check_identical(runner, build, tmp):
    """--jobs=2 and --jobs=1 on cases of several modules and a query family: the same reports but for timings,
    in the selection's order; --jobs=2 --shard and --filter compose."""
    cases = multi_module_cases_or_skip(runner, build, tmp) + ["api.*"]
    one = run_reports(runner, tmp, "j1", ["--jobs=1"] + cases)
    two = run_reports(runner, tmp, "j2", ["--jobs=2"] + cases)
    expect(one[0] == 0 and two[0] == 0, "clean runs exit 0\n" + describe(*one[:3]) + describe(*two[:3]))
    expect_same_reports(one, two, "--jobs=2 vs --jobs=1")
    names = [c["name"] for c in json.load(open(two[3]))["cases"]]
    expect(names == sorted(names), "cases in the selection order: %s" % names)
    for shard in ("0/2", "1/2"):
        a = run_reports(runner, tmp, "s1", ["--jobs=1", "--shard=" + shard] + cases)
        b = run_reports(runner, tmp, "s2", ["--jobs=2", "--shard=" + shard] + cases)
        expect_same_reports(a, b, "--shard=%s" % shard)


def check_crash(runner, build, tmp):
    """REFDEV_FAULTS=crash under --jobs=2: exactly the cases that crash under --isolate --jobs=1 are Crash, each
    costs only itself (the worker is replaced), every other case has its clean status."""
    cases = multi_module_cases_or_skip(runner, build, tmp) + ["api.*"]
    env = {"REFDEV_FAULTS": "crash"}
    clean = run_reports(runner, tmp, "clean", ["--jobs=2"] + cases)
    iso = run_reports(runner, tmp, "iso", ["--jobs=1", "--isolate"] + cases, env)
    par = run_reports(runner, tmp, "par", ["--jobs=2"] + cases, env)
    expect(par[0] == 1, "a crash fails the run\n" + describe(*par[:3]))
    expect_same_reports(iso, par, "crash: --jobs=2 vs --isolate --jobs=1")
    before = {c["name"]: c["status"] for c in json.load(open(clean[3]))["cases"]}
    after = {c["name"]: c["status"] for c in json.load(open(par[3]))["cases"]}
    expect(set(before) == set(after), "the same cases recorded")
    crashed = [n for n in after if after[n] == "Crash"]
    expect(len(crashed) >= 2, "kernel cases of several modules crash: %s" % after)
    changed = [n for n in after if after[n] != before[n]]
    expect(changed == crashed, "only the crashing cases changed: %s" % changed)
    expect(all(before[n] == "Pass" for n in crashed), "they passed without the fault")
    expect(any(s == "Pass" for s in after.values()), "the query cases still pass: %s" % after)


def check_interrupt(runner, build, tmp):
    """SIGINT / SIGTERM while both workers hang in a kernel: the runner ends by the signal, no worker survives,
    and the JSON/JUnit reports are valid, marked interrupted, with every selected case recorded or not run."""
    cases = multi_module_cases_or_skip(runner, build, tmp)
    for sig in (signal.SIGINT, signal.SIGTERM):
        name = sig.name
        p, js, ju, out, err = e2e.start_hanging_run(runner, tmp, cases, ["--jobs=2"], "jobs_" + name)
        workers = []
        try:
            workers = e2e.wait_for(lambda: len(e2e.children(p.pid)) >= 2 and e2e.children(p.pid), 30)
            expect(workers and len(workers) >= 2, "%s: two worker processes expected: %s" % (name, workers))
            e2e.wait_for(lambda: read_text(err).count("fault 'hang'") >= 2, 30)
            rc = e2e.end_by(p, sig, name)
            expect(rc == -sig, "%s: the runner should end by the signal, got %d\n%s" % (name, rc, read_text(out)))
            gone = e2e.wait_for(lambda: not any(e2e.process_alive(w) for w in workers), 10)
            expect(gone, "%s: worker(s) %s survived the runner" % (name, [w for w in workers
                                                                         if e2e.process_alive(w)]))
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
            e2e.kill_left(workers)
        e2e.check_not_run_report(js, ju, cases, name, name)
        expect("interrupted by " + name in read_text(out), "%s: message\n%s" % (name, read_text(out)))
    expect(not e2e.temp_leftovers(tmp), "temporary files left: %s" % e2e.temp_leftovers(tmp))


def check_options(runner, build, tmp):
    """--jobs takes 1..256; anything else is one clear line on stderr and exit 2."""
    for bad in ("--jobs=0", "--jobs=257", "--jobs=x", "--jobs=-1", "--jobs="):
        e2e.usage_error(runner, [bad], ["--jobs"])
    rc, out, err = run(runner, ["--help"])
    expect(rc == 0 and "--jobs=N" in out, "--help documents --jobs\n" + describe(rc, out, err))


CHECKS = {"identical": check_identical, "crash": check_crash, "interrupt": check_interrupt,
          "options": check_options}

if __name__ == "__main__":
    sys.exit(e2e.main(CHECKS, __doc__))
