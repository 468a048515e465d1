"""Offline tests of scripts/setup/install_triton.sh: the installed-already path on a stand-in venv, and the failures
that must be one clear line (a foreign directory, an unreachable index, a wheel directory without the wheel).
The real install (a 182 MB wheel from PyPI, or --wheel-dir) is not part of the tests."""

import os
import subprocess
import unittest

from testing.common import SCRIPTS_DIR, TempFiles

SCRIPT = os.path.join(SCRIPTS_DIR, "setup/install_triton.sh")
OFFLINE = {"PIP_INDEX_URL": "http://127.0.0.1:9/simple", "PIP_RETRIES": "0", "PIP_TIMEOUT": "1",
           "PIP_CONFIG_FILE": os.devnull}


class InstallTritonTest(TempFiles, unittest.TestCase):
    def run_script(self, *args, env_extra=None):
        env = dict(os.environ)
        for name in ("TRITON_DIR", "PIP_FIND_LINKS"):
            env.pop(name, None)
        env.update(env_extra or {})
        p = subprocess.run([SCRIPT] + list(args), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=300)
        return p.returncode, p.stdout, p.stderr

    def fake_install(self, d, answers=0):
        """DIR as the script leaves it: the stamp and a venv python whose check of the pinned distribution
        exits `answers`."""
        os.makedirs(os.path.join(d, "venv", "bin"))
        python = os.path.join(d, "venv", "bin", "python")
        with open(python, "w") as f:
            f.write("#!/bin/sh\ncat >/dev/null\nexit %d\n" % answers)
        os.chmod(python, 0o755)
        with open(os.path.join(d, ".spirv_intel_cts_triton"), "w"):
            pass
        return python

    def one_error_line(self, err):
        lines = [line for line in err.splitlines() if line.strip()]
        self.assertEqual(len(lines), 1, err)
        return lines[0]

    def test_help_and_bad_arguments(self):
        rc, out, _ = self.run_script("--help")
        self.assertEqual(rc, 0)
        for word in ("--dir=DIR", "--wheel-dir=DIR", "--print-python", "triton-xpu==3.3.0b1", "TRITON_DIR",
                     "PIP_FIND_LINKS", "spirv_intel_cts/triton-xpu-3.3.0b1"):
            self.assertIn(word, out)
        rc, _, err = self.run_script("--bogus")
        self.assertEqual((rc, err), (2, "install_triton: error: unknown argument '--bogus' (see --help)\n"))
        for arg in ("--dir=", "--dir"):
            rc, _, err = self.run_script(arg)
            self.assertEqual((rc, err), (2, "install_triton: error: --dir needs a directory: --dir=DIR (see --help)\n"))
        rc, _, err = self.run_script("--wheel-dir=" + os.path.join(self.tmp.name, "absent"))
        self.assertEqual(rc, 2, err)
        self.assertIn("is not a directory", err)

    def test_an_installed_venv_is_printed_and_nothing_is_downloaded(self):
        d = os.path.join(self.tmp.name, "triton")
        python = self.fake_install(d)
        rc, out, err = self.run_script("--dir=" + d, "--print-python", env_extra=OFFLINE)
        self.assertEqual(rc, 0, err)
        self.assertEqual(out, python + "\n")
        self.assertIn("already in", err)
        rc, out, err = self.run_script(env_extra=dict(OFFLINE, TRITON_DIR=d))
        self.assertEqual(rc, 0, err)
        self.assertIn("triton-xpu==3.3.0b1 already in " + os.path.join(d, "venv"), out)

    def test_a_venv_without_the_pinned_release_is_installed_again_and_an_unreachable_index_is_one_line(self):
        d = os.path.join(self.tmp.name, "triton")
        self.fake_install(d, answers=1)
        rc, out, err = self.run_script("--dir=" + d, env_extra=OFFLINE)
        self.assertEqual(rc, 1, out + err)
        self.assertTrue(self.one_error_line(err).startswith(
            "install_triton: error: pip could not install triton-xpu==3.3.0b1 (is PyPI reachable?)"), err)

    def test_a_wheel_directory_without_the_wheel_is_one_line_and_reads_no_index(self):
        wheels = os.path.join(self.tmp.name, "wheels")
        os.makedirs(wheels)
        d = os.path.join(self.tmp.name, "triton")
        rc, out, err = self.run_script("--dir=" + d, "--wheel-dir=" + wheels, env_extra=OFFLINE)
        self.assertEqual(rc, 1, out + err)
        line = self.one_error_line(err)
        self.assertTrue(line.startswith("install_triton: error: pip could not install triton-xpu==3.3.0b1 from %s "
                                        "(no cp" % wheels), line)
        self.assertIn("from " + wheels, out)
        with open(os.path.join(d, "install.log")) as f:
            self.assertNotIn("127.0.0.1", f.read())

    def test_a_directory_it_did_not_make_is_refused_and_left_as_it_was(self):
        d = os.path.join(self.tmp.name, "mine")
        os.makedirs(d)
        self.write("mine/notes.txt", "keep")
        rc, _, err = self.run_script("--dir=" + d, env_extra=OFFLINE)
        self.assertEqual(rc, 2, err)
        self.assertIn("holds files this script did not make", err)
        self.assertEqual(sorted(os.listdir(d)), ["notes.txt"])
        path = self.write("a_file", "x")
        rc, _, err = self.run_script("--dir=" + path, env_extra=OFFLINE)
        self.assertEqual(rc, 2, err)
        self.assertIn("is not a directory", err)


if __name__ == "__main__":
    unittest.main()
