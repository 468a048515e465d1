"""Tests of scripts/faults/fault_campaign.py --require-every-case with a stand-in runner (no device needed)."""

import json
import os
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR, TempFiles

CAMPAIGN = os.path.join(SCRIPTS_DIR, "faults/fault_campaign.py")

# Writes the JSON report the campaign reads: FAKE_RESULTS maps "clean" or the fault name to {case: status}.
# Like the reference device, it does not open for a profile or fault it does not know (profiles: xe_hpc,
# xe_hpg): the report then says the run was aborted for want of a device. FAKE_LOG, when set, records each run.
FAKE_RUNNER = """import json, os, sys
fault = os.environ.get("REFDEV_FAULTS") or "clean"
known = json.loads(os.environ["FAKE_RESULTS"])
path = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--json=")][0]
if os.environ.get("FAKE_LOG"):
    with open(os.environ["FAKE_LOG"], "a") as f:
        f.write("%s %s\\n" % (os.environ.get("REFDEV_PROFILE", "-"), fault))
if fault not in known or os.environ.get("REFDEV_PROFILE", "xe_hpc") not in ("xe_hpc", "xe_hpg"):
    doc = {"results": {}, "aborted": "device", "errors": ["no OpenCL platform found"]}
else:
    doc = {"results": known[fault], "aborted": None, "errors": []}
with open(path, "w") as f:
    json.dump(doc, f)
"""


def fake_faults_tool(test, names):
    """A stand-in for refdev_faults: --names lists these."""
    tool = test.write("refdev_faults", "#!/bin/sh\necho '%s'\n" % "\n".join(names))
    os.chmod(tool, 0o755)
    return tool


class RequireEveryCase(TempFiles, unittest.TestCase):
    def campaign(self, results, manifest_cases, extra=()):
        runner = self.write("runner.py", FAKE_RUNNER)
        wrapper = self.write("runner.sh", "#!/bin/sh\nexec %s %s \"$@\"\n" % (sys.executable, runner))
        os.chmod(wrapper, 0o755)
        os.makedirs(os.path.join(self.tmp.name, "assets"))
        self.write(os.path.join("assets", "manifest.json"), {"version": 3, "cases": manifest_cases})
        self.log = os.path.join(self.tmp.name, "runs.log")
        env = dict(os.environ, FAKE_RESULTS=json.dumps(results), FAKE_LOG=self.log)
        proc = subprocess.run([sys.executable, CAMPAIGN, "grp", "--runner", wrapper, "--icd", self.tmp.name,
                               "--assets-dir", os.path.join(self.tmp.name, "assets"), "--faults",
                               "kernel_not_run", "--require-every-case",
                               "--faults-tool", fake_faults_tool(self, ["kernel_not_run"])] + list(extra),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, env=env)
        return proc.returncode, proc.stdout

    MANIFEST = [{"name": "grp.kernel_a", "module": "m.spv"}, {"name": "grp.kernel_b", "module": "m.spv"}]

    def test_every_kernel_case_failing_passes(self):
        rc, out = self.campaign({"clean": {"grp.kernel_a": "pass", "grp.kernel_b": "pass"},
                                 "kernel_not_run": {"grp.kernel_a": "fail", "grp.kernel_b": "fail"}},
                                self.MANIFEST)
        self.assertEqual(rc, 0, out)
        self.assertIn("2 kernel case(s) passed clean, 0 of them pass", out)

    def test_catching_json_into_a_directory_that_does_not_exist_yet(self):
        out_path = os.path.join(self.tmp.name, "ci", "sub", "catching.json")
        rc, out = self.campaign({"clean": {"grp.kernel_a": "pass", "grp.kernel_b": "pass"},
                                 "kernel_not_run": {"grp.kernel_a": "fail", "grp.kernel_b": "fail"}},
                                self.MANIFEST, ["--catching-json=" + out_path])
        self.assertEqual(rc, 0, out)
        with open(out_path) as f:
            self.assertEqual(json.load(f), {"kernel_not_run": ["grp.kernel_a", "grp.kernel_b"]})

    def test_a_kernel_case_that_survives_the_fault_fails_the_campaign(self):
        rc, out = self.campaign({"clean": {"grp.kernel_a": "pass", "grp.kernel_b": "pass"},
                                 "kernel_not_run": {"grp.kernel_a": "fail", "grp.kernel_b": "pass"}},
                                self.MANIFEST)
        self.assertEqual(rc, 1, out)
        self.assertIn("ERROR: 1 case(s) pass with kernel_not_run: grp.kernel_b", out)

    def test_cases_without_a_module_are_listed_not_counted(self):
        # A case the manifest lists without a module, or not at all (C++ cases), runs no kernel.
        rc, out = self.campaign({"clean": {"grp.kernel_a": "pass", "grp.query": "pass", "grp.cpp": "pass"},
                                 "kernel_not_run": {"grp.kernel_a": "fail", "grp.query": "pass", "grp.cpp": "pass"}},
                                self.MANIFEST[:1] + [{"name": "grp.query", "module": ""}])
        self.assertEqual(rc, 0, out)
        self.assertIn("not counted: 2 case(s) that run no kernel", out)
        self.assertIn("1 kernel case(s) passed clean", out)

    def test_an_unknown_profile_stops_the_campaign_before_any_fault_runs(self):
        # Issue 30, item 14: it was exit 1 "runner found no device", after the first profile's whole campaign.
        rc, out = self.campaign({"clean": {"grp.kernel_a": "pass", "grp.kernel_b": "pass"},
                                 "kernel_not_run": {"grp.kernel_a": "fail", "grp.kernel_b": "fail"}},
                                self.MANIFEST, ["--profile", "xe_hpc", "--profile", "xe_hcp"])
        self.assertEqual(rc, 2, out)
        self.assertEqual(out.strip().splitlines(), [
            "fault_campaign: the reference device did not open with profile xe_hcp (an unknown profile or fault "
            "name?): no OpenCL platform found"])
        with open(self.log) as f:
            self.assertEqual(f.read().splitlines(), ["xe_hpc clean", "xe_hcp clean"])

    def test_a_fault_the_device_refuses_is_exit_2(self):
        # Without refdev_faults to list the names up front, the device's refusal is the check.
        rc, out = self.campaign({"clean": {"grp.kernel_a": "pass", "grp.kernel_b": "pass"}}, self.MANIFEST,
                                ["--faults-tool", os.path.join(self.tmp.name, "none")])
        self.assertEqual(rc, 2, out)
        self.assertIn("fault_campaign: the reference device did not open with profile default and fault "
                      "kernel_not_run (an unknown profile or fault name?)", out)


class BadInput(TempFiles, unittest.TestCase):
    """Bad input stops the campaign before any run: one line, exit 2, inputs untouched."""

    def campaign(self, *args):
        tool = fake_faults_tool(self, ["x", "stale_load", "kernel_not_run"])
        p = subprocess.run([sys.executable, CAMPAIGN, "grp", "--runner", "/nonexistent/runner", "--icd",
                            self.tmp.name, "--faults-tool", tool] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE,
                           universal_newlines=True)
        return p.returncode, p.stderr

    def test_bad_faults_source_manifest_or_output(self):
        source = self.write("faults.cpp", '{"stale_load", "reads stale data"},')
        os.makedirs(os.path.join(self.tmp.name, "assets"))
        self.write(os.path.join("assets", "manifest.json"), {"cases": "grp.a"})
        for args, path, words in (
                (["--faults-source", os.path.join(self.tmp.name, "none.cpp")], "none.cpp", "No such file"),
                (["--faults-source", self.tmp.name], self.tmp.name, "is a directory"),
                (["--faults-source", self.write("empty.cpp", "// none")], "empty.cpp", "no fault names found"),
                (["--faults-source", source, "--catching-json=" + source], source, "is also an input"),
                (["--faults", "x", "--require-every-case", "--assets-dir", os.path.join(self.tmp.name, "assets")],
                 "manifest.json", "not a manifest")):
            rc, err = self.campaign(*args)
            self.assertEqual(rc, 2, (args, err))
            self.assertTrue(err.startswith("fault_campaign: ") and path in err.splitlines()[0], err)
            self.assertIn(words, err)
            self.assertEqual(len(err.splitlines()), 1, err)
        with open(source) as f:
            self.assertEqual(f.read(), '{"stale_load", "reads stale data"},')

    def test_bad_names_and_options_stop_the_campaign_before_any_run(self):
        # Issue 30, item 14. The runner does not exist: reaching it would be a traceback, not one line.
        fifo = os.path.join(self.tmp.name, "fifo")
        os.mkfifo(fifo)
        for args, words in ((["--faults", "x,nope"], "unknown fault nope ("),
                            (["--faults", "x", "--expect-build-fail", "nope2"], "unknown fault nope2"),
                            (["--faults", ""], "--faults names no fault"),
                            (["--faults", ","], "--faults names no fault"),
                            (["--faults", "x", "--jobs=0"], "--jobs must be at least 1"),
                            (["--faults", "x", "--catching-json=" + self.tmp.name], "it is a directory"),
                            (["--faults", "x", "--catching-json=" + fifo], "not a regular file"),
                            (["--faults", "x", "--skip-faults", "x"], "not --faults"),
                            (["--skip-faults", ","], "--skip-faults needs a non-empty list"),
                            (["--skip-faults", "x,hang"], "the selection does not have: hang")):
            rc, err = self.campaign(*args)
            self.assertEqual(rc, 2, (args, err))
            self.assertIn(words, err)
            self.assertNotIn("Traceback", err)
            self.assertTrue(err.startswith("fault_campaign: ") or err.startswith("usage:"), err)


class SkipFaults(TempFiles, unittest.TestCase):
    def test_skipped_faults_of_the_source_do_not_run(self):
        runner = self.write("runner.py", FAKE_RUNNER)
        wrapper = self.write("runner.sh", "#!/bin/sh\nexec %s %s \"$@\"\n" % (sys.executable, runner))
        os.chmod(wrapper, 0o755)
        source = self.write("faults.cpp", '{"f_a", "one"},\n{"f_wide", "only size 64"},\n{"f_b", "two"},')
        log = os.path.join(self.tmp.name, "runs.log")
        results = {"clean": {"grp.a": "pass"}, "f_a": {"grp.a": "fail"}, "f_b": {"grp.a": "fail"},
                   "f_wide": {"grp.a": "pass"}}
        env = dict(os.environ, FAKE_RESULTS=json.dumps(results), FAKE_LOG=log)
        proc = subprocess.run([sys.executable, CAMPAIGN, "grp", "--runner", wrapper, "--icd", self.tmp.name,
                               "--faults-source", source, "--skip-faults", "f_wide",
                               "--faults-tool", fake_faults_tool(self, ["f_a", "f_wide", "f_b"])],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, env=env)
        self.assertEqual(proc.returncode, 0, proc.stdout)
        with open(log) as f:
            self.assertEqual(f.read().split(), ["-", "clean", "-", "f_a", "-", "f_b"])
        self.assertNotIn("f_wide", proc.stdout)


class DefaultIcd(TempFiles, unittest.TestCase):
    def test_build_tree_uses_its_icd_directory(self):
        from faults import fault_campaign
        self.assertEqual(fault_campaign.default_icd(self.tmp.name), os.path.join(self.tmp.name, "icd"))

    def test_installed_prefix_names_its_own_library(self):
        # Its .icd file names the library without a path, which the loader alone would not find.
        from faults import fault_campaign
        os.makedirs(os.path.join(self.tmp.name, "share", "spirv_intel_cts", "icd"))
        self.write("share/spirv_intel_cts/icd/refdev.icd", "libRefDevOpenCL.so\n")
        self.assertEqual(fault_campaign.default_icd(self.tmp.name),
                         os.path.join(self.tmp.name, "lib", "spirv_intel_cts", "libRefDevOpenCL.so"))


class FamilyCampaigns(TempFiles, unittest.TestCase):
    """--family runs every campaign of a family's descriptor (test_conformance/<group>/family.json)."""

    def campaign(self, results, entries, family="grp"):
        runner = self.write("runner.py", FAKE_RUNNER)
        wrapper = self.write("runner.sh", "#!/bin/sh\nexec %s %s \"$@\"\n" % (sys.executable, runner))
        os.chmod(wrapper, 0o755)
        os.makedirs(os.path.join(self.tmp.name, "test_conformance", "grp"))
        self.write(os.path.join("test_conformance", "grp", "family.json"),
                   {"group": "grp", "fault_campaigns": entries})
        env = dict(os.environ, FAKE_RESULTS=json.dumps(results))
        proc = subprocess.run([sys.executable, CAMPAIGN, "--family", family, "--families-root", self.tmp.name,
                               "--runner", wrapper, "--icd", self.tmp.name,
                               "--faults-tool", fake_faults_tool(self, ["f1", "f2"])],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, env=env)
        return proc.returncode, proc.stdout, proc.stderr

    RESULTS = {"clean": {"grp.a": "pass"}, "f1": {"grp.a": "fail"}, "f2": {"grp.a": "pass"}}

    def test_every_entry_runs_and_the_worst_status_wins(self):
        rc, out, err = self.campaign(self.RESULTS, [{"title": "first", "args": ["--faults", "f1"]},
                                                    {"title": "second", "args": ["--faults", "f2"]}])
        self.assertEqual(rc, 1, out + err)
        self.assertIn("=== fault campaign (first)", out)
        self.assertIn("=== fault campaign (second)", out)
        self.assertIn("fault(s) caught by no case: f2", out)

    def test_all_caught_passes(self):
        rc, out, err = self.campaign(self.RESULTS, [{"title": "first", "args": ["--faults", "f1"]}])
        self.assertEqual(rc, 0, out + err)

    def test_unknown_family_is_one_line_and_status_2(self):
        rc, out, err = self.campaign(self.RESULTS, [{"title": "first", "args": ["--faults", "f1"]}], "nope")
        self.assertEqual(rc, 2, out + err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn("no family 'nope'", err)


if __name__ == "__main__":
    unittest.main()
