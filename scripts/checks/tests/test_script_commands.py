"""The scripts run as the README and docs write them: `scripts/NAME ...`, not `python3 scripts/NAME` (issue 30,
item 11: three of them were not executable in git, exit 126)."""

import os
import re
import subprocess
import sys
import unittest

from reports.tests.test_merge_results import runner_shard
from testing.common import REPO_DIR, SCRIPTS_DIR, TempFiles

DOCS = [os.path.join(REPO_DIR, "README.md")] + [
    os.path.join(REPO_DIR, "docs", f) for f in sorted(os.listdir(os.path.join(REPO_DIR, "docs"))) if f.endswith(".md")]


def named_scripts():
    """Every scripts/NAME or scripts/ROOM/NAME (.py or .sh) the README and docs name, as a path under scripts/
    (deeper files, a generator or the Khronos CTS's offline compiler, are not commands of their own)."""
    names = set()
    for path in DOCS:
        with open(path, encoding="utf-8") as f:
            names.update(re.findall(r"\bscripts/((?:[a-z0-9_]+/)?[a-z0-9_]+\.(?:py|sh))\b", f.read()))
    return sorted(names)


def documented_scripts():
    return [n for n in named_scripts() if os.path.exists(os.path.join(SCRIPTS_DIR, n))]


def tree_scripts():
    """Every .py and .sh file under scripts/, as a path under scripts/."""
    found = []
    for top, dirs, files in os.walk(SCRIPTS_DIR):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        found += [os.path.relpath(os.path.join(top, f), SCRIPTS_DIR) for f in sorted(files) if f.endswith((".py", ".sh"))]
    return found


def git_modes():
    """{path under scripts/: git file mode} of the tracked scripts."""
    out = subprocess.run(["git", "-C", REPO_DIR, "ls-files", "-s", "scripts"], stdout=subprocess.PIPE,
                         universal_newlines=True, check=True).stdout
    return {line.split("\t")[1][len("scripts/"):]: line.split()[0] for line in out.splitlines()}


def has_shebang(name):
    with open(os.path.join(SCRIPTS_DIR, name), "rb") as f:
        return f.read(2) == b"#!"


class DocumentedCommands(TempFiles, unittest.TestCase):
    def test_every_script_with_a_shebang_is_executable_in_git_and_on_disk(self):
        modes = git_modes()
        scripts = [n for n in tree_scripts() if has_shebang(n)]
        self.assertIn("reports/compare_results.py", scripts)
        not_executable = [n for n in scripts if modes.get(n) != "100755" or not os.access(
            os.path.join(SCRIPTS_DIR, n), os.X_OK)]
        self.assertEqual(not_executable, [], "chmod +x and git update-index --chmod=+x")

    def test_every_documented_script_is_a_command_or_a_module_the_docs_do_not_run(self):
        documented = documented_scripts()
        self.assertIn("checks/coverage_audit.py", documented)
        for name in documented:
            with self.subTest(name):
                if has_shebang(name):
                    continue
                # A module without a shebang (report_io.py, spvgen.py, ...) must not be written as a command.
                for path in DOCS:
                    with open(path, encoding="utf-8") as f:
                        for line in f:
                            self.assertIsNone(re.match(r"\s*(\$ )?scripts/%s\b" % re.escape(name), line),
                                              "%s runs %s as a command, which has no #! line" % (path, name))

    def test_every_script_the_docs_name_exists(self):
        # A script moved to another room leaves no stale path in the README or docs.
        missing = [n for n in named_scripts() if not os.path.exists(os.path.join(SCRIPTS_DIR, n))]
        self.assertEqual(missing, [])

    def test_every_documented_python_command_answers_help(self):
        for name in documented_scripts():
            if not name.endswith(".py") or not has_shebang(name):
                continue
            with self.subTest(name):
                p = subprocess.run([os.path.join(SCRIPTS_DIR, name), "--help"], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
                self.assertEqual(p.returncode, 0, p.stderr[-500:])
                self.assertIn("usage", (p.stdout + p.stderr).lower())

    def test_the_readme_gating_command_runs(self):
        # README, "Gating on a baseline": scripts/reports/compare_results.py last_good.json new.json
        base = self.write("last_good.json", runner_shard([("api.a", "Pass")], 0, 1))
        new = self.write("new.json", runner_shard([("api.a", "Pass")], 0, 1))
        p = subprocess.run([os.path.join(SCRIPTS_DIR, "reports/compare_results.py"), base, new], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("no regression", p.stdout)

    @unittest.skipUnless(os.path.exists(os.path.join(REPO_DIR, "build", "bin", "spirv_intel_cts")) and
                         os.path.exists(os.path.join(REPO_DIR, "build", "assets", "manifest.json")),
                         "the source tree's build/ is not built")
    def test_coverage_audit_with_its_defaults_passes_on_the_built_tree(self):
        # The documented command has no options: its defaults are the source tree's build.
        p = subprocess.run([os.path.join(SCRIPTS_DIR, "checks/coverage_audit.py")], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        self.assertIn(", 0 findings", p.stdout)


if __name__ == "__main__":
    unittest.main()
