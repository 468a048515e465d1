#!/usr/bin/env python3
"""End-to-end checks of how a run executes and ends under careless or hostile use (issue 30): --rerun-failed of
a --retry report, of a report written for another suite or manifest; isolation of --jobs=N on any selection;
signals that end a run; a timeout between cases.

usage: exec_e2e.py <check> <path to spirv_intel_cts> <build dir>
Exit 0 = pass, 1 = fail, 77 = skipped (CTest SKIP_RETURN_CODE) with the reason printed.
"""
import json
import os
import signal
import subprocess
import sys

import retry_e2e
import runner_e2e as e2e
from runner_e2e import describe, expect, load_json_report, read_text, run

HERE = os.path.dirname(os.path.abspath(__file__))
MERGE = os.path.join(HERE, "..", "..", "scripts", "reports", "merge_results.py")


def check_rerun_flake(runner, build, tmp):
    """A --retry report holds Flake cases; --rerun-failed took it for "not a --json report" (exit 2). It reruns
    exactly the failures (a Flake passed), of the runner's report and of a merged one; a Flake-only report has
    nothing to rerun."""
    caselist, names, flaky = retry_e2e.selection_or_skip(runner, build, tmp)
    # flaky_first_launch makes the flaky kernels Flake under --retry; shuffle_index_masked fails this shuffle.
    with open(caselist, "a") as f:
        f.write("subgroups.shuffle.i32.v1.sg16.index_varying.wg_one.cf_all\n")
    js = os.path.join(tmp, "retry.json")
    rc, out, err = run(runner, ["--caselist-file=" + caselist, "--jobs=1", "--retry=1", "--json=" + js],
                       {"REFDEV_FAULTS": "flaky_first_launch,shuffle_index_masked"})
    doc = load_json_report(js, "--retry run")
    statuses = {c["name"]: c["status"] for c in doc["cases"]}
    failed = sorted(n for n, s in statuses.items() if s == "Fail")
    expect("Flake" in statuses.values() and failed, "the --retry run should hold Flake and Fail cases: %s\n%s"
           % (statuses, describe(rc, out, err)))
    again = os.path.join(tmp, "again.json")
    rc, out, err = run(runner, ["--rerun-failed=" + js, "--json=" + again])
    expect(rc == 0, "--rerun-failed of a report with Flake cases\n" + describe(rc, out, err))
    expect(sorted(c["name"] for c in load_json_report(again, "rerun")["cases"]) == failed,
           "the rerun should run exactly the Fail cases %s" % failed)
    # The same report through merge_results.py (one shard).
    merged = os.path.join(tmp, "merged.json")
    p = subprocess.run([sys.executable, MERGE, js, "-o", merged], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    expect(p.returncode == 0, "merge_results.py: %d %s" % (p.returncode, p.stderr))
    rc, out, err = run(runner, ["--rerun-failed=" + merged, "--json=" + again])
    expect(rc == 0 and sorted(c["name"] for c in load_json_report(again, "rerun")["cases"]) == failed,
           "--rerun-failed of a merged report with Flake cases\n" + describe(rc, out, err))
    # Only Flake and Pass: nothing to rerun, said as such (exit 2 as for any report without failures).
    flake_only = os.path.join(tmp, "flake_only.json")
    rc, out, err = run(runner, ["--caselist-file=" + caselist, "--jobs=1", "--retry=1", "--json=" + flake_only],
                       {"REFDEV_FAULTS": "flaky_first_launch"})
    expect(rc == 0 and "Flake" in json.dumps(load_json_report(flake_only, "flake run")["cases"]),
           "flake-only run\n" + describe(rc, out, err))
    e2e.usage_error(runner, ["--rerun-failed=" + flake_only], ["has nothing to rerun", "as Flake"])


def check_rerun_other_suite(runner, build, tmp):
    """--rerun-failed of a report written by another suite version or for another manifest ran without a word:
    it runs (a fix is checked against a newer suite that way) and says so on stderr."""
    caselist, names, flaky = retry_e2e.selection_or_skip(runner, build, tmp)
    js = os.path.join(tmp, "fail.json")
    rc, out, err = run(runner, ["--caselist-file=" + caselist, "--jobs=1", "--json=" + js],
                       {"REFDEV_FAULTS": "flaky_first_launch"})
    doc = load_json_report(js, "fault run")
    expect(rc == 1, "the fault run should fail some cases\n" + describe(rc, out, err))
    rc, out, err = run(runner, ["--rerun-failed=" + js])
    expect(rc == 0 and "--rerun-failed:" not in err, "same suite and manifest: no note\n" + describe(rc, out, err))
    for key, value, words in (("suite_version", "0.0.1", ["suite version 0.0.1"]),
                              ("manifest_sha256", "ab" * 32, ["another manifest", "abababababab"])):
        other = dict(doc, selection=dict(doc["selection"], **{key: value}))
        path = os.path.join(tmp, key + ".json")
        with open(path, "w") as f:
            json.dump(other, f)
        rc, out, err = run(runner, ["--rerun-failed=" + path])
        expect(rc == 0, "%s differs: the rerun runs\n%s" % (key, describe(rc, out, err)))
        note = [l for l in err.splitlines() if "note: --rerun-failed: " + path in l]
        expect(len(note) == 1 and all(w in note[0] for w in words + ["rerun by name"]),
               "%s differs: one note naming it on stderr\n%s" % (key, describe(rc, out, err)))


def descendants(pid):
    """Every process below pid (children, their children, ...)."""
    out, todo = [], [pid]
    while todo:
        kids = e2e.children(todo.pop())
        out += kids
        todo += kids
    return out


def check_hangup_quit(runner, build, tmp):
    """SIGHUP (an ssh disconnect) and SIGQUIT ended a run without a report; like SIGINT and SIGTERM they write
    the reports of what finished, marked aborted, stop the workers, and end the runner by the signal."""
    cases = e2e.kernel_cases_or_skip(runner, build, tmp)
    for sig in (signal.SIGHUP, signal.SIGQUIT):
        for mode in ([], ["--isolate"]):
            what = "%s %s" % (sig.name, " ".join(mode) or "in process")
            tag = "%s_%d" % (sig.name, len(mode))
            p, js, ju, out, err = e2e.start_hanging_run(runner, tmp, cases, mode, tag)
            below = e2e.wait_for(lambda: descendants(p.pid), 10) if mode else []
            try:
                rc = e2e.end_by(p, sig, what)
                expect(rc == -sig, "%s: the runner should end by the signal, got %d\n%s" % (what, rc, read_text(out)))
                e2e.check_not_run_report(js, ju, cases, sig.name, what)
                expect("interrupted by " + sig.name in read_text(out), "%s: message\n%s" % (what, read_text(out)))
                expect(e2e.wait_for(lambda: not any(e2e.process_alive(w) for w in below), 10),
                       "%s: worker(s) left running" % what)
            finally:
                e2e.kill_left(below)
    expect(not e2e.temp_leftovers(tmp), "temporary files left: %s" % e2e.temp_leftovers(tmp))


def check_offline_signal_children(runner, build, tmp):
    """--offline-compiler: SIGTERM (and SIGHUP) while the compiler runs left the compiler's own children running
    (the parent-death signal reaches only the direct child); now its process group is stopped with the run."""
    e2e.manifest_or_skip(build)
    ocloc, target, log = e2e.fake_offline_compiler(tmp)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        js = os.path.join(tmp, sig.name + ".json")
        with open(os.path.join(tmp, sig.name + ".out"), "w") as o:
            # The fake compiler hangs on this module in "sleep 60 & sleep 60": a child and a grandchild.
            p = subprocess.Popen([runner, "--offline-compiler=" + ocloc, "--target=" + target, "--timeout=100",
                                  "--json=" + js, "subgroups.block_read.u32.v4.sg16.*"], env=e2e.clean_env(),
                                 stdout=o, stderr=subprocess.STDOUT)
        below = []
        try:
            below = e2e.wait_for(lambda: len(descendants(p.pid)) >= 3 and descendants(p.pid), 30) or []
            expect(len(below) >= 3, "%s: the fake compiler did not start its children: %s" % (sig.name, below))
            rc = e2e.end_by(p, sig, sig.name)
            expect(rc == -sig, "%s: the runner should end by the signal, got %d" % (sig.name, rc))
            left = e2e.wait_for(lambda: not any(e2e.process_alive(c) for c in below), 10)
            expect(left, "%s: the compiler's processes %s still run after the runner ended" % (
                sig.name, [c for c in below if e2e.process_alive(c)]))
            doc = load_json_report(js, sig.name)
            expect(doc.get("aborted") == sig.name, "%s: report aborted %r" % (sig.name, doc.get("aborted")))
        finally:
            e2e.kill_left(below)


def check_jobs_one_module(runner, build, tmp):
    """--jobs=2 on a one-module selection ran in process: a planted crash killed the runner by SIGSEGV and no
    report was written. Now N > 1 isolates any selection: each case is a Crash, the report is written, exit 1."""
    e2e.kernel_cases_or_skip(runner, build, tmp)
    pattern = "subgroups.shuffle.i32.v1.sg16.index_0.*"
    names = e2e.list_names(runner, [], [pattern])
    expect(len(names) > 1, "the pattern selects several cases of one module: %s" % names)
    for jobs in ("--jobs=2", "--jobs=3"):
        js = os.path.join(tmp, "one.json")
        rc, out, err = run(runner, [pattern, jobs, "--json=" + js], {"REFDEV_FAULTS": "crash"})
        expect(rc == 1, "%s: exit %d, expected 1 (crashes recorded)\n%s" % (jobs, rc, describe(rc, out, err)))
        doc = load_json_report(js, jobs)
        got = {c["name"]: c["status"] for c in doc["cases"]}
        expect(got == {n: "Crash" for n in names}, "%s: every case a Crash: %s" % (jobs, got))
        expect(not doc["not_run"] and not doc["aborted"], "%s: a complete run: %r" % (jobs, doc["aborted"]))


def check_timeout_in_process(runner, build, tmp):
    """An in-process --timeout that fires while the case still runs aborted the runner now and then
    (std::bad_alloc, exit 134, no report, the earlier --json left in place): the abandoned case thread read the
    settings of a scope that had ended, and the runner's teardown destroyed the device under it. Every run must
    end with exit 1 and a fresh report marked aborted by the timeout."""
    e2e.kernel_cases_or_skip(runner, build, tmp)
    js = os.path.join(tmp, "prev.json")
    timed_out = 0
    for i in range(20):
        with open(js, "w") as f:
            f.write("earlier report\n")
        rc, out, err = run(runner, ["subgroups.shuffle.i32.v1.sg16", "--jobs=1", "--timeout=0.0001", "--json=" + js])
        # On a loaded machine the timer thread may wake only after a case has finished: then that case counts
        # as finished in time, and a run whose every case did so passes (exit 0). Either way no abort, and a
        # fresh report.
        expect(rc in (0, 1) and "terminate" not in err,
               "run %d: exit %d, expected 1 (or 0)\n%s" % (i, rc, describe(rc, out, err)))
        doc = load_json_report(js, "run %d" % i)
        if rc == 1:
            timed_out += 1
            expect(doc.get("aborted") == "timeout" and doc["cases"][-1]["status"] == "Timeout",
                   "run %d: aborted %r" % (i, doc.get("aborted")))
        else:
            expect(not doc.get("aborted") and doc["cases"], "run %d: exit 0 but aborted %r" % (i, doc.get("aborted")))
    expect(timed_out > 0, "no run of 20 timed out: the in-process timeout path was never taken")


def check_list_broken_assets(runner, build, tmp):
    """A corrupt case index with --list api printed the error, then listed the C++ cases anyway (docs: nothing is
    listed), and with a manifest pattern a bogus "matches no case"; --assets-dir naming no assets directory read
    "the whole manifest", ran the C++ cases and exited 1 instead of one usage error up front."""
    assets = os.path.join(build, "assets")
    if not os.path.exists(os.path.join(assets, "manifest.index")):
        print("skipped: no %s/manifest.index" % assets)
        sys.exit(e2e.SKIP)
    d = os.path.join(tmp, "assets")
    os.makedirs(d)
    for name in ("manifest.json", "manifest.sha256", "manifest.index"):
        with open(os.path.join(assets, name), "rb") as f, open(os.path.join(d, name), "wb") as g:
            data = bytearray(f.read())
            if name == "manifest.index":
                data[len(data) // 2] ^= 1  # one flipped bit: the CRC-32 no longer matches
            g.write(data)
    for args in (["--list", "api"], ["--list"], ["--list", "subgroups.shuffle"], ["--list", "--json", "api"],
                 ["--list-tags"]):
        rc, out, err = run(runner, ["--assets-dir=" + d] + args)
        what = "corrupt index, %s\n%s" % (" ".join(args), describe(rc, out, err))
        lines = err.strip().splitlines()
        expect(rc == 1 and out == "", "exit 1 and nothing listed: " + what)
        expect(len(lines) == 1 and "internal error: case index" in lines[0] and "is corrupt" in lines[0],
               "one error line: " + what)
    # A run whose pattern names manifest cases: the one error (no "matches no case" beside it), and its report
    # is written, saying what broke, in place of an earlier one at the path.
    report = os.path.join(tmp, "broken.json")
    with open(report, "w") as f:
        f.write('{"old": 1}')
    for jobs in ("--jobs=1", "--jobs=2"):
        rc, out, err = run(runner, ["--assets-dir=" + d, "subgroups.shuffle.i32.v1.sg16.index_0.*", jobs,
                                    "--json=" + report])
        what = "corrupt index, a run of a manifest pattern, %s\n%s" % (jobs, describe(rc, out, err))
        expect(rc == 1 and "matches no case" not in err + out, "exit 1, no 'matches no case': " + what)
        with open(report) as f:
            doc = json.load(f)
        expect("old" not in doc and any("is corrupt" in e for e in doc.get("errors", [])) and not doc["cases"],
               "the report says what broke and lists no case: " + what)
    for bad, words in (("/nonexistent_wtexec", "No such file or directory"), (tmp, "holds no manifest.json"),
                       (os.path.join(d, "manifest.json"), "not a directory")):
        for args in (["api"], ["--list"], ["--jobs=2", "subgroups.shuffle"]):
            e2e.usage_error(runner, ["--assets-dir=" + bad] + args, ["--assets-dir=" + bad, words])


CHECKS = {n[len("check_"):]: f for n, f in globals().items() if n.startswith("check_")}

if __name__ == "__main__":
    sys.exit(e2e.main(CHECKS, __doc__))
