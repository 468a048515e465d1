"""driver_report_cross_check.py: the comparison of the imitation with the driver, on synthetic device answers."""
import io
import json
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stdout
from unittest import mock

from judges import driver_report_cross_check as check


def device(extensions=(), **over):
    d = {"extensions": [{"name": n, "version": v} for n, v in extensions], "il_versions": ["SPIR-V_1.2"],
         "spirv_extensions": ["SPV_INTEL_subgroups"], "spirv_capabilities": [5568], "sub_group_sizes": [16, 32],
         "fp16": True, "fp64": True, "int64": True, "image_support": True, "has_spirv_queries": True,
         "image2d_rw_formats": [[0x10B0, 0x10DB]]}
    d.update(over)
    return d


READS = ({"cl_intel_spirv_subgroups"}, {"SPIR-V_1.2"}, {"SPV_INTEL_subgroups"}, {5568},
         {(0x10B0, 0x10DB, "CL_R/CL_UNSIGNED_INT16")})
BASE = [("cl_intel_spirv_subgroups", "1.0.0")]


class Differences(unittest.TestCase):
    def test_equal_answers_and_unread_extensions_do_not_differ(self):
        self.assertEqual(check.differences(device(BASE + [("cl_khr_gl_sharing", "1.0.0")]), device(BASE), READS), [])

    def test_each_read_field_differs(self):
        both = BASE + [("cl_intel_subgroup_local_block_io", "1.0.0")]
        real = device(both)
        cases = {
            "extension:cl_intel_subgroup_local_block_io": device(BASE),  # a neighbour, though the suite names it not
            "extension_version:cl_intel_spirv_subgroups": device([("cl_intel_spirv_subgroups", "0.9.0"),
                                                                  ("cl_intel_subgroup_local_block_io", "1.0.0")]),
            "il_version:SPIR-V_1.2": device(both, il_versions=["SPIR-V_1.1"]),
            "sub_group_sizes": device(both, sub_group_sizes=[16]),
            "fp64": device(both, fp64=False),
            "image_format:CL_R/CL_UNSIGNED_INT16": device(both, image2d_rw_formats=[]),
            "spirv_capability:5568": device(both, spirv_capabilities=[]),
        }
        for field, ref in cases.items():
            self.assertEqual([f for f, _ in check.differences(real, ref, READS)], [field], field)


class Main(unittest.TestCase):
    def run_main(self, explained, real, ref):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "explained.json")
            with open(path, "w") as f:
                json.dump({"differences": explained}, f)
            answers = iter([real, ref])
            out = io.StringIO()
            with mock.patch.object(check, "suite_reads", return_value=READS), \
                    mock.patch.object(check, "device_info", side_effect=lambda *a: next(answers)), redirect_stdout(out):
                return check.main(["--explained=" + path, "bmg"]), out.getvalue()

    def test_agreement_passes(self):
        self.assertEqual(self.run_main([], device(BASE), device(BASE))[0], 0)

    def test_a_difference_fails_unless_explained(self):
        real, ref = device(BASE, fp16=False), device(BASE)
        rc, out = self.run_main([], real, ref)
        self.assertEqual(rc, 1)
        self.assertIn("DIFFERENCE bmg (xe2): fp16", out)
        why = [{"products": ["bmg"], "field": "fp16", "reason": "a reason"}]
        self.assertEqual(self.run_main(why, real, ref)[0], 0)

    def test_a_stale_explanation_fails(self):
        why = [{"products": ["bmg"], "field": "fp16", "reason": "no longer true"}]
        rc, out = self.run_main(why, device(BASE), device(BASE))
        self.assertEqual(rc, 1)
        self.assertIn("STALE", out)

    def test_a_malformed_explanation_is_bad_input(self):
        self.assertEqual(self.run_main([{"field": "fp16"}], device(BASE), device(BASE))[0], 2)


if __name__ == "__main__":
    unittest.main()
