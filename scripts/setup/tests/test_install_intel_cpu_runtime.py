"""Offline tests of scripts/setup/install_intel_cpu_runtime.sh: the installed-already path on a venv laid out as pip
leaves it (the reference device's library standing in for libintelocl.so), and the failures that must be one
clear line. The real download is not part of the tests (about 280 MB from PyPI)."""

import os
import shutil
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR, TempFiles

SCRIPT = os.path.join(SCRIPTS_DIR, "setup/install_intel_cpu_runtime.sh")
REFDEV_LIBRARY = os.environ.get("CTS_REFDEV_LIBRARY", "")
DISTRIBUTIONS = ("intel_opencl_rt-2026.2.0", "intel_cmplr_lib_rt-2026.2.0")


class InstallIntelCpuRuntimeTest(TempFiles, unittest.TestCase):
    def run_script(self, *args, env_extra=None):
        env = dict(os.environ)
        env.pop("INTEL_CPU_RUNTIME_DIR", None)
        env.update(env_extra or {})
        p = subprocess.run([SCRIPT] + list(args), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=300)
        return p.returncode, p.stdout, p.stderr

    def fake_install(self, library_text=None):
        """DIR/venv as pip leaves it, with libintelocl.so a copy of the reference device (or library_text)."""
        d = os.path.join(self.tmp.name, "rt")
        venv = os.path.join(d, "venv")
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
        site = os.path.join(venv, "lib", "python%d.%d" % sys.version_info[:2], "site-packages")
        for dist in DISTRIBUTIONS:
            os.makedirs(os.path.join(site, dist + ".dist-info"))
            with open(os.path.join(site, dist + ".dist-info", "RECORD"), "w") as f:
                f.write("../../libintelocl.so,sha256=x,1\n")
        lib = os.path.join(venv, "lib", "libintelocl.so")
        if library_text is None:
            shutil.copy(REFDEV_LIBRARY, lib)
        else:
            with open(lib, "w") as f:
                f.write(library_text)
        return os.path.realpath(d), os.path.realpath(lib)

    def assert_one_error_line(self, rc, err, *words):
        self.assertEqual(rc, 1, err)
        lines = [line for line in err.splitlines() if line.strip()]
        self.assertEqual(len(lines), 1, err)
        self.assertTrue(lines[0].startswith("install_intel_cpu_runtime: error: "), err)
        for w in words:
            self.assertIn(w, lines[0])

    def test_help_and_unknown_arguments(self):
        rc, out, _ = self.run_script("--help")
        self.assertEqual(rc, 0)
        for word in ("--dir=DIR", "--print-icd", "intel-opencl-rt==2026.2.0", "intel-cmplr-lib-rt==2026.2.0",
                     "INTEL_CPU_RUNTIME_DIR"):
            self.assertIn(word, out)
        rc, _, err = self.run_script("--bogus")
        self.assertEqual(rc, 2)
        self.assertIn("unknown argument '--bogus'", err)
        # Issue 30, item 25: an empty --dir= said "unknown argument".
        for arg in ("--dir=", "--dir"):
            rc, _, err = self.run_script(arg)
            self.assertEqual((rc, err), (2, "install_intel_cpu_runtime: error: --dir needs a directory: --dir=DIR "
                                            "(see --help)\n"))

    OFFLINE = {"PIP_INDEX_URL": "http://127.0.0.1:9/simple", "PIP_RETRIES": "0", "PIP_TIMEOUT": "1",
               "PIP_CONFIG_FILE": os.devnull}

    def snapshot(self, d):
        """Every path under d with its size: what the script must leave as it was."""
        return sorted((os.path.relpath(os.path.join(root, n), d), os.lstat(os.path.join(root, n)).st_size)
                      for root, dirs, files in os.walk(d) for n in dirs + files)

    def test_a_venv_it_did_not_make_is_neither_cleared_nor_installed_into(self):
        # Issue 30, item 4: a user's DIR/venv whose pip does not answer was made again with --clear (their files
        # gone) before anything was downloaded; one whose pip works received 830 MB.
        d = os.path.join(self.tmp.name, "mine")
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", os.path.join(d, "venv")], check=True)
        with open(os.path.join(d, "venv", "notes.txt"), "w") as f:
            f.write("my work\n")
        before = self.snapshot(d)
        rc, out, err = self.run_script("--dir=" + d, env_extra=self.OFFLINE)
        self.assertEqual(rc, 2, out + err)
        self.assertEqual(err, "install_intel_cpu_runtime: error: %s/venv exists and was not made by this script "
                              "(no .spirv_intel_cts_cpu_runtime in %s): it is neither installed into nor replaced; "
                              "choose a new or empty --dir\n" % (os.path.realpath(d), os.path.realpath(d)))
        self.assertEqual(self.snapshot(d), before)

    def test_a_directory_with_other_files_is_refused_untouched(self):
        d = os.path.join(self.tmp.name, "home")
        os.makedirs(d)
        with open(os.path.join(d, "pip.log"), "w") as f:
            f.write("the user's own log\n")
        before = self.snapshot(d)
        rc, out, err = self.run_script("--dir=" + d, env_extra=self.OFFLINE)
        self.assertEqual(rc, 2, out + err)
        self.assertIn("%s is not empty and was not made by this script" % os.path.realpath(d), err)
        self.assertEqual(self.snapshot(d), before)
        rc, out, err = self.run_script("--dir=" + os.path.join(d, "pip.log"))
        self.assertEqual(rc, 2, out + err)
        self.assertIn("pip.log exists and is not a directory", err)

    def test_a_new_directory_is_claimed_with_a_stamp_and_its_broken_venv_may_be_remade(self):
        d = os.path.join(self.tmp.name, "new")
        rc, out, err = self.run_script("--dir=" + d, env_extra=self.OFFLINE)
        if rc == 1 and "python3 -m venv is unusable" in err:
            self.skipTest("python3 -m venv cannot create a venv with pip here: " + err.strip())
        self.assertEqual(rc, 1, out + err)  # the index is unreachable
        self.assertTrue(os.path.isfile(os.path.join(d, ".spirv_intel_cts_cpu_runtime")))
        self.assertTrue(os.path.isfile(os.path.join(d, "venv", "bin", "python3")))
        # Its own venv, broken (no pip), is made again rather than refused.
        os.remove(os.path.join(d, "pip.log"))
        shutil.rmtree(os.path.join(d, "venv", "lib"))
        rc, out, err = self.run_script("--dir=" + d, env_extra=self.OFFLINE)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("unreachable", err)
        self.assertTrue(os.path.isfile(os.path.join(d, "pip.log")))

    @unittest.skipUnless(REFDEV_LIBRARY, "CTS_REFDEV_LIBRARY not set (run through CTest)")
    def test_installed_runtime_is_not_downloaded_again(self):
        d, lib = self.fake_install()
        for args, env in ((["--dir=" + d], {}), ([], {"INTEL_CPU_RUNTIME_DIR": d})):
            rc, out, err = self.run_script(*args, env_extra=env)
            self.assertEqual(rc, 0, err)
            self.assertIn("already installed in %s (nothing downloaded)" % d, out)
            self.assertIn("platform: RefDev", out)
            self.assertNotIn("downloading", out + err)
            self.assertFalse(os.path.exists(os.path.join(d, "pip.log")))
        with open(os.path.join(d, "icd", "intel-cpu.icd")) as f:
            self.assertEqual(f.read(), lib + "\n")
        with open(os.path.join(d, "icd", "intel-cpu.package")) as f:
            self.assertEqual(f.read(), "intel-opencl-rt 2026.2.0\n")
        # --print-icd: the path alone on standard output, for $(...).
        rc, out, err = self.run_script("--dir=" + d, "--print-icd")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out, os.path.join(d, "icd", "intel-cpu.icd") + "\n")
        self.assertIn("already installed", err)

    def test_library_without_a_platform_is_refused(self):
        d, lib = self.fake_install(library_text="not a library")
        rc, out, err = self.run_script("--dir=" + d, "--print-icd")
        self.assert_one_error_line(rc, err, lib, "cannot be loaded")
        self.assertEqual(out, "")
        self.assertFalse(os.path.exists(os.path.join(d, "icd", "intel-cpu.icd")))

    def test_unreachable_index_names_the_pip_log(self):
        d = os.path.join(self.tmp.name, "fresh")
        rc, out, err = self.run_script("--dir=" + d, env_extra={
            "PIP_INDEX_URL": "http://127.0.0.1:9/simple", "PIP_FIND_LINKS": self.tmp.name, "PIP_RETRIES": "1",
            "PIP_TIMEOUT": "2", "PIP_CONFIG_FILE": os.devnull})
        log = os.path.join(os.path.realpath(d), "pip.log")
        if rc == 1 and "python3 -m venv is unusable" in err:
            self.skipTest("python3 -m venv cannot create a venv with pip here: " + err.strip())
        self.assert_one_error_line(rc, err, "unreachable", "exited with 1", log)
        self.assertTrue(os.path.isfile(log))
        self.assertFalse(os.path.exists(os.path.join(d, "icd")))

    def test_venv_failure_and_foreign_cpu_are_one_line(self):
        bin_dir = os.path.join(self.tmp.name, "bin")
        os.makedirs(bin_dir)
        # A python3 whose venv module fails as Debian's does without python3-venv, and a uname of another CPU.
        with open(os.path.join(bin_dir, "python3"), "w") as f:
            f.write("#!/bin/sh\n[ \"$1 $2\" = \"-m venv\" ] && { echo 'ensurepip is not available' >&2; exit 1; }\n"
                    "exec %s \"$@\"\n" % sys.executable)
        os.chmod(os.path.join(bin_dir, "python3"), 0o755)
        path = bin_dir + os.pathsep + os.environ.get("PATH", "")
        d = os.path.join(self.tmp.name, "novenv")
        rc, _, err = self.run_script("--dir=" + d, env_extra={"PATH": path})
        self.assert_one_error_line(rc, err, "python3 -m venv is unusable", "python3-venv",
                                   os.path.join(os.path.realpath(d), "venv.log"))
        with open(os.path.join(bin_dir, "uname"), "w") as f:
            f.write("#!/bin/sh\necho aarch64\n")
        os.chmod(os.path.join(bin_dir, "uname"), 0o755)
        rc, _, err = self.run_script("--dir=" + d, env_extra={"PATH": path})
        self.assert_one_error_line(rc, err, "needs an x86_64 CPU", "aarch64")


if __name__ == "__main__":
    unittest.main()
