#!/usr/bin/env python3
"""End-to-end checks of --retry and the Flake status: with REFDEV_FAULTS=flaky_first_launch the cases whose
(module, kernel) hash is 0 mod 8 (predicted here from the module files) fail without --retry and are Flake
with --retry=2, under --jobs=1, --isolate and --jobs=2, and nothing else changes; --flake-fails fails the run;
a planted crash is retried in a new worker and stays Crash with every attempt.

usage: retry_e2e.py <check> <path to spirv_intel_cts> <build dir>
Exit 0 = pass, 1 = fail, 77 = skipped (CTest SKIP_RETURN_CODE) with the reason printed.
"""
import json
import os
import sys
import xml.dom.minidom

import runner_e2e as e2e
from runner_e2e import describe, expect, run

MODES = (["--jobs=1"], ["--jobs=1", "--timeout=120"], ["--jobs=1", "--isolate"], ["--jobs=2"])


def fnv1a(data):
    h = 1469598103934665603
    for b in data:
        h = ((h ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def flaky_kernel(build, case):
    """True when reference_device/icd/kernel_launch.cpp flakyFirstLaunch picks the case's kernel."""
    with open(os.path.join(build, "assets", "modules", case["module"]), "rb") as f:
        il = f.read()
    return fnv1a(il + b"\0" + case["kernel"].encode()) % 8 == 0


def selection_or_skip(runner, build, tmp):
    """The first subgroups case of each module (one case per kernel, so the first launch of each kernel is
    that case's): a caselist that holds flaky and steady kernels, and the names predicted flaky."""
    first, seen = [], set()
    for c in e2e.refdev_manifest_cases_or_skip(build):
        if (c["name"].startswith("subgroups.") and c.get("module") and c.get("kernel")
                and not set(c.get("tags", [])) & {"extended", "huge"} and c["module"] not in seen):
            seen.add(c["module"])
            first.append(c)
    caselist = os.path.join(tmp, "cases.txt")
    js = os.path.join(tmp, "clean.json")
    with open(caselist, "w") as f:
        f.write("\n".join(c["name"] for c in first) + "\n")
    rc, out, err = run(runner, ["--jobs=1", "--caselist-file=" + caselist, "--json=" + js])
    passing = statuses_of(js)
    first = [c for c in first if passing.get(c["name"]) == "Pass"]
    flaky = [c for c in first if flaky_kernel(build, c)][:4]
    steady = [c for c in first if not flaky_kernel(build, c)][:8]
    names = sorted(c["name"] for c in flaky + steady)
    if len(flaky) < 2 or len(steady) < 2:
        print("skipped: too few kernel cases pass on the clean reference device\n" + describe(rc, out, err))
        sys.exit(e2e.SKIP)
    with open(caselist, "w") as f:
        f.write("\n".join(names) + "\n")
    return caselist, names, {c["name"] for c in flaky}


def statuses_of(js):
    return {c["name"]: c["status"] for c in json.load(open(js))["cases"]} if os.path.exists(js) else {}


def faulty_run(runner, tmp, tag, caselist, args, fault="flaky_first_launch"):
    js, ju, log = (os.path.join(tmp, tag + ext) for ext in (".json", ".xml", ".log"))
    rc, out, err = run(runner, ["--caselist-file=" + caselist, "--json=" + js, "--junit=" + ju, "--log=" + log] +
                       args, {"REFDEV_FAULTS": fault}, timeout=300)
    expect(os.path.exists(js) and os.path.exists(ju), "%s: no reports\n%s" % (tag, describe(rc, out, err)))
    return rc, out, err, json.load(open(js)), open(ju).read(), open(log).read()


def check_flaky(runner, build, tmp):
    caselist, names, flaky = selection_or_skip(runner, build, tmp)
    for mode in MODES:
        tag = "_".join(a.strip("-").replace("=", "") for a in mode)
        rc, out, err, doc, _, _ = faulty_run(runner, tmp, "plain_" + tag, caselist, mode)
        got = {c["name"]: c["status"] for c in doc["cases"]}
        want = {n: "Fail" if n in flaky else "Pass" for n in names}
        expect(got == want, "%s without --retry: %s, expected %s" % (mode, got, want))
        expect(rc == 1, "%s without --retry: exit %d, expected 1" % (mode, rc))

        rc, out, err, doc, junit, log = faulty_run(runner, tmp, "retry_" + tag, caselist, mode + ["--retry=2"])
        got = {c["name"]: c["status"] for c in doc["cases"]}
        want = {n: "Flake" if n in flaky else "Pass" for n in names}
        expect(got == want, "%s --retry=2: %s, expected %s" % (mode, got, want))
        expect(rc == 0, "%s --retry=2: exit %d, expected 0 (flakes do not fail the run)\n%s"
               % (mode, rc, describe(rc, out, err)))
        for c in doc["cases"]:
            if c["name"] in flaky:
                expect(len(c["attempts"]) == 2 and c["attempts"][0].startswith("Fail: ") and c["attempts"][1] == "Pass",
                       "%s: %s attempts %s" % (mode, c["name"], c.get("attempts")))
            else:
                expect("attempts" not in c, "%s: %s ran once, yet has attempts" % (mode, c["name"]))
        expect("%d passed, 0 failed, 0 skipped, %d flaky" % (len(names) - len(flaky), len(flaky)) in out,
               "%s --retry=2: summary line\n%s" % (mode, out[-1500:]))
        for n in flaky:
            expect("[ FLAKE  ] " + n in out and "  " + n + "\n" in out.split("flaky cases")[-1],
                   "%s: %s not shown as flaky on the console" % (mode, n))
            expect(n in log and "Flake" in log, "%s: the log does not record %s as Flake" % (mode, n))
        dom = xml.dom.minidom.parseString(junit)
        expect(not dom.getElementsByTagName("failure"), "%s: a Flake is a JUnit failure without --flake-fails" % mode)
        expect(junit.count('<property name="status" value="Flake"/>') == len(flaky), "%s: JUnit Flake properties" % mode)

    rc, out, err, doc, junit, _ = faulty_run(runner, tmp, "flake_fails", caselist, ["--jobs=2", "--retry=2", "--flake-fails"])
    expect(rc == 1, "--flake-fails: exit %d, expected 1\n%s" % (rc, describe(rc, out, err)))
    expect("--flake-fails is set" in out, "--flake-fails: no note saying why the run failed")
    expect(junit.count('type="Flake"') == len(flaky), "--flake-fails: JUnit failures of type Flake")


def check_crash(runner, build, tmp):
    caselist, names, _ = selection_or_skip(runner, build, tmp)
    two = [names[0], names[-1]]  # two modules: --jobs=2 runs them in workers
    with open(caselist, "w") as f:
        f.write("\n".join(two) + "\n")
    for mode in (["--isolate"], ["--jobs=2"]):
        rc, out, err, doc, _, log = faulty_run(runner, tmp, "crash", caselist, mode + ["--retry=1"], "crash")
        expect([c["name"] for c in doc["cases"]] == two, "%s: cases %s" % (mode, doc["cases"]))
        for c in doc["cases"]:
            expect(c["status"] == "Crash" and len(c.get("attempts", [])) == 2
                   and all(a.startswith("Crash: ") for a in c["attempts"]),
                   "%s: a crash retried once: %s" % (mode, c))
            expect("retrying " + c["name"] + " in a new worker after Crash" in log,
                   "%s: the log does not note the retry of %s" % (mode, c["name"]))
        expect(rc == 1, "%s: exit %d for a crash" % (mode, rc))


def check_options(runner, build, tmp):
    for bad in ("--retry=11", "--retry=x", "--retry=-1"):
        rc, out, err = run(runner, [bad])
        expect(rc == 2 and len(err.strip().splitlines()) == 2 and "Traceback" not in err,
               "%s: exit %d\n%s" % (bad, rc, err))
        expect("0 <= K <= 10" in err, "%s: the error does not give the range: %s" % (bad, err))
    rc, out, err = run(runner, ["--help"])
    expect(rc == 0 and "--retry=K" in out and "--flake-fails" in out, "--help does not describe --retry")


CHECKS = {"flaky": check_flaky, "crash": check_crash, "options": check_options}

if __name__ == "__main__":
    sys.exit(e2e.main(CHECKS, __doc__))
