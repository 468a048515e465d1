"""Tests of scripts/checks/family_footprint.py and scripts/assets/families.py on small git trees made for the test."""

import os
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR, TempFiles

FOOTPRINT = os.path.join(SCRIPTS_DIR, "checks/family_footprint.py")
FAMILIES = os.path.join(SCRIPTS_DIR, "assets/families.py")


class FamilyTree(TempFiles):
    """A git tree with family `alpha` (and a composing family `combo`) under test_conformance/."""

    def setUp(self):
        super().setUp()
        self.put("test_conformance/alpha/family.json", '{"group": "alpha", "docs": "docs/alpha.md"}')
        self.put("test_conformance/combo/family.json", '{"group": "combo", "composes": ["alpha"]}')
        # Places that do not count: its folders and files, docs, tests, benchmarks, prose, data, combo.
        for path in ["test_conformance/alpha/a.cpp", "lib/alpha/x.h", "scripts/assets/generators/alpha.py",
                     "docs/alpha.md", "docs/other.md", "README.md", "lib/tests/t.py", "lib/x_test.cpp",
                     "scripts/tests/test_x.py", "lib/bench/b.cpp",
                     "data/cases.json", "lib/combo/c.cpp", "scripts/assets/generators/combo.py", "docs/repro/r.spvasm"]:
            self.put(path, "uses alpha\n")
        # Not a word: does not name the family.
        self.put("lib/ext.cpp", "SPV_INTEL_alpha rules_alpha\n")

    def put(self, path, text):
        full = os.path.join(self.tmp.name, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)

    def git(self):
        for cmd in (["init", "-q"], ["add", "-A"]):
            subprocess.run(["git", "-C", self.tmp.name] + cmd, check=True)

    def run_script(self, script, *args):
        p = subprocess.run([sys.executable, script] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        return p.returncode, p.stdout, p.stderr


class Footprint(FamilyTree, unittest.TestCase):
    def test_files_inside_its_folders_and_the_exclusions_do_not_count(self):
        self.git()
        rc, out, err = self.run_script(FOOTPRINT, "--repo", self.tmp.name, "--list")
        self.assertEqual(rc, 0, out + err)
        self.assertIn("alpha", out)
        self.assertIn(" 0 file(s)", out)
        self.assertNotIn("combo", out)  # a composing family is not counted

    def test_more_central_files_than_the_limit_fail_naming_them(self):
        for i in range(5):
            self.put("central/file%d.cpp" % i, "register(alpha);\n")
        self.git()
        rc, out, _ = self.run_script(FOOTPRINT, "--repo", self.tmp.name)
        self.assertEqual(rc, 1, out)
        self.assertIn("central/file4.cpp", out)
        self.assertIn("alpha named outside their folders by more than 4 files", out)
        rc, out, _ = self.run_script(FOOTPRINT, "--repo", self.tmp.name, "--max", "5")
        self.assertEqual(rc, 0, out)

    def test_not_a_checkout_is_one_line_and_status_2(self):
        rc, out, err = self.run_script(FOOTPRINT, "--repo", self.tmp.name)
        self.assertEqual(rc, 2, out + err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertTrue(err.startswith("family_footprint: "), err)


class Descriptors(FamilyTree, unittest.TestCase):
    def test_a_group_other_than_its_folder_is_one_line_and_status_2(self):
        self.put("test_conformance/alpha/family.json", '{"group": "beta"}')
        self.git()
        rc, out, err = self.run_script(FOOTPRINT, "--repo", self.tmp.name)
        self.assertEqual(rc, 2, out + err)
        self.assertIn('"group" must be \'alpha\'', err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)

    def test_the_repository_lists_its_families(self):
        rc, out, err = self.run_script(FAMILIES, "--top")
        self.assertEqual(rc, 0, err)
        names = out.split()
        self.assertEqual(names[0], "api")
        self.assertEqual(names[1:], sorted(names[1:]))
        rc, _, err = self.run_script(FAMILIES, "--bogus")
        self.assertEqual(rc, 2)
        self.assertEqual(err, "usage: families.py [--top]\n")


if __name__ == "__main__":
    unittest.main()
