"""check_clinfo_targets.py fails when what clinfo shows differs from a description (a copy of the targets with
one fact changed), and passes on the real descriptions. argv: ICD_DIR TARGETS_DIR."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "check_clinfo_targets.py")
ICD_DIR, TARGETS_DIR = sys.argv[1], sys.argv[2]


class CheckClinfoTargets(unittest.TestCase):
    def check(self, targets, *extra):
        return subprocess.run([sys.executable, SCRIPT, ICD_DIR, targets] + list(extra), capture_output=True,
                              text=True, check=False)

    def changed_copy(self, target, change):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        copy = os.path.join(tmp, "targets")
        shutil.copytree(TARGETS_DIR, copy)
        path = os.path.join(copy, target + ".json")
        with open(path) as f:
            doc = json.load(f)
        change(doc)
        with open(path, "w") as f:
            json.dump(doc, f)
        return copy

    def test_real_descriptions_match(self):
        r = self.check(TARGETS_DIR)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_a_sub_group_size_the_class_lacks_fails(self):
        r = self.check(self.changed_copy("runtime/intel-cpu", lambda d: d.update(sub_group_sizes=[8, 16, 32])),
                       "--profiles", "cpu")
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("FAIL cpu vs runtime/intel-cpu.json: sub-group sizes [4, 8, 16, 32, 64] != [8, 16, 32]",
                      r.stdout)

    def test_another_version_fails(self):
        def change(d):
            d["extensions"]["cl_intel_subgroup_2d_block_io"] = "1.0.0"
        r = self.check(self.changed_copy("lnl-m", change), "--profiles", "xe2")
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("cl_intel_subgroup_2d_block_io is 1.1.0, the class reports 1.0.0", r.stdout)

    def test_an_extension_the_class_lacks_fails(self):
        def change(d):
            del d["extensions"]["cl_intel_spirv_media_block_io"]
        r = self.check(self.changed_copy("mtl", change), "--profiles", "xe_lpg")
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("reports cl_intel_spirv_media_block_io, which the class lacks", r.stdout)

    def test_images_and_fp64_are_compared(self):
        def change(d):
            d["fp64"] = False
            d["images"]["supported"] = False
        r = self.check(self.changed_copy("ptl", change), "--profiles", "xe3")
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("image support True != False", r.stdout)
        self.assertIn("fp64 True != False", r.stdout)

    def test_withheld_only_where_clinfo_shows_the_requirement_unmet(self):
        # cl_khr_subgroups is excused only while clinfo shows independent forward progress "No"; with "Yes"
        # the extension is expected again.
        sys.path.insert(0, HERE)
        import check_clinfo_targets as ct
        text = ct.clinfo(ICD_DIR, "xe_hpc")
        self.assertEqual(ct.device_facts(text)["withheld"], {"cl_khr_subgroups"})
        shown = text.replace("independent forward progress        No", "independent forward progress        Yes")
        self.assertNotEqual(shown, text, "clinfo's forward-progress line changed: update WITHHELD")
        self.assertEqual(ct.device_facts(shown)["withheld"], set())


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
