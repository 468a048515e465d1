"""Offline tests of scripts/setup/install_intel_compute_runtime.sh: usage errors, --where on a directory without the
runtime, and the refusal of a --dir it did not make (nothing in it changed). The real download (Debian sid's
intel-opencl-icd with IGC) is not part of the tests."""

import os
import subprocess
import unittest

from testing.common import SCRIPTS_DIR, TempFiles

SCRIPT = os.path.join(SCRIPTS_DIR, "setup/install_intel_compute_runtime.sh")
ME = "install_intel_compute_runtime.sh"
# Nothing listens on port 9 (discard) of the loopback interface: the connection is refused at once.
UNREACHABLE = "http://127.0.0.1:9/debian"


class InstallIntelComputeRuntimeTest(TempFiles, unittest.TestCase):
    def run_script(self, *args, env_extra=None):
        env = dict(os.environ)
        env.pop("INTEL_COMPUTE_RUNTIME_DIR", None)
        env["INTEL_COMPUTE_RUNTIME_MIRROR"] = UNREACHABLE
        env.update(env_extra or {})
        p = subprocess.run([SCRIPT] + list(args), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=300)
        return p.returncode, p.stdout, p.stderr

    def snapshot(self, d):
        """Every path under d with its size and modification time: what the script must leave as it was."""
        return sorted((os.path.relpath(os.path.join(root, n), d), os.lstat(os.path.join(root, n)).st_size,
                       os.lstat(os.path.join(root, n)).st_mtime_ns)
                      for root, dirs, files in os.walk(d) for n in dirs + files)

    def test_help_and_usage_errors(self):
        rc, out, _ = self.run_script("--help")
        self.assertEqual(rc, 0)
        for word in ("--dir=DIR", "--mirror=URL", "--print-icd", "--where", "intel-opencl-icd 26.27.39122.14",
                     "libigc2 libigdfcl2 2.40.14", "INTEL_COMPUTE_RUNTIME_DIR", "INTEL_COMPUTE_RUNTIME_MIRROR",
                     "icd/intel-gpu.icd", "icd/intel-gpu.package", "bmg pvc dg2 mtl lnl-m ptl"):
            self.assertIn(word, out)
        for args, message in ((["--bogus"], "unknown argument '--bogus' (see --help)"),
                              (["--dir="], "--dir needs a value: --dir=DIR (see --help)"),
                              (["--dir"], "--dir needs a value: --dir=DIR (see --help)"),
                              (["--mirror="], "--mirror needs a value: --mirror=URL (see --help)"),
                              (["--mirror=deb.debian.org/debian"],
                               "--mirror=deb.debian.org/debian is not an http://, https:// or file:/ URL")):
            with self.subTest(args):
                rc, out, err = self.run_script(*args)
                self.assertEqual((rc, out, err), (2, "", "%s: error: %s\n" % (ME, message)))

    def test_where_without_an_install(self):
        d = os.path.join(self.tmp.name, "none")
        rc, out, err = self.run_script("--where", "--dir=" + d)
        self.assertEqual((rc, out), (1, ""))
        self.assertEqual(err, "%s: error: not installed in %s (run scripts/%s)\n" % (ME, d, ME))
        self.assertFalse(os.path.exists(d))

    def test_a_directory_it_did_not_make_is_refused(self):
        # Like install_intel_ocloc.sh before issue 44, a DIR holding someone's files would have had DIR/root
        # replaced and DIR/apt.log and DIR/icd written. Refused, untouched, before anything is fetched.
        d = os.path.join(self.tmp.name, "home")
        for name, text in (("root/mine.txt", "keep"), ("icd/intel-gpu.icd", "/mine.so"), ("apt.log", "mine")):
            os.makedirs(os.path.dirname(os.path.join(d, name)), exist_ok=True)
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        before = self.snapshot(d)
        for args, env in ((["--dir=" + d], {}), (["--print-icd"], {"INTEL_COMPUTE_RUNTIME_DIR": d})):
            with self.subTest(args):
                rc, out, err = self.run_script(*args, env_extra=env)
                self.assertEqual((rc, out), (2, ""), err)
                self.assertEqual(err, "%s: error: %s is not empty and was not made by %s (no "
                                      ".spirv_intel_cts_compute_runtime in it); choose a new or empty --dir\n"
                                 % (ME, os.path.realpath(d), ME))
                self.assertEqual(self.snapshot(d), before)
        f = self.write("plain_file", "x")
        rc, out, err = self.run_script("--dir=" + f)
        self.assertEqual((rc, out, err), (2, "", "%s: error: --dir=%s exists and is not a directory\n" % (ME, f)))
        with open(f) as fh:
            self.assertEqual(fh.read(), "x")

    def test_a_directory_it_made_is_used_again(self):
        # A new directory is stamped; a later run (here failing at the unreachable archive, or earlier at a
        # missing tool) takes it as the script's own instead of refusing it.
        d = os.path.join(self.tmp.name, "fresh")
        for _ in range(2):
            rc, _, err = self.run_script("--dir=" + d)
            self.assertEqual(rc, 1, err)
            self.assertNotIn("was not made by", err)
        self.assertTrue(os.path.isfile(os.path.join(d, ".spirv_intel_cts_compute_runtime")))
        self.assertFalse(os.path.exists(os.path.join(d, "root")))
        self.assertEqual([n for n in os.listdir(d) if n.startswith(".work")], [])


if __name__ == "__main__":
    unittest.main()
