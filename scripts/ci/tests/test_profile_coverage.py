"""Tests of scripts/ci/profile_coverage.py with a stand-in runner (no device needed)."""

import json
import os
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR, TempFiles

SCRIPT = os.path.join(SCRIPTS_DIR, "ci/profile_coverage.py")
RUNNER = os.environ.get("CTS_RUNNER")

# --list prints FAKE_CASES ("name  # tier" lines); a run writes a report whose statuses come from
# FAKE_STATUS[profile][case] (default NotSupported), and records its profile in FAKE_LOG.
FAKE_RUNNER = """import json, os, sys
cases = json.loads(os.environ["FAKE_CASES"])
if "--list" in sys.argv:
    for c in cases:
        print(c + "  # core")
    sys.exit(0)
profile = os.environ["REFDEV_PROFILE"]
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write(profile + " " + " ".join(a for a in sys.argv[1:] if not a.startswith("--json=")) + "\\n")
status = json.loads(os.environ["FAKE_STATUS"]).get(profile, {})
word = {"Pass": "pass", "Fail": "fail", "NotSupported": "skip", "Crash": "fail"}
doc = {"results": {}, "cases": []}
for c in cases:
    s = status.get(c, "NotSupported")
    doc["results"][c] = word[s]
    doc["cases"].append({"name": c, "status": s, "message": "needs something" if s != "Pass" else ""})
path = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--json=")][0]
with open(path, "w") as f:
    json.dump(doc, f)
"""


class ProfileCoverage(TempFiles, unittest.TestCase):
    CASES = ["g.a", "g.b", "g.sg64"]

    def run_check(self, status, exempt=None, extra=()):
        runner = self.write("runner.py", FAKE_RUNNER)
        wrapper = self.write("runner.sh", "#!/bin/sh\nexec %s %s \"$@\"\n" % (sys.executable, runner))
        os.chmod(wrapper, 0o755)
        self.log = os.path.join(self.tmp.name, "runs.log")
        exempt_path = self.write("exempt.json", {"exempt": exempt or []})
        env = dict(os.environ, FAKE_CASES=json.dumps(self.CASES), FAKE_STATUS=json.dumps(status),
                   FAKE_LOG=self.log)
        proc = subprocess.run([sys.executable, SCRIPT, "--runner", wrapper, "--profiles", "p1,p2",
                               "--exempt", exempt_path] + list(extra),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, env=env)
        return proc.returncode, proc.stdout

    def test_union_of_profiles_covers_every_case(self):
        rc, out = self.run_check({"p1": {"g.a": "Pass", "g.b": "Pass"}, "p2": {"g.sg64": "Pass"}})
        self.assertEqual(rc, 0, out)
        self.assertIn("3 cases listed; 3 pass on some profile; 0 exempt; 0 pass nowhere; 0 failures", out)
        with open(self.log) as f:
            self.assertEqual([line.split()[0] for line in f], ["p1", "p2"])

    def test_a_case_no_profile_passes_fails_the_check_and_is_named_with_a_reason(self):
        rc, out = self.run_check({"p1": {"g.a": "Pass", "g.b": "Pass"}})
        self.assertEqual(rc, 1, out)
        self.assertIn("1 pass nowhere", out)
        self.assertIn("g.sg64", out)
        self.assertIn("p1: NotSupported: needs something", out)

    def test_a_failure_on_any_profile_fails_the_check(self):
        rc, out = self.run_check({"p1": {"g.a": "Pass", "g.b": "Pass", "g.sg64": "Pass"}, "p2": {"g.a": "Fail"}})
        self.assertEqual(rc, 1, out)
        self.assertIn("FAILED on p2: g.a: Fail", out)

    def test_an_exemption_with_its_reason_covers_a_case_and_a_stale_one_is_an_error(self):
        status = {"p1": {"g.a": "Pass", "g.b": "Pass"}}
        rc, out = self.run_check(status, [{"pattern": "g.sg*", "reason": "needs a 64-lane device"}])
        self.assertEqual(rc, 0, out)
        self.assertIn("1 exempt; 0 pass nowhere", out)
        status["p2"] = {"g.sg64": "Pass"}
        rc, out = self.run_check(status, [{"pattern": "g.sg*", "reason": "needs a 64-lane device"}])
        self.assertEqual(rc, 1, out)
        self.assertIn("stale exemption (matches no case that passes nowhere): g.sg*", out)

    def test_an_exemption_without_a_reason_is_bad_input(self):
        rc, out = self.run_check({}, [{"pattern": "g.sg*", "reason": " "}])
        self.assertEqual(rc, 2, out)
        self.assertIn("non-empty \"reason\"", out)

    def test_extended_reaches_runs_and_list_alike(self):
        rc, out = self.run_check({"p1": {c: "Pass" for c in self.CASES}}, extra=["--extended"])
        self.assertEqual(rc, 0, out)
        with open(self.log) as f:
            for line in f:
                self.assertIn("--extended --huge", line)

    def test_reports_from_an_earlier_step_are_read_not_rerun(self):
        reports = os.path.join(self.tmp.name, "reports")
        os.makedirs(reports)
        for profile, status in (("p1", "Pass"), ("p2", "NotSupported")):
            word = "pass" if status == "Pass" else "skip"
            self.write(os.path.join("reports", "results_%s.json" % profile),
                       {"results": {c: word for c in self.CASES},
                        "cases": [{"name": c, "status": status} for c in self.CASES]})
        rc, out = self.run_check({}, extra=["--reports", reports])
        self.assertEqual(rc, 0, out)
        self.assertFalse(os.path.exists(self.log), "a run happened although reports were given")
        self.assertIn("(read)", out)

    def test_a_missing_report_is_bad_input(self):
        rc, out = self.run_check({}, extra=["--reports", os.path.join(self.tmp.name, "nowhere")])
        self.assertEqual(rc, 2, out)


if __name__ == "__main__":
    unittest.main()
