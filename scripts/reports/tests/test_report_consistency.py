"""Issue 45: the report scripts refuse reports that disagree with themselves or with the other shards, and count the
cases a waiver's "skip" kept from running apart from the cases waived after they ran."""

import json
import os
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR, TempFiles
from reports import report_io
from reports.tests.test_merge_results import SELECTION, runner_shard

SKIP_RECORD = {"original_status": "NotRun", "waiver": {"tracker": "https://t/9", "reason": "known hang"}}
GAP = {"extension": "cl_intel_subgroup_2d_block_io", "reported": "1.0.0", "promised_from": "1.1.0", "cases": 1}


def script(name, *args):
    p = subprocess.run([sys.executable, os.path.join(SCRIPTS_DIR, name)] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    return p.returncode, p.stdout, p.stderr


def with_skips(doc, names):
    """doc with `names` recorded as a skip records them: Waived, not run, a waiver file read."""
    for c in doc["cases"]:
        if c["name"] in names:
            c.update(dict(SKIP_RECORD, status="Waived"))
            doc["results"][c["name"]] = "fail"
    doc["waivers"] = {"files": ["skips.json"], "stale": []}
    doc["waived_not_run"] = len(names)
    return doc


class ReportConsistencyTest(TempFiles, unittest.TestCase):
    def refused(self, name, args, words):
        rc, out, err = script(name, *args)
        lines = err.strip().splitlines()
        self.assertEqual(rc, 2, out + err)
        self.assertEqual(len(lines), 1, err)
        for w in words:
            self.assertIn(w, lines[0])

    def test_duplicate_key_refused(self):
        doc = runner_shard([("api.a", "Pass")], 0, 1)
        text = json.dumps(doc)
        # A second "cases" would hide the first list (a Fail in it): JSON readers keep the last.
        hidden = text.replace('"cases": [', '"cases": [{"name": "api.a", "status": "Fail"}], "cases": [', 1)
        path = self.write("dup.json", hidden)
        self.refused("reports/merge_results.py", [path], ["given twice", '"cases"'])
        self.refused("reports/compare_results.py", [path, path], ["given twice"])

    def test_selected_below_cases_refused(self):
        path = self.write("s.json", runner_shard([("api.a", "Pass"), ("api.b", "Pass")], 0, 1, selected=1))
        self.refused("reports/merge_results.py", [path], ['"selected" is 1', "2 result(s)"])

    def test_case_gaps_without_top_level_refused(self):
        doc = runner_shard([("api.a", "Pass")], 0, 1)
        doc["cases"][0]["version_gaps"] = [GAP["extension"]]
        path = self.write("g.json", doc)
        self.refused("reports/merge_results.py", [path], [GAP["extension"], "does not list"])
        doc["version_gaps"] = [dict(GAP, cases=0)]  # undercounts: a merge would add up too few
        path = self.write("g.json", doc)
        self.refused("reports/merge_results.py", [path], ["counts 0 case(s)", "1 case(s) carry it"])

    def test_shards_disagreeing_on_gaps_refused(self):
        a = runner_shard([("api.a", "Pass")], 0, 2, version_gaps=[dict(GAP, cases=0)])
        b = runner_shard([("api.b", "Pass")], 1, 2, version_gaps=[dict(GAP, cases=0, reported="1.0.1")])
        self.refused("reports/merge_results.py", [self.write("a.json", a), self.write("b.json", b)],
                     ["not shards of one run", "version_gaps", "1.0.1"])

    def test_run_skipped_mix_refused(self):
        a = runner_shard([("api.a", "Pass")], 0, 2, selection=dict(SELECTION, run_skipped=True))
        b = runner_shard([("api.b", "Pass")], 1, 2, selection=dict(SELECTION, run_skipped=False))
        self.refused("reports/merge_results.py", [self.write("a.json", a), self.write("b.json", b)],
                     ["selection.run_skipped differs"])

    def test_merge_counts_skips_apart(self):
        names = ["api.a", "api.b", "api.c"]
        doc = with_skips(runner_shard([(n, "Pass") for n in names] + [("api.d", "Pass")], 0, 1), names[:3])
        path = self.write("k.json", doc)
        out = os.path.join(self.tmp.name, "m.json")
        rc, _, err = script("reports/merge_results.py", path, "-o", out, "--fail-on-failures")
        self.assertEqual(rc, 0, err)
        self.assertIn("3 Waived not run (skipped)", err)
        self.assertIn("3 of 4 selected case(s) (75.0%) not run", err)
        with open(out) as f:
            self.assertEqual(json.load(f)["waived_not_run"], 3)
        rc, _, err = script("reports/merge_results.py", path, "-o", out, "--max-skipped-share=50")
        self.assertEqual(rc, 1, err)
        doc["waived_not_run"] = 1
        self.refused("reports/merge_results.py", [self.write("k.json", doc)], ['"waived_not_run" is 1'])

    def test_compare_counts_pass_to_skipped_as_lost(self):
        base = self.write("base.json", runner_shard([("api.a", "Pass"), ("api.b", "Pass")], 0, 1))
        new = self.write("new.json", with_skips(runner_shard([("api.a", "Pass"), ("api.b", "Pass")], 0, 1),
                                                ["api.a"]))
        rc, out, _ = script("reports/compare_results.py", base, new)
        self.assertEqual(rc, 1, out)
        self.assertIn("Pass           -> Skipped", out)
        self.assertIn("1 regression(s), 0 newly waived, 1 not run (skipped by a waiver)", out)
        rc, out, _ = script("reports/compare_results.py", base, new, "--allow=Pass:Skipped")
        self.assertEqual(rc, 0, out)

    def test_html_counts_skips(self):
        doc = with_skips(runner_shard([("api.a", "Pass"), ("api.b", "Pass")], 0, 1), ["api.a"])
        out = os.path.join(self.tmp.name, "p.html")
        rc, _, err = script("reports/results_html.py", self.write("h.json", doc), "-o", out)
        self.assertEqual(rc, 0, err)
        with open(out) as f:
            page = f.read()
        self.assertIn("Not run (skipped)", page)
        self.assertIn("1 of 2 selected case(s) (50.0%)", page)
        self.assertIn('<th class="st-skipped">Skipped</th>', page)

    def test_printable_escapes_invisible_format_characters(self):
        self.assertEqual(report_io.printable("a\u202eb\u200bc\u2028d"),
                         "a\\xe2\\x80\\xaeb\\xe2\\x80\\x8bc\\xe2\\x80\\xa8d")
        self.assertEqual(report_io.printable("caf\u00e9"), "caf\u00e9")


if __name__ == "__main__":
    unittest.main()
