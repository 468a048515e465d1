"""Tests of scripts/judges/runtime_offline_cross_check.py on small synthetic runtime and offline reports."""

import os
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR, TempFiles
from reports.tests.test_merge_results import shard

CHECK = os.path.join(SCRIPTS_DIR, "judges/runtime_offline_cross_check.py")
MANIFEST = {"version": 1, "cases": [{"name": "f.a.1", "module": "f/a.spv"}, {"name": "f.a.2", "module": "f/a.spv"},
                                     {"name": "f.b.1", "module": "f/b.spv"}, {"name": "f.c.1", "module": "f/c.spv"},
                                     {"name": "f.d.1", "module": "f/d.spv"}]}
REJECTED_LOG = "clBuildProgram: CL_BUILD_PROGRAM_FAILURE\nerror: Block reads not supported in SIMD32\n"


def report(cases, **edits):
    """A report of (name, status) cases; edits: {name: extra case keys}."""
    doc = shard(cases)
    for c in doc["cases"]:
        c.update(edits.get(c["name"], {}))
    return doc


def rejected_core(name):
    return {name: {"phase": "build", "build_log": REJECTED_LOG}}


# Both sides agree: a built, b rejected (a core Fail on one side, a device-specific NotSupported on the other),
# c built on the runtime only (the offline target lacks a requirement), d judged by neither.
RUNTIME = report([("f.a.1", "Pass"), ("f.a.2", "NotSupported"), ("f.b.1", "Fail"), ("f.c.1", "Pass"),
                  ("f.d.1", "NotSupported")], **rejected_core("f.b.1"))
OFFLINE = report([("f.a.1", "Pass"), ("f.a.2", "Pass"), ("f.b.1", "NotSupported"), ("f.c.1", "NotSupported"),
                  ("f.d.1", "NotSupported")],
                 **{"f.b.1": {"message": "device-specific module not accepted by this device's compiler: error: x"},
                    "f.c.1": {"message": "device does not report cl_intel_subgroup_local_block_io"}})


class RuntimeOfflineCrossCheckTest(TempFiles, unittest.TestCase):
    def check(self, runtime, offline, explanations=None, *args):
        argv = [sys.executable, CHECK, "--manifest", self.write("manifest.json", MANIFEST),
                "bmg=%s,%s" % (self.write("rt.json", runtime), self.write("off.json", offline))]
        argv += ["--explanations", self.write("expl.json", {"explanations": explanations or []})]
        p = subprocess.run(argv + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        return p.returncode, p.stdout, p.stderr

    def test_agreement_exits_0(self):
        rc, out, err = self.check(RUNTIME, OFFLINE)
        self.assertEqual(rc, 0, out + err)
        self.assertIn("bmg: 2 modules compared, 2 agreed (1 built, 1 rejected), 0 disagreements (0 explained), 1 one-sided", out)
        self.assertIn("runtime only (offline: device does not report cl_intel_subgroup_local_block_io)", out)

    def test_disagreement_fails_with_both_error_lines(self):
        offline = report([("f.a.1", "Fail"), ("f.a.2", "Fail"), ("f.b.1", "Pass"), ("f.c.1", "NotSupported"),
                          ("f.d.1", "NotSupported")],
                         **{"f.a.1": {"phase": "build", "build_log": "Command was: ocloc\nerror: no SIMD32"},
                            "f.a.2": {"phase": "build", "build_log": "error: no SIMD32"}})
        rc, out, err = self.check(RUNTIME, offline)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("DISAGREE bmg f/a.spv: runtime built; offline rejected: error: no SIMD32", out)
        self.assertIn("DISAGREE bmg f/b.spv: runtime rejected: error: Block reads not supported in SIMD32; "
                      "offline built", out)
        self.assertIn("2 disagreements (0 explained)", out)

    def test_explained_disagreement_passes_and_waived_keeps_its_phase(self):
        runtime = report([("f.a.1", "Pass"), ("f.b.1", "Waived"), ("f.c.1", "Pass")],
                         **{"f.b.1": {"phase": "build", "build_log": REJECTED_LOG, "original_status": "Fail"}})
        offline = report([("f.a.1", "Pass"), ("f.b.1", "Pass"), ("f.c.1", "Pass")])
        expl = [{"module": "f/b*", "products": ["bmg"], "reason": "the runtime passes an option ocloc does not"}]
        rc, out, err = self.check(runtime, offline, expl)
        self.assertEqual(rc, 0, out + err)
        self.assertIn("EXPLAINED bmg f/b.spv", out)
        self.assertIn("3 modules compared, 2 agreed (2 built, 0 rejected), 1 disagreements (1 explained)", out)

    def test_stale_explanation_fails_unless_its_products_were_not_checked(self):
        expl = [{"module": "f/zzz.spv", "products": ["bmg", "pvc"], "reason": "gone"}]
        rc, out, err = self.check(RUNTIME, OFFLINE, expl)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("STALE explanation f/zzz.spv", out)
        rc, out, err = self.check(RUNTIME, OFFLINE, [dict(expl[0], products=["pvc"])])
        self.assertEqual(rc, 0, out + err)

    def test_malformed_report_exits_2_with_one_line(self):
        bad = report([("f.a.1", "Pass")])
        bad["cases"][0]["status"] = "Great"
        rc, out, err = self.check(RUNTIME, bad)
        self.assertEqual(rc, 2, out + err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn("off.json", err)

    def test_absent_report_exits_77_with_skip_missing_else_2(self):
        argv = [sys.executable, CHECK, "--manifest", self.write("manifest.json", MANIFEST),
                "bmg=%s,%s" % (self.write("rt.json", RUNTIME), os.path.join(self.tmp.name, "none.json"))]
        p = subprocess.run(argv + ["--skip-missing"], stdout=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(p.returncode, 77, p.stdout)
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)


if __name__ == "__main__":
    unittest.main()
