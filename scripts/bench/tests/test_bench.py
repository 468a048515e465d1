"""Tests of scripts/bench/bench.py: bad usage is one line on stderr and exit 2, before anything is measured."""

import os
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR

BENCH = os.path.join(SCRIPTS_DIR, "bench/bench.py")


def run(*args):
    p = subprocess.run([sys.executable, BENCH] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    return p.returncode, p.stdout, p.stderr


class Usage(unittest.TestCase):
    def expect_usage_error(self, args, words):
        rc, out, err = run(*args)
        self.assertEqual(rc, 2, out + err)
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 1, err)
        self.assertTrue(lines[0].startswith("bench.py: error: "), err)
        for w in words:
            self.assertIn(w, lines[0])
        self.assertEqual(out, "", "nothing measured")

    def test_missing_runner(self):
        self.expect_usage_error(["--runner", "/nonexistent/spirv_intel_cts"], ["--runner", "/nonexistent"])

    def test_bad_jobs(self):
        runner = sys.executable  # any executable: the check comes before any run
        self.expect_usage_error(["--runner", runner, "--jobs", "1,x"], ["--jobs"])
        self.expect_usage_error(["--runner", runner, "--jobs", "0,2"], ["1..256"])

    def test_bad_repeat(self):
        for repeat in ("0", "x", "101"):
            self.expect_usage_error(["--runner", sys.executable, "--repeat", repeat], ["--repeat"])

    def test_no_profile(self):
        self.expect_usage_error(["--runner", sys.executable, "--profiles", ","], ["--profiles"])


if __name__ == "__main__":
    unittest.main()
