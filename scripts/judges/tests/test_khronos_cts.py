"""scripts/judges/khronos_cts/run.py against a stand-in CTS build: a script that lists sub-tests and writes the
CTS's results file, failing the sub-tests named in STAND_IN_FAIL for the profile in REFDEV_PROFILE. The
verdicts: an unexpected failure, an expected one, a stale expectation, a crash; and the bad-input refusals.
The offline compiler gets its own checks (usage errors, device info turning features off)."""

import json
import os
import stat
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR, TempFiles

RUN = os.path.join(SCRIPTS_DIR, "judges", "khronos_cts", "run.py")
COMPILE = os.path.join(SCRIPTS_DIR, "judges", "khronos_cts", "offline_compile.py")

STAND_IN = r'''#!/usr/bin/env python3
import json, os, sys
names = ["alpha", "beta", "gamma"]
if sys.argv[1] == "--help":
    print("usage...\nTest names:\n" + "\n".join(names))
    sys.exit(0)
name = sys.argv[1]
failing = os.environ.get("STAND_IN_FAIL", "").split(",")
if name == "gamma" and os.environ.get("STAND_IN_CRASH"):
    os.kill(os.getpid(), 11)
result = "fail" if os.environ["REFDEV_PROFILE"] + ":" + name in failing else "pass"
if name == "beta" and os.environ["REFDEV_PROFILE"] == "cpu":
    result = "skip"
with open(os.environ["CL_CONFORMANCE_RESULTS_FILENAME"], "w") as f:
    json.dump({"cmd": "test_basic", "results": {name: result}}, f)
sys.exit(1 if result == "fail" else 0)
'''


class KhronosCts(TempFiles, unittest.TestCase):
    def setUp(self):
        super().setUp()
        self.cts = os.path.join(self.tmp.name, "cts")
        folder = os.path.join(self.cts, "test_conformance", "spirv_new")
        os.makedirs(folder)
        binary = os.path.join(folder, "test_spirv_new")
        with open(binary, "w") as f:
            f.write(STAND_IN)
        os.chmod(binary, os.stat(binary).st_mode | stat.S_IXUSR)
        self.build = os.path.join(self.tmp.name, "build")
        os.makedirs(os.path.join(self.build, "icd"))
        self.write("build/icd/refdev.icd", "/nonexistent/libRefDevOpenCL.so\n")
        self.tools = os.path.join(self.tmp.name, "tools")
        os.makedirs(self.tools)
        val = os.path.join(self.tools, "spirv-val")
        with open(val, "w") as f:
            f.write("#!/bin/sh\nexit 0\n")
        os.chmod(val, 0o755)

    def run_cts(self, expected, env=None, *extra):
        path = self.write("expected.json", {"cts_commit": "x", "expected_failures": expected})
        return subprocess.run([sys.executable, RUN, "--cts-build", self.cts, "--build-dir", self.build,
                               "--binary", "test_spirv_new", "--expected", path, "--jobs", "2",
                               "--spirv-tools-bin", self.tools] + list(extra),
                              capture_output=True, text=True, env=dict(os.environ, **(env or {})))

    def test_all_pass_and_skip_is_as_expected(self):
        r = self.run_cts({})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("test_spirv_new  xe_hpc  pass 3", r.stdout)
        self.assertIn("test_spirv_new  cpu     pass 2, skip 1", r.stdout)

    def test_an_unexpected_failure_fails(self):
        r = self.run_cts({}, {"STAND_IN_FAIL": "cpu:alpha"})
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("test_spirv_new alpha [cpu]: fail (UNEXPECTED)", r.stdout)

    def test_an_expected_failure_passes_and_a_stale_one_fails(self):
        reason = {"test_spirv_new": {"cpu": {"alpha": "the profile does not claim it"}}}
        r = self.run_cts(reason, {"STAND_IN_FAIL": "cpu:alpha"})
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        r = self.run_cts(reason)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("alpha [cpu]: pass (stale expectation)", r.stdout)

    def test_a_listed_timeout_replaces_the_default(self):
        path = self.write("expected.json", {"cts_commit": "x", "expected_failures": {},
                                            "timeouts": {"test_spirv_new": {"alpha": [30, "slow here"]}}})
        r = subprocess.run([sys.executable, RUN, "--cts-build", self.cts, "--build-dir", self.build,
                            "--binary", "test_spirv_new", "--expected", path, "--timeout", "0.001",
                            "--spirv-tools-bin", self.tools, "--profile", "xe_hpc"],
                           capture_output=True, text=True, env=dict(os.environ))
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("beta [xe_hpc]: timeout (UNEXPECTED)", r.stdout)
        self.assertNotIn("alpha [xe_hpc]: timeout", r.stdout)

    def test_a_crash_is_a_failure(self):
        r = self.run_cts({}, {"STAND_IN_CRASH": "1"}, "--profile", "xe_hpc")
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("gamma [xe_hpc]: crash (UNEXPECTED)", r.stdout)

    def test_bad_input_is_exit_2(self):
        r = subprocess.run([sys.executable, RUN], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("--cts-build is required", r.stderr)
        r = self.run_cts({"test_spirv_new": {"cpu": {"delta": "no such sub-test"}}})
        self.assertEqual(r.returncode, 2)
        self.assertIn("names sub-tests test_spirv_new has not: delta", r.stderr)
        r = self.run_cts({"test_spirv_new": {"cpu": {"alpha": ""}}})
        self.assertEqual(r.returncode, 2)
        self.assertIn("not a readable expected-results list", r.stderr)
        r = subprocess.run([sys.executable, RUN, "--cts-build", self.tmp.name, "--build-dir", self.build,
                            "--binary", "test_basic", "--spirv-tools-bin", self.tools],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("test_basic not found", r.stderr)


class OfflineCompile(TempFiles, unittest.TestCase):
    def test_usage_errors(self):
        r = subprocess.run([sys.executable, COMPILE, "--source", "a.cl"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("--output is missing", r.stderr)
        r = subprocess.run([sys.executable, COMPILE, "--source=a", "--output=b", "--cl-device-info=c",
                            "--mode=binary"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("only spir-v", r.stderr)

    def test_function_variables_are_hoisted_to_the_first_block_start(self):
        from judges.khronos_cts import offline_compile as oc

        def insn(op, *operands):
            return [(len(operands) + 1) << 16 | op] + list(operands)
        header = [0x07230203, 0x10300, 0, 100, 0]
        bitcast, variable = insn(124, 5, 21, 14), insn(oc.OP_VARIABLE, 6, 25, 7)
        body = insn(oc.OP_FUNCTION, 1, 13, 0, 12) + insn(oc.OP_LABEL, 18) + bitcast + variable + \
            insn(253) + insn(oc.OP_FUNCTION_END)
        fixed = oc.hoist_function_variables(header + body)
        expected = insn(oc.OP_FUNCTION, 1, 13, 0, 12) + insn(oc.OP_LABEL, 18) + variable + bitcast + \
            insn(253) + insn(oc.OP_FUNCTION_END)
        self.assertEqual(fixed, header + expected)
        self.assertEqual(oc.hoist_function_variables(header + expected), header + expected)
        # A later block's instructions stay where they are; malformed words come back unchanged.
        later = expected[:-1] + insn(oc.OP_LABEL, 30) + bitcast + insn(253) + insn(oc.OP_FUNCTION_END)
        self.assertEqual(oc.hoist_function_variables(header + later), header + later)
        self.assertEqual(oc.hoist_function_variables(header + [0]), header + [0])

    def test_device_info_turns_features_off(self):
        from judges.khronos_cts import offline_compile
        info = offline_compile.device_info(self.write("info.txt", 'CL_DEVICE_EXTENSIONS="cl_khr_fp16"\n'
                                                      "CL_DEVICE_IMAGE_SUPPORT=0\n"))
        options = offline_compile.clang_options(info, ["-cl-std=CL2.0", "-cl-intel-greater-than-4GB-buffer-required"])
        self.assertEqual(options[0], "-Xclang")
        self.assertIn("-cl_khr_fp64", options[1])
        self.assertIn("-__opencl_c_images", options[1])
        self.assertEqual(options[2:], ["-O2", "-U__IMAGE_SUPPORT__", "-Xclang", "-fdeclare-opencl-builtins",
                                       "-cl-std=CL2.0"])
        info = offline_compile.device_info(self.write("info2.txt", 'CL_DEVICE_EXTENSIONS="cl_khr_fp64"\n'
                                                      "CL_DEVICE_IMAGE_SUPPORT=1\n"))
        self.assertEqual(offline_compile.clang_options(info, []), ["-O2"])
        self.assertEqual(offline_compile.clang_options(info, ["-cl-opt-disable"]), ["-cl-opt-disable"])


if __name__ == "__main__":
    unittest.main()
