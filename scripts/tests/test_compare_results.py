"""Tests of scripts/compare_results.py on reports shaped like the runner's --json output."""

import os
import subprocess
import sys
import unittest

from common import SCRIPTS_DIR, TempFiles
from test_merge_results import runner_shard, shard

COMPARE = os.path.join(SCRIPTS_DIR, "compare_results.py")


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
        self.assertIn("Regressions (Pass -> failing or not run): 0", out)
        self.assertIn("no regression", out)

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
        self.assertEqual(self.section(out, "Regressions"), ["r.crash", "r.fail", "r.internal", "r.timeout"])
        self.assertEqual(self.section(out, "Fixes"), ["f.fixed"])
        self.assertEqual(self.section(out, "Other status changes"), ["c.changed"])
        self.assertEqual(self.section(out, "Newly waived"), ["w.waived"])
        self.assertEqual(self.section(out, "NotSupported changes"), ["n.back", "n.gone"])
        self.assertEqual(self.section(out, "Cases added"), ["y.added"])
        self.assertEqual(self.section(out, "Cases removed"), ["x.removed"])
        self.assertIn("4 regression(s)", out)

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
        self.assertIn("Regressions (Pass -&gt; failing or not run): 1", text)

    def test_bad_input_is_exit_2_naming_the_file(self):
        bad = self.write("bad.json", "{not json")
        p = subprocess.run([sys.executable, COMPARE, bad, bad], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        self.assertEqual(p.returncode, 2)
        self.assertIn("bad.json", p.stderr)
        rc, _, err = self.compare(shard([("a.x", "Pass")]), {"results": 3})
        self.assertEqual(rc, 2)
        self.assertIn("new.json", err)

    def test_unwritable_html_is_exit_2(self):
        rc, _, err = self.compare(shard([("a.x", "Pass")]), shard([("a.x", "Pass")]), "--html=/proc/x.html")
        self.assertEqual(rc, 2)
        self.assertIn("cannot write /proc/x.html", err)


if __name__ == "__main__":
    unittest.main()
