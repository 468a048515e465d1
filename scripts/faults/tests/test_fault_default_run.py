"""Tests of scripts/faults/fault_campaign.py --all-faults --default-run with a stand-in runner and fault list."""

import json
import os
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR, TempFiles

CAMPAIGN = os.path.join(SCRIPTS_DIR, "faults/fault_campaign.py")
EXEMPT = ["hang", "crash", "build_rejects_half_vector_shuffle", "kernel_arg_address_qualifier_private",
          "alignment_decoration_ignored", "async_copy_stride_ignored", "sampler_clamp_to_edge_as_clamp",
          "spec_constant_ignored"]

# FAKE_RESULTS maps "clean", "FAULT" or "FAULT@PROFILE" (optionally "+quick" for --quick runs) to
# {case: [status, duration_ms]}; every run appends "FAULT PROFILE ARGS" to FAKE_LOG.
FAKE_RUNNER = """import json, os, sys
fault, profile = os.environ.get("REFDEV_FAULTS") or "clean", os.environ.get("REFDEV_PROFILE")
quick = "+quick" if "--quick" in sys.argv else ""
table = json.loads(os.environ["FAKE_RESULTS"])
results = table.get(fault + "@" + profile + quick, table.get(fault + quick, table.get(fault, {})))
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write("%s %s %s\\n" % (fault, profile, " ".join(a for a in sys.argv[1:] if not a.startswith("--json="))))
path = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--json=")][0]
with open(path, "w") as f:
    word = {"Pass": "pass", "Flake": "pass", "NotSupported": "skip"}  # the runner's CTS words; others "fail"
    json.dump({"results": {n: word.get(s, "fail") for n, (s, ms) in results.items()}, "aborted": None, "errors": [],
               "cases": [{"name": n, "status": s, "duration_ms": ms} for n, (s, ms) in results.items()]}, f)
"""


class DefaultRun(TempFiles, unittest.TestCase):
    def check(self, results, faults, *extra):
        runner = self.write("runner.py", FAKE_RUNNER)
        wrapper = self.write("runner.sh", "#!/bin/sh\nexec %s %s \"$@\"\n" % (sys.executable, runner))
        tool = self.write("faults.sh", "#!/bin/sh\nprintf '%s\\n'\n" % "\\n".join(faults))
        for path in (wrapper, tool):
            os.chmod(path, 0o755)
        os.makedirs(os.path.join(self.tmp.name, "reference_device", "ext", "grp"))
        self.write(os.path.join("reference_device", "ext", "grp", "faults.cpp"), '{"grp_fault", "x"},')
        self.log = os.path.join(self.tmp.name, "log")
        env = dict(os.environ, FAKE_RESULTS=json.dumps(results), FAKE_LOG=self.log)
        proc = subprocess.run([sys.executable, CAMPAIGN, "--all-faults", "--default-run", "--runner", wrapper,
                               "--icd", self.tmp.name, "--faults-tool", tool, "--families-root", self.tmp.name,
                               "--jobs", "1"] + list(extra),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, env=env,
                              timeout=120)
        return proc.returncode, proc.stdout, proc.stderr

    CLEAN = {"clean": {"grp.a": ["Pass", 1.0], "other.b": ["Pass", 1.0]}}

    def test_every_fault_caught_names_the_smallest_case_and_the_stage(self):
        results = dict(self.CLEAN, **{
            "grp_fault@xe_hpg": {"grp.big": ["Fail", 9.0], "grp.small": ["Fail", 0.5], "grp.a": ["Pass", 1.0]},
            "core_fault": {"other.b": ["Fail", 2.0]}})
        rc, out, err = self.check(results, ["core_fault", "grp_fault"] + EXEMPT)
        self.assertEqual(rc, 0, out + err)
        self.assertRegex(out, r"grp_fault +xe_hpg +group +2 failing; smallest: grp.small \(0.50 ms\)")
        self.assertRegex(out, r"core_fault +xe_hpc +default +1 failing; smallest: other.b")
        self.assertRegex(out, r"hang +exempt: ")
        with open(self.log) as f:
            runs = f.read().splitlines()
        # The group's quick cases first, then the group, then (core_fault) the whole default run.
        self.assertIn("grp_fault xe_hpc grp --quick", runs)
        self.assertIn("grp_fault xe_hpg grp", runs)
        self.assertIn("core_fault xe_hpc ", runs)
        self.assertFalse([r for r in runs if "--extended" in r or "--huge" in r], runs)

    def test_a_fault_no_default_case_fails_fails_the_check(self):
        rc, out, _ = self.check(dict(self.CLEAN), ["grp_fault"] + EXEMPT)
        self.assertEqual(rc, 1, out)
        self.assertIn("grp_fault", out)
        self.assertIn("NOT CAUGHT by the default run on xe_hpc, xe_hpg, xe2, xe3, xe_lpg, cpu", out)

    def test_every_profile_runs_clean_and_a_fault_is_tried_profile_by_profile_in_order(self):
        # A fault only the last profile shows (sub-group sizes 4 and 64 on cpu): each stage tries the
        # profiles in PROFILES order, so it is found in the group stage on cpu after five misses.
        results = dict(self.CLEAN, **{"grp_fault@cpu": {"grp.sg64": ["Fail", 1.0]}})
        rc, out, err = self.check(results, ["grp_fault"] + EXEMPT)
        self.assertEqual(rc, 0, out + err)
        self.assertRegex(out, r"grp_fault +cpu +group +1 failing; smallest: grp.sg64")
        with open(self.log) as f:
            runs = f.read().splitlines()
        order = ["xe_hpc", "xe_hpg", "xe2", "xe3", "xe_lpg", "cpu"]
        self.assertEqual(sorted(r.split()[1] for r in runs if r.startswith("clean ")), sorted(order))
        fault_runs = [r.split()[1] + (" quick" if "--quick" in r else "") for r in runs if r.startswith("grp_fault ")]
        self.assertEqual(fault_runs, [p + " quick" for p in order] + order)

    def test_the_profiles_of_a_campaign_line_listing_the_fault_come_first(self):
        # test_conformance/grp/family.json: the first line on xe_hpc and xe_hpg, a later one lists grp_fault on
        # cpu, so cpu is tried first, then the first line's profiles, then the rest in order.
        os.makedirs(os.path.join(self.tmp.name, "test_conformance", "grp"))
        self.write(os.path.join("test_conformance", "grp", "family.json"), {"fault_campaigns": [
            {"title": "grp", "args": ["--profile", "xe_hpg", "--profile", "xe_hpc"]},
            {"title": "grp: sizes 4 and 64", "args": ["--faults", "other_fault,grp_fault", "--profile", "cpu"]}]})
        results = dict(self.CLEAN, **{"grp_fault@cpu": {"grp.sg64": ["Fail", 1.0]}})
        rc, out, err = self.check(results, ["grp_fault"] + EXEMPT)
        self.assertEqual(rc, 0, out + err)
        with open(self.log) as f:
            runs = [r.split()[1] + (" quick" if "--quick" in r else "") for r in f.read().splitlines()
                    if r.startswith("grp_fault ")]
        order = ["cpu", "xe_hpg", "xe_hpc", "xe2", "xe3", "xe_lpg"]
        self.assertEqual(runs, [p + " quick" for p in order] + ["cpu"])

    def test_a_stale_exemption_fails_the_check(self):
        results = dict(self.CLEAN, grp_fault={"grp.a": ["Fail", 1.0]})
        rc, out, _ = self.check(results, ["grp_fault", "crash", "build_rejects_half_vector_shuffle",
                                          "alignment_decoration_ignored"])
        self.assertEqual(rc, 1, out)
        self.assertRegex(out, r"stale exemption\(s\), the device lists no such fault: .*\bhang\b")

    def test_a_faults_source_that_is_not_a_regular_file_is_one_line(self):
        # The path guard of every script input: a FIFO among the faults.cpp files blocked the campaign.
        os.makedirs(os.path.join(self.tmp.name, "reference_device", "ext", "zz"))
        os.mkfifo(os.path.join(self.tmp.name, "reference_device", "ext", "zz", "faults.cpp"))
        try:
            rc, out, err = self.check(dict(self.CLEAN, grp_fault={"grp.a": ["Fail", 1.0]}), ["grp_fault"] + EXEMPT)
        except subprocess.TimeoutExpired:
            self.fail("a FIFO as faults.cpp hangs the check")
        self.assertEqual(rc, 2, out + err)
        self.assertEqual(err.splitlines(), ["fault_campaign: %s: is not a regular file (a device, FIFO or socket), "
                                            "not a faults source file" % os.path.join(
                                                self.tmp.name, "reference_device", "ext", "zz", "faults.cpp")])

    def test_a_clean_failure_fails_the_check(self):
        results = {"clean": {"grp.a": ["Fail", 1.0]}, "grp_fault": {"grp.a": ["Fail", 1.0]}}
        rc, out, _ = self.check(results, ["grp_fault"] + EXEMPT)
        self.assertEqual(rc, 1, out)
        self.assertIn("ERROR: the clean device fails 1 case(s): grp.a", out)

    def test_runner_options_are_refused_in_one_line(self):
        rc, out, err = self.check(dict(self.CLEAN), ["grp_fault"] + EXEMPT, "--runner-arg=--extended")
        self.assertEqual(rc, 2, out + err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn("takes no --runner-arg", err)


if __name__ == "__main__":
    unittest.main()
