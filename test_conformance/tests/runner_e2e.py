#!/usr/bin/env python3
"""End-to-end checks of the spirv_intel_cts runner contract.

usage: runner_e2e.py <check> <path to spirv_intel_cts> <build dir>
Exit 0 = pass, 1 = fail, 77 = skipped (CTest SKIP_RETURN_CODE) with the reason printed.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.dom.minidom

SKIP = 77
POCL_ICD = "/etc/OpenCL/vendors/pocl.icd"


class CheckFailed(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise CheckFailed(what)


def run(runner, args, env_extra=None, timeout=600, env_drop=()):
    env = dict(os.environ)
    for k in ("OCL_ICD_VENDORS", "CL_CONFORMANCE_RESULTS_FILENAME", "GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX",
              "CL_PLATFORM_INDEX", "CL_DEVICE_INDEX", "CL_DEVICE_TYPE", "CTS_FAIL_IF_ALL_SKIPPED", "REFDEV_FAULTS"):
        env.pop(k, None)
    for k in env_drop:
        env.pop(k, None)
    env.update(env_extra or {})
    p = subprocess.run([runner] + args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                       universal_newlines=True, errors="replace")
    return p.returncode, p.stdout, p.stderr


def describe(rc, out, err):
    return "exit %d\n--- stdout ---\n%s\n--- stderr ---\n%s" % (rc, out[-3000:], err[-3000:])


def assets_args(build, tmp):
    """Uses the build's assets when present, else an empty manifest (C++ cases only)."""
    manifest = os.path.join(build, "assets", "manifest.json")
    if os.path.exists(manifest):
        return []
    d = os.path.join(tmp, "assets")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "manifest.json"), "w") as f:
        json.dump({"version": 1, "cases": []}, f)
    print("note: %s missing; using an empty manifest" % manifest)
    return ["--assets-dir=" + d]


def pocl_env():
    return {"OCL_ICD_VENDORS": POCL_ICD}


def reference_icd(build):
    d = os.path.join(build, "icd")
    return d if os.path.isdir(d) and any(n.endswith(".icd") for n in os.listdir(d)) else None


# --- checks -----------------------------------------------------------------------------------------------

def check_usage(runner, build, tmp):
    extra = assets_args(build, tmp)
    cases = [
        ["--bogus"], ["--seed=abc"], ["--shard=2/2"], ["--platform=x"], ["--device-type=fpga"], ["--icd=nope"],
        ["--timeout=-1"], ["--json"], ["-q"], ["no_such_group"], ["--filter=api-no_such_thing"],
        ["--caselist-file=" + os.path.join(tmp, "missing.txt")], ["--quick", "--extended"],
    ]
    listfile = os.path.join(tmp, "cases.txt")
    with open(listfile, "w") as f:
        f.write("# comment\napi\nnot_a_case.at_all\n")
    cases.append(["--caselist-file=" + listfile])
    for args in cases:
        rc, out, err = run(runner, extra + args + ["--list"])
        expect(rc == 2, "%s: expected exit 2\n%s" % (args, describe(rc, out, err)))
        lines = [l for l in err.splitlines() if l.strip()]
        expect(lines and "--help" in err, "%s: expected an error line and a --help hint\n%s" % (args, err))
    rc, out, err = run(runner, extra + ["--list"], {"GTEST_TOTAL_SHARDS": "0"})
    expect(rc == 2 and "GTEST_TOTAL_SHARDS" in err, "malformed GTEST_TOTAL_SHARDS\n" + describe(rc, out, err))
    rc, out, err = run(runner, ["--help"])
    expect(rc == 0 and "--filter" in out and "--isolate" in out, "--help\n" + describe(rc, out, err))
    # The not-matching pattern is named in the message.
    rc, out, err = run(runner, extra + ["--list", "zz_missing_pattern*"])
    expect("zz_missing_pattern*" in err, "message should name the pattern\n" + err)


def check_report_paths(runner, build, tmp):
    extra = assets_args(build, tmp)
    for opt in ("--json", "--junit", "--log"):
        bad = "/nonexistent_dir_for_cts/%s.out" % opt.strip("-")
        rc, out, err = run(runner, extra + [opt + "=" + bad], pocl_env())
        expect(rc == 2, "%s to an unwritable path: expected exit 2\n%s" % (opt, describe(rc, out, err)))
        expect(bad in err, "message should name the path\n" + err)
        expect("passed" not in out and "Device:" not in out, "%s: the run must not start\n%s" % (opt, out))
    rc, out, err = run(runner, extra, {"OCL_ICD_VENDORS": POCL_ICD,
                                       "CL_CONFORMANCE_RESULTS_FILENAME": "/nonexistent_dir_for_cts/r.json"})
    expect(rc == 2, "unwritable CL_CONFORMANCE_RESULTS_FILENAME\n" + describe(rc, out, err))


NAME_RE = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)+$")
TOP = {"api", "subgroups", "media_block_io", "2d_block_io", "matrix_multiply_accumulate"}


def list_names(runner, extra, args=(), env=None):
    rc, out, err = run(runner, extra + ["--list"] + list(args), env)
    expect(rc == 0, "--list\n" + describe(rc, out, err))
    return out.split()


def check_list_and_shards(runner, build, tmp):
    extra = assets_args(build, tmp)
    names = list_names(runner, extra)
    expect(names, "--list printed nothing")
    expect(len(set(names)) == len(names), "duplicate case names")
    expect(names == sorted(names), "--list is not sorted")
    for n in names:
        expect(NAME_RE.match(n), "bad case name %r" % n)
        expect(n.split(".")[0] in TOP, "unknown top level in %r" % n)
    for n_shards in (1, 2, 3, 5):
        seen = []
        for i in range(n_shards):
            part = list_names(runner, extra, ["--shard=%d/%d" % (i, n_shards)])
            seen += part
            env_part = list_names(runner, extra, [], {"GTEST_TOTAL_SHARDS": str(n_shards),
                                                      "GTEST_SHARD_INDEX": str(i)})
            expect(part == env_part, "GTEST_* sharding differs from --shard")
        expect(sorted(seen) == sorted(names) and len(seen) == len(names),
               "%d shards do not partition the list" % n_shards)
    # Tag filters: --quick is a subset, --extended a superset; neither is the conformance list.
    quick = list_names(runner, extra, ["--quick"])
    extended = list_names(runner, extra, ["--extended"])
    expect(set(quick) <= set(names) and set(names) <= set(extended), "--quick/--extended subsets")
    manifest = os.path.join(build, "assets", "manifest.json")
    if os.path.exists(manifest):
        cases = json.load(open(manifest))["cases"]
        want_quick = {c["name"] for c in cases if "quick" in c.get("tags", [])}
        want_ext = {c["name"] for c in cases if "extended" in c.get("tags", [])}
        expect(want_quick <= set(quick) and not (set(quick) - want_quick - {n for n in quick if n.startswith("api.")}),
               "--quick should list exactly the quick-tagged cases")
        expect(want_ext <= set(extended) and not (want_ext & set(names)), "extended cases only with --extended")
    # Subtree selection, globs and negative filters.
    api = list_names(runner, extra, ["api"])
    expect(api and all(n.startswith("api.") for n in api), "'api' should select the api subtree")
    glob = list_names(runner, extra, ["api.*.cl_intel_sub?roup_2d_block_io"])
    expect(glob and all("2d_block_io" in n for n in glob), "glob selection")
    neg = list_names(runner, extra, ["--filter=api-api.spirv_queries"])
    expect(neg and not any(n.startswith("api.spirv_queries") for n in neg), "negative filter")
    ex = os.path.join(tmp, "exclude.txt")
    with open(ex, "w") as f:
        f.write("# skip these\napi.spirv_queries   # trailing comment\n\n")
    excl = list_names(runner, extra, ["api", "--exclude-file=" + ex])
    expect(excl == neg, "--exclude-file should match the equivalent negative filter")


def pocl_or_skip():
    if not os.path.exists(POCL_ICD):
        print("skipped: %s not installed" % POCL_ICD)
        sys.exit(SKIP)


def check_pocl(runner, build, tmp):
    pocl_or_skip()
    extra = assets_args(build, tmp)
    js, ju, log = (os.path.join(tmp, n) for n in ("r.json", "r.xml", "r.log"))
    rc, out, err = run(runner, extra + ["--icd=system", "--json=" + js, "--junit=" + ju, "--log=" + log],
                       pocl_env())
    expect(rc == 0, "pocl run should exit 0 (everything NotSupported)\n" + describe(rc, out, err))
    doc = json.load(open(js))
    expect(doc["cases"], "no cases in JSON")
    bad = [c for c in doc["cases"] if c["status"] != "NotSupported"]
    expect(not bad, "cases not NotSupported on pocl: %s" % bad[:3])
    expect(all(v == "skip" for v in doc["results"].values()), "CTS results should all be skip")
    expect(all(c["message"] for c in doc["cases"]), "every NotSupported case needs a reason")
    dom = xml.dom.minidom.parse(ju)
    expect(len(dom.getElementsByTagName("skipped")) == len(doc["cases"]), "JUnit skipped count")
    lines = open(log).read().splitlines()
    expect(sum(1 for l in lines if l.startswith("start\t")) == len(doc["cases"]), "log start lines")
    expect(re.search(r"^0 passed, 0 failed, \d+ skipped$", out, re.M), "summary line\n" + out)
    rc, out, err = run(runner, extra + ["--icd=system", "--quick"], pocl_env())
    expect(rc == 0 and "quick run: not for conformance" in out, "--quick header\n" + describe(rc, out, err))
    rc, out, err = run(runner, extra + ["--icd=system", "--extended", "api"], pocl_env())
    expect(rc == 0 and "not for conformance" in out, "--extended header\n" + describe(rc, out, err))
    rc, out, err = run(runner, extra + ["--icd=system", "--fail-if-all-skipped"], pocl_env())
    expect(rc == 1, "--fail-if-all-skipped should exit 1\n" + describe(rc, out, err))
    rc, out, err = run(runner, extra + ["--icd=system"], {"OCL_ICD_VENDORS": POCL_ICD, "CTS_FAIL_IF_ALL_SKIPPED": "1"})
    expect(rc == 1, "CTS_FAIL_IF_ALL_SKIPPED=1 should exit 1\n" + describe(rc, out, err))
    rc, out, err = run(runner, extra + ["--icd=system", "--platform=7"], pocl_env())
    expect(rc == 1 and "out of range" in err, "platform index out of range\n" + describe(rc, out, err))
    rc, out, err = run(runner, extra + ["--icd=system", "--device=9"], pocl_env())
    expect(rc == 1 and "out of range" in err, "device index out of range\n" + describe(rc, out, err))
    rc, out, err = run(runner, extra + ["--icd=system"], {"OCL_ICD_VENDORS": os.path.join(tmp, "no_icds")})
    expect(rc == 1 and "no OpenCL platform" in err, "no platform\n" + describe(rc, out, err))


def check_manifest_errors(runner, build, tmp):
    pocl_or_skip()
    d = os.path.join(tmp, "bad_assets")
    os.makedirs(os.path.join(d, "modules"), exist_ok=True)
    manifest = os.path.join(d, "manifest.json")
    with open(manifest, "w") as f:
        f.write("{ not json")
    js = os.path.join(tmp, "m.json")
    rc, out, err = run(runner, ["--icd=system", "--assets-dir=" + d, "--json=" + js], pocl_env())
    expect(rc == 1 and manifest in out, "corrupt manifest: exit 1 naming the file\n" + describe(rc, out, err))
    doc = json.load(open(js))
    expect(doc["errors"] and manifest in doc["errors"][0], "JSON errors should name the manifest")
    expect(not any(c["status"] == "Fail" for c in doc["cases"]), "a broken manifest is never a Fail")
    with open(manifest, "w") as f:
        json.dump({"version": 1, "cases": [
            {"name": "subgroups.unknown_family_case", "family": "no.such.family", "module": "x.spv",
             "kernel": "k", "requires": []},
            {"name": "subgroups.bad_token_case", "family": "no.such.family", "requires": [7]},
            {"name": "subgroups.nasty_message_case", "family": "x<&\"'>\u0001\n\u00e9y"}]}, f)
    ju = os.path.join(tmp, "m.xml")
    rc, out, err = run(runner, ["--icd=system", "--assets-dir=" + d, "--json=" + js, "--junit=" + ju, "subgroups"],
                       pocl_env())
    # Messages with markup characters, quotes, control characters and non-ASCII survive both reports.
    dom = xml.dom.minidom.parse(ju)
    errors = {e.parentNode.getAttribute("name"): e.getAttribute("message") for e in dom.getElementsByTagName("error")}
    expect("x<&\"'>" in errors.get("subgroups.nasty_message_case", ""), "JUnit message: %r" % errors)
    doc = json.load(open(js))
    statuses = {c["name"]: c for c in doc["cases"]}
    expect(rc == 1, "internal errors must exit 1\n" + describe(rc, out, err))
    for n in ("subgroups.unknown_family_case", "subgroups.bad_token_case"):
        expect(statuses[n]["status"] == "InternalError", "%s: %s" % (n, statuses[n]))
    expect("no.such.family" in statuses["subgroups.unknown_family_case"]["message"], "message names family")
    expect("x<&\"'>\u0001\n\u00e9y" in statuses["subgroups.nasty_message_case"]["message"], "JSON message round trip")
    expect("rerun:" in out and "subgroups.unknown_family_case" in out, "rerun command printed\n" + out)


def kernel_cases_or_skip(runner, build, tmp):
    """Manifest cases with a module that pass on the clean reference device (at most 3)."""
    if not reference_icd(build):
        print("skipped: no reference device ICD in %s/icd" % build)
        sys.exit(SKIP)
    manifest = os.path.join(build, "assets", "manifest.json")
    if not os.path.exists(manifest):
        print("skipped: no %s" % manifest)
        sys.exit(SKIP)
    with_module = [c["name"] for c in json.load(open(manifest))["cases"] if c.get("module")
                   and "extended" not in c.get("tags", [])]
    js = os.path.join(tmp, "clean.json")
    caselist = os.path.join(tmp, "candidates.txt")
    with open(caselist, "w") as f:
        f.write("\n".join(sorted(with_module)[:40]) + "\n")
    rc, out, err = run(runner, ["--caselist-file=" + caselist, "--json=" + js, "--isolate", "--timeout=60"])
    passing = [c["name"] for c in json.load(open(js))["cases"] if c["status"] == "Pass"] if os.path.exists(js) else []
    if not passing:
        print("skipped: no kernel case passes on the clean reference device yet\n" + describe(rc, out, err))
        sys.exit(SKIP)
    return passing[:3]


def check_refdev_timeout(runner, build, tmp):
    cases = kernel_cases_or_skip(runner, build, tmp)
    js = os.path.join(tmp, "hang.json")
    rc, out, err = run(runner, ["--isolate", "--timeout=3", "--json=" + js] + cases, {"REFDEV_FAULTS": "hang"},
                       timeout=120)
    expect(rc == 1, "hang: exit 1\n" + describe(rc, out, err))
    doc = json.load(open(js))
    expect([c["name"] for c in doc["cases"]] == sorted(cases), "every case recorded\n" + describe(rc, out, err))
    expect(all(c["status"] == "Timeout" for c in doc["cases"]), "all Timeout: %s" % doc["cases"])
    expect("timed out" in out, "summary mentions timeouts\n" + out)


def check_refdev_crash(runner, build, tmp):
    cases = kernel_cases_or_skip(runner, build, tmp)
    js, log = os.path.join(tmp, "crash.json"), os.path.join(tmp, "crash.log")
    rc, out, err = run(runner, ["--isolate", "--json=" + js, "--log=" + log] + cases, {"REFDEV_FAULTS": "crash"},
                       timeout=120)
    expect(rc == 1, "crash: exit 1\n" + describe(rc, out, err))
    doc = json.load(open(js))
    expect([c["name"] for c in doc["cases"]] == sorted(cases), "every case recorded")
    expect(all(c["status"] == "Crash" for c in doc["cases"]), "all Crash: %s" % doc["cases"])
    expect("crashed" in out and "rerun:" in out, "summary and rerun line\n" + out)
    # Without --isolate the process dies; the line log shows which case was running.
    rc, out, err = run(runner, ["--log=" + log] + cases, {"REFDEV_FAULTS": "crash"}, timeout=120)
    expect(rc != 0, "crash without --isolate must not exit 0")
    last = open(log).read().splitlines()[-1]
    expect(last == "start\t" + sorted(cases)[0], "log should end with the crashing case's start line: %r" % last)


def check_refdev_abort(runner, build, tmp):
    cases = kernel_cases_or_skip(runner, build, tmp)
    js = os.path.join(tmp, "abort.json")
    rc, out, err = run(runner, ["--timeout=3", "--json=" + js] + cases, {"REFDEV_FAULTS": "hang"}, timeout=120)
    expect(rc == 1 and "aborted" in out, "timeout without --isolate aborts with exit 1\n" + describe(rc, out, err))
    doc = json.load(open(js))
    expect(len(doc["cases"]) == 1 and doc["cases"][0]["status"] == "Timeout", "one Timeout recorded: %s" % doc)


def check_refdev_rerun_and_dump(runner, build, tmp):
    """A planted fault makes cases fail; the printed rerun command re-runs exactly one of them, with the
    same seed, and --dump-dir receives the module and the outcome."""
    kernel_cases_or_skip(runner, build, tmp)
    fault = "shuffle_down_ignores_next"
    js, dump = os.path.join(tmp, "fault.json"), os.path.join(tmp, "dump")
    rc, out, err = run(runner, ["--seed=5", "--json=" + js, "--dump-dir=" + dump, "subgroups.shuffle_down"],
                       {"REFDEV_FAULTS": fault})
    if "unknown fault" in err:
        print("skipped: the reference device has no fault %s" % fault)
        sys.exit(SKIP)
    expect(rc == 1, "planted fault: exit 1\n" + describe(rc, out, err))
    doc = json.load(open(js))
    failed = [c for c in doc["cases"] if c["status"] == "Fail"]
    expect(failed, "the planted fault should fail some case")
    first = failed[0]
    expect(os.path.exists(os.path.join(dump, first["name"] + ".txt")), "dump text for " + first["name"])
    expect(os.path.exists(os.path.join(dump, first["name"] + ".spv")), "dump module for " + first["name"])
    reruns = re.findall(r"^    rerun: (.*)$", out, re.M)
    expect(len(reruns) == len(failed), "one rerun line per failure (%d vs %d)" % (len(reruns), len(failed)))
    cmd = [l for l in reruns if l.endswith(" " + first["name"])]
    expect(cmd and "--seed=5" in cmd[0] and "REFDEV_FAULTS=" + fault in cmd[0], "rerun line: %s" % cmd)
    js2 = os.path.join(tmp, "rerun.json")
    env = dict(os.environ)
    env.pop("OCL_ICD_VENDORS", None)
    p = subprocess.run(cmd[0] + " --json=" + js2, shell=True, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    again = json.load(open(js2))["cases"]
    expect(len(again) == 1 and again[0]["name"] == first["name"], "rerun ran exactly the case: %s" % again)
    expect(again[0]["status"] == "Fail" and again[0]["seed"] == first["seed"], "same outcome and seed: %s" % again)
    expect(p.returncode == 1, "rerun exit status %d" % p.returncode)
    # Seeds: stable for a run seed, different for another.
    js3 = os.path.join(tmp, "seed6.json")
    run(runner, ["--seed=6", "--json=" + js3, first["name"]], {"REFDEV_FAULTS": fault})
    expect(json.load(open(js3))["cases"][0]["seed"] != first["seed"], "--seed should change the per-case seed")


CHECKS = {n[len("check_"):]: f for n, f in globals().items() if n.startswith("check_")}


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in CHECKS:
        print(__doc__ + "checks: " + ", ".join(sorted(CHECKS)))
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        try:
            CHECKS[sys.argv[1]](os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]), tmp)
        except CheckFailed as e:
            print("FAILED: %s" % e)
            return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
