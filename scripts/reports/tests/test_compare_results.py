"""Tests of scripts/reports/compare_results.py on reports shaped like the runner's --json output."""

import os
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR, TempFiles
from reports.tests.test_merge_results import SELECTION, runner_shard, shard

COMPARE = os.path.join(SCRIPTS_DIR, "reports/compare_results.py")


class CompareResultsTest(TempFiles, unittest.TestCase):
    def compare(self, base, new, *args):
        p = subprocess.run([sys.executable, COMPARE, self.write("base.json", base), self.write("new.json", new)] +
                           list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        return p.returncode, p.stdout, p.stderr

    def section(self, out, title):
        """Case lines printed under the section whose title starts with `title`."""
        lines = out.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith(title))
        rows = []
        for line in lines[start + 1:]:
            if not line.startswith("  "):
                break
            rows.append(line.split()[0])
        return rows

    def test_identical_reports_have_no_change_and_exit_0(self):
        doc = shard([("a.x", "Pass"), ("a.y", "NotSupported"), ("a.z", "Fail")])
        rc, out, _ = self.compare(doc, doc)
        self.assertEqual(rc, 0, out)
        self.assertIn("Regressions (Pass -> not Pass, or anything -> Fail/Crash/Timeout/InternalError): 0", out)
        self.assertIn("no regression", out)

    def test_phase_times_are_no_change(self):
        # Timing is not a verdict: cases whose "phases" and run totals differ, statuses equal, compare as unchanged.
        base = shard([("a.x", "Pass"), ("a.y", "Fail")])
        new = shard([("a.x", "Pass"), ("a.y", "Fail")])
        for doc, ms in ((base, 1.0), (new, 900.0)):
            for c in doc["cases"]:
                c["phases"] = {"build_ms": ms, "builds": 1, "cache_hits": 0, "kernel_ms": ms, "check_ms": ms,
                               "worker_start_ms": ms}
            doc["phase_totals"] = dict(doc["cases"][0]["phases"], build_ms=2 * ms)
        rc, out, err = self.compare(base, new, "--fail-on-change")
        self.assertEqual(rc, 0, out + err)
        self.assertIn("Regressions (Pass -> not Pass, or anything -> Fail/Crash/Timeout/InternalError): 0", out)

    def test_pass_to_flake_regresses_unless_allowed(self):
        base = shard([("a.flaky", "Pass"), ("a.fixed", "Flake"), ("a.still", "Flake")])
        new = shard([("a.flaky", "Flake"), ("a.fixed", "Pass"), ("a.still", "Flake")])
        rc, out, err = self.compare(base, new)
        self.assertEqual(rc, 1, out + err)
        self.assertEqual(self.section(out, "Regressions"), ["a.flaky"])
        self.assertEqual(self.section(out, "Fixes"), ["a.fixed"])
        rc, out, err = self.compare(base, new, "--allow=Pass:Flake")
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(self.section(out, "Allowed changes"), ["a.flaky"])

    def test_each_kind_of_change_lands_in_its_section(self):
        base = shard([("r.fail", "Pass"), ("r.crash", "Pass"), ("r.timeout", "Pass"), ("r.internal", "Pass"),
                      ("f.fixed", "Fail"), ("c.changed", "Fail"), ("w.waived", "Pass"), ("n.gone", "Pass"),
                      ("n.back", "NotSupported"), ("x.removed", "Pass"), ("s.same", "Pass")])
        new = shard([("r.fail", "Fail"), ("r.crash", "Crash"), ("r.timeout", "Timeout"),
                     ("r.internal", "InternalError"), ("f.fixed", "Pass"), ("c.changed", "Crash"),
                     ("w.waived", "Waived"), ("n.gone", "NotSupported"), ("n.back", "Pass"), ("y.added", "Pass"),
                     ("s.same", "Pass")])
        rc, out, _ = self.compare(base, new)
        self.assertEqual(rc, 1, out)
        # A case that passed and is gone, or NotSupported now, is lost coverage: a regression too; so is
        # Fail -> Crash (a case going to Crash from anything).
        self.assertEqual(self.section(out, "Regressions"), ["c.changed", "n.gone", "r.crash", "r.fail", "r.internal",
                                                            "r.timeout", "x.removed"])
        self.assertEqual(self.section(out, "Fixes"), ["f.fixed"])
        self.assertEqual(self.section(out, "Other status changes"), [])
        self.assertEqual(self.section(out, "Newly waived"), ["w.waived"])
        self.assertEqual(self.section(out, "NotSupported changes"), ["n.back"])
        self.assertEqual(self.section(out, "Cases added"), ["y.added"])
        self.assertEqual(self.section(out, "Cases removed"), [])
        self.assertIn("7 regression(s)", out)

    def test_a_case_an_aborted_run_never_reached_is_a_regression(self):
        base = runner_shard([("a.one", "Pass"), ("a.two", "Pass")], 0, 1)
        new = runner_shard([("a.one", "Pass")], 0, 1, not_run=["a.two"], aborted="SIGTERM")
        rc, out, _ = self.compare(base, new)
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.section(out, "Regressions"), ["a.two"])
        self.assertIn("a.two  Pass -> NotRun", out)

    def test_fixes_alone_exit_0(self):
        rc, out, _ = self.compare(shard([("a.x", "Fail")]), shard([("a.x", "Pass")]))
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.section(out, "Fixes"), ["a.x"])

    def test_fail_on_change_fails_on_any_difference(self):
        base, new = shard([("a.x", "Fail"), ("a.y", "Pass")]), shard([("a.x", "Pass"), ("a.y", "Pass")])
        self.assertEqual(self.compare(base, new)[0], 0)
        rc, out, _ = self.compare(base, new, "--fail-on-change")
        self.assertEqual(rc, 1, out)
        self.assertIn("1 change(s) in all", out)
        self.assertEqual(self.compare(base, base, "--fail-on-change")[0], 0)

    def test_different_devices_are_noted(self):
        rc, out, _ = self.compare(shard([("a.x", "Pass")]), shard([("a.x", "Pass")], device="other"))
        self.assertEqual(rc, 0)
        self.assertIn("note: device differs", out)
        rc, out, _ = self.compare(shard([("a.x", "Pass")], runtime_package="intel-opencl-rt 2026.1.0"),
                                  shard([("a.x", "Pass")], runtime_package="intel-opencl-rt 2026.2.0"))
        self.assertEqual(rc, 0)
        self.assertIn("note: runtime_package differs: 'intel-opencl-rt 2026.1.0' (baseline) vs "
                      "'intel-opencl-rt 2026.2.0' (new)", out)
        rc, out, _ = self.compare(shard([("a.x", "Pass")], runtime_package="p 1"),
                                  shard([("a.x", "Pass")], runtime_package="p 1"))
        self.assertNotIn("note:", out)

    def test_html_page_lists_the_regressions(self):
        page = os.path.join(self.tmp.name, "cmp.html")
        rc, out, _ = self.compare(shard([("a.<x>", "Pass")]), shard([("a.<x>", "Fail")]), "--html=" + page)
        self.assertEqual(rc, 1, out)
        with open(page) as f:
            text = f.read()
        self.assertIn("a.&lt;x&gt;", text)
        self.assertIn("Regressions (Pass -&gt; not Pass, or anything -&gt; Fail/Crash/Timeout/InternalError): 1",
                      text)
        self.assertIn("<tr class=\"bad\"><td>Pass</td><td>Fail</td><td>1</td><td>yes</td></tr>", text)

    def test_bad_input_is_exit_2_naming_the_file(self):
        bad = self.write("bad.json", "{not json")
        p = subprocess.run([sys.executable, COMPARE, bad, bad], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("bad.json", p.stderr)
        rc, _, err = self.compare(shard([("a.x", "Pass")]), {"results": 3})
        self.assertEqual(rc, 2)
        self.assertIn("new.json", err)

    def test_run_level_errors_in_the_new_report_fail_the_comparison(self):
        # Issue 30, item 7: a run whose case index was corrupt has run-level errors and perhaps the same cases;
        # the runner and merge_results.py --fail-on-failures fail it, so compare does too.
        base = runner_shard([("a.x", "Pass")], 0, 1)
        new = runner_shard([("a.x", "Pass")], 0, 1, errors=["corrupt case index: bad CRC"])
        for extra in ([], ["--fail-on-change"]):
            rc, out, err = self.compare(base, new, *extra)
            self.assertEqual(rc, 1, (extra, out, err))
            self.assertIn("Run-level errors in the new report (the run itself went wrong): 1\n"
                          "  corrupt case index: bad CRC", out)
            self.assertIn("no regression, 0 newly waived, 0 allowed, 0 change(s) in all; 1 run-level error(s) in the "
                          "new report", out)
        html_path = os.path.join(self.tmp.name, "c.html")
        rc, _, _ = self.compare(base, new, "--html=" + html_path)
        with open(html_path) as f:
            self.assertIn("corrupt case index: bad CRC", f.read())
        # The baseline's errors are a note: the new run is what is gated.
        rc, out, err = self.compare(new, base)
        self.assertEqual(rc, 0, out + err)
        self.assertIn("note: the baseline run recorded a run-level error: corrupt case index: bad CRC", out)

    def test_an_allow_that_accepts_nothing_is_reported(self):
        # Issue 30, item 24: a mistyped --allow must not pass unseen.
        base = shard([("a.x", "Pass"), ("b.y", "Pass")])
        new = shard([("a.x", "NotSupported"), ("b.y", "Pass")])
        rc, out, err = self.compare(base, new, "--allow=Pass:NotSupported:a.*", "--allow=Pass:NotSupported:aa.*",
                                    "--allow=Pass:Crash")
        self.assertEqual(rc, 0, out + err)
        self.assertIn("note: --allow=Pass:NotSupported:aa.* accepted no change", out)
        self.assertIn("note: --allow=Pass:Crash accepted no change", out)
        self.assertNotIn("--allow=Pass:NotSupported:a.* accepted no change", out)

    def test_unwritable_html_is_exit_2(self):
        rc, _, err = self.compare(shard([("a.x", "Pass")]), shard([("a.x", "Pass")]), "--html=/proc/x.html")
        self.assertEqual(rc, 2)
        self.assertIn("/proc/x.html: cannot write", err)

    def test_every_way_of_not_passing_any_more_is_a_regression(self):
        for new_status in ("Fail", "Crash", "Timeout", "InternalError", "NotSupported", "absent", "NotRun"):
            cases = [("a.keep", "Pass")] + ([] if new_status in ("absent", "NotRun") else [("a.x", new_status)])
            new = runner_shard(cases, 0, 1, not_run=["a.x"] if new_status == "NotRun" else [])
            rc, out, err = self.compare(runner_shard([("a.keep", "Pass"), ("a.x", "Pass")], 0, 1), new)
            self.assertEqual(rc, 1, (new_status, out, err))
            self.assertEqual(self.section(out, "Regressions"), ["a.x"], new_status)
            self.assertIn("a.x  Pass -> %s" % new_status, out)
            self.assertIn("compare_results: 1 regression(s)", out)

    def test_going_to_fail_from_anything_is_a_regression(self):
        for old_status in ("NotSupported", "Waived", "InternalError", "absent"):
            base = shard([("a.keep", "Pass")] + ([] if old_status == "absent" else [("a.x", old_status)]))
            rc, out, _ = self.compare(base, shard([("a.keep", "Pass"), ("a.x", "Fail")]))
            self.assertEqual(rc, 1, (old_status, out))
            self.assertEqual(self.section(out, "Regressions"), ["a.x"], old_status)
        # Still failing is no news; Fail -> NotSupported is a configuration change, not a regression.
        self.assertEqual(self.compare(shard([("a.x", "Fail")]), shard([("a.x", "Fail")]))[0], 0)
        self.assertEqual(self.compare(shard([("a.x", "Fail")]), shard([("a.x", "NotSupported")]))[0], 0)

    def test_a_narrower_new_run_loses_every_missing_pass(self):
        # A full run against an api-only one: every case the new report lacks is a regression.
        full = runner_shard([("api.a", "Pass")] + [("subgroups.c%d" % i, "Pass") for i in range(120)], 0, 1)
        api = runner_shard([("api.a", "Pass")], 0, 1, selection=dict(SELECTION, patterns=["api"]))
        full["selection"] = dict(SELECTION, patterns=[])
        rc, out, _ = self.compare(full, api, "--show=3")
        self.assertEqual(rc, 1, out)
        self.assertIn("compare_results: 120 regression(s)", out)
        self.assertIn("  Pass           -> absent             120  !", out)
        self.assertEqual(self.section(out, "Regressions"), ["subgroups.c0", "subgroups.c1", "subgroups.c10", "..."])
        self.assertIn("  ... and 117 more", out)
        self.assertIn("note: the reports selected their cases differently (baseline vs new): patterns [] vs "
                      "[\"api\"]", out)

    def test_transition_table_counts_every_pair(self):
        base = shard([("a.p1", "Pass"), ("a.p2", "Pass"), ("a.p3", "Pass"), ("a.n", "NotSupported"),
                      ("a.f", "Fail")])
        new = shard([("a.p1", "Pass"), ("a.p2", "Pass"), ("a.p3", "Waived"), ("a.n", "Fail"), ("a.f", "Pass")])
        rc, out, _ = self.compare(base, new)
        self.assertEqual(rc, 1, out)
        table = out.split("Transitions (baseline -> new: cases; ! = regression unless allowed):\n")[1].split(
            "Regressions")[0].splitlines()
        self.assertEqual([line.split() for line in table], [
            ["Pass", "->", "Pass", "2"], ["Pass", "->", "Waived", "1"], ["Fail", "->", "Pass", "1"],
            ["NotSupported", "->", "Fail", "1", "!"]])
        self.assertIn("1 newly waived", out)

    def test_newly_waived_is_listed_and_a_regression_only_on_request(self):
        base, new = shard([("a.x", "Pass")]), shard([("a.x", "Waived")])
        rc, out, _ = self.compare(base, new)
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.section(out, "Newly waived"), ["a.x"])
        rc, out, _ = self.compare(base, new, "--no-new-waivers")
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.section(out, "Regressions"), ["a.x"])
        self.assertIn("  Pass           -> Waived               1  !", out)

    def test_allowed_changes_are_listed_apart(self):
        base = shard([("2d_block_io.load.e1", "Pass"), ("2d_block_io.store.e1", "Pass"), ("subgroups.x", "Pass")])
        new = shard([("2d_block_io.load.e1", "NotSupported"), ("2d_block_io.store.e1", "NotSupported"),
                     ("subgroups.x", "NotSupported")])
        self.assertEqual(self.compare(base, new)[0], 1)
        rc, out, _ = self.compare(base, new, "--allow=Pass:NotSupported:2d_block_io.*")
        self.assertEqual(rc, 1, out)
        self.assertEqual(self.section(out, "Regressions"), ["subgroups.x"])
        self.assertEqual(self.section(out, "Allowed changes"), ["2d_block_io.load.e1", "2d_block_io.store.e1"])
        for allow in (["--allow=Pass:NotSupported"], ["--allow=*:NotSupported"],
                      ["--allow=Pass:NotSupported:2d_block_io", "--allow=Pass:*:subgroups.?"]):
            rc, out, _ = self.compare(base, new, *allow)
            self.assertEqual(rc, 0, (allow, out))
            self.assertIn("no regression, 0 newly waived, 3 allowed", out)
        # An allowance names exactly its change: Pass -> Fail stays a regression.
        rc, out, _ = self.compare(base, shard([("2d_block_io.load.e1", "Fail")]), "--allow=Pass:NotSupported")
        self.assertEqual(rc, 1, out)

    def test_bad_allow_is_exit_2(self):
        doc = shard([("a.x", "Pass")])
        for allow, words in (("Pass", "needs FROM:TO"), ("Pass:Gone", "unknown status 'Gone'"),
                             ("Pass:Fail:A.*", "a case pattern holds only"), ("a:b:c:d", "needs FROM:TO")):
            rc, out, err = self.compare(doc, doc, "--allow=" + allow)
            self.assertEqual(rc, 2, (allow, out, err))
            self.assertIn("compare_results: --allow=%s: %s" % (allow, words), err)
            self.assertEqual(len(err.splitlines()), 1, err)

    def test_different_selections_are_noted_and_compared(self):
        base = runner_shard([("a.x", "Pass")], 0, 1)
        new = runner_shard([("a.x", "Pass")], 0, 1, selection=dict(SELECTION, tier="core", tags=["quick"]))
        rc, out, _ = self.compare(base, new)
        self.assertEqual(rc, 0, out)
        self.assertIn('note: the reports selected their cases differently (baseline vs new): tags [] vs ["quick"]; '
                      'tier "all" vs "core"', out)
        self.assertNotIn("selected their cases differently", self.compare(base, base)[1])

    def test_html_naming_an_input_is_refused_and_the_input_kept(self):
        base = self.write("base.json", shard([("a.x", "Pass")]))
        new = self.write("new.json", shard([("a.x", "Fail")]))
        os.symlink(base, os.path.join(self.tmp.name, "link.json"))
        for out in (base, new, os.path.join(self.tmp.name, "link.json")):
            with open(base) as f:
                before = f.read()
            p = subprocess.run([sys.executable, COMPARE, base, new, "--html=" + out], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("compare_results: %s: is also an input" % out, p.stderr)
            with open(base) as f:
                self.assertEqual(f.read(), before)


if __name__ == "__main__":
    unittest.main()
