"""Tests of scripts/judges/offline_cross_check.py with a stand-in ocloc that accepts or rejects by module file name."""

import json
import os
import stat
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR, TempFiles

CHECK = os.path.join(SCRIPTS_DIR, "judges/offline_cross_check.py")

# Each run is logged (calls.log beside it: "compile FILE" or "multi"). `multi FILE` runs FILE's builds as ocloc does
# (a line's "..." quoting through the shell's): a module named *abort* ends it in its section (as a module ocloc
# cannot parse does), one named *hang* hangs it there.
FAKE_OCLOC = """#!/bin/sh
if [ "$1" = query ]; then printf '9.9.9\\000 ' > "$2"; exit 0; fi
build() {
  prev=; for a in "$@"; do [ "$prev" = -out_dir ] && OUT="$a"; [ "$prev" = -file ] && F="$a"; prev="$a"; done
  case "$F" in
    *nobin*) mkdir -p "$OUT/sub"; : > "$OUT/$BIN";;
    *good*) mkdir -p "$OUT"; echo bin > "$OUT/$BIN";;
    *) echo 'error: Block reads not supported in SIMD32'; return 245;;
  esac
}
if [ "$1" = multi ]; then
  echo multi >> "$(dirname "$0")/calls.log"
  k=0
  while IFS= read -r line; do
    k=$((k + 1)); BIN="build_no_${k}_t1.bin"; echo "Command number $k: "
    eval "set -- $line"
    case "$2" in *abort*) echo 'InvalidModule: Invalid SPIR-V module' >&2; exit 10;; *hang*) exec sleep 60;; esac
    if build "$@"; then echo Build succeeded.; else echo "Build failed with error code: -11"; fi
  done < "$2"
  exit 0
fi
BIN=m.bin; build "$@" && echo Build succeeded.; rc=$?
echo "compile $F" >> "$(dirname "$0")/calls.log"
exit $rc
"""

DESCRIPTION = {
    "target": "t1", "device_name": "T", "sources": ["s"], "sub_group_sizes": [16, 32], "fp16": True, "fp64": False,
    "images": {"supported": False}, "il_versions": ["SPIR-V_1.2"],
    "extensions": {"cl_khr_fp16": "1.0.0", "cl_intel_spirv_subgroups": "1.0.0"},
    "compilers": {"1.0.5": {"ocloc_driver_version": "9.9.9", "sources": ["s"]}},
}

WAIVER = {"cases": ["g.waived"], "device": {"platform": "ocloc", "name": "t1",
                                             "driver_version": {"min": "1.0.5", "max": "1.0.5"}},
          "tracker": "x", "reason": "y"}


class CrossCheckTest(TempFiles, unittest.TestCase):
    def setUp(self):
        super().setUp()
        self.build = os.path.join(self.tmp.name, "build")
        for d in ("assets/modules", "targets", "offline_compiler"):
            os.makedirs(os.path.join(self.build, d))
        self.ocloc = self.write("ocloc", FAKE_OCLOC)
        os.chmod(self.ocloc, os.stat(self.ocloc).st_mode | stat.S_IXUSR)
        with open(os.path.join(self.build, "targets", "t1.json"), "w") as f:
            json.dump(DESCRIPTION, f)
        self.cases = []
        self.verdicts = []

    def case(self, name, module, status, tier="core", requires=("ext=cl_intel_spirv_subgroups", "sg_size=16"),
             original=None, reported_tier=None, gaps=None):
        entry = {"name": name, "family": "f", "tier": tier, "requires": list(requires)}
        if module:
            entry["module"] = module
            with open(os.path.join(self.build, "assets", "modules", module), "w") as f:
                f.write("m")
        self.cases.append(entry)
        verdict = {"name": name, "status": status, "tier": reported_tier or tier}
        if gaps:
            verdict["version_gaps"] = gaps
        if original:
            verdict["original_status"] = original
            verdict["waiver"] = {"tracker": "https://t/1", "reason": "r"}
        self.verdicts.append(verdict)

    def run_check(self, waivers=(), jobs=2):
        with open(os.path.join(self.build, "assets", "manifest.json"), "w") as f:
            json.dump({"version": 3, "cases": self.cases}, f)
        with open(os.path.join(self.build, "offline_compiler", "t1.json"), "w") as f:
            results = {v["name"]: {"Pass": "pass", "NotSupported": "skip"}.get(v["status"], "fail")
                       for v in self.verdicts}
            report = {"results": results, "cases": self.verdicts}
            gaps = [ext for v in self.verdicts for ext in v.get("version_gaps", [])]
            if gaps:  # the runner lists each gap its cases ran across, with their count
                report["version_gaps"] = [{"extension": ext, "reported": "1.0.0", "promised_from": "1.1.0",
                                           "cases": gaps.count(ext)} for ext in sorted(set(gaps))]
            if any("waiver" in v for v in self.verdicts):
                report["waivers"] = {"files": ["runner_waivers.json"], "stale": []}  # what waived them in the run
            json.dump(report, f)
        waiver_file = self.write("w.json", {"waivers": list(waivers)})
        p = subprocess.run([sys.executable, CHECK, "--build-dir", self.build, "--ocloc", self.ocloc,
                            "--waiver-file=" + waiver_file, "--jobs=%d" % jobs, "t1"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT,
                           universal_newlines=True)
        return p.returncode, p.stdout

    def consistent(self):
        self.case("g.pass", "good.spv", "Pass")
        self.case("g.fail", "bad.spv", "Fail")
        self.case("g.specific", "bad.spv", "NotSupported", tier="device_specific")
        self.case("g.sg8", "bad.spv", "NotSupported", requires=("sg_size=8",))
        self.case("g.fp64", "good.spv", "NotSupported", requires=("fp64",))

    def test_verdicts_that_match_the_compiler_pass_except_an_unwaived_rejection(self):
        self.consistent()
        rc, out = self.run_check()
        self.assertEqual(rc, 1, out)
        self.assertIn("g.fail: core case rejected by ocloc without a waiver", out)
        self.assertIn("1 disagreement(s)", out)
        self.assertIn("t1: 2 modules compiled independently", out)

    def test_modules_are_compiled_in_batches_and_rejected_ones_on_their_own(self):
        for i in range(10):  # 10 modules and one job: batches of 3
            if i % 3:
                self.case("g.p%d" % i, "good%d.spv" % i, "Pass")
            else:
                self.case("g.n%d" % i, "bad%d.spv" % i, "NotSupported", tier="device_specific")
        rc, out = self.run_check(jobs=1)
        self.assertEqual(rc, 0, out)
        self.assertIn("t1: 10 modules compiled independently in ", out)
        self.assertIn(" s (4 rejected); 10 cases checked: 4 NotSupported, 6 Pass", out)
        with open(os.path.join(self.tmp.name, "calls.log")) as f:
            calls = f.read().splitlines()
        self.assertEqual(calls.count("multi"), 4)
        self.assertEqual(sorted(c.rsplit("/", 1)[-1] for c in calls if c != "multi"),
                         ["bad%d.spv" % i for i in (0, 3, 6, 9)])

    def test_a_waived_rejection_is_agreement(self):
        self.consistent()
        self.cases = [c for c in self.cases if c["name"] != "g.fail"]
        self.verdicts = [v for v in self.verdicts if v["name"] != "g.fail"]
        self.case("g.waived", "bad.spv", "Waived", original="Fail")
        rc, out = self.run_check([WAIVER])
        self.assertEqual(rc, 0, out)
        # The same verdict without the waiver entry, or with one for another compiler release, is not.
        rc, out = self.run_check([dict(WAIVER, device=dict(WAIVER["device"], driver_version={"min": "1.0.6"}))])
        self.assertEqual(rc, 1, out)

    def test_a_fail_the_compiler_accepts_is_a_disagreement(self):
        self.case("g.wrong", "good.spv", "Fail")
        rc, out = self.run_check()
        self.assertEqual(rc, 1, out)
        self.assertIn("g.wrong: report says Fail, expected Pass (ocloc accepts good.spv)", out)

    def test_a_pass_for_a_missing_requirement_is_a_disagreement(self):
        self.case("g.sg8", "good.spv", "Pass", requires=("sg_size=8",))
        rc, out = self.run_check()
        self.assertEqual(rc, 1, out)
        self.assertIn("g.sg8: report says Pass, expected NotSupported (target lacks sg_size=8)", out)

    def test_a_family_support_check_applies_to_every_family_of_its_group(self):
        # subgroups.image_block_io is a family of the group subgroups, whose descriptor's offline_support makes
        # images from buffers need cl_khr_image2d_from_buffer (which t1 lacks).
        self.case("g.from_buffer", "good.spv", "Pass")
        self.cases[-1].update(family="subgroups.image_block_io", params={"backing": "buffer"})
        rc, out = self.run_check()
        self.assertEqual(rc, 1, out)
        self.assertIn("g.from_buffer: report says Pass, expected NotSupported (target lacks "
                      "cl_khr_image2d_from_buffer (subgroups image block IO))", out)

    def test_a_device_specific_rejection_reported_as_pass_is_a_disagreement(self):
        self.case("g.specific", "bad.spv", "Pass", tier="device_specific")
        rc, out = self.run_check()
        self.assertEqual(rc, 1, out)
        self.assertIn("expected NotSupported (device_specific, ocloc rejects bad.spv", out)

    def test_a_version_gap_makes_a_core_case_device_specific(self):
        # The target reports the extension at 1.0.0; the cases need 1.1: they are judged as device_specific.
        DESCRIPTION["extensions"]["cl_intel_subgroup_2d_block_io"] = "1.0.0"
        try:
            with open(os.path.join(self.build, "targets", "t1.json"), "w") as f:
                json.dump(DESCRIPTION, f)
        finally:
            del DESCRIPTION["extensions"]["cl_intel_subgroup_2d_block_io"]
        gap = ["cl_intel_subgroup_2d_block_io"]
        need = ("ext=cl_intel_subgroup_2d_block_io@1.1",)
        self.case("g.built", "good.spv", "Pass", requires=need, reported_tier="device_specific", gaps=gap)
        self.case("g.refused", "bad.spv", "NotSupported", requires=need, reported_tier="device_specific", gaps=gap)
        rc, out = self.run_check()
        self.assertEqual(rc, 0, out)
        # A report that kept the case core, or a Fail for the refused module, disagrees.
        self.verdicts[0] = {"name": "g.built", "status": "Pass", "tier": "core"}
        self.verdicts[1] = {"name": "g.refused", "status": "Fail", "tier": "device_specific", "version_gaps": gap}
        rc, out = self.run_check()
        self.assertEqual(rc, 1, out)
        self.assertIn("g.built: report says tier core, expected device_specific", out)
        self.assertIn("g.built: report names version gaps [], expected ['cl_intel_subgroup_2d_block_io']", out)
        self.assertIn("g.refused: report says Fail, expected NotSupported (device_specific, ocloc rejects", out)

    def test_malformed_inputs_are_one_line_and_exit_2(self):
        self.consistent()
        self.assertEqual(self.run_check([WAIVER])[0], 1)  # writes the manifest and report, then each is spoilt
        report = os.path.join(self.build, "offline_compiler", "t1.json")
        manifest = os.path.join(self.build, "assets", "manifest.json")
        description = os.path.join(self.build, "targets", "t1.json")
        for path, content, words in (
                (report, {"results": {}, "cases": [{"name": 1, "status": "Pass"}]}, "needs a string name"),
                (report, {"cases": self.verdicts}, "not a runner JSON report"),
                (report, "[" * 100000, "nested too deep"),
                (manifest, {"cases": [{"name": ["x"]}]}, "not a manifest of the expected shape"),
                (description, dict(DESCRIPTION, compilers=[]), "not a target description of the expected shape"),
                (description, None, "is a directory")):
            with open(path) as f:
                saved = f.read()
            os.remove(path)
            if content is None:
                os.mkdir(path)
            else:
                with open(path, "w") as f:
                    f.write(content if isinstance(content, str) else json.dumps(content))
            p = subprocess.run([sys.executable, CHECK, "--build-dir", self.build, "--ocloc", self.ocloc,
                                "--waiver-file=" + self.write("w.json", {"waivers": []}), "t1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(p.returncode, 2, (path, p.stdout, p.stderr))
            self.assertTrue(p.stderr.startswith("offline_cross_check: %s: " % path), p.stderr)
            self.assertIn(words, p.stderr)
            self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
            if content is None:
                os.rmdir(path)
            with open(path, "w") as f:
                f.write(saved)
        for waivers, words in (({"waivers": [{"cases": "g.*"}]}, "not a waiver file of the expected shape"),
                               ("{", "invalid JSON")):
            path = self.write("bad_w.json", waivers)
            p = subprocess.run([sys.executable, CHECK, "--build-dir", self.build, "--ocloc", self.ocloc,
                                "--waiver-file=" + path, "t1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               universal_newlines=True)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertTrue(p.stderr.startswith("offline_cross_check: %s: " % path), p.stderr)
            self.assertIn(words, p.stderr)

    def test_known_targets_are_those_naming_this_compilers_release(self):
        other = dict(DESCRIPTION, target="t2", compilers={"2.0": {"ocloc_driver_version": "8.8.8", "sources": ["s"]}})
        with open(os.path.join(self.build, "targets", "t2.json"), "w") as f:
            json.dump(other, f)
        p = subprocess.run([sys.executable, CHECK, "--build-dir", self.build, "--ocloc", self.ocloc, "--known-targets"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual((p.returncode, p.stdout), (0, "t1\n"), p.stderr)
        p = subprocess.run([sys.executable, CHECK, "--build-dir", self.build, "--ocloc", self.ocloc],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("name at least one target", p.stderr)

    def test_without_ocloc_it_says_so_and_skips(self):
        p = subprocess.run([sys.executable, CHECK, "--ocloc", "/nonexistent/ocloc", "t1"], stdout=subprocess.PIPE,
                           universal_newlines=True)
        self.assertEqual(p.returncode, 77)
        self.assertIn("skipped: no ocloc", p.stdout)


class BatchTest(TempFiles, unittest.TestCase):
    """compile_batch (`ocloc multi`) gives every module the verdict and error line of a compile of its own."""

    def setUp(self):
        super().setUp()
        self.ocloc = self.write("ocloc", FAKE_OCLOC)
        os.chmod(self.ocloc, os.stat(self.ocloc).st_mode | stat.S_IXUSR)
        self.log = os.path.join(self.tmp.name, "calls.log")

    def check(self, names, singly):
        """Batch verdicts equal single ones; `singly` are the modules the batch compiled on their own."""
        from judges import offline_cross_check as occ
        os.makedirs(os.path.join(self.tmp.name, "m"), exist_ok=True)
        modules = [self.write(os.path.join("m", n), "m") for n in names]
        batch = occ.compile_batch(self.ocloc, modules, "t1")
        with open(self.log) as f:
            calls = f.read().splitlines()
        os.remove(self.log)
        self.assertEqual(batch, {m: occ.compile_module(self.ocloc, m, "t1") for m in modules})
        self.assertEqual(sorted(c for c in calls if c != "multi"),
                         sorted("compile " + os.path.join(self.tmp.name, "m", n) for n in singly))
        return [batch[m] for m in modules], calls

    def test_a_rejected_module_is_compiled_on_its_own(self):
        batch, calls = self.check(["a_good.spv", "b_bad.spv", "c good.spv", "d_bad.spv", "e_good.spv"],
                                  ["b_bad.spv", "d_bad.spv"])
        self.assertEqual([b for b, _ in batch], [True, False, True, False, True])
        self.assertEqual(set(e for _, e in batch), {"", "error: Block reads not supported in SIMD32"})
        self.assertEqual(calls.count("multi"), 1)

    def test_an_empty_directory_or_file_is_no_binary(self):
        # "Build succeeded." with only a subdirectory and a 0-byte .bin written: not built, alone or in a batch.
        batch, calls = self.check(["a_good.spv", "b_nobin.spv"], ["b_nobin.spv"])
        self.assertEqual([b for b, _ in batch], [True, False])

    def test_a_module_that_ends_the_run_is_compiled_on_its_own_and_the_rest_in_another_run(self):
        batch, calls = self.check(["a_good.spv", "b_bad.spv", "c_good_abort.spv", "d_good.spv", "e_bad.spv",
                                   "f_abort.spv", "g_good.spv"], ["b_bad.spv", "c_good_abort.spv", "e_bad.spv",
                                                                  "f_abort.spv"])
        self.assertEqual([b for b, _ in batch], [True, False, True, True, False, False, True])
        self.assertEqual(calls.count("multi"), 3)

    def test_a_run_that_hangs_is_killed_and_judged_on_what_it_printed(self):
        from judges import offline_cross_check as occ
        occ.TIMEOUT, saved = 2, occ.TIMEOUT
        try:
            batch, calls = self.check(["a_good.spv", "b_good_hang.spv", "c_good.spv"], ["b_good_hang.spv"])
        finally:
            occ.TIMEOUT = saved
        self.assertEqual([b for b, _ in batch], [True, True, True])
        self.assertEqual(calls.count("multi"), 2)

    def test_a_path_ocloc_cannot_quote_is_compiled_on_its_own(self):
        self.check(['a_good".spv', "b_good'.spv", "c_good.spv", 'd_bad".spv'],
                   ['a_good".spv', "b_good'.spv", 'd_bad".spv'])

    def test_an_ocloc_without_multi_compiles_every_module_on_its_own(self):
        with open(self.ocloc, "w") as f:
            f.write(FAKE_OCLOC.replace('if [ "$1" = multi ]; then', 'if [ "$1" = multi ]; then\n'
                                       '  echo "Usage: ocloc [compile|link|disasm] ..."; exit 1'))
        batch, calls = self.check(["a_good.spv", "b_bad.spv", "c_good.spv"], ["a_good.spv", "b_bad.spv", "c_good.spv"])
        self.assertEqual([b for b, _ in batch], [True, False, True])


if __name__ == "__main__":
    unittest.main()
