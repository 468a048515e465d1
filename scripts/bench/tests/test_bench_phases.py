"""Tests of scripts/bench/bench_phases.py: usage errors, the table from a stand-in runner's reports, and a real run on
the reference device whose report says which case built its module and which found it in the cache."""

import json
import os
import subprocess
import sys
import unittest

from testing.common import REPO_DIR, SCRIPTS_DIR, TempFiles

BENCH = os.path.join(SCRIPTS_DIR, "bench/bench_phases.py")
RUNNER = os.environ.get("CTS_RUNNER") or os.path.join(REPO_DIR, "build", "bin", "spirv_intel_cts")

# A runner that writes a one-case report with the phase totals below, and its arguments to ARGS_LOG.
FAKE_RUNNER = r'''#!%s
import json, os, sys
args = sys.argv[1:]
with open(os.environ["ARGS_LOG"], "a") as f:
    f.write(json.dumps(args) + "\n")
if os.environ.get("FAKE_EXIT"):
    sys.stderr.write("no device\n")
    sys.exit(int(os.environ["FAKE_EXIT"]))
report = next(a[len("--json="):] for a in args if a.startswith("--json="))
phases = {"build_ms": 1500.0, "builds": 41, "cache_hits": 320, "kernel_ms": 4500.0, "check_ms": 250.0,
          "worker_start_ms": 800.0}
with open(report, "w") as f:
    json.dump({"results": {"a.b": "pass"}, "device": "Fake", "phase_totals": phases,
               "cases": [{"name": "a.b", "status": "Pass", "phases": phases}]}, f)
'''


def run(*args, env=None):
    p = subprocess.run([sys.executable, BENCH] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, env=env)
    return p.returncode, p.stdout, p.stderr


class Usage(TempFiles, unittest.TestCase):
    def expect_usage_error(self, args, words):
        rc, out, err = run(*args)
        self.assertEqual(rc, 2, out + err)
        lines = err.strip().splitlines()
        self.assertEqual(len(lines), 1, err)
        self.assertTrue(lines[0].startswith("bench_phases.py: error: "), err)
        for w in words:
            self.assertIn(w, lines[0])
        self.assertEqual(out, "", "nothing measured")

    def test_missing_runner_icd_and_options_the_script_sets(self):
        self.expect_usage_error(["--runner", "/nonexistent/spirv_intel_cts"], ["--runner", "/nonexistent"])
        self.expect_usage_error(["--runner", sys.executable, "--icd", "/nonexistent.icd"], ["--icd"])
        self.expect_usage_error(["--runner", sys.executable, "--mode=--json=x.json"], ["--json"])
        self.expect_usage_error(["--runner", sys.executable, "--mode=--jobs='2"], ["--mode"])


class Table(TempFiles, unittest.TestCase):
    def setUp(self):
        super().setUp()
        self.runner = os.path.join(self.tmp.name, "fake_runner")
        with open(self.runner, "w") as f:
            f.write(FAKE_RUNNER % sys.executable)
        os.chmod(self.runner, 0o755)
        self.log = os.path.join(self.tmp.name, "args.log")
        self.env = dict(os.environ, ARGS_LOG=self.log)

    def test_one_row_a_mode_with_the_phase_totals(self):
        icd = self.write("x.icd", "libX.so\n")
        out_json = os.path.join(self.tmp.name, "out.json")
        rc, out, err = run("--runner", self.runner, "--icd", icd, "--mode=--jobs=1", "--mode=--isolate --jobs=2",
                           "--json", out_json, "subgroups.shuffle.*", env=self.env)
        self.assertEqual(rc, 0, out + err)
        lines = out.splitlines()
        self.assertEqual(lines[0], "device: Fake (--icd=%s); selection: subgroups.shuffle.*" % icd)
        self.assertEqual(lines[1].split(), ["mode", "wall", "s", "cases", "build", "s", "built", "cached", "kernel",
                                            "s", "check", "s", "start", "s"])
        self.assertEqual(lines[2].split()[0], "--jobs=1")
        self.assertEqual(lines[2].split()[2:], ["1", "1.50", "41", "320", "4.50", "0.25", "0.80"])
        self.assertEqual(lines[3].split()[:2], ["--isolate", "--jobs=2"])
        self.assertEqual(len(lines), 4)
        with open(self.log) as f:
            calls = [json.loads(line) for line in f]
        self.assertEqual(len(calls), 2)
        self.assertEqual(calls[0][0], "--jobs=1")
        self.assertEqual(calls[1][:2], ["--isolate", "--jobs=2"])
        for c in calls:
            self.assertIn("--icd=" + icd, c)
            self.assertEqual(c[-1], "subgroups.shuffle.*")
        with open(out_json) as f:
            saved = json.load(f)
        self.assertEqual(saved["runs"][1]["phase_totals"]["builds"], 41)

    def test_a_run_that_fails_is_an_error(self):
        rc, out, err = run("--runner", self.runner, env=dict(self.env, FAKE_EXIT="3"))
        self.assertEqual(rc, 1, out + err)
        self.assertIn("exited 3: no device", err)


@unittest.skipUnless(os.access(RUNNER, os.X_OK), "no runner built")
class RealRun(TempFiles, unittest.TestCase):
    PATTERN = "subgroups.shuffle.f16.v1.sg16.*"  # one module, a few dozen cases

    def test_the_first_case_builds_the_module_the_next_ones_hit_the_cache(self):
        report = os.path.join(self.tmp.name, "r.json")
        env = {k: v for k, v in os.environ.items() if k != "OCL_ICD_VENDORS"}  # the reference device
        p = subprocess.run([RUNNER, "--isolate", "--json=" + report, self.PATTERN], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True, env=env)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertRegex(p.stdout, r"time by phase: build [0-9.]+ s \(1 built, \d+ cached\), kernel [0-9.]+ s, "
                                   r"check [0-9.]+ s, worker start [0-9.]+ s")
        with open(report) as f:
            doc = json.load(f)
        ran = [c for c in doc["cases"] if c["status"] == "Pass"]
        self.assertGreater(len(ran), 1)
        first, second = ran[0]["phases"], ran[1]["phases"]
        self.assertEqual((first["builds"], first["cache_hits"]), (1, 0))
        self.assertGreater(first["build_ms"], 0)
        self.assertGreater(first["worker_start_ms"], 0)  # --isolate: the worker's start-up
        self.assertEqual((second["builds"], second["cache_hits"], second["build_ms"]), (0, 1, 0))
        self.assertEqual(second["worker_start_ms"], 0)
        self.assertGreater(first["kernel_ms"], 0)
        totals = doc["phase_totals"]
        self.assertEqual(totals["builds"], 1)
        self.assertEqual(totals["cache_hits"], sum(c["phases"]["cache_hits"] for c in doc["cases"]))

    def test_the_script_prints_a_row_a_mode(self):
        rc, out, err = run("--runner", RUNNER, "--mode=--jobs=1", "--mode=--isolate", self.PATTERN)
        self.assertEqual(rc, 0, out + err)
        lines = out.splitlines()
        self.assertEqual(len(lines), 4, out)
        self.assertIn("reference device", lines[0])
        rows = [line.split() for line in lines[2:]]
        self.assertEqual([r[0] for r in rows], ["--jobs=1", "--isolate"])
        self.assertGreater(int(rows[0][2]), 1)
        self.assertEqual(rows[0][2], rows[1][2])  # the same cases
        self.assertEqual([r[4] for r in rows], ["1", "1"])  # one module built


if __name__ == "__main__":
    unittest.main()
