"""The two Debian package lists and the installer's options (no package is installed): every package a run
needs (debian_packages_run.txt, README's first command) is in the whole list (debian_packages.txt, CI and the
second command), neither names one twice, and install_deps.sh refuses an unknown option in one line."""

import os
import subprocess
import unittest

from testing.common import SCRIPTS_DIR

SETUP = os.path.join(SCRIPTS_DIR, "setup")


def packages(name):
    with open(os.path.join(SETUP, name), encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip() and not line.lstrip().startswith("#")]


class DebianPackagesTest(unittest.TestCase):
    def test_a_run_builds_every_group(self):
        # Without them the compiled.* cases would be absent from the first run.
        for tool in ("clang-15", "llvm-spirv-15"):
            self.assertIn(tool, packages("debian_packages_run.txt"))

    def test_a_run_needs_a_subset_of_the_whole_list(self):
        run, whole = packages("debian_packages_run.txt"), packages("debian_packages.txt")
        self.assertTrue(run, "the run list is empty")
        self.assertEqual(sorted(set(run) - set(whole)), [], "in the run list but not in the whole list")
        self.assertLess(len(run), len(whole), "the run list installs everything")

    def test_no_package_twice(self):
        for name in ("debian_packages_run.txt", "debian_packages.txt"):
            names = packages(name)
            self.assertEqual(len(names), len(set(names)), name)

    def test_a_run_needs_no_judge_or_format_tool(self):
        # What makes the first command slow and is not needed to run the suite on the reference device.
        for heavy in ("intel-opencl-icd", "pocl-opencl-icd", "oclgrind", "clang-format-14", "ccache", "patchelf"):
            self.assertNotIn(heavy, packages("debian_packages_run.txt"))

    def test_unknown_option_is_one_line_and_status_2(self):
        p = subprocess.run([os.path.join(SETUP, "install_deps.sh"), "--bogus"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, timeout=30)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
        self.assertIn("--bogus", p.stderr)


if __name__ == "__main__":
    unittest.main()
