#!/usr/bin/env python3
"""End-to-end checks of --build-only on the reference device: every case judged up to its launch and never
launched (a device that runs nothing still passes, so nothing was compared), each module built once whatever
--jobs is, every report saying so; a rejected core module fails in phase build, a wrong kernel query fails,
the no-hardware mode of Intel's driver without --build-only is refused in one line, and compare_results.py
refuses to set a build-only report against an executing one.

usage: build_only_e2e.py <check> <path to spirv_intel_cts> <build dir>
Exit 0 = pass, 1 = fail, 77 = skipped (CTest SKIP_RETURN_CODE) with the reason printed.
"""
import json
import os
import subprocess
import sys

import runner_e2e as e2e
from runner_e2e import describe, expect, run

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "..", "scripts")
# A selection with launches of every kind of module the shuffle and 2D block IO families build, and the api
# queries, small enough for a few seconds.
SELECTION = ["subgroups.shuffle.i32.*", "2d_block_io.load.e2.*", "api.*"]
NOHW_KEYS = {"NEOReadDebugKeys": "1", "SetCommandStreamReceiver": "1"}


def build_only_run(runner, tmp, tag, args, env=None):
    js, ju, log = (os.path.join(tmp, tag + ext) for ext in (".json", ".xml", ".log"))
    rc, out, err = run(runner, ["--build-only", "--json=" + js, "--junit=" + ju, "--log=" + log] + args,
                       env_extra=env)
    doc = e2e.load_json_report(js, tag) if os.path.exists(js) else None
    junit = e2e.read_text(ju) if os.path.exists(ju) else ""
    return rc, out, err, doc, junit, e2e.read_text(log) if os.path.exists(log) else ""


def check_clean(runner, build, tmp):
    modules = {c["name"]: c.get("module", "") for c in e2e.refdev_manifest_cases_or_skip(build)}
    # kernel_not_run: a device that runs nothing; build-only compares nothing, so every case still passes.
    for mode, env in ((["--jobs=1"], {}), (["--jobs=2"], {"REFDEV_FAULTS": "kernel_not_run"})):
        rc, out, err, doc, junit, log = build_only_run(runner, tmp, "clean", mode + SELECTION, env)
        what = "%s %s" % (mode, env)
        expect(rc == 0 and doc, "%s: %s" % (what, describe(rc, out, err)))
        expect("Build-only run:" in out and "build-only: a Pass is a module built" in out,
               "%s: header or summary does not say build-only\n%s" % (what, out[-2000:]))
        expect(doc.get("build_only") is True, "%s: JSON build_only is %r" % (what, doc.get("build_only")))
        expect('<property name="build_only" value="true"/>' in junit, "%s: no JUnit property build_only" % what)
        expect("build-only run" in log, "%s: the log does not say build-only" % what)
        kernel_cases = [c for c in doc["cases"] if modules.get(c["name"])]
        passed = [c for c in kernel_cases if c["status"] == "Pass"]
        expect(len(passed) > 50, "%s: only %d kernel cases passed" % (what, len(passed)))
        for c in passed:
            expect(c["message"].startswith("build-only: built, not launched; kernel "),
                   "%s: %s passed without saying what was checked: %r" % (what, c["name"], c["message"]))
            expect(c["phases"]["kernel_ms"] == 0, "%s: %s spent time in a kernel" % (what, c["name"]))
        api = [c for c in doc["cases"] if c["name"].startswith("api.")]
        expect(api and all(c["status"] in ("Pass", "NotSupported") for c in api), "%s: api cases %s" % (what, api))
        # Each module built once in the run, whatever --jobs is.
        # (NotSupported cases build nothing: only the modules of cases that got as far as the build count.)
        built = {}
        for c in kernel_cases:
            if c["status"] != "NotSupported":
                built[modules[c["name"]]] = built.get(modules[c["name"]], 0) + c["phases"]["builds"]
        twice = {m: n for m, n in built.items() if n != 1}
        expect(not twice, "%s: modules not built exactly once: %s" % (what, dict(list(twice.items())[:5])))


def check_build_fault(runner, build, tmp):
    # IGC's "Block reads not supported in SIMD32", planted: a core block IO module at SubgroupSize 32 rejected.
    rc, out, err, doc, _, _ = build_only_run(runner, tmp, "build_fault", ["subgroups.block_read.u32.*.sg32.*"],
                                             {"REFDEV_PROFILE": "xe_hpg", "REFDEV_FAULTS": "build_rejects_block_io_simd32"})
    expect(doc, describe(rc, out, err))
    failed = [c for c in doc["cases"] if c["status"] == "Fail"]
    expect(rc == 1 and failed, "a rejected core module did not fail: %s" % describe(rc, out, err))
    for c in failed:
        expect(c.get("phase") == "build" and "SubgroupSize 32" in c.get("build_log", ""),
               "%s failed outside phase build: %s" % (c["name"], c))
    expect(all(c["status"] != "Pass" for c in doc["cases"] if c["tier"] == "core"), "a rejected core module passed")


def check_query_faults(runner, build, tmp):
    for fault, words in (("compile_sub_group_size_query_zero", "CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL reports 0"),
                         ("kernel_num_args_plus_one", "CL_KERNEL_NUM_ARGS reports"),
                         ("kernel_arg_address_qualifier_private", "CL_KERNEL_ARG_ADDRESS_QUALIFIER of argument 0")):
        rc, out, err, doc, _, _ = build_only_run(runner, tmp, fault, ["--jobs=2", "subgroups.shuffle.i32.*"],
                                                 {"REFDEV_FAULTS": fault})
        expect(doc, describe(rc, out, err))
        failed = [c for c in doc["cases"] if c["status"] == "Fail"]
        expect(rc == 1 and failed, "%s: no case failed\n%s" % (fault, describe(rc, out, err)))
        expect(all(words in c["message"] for c in failed), "%s: %s" % (fault, failed[0]["message"]))


def check_refused(runner, build, tmp):
    js = os.path.join(tmp, "refused.json")
    rc, out, err = run(runner, ["--json=" + js, "subgroups.shuffle.i32.*"], env_extra=NOHW_KEYS)
    lines = err.strip().splitlines()
    expect(rc == 1 and len(lines) == 1 and "--build-only" in lines[0] and "SetCommandStreamReceiver=1" in lines[0],
           "a run in the no-hardware mode without --build-only: %s" % describe(rc, out, err))
    doc = e2e.load_json_report(js, "refused run")
    expect(doc["aborted"] == "device" and not doc["cases"], "the refused run's report: %s" % doc.get("aborted"))
    rc, out, err, doc, _, _ = build_only_run(runner, tmp, "allowed", ["subgroups.shuffle.i32.v1.*"], NOHW_KEYS)
    expect(rc == 0, "the same with --build-only: %s" % describe(rc, out, err))
    rc, out, err = run(runner, ["--build-only", "--offline-compiler=ocloc", "--target=pvc"])
    expect(rc == 2 and "drop --build-only" in err, "--build-only with --offline-compiler: %s" % describe(rc, out, err))


def check_compare_refuses_mix(runner, build, tmp):
    executed = os.path.join(tmp, "executed.json")
    rc, out, err = run(runner, ["--json=" + executed, "subgroups.shuffle.i32.v1.*"])
    expect(rc == 0, describe(rc, out, err))
    rc, out, err, _, _, _ = build_only_run(runner, tmp, "bo", ["subgroups.shuffle.i32.v1.*"])
    expect(rc == 0, describe(rc, out, err))
    compare = [sys.executable, os.path.join(SCRIPTS, "reports", "compare_results.py")]
    built = os.path.join(tmp, "bo.json")
    p = subprocess.run(compare + [executed, built], capture_output=True, text=True)
    expect(p.returncode == 2 and "--build-only" in p.stderr, "compare of a mix: %d %s" % (p.returncode, p.stderr))
    p = subprocess.run(compare + ["--allow-build-only-mix", executed, built], capture_output=True, text=True)
    expect(p.returncode == 0 and "build_only differs" in p.stdout, "allowed mix: %d %s" % (p.returncode, p.stdout))
    p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "reports", "merge_results.py"), executed, built, "-o",
                        os.path.join(tmp, "m.json")], capture_output=True, text=True)
    expect(p.returncode == 2, "merge of a build-only and an executing report: %d %s" % (p.returncode, p.stderr))


CHECKS = {"clean": check_clean, "build_fault": check_build_fault, "query_faults": check_query_faults,
          "refused": check_refused, "compare_refuses_mix": check_compare_refuses_mix}

if __name__ == "__main__":
    sys.exit(e2e.main(CHECKS, __doc__))
