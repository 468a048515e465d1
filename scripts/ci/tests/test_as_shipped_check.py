"""Tests of scripts/ci/as_shipped_check.py with synthetic reports."""

import copy
import os
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR, TempFiles
from ci import as_shipped_check
from assets import families
from reports import report_io

TOOL = os.path.join(SCRIPTS_DIR, "ci/as_shipped_check.py")
BLOCK = "ext=cl_intel_subgroup_2d_block_io@1.1"
MMA = "ext=cl_intel_subgroup_matrix_multiply_accumulate@1.1"
MANIFEST = {"cases": [
    {"name": "2d_block_io.load.a", "requires": [BLOCK, "spirv=1.2"]},
    {"name": "matrix_multiply_accumulate.a", "requires": [MMA]},
    {"name": "workloads.gemm", "requires": [BLOCK, MMA]},
    {"name": "workloads.reduce", "requires": ["ext=cl_intel_spirv_subgroups"]},
    {"name": "subgroups.shuffle", "requires": ["ext=cl_intel_spirv_subgroups"]},
]}
GAP_NAMES = {"2d_block_io.load.a": ["cl_intel_subgroup_2d_block_io"],
             "matrix_multiply_accumulate.a": ["cl_intel_subgroup_matrix_multiply_accumulate"],
             "workloads.gemm": ["cl_intel_subgroup_2d_block_io", "cl_intel_subgroup_matrix_multiply_accumulate"]}
LINES = ("cl_intel_subgroup_2d_block_io 1.0.0: SPIR-V support is promised from 1.1.0; 2 case(s) run as "
         "device_specific\ncl_intel_subgroup_matrix_multiply_accumulate 1.0.0: SPIR-V support is promised from "
         "1.1.0; 2 case(s) run as device_specific\n")


def report(cases, version_gaps=None):
    doc = {"results": {n: report_io.RESULT_WORD[s] for n, s, _ in cases},
           "cases": [dict({"name": n, "status": s, "tier": t}, **(
               {"version_gaps": GAP_NAMES[n]} if version_gaps is not None and n in GAP_NAMES else {}))
               for n, s, t in cases]}
    if version_gaps is not None:
        doc["version_gaps"] = version_gaps
    return doc


SPEC = report([("2d_block_io.load.a", "Pass", "core"), ("matrix_multiply_accumulate.a", "Pass", "core"),
               ("workloads.gemm", "Pass", "core"), ("workloads.reduce", "Pass", "core"),
               ("subgroups.shuffle", "Pass", "core")])
GAPS = [{"extension": "cl_intel_subgroup_2d_block_io", "reported": "1.0.0", "promised_from": "1.1.0", "cases": 2},
        {"extension": "cl_intel_subgroup_matrix_multiply_accumulate", "reported": "1.0.0",
         "promised_from": "1.1.0", "cases": 2}]
SHIPPED = report([("2d_block_io.load.a", "Pass", "device_specific"),
                  ("matrix_multiply_accumulate.a", "Pass", "device_specific"),
                  ("workloads.gemm", "Pass", "device_specific"), ("workloads.reduce", "Pass", "core"),
                  ("subgroups.shuffle", "Pass", "core")], GAPS)


class AsShippedCheck(TempFiles, unittest.TestCase):
    def run_tool(self, spec=SPEC, shipped=SHIPPED, log=LINES, manifest=MANIFEST, extra=()):
        args = [sys.executable, TOOL, self.write("spec.json", spec), self.write("shipped.json", shipped),
                "--manifest", self.write("manifest.json", manifest), "--output", self.write("run.log", log)]
        p = subprocess.run(args + list(extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        return p.returncode, p.stdout, p.stderr

    def shipped_with(self, name, **changes):
        doc = copy.deepcopy(SHIPPED)
        for c in doc["cases"]:
            if c["name"] == name:
                c.update(changes)
                doc["results"][name] = report_io.RESULT_WORD[c["status"]]
        return doc

    def test_the_as_shipped_run_as_expected_passes(self):
        rc, out, err = self.run_tool()
        self.assertEqual(rc, 0, out + err)
        self.assertIn("4 passing case(s)", out)
        self.assertIn("version gap cl_intel_subgroup_2d_block_io: reported 1.0.0, SPIR-V promised from 1.1.0: "
                      "2 case(s) device_specific", out)

    def test_a_case_that_no_longer_passes_fails(self):
        rc, out, _ = self.run_tool(shipped=self.shipped_with("2d_block_io.load.a", status="NotSupported"))
        self.assertEqual(rc, 1, out)
        self.assertIn("2d_block_io.load.a: NotSupported in the as-shipped run (Pass in the spec run)", out)

    def test_a_gap_case_kept_core_fails_and_a_case_without_gap_keeps_its_tier(self):
        rc, out, _ = self.run_tool(shipped=self.shipped_with("workloads.gemm", tier="core"))
        self.assertEqual(rc, 1, out)
        self.assertIn("workloads.gemm: tier core in the as-shipped run, expected device_specific", out)
        rc, out, _ = self.run_tool(shipped=self.shipped_with("workloads.reduce", tier="device_specific"))
        self.assertEqual(rc, 1, out)
        self.assertIn("workloads.reduce: tier device_specific in the as-shipped run, expected core", out)

    def test_case_gaps_must_be_named(self):
        rc, out, _ = self.run_tool(shipped=self.shipped_with("workloads.gemm",
                                                             version_gaps=["cl_intel_subgroup_2d_block_io"]))
        self.assertEqual(rc, 1, out)
        self.assertIn("workloads.gemm: names version gaps", out)

    def test_a_missing_case_and_any_failing_case_fail(self):
        doc = copy.deepcopy(SHIPPED)
        doc["cases"] = [c for c in doc["cases"] if c["name"] != "matrix_multiply_accumulate.a"]
        del doc["results"]["matrix_multiply_accumulate.a"]
        rc, out, _ = self.run_tool(shipped=doc)
        self.assertEqual(rc, 1, out)
        self.assertIn("matrix_multiply_accumulate.a: passes in the spec run, absent", out)
        rc, out, _ = self.run_tool(shipped=self.shipped_with("subgroups.shuffle", status="Crash"))
        self.assertEqual(rc, 1, out)
        self.assertIn("subgroups.shuffle: Crash in the as-shipped run", out)

    def test_the_report_and_the_output_must_name_the_gap(self):
        doc = copy.deepcopy(SHIPPED)
        # A report whose cases carry a gap its top level does not list, or counts too few of, disagrees with
        # itself: report_io refuses it as malformed (exit 2) before the comparison.
        doc["version_gaps"] = GAPS[:1]
        rc, _, err = self.run_tool(shipped=doc)
        self.assertEqual(rc, 2, err)
        self.assertIn("cl_intel_subgroup_matrix_multiply_accumulate, which \"version_gaps\" does not list", err)
        doc["version_gaps"] = [dict(GAPS[0], cases=1), GAPS[1]]
        rc, _, err = self.run_tool(shipped=doc)
        self.assertEqual(rc, 2, err)
        self.assertIn("counts 1 case(s) for cl_intel_subgroup_2d_block_io but 2 case(s) carry it", err)
        rc, out, _ = self.run_tool(log=LINES.splitlines()[0])
        self.assertEqual(rc, 1, out)
        self.assertIn("does not say \"cl_intel_subgroup_matrix_multiply_accumulate 1.0.0: SPIR-V support is "
                      "promised from 1.1.0\"", out)

    def test_nothing_to_compare_fails(self):
        rc, out, _ = self.run_tool(spec=report([("subgroups.shuffle", "Pass", "core")]))
        self.assertEqual(rc, 1, out)
        self.assertIn("nothing to compare", out)

    def test_bad_input_is_one_line(self):
        rc, out, err = self.run_tool(manifest={"cases": 3})
        self.assertEqual(rc, 2, out + err)
        self.assertRegex(err, r"^as_shipped_check: .*manifest.json: not an asset manifest")
        self.assertEqual(len(err.strip().splitlines()), 1)
        rc, out, err = self.run_tool(spec="{")
        self.assertEqual(rc, 2, out + err)
        self.assertIn("spec.json: not a runner JSON report", err)


class VersionGapGroupsTest(TempFiles, unittest.TestCase):
    """The compared families come from the descriptors, not from a list in the script."""

    def family(self, group, **fields):
        os.makedirs(os.path.join(self.tmp.name, "test_conformance", group))
        self.write(os.path.join("test_conformance", group, "family.json"), dict(group=group, **fields))

    def test_promised_above_1_0_and_their_composers(self):
        self.family("new_ext", opencl_extension_min_version="1.1")
        self.family("old_ext", opencl_extension_min_version="1.0")
        self.family("mixes_new", composes=["old_ext", "new_ext"])
        self.family("mixes_old", composes=["old_ext"])
        self.assertEqual(as_shipped_check.version_gap_groups(self.tmp.name), ("mixes_new", "new_ext"))

    def test_malformed_version_is_a_family_error(self):
        self.family("bad", opencl_extension_min_version="one")
        with self.assertRaises(families.FamilyError):
            as_shipped_check.version_gap_groups(self.tmp.name)


if __name__ == "__main__":
    unittest.main()
