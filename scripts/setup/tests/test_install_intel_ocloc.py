"""Offline tests of scripts/setup/install_intel_ocloc.sh: usage errors, the installed-already path on a directory laid
out as the script leaves it (a stand-in wrapper answering the version query), and the failures that must be
one clear line: an unreachable archive and an unsigned one. The real download (about 71 MB from Debian sid)
is not part of the tests."""

import os
import shutil
import subprocess
import unittest

from testing.common import SCRIPTS_DIR, TempFiles

SCRIPT = os.path.join(SCRIPTS_DIR, "setup/install_intel_ocloc.sh")
# Nothing listens on port 9 (discard) of the loopback interface: the connection is refused at once.
UNREACHABLE = "http://127.0.0.1:9/debian"
HAVE_APT = all(shutil.which(t) for t in ("apt-get", "apt-cache", "dpkg", "dpkg-deb"))

# Answers `ocloc query OCL_DRIVER_VERSION` as ocloc does: the answer, NUL-terminated, in a file named after the
# query in the working directory.
STAND_IN = """#!/bin/sh
[ "$1 $2" = "query OCL_DRIVER_VERSION" ] || exit 1
printf '26.27.039122\\0' > OCL_DRIVER_VERSION
"""


class InstallIntelOclocTest(TempFiles, unittest.TestCase):
    def run_script(self, *args, env_extra=None):
        env = dict(os.environ)
        env.pop("INTEL_OCLOC_DIR", None)
        env.pop("INTEL_OCLOC_MIRROR", None)
        env.update(env_extra or {})
        p = subprocess.run([SCRIPT] + list(args), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=300)
        return p.returncode, p.stdout, p.stderr

    def fake_install(self, wrapper_text=STAND_IN):
        """DIR as the script leaves it, with a stand-in wrapper."""
        d = os.path.realpath(os.path.join(self.tmp.name, "ocloc"))
        os.makedirs(os.path.join(d, "bin"))
        os.makedirs(os.path.join(d, "root", "usr", "bin"))
        wrapper = os.path.join(d, "bin", "ocloc")
        with open(wrapper, "w") as f:
            f.write(wrapper_text)
        os.chmod(wrapper, 0o755)
        with open(os.path.join(d, "installed.txt"), "w") as f:
            f.write("intel-ocloc 26.27.39122.14-1\nlibigc2 2.40.14-1\n")
        return d, wrapper

    def assert_one_error_line(self, rc, out, err, *words):
        self.assertEqual(rc, 1, err)
        self.assertEqual(out, "")
        lines = [line for line in err.splitlines() if line.strip()]
        self.assertEqual(len(lines), 1, err)
        self.assertTrue(lines[0].startswith("install_intel_ocloc.sh: error: "), err)
        for w in words:
            self.assertIn(w, lines[0])

    def test_help_and_usage_errors(self):
        rc, out, _ = self.run_script("--help")
        self.assertEqual(rc, 0)
        for word in ("--dir=DIR", "--mirror=URL", "intel-ocloc 26.27.39122.14", "libigc2 libigdfcl2 2.40.14",
                     "INTEL_OCLOC_DIR", "INTEL_OCLOC_MIRROR", "--offline-compiler="):
            self.assertIn(word, out)
        rc, out, err = self.run_script("--bogus")
        self.assertEqual((rc, out), (2, ""))
        self.assertEqual(err, "install_intel_ocloc.sh: error: unknown argument '--bogus' (see --help)\n")
        rc, _, err = self.run_script("--mirror=deb.debian.org/debian")
        self.assertEqual(rc, 2)
        self.assertIn("is not an http://, https:// or file:/ URL", err)
        # Issue 30, item 25: an empty value said "unknown argument".
        for arg, words in (("--dir=", "--dir needs a value: --dir=DIR"), ("--dir", "--dir needs a value: --dir=DIR"),
                           ("--mirror=", "--mirror needs a value: --mirror=URL")):
            rc, out, err = self.run_script(arg)
            self.assertEqual((rc, out, err), (2, "", "install_intel_ocloc.sh: error: %s (see --help)\n" % words))

    def test_installed_compiler_is_not_downloaded_again(self):
        d, wrapper = self.fake_install()
        # The archive is unreachable: an installed compiler must not need it.
        for args, env in ((["--dir=" + d], {}), ([], {"INTEL_OCLOC_DIR": d})):
            rc, out, err = self.run_script(*args, env_extra=dict(env, INTEL_OCLOC_MIRROR=UNREACHABLE))
            self.assertEqual(rc, 0, err)
            self.assertEqual(out, wrapper + "\n")
            self.assertIn("already installed in %s (nothing downloaded): intel-ocloc 26.27.39122.14-1, "
                          "libigc2 2.40.14-1" % d, err)
            self.assertIn("OCL_DRIVER_VERSION: 26.27.039122", err)
            self.assertFalse(os.path.exists(os.path.join(d, "apt.log")))
        # No query files are left behind; the install of an earlier version (no stamp) is now marked as the
        # script's.
        self.assertEqual(sorted(n for n in os.listdir(d) if not n.startswith(".lock")),
                         [".spirv_intel_cts_ocloc", "bin", "installed.txt", "root"])

    def snapshot(self, d):
        """Every path under d with its size and modification time: what the script must leave as it was."""
        return sorted((os.path.relpath(os.path.join(root, n), d), os.lstat(os.path.join(root, n)).st_size,
                       os.lstat(os.path.join(root, n)).st_mtime_ns)
                      for root, dirs, files in os.walk(d) for n in dirs + files)

    def test_a_directory_it_did_not_make_is_refused(self):
        # Issue 44: --dir=$HOME removed ~/root and overwrote ~/bin/ocloc and ~/apt.log before anything was
        # downloaded. A non-empty directory without the stamp (or an earlier install) is refused, untouched.
        d = os.path.join(self.tmp.name, "home")
        for name, text in (("root/mine.txt", "keep"), ("bin/ocloc", "#!/bin/sh\nexit 0\n"), ("apt.log", "mine")):
            os.makedirs(os.path.dirname(os.path.join(d, name)), exist_ok=True)
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        before = self.snapshot(d)
        for args, env in ((["--dir=" + d], {}), ([], {"INTEL_OCLOC_DIR": d})):
            rc, out, err = self.run_script(*args, env_extra=dict(env, INTEL_OCLOC_MIRROR=UNREACHABLE))
            self.assertEqual((rc, out), (2, ""), err)
            self.assertEqual(err, "install_intel_ocloc.sh: error: %s is not empty and was not made by "
                                  "install_intel_ocloc.sh (no .spirv_intel_cts_ocloc in it); choose a new or empty "
                                  "--dir\n" % os.path.realpath(d))
            self.assertEqual(self.snapshot(d), before)
        f = self.write("plain_file", "x")
        rc, out, err = self.run_script("--dir=" + f, "--mirror=" + UNREACHABLE)
        self.assertEqual((rc, out, err), (2, "", "install_intel_ocloc.sh: error: --dir=%s exists and is not a "
                                                 "directory\n" % f))

    @unittest.skipUnless(HAVE_APT, "apt-get, apt-cache, dpkg or dpkg-deb missing")
    def test_silent_wrapper_is_installed_again(self):
        # A wrapper that writes no answer is not an installed compiler: the script fetches again, here from an
        # unreachable archive, and the old tree stays.
        d, _ = self.fake_install(wrapper_text="#!/bin/sh\nexit 0\n")
        rc, out, err = self.run_script("--dir=" + d, "--mirror=" + UNREACHABLE)
        self.assert_one_error_line(rc, out, err, "the Debian archive %s is unreachable" % UNREACHABLE,
                                   os.path.join(d, "apt.log"))
        self.assertTrue(os.path.isdir(os.path.join(d, "root", "usr", "bin")))

    @unittest.skipUnless(HAVE_APT, "apt-get, apt-cache, dpkg or dpkg-deb missing")
    def test_unreachable_archive_is_one_line(self):
        d = os.path.join(self.tmp.name, "fresh")
        rc, out, err = self.run_script("--dir=" + d, env_extra={"INTEL_OCLOC_MIRROR": UNREACHABLE})
        log = os.path.join(os.path.realpath(d), "apt.log")
        self.assert_one_error_line(rc, out, err, "unreachable", "no package list fetched", log)
        self.assertTrue(os.path.isfile(log))
        for name in ("root", "bin", "installed.txt"):
            self.assertFalse(os.path.exists(os.path.join(d, name)), name)
        # The private apt state went with the temporary directory.
        self.assertEqual([n for n in os.listdir(d) if n.startswith(".work")], [])

    @unittest.skipUnless(HAVE_APT, "apt-get, apt-cache, dpkg or dpkg-deb missing")
    def test_unsigned_archive_is_one_line(self):
        archive = os.path.join(self.tmp.name, "archive")
        os.makedirs(os.path.join(archive, "dists", "sid"))
        with open(os.path.join(archive, "dists", "sid", "Release"), "w") as f:
            f.write("Suite: sid\nCodename: sid\nArchitectures: amd64\nComponents: main\n")
        d = os.path.join(self.tmp.name, "fresh")
        rc, out, err = self.run_script("--dir=" + d, "--mirror=file://" + archive)
        self.assert_one_error_line(rc, out, err, "is unsigned or signed by a key this system does not trust")
        self.assertFalse(os.path.exists(os.path.join(d, "root")))


if __name__ == "__main__":
    unittest.main()
