#!/usr/bin/env python3
"""End-to-end check of the suite against a device that reports as the shipped driver does: the reference
device on xe_hpc with REFDEV_REPORT_AS=neo-26.27 (every extension at 1.0.0, SPIR-V queries without
SPV_INTEL_2d_block_io) runs a few 2D block IO cases as device_specific and passes them, and with a planted 2D
block IO fault the same run fails: a device_specific case is still judged.

usage: as_shipped_e2e.py <check> <path to spirv_intel_cts> <build dir>
Exit 0 = pass, 1 = fail, 77 = skipped (CTest SKIP_RETURN_CODE) with the reason printed.
"""
import os
import sys

import runner_e2e  # noqa: E402
from runner_e2e import SKIP, describe, expect, load_json_report, reference_icd, run

AS_SHIPPED = {"REFDEV_PROFILE": "xe_hpc", "REFDEV_REPORT_AS": "neo-26.27"}
# The transpose loads: 25 cases, 10 of which fail with the fault below (rows stepped by Memory Width instead
# of Memory Pitch) on the device that reports the spec versions.
PATTERN = "2d_block_io.load_transpose.*"
FAULT = "pitch_ignored"
GAP_LINE = "cl_intel_subgroup_2d_block_io 1.0.0: SPIR-V support is promised from 1.1.0"


def check_fault_caught(runner, build, tmp):
    """Clean: every selected case passes as device_specific and the run names the version gap. With the
    fault: exit 1 and a device_specific case failing."""
    if not reference_icd(build) or not os.path.exists(os.path.join(build, "assets", "manifest.json")):
        print("skipped: needs the reference device and the built assets in %s" % build)
        sys.exit(SKIP)
    clean = os.path.join(tmp, "clean.json")
    rc, out, err = run(runner, [PATTERN, "--fail-if-all-skipped", "--json=" + clean], env_extra=AS_SHIPPED)
    expect(rc == 0, "clean run\n" + describe(rc, out, err))
    expect(GAP_LINE in out, "clean run does not name the version gap\n" + describe(rc, out, err))
    cases = load_json_report(clean, "clean run").get("cases", [])
    expect(cases, "clean run: no case selected by %s" % PATTERN)
    wrong = [(c["name"], c["status"], c.get("tier")) for c in cases
             if c["status"] != "Pass" or c.get("tier") != "device_specific"]
    expect(not wrong, "clean run: cases not Pass as device_specific: %s" % wrong[:5])
    faulty = os.path.join(tmp, "fault.json")
    rc, out, err = run(runner, [PATTERN, "--json=" + faulty],
                       env_extra=dict(AS_SHIPPED, REFDEV_FAULTS=FAULT))
    expect(rc == 1, "run with %s must fail\n%s" % (FAULT, describe(rc, out, err)))
    failed = [c for c in load_json_report(faulty, "fault run").get("cases", []) if c["status"] == "Fail"]
    expect(failed, "run with %s: no case failed" % FAULT)
    expect(all(c.get("tier") == "device_specific" for c in failed),
           "run with %s: failing cases not device_specific: %s" % (
               FAULT, [(c["name"], c.get("tier")) for c in failed][:5]))
    print("%d case(s) pass as device_specific; %d fail with %s" % (len(cases), len(failed), FAULT))


CHECKS = {n[len("check_"):]: f for n, f in globals().items() if n.startswith("check_")}


if __name__ == "__main__":
    sys.exit(runner_e2e.main(CHECKS, __doc__))
