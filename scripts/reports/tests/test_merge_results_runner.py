"""Shards of a real runner run merge into the same case set as the unsharded run (api cases: quick)."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

from testing.common import SCRIPTS_DIR

RUNNER = os.environ.get("CTS_RUNNER", "")


def record_selection(path, patterns):
    """Gives a report the "selection" record merge_results.py requires, as the runner records it, when the
    runner under test predates the record (a runner that writes it is left alone)."""
    with open(path) as f:
        doc = json.load(f)
    if "selection" in doc:
        return
    doc["selection"] = {"patterns": list(patterns), "filter": "", "caselist_file": "", "exclude_file": "",
                        "tags": [], "quick": False, "extended": False, "huge": False, "tier": "all",
                        "rerun_failed": "", "seed": doc.get("seed", 0), "suite_version": "",
                        "manifest_sha256": ""}
    with open(path, "w") as f:
        json.dump(doc, f)


@unittest.skipUnless(RUNNER and os.path.exists(RUNNER), "CTS_RUNNER not built")
class MergeRunnerShardsTest(unittest.TestCase):
    def run_runner(self, *args, env=None):
        full_env = dict(os.environ)
        for k in ("GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX", "CL_CONFORMANCE_RESULTS_FILENAME"):
            full_env.pop(k, None)
        full_env.update(env or {})
        p = subprocess.run([RUNNER] + list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, env=full_env)
        self.assertEqual(p.returncode, 0, p.stdout[-2000:])
        for a in args:
            if a.startswith("--json="):
                record_selection(a[len("--json="):], [x for x in args if not x.startswith("-")])

    def merge(self, out, *shards):
        return subprocess.run([sys.executable, os.path.join(SCRIPTS_DIR, "reports/merge_results.py"), "-o", out] +
                              list(shards), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True)

    def test_a_real_report_with_every_kind_of_case_passes_the_report_check(self):
        """The checks of report_io.check_report (types, ranges, "results" agreeing with "cases", a waiver record on
        every Waived case) accept what the runner writes: Fail with mismatch pictures, Flake with attempts, Waived,
        NotSupported, Pass."""
        with tempfile.TemporaryDirectory() as d:
            waivers = os.path.join(d, "w.json")
            with open(waivers, "w") as f:
                json.dump({"waivers": [{"cases": ["subgroups.shuffle.i8.v1.sg32.*"],
                                        "device": {"platform": "*"}, "tracker": "https://t/1", "reason": "test"}]}, f)
            report = os.path.join(d, "r.json")
            full_env = dict(os.environ, REFDEV_FAULTS="flaky_first_launch,shuffle_index_masked")
            full_env.pop("CL_CONFORMANCE_RESULTS_FILENAME", None)
            subprocess.run([RUNNER, "subgroups.shuffle.i8.v1", "--jobs=1", "--retry=1", "--waiver-file=" + waivers,
                            "--json=" + report], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=full_env)
            with open(report) as f:
                doc = json.load(f)
            statuses = {c["status"] for c in doc["cases"]}
            self.assertTrue({"Pass", "Fail", "Flake", "Waived", "NotSupported"} <= statuses, statuses)
            self.assertTrue(any("mismatches" in c for c in doc["cases"]))
            self.assertTrue(any("attempts" in c for c in doc["cases"]))
            from reports import report_io
            report_io.check_report(report, doc)  # raises ReportError on anything it refuses
            for script, args in (("reports/compare_results.py", [report, report]),
                                 ("reports/results_html.py", [report, "-o", os.path.join(d, "r.html")])):
                p = subprocess.run([sys.executable, os.path.join(SCRIPTS_DIR, script)] + args,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
                self.assertEqual(p.returncode, 0, p.stdout[-2000:])

    def test_shards_run_with_one_waiver_path_but_other_contents_are_not_one_run(self):
        """The runner records each waiver file's SHA-256 as it read it; shards whose file changed between them
        (the same path) are refused, and an unchanged file merges."""
        import hashlib
        with tempfile.TemporaryDirectory() as d:
            waivers = os.path.join(d, "w.json")
            texts = ['{"waivers": []}\n', '{"waivers": [{"cases": ["api.nothing_here"], "device": "*", '
                     '"tracker": "T", "reason": "r"}]}\n']
            shards = []
            for i, text in enumerate(texts):
                with open(waivers, "w") as f:
                    f.write(text)
                shards.append(os.path.join(d, "s%d.json" % i))
                self.run_runner("api", "--jobs=1", "--shard=%d/2" % i, "--waiver-file=" + waivers,
                                "--json=" + shards[-1])
                with open(shards[-1]) as f:
                    doc = json.load(f)
                self.assertEqual(doc["waivers"]["sha256"], [hashlib.sha256(text.encode()).hexdigest()])
            p = self.merge(os.path.join(d, "m.json"), *shards)
            self.assertEqual(p.returncode, 2, p.stdout)
            self.assertIn("sha256", p.stdout)
            self.run_runner("api", "--jobs=1", "--shard=0/2", "--waiver-file=" + waivers, "--json=" + shards[0])
            p = self.merge(os.path.join(d, "m.json"), *shards)
            self.assertEqual(p.returncode, 0, p.stdout)

    def test_three_shards_merge_to_the_full_run(self):
        with tempfile.TemporaryDirectory() as d:
            full = os.path.join(d, "full.json")
            self.run_runner("api", "--json=" + full)
            shards = []
            for i in range(3):
                shards.append(os.path.join(d, "shard%d.json" % i))
                self.run_runner("api", "--shard=%d/3" % i, "--json=" + shards[-1])
            merged = os.path.join(d, "merged.json")
            p = subprocess.run([sys.executable, os.path.join(SCRIPTS_DIR, "reports/merge_results.py"), "-o", merged,
                                "--fail-on-failures"] + shards, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True)
            self.assertEqual(p.returncode, 0, p.stdout)
            with open(full) as f:
                want = json.load(f)
            with open(merged) as f:
                got = json.load(f)
            self.assertGreater(len(want["results"]), 2)
            self.assertEqual(got["results"], dict(sorted(want["results"].items())))
            self.assertEqual([c["name"] for c in got["cases"]], sorted(want["results"]))
            self.assertEqual({c["name"]: c["seed"] for c in got["cases"]},
                             {c["name"]: c["seed"] for c in want["cases"]})
            self.assertEqual(got["device"], want["device"])
            # Each shard records its I/N and how many cases it selected; the full run is shard 0/1.
            self.assertEqual(want["shard"], {"index": 0, "count": 1})
            self.assertEqual(want["selected"], len(want["results"]))
            for i, path in enumerate(shards):
                with open(path) as f:
                    doc = json.load(f)
                self.assertEqual(doc["shard"], {"index": i, "count": 3})
                self.assertEqual(doc["selected"], len(doc["results"]))
                self.assertEqual(doc["not_run"], [])
                self.assertIsNone(doc["aborted"])
            self.assertEqual(got["selected"], want["selected"])

    def test_shards_of_two_selections_are_not_one_run(self):
        # Shard 0/2 of `api` and shard 1/2 of `workloads.gemm_2d` cover 34 cases, all Pass, but no one run.
        with tempfile.TemporaryDirectory() as d:
            a, b, merged = (os.path.join(d, n) for n in ("a.json", "b.json", "merged.json"))
            self.run_runner("api", "--shard=0/2", "--json=" + a)
            self.run_runner("workloads.gemm_2d", "--shard=1/2", "--json=" + b)
            p = subprocess.run([sys.executable, os.path.join(SCRIPTS_DIR, "reports/merge_results.py"), "-o", merged,
                                "--fail-on-failures", a, b], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("%s and %s are not shards of one run: selection.patterns differs" % (a, b), p.stderr)
            self.assertFalse(os.path.exists(merged))

    def test_missing_or_repeated_shard_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            shards = []
            for i in range(3):
                shards.append(os.path.join(d, "shard%d.json" % i))
                self.run_runner("api", "--shard=%d/3" % i, "--json=" + shards[-1])
            merged = os.path.join(d, "merged.json")
            p = self.merge(merged, shards[0], shards[2])
            self.assertEqual(p.returncode, 2, p.stdout)
            self.assertIn("missing shard 1/3", p.stdout)
            self.assertFalse(os.path.exists(merged))
            p = self.merge(merged, shards[0], shards[1], shards[2], shards[1])
            self.assertEqual(p.returncode, 2, p.stdout)
            self.assertIn("shard 1/3", p.stdout)
            self.assertFalse(os.path.exists(merged))

    def test_gtest_sharding_is_recorded(self):
        with tempfile.TemporaryDirectory() as d:
            by_option, by_env = os.path.join(d, "opt.json"), os.path.join(d, "env.json")
            self.run_runner("api", "--shard=1/3", "--json=" + by_option)
            self.run_runner("api", "--json=" + by_env, env={"GTEST_TOTAL_SHARDS": "3", "GTEST_SHARD_INDEX": "1"})
            with open(by_option) as f:
                want = json.load(f)
            with open(by_env) as f:
                got = json.load(f)
            self.assertEqual(got["shard"], {"index": 1, "count": 3})
            self.assertEqual(got["results"], want["results"])
            self.assertEqual(got["selected"], want["selected"])
            self.assertIn("GTEST_TOTAL_SHARDS=3", got["cmd"])
            self.assertIn("GTEST_SHARD_INDEX=1", got["cmd"])


if __name__ == "__main__":
    unittest.main()
