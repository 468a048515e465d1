"""Tests of scripts/bench/bench_startup.py with a stand-in runner (a shell script), so they time nothing real."""

import json
import os
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR, TempFiles

BENCH = os.path.join(SCRIPTS_DIR, "bench/bench_startup.py")


class BenchStartup(TempFiles, unittest.TestCase):
    def runner(self, body):
        path = self.write("runner.sh", "#!/bin/sh\n" + body + "\n")
        os.chmod(path, 0o755)
        return path

    def bench(self, *args):
        p = subprocess.run([sys.executable, BENCH] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        return p.returncode, p.stdout, p.stderr

    def test_prints_every_measurement_as_json_and_table(self):
        # The stand-in records its arguments: one case in process and in a worker, --list, --list-tags, the
        # --list read back as a case list and an exclude file, a run with a waiver file; each `runs` times.
        log = os.path.join(self.tmp.name, "calls")
        runner = self.runner('echo "$@" >> %s; [ "$1" != --list ] || printf "a.b\\nc.d\\n"' % log)
        rc, out, err = self.bench("--runner", runner, "--runs", "3", "--case", "a.b", "--json")
        self.assertEqual(rc, 0, err)
        doc = json.loads(out)
        self.assertEqual([r["what"] for r in doc["results"]], ["one case", "one, worker", "--list", "--list-tags",
                                                             "caselist", "exclude", "30k waivers"])
        for r in doc["results"]:
            self.assertGreater(r["wall_ms"], 0)
            self.assertGreater(r["peak_rss_mb"], 0)
        calls = open(log).read().split("\n")[:-1]
        # The listing the selection rows read back, then each measurement `runs` times.
        self.assertEqual(calls[:13], ["--list"] + ["a.b --jobs=1"] * 3 + ["a.b --jobs=2"] * 3 + ["--list"] * 3 +
                         ["--list-tags"] * 3)
        self.assertEqual([c.split("=")[0] for c in calls[13:]],
                         ["--caselist-file"] * 3 + ["--exclude-file"] * 3 + ["--jobs"] * 3)
        self.assertTrue(all(c.endswith(" --list") for c in calls[13:19]), calls)
        self.assertTrue(all(c.endswith(" api") and "--waiver-file=" in c for c in calls[19:]), calls)
        self.assertEqual(doc["listed"], 2)
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
