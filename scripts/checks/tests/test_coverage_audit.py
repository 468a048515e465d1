"""Tests of scripts/checks/coverage_audit.py on small spec texts, environment text, family pages and manifests."""

import contextlib
import hashlib
import io
import json
import os
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR, TempFiles

from checks import coverage_audit

AUDIT = os.path.join(SCRIPTS_DIR, "checks/coverage_audit.py")

SPEC = """Name Strings
This extension requires SPIR-V 1.0.
Modifications to the SPIR-V Specification, Version 1.2
OpFoo{n}
Allows data to move. The result must be seven{n}. Value need not be uniform.
Examples
The example data is ignored.
Restrictions
  \u2022 Behavior is undefined unless:
    \u2022 the pointer{n} is aligned.
Issues
The issue must not count.
"""
ENV = """# Environment

## Tokens

Tokens must not count.

## SPV_INTEL_subgroups semantics (exact)

- Shuffle(data, c): data from lane c; c >= S gives an
  undefined value. Else undefined value.
| table | rows must not count |

## Reference points for a host reference and test design

- Hosts must not count.
"""
CASES = ["subgroups.shuffle.i32.v1.sg16.index_0", "subgroups.block_read.u32.v2.sg8.offset_0b",
         "media_block_io.read.e1.w4.h2.sg16", "2d_block_io.load.e1.w32.h1.c2", "matrix_multiply_accumulate.n8.x"]


class CoverageAudit(TempFiles, unittest.TestCase):
    def setUp(self):
        super().setUp()
        for d in ("specs", "docs"):
            os.makedirs(os.path.join(self.tmp.name, d))
        self.families = coverage_audit.load_families()
        for n, (family, d) in enumerate(sorted(self.families.items())):
            self.write("specs/%s.txt" % d["spirv_extension"], SPEC.format(n=n))
        self.write("env.md", ENV)
        self.write("manifest.json", {"cases": [{"name": c} for c in CASES]})
        self.sentences = coverage_audit.extract(os.path.join(self.tmp.name, "specs"),
                                                os.path.join(self.tmp.name, "env.md"), self.families)
        for family in self.families:
            self.write_page(family, ["| all | `shuffle.i32`, `sg16.index_0` | core | %s |"
                                     % " ".join(self.sentences[family])])

    def write_page(self, family, rows):
        head = ["# Family", "", "## Coverage: spec rule -> cases", "",
                "| Spec sentence | Checked by | Tier | Rule ids |", "| --- | --- | --- | --- |"]
        self.write("docs/%s.md" % family, "\n".join(head + rows + ["", "## Next", "", "| other | table |", ""]))

    def run_audit(self, *args, runner=("--no-runner",)):
        t = self.tmp.name
        cmd = [sys.executable, AUDIT, "--specs", t + "/specs", "--env", t + "/env.md", "--docs", t + "/docs",
               "--manifest", t + "/manifest.json"] + list(runner) + list(args)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
        self.assertNotIn("Traceback", p.stderr)
        return p.returncode, p.stdout, p.stderr

    def test_extraction_rule(self):
        sg = self.sentences["subgroups"]
        texts = sorted(sg.values())
        # The spec's normative region only, no Examples, no Issues, no Dependencies; the lead line is
        # prefixed to its bullet; env: listed sections, prose only, a short piece joins the sentence before.
        self.assertIn("The result must be seven3.", texts)
        self.assertIn("Behavior is undefined unless: the pointer3 is aligned.", texts)
        self.assertIn("Shuffle(data, c): data from lane c; c >= S gives an undefined value. Else undefined value.",
                      texts)
        self.assertEqual(len(texts), 3, texts)
        digest = hashlib.sha1(b"the result must be seven3.").hexdigest()[:8]
        self.assertEqual(coverage_audit.sentence_id("subgroups", "The  result must be seven3."),
                         "subgroups-" + digest)
        self.assertIn("subgroups-" + digest, sg)
        self.assertEqual(len(self.sentences["media_block_io"]), 2)  # no environment section names it

    def test_the_shared_section_goes_to_the_families_it_names(self):
        self.write("env.md", "## Which device reports what (Intel's runtime today)\n\n"
                   "- MMA and 2D block IO kernels must run at the minimum size.\n"
                   "- SPV_INTEL_media_block_io must be listed.\n- Every kernel must build.\n")
        got = coverage_audit.extract(os.path.join(self.tmp.name, "specs"), os.path.join(self.tmp.name, "env.md"),
                                     self.families)
        env = {g: sorted(s for i, s in d.items() if i.startswith("env-")) for g, d in got.items()}
        mma_and_2d = "MMA and 2D block IO kernels must run at the minimum size."
        self.assertEqual(env["matrix_multiply_accumulate"], ["Every kernel must build.", mma_and_2d])
        self.assertEqual(env["2d_block_io"], env["matrix_multiply_accumulate"])
        self.assertEqual(env["media_block_io"],
                         ["Every kernel must build.", "SPV_INTEL_media_block_io must be listed."])
        self.assertEqual(env["subgroups"], ["Every kernel must build."])

    def test_complete_tables_pass(self):
        rc, out, err = self.run_audit()
        self.assertEqual(rc, 0, out + err)
        self.assertIn("9 normative sentences in 4 families, 0 findings", out)

    def test_a_sentence_without_row_fails(self):
        ids = sorted(self.sentences["subgroups"])
        self.write_page("subgroups", ["| some | `shuffle.i32` | core | %s |" % " ".join(ids[1:])])
        rc, _, err = self.run_audit()
        self.assertEqual(rc, 1, err)
        self.assertIn("docs/subgroups.md: no coverage row for %s" % ids[0], err)
        self.assertEqual(len(err.strip().split("\n")), 1, err)

    def test_a_stale_id_fails(self):
        ids = " ".join(self.sentences["2d_block_io"])
        self.write_page("2d_block_io", ["| all | `load.e1` | core | %s |" % ids,
                                        "| gone | `load.e1` | core | 2d_block_io-0123abcd |"])
        rc, _, err = self.run_audit()
        self.assertEqual(rc, 1, err)
        self.assertIn("docs/2d_block_io.md:8: stale rule id 2d_block_io-0123abcd", err)

    def test_a_pattern_matching_no_case_fails(self):
        ids = " ".join(self.sentences["media_block_io"])
        row = "| all | `read.e1.{w4,w8}`, `read.e2`, `read.e`, `rea?.e1.*.sg16` | core | %s |" % ids
        self.write_page("media_block_io", [row])
        rc, _, err = self.run_audit()
        self.assertEqual(rc, 1, err)
        lines = err.strip().split("\n")
        self.assertEqual(len(lines), 3, err)  # w8 of the braces, e2, and e (a level is matched whole)
        self.assertIn("`read.e1.{w4,w8}` matches no case", lines[0])
        self.assertIn("`read.e2` matches no case", lines[1])
        self.assertIn("`read.e` matches no case", lines[2])

    def test_paths_rules_and_prose_in_checked_by(self):
        ids = " ".join(self.sentences["matrix_multiply_accumulate"])
        self.write_page("matrix_multiply_accumulate", [
            "| a | `scripts/checks/coverage_audit.py`, `rule:mma.kdim_constant`, `ext=cl_x`, `dst[b*H + r]` | core | %s |"
            % ids, "| b | `scripts/nope.py`, `rule:no_such_rule`, `gtest:MmaOps.RegistersTheInstruction` | core | |"])
        rc, _, err = self.run_audit()
        self.assertEqual(rc, 1, err)
        lines = err.strip().split("\n")
        self.assertEqual(len(lines), 2, err)
        self.assertIn("`scripts/nope.py`", lines[0])
        self.assertIn("`rule:no_such_rule`", lines[1])

    def test_rows_need_a_tier_and_a_check(self):
        ids = sorted(self.sentences["subgroups"])
        self.write_page("subgroups", ["| a | `shuffle.i32` | | %s |" % ids[0],
                                      "| b | `shuffle.i32` | optional | %s |" % ids[1],
                                      "| c | | core | %s |" % ids[2]])
        rc, _, err = self.run_audit()
        self.assertEqual(rc, 1, err)
        self.assertIn(":7: Tier must be core and/or device_specific, not ''", err)
        self.assertIn(":8: Tier must be core and/or device_specific, not 'optional'", err)
        self.assertIn(":9: row for %s says nothing in 'Checked by'" % ids[2], err)

    def test_rows_from_an_older_two_column_table_still_count_their_patterns(self):
        ids = " ".join(self.sentences["subgroups"])
        self.write_page("subgroups", ["| all | `shuffle.i32` | core | %s |" % ids, "| new | `shuffle.i64` |"])
        rc, _, err = self.run_audit()
        self.assertEqual(rc, 1, err)
        self.assertIn("docs/subgroups.md:8: `shuffle.i64` matches no case", err)

    def test_bad_input_is_one_line_and_status_2(self):
        os.remove(os.path.join(self.tmp.name, "manifest.json"))
        rc, _, err = self.run_audit()
        self.assertEqual(rc, 2)
        self.assertEqual(len(err.strip().split("\n")), 1, err)
        self.assertIn("cannot read the case list", err)
        self.write("manifest.json", {"cases": [{"name": c} for c in CASES]})
        self.write("docs/subgroups.md", "# no table\n")
        rc, _, err = self.run_audit()
        self.assertEqual(rc, 2)
        self.assertIn("docs/subgroups.md: no '## Coverage: spec rule -> cases' section", err)
        os.remove(os.path.join(self.tmp.name, "specs", "SPV_INTEL_subgroups.txt"))
        rc, _, err = self.run_audit()
        self.assertEqual((rc, len(err.strip().split("\n"))), (2, 1), err)

    def test_inputs_that_are_not_regular_files_are_one_line_and_status_2(self):
        # Issue 30, item 8: --manifest=/dev/zero read until the OOM killer came; a FIFO blocked for ever.
        fifo = os.path.join(self.tmp.name, "fifo")
        os.mkfifo(fifo)
        for option, path in (("--manifest", "/dev/zero"), ("--manifest", fifo), ("--env", "/dev/zero"),
                             ("--env", fifo), ("--manifest", self.tmp.name)):
            with self.subTest(option=option, path=path):
                try:
                    rc, _, err = self.run_audit(option, path)
                except subprocess.TimeoutExpired:
                    self.fail("%s=%s hangs" % (option, path))
                self.assertEqual(rc, 2, err)
                self.assertEqual(len(err.strip().split("\n")), 1, err)
                self.assertIn(path + ": is ", err)
        self.write("docs/subgroups.md", "x")
        os.remove(os.path.join(self.tmp.name, "docs", "subgroups.md"))
        os.mkfifo(os.path.join(self.tmp.name, "docs", "subgroups.md"))
        rc, _, err = self.run_audit()
        self.assertEqual(rc, 2, err)
        self.assertIn("subgroups.md: is not a regular file", err)

    def test_the_runner_defaults_to_the_build_and_must_exist(self):
        # Issue 30, item 11: without --runner the api.* cases were missing and every row naming one a finding.
        self.assertEqual(coverage_audit.DEFAULT_RUNNER, coverage_audit.ROOT / "build" / "bin" / "spirv_intel_cts")
        saved = coverage_audit.DEFAULT_RUNNER
        coverage_audit.DEFAULT_RUNNER = coverage_audit.Path(self.tmp.name) / "no_runner"
        try:
            t = self.tmp.name
            err = io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                rc = coverage_audit.main(["--specs", t + "/specs", "--env", t + "/env.md", "--docs", t + "/docs",
                                          "--manifest", t + "/manifest.json"])
        finally:
            coverage_audit.DEFAULT_RUNNER = saved
        self.assertEqual(rc, 2, err.getvalue())
        self.assertIn("coverage_audit: no runner at %s/no_runner: its --list adds the cases the manifest lacks" % t,
                      err.getvalue())
        # A runner given (here a stand-in whose --list names one more case) is what the default would be.
        runner = self.write("runner.sh", "#!/bin/sh\necho 'api.extra.case'\n")
        os.chmod(runner, 0o755)
        ids = " ".join(self.sentences["subgroups"])
        self.write_page("subgroups", ["| all | `api.extra` | core | %s |" % ids])
        rc, _, err = self.run_audit(runner=("--runner", runner))
        self.assertEqual(rc, 0, err)

    def test_list_prints_every_sentence(self):
        rc, out, _ = self.run_audit("--list", "--family", "subgroups")
        self.assertEqual(rc, 0)
        self.assertEqual(len(out.strip().split("\n")), 3, out)
        self.assertTrue(all(line.split("\t")[1] == "subgroups" for line in out.strip().split("\n")))


if __name__ == "__main__":
    unittest.main()
