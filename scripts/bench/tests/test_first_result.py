"""scripts/bench/first_result.sh's refusals, which need no network and make no system: an unknown option, a
--root that holds no Debian system, an option missing its value; each one line on stderr and status 2. (The
measurement itself needs root, debootstrap and the network: README, "Performance", gives the command.)"""

import os
import subprocess
import tempfile
import unittest

from testing.common import SCRIPTS_DIR

SCRIPT = os.path.join(SCRIPTS_DIR, "bench", "first_result.sh")


def run(*args):
    p = subprocess.run([SCRIPT] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=60)
    return p.returncode, p.stderr


class FirstResultTest(unittest.TestCase):
    def assertRefused(self, status, stderr, text):
        self.assertEqual(status, 2, stderr)
        self.assertIn(text, stderr)
        self.assertLessEqual(len(stderr.strip().splitlines()), 2, stderr)  # the usage line and the reason

    def test_unknown_option(self):
        self.assertRefused(*run("--bogus"), "unknown option '--bogus'")

    def test_option_without_value(self):
        self.assertRefused(*run("--root"), "--root needs a directory")

    def test_root_without_a_system(self):
        if os.getuid() != 0:
            self.assertRefused(*run("--root", "/nonexistent"), "needs root")
            return
        with tempfile.TemporaryDirectory() as d:
            status, stderr = run("--root", d)
            self.assertRefused(status, stderr, "holds no Debian system")
            self.assertTrue(os.path.isdir(d), "a --root directory must never be removed")


if __name__ == "__main__":
    unittest.main()
