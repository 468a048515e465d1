"""Tests of scripts/checks/doc_counts_check.py on a stand-in runner and stand-in docs: a stale marked count fails with
one line naming the file, the line and both numbers (issue 45, item 16: --tag=regression said 297 while it ran
400, the profiles' pass counts and the total were stale); matching counts pass; a malformed mark is exit 2."""

import os
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR, TempFiles

SCRIPT = os.path.join(SCRIPTS_DIR, "checks/doc_counts_check.py")

# --list: 400 lines for --tag=regression, 3 for a pattern, 5 for the default selection; --list-tags; a run
# writes a report whose Pass count depends on REFDEV_PROFILE.
RUNNER = r"""#!/bin/sh
case "$*" in
    "--list --tag=regression") seq 400 | sed 's/^/case./; s/$/  # core/' ;;
    "--list media_block_io") printf 'a\nb\nc\n' ;;
    "--list") seq 5 ;;
    "--list-tags") printf 'quick 7\nregression 402\n' ;;
    --jobs=2\ --json=*)
        n=2; [ "$REFDEV_PROFILE" = cpu ] && n=4
        python3 -c "import json,sys; json.dump({'cases': [{'status': 'Pass'}] * $n + [{'status': 'NotSupported'}]}, open(sys.argv[1], 'w'))" "${2#--json=}" ;;
    *) echo "unexpected: $*" >&2; exit 2 ;;
esac
"""


class DocCountsCheckTest(TempFiles, unittest.TestCase):
    def setUp(self):
        super().setUp()
        self.runner = self.write("runner", RUNNER)
        os.chmod(self.runner, 0o755)
        os.makedirs(os.path.join(self.tmp.name, "repo", "docs"))

    def check(self, readme, guide=""):
        self.write("repo/README.md", readme)
        self.write("repo/docs/guide.md", guide)
        p = subprocess.run([sys.executable, SCRIPT, "--runner", self.runner, "--repo",
                            os.path.join(self.tmp.name, "repo")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=60)
        return p.returncode, p.stdout, p.stderr

    def test_stale_counts_fail_one_line_each(self):
        rc, out, err = self.check("runs (297<!-- count: list --tag=regression -->)\n",
                                  "xe_hpc 13,323<!-- count: pass xe_hpc --> pass, of 39,407<!-- count: list --> cases\n")
        self.assertEqual(rc, 1, out + err)
        self.assertIn("README.md:1: states 297, the build has 400 (count: list --tag=regression)", out)
        self.assertIn("docs/guide.md:1: states 13,323, the build has 2 (count: pass xe_hpc)", out)
        self.assertIn("docs/guide.md:1: states 39,407, the build has 5 (count: list)", out)
        self.assertIn("0 of 3 marked counts in 2 files match", out)

    def test_matching_counts_pass(self):
        rc, out, err = self.check("400<!-- count: list --tag=regression --> of 402<!-- count: tag regression -->,\n"
                                  "3<!-- count: list media_block_io -->; cpu 4<!-- count: pass cpu -->, "
                                  "xe2 2<!-- count:pass xe2 --> of 5<!--count: list-->\n")
        self.assertEqual(rc, 0, out + err)
        self.assertIn("6 of 6 marked counts in 1 files match", out)

    def test_malformed_marks_are_usage_errors(self):
        for text in ("x<!-- count: list -->\n", "5<!-- count: size -->\n", "5<!-- count: pass -->\n"):
            rc, out, err = self.check(text)
            self.assertEqual(rc, 2, text + out + err)
            self.assertIn("README.md:1:", err)


if __name__ == "__main__":
    unittest.main()
