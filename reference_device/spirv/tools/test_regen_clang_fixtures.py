#!/usr/bin/env python3
"""regen_clang_fixtures.py on a copy of the fixtures: as committed --check passes; an edited instruction or an
edited source line fails naming the fixture, and rewriting restores it; another Tools line alone passes;
a missing tool is exit 77. Runs the real tools (exit 77 without them); argv: --clang X --llvm-spirv Y
--spirv-dis Z as for the script."""

import contextlib
import io
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import regen_clang_fixtures as regen  # noqa: E402

TOOL_ARGS = []
FIXTURE = os.path.join("reference_device", "spirv", "tests", "builtin_gemm.spvasm")


class RegenTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        for d in regen.FIXTURE_DIRS:
            src = os.path.join(regen.ROOT, d)
            if os.path.isdir(src):
                shutil.copytree(src, os.path.join(self.tmp, d))
        self.path = os.path.join(self.tmp, FIXTURE)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_script(self, *extra):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = regen.main(TOOL_ARGS + ["--root", self.tmp] + list(extra))
        return rc, out.getvalue()

    def edit(self, old, new):
        with open(self.path, encoding="utf-8") as f:
            text = f.read()
        self.assertIn(old, text)
        with open(self.path, "w", encoding="utf-8") as f:
            f.write(text.replace(old, new, 1))

    def test_committed_fixtures_pass(self):
        rc, out = self.run_script("--check")
        self.assertEqual(rc, 0, out)

    def test_edited_instruction_fails_naming_the_fixture(self):
        self.edit("OpConstant %uint 64", "OpConstant %uint 65")
        rc, out = self.run_script("--check")
        self.assertEqual(rc, 1, out)
        self.assertIn("differ from what the tools make", out)
        self.assertIn(FIXTURE, out.splitlines()[-1])
        self.assertEqual(self.run_script()[0], 0)  # rewrites it
        self.assertEqual(self.run_script("--check")[0], 0)

    def test_edited_source_fails(self):
        self.edit("(int2)(0, 0), (private uint*)&acc", "(int2)(0, 1), (private uint*)&acc")
        rc, out = self.run_script("--check")
        self.assertEqual(rc, 1, out)
        self.assertIn(FIXTURE, out.splitlines()[-1])

    def test_other_tool_versions_alone_pass(self):
        with open(self.path, encoding="utf-8") as f:
            line = next(l for l in f if l.startswith(regen.TOOLS))
        self.edit(line, regen.TOOLS + "clang 15.0.0, llvm-spirv 15.0.0, spirv-dis v2025.1\n")
        rc, out = self.run_script("--check")
        self.assertEqual(rc, 0, out)
        self.assertIn("same text, made by other tool versions", out)

    def test_missing_tool_skips(self):
        rc, out = self.run_script("--check", "--clang", os.path.join(self.tmp, "no-clang"))
        self.assertEqual(rc, regen.SKIP, out)


if __name__ == "__main__":
    TOOL_ARGS = sys.argv[1:]
    sys.argv = sys.argv[:1]
    # The script's own skip (a tool missing) skips the whole test.
    with contextlib.redirect_stdout(io.StringIO()):
        skipped = regen.main(TOOL_ARGS + ["--check"]) == regen.SKIP
    if skipped:
        print("test_regen_clang_fixtures: skipped (a tool is missing)")
        sys.exit(regen.SKIP)
    sys.exit(0 if unittest.main(exit=False).result.wasSuccessful() else 1)
