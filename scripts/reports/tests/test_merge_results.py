"""Tests of scripts/reports/merge_results.py on shard reports shaped like the runner's --json output."""

import json
import os
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR, TempFiles
from reports import report_io

# What the runner writes on a Waived case.
WAIVER_RECORD = {"original_status": "Fail", "waiver": {"tracker": "https://t/1", "reason": "known bug"}}

MERGE = os.path.join(SCRIPTS_DIR, "reports/merge_results.py")


def shard(cases, **extra):
    doc = {"cmd": "spirv_intel_cts --shard=x", "results": {}, "cases": [], "platform": "p", "device": "d",
           "driver": "1.0", "seed": 0, "quick": False, "errors": []}
    for name, status in cases:
        doc["results"][name] = report_io.RESULT_WORD[status]
        doc["cases"].append(dict({"name": name, "status": status, "message": "", "duration_ms": 1.5, "seed": 7},
                                 **WAIVER_RECORD if status == "Waived" else {}))
    if any(status == "Waived" for _, status in cases):
        doc["waivers"] = {"files": ["waivers.json"], "stale": []}  # a run waives a case only with a waiver file
    doc.update(extra)
    return doc


# What selected a run's cases, as the runner records it in every report ("selection").
SELECTION = {"patterns": ["api"], "filter": "", "caselist_file": "", "exclude_file": "", "tags": [],
             "quick": False, "extended": False, "huge": False, "tier": "all", "rerun_failed": "", "seed": 0,
             "suite_version": "1.2.3", "manifest_sha256": "5e" * 32}


def runner_shard(cases, index, count, not_run=(), aborted=None, **extra):
    """A shard report as the current runner writes it: with its selection, I/N, selected count and not-run
    list."""
    fields = {"shard": {"index": index, "count": count}, "selected": len(cases) + len(not_run),
              "not_run": list(not_run), "aborted": aborted, "selection": dict(SELECTION)}
    fields.update(extra)
    return shard(cases, **fields)


class MergeResultsTest(TempFiles, unittest.TestCase):
    def run_merge(self, *args):
        out = os.path.join(self.tmp.name, "merged.json")
        p = subprocess.run([sys.executable, MERGE, "-o", out] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        merged = None
        if os.path.exists(out):
            with open(out) as f:
                merged = json.load(f)
        return p.returncode, merged, p.stderr

    def test_merges_disjoint_shards(self):
        a = self.write("a.json", runner_shard([("subgroups.b", "Pass"), ("api.z", "NotSupported")], 0, 2))
        b = self.write("b.json", runner_shard([("subgroups.a", "Fail")], 1, 2, errors=["shard 1 note"]))
        rc, merged, err = self.run_merge(a, b)
        self.assertEqual(rc, 0, err)
        self.assertEqual(list(merged["results"]), ["api.z", "subgroups.a", "subgroups.b"])
        self.assertEqual(merged["results"]["subgroups.a"], "fail")
        self.assertEqual([c["name"] for c in merged["cases"]], ["api.z", "subgroups.a", "subgroups.b"])
        self.assertEqual(merged["device"], "d")
        self.assertEqual(merged["errors"], ["shard 1 note"])
        self.assertEqual([s["cases"] for s in merged["shards"]], [2, 1])
        self.assertIn("3 case(s)", err)
        rc, _, _ = self.run_merge("--fail-on-failures", a, b)
        self.assertEqual(rc, 1)
        rc, _, _ = self.run_merge("--fail-on-failures", self.write("c.json", runner_shard(
            [("subgroups.b", "Pass"), ("api.z", "NotSupported")], 0, 1)))
        self.assertEqual(rc, 0)

    def test_phases_stay_on_their_cases_and_the_totals_are_recomputed(self):
        def timed(doc, phases):
            for c, p in zip(doc["cases"], phases):
                c["phases"] = dict(zip(("build_ms", "builds", "cache_hits", "kernel_ms", "check_ms",
                                        "worker_start_ms"), p))
            # A shard's own totals: the merge must not add them up, but the cases.
            doc["phase_totals"] = {"build_ms": 999, "builds": 99, "cache_hits": 99, "kernel_ms": 999,
                                   "check_ms": 999, "worker_start_ms": 999}
            return doc
        a = self.write("a.json", timed(runner_shard([("subgroups.b", "Pass"), ("api.z", "NotSupported")], 0, 2),
                                       [(10.5, 1, 0, 2.25, 1.0, 30.0), (0, 0, 0, 0, 0.125, 0)]))
        b = self.write("b.json", timed(runner_shard([("subgroups.a", "Fail")], 1, 2),
                                       [(0.25, 0, 4, 0.5, 2.0, 12.5)]))
        rc, merged, err = self.run_merge(a, b)
        self.assertEqual(rc, 0, err)
        self.assertEqual(merged["phase_totals"], {"build_ms": 10.75, "builds": 1, "cache_hits": 4, "kernel_ms": 2.75,
                                                  "check_ms": 3.125, "worker_start_ms": 42.5})
        self.assertEqual(list(merged["phase_totals"]), ["build_ms", "builds", "cache_hits", "kernel_ms", "check_ms",
                                                        "worker_start_ms"])
        by_name = {c["name"]: c for c in merged["cases"]}
        self.assertEqual(by_name["subgroups.a"]["phases"]["cache_hits"], 4)
        self.assertEqual(by_name["subgroups.b"]["phases"]["build_ms"], 10.5)
        # Reports of a runner without phase times merge without totals.
        a = self.write("c.json", runner_shard([("subgroups.b", "Pass")], 0, 2))
        b = self.write("d.json", runner_shard([("subgroups.a", "Pass")], 1, 2))
        rc, merged, err = self.run_merge(a, b)
        self.assertEqual(rc, 0, err)
        self.assertNotIn("phase_totals", merged)

    def test_malformed_phases_are_refused(self):
        doc = runner_shard([("subgroups.b", "Pass")], 0, 1)
        doc["cases"][0]["phases"] = {"build_ms": -1, "builds": 0, "cache_hits": 0, "kernel_ms": 0, "check_ms": 0,
                                     "worker_start_ms": 0}
        rc, merged, err = self.run_merge(self.write("a.json", doc))
        self.assertEqual(rc, 2, err)
        self.assertIn("\"build_ms\" must be a number of at least 0", err)
        del doc["cases"][0]["phases"]["build_ms"]
        rc, merged, err = self.run_merge(self.write("b.json", doc))
        self.assertEqual(rc, 2, err)
        self.assertIn("has no \"build_ms\"", err)

    def test_version_gap_counts_add_up_over_the_shards(self):
        gap = {"extension": "cl_intel_subgroup_2d_block_io", "reported": "1.0.0", "promised_from": "1.1.0"}
        # Each report's count is the number of its cases that carry the gap (report_io checks it).
        docs = [runner_shard([("2d_block_io.%s%d" % (s, i), "Pass") for i in range(n)], k, 2,
                             version_gaps=[dict(gap, cases=n)]) for k, (s, n) in enumerate((("a", 3), ("b", 4)))]
        for doc in docs:
            for c in doc["cases"]:
                c["version_gaps"] = [gap["extension"]]
        rc, merged, err = self.run_merge(self.write("a.json", docs[0]), self.write("b.json", docs[1]))
        self.assertEqual(rc, 0, err)
        self.assertEqual(merged["version_gaps"], [dict(gap, cases=7)])
        rc, merged, err = self.run_merge(self.write("c.json", runner_shard([("api.z", "Pass")], 0, 1)))
        self.assertNotIn("version_gaps", merged)
        bad = self.write("d.json", runner_shard([("api.z", "Pass")], 0, 1, version_gaps=[{"extension": 1}]))
        rc, _, err = self.run_merge(bad)
        self.assertEqual(rc, 2)
        self.assertIn("version_gaps", err)

    def test_waived_cases_do_not_fail_and_stale_waivers_are_kept_once(self):
        stale = ["waiver matches no selected case: w.json:3 (T1)"]
        a = self.write("a.json", runner_shard([("subgroups.a", "Waived")], 0, 2,
                                              waivers={"files": ["w.json"], "stale": stale}))
        b = self.write("b.json", runner_shard([("subgroups.b", "Pass")], 1, 2, waivers={
            "files": ["w.json"], "stale": stale + ["waiver no longer needed: subgroups.b (T2)"]}))
        rc, merged, err = self.run_merge("--fail-on-failures", a, b)
        self.assertEqual(rc, 0, err)
        self.assertEqual(merged["results"]["subgroups.a"], "fail")  # the CTS word: it did fail
        self.assertEqual(merged["waivers"], {"files": ["w.json"], "stale": stale + [
            "waiver no longer needed: subgroups.b (T2)"]})
        c = self.write("c.json", runner_shard([("subgroups.b", "Fail")], 1, 2, waivers={"files": ["w.json"],
                                                                                      "stale": []}))
        rc, merged, _ = self.run_merge("--fail-on-failures", a, c)
        self.assertEqual(rc, 1)

    def test_shards_run_with_different_waiver_files_are_not_one_run(self):
        # Issue 30, item 22: shard 0 waives what shard 1 would fail on; the merge would be green by accident.
        a = self.write("a.json", runner_shard([("subgroups.a", "Waived")], 0, 2,
                                              waivers={"files": ["w.json"], "stale": []}))
        for other, words in (({"files": ["v.json"], "stale": []}, '(["w.json"] vs ["v.json"])'),
                             ({"files": ["w.json", "v.json"], "stale": []}, '(["w.json"] vs ["w.json", "v.json"])'),
                             (None, '(["w.json"] vs [])')):
            extra = {"waivers": other} if other else {}
            b = self.write("b.json", runner_shard([("subgroups.b", "Pass")], 1, 2, **extra))
            rc, merged, err = self.run_merge(a, b)
            self.assertEqual(rc, 2, err)
            self.assertIn("are not shards of one run: waivers.files differs " + words, err)
            self.assertIsNone(merged)

    def test_shards_whose_waiver_files_held_other_contents_are_not_one_run(self):
        # Issue 30: the same waiver path with other contents on another machine; the runner records each file's
        # SHA-256 ("sha256", parallel to "files") and the merge compares them when both shards have them.
        one, two = ["1a" * 32], ["2b" * 32]
        a = self.write("a.json", runner_shard([("subgroups.a", "Waived")], 0, 2,
                                              waivers={"files": ["w.json"], "stale": [], "sha256": one}))
        b = self.write("b.json", runner_shard([("subgroups.b", "Pass")], 1, 2,
                                              waivers={"files": ["w.json"], "stale": [], "sha256": two}))
        rc, merged, err = self.run_merge(a, b)
        self.assertEqual(rc, 2, err)
        self.assertEqual(err.splitlines(), ["merge_results: %s and %s are not shards of one run: waivers.sha256 "
                                            "differs (the same waiver files held other contents: %s vs %s)"
                                            % (a, b, json.dumps(one), json.dumps(two))])
        self.assertIsNone(merged)
        for other in (one, None):  # the same digests, or a shard of an older runner that records none
            waivers = {"files": ["w.json"], "stale": []}
            if other:
                waivers["sha256"] = other
            b = self.write("b.json", runner_shard([("subgroups.b", "Pass")], 1, 2, waivers=waivers))
            rc, merged, err = self.run_merge(a, b)
            self.assertEqual(rc, 0, err)
            self.assertEqual(merged["waivers"], {"files": ["w.json"], "stale": [], "sha256": one})

    def test_dash_output_is_standard_output(self):
        # Issue 30: "-o -" wrote a file named "-"; standard output is the documented default.
        a = self.write("a.json", runner_shard([("subgroups.a", "Pass")], 0, 1))
        p = subprocess.run([sys.executable, MERGE, a, "-o", "-"], cwd=self.tmp.name, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout)["results"], {"subgroups.a": "pass"})
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "-")))

    def test_flake_cases_fail_only_with_flake_fails(self):
        a = self.write("a.json", runner_shard([("subgroups.a", "Flake")], 0, 2))
        b = self.write("b.json", runner_shard([("subgroups.b", "Pass")], 1, 2))
        rc, merged, err = self.run_merge("--fail-on-failures", a, b)
        self.assertEqual(rc, 0, err)
        self.assertEqual([c["status"] for c in merged["cases"]], ["Flake", "Pass"])
        self.assertIn("1 Flake", err)
        rc, _, err = self.run_merge("--fail-on-failures", "--flake-fails", a, b)
        self.assertEqual(rc, 1, err)

    def test_overlap_is_an_error(self):
        a = self.write("a.json", runner_shard([("subgroups.a", "Pass")], 0, 2))
        b = self.write("b.json", runner_shard([("subgroups.a", "Pass")], 1, 2))
        rc, merged, err = self.run_merge(a, b)
        self.assertEqual(rc, 2)
        self.assertIn("case subgroups.a is in both", err)
        self.assertIsNone(merged)

    def test_different_device_or_seed_is_an_error(self):
        a = self.write("a.json", runner_shard([("subgroups.a", "Pass")], 0, 2))
        b = self.write("b.json", runner_shard([("subgroups.b", "Pass")], 1, 2, device="other"))
        c = self.write("c.json", runner_shard([("subgroups.c", "Pass")], 1, 2, seed=5))
        for other, what in ((b, "device differs"), (c, "seed differs")):
            rc, merged, err = self.run_merge(a, other)
            self.assertEqual(rc, 2, err)
            self.assertIn("%s and %s are not shards of one run: %s" % (a, other, what), err)
            self.assertIsNone(merged)

    def test_runtime_packages_must_agree_and_are_kept(self):
        package = "intel-opencl-rt 2026.2.0"
        a = self.write("a.json", runner_shard([("subgroups.a", "Pass")], 0, 2, runtime_package=package))
        b = self.write("b.json", runner_shard([("subgroups.b", "Pass")], 1, 2, runtime_package=package))
        rc, merged, err = self.run_merge(a, b)
        self.assertEqual(rc, 0, err)
        self.assertEqual(merged["runtime_package"], "intel-opencl-rt 2026.2.0")
        # The same driver version from another build of the runtime is not one run.
        c = self.write("c.json", runner_shard([("subgroups.b", "Pass")], 1, 2,
                                              runtime_package="intel-opencl-rt 2026.1.0"))
        rc, _, err = self.run_merge(a, c)
        self.assertEqual(rc, 2)
        self.assertIn('runtime_package differs ("intel-opencl-rt 2026.2.0" vs "intel-opencl-rt 2026.1.0")', err)
        # A shard that does not record it is not of the same run either.
        old = self.write("old.json", runner_shard([("subgroups.b", "Pass")], 1, 2))
        self.assertEqual(self.run_merge(a, old)[0], 2)

    def test_malformed_input_is_an_error(self):
        bad = self.write("bad.json", "{not json")
        rc, _, err = self.run_merge(bad)
        self.assertEqual(rc, 2)
        self.assertIn("merge_results: %s: not a runner JSON report: invalid JSON" % bad, err)
        rc, _, err = self.run_merge(self.write("x.json", {"cases": []}))
        self.assertIn("not a runner JSON report", err)

    def test_complete_recorded_shards_merge(self):
        a = self.write("a.json", runner_shard([("api.a", "Pass")], 0, 2))
        b = self.write("b.json", runner_shard([("api.b", "Pass"), ("api.c", "Pass")], 1, 2))
        rc, merged, err = self.run_merge(b, a)
        self.assertEqual(rc, 0, err)
        self.assertEqual(list(merged["results"]), ["api.a", "api.b", "api.c"])
        self.assertEqual(merged["shard"], {"index": 0, "count": 1})
        self.assertEqual(merged["selected"], 3)
        self.assertEqual(merged["not_run"], [])
        self.assertIsNone(merged["aborted"])
        self.assertEqual([(s["index"], s["count"]) for s in merged["shards"]], [(0, 2), (1, 2)])

    def test_missing_shard_is_an_error(self):
        a = self.write("a.json", runner_shard([("api.a", "Pass")], 0, 3))
        c = self.write("c.json", runner_shard([("api.c", "Pass")], 2, 3))
        rc, merged, err = self.run_merge(a, c)
        self.assertEqual(rc, 2, err)
        self.assertIn("missing shard 1/3", err)
        self.assertIsNone(merged)
        rc, _, err = self.run_merge(a)
        self.assertEqual(rc, 2, err)
        self.assertIn("missing shards 1/3, 2/3", err)

    def test_duplicated_shard_is_an_error(self):
        # Empty shards have no case to overlap: the recorded I/N is what catches the second copy.
        a = self.write("a.json", runner_shard([("api.a", "Pass")], 0, 2))
        b1 = self.write("b1.json", runner_shard([], 1, 2))
        b2 = self.write("b2.json", runner_shard([], 1, 2))
        rc, merged, err = self.run_merge(a, b1, b2)
        self.assertEqual(rc, 2, err)
        self.assertIn("shard 1/2 is in both", err)
        self.assertIn("b1.json", err)
        self.assertIsNone(merged)

    def test_shard_counts_must_agree(self):
        a = self.write("a.json", runner_shard([("api.a", "Pass")], 0, 2))
        b = self.write("b.json", runner_shard([("api.b", "Pass")], 1, 3))
        rc, _, err = self.run_merge(a, b)
        self.assertEqual(rc, 2, err)
        self.assertIn("1/3", err)
        self.assertIn("0/2", err)

    def test_report_without_a_selection_or_shard_record_is_refused(self):
        a = self.write("a.json", runner_shard([("api.a", "Pass")], 0, 2))
        older = runner_shard([("api.b", "Pass")], 1, 2)
        del older["selection"]
        b = self.write("b.json", older)
        for args in ((a, b), (b,)):
            rc, merged, err = self.run_merge(*args)
            self.assertEqual(rc, 2, err)
            self.assertIn('%s: no "selection" record: written by an older runner' % b, err)
            self.assertIsNone(merged)
        c = self.write("c.json", shard([("api.b", "Pass")], selection=dict(SELECTION)))
        rc, _, err = self.run_merge(a, c)
        self.assertEqual(rc, 2, err)
        self.assertIn('%s: no "shard" record' % c, err)

    def test_shards_of_different_selections_are_refused_naming_the_field(self):
        # Shard 0/2 of `api` and shard 1/2 of `workloads.gemm_2d` are two halves of two different runs.
        a = self.write("a.json", runner_shard([("api.a", "Pass")], 0, 2))
        other = {"patterns": ["workloads.gemm_2d"], "filter": "api.*", "caselist_file": "list.txt",
                 "exclude_file": "known.txt", "tags": ["quick"], "quick": True, "extended": True, "huge": True,
                 "tier": "core", "rerun_failed": "old.json", "seed": 3, "suite_version": "1.2.4",
                 "manifest_sha256": "00" * 32}
        self.assertEqual(sorted(other), sorted(SELECTION))
        for key, value in sorted(other.items()):
            b = self.write("b.json", runner_shard([("workloads.gemm_2d.x", "Pass")], 1, 2,
                                                  selection=dict(SELECTION, **{key: value})))
            rc, merged, err = self.run_merge("--fail-on-failures", a, b)
            self.assertEqual(rc, 2, (key, err))
            self.assertIn("merge_results: %s and %s are not shards of one run: selection.%s differs (%s vs %s)" % (
                a, b, key, json.dumps(SELECTION[key]), json.dumps(value)), err)
            self.assertEqual(len(err.splitlines()), 1, err)
            self.assertIsNone(merged)

    def test_merged_report_keeps_the_selection_and_every_command(self):
        a = self.write("a.json", runner_shard([("api.a", "Pass")], 0, 2, cmd="spirv_intel_cts --shard=0/2 api"))
        b = self.write("b.json", runner_shard([("api.b", "Pass")], 1, 2, cmd="spirv_intel_cts --shard=1/2 api"))
        rc, merged, err = self.run_merge(b, a)
        self.assertEqual(rc, 0, err)
        self.assertEqual(merged["selection"], SELECTION)
        self.assertEqual(merged["cmds"], ["spirv_intel_cts --shard=0/2 api", "spirv_intel_cts --shard=1/2 api"])
        self.assertEqual(merged["cmd"], "spirv_intel_cts --shard=0/2 api")
        # The merged report is one whole run: it merges again on its own.
        again = self.write("again.json", merged)
        rc, merged2, err = self.run_merge(again)
        self.assertEqual(rc, 0, err)
        self.assertEqual(merged2["results"], merged["results"])

    def test_output_naming_an_input_is_refused_and_the_input_kept(self):
        a = self.write("a.json", runner_shard([("api.a", "Pass")], 0, 1))
        with open(a) as f:
            before = f.read()
        os.symlink(a, os.path.join(self.tmp.name, "link.json"))
        os.link(a, os.path.join(self.tmp.name, "hard.json"))
        for out in (a, os.path.join(self.tmp.name, ".", "a.json"), os.path.join(self.tmp.name, "link.json"),
                    os.path.join(self.tmp.name, "hard.json")):
            p = subprocess.run([sys.executable, MERGE, "-o", out, a], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("merge_results: %s: is also an input (%s): refusing to overwrite it" % (out, a), p.stderr)
            with open(a) as f:
                self.assertEqual(f.read(), before)

    def test_aborted_shard_is_refused_unless_allowed(self):
        a = self.write("a.json", runner_shard([("api.a", "Pass")], 0, 2))
        b = self.write("b.json", runner_shard([("api.b", "Pass")], 1, 2, not_run=["api.c", "api.d"],
                                              aborted="SIGTERM"))
        rc, merged, err = self.run_merge(a, b)
        self.assertEqual(rc, 2, err)
        self.assertIn("b.json", err)
        self.assertIn("aborted (SIGTERM)", err)
        self.assertIn("2 case(s) not run", err)
        self.assertIn("--allow-aborted", err)
        self.assertIsNone(merged)
        rc, merged, err = self.run_merge("--allow-aborted", a, b)
        self.assertEqual(rc, 0, err)
        self.assertEqual(merged["not_run"], ["api.c", "api.d"])
        self.assertEqual(merged["selected"], 4)
        self.assertIn("SIGTERM", merged["aborted"])
        self.assertIn("2 not run", err)
        rc, _, _ = self.run_merge("--allow-aborted", "--fail-on-failures", a, b)
        self.assertEqual(rc, 1, "not-run cases fail --fail-on-failures")

    def test_report_missing_cases_without_abort_is_an_error(self):
        a = self.write("a.json", runner_shard([("api.a", "Pass")], 0, 1, selected=3))
        rc, _, err = self.run_merge(a)
        self.assertEqual(rc, 2, err)
        self.assertIn("1 of 3 selected", err)

    def test_unwritable_output_is_a_clear_error(self):
        a = self.write("a.json", runner_shard([("api.a", "Pass")], 0, 1))
        for out in ("/proc/x.json", os.path.join(self.tmp.name, "no_such_dir", "m.json"), self.tmp.name):
            p = subprocess.run([sys.executable, MERGE, "-o", out, a], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertNotIn("Traceback", p.stderr)
            self.assertIn("merge_results: %s: cannot write" % out, p.stderr)

    def test_output_replaces_an_earlier_file_atomically(self):
        a = self.write("a.json", runner_shard([("api.a", "Pass")], 0, 1))
        out = self.write("merged.json", "earlier")
        rc, merged, err = self.run_merge(a)
        self.assertEqual(rc, 0, err)
        self.assertEqual(list(merged["results"]), ["api.a"])
        self.assertEqual(sorted(os.listdir(self.tmp.name)), ["a.json", "merged.json"], "no temporary files")


if __name__ == "__main__":
    unittest.main()
