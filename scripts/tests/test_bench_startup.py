"""Tests of scripts/bench_startup.py with a stand-in runner (a shell script), so they time nothing real."""

import json
import os
import subprocess
import sys
import unittest

from common import SCRIPTS_DIR, TempFiles

BENCH = os.path.join(SCRIPTS_DIR, "bench_startup.py")


class BenchStartup(TempFiles, unittest.TestCase):
    def runner(self, body):
        path = self.write("runner.sh", "#!/bin/sh\n" + body + "\n")
        os.chmod(path, 0o755)
        return path

    def bench(self, *args):
        p = subprocess.run([sys.executable, BENCH] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        return p.returncode, p.stdout, p.stderr

    def test_prints_the_four_measurements_as_json_and_table(self):
        # The stand-in records its arguments: one case in process and in a worker, --list, --list-tags, each
        # `runs` times.
        log = os.path.join(self.tmp.name, "calls")
        runner = self.runner('echo "$@" >> %s' % log)
        rc, out, err = self.bench("--runner", runner, "--runs", "3", "--case", "a.b", "--json")
        self.assertEqual(rc, 0, err)
        doc = json.loads(out)
        self.assertEqual([r["what"] for r in doc["results"]], ["one case", "one, worker", "--list", "--list-tags"])
        for r in doc["results"]:
            self.assertGreater(r["wall_ms"], 0)
            self.assertGreater(r["peak_rss_mb"], 0)
        self.assertEqual(open(log).read().split("\n")[:-1], ["a.b --jobs=1"] * 3 + ["a.b --jobs=2"] * 3 + ["--list"] * 3 + ["--list-tags"] * 3)
        rc, out, err = self.bench("--runner", runner, "--runs", "1")
        self.assertEqual(rc, 0, err)
        self.assertIn("peak RSS MB", out)

    def test_bad_input_is_one_line_and_exit_2(self):
        for args, words in ((["--runner", "/nonexistent"], "no runner at /nonexistent"),
                            (["--runner", self.runner("exit 0"), "--runs", "0"], "--runs=0"),
                            (["--runner", self.runner("echo boom >&2; exit 3")], "exited 3: boom")):
            rc, out, err = self.bench(*args)
            self.assertEqual(rc, 2, err)
            self.assertIn(words, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertNotIn("Traceback", err)


if __name__ == "__main__":
    unittest.main()
