"""Shards of a real runner run merge into the same case set as the unsharded run (api cases: quick)."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

from common import SCRIPTS_DIR

RUNNER = os.environ.get("CTS_RUNNER", "")


@unittest.skipUnless(RUNNER and os.path.exists(RUNNER), "CTS_RUNNER not built")
class MergeRunnerShardsTest(unittest.TestCase):
    def run_runner(self, *args):
        p = subprocess.run([RUNNER] + list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        self.assertEqual(p.returncode, 0, p.stdout[-2000:])

    def test_three_shards_merge_to_the_full_run(self):
        with tempfile.TemporaryDirectory() as d:
            full = os.path.join(d, "full.json")
            self.run_runner("api", "--json=" + full)
            shards = []
            for i in range(3):
                shards.append(os.path.join(d, "shard%d.json" % i))
                self.run_runner("api", "--shard=%d/3" % i, "--json=" + shards[-1])
            merged = os.path.join(d, "merged.json")
            p = subprocess.run([sys.executable, os.path.join(SCRIPTS_DIR, "merge_results.py"), "-o", merged,
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


if __name__ == "__main__":
    unittest.main()
