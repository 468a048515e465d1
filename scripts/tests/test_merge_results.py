"""Tests of scripts/merge_results.py on shard reports shaped like the runner's --json output."""

import json
import os
import subprocess
import sys
import unittest

from common import SCRIPTS_DIR, TempFiles

MERGE = os.path.join(SCRIPTS_DIR, "merge_results.py")


def shard(cases, **extra):
    doc = {"cmd": "spirv_intel_cts --shard=x", "results": {}, "cases": [], "platform": "p", "device": "d",
           "driver": "1.0", "seed": 0, "quick": False, "errors": []}
    for name, status in cases:
        doc["results"][name] = {"Pass": "pass", "NotSupported": "skip"}.get(status, "fail")
        doc["cases"].append({"name": name, "status": status, "message": "", "duration_ms": 1.5, "seed": 7})
    doc.update(extra)
    return doc


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
        a = self.write("a.json", shard([("subgroups.b", "Pass"), ("api.z", "NotSupported")]))
        b = self.write("b.json", shard([("subgroups.a", "Fail")], errors=["shard 1 note"]))
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
        rc, _, _ = self.run_merge("--fail-on-failures", a)
        self.assertEqual(rc, 0)

    def test_overlap_is_an_error(self):
        a = self.write("a.json", shard([("subgroups.a", "Pass")]))
        b = self.write("b.json", shard([("subgroups.a", "Pass")]))
        rc, merged, err = self.run_merge(a, b)
        self.assertEqual(rc, 2)
        self.assertIn("case subgroups.a is in both", err)
        self.assertIsNone(merged)

    def test_different_device_or_seed_is_an_error(self):
        a = self.write("a.json", shard([("subgroups.a", "Pass")]))
        b = self.write("b.json", shard([("subgroups.b", "Pass")], device="other"))
        c = self.write("c.json", shard([("subgroups.c", "Pass")], seed=5))
        self.assertIn("device", self.run_merge(a, b)[2])
        self.assertIn("seed", self.run_merge(a, c)[2])

    def test_malformed_input_is_an_error(self):
        bad = self.write("bad.json", "{not json")
        rc, _, err = self.run_merge(bad)
        self.assertEqual(rc, 2)
        self.assertIn("bad.json: cannot read JSON", err)
        rc, _, err = self.run_merge(self.write("x.json", {"cases": []}))
        self.assertIn("not a runner JSON report", err)


if __name__ == "__main__":
    unittest.main()
