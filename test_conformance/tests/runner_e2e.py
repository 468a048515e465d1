#!/usr/bin/env python3
"""End-to-end checks of the spirv_intel_cts runner contract.

usage: runner_e2e.py <check> <path to spirv_intel_cts> <build dir>
Exit 0 = pass, 1 = fail, 77 = skipped (CTest SKIP_RETURN_CODE) with the reason printed.
"""
import binascii
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.dom.minidom

SKIP = 77
MANIFEST_VERSION = 4  # scripts/assets/spvgen.py MANIFEST_VERSION, test_common/harness/selection/manifest.cpp kManifestVersion
POCL_ICD = "/etc/OpenCL/vendors/pocl.icd"


class CheckFailed(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise CheckFailed(what)


def run(runner, args, env_extra=None, timeout=600, env_drop=(), cwd=None):
    env = dict(os.environ)
    for k in ("OCL_ICD_VENDORS", "CL_CONFORMANCE_RESULTS_FILENAME", "GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX",
              "CL_PLATFORM_INDEX", "CL_DEVICE_INDEX", "CL_DEVICE_TYPE", "CTS_FAIL_IF_ALL_SKIPPED", "REFDEV_FAULTS"):
        env.pop(k, None)
    for k in env_drop:
        env.pop(k, None)
    env.update(env_extra or {})
    p = subprocess.run([runner] + args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                       universal_newlines=True, errors="replace", cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def describe(rc, out, err):
    return "exit %d\n--- stdout ---\n%s\n--- stderr ---\n%s" % (rc, out[-3000:], err[-3000:])


def clean_env(env_extra=None):
    env = dict(os.environ)
    for k in ("OCL_ICD_VENDORS", "CL_CONFORMANCE_RESULTS_FILENAME", "GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX",
              "CL_PLATFORM_INDEX", "CL_DEVICE_INDEX", "CL_DEVICE_TYPE", "CTS_FAIL_IF_ALL_SKIPPED", "REFDEV_FAULTS"):
        env.pop(k, None)
    env.update(env_extra or {})
    return env


def load_json_report(path, what):
    """The parsed JSON report; a missing, empty or truncated file is a failed check, not a traceback."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise CheckFailed("%s: %s is not a readable JSON report (%s)" % (what, path, e))


def load_junit_report(path, what):
    try:
        return xml.dom.minidom.parse(path)
    except Exception as e:  # noqa: BLE001 (expat and OS errors alike)
        raise CheckFailed("%s: %s is not a readable JUnit report (%s)" % (what, path, e))


def read_text(path):
    with open(path, errors="replace") as f:
        return f.read()


def temp_leftovers(directory):
    return [n for n in os.listdir(directory) if ".tmp." in n]


def process_alive(pid):
    """True while pid exists and is not a zombie (a zombie has ended; only its exit status is left)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] not in "ZX"


def end_by(p, sig, what):
    """Sends sig to the runner and waits for it; returns its exit status."""
    try:
        p.send_signal(sig)
        return p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        raise CheckFailed("%s: the runner did not end within 30 s" % what)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def kill_left(pids):
    """SIGKILLs whichever of pids is still alive (workers a failed check left behind)."""
    for pid in pids:
        if process_alive(pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


def children(pid):
    """Process ids whose parent is pid (from /proc/*/stat)."""
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                stat = f.read()
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
            out.append(int(name))
    return out


def wait_for(cond, seconds, step=0.1):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = cond()
        if value:
            return value
        time.sleep(step)
    return cond()


def check_not_run_report(js, ju, cases, reason, what):
    """An interrupted run's reports: parseable, marked aborted, every selected case either recorded or not run."""
    doc = load_json_report(js, what)
    expect(doc.get("aborted") == reason, "%s: JSON aborted should be %r: %r" % (what, reason, doc.get("aborted")))
    recorded = [c["name"] for c in doc["cases"]]
    expect(sorted(recorded + doc.get("not_run", [])) == sorted(cases),
           "%s: recorded %s + not_run %s should be the selected cases %s" % (what, recorded, doc.get("not_run"),
                                                                             cases))
    expect(doc.get("not_run"), "%s: the hanging case was not run: %r" % (what, doc.get("not_run")))
    expect(doc.get("selected") == len(cases), "%s: selected %r" % (what, doc.get("selected")))
    expect(any(reason in e and "not run" in e for e in doc["errors"]), "%s: errors %r" % (what, doc["errors"]))
    dom = load_junit_report(ju, what)
    skipped = [e.getAttribute("message") for e in dom.getElementsByTagName("skipped")]
    expect(sum(1 for m in skipped if m.startswith("not run")) == len(doc["not_run"]),
           "%s: JUnit should mark the %d not-run case(s) skipped 'not run': %r" % (what, len(doc["not_run"]),
                                                                                  skipped))
    suite = dom.getElementsByTagName("testsuite")[0]
    expect(int(suite.getAttribute("tests")) >= len(cases), "%s: JUnit tests count" % what)
    expect(any(e.getAttribute("type") == "Aborted" for e in dom.getElementsByTagName("error")),
           "%s: JUnit should carry an Aborted error" % what)
    return doc


def write_manifest(directory, doc=None, text=None):
    """manifest.json (doc as JSON, or text as it is) and manifest.sha256 beside it, as the asset build writes them."""
    data = text if text is not None else json.dumps(doc)
    with open(os.path.join(directory, "manifest.json"), "w") as f:
        f.write(data)
    with open(os.path.join(directory, "manifest.sha256"), "w") as f:
        f.write("%s  manifest.json\n" % hashlib.sha256(data.encode("utf-8")).hexdigest())


def assets_args(build, tmp):
    """Uses the build's assets when present, else an empty manifest (C++ cases only)."""
    manifest = os.path.join(build, "assets", "manifest.json")
    if os.path.exists(manifest):
        return []
    d = os.path.join(tmp, "assets")
    os.makedirs(d, exist_ok=True)
    write_manifest(d, {"version": MANIFEST_VERSION, "modules": {}, "cases": []})
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
        ["--timeout=-1"], ["--json", "--json=x.json"], ["-q"], ["no_such_group"], ["--filter=api-no_such_thing"],
        ["--caselist-file=" + os.path.join(tmp, "missing.txt")], ["--quick", "--extended"],
        ["--tag=no_such_tag"], ["--tag="], ["--tag=quick,"],
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
    # A file or directory option with its value as the next argument would swallow a case pattern
    # (`--json api` wrote a report called "api" and ran everything): only the = form is accepted. (`--list
    # --json` prints the list as JSON and writes no file: --json is checked without --list.)
    for opt, word in (("--json", "FILE"), ("--junit", "FILE"), ("--log", "FILE"), ("--caselist-file", "FILE"),
                      ("--exclude-file", "FILE"), ("--dump-dir", "DIR"), ("--assets-dir", "DIR")):
        rc, out, err = run(runner, extra + ([] if opt == "--json" else ["--list"]) + [opt, "api"])
        expect(rc == 2 and (opt + " needs =" + word) in err and "e.g. " + opt + "=" in err,
               "%s api: expected exit 2 asking for %s=%s\n%s" % (opt, opt, word, describe(rc, out, err)))
        expect(not out, "%s api: nothing may be listed\n%s" % (opt, out))
    # An out-of-range timeout says what the accepted range is.
    rc, out, err = run(runner, extra + ["--list", "--timeout=1e9"])
    expect(rc == 2 and "10000000" in err, "--timeout=1e9 should name the limit\n" + describe(rc, out, err))


def usage_error(runner, args, words, cwd=None, env=None):
    """Expects exit 2, one error line containing every one of words, the --help hint, nothing run."""
    rc, out, err = run(runner, args, env, cwd=cwd)
    expect(rc == 2, "%s: expected exit 2\n%s" % (args, describe(rc, out, err)))
    lines = [l for l in err.splitlines() if l.strip()]
    expect(len(lines) == 2 and "error:" in lines[0] and "--help" in lines[1],
           "%s: expected one error line and the --help hint\n%s" % (args, err))
    for w in words:
        expect(w in lines[0], "%s: the error should mention %r\n%s" % (args, w, err))
    expect("passed" not in out and "Device:" not in out, "%s: the run must not start\n%s" % (args, out))
    return lines[0]


def check_report_collisions(runner, build, tmp):
    """Two reports (or a report and the line log) on one file used to interleave into a corrupt file and exit
    0; now that is a usage error, whatever the spelling of the path."""
    extra = assets_args(build, tmp)
    work = os.path.join(os.path.realpath(tmp), "work")  # the messages name the resolved path
    os.makedirs(os.path.join(work, "sub"))
    os.symlink(os.path.join(work, "sub"), os.path.join(work, "link"))
    x = os.path.join(work, "x")
    with open(x, "w") as f:
        f.write("keep me")
    for args, words in (
            (["--json=x", "--junit=x"], ["--json", "--junit", x]),
            (["--json=./x", "--junit=x"], ["--json", "--junit", x]),
            (["--json=x", "--log=" + x], ["--json", "--log", x]),
            (["--junit=sub/../x", "--log=./x"], ["--junit", "--log", x]),
            (["--json=link/r.json", "--junit=sub/r.json"], ["--json", "--junit", os.path.join(work, "sub/r.json")]),
            (["--json=new.out", "--log=" + work + "//new.out"], ["--json", "--log", os.path.join(work, "new.out")])):
        usage_error(runner, extra + args, words, cwd=work, env=pocl_env())
        usage_error(runner, extra + args + ["--list"], words, cwd=work)
    # CL_CONFORMANCE_RESULTS_FILENAME is the JSON report too.
    usage_error(runner, extra + ["--junit=x"], ["CL_CONFORMANCE_RESULTS_FILENAME", "--junit", x], cwd=work,
                env={"OCL_ICD_VENDORS": POCL_ICD, "CL_CONFORMANCE_RESULTS_FILENAME": "./x"})
    expect(open(x).read() == "keep me", "a refused run must not touch the report file")
    expect(not os.path.exists(os.path.join(work, "new.out")), "a refused run must not create the report file")
    # Distinct files are fine, and so is discarding two reports into /dev/null (a run: --list writes no report).
    if reference_icd(build):
        one = ["--jobs=1", "api.il_version"]
        rc, out, err = run(runner, extra + one + ["--json=a.json", "--junit=a.xml", "--log=a.log"], cwd=work)
        expect(rc == 0, "distinct report files\n" + describe(rc, out, err))
        rc, out, err = run(runner, extra + one + ["--json=/dev/null", "--junit=/dev/null"], cwd=work)
        expect(rc == 0, "two reports into /dev/null\n" + describe(rc, out, err))


def check_empty_selection(runner, build, tmp):
    """A run that selects nothing is a usage error, like a pattern that matches nothing: a directory or an
    empty file as the case list, an exclude file holding *, a negative filter removing everything, a filter
    with no pattern in it."""
    extra = assets_args(build, tmp)
    empty = os.path.join(tmp, "empty.txt")
    with open(empty, "w") as f:
        f.write("# nothing here yet\n\n")
    star = os.path.join(tmp, "star.txt")
    with open(star, "w") as f:
        f.write("*\n")
    for list_flag in ([], ["--list"]):
        usage_error(runner, extra + list_flag + ["--caselist-file=" + tmp], ["--caselist-file", tmp, "directory"],
                    env=pocl_env())
        usage_error(runner, extra + list_flag + ["--exclude-file=" + tmp], ["--exclude-file", tmp, "directory"],
                    env=pocl_env())
        usage_error(runner, extra + list_flag + ["--caselist-file=" + empty], ["--caselist-file", empty, "no case"],
                    env=pocl_env())
        usage_error(runner, extra + list_flag + ["--exclude-file=" + star], ["no case selected"], env=pocl_env())
        usage_error(runner, extra + list_flag + ["--filter=-*"], ["no case selected"], env=pocl_env())
        usage_error(runner, extra + list_flag + ["api", "--filter=-api.*"], ["no case selected"], env=pocl_env())
        for f in ("--filter=-", "--filter=::", "--filter=-:", "--filter="):
            usage_error(runner, extra + list_flag + [f], [f], env=pocl_env())
    # An empty exclude file excludes nothing.
    expect(list_names(runner, extra, ["--exclude-file=" + empty]) == list_names(runner, extra),
           "an empty --exclude-file should change nothing")
    # An empty shard of a non-empty selection is not an error (more shards than cases in a CI matrix).
    api = list_names(runner, extra, ["api"])
    n = len(api) + 1
    expect(list_names(runner, extra, ["api", "--shard=%d/%d" % (n - 1, n)]) == [], "the last shard is empty")


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


def check_report_preserved(runner, build, tmp):
    """Report paths are checked without truncating: a run that stops before any case leaves an earlier report
    as it was, and a device-selection error writes a report that says nothing ran (never a 0-byte file)."""
    extra = assets_args(build, tmp)
    js, ju = os.path.join(tmp, "old.json"), os.path.join(tmp, "old.xml")
    for path in (js, ju):
        with open(path, "w") as f:
            f.write("earlier report\n")
    for bad in (["--log=/nonexistent_dir_for_cts/x.log"], ["--dump-dir=/proc/no_dump_dir_for_cts"]):
        rc, out, err = run(runner, extra + ["--json=" + js, "--junit=" + ju] + bad)
        expect(rc == 2, "%s: expected exit 2\n%s" % (bad, describe(rc, out, err)))
        for path in (js, ju):
            expect(read_text(path) == "earlier report\n", "%s: %s was touched: %r" % (bad, path, read_text(path)))
    expect(not temp_leftovers(tmp), "temporary files left: %s" % temp_leftovers(tmp))
    if reference_icd(build):
        env = {}
    elif os.path.exists(POCL_ICD):
        env = pocl_env()
        extra = extra + ["--icd=system"]
    else:
        print("skipped (device part): neither the reference device nor %s" % POCL_ICD)
        sys.exit(SKIP)
    selected = list_names(runner, extra, ["api"], env)
    rc, out, err = run(runner, extra + ["--platform=7", "--json=" + js, "--junit=" + ju, "api"], env)
    expect(rc == 1 and "out of range" in err, "platform index out of range\n" + describe(rc, out, err))
    doc = load_json_report(js, "device-selection error")
    expect(doc["cases"] == [] and doc["results"] == {}, "nothing ran: %r" % doc["cases"])
    expect(doc.get("aborted") == "device", "aborted: %r" % doc.get("aborted"))
    expect(doc.get("not_run") == selected, "not_run should list the selected cases: %r" % doc.get("not_run"))
    expect(doc.get("selected") == len(selected), "selected: %r" % doc.get("selected"))
    expect(any("out of range" in e for e in doc["errors"]), "errors should carry the device error: %r" % doc["errors"])
    dom = load_junit_report(ju, "device-selection error")
    expect(len(dom.getElementsByTagName("skipped")) == len(selected), "JUnit: every selected case skipped")
    expect(dom.getElementsByTagName("error"), "JUnit: an error for the run")
    expect(not temp_leftovers(tmp), "temporary files left: %s" % temp_leftovers(tmp))


NAME_RE = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)+$")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "scripts"))
from assets import families  # noqa: E402

TOP = set(families.top_levels())


def list_names(runner, extra, args=(), env=None):
    """The names --list prints, one "NAME  # TIER" line each."""
    rc, out, err = run(runner, extra + ["--list"] + list(args), env)
    expect(rc == 0, "--list\n" + describe(rc, out, err))
    names = []
    for line in out.splitlines():
        words = line.split()
        expect(len(words) == 3 and words[1] == "#" and words[2] in ("core", "device_specific"),
               "--list line %r is not NAME  # TIER" % line)
        names.append(words[0])
    return names


def optional_groups(build):
    """compiled.* is absent by design when the configure step found no clang-15 or llvm-spirv-15."""
    try:
        with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as f:
            cache = f.read()
    except OSError:
        return set()
    missing = re.search(r"^CTS_(CLANG_15|LLVM_SPIRV_15):FILEPATH=.*-NOTFOUND$", cache, re.M)
    return {"compiled"} if missing else set()


def check_list_and_shards(runner, build, tmp):
    extra = assets_args(build, tmp)
    names = list_names(runner, extra)
    expect(names, "--list printed nothing")
    expect(len(set(names)) == len(names), "duplicate case names")
    expect(names == sorted(names), "--list is not sorted")
    for n in names:
        expect(NAME_RE.match(n), "bad case name %r" % n)
        expect(n.split(".")[0] in TOP, "unknown top level in %r" % n)
    # Every family with a descriptor registered itself and has cases (its library was linked whole).
    listed = {n.split(".")[0] for n in names}
    expect(not set(TOP) - listed - optional_groups(build), "families without a case in --list: %s" % ", ".join(sorted(set(TOP) - listed)))
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
    # --tier=core is a strict subset: the device-specific cases (valid SPIR-V beyond the environment's promise)
    # drop out, exactly those the manifest marks.
    core = list_names(runner, extra, ["--tier=core"])
    expect(set(core) < set(names), "--tier=core is not a strict subset of --list")
    manifest_path = os.path.join(build, "assets", "manifest.json")
    if os.path.exists(manifest_path):
        specific = {c["name"] for c in json.load(open(manifest_path))["cases"] if c["tier"] == "device_specific"}
        expect(set(names) - set(core) == specific & set(names), "--tier=core drops exactly the device_specific cases")
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
        # --tag selects the cases carrying any of the tags (still without extended ones unless --extended);
        # --list-tags counts every case, C++ ones included, so the manifest gives a lower bound.
        want_reg = {c["name"] for c in cases if "regression" in c.get("tags", [])}
        # Huge regression cases (the 512 x 512 x 512 GEMMs) are listed only with --huge.
        want_huge = {c["name"] for c in cases if "huge" in c.get("tags", [])}
        if want_reg:
            # C++ cases (api.*) carry tags outside the manifest.
            reg = set(list_names(runner, extra, ["--tag=regression"]))
            expect(want_reg - want_ext - want_huge <= reg and not (reg & want_huge) and
                   all(n.startswith("api.") for n in reg - want_reg),
                   "--tag=regression should list the regression-tagged cases")
            both = set(list_names(runner, extra, ["--tag=regression,quick", "--extended"]))
            expect(both == (want_reg - want_huge) | reg | set(quick), "--tag=a,b selects cases with either tag")
            reg_huge = set(list_names(runner, extra, ["--tag=regression", "--huge"]))
            expect(reg_huge == reg | (want_reg & want_huge - want_ext), "--huge adds the huge regression cases")
        rc, out, err = run(runner, extra + ["--list-tags"])
        expect(rc == 0, "--list-tags\n" + describe(rc, out, err))
        counts = dict((w[0], int(w[1])) for w in (l.split() for l in out.splitlines()) if len(w) == 2)
        for tag in ("quick", "extended", "regression"):
            in_manifest = sum(1 for c in cases if tag in c.get("tags", []))
            expect(counts.get(tag, 0) >= in_manifest and (tag != "extended" or counts[tag] == in_manifest),
                   "--list-tags count of %s\n%s" % (tag, out))
    # A group name is a tag too: --tag=api lists what the pattern api does.
    expect(list_names(runner, extra, ["--tag=api"]) == list_names(runner, extra, ["api"]),
           "--tag=<group> should select the group")
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
    write_manifest(d, text="{ not json")
    js = os.path.join(tmp, "m.json")
    rc, out, err = run(runner, ["--icd=system", "--assets-dir=" + d, "--json=" + js], pocl_env())
    expect(rc == 1 and manifest in out, "corrupt manifest: exit 1 naming the file\n" + describe(rc, out, err))
    doc = json.load(open(js))
    expect(doc["errors"] and manifest in doc["errors"][0], "JSON errors should name the manifest")
    expect(not any(c["status"] == "Fail" for c in doc["cases"]), "a broken manifest is never a Fail")
    write_manifest(d, {"version": MANIFEST_VERSION, "modules": {"x.spv": {"kernels": {"k": []}}}, "cases": [
        {"name": "subgroups.unknown_family_case", "family": "no.such.family", "module": "x.spv",
         "module_hash": "crc32:00000000",
         "kernel": "k", "requires": [], "tier": "core"},
        {"name": "subgroups.bad_token_case", "family": "no.such.family", "requires": [7], "tier": "core"},
        {"name": "subgroups.nasty_message_case", "family": "x<&\"'>\u0001\n\u00e9y", "tier": "core"}]})
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
    # A manifest from before module hashes is refused as a whole, with the way out in the message.
    write_manifest(d, {"version": 1, "cases": [{"name": "subgroups.old_case", "family": "no.such.family"}]})
    rc, out, err = run(runner, ["--icd=system", "--assets-dir=" + d, "--json=" + js], pocl_env())
    expect(rc == 1 and manifest in out and "version 1" in out and "rebuild the assets target" in out,
           "old manifest version: exit 1 naming the file and the fix\n" + describe(rc, out, err))
    doc = json.load(open(js))
    expect(doc["errors"] and "rebuild the assets target" in doc["errors"][0], "JSON errors: %s" % doc["errors"])
    expect(not any(c["name"] == "subgroups.old_case" for c in doc["cases"]), "no case from an old manifest runs")


def refdev_manifest_cases_or_skip(build):
    """The manifest's case entries, for checks that run them on the reference device; exits with SKIP when
    the build has no reference device ICD or no manifest."""
    if not reference_icd(build):
        print("skipped: no reference device ICD in %s/icd" % build)
        sys.exit(SKIP)
    manifest = os.path.join(build, "assets", "manifest.json")
    if not os.path.exists(manifest):
        print("skipped: no %s" % manifest)
        sys.exit(SKIP)
    with open(manifest) as f:
        return json.load(f)["cases"]


def kernel_cases_or_skip(runner, build, tmp):
    """Manifest cases with a module that pass on the clean reference device (at most 3)."""
    with_module = [c["name"] for c in refdev_manifest_cases_or_skip(build) if c.get("module")
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
    # Without --isolate the process dies; the line log shows which case was running, and the reports written
    # by the earlier run stay as they were (no handler can run; the reports are replaced only by a rename).
    earlier = read_text(js)
    ju = os.path.join(tmp, "crash.xml")
    with open(ju, "w") as f:
        f.write("earlier junit\n")
    rc, out, err = run(runner, ["--jobs=1", "--log=" + log, "--json=" + js, "--junit=" + ju] + cases,
                       {"REFDEV_FAULTS": "crash"}, timeout=120)
    expect(rc != 0, "crash without --isolate must not exit 0")
    last = open(log).read().splitlines()[-1]
    expect(last == "start\t" + sorted(cases)[0], "log should end with the crashing case's start line: %r" % last)
    expect(read_text(js) == earlier, "the earlier JSON report was destroyed: %r" % read_text(js)[:200])
    expect(read_text(ju) == "earlier junit\n", "the earlier JUnit report was destroyed: %r" % read_text(ju)[:200])
    expect(not temp_leftovers(tmp), "temporary files left: %s" % temp_leftovers(tmp))


def check_refdev_abort(runner, build, tmp):
    cases = kernel_cases_or_skip(runner, build, tmp)
    js = os.path.join(tmp, "abort.json")
    ju = os.path.join(tmp, "abort.xml")
    rc, out, err = run(runner, ["--jobs=1", "--timeout=3", "--json=" + js, "--junit=" + ju] + cases,
                       {"REFDEV_FAULTS": "hang"}, timeout=120)
    expect(rc == 1 and "aborted" in out, "timeout without --isolate aborts with exit 1\n" + describe(rc, out, err))
    doc = json.load(open(js))
    expect(len(doc["cases"]) == 1 and doc["cases"][0]["status"] == "Timeout", "one Timeout recorded: %s" % doc)
    # The cases after the timeout are not lost: the report says the run was aborted and lists them.
    expect(doc.get("aborted") == "timeout", "aborted: %r" % doc.get("aborted"))
    expect(doc.get("not_run") == sorted(cases)[1:], "not_run: %r" % doc.get("not_run"))
    expect(doc.get("selected") == len(cases), "selected: %r" % doc.get("selected"))
    dom = load_junit_report(ju, "timeout abort")
    not_run = [e for e in dom.getElementsByTagName("skipped") if e.getAttribute("message").startswith("not run")]
    expect(len(not_run) == len(cases) - 1, "JUnit not-run cases: %d" % len(not_run))


def start_hanging_run(runner, tmp, cases, args, tag):
    """Starts the runner on cases that hang (REFDEV_FAULTS=hang) and waits until a kernel hangs; returns the
    Popen, the JSON and JUnit paths and the stdout/stderr file names."""
    js, ju, log = (os.path.join(tmp, tag + ext) for ext in (".json", ".xml", ".log"))
    out, err = os.path.join(tmp, tag + ".out"), os.path.join(tmp, tag + ".err")
    with open(out, "w") as o, open(err, "w") as e:
        p = subprocess.Popen([runner, "--json=" + js, "--junit=" + ju, "--log=" + log] + args + cases,
                             env=clean_env({"REFDEV_FAULTS": "hang"}), stdout=o, stderr=e)
    hung = wait_for(lambda: p.poll() is not None or "fault 'hang'" in read_text(err), 60)
    if p.poll() is not None or not hung:
        p.kill()
        p.wait()
        raise CheckFailed("%s: the run did not reach a hanging kernel\n%s" % (tag, read_text(out) + read_text(err)))
    return p, js, ju, out, err


def check_refdev_interrupt(runner, build, tmp):
    """SIGINT / SIGTERM while a case hangs (no --isolate): the reports say what finished and what did not run."""
    cases = kernel_cases_or_skip(runner, build, tmp)
    for sig in (signal.SIGTERM, signal.SIGINT):
        name = sig.name
        p, js, ju, out, err = start_hanging_run(runner, tmp, cases, [], "int_" + name)
        rc = end_by(p, sig, name)
        expect(rc == -sig, "%s: the runner should end by the signal, got %d\n%s" % (name, rc, read_text(out)))
        doc = check_not_run_report(js, ju, cases, name, name)
        expect(doc["not_run"] == sorted(cases), "%s: nothing finished: %r" % (name, doc["not_run"]))
        expect("interrupted by " + name in read_text(out), "%s: message\n%s" % (name, read_text(out)))
    expect(not temp_leftovers(tmp), "temporary files left: %s" % temp_leftovers(tmp))


def check_refdev_isolate_signals(runner, build, tmp):
    """--isolate: a worker hanging in a kernel dies with the runner (SIGTERM, SIGINT: forwarded; SIGKILL: parent
    death signal), and the reports are written (SIGTERM, SIGINT) or the earlier ones left alone (SIGKILL)."""
    cases = kernel_cases_or_skip(runner, build, tmp)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGKILL):
        name = sig.name
        tag = "iso_" + name
        for ext in (".json", ".xml"):
            with open(os.path.join(tmp, tag + ext), "w") as f:
                f.write("earlier report\n")
        p, js, ju, out, err = start_hanging_run(runner, tmp, cases, ["--isolate"], tag)
        workers = []
        try:
            workers = wait_for(lambda: children(p.pid), 10)
            expect(workers, "%s: no worker process found" % name)
            p.send_signal(sig)
            try:
                rc = p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                raise CheckFailed("%s: the runner did not end within 30 s" % name)
            expect(rc == -sig, "%s: the runner should end by the signal, got %d\n%s" % (name, rc, read_text(out)))
            left = wait_for(lambda: not any(process_alive(w) for w in workers), 10)
            expect(left, "%s: worker process(es) %s still running after the runner ended" % (
                name, [w for w in workers if process_alive(w)]))
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
            for w in workers:  # the workers this check started, should the runner have left them behind
                if process_alive(w):
                    try:
                        os.kill(w, signal.SIGKILL)
                    except OSError:
                        pass
        if sig == signal.SIGKILL:
            for path in (js, ju):
                expect(read_text(path) == "earlier report\n", "SIGKILL: %s was touched: %r" % (path, read_text(path)))
        else:
            check_not_run_report(js, ju, cases, name, name)
    expect(not temp_leftovers(tmp), "temporary files left: %s" % temp_leftovers(tmp))


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


def module_hash(data):
    return "crc32:%08x" % (binascii.crc32(data) & 0xFFFFFFFF)


def check_refdev_corrupt_module(runner, build, tmp):
    """A module changed after the asset build (one flipped bit; truncated to a whole number of words) and a
    manifest case without "kernel" or "module" are InternalErrors naming the problem: never a Fail (or a Pass)
    from the driver building a module that is not the one the suite generated."""
    base = kernel_cases_or_skip(runner, build, tmp)[0]
    manifest = json.load(open(os.path.join(build, "assets", "manifest.json")))
    case = next(c for c in manifest["cases"] if c["name"] == base)
    with open(os.path.join(build, "assets", "modules", case["module"]), "rb") as f:
        good = f.read()
    # Both corruptions hit the last instruction (OpFunctionEnd), so the driver rejects the module: before the
    # hash check this was reported as the device's CL_BUILD_PROGRAM_FAILURE.
    flipped = bytearray(good)
    flipped[-4] ^= 0x01
    modules = {"pristine": good, "flipped": bytes(flipped), "truncated": good[:-4]}
    d = os.path.join(tmp, "corrupt_assets")
    os.makedirs(os.path.join(d, "modules", "e2e"))
    prefix = base.split(".")[0] + ".e2e_module."
    cases = []
    for label, data in modules.items():
        with open(os.path.join(d, "modules", "e2e", label + ".spv"), "wb") as f:
            f.write(data)
        c = dict(case, name=prefix + label, module="e2e/%s.spv" % label)  # keeps the pristine module's hash
        cases.append(c)
    no_kernel = dict(case, name=prefix + "no_kernel", module="e2e/pristine.spv")
    del no_kernel["kernel"]
    no_module = dict(case, name=prefix + "no_module")
    no_module_no_kernel = dict(case, name=prefix + "no_module_no_kernel")
    del no_module_no_kernel["kernel"]
    for c in (no_module, no_module_no_kernel):
        del c["module"]
        c.pop("module_hash", None)
    cases += [no_kernel, no_module, no_module_no_kernel]
    write_manifest(d, {"version": manifest["version"], "cases": cases,
                       "modules": {"e2e/%s.spv" % label: manifest["modules"][case["module"]] for label in modules}})
    js = os.path.join(tmp, "corrupt.json")
    rc, out, err = run(runner, ["--assets-dir=" + d, "--json=" + js, prefix[:-1]])
    expect(os.path.exists(js), "no JSON report\n" + describe(rc, out, err))
    got = {c["name"]: c for c in json.load(open(js))["cases"]}
    expect(sorted(got) == sorted(c["name"] for c in cases), "every case recorded: %s" % sorted(got))
    expect(got[prefix + "pristine"]["status"] == "Pass", "the intact copy passes: %s" % got[prefix + "pristine"])
    for label in ("flipped", "truncated"):
        r = got[prefix + label]
        path = os.path.join(d, "modules", "e2e", label + ".spv")
        expect(r["status"] == "InternalError", "%s module: InternalError, not %s" % (label, r))
        expect(path in r["message"], "%s: the message names %s: %r" % (label, path, r["message"]))
        if "module_hash" in case:
            want, have = case["module_hash"], module_hash(modules[label])
            expect(want in r["message"] and have in r["message"],
                   "%s: the message gives both hashes (%s, %s): %r" % (label, want, have, r["message"]))
    for label, field in (("no_kernel", "kernel"), ("no_module", "module"), ("no_module_no_kernel", "module")):
        r = got[prefix + label]
        expect(r["status"] == "InternalError", "%s: InternalError, not %s" % (label, r))
        expect('"%s"' % field in r["message"] and "9223372036854775807" not in r["message"],
               "%s: a clear message naming the missing \"%s\": %r" % (label, field, r["message"]))
    expect(rc == 1, "internal errors exit 1\n" + describe(rc, out, err))


def check_refdev_kernel_contract(runner, build, tmp):
    """A module table whose argument list disagrees with the module (an argument renamed, retyped or dropped)
    is an InternalError naming the module; a case whose parameters do not fit its family's schema (wrong type,
    missing, unknown) is an InternalError naming the case and the parameter. Never a Fail or a Pass; the same
    with --isolate, whose workers load only their cases' entries and modules."""
    base = kernel_cases_or_skip(runner, build, tmp)[0]
    manifest = json.load(open(os.path.join(build, "assets", "manifest.json")))
    case = next(c for c in manifest["cases"] if c["name"] == base)
    table = manifest["modules"][case["module"]]
    args = table["kernels"][case["kernel"]]
    d = os.path.join(tmp, "contract_assets")
    os.makedirs(os.path.join(d, "modules", "e2e"))
    with open(os.path.join(build, "assets", "modules", case["module"]), "rb") as f:
        good = f.read()
    prefix = base.split(".")[0] + ".e2e_contract."
    variants = {"pristine": args, "renamed": [[args[0][0] + "_renamed", args[0][1]]] + args[1:],
                "retyped": args[:-1] + [[args[-1][0], "double"]], "dropped": args[:-1]}
    modules, cases = {}, []
    for label, kernel_args in variants.items():
        module = "e2e/%s.spv" % label
        with open(os.path.join(d, "modules", module), "wb") as f:
            f.write(good)
        modules[module] = {"kernels": dict(table["kernels"], **{case["kernel"]: kernel_args})}
        cases.append(dict(case, name=prefix + label, module=module))
    key = sorted(case["params"])[0]
    value = case["params"][key]
    retyped = "text" if not isinstance(value, str) else 7
    cases.append(dict(case, name=prefix + "param_retyped", module="e2e/pristine.spv",
                      params=dict(case["params"], **{key: retyped})))
    cases.append(dict(case, name=prefix + "param_missing", module="e2e/pristine.spv",
                      params={k: v for k, v in case["params"].items() if k != key}))
    cases.append(dict(case, name=prefix + "param_unknown", module="e2e/pristine.spv",
                      params=dict(case["params"], not_a_param=1)))
    write_manifest(d, {"version": manifest["version"], "modules": modules, "cases": cases})
    for isolate in ([], ["--isolate"]):
        js = os.path.join(tmp, "contract.json")
        rc, out, err = run(runner, ["--assets-dir=" + d, "--json=" + js, prefix[:-1]] + isolate)
        expect(os.path.exists(js), "no JSON report\n" + describe(rc, out, err))
        got = {c["name"]: c for c in json.load(open(js))["cases"]}
        expect(sorted(got) == sorted(c["name"] for c in cases), "every case recorded: %s" % sorted(got))
        expect(got[prefix + "pristine"]["status"] == "Pass", "the intact contract passes: %s" % got[prefix + "pristine"])
        for label in ("renamed", "retyped", "dropped"):
            r = got[prefix + label]
            expect(r["status"] == "InternalError", "%s argument list: InternalError, not %s" % (label, r))
            expect("module e2e/%s.spv disagrees with the manifest" % label in r["message"],
                   "%s: the message names the module: %r" % (label, r["message"]))
        for label, words in (("param_retyped", ["parameter '%s'" % key, "the family reads"]),
                             ("param_missing", ["parameter '%s'" % key, "is missing"]),
                             ("param_unknown", ["unknown parameter 'not_a_param'"])):
            r = got[prefix + label]
            expect(r["status"] == "InternalError", "%s: InternalError, not %s" % (label, r))
            for w in words + [prefix + label]:
                expect(w in r["message"], "%s: the message says %r: %r" % (label, w, r["message"]))
        expect(rc == 1, "internal errors exit 1\n" + describe(rc, out, err))


WAIVER_FAULT = "shuffle_up_off_by_one"
WAIVER_SUBSET = "subgroups.shuffle_up.i32.v1.sg16.*.wg_one.*"
TRACKER = "https://tracker.example/refdev/1"


def waiver_fault_run_or_skip(runner, build, tmp, args):
    """The subset with the planted fault: exit 1, and the names of the selected and of the failing cases."""
    if not reference_icd(build):
        print("skipped: no reference device ICD in %s/icd" % build)
        sys.exit(SKIP)
    js = os.path.join(tmp, "fault.json")
    rc, out, err = run(runner, [WAIVER_SUBSET, "--json=" + js] + args, {"REFDEV_FAULTS": WAIVER_FAULT})
    if "unknown fault" in err or (rc == 2 and "matches no case" in err):
        print("skipped: no fault %s or no case %s\n%s" % (WAIVER_FAULT, WAIVER_SUBSET, describe(rc, out, err)))
        sys.exit(SKIP)
    expect(rc == 1, "planted fault: exit 1\n" + describe(rc, out, err))
    doc = load_json_report(js, "fault run")
    names = [c["name"] for c in doc["cases"]]
    failed = [c["name"] for c in doc["cases"] if c["status"] == "Fail"]
    expect(failed and len(failed) < len(names), "the fault should fail some but not all cases: %s" % doc["cases"])
    return js, names, failed


def covering_patterns(names, failed):
    """Patterns that select exactly the failing cases: a failing case's siblings as NAME_PREFIX.* when they all
    failed, else the name itself."""
    out = []
    for name in failed:
        prefix = name.rsplit(".", 1)[0]
        siblings = [n for n in names if n.startswith(prefix + ".")]
        pattern = prefix + ".*" if all(n in failed for n in siblings) else name
        if pattern not in out:
            out.append(pattern)
    return out


def write_waivers(path, entries):
    with open(path, "w") as f:
        f.write('{\n  "waivers": [\n')
        f.write(",\n".join("    " + json.dumps(e) for e in entries))
        f.write("\n  ]\n}\n")


def check_refdev_waiver_skip(runner, build, tmp):
    """A "skip" entry: its cases are Waived without running (console, log, JSON original_status NotRun, JUnit,
    summary) in process, with --isolate and with --jobs=2, and the other cases run: the planted fault that fails
    exactly the skipped cases leaves the run green only when they did not run. --run-skipped runs them: with the
    fault they are waived Fails, without it the entry is stale (--fail-on-stale-waivers: exit 1, naming each case). A skip entry that covers no selected
    case is stale as any entry."""
    _, names, failed = waiver_fault_run_or_skip(runner, build, tmp, [])
    skips = os.path.join(tmp, "skips.json")
    write_waivers(skips, [{"cases": failed, "device": "*", "tracker": TRACKER, "reason": "known crash",
                           "skip": True}])
    for mode in ([], ["--isolate"], ["--jobs=2"]):
        js, xml_path, log = (os.path.join(tmp, "skip" + x) for x in (".json", ".xml", ".log"))
        rc, out, err = run(runner, [WAIVER_SUBSET, "--waiver-file=" + skips, "--json=" + js, "--junit=" + xml_path,
                                    "--log=" + log, "--fail-on-stale-waivers"] + mode, {"REFDEV_FAULTS": WAIVER_FAULT})
        expect(rc == 0, "%s: skipped cases Waived, the others pass\n%s" % (mode, describe(rc, out, err)))
        for name in failed:
            expect("[ WAIVED ] " + name + " (0 ms)" in out, "%s: console line for %s\n%s" % (mode, name, out))
        expect("waived: %s (NotRun): known crash" % TRACKER in out, "%s: console\n%s" % (mode, out))
        expect("not run: waiver %s:3 skips it" % skips in out, "%s: console message\n%s" % (mode, out))
        expect("%d waived (%d not run: a waiver skips them)" % (len(failed), len(failed)) in out,
               "%s: summary\n%s" % (mode, out))
        doc = load_json_report(js, "skip run")
        by_name = {c["name"]: c for c in doc["cases"]}
        expect([c["name"] for c in doc["cases"]] == names, "%s: JSON lists every case in selection order" % mode)
        for name in names:
            c = by_name[name]
            if name in failed:
                expect(c["status"] == "Waived" and c["original_status"] == "NotRun" and c["duration_ms"] == 0,
                       "%s: JSON %s" % (mode, c))
            else:
                expect(c["status"] == "Pass", "%s: JSON %s" % (mode, c))
        lines = open(log).read().splitlines()
        for name in failed:
            expect(any(l.startswith("Waived\t%s\t" % name) and "not run: waiver" in l for l in lines),
                   "%s: log line for %s" % (mode, name))
        ju = load_junit_report(xml_path, "skip run")
        skipped = {tc.getAttribute("name"): tc.getElementsByTagName("skipped")[0].getAttribute("message")
                   for tc in ju.getElementsByTagName("testcase") if tc.getElementsByTagName("skipped")}
        expect(sorted(skipped) == sorted(failed) and
               all(m.startswith("waived: %s (NotRun): not run" % TRACKER) for m in skipped.values()),
               "%s: JUnit %s" % (mode, skipped))
    # The periodic run: --run-skipped runs them; with the fault they fail and stay waived, without it the
    # entry is stale.
    rc, out, err = run(runner, [WAIVER_SUBSET, "--waiver-file=" + skips, "--run-skipped", "--fail-on-stale-waivers",
                                "--jobs=2"], {"REFDEV_FAULTS": WAIVER_FAULT})
    expect(rc == 0 and "waived: %s (Fail): known crash" % TRACKER in out and "NotRun" not in out,
           "--run-skipped with the fault: the cases run and are waived\n" + describe(rc, out, err))
    js = os.path.join(tmp, "periodic.json")
    rc, out, err = run(runner, [WAIVER_SUBSET, "--waiver-file=" + skips, "--run-skipped", "--fail-on-stale-waivers",
                                "--json=" + js])
    stale = ["waiver no longer needed: %s (%s)" % (name, TRACKER) for name in failed]
    expect(rc == 1 and all(l in out.splitlines() for l in stale),
           "--run-skipped without the fault: a stale skip, exit 1\n" + describe(rc, out, err))
    expect(load_json_report(js, "periodic run")["waivers"]["stale"] == stale, "JSON stale list")
    # Without --run-skipped the same stale skip goes unnoticed (the cases do not run): that is why the
    # periodic run exists.
    rc, out, err = run(runner, [WAIVER_SUBSET, "--waiver-file=" + skips, "--fail-on-stale-waivers"])
    expect(rc == 0 and "no longer needed" not in out, "gating run: skipped, not stale\n" + describe(rc, out, err))
    rc, out, err = run(runner, ["subgroups.shuffle_down.i32.v1.sg16.*", "--waiver-file=" + skips,
                                "--fail-on-stale-waivers"])
    expect(rc == 1 and "waiver matches no selected case: %s:3" % skips in out,
           "a skip entry covering nothing is stale\n" + describe(rc, out, err))


def check_refdev_waivers(runner, build, tmp):
    """A planted fault fails cases (exit 1); a waiver file covering exactly them makes them Waived in the console,
    JSON and JUnit (exit 0); without the fault the waiver is stale (exit 0, or 1 with --fail-on-stale-waivers);
    an entry for another device is neither applied nor stale; an entry matching no selected case is stale."""
    _, names, failed = waiver_fault_run_or_skip(runner, build, tmp, [])
    patterns = covering_patterns(names, failed)
    expect(any("*" in p for p in patterns), "the waiver should use patterns: %s" % patterns)
    waivers = os.path.join(tmp, "waivers.json")
    write_waivers(waivers, [
        {"cases": patterns, "device": {"platform": "*", "driver_version": {"min": "0.0"}},
         "tracker": TRACKER, "reason": "planted " + WAIVER_FAULT},
        {"cases": ["subgroups"], "device": {"name": "No Such GPU*"}, "tracker": "https://other.example/2",
         "reason": "another device's bug: neither applied nor stale here"}])
    js, xml_path = os.path.join(tmp, "waived.json"), os.path.join(tmp, "waived.xml")
    rc, out, err = run(runner, [WAIVER_SUBSET, "--waiver-file=" + waivers, "--json=" + js, "--junit=" + xml_path],
                       {"REFDEV_FAULTS": WAIVER_FAULT})
    expect(rc == 0, "fault + waiver: exit 0\n" + describe(rc, out, err))
    for name in failed:
        expect("[ WAIVED ] " + name + " " in out, "console line for %s\n%s" % (name, out))
    expect("waived: %s (Fail): planted" % TRACKER in out, "console names the tracker\n" + out)
    expect(re.search(r"\b%d waived\b" % len(failed), out), "summary counts the waived cases\n" + out)
    expect("no longer needed" not in out and "matches no selected case" not in out, "nothing stale\n" + out)
    doc = load_json_report(js, "waived run")
    by_name = {c["name"]: c for c in doc["cases"]}
    for name in names:
        c = by_name[name]
        if name in failed:
            expect(c["status"] == "Waived" and c["original_status"] == "Fail" and c["message"] and
                   c["waiver"] == {"tracker": TRACKER, "reason": "planted " + WAIVER_FAULT}, "JSON: %s" % c)
        else:
            expect(c["status"] == "Pass" and "waiver" not in c, "JSON: %s" % c)
    with open(waivers, "rb") as f:
        waivers_sha256 = hashlib.sha256(f.read()).hexdigest()
    expect(doc["waivers"] == {"files": [waivers], "sha256": [waivers_sha256], "stale": []},
           "JSON waivers (the file and the SHA-256 of what was read): %s" % doc.get("waivers"))
    ju = load_junit_report(xml_path, "waived run")
    skipped = {tc.getAttribute("name"): tc.getElementsByTagName("skipped")[0].getAttribute("message")
               for tc in ju.getElementsByTagName("testcase") if tc.getElementsByTagName("skipped")}
    expect(sorted(skipped) == sorted(failed), "JUnit skipped: %s" % sorted(skipped))
    expect(all(m.startswith("waived: %s (Fail): " % TRACKER) for m in skipped.values()), "JUnit: %s" % skipped)
    expect(not ju.getElementsByTagName("failure"), "JUnit has no failure")
    # Without the fault every waived case passes: the waiver is stale.
    js = os.path.join(tmp, "stale.json")
    rc, out, err = run(runner, [WAIVER_SUBSET, "--waiver-file=" + waivers, "--json=" + js])
    expect(rc == 0, "stale waiver: exit 0\n" + describe(rc, out, err))
    stale = ["waiver no longer needed: %s (%s)" % (name, TRACKER) for name in failed]
    for line in stale:
        expect(line in out.splitlines(), "console: %r\n%s" % (line, out))
    expect(load_json_report(js, "stale run")["waivers"]["stale"] == stale, "JSON stale list")
    expect("other.example" not in out, "the other device's entry is not stale here\n" + out)
    rc, out, err = run(runner, [WAIVER_SUBSET, "--waiver-file=" + waivers, "--fail-on-stale-waivers"])
    expect(rc == 1 and "--fail-on-stale-waivers" in out, "--fail-on-stale-waivers: exit 1\n" + describe(rc, out, err))
    # An entry that matches no selected case is stale too; with the fault its case is still waived.
    unused = os.path.join(tmp, "unused.json")
    write_waivers(unused, [{"cases": [failed[0]], "device": "*", "tracker": TRACKER, "reason": "r"},
                           {"cases": ["subgroups.shuffle_down"], "device": "*", "tracker": "https://tracker.example/9",
                            "reason": "r"}])
    rc, out, err = run(runner, [failed[0], "--waiver-file=" + unused], {"REFDEV_FAULTS": WAIVER_FAULT})
    expect(rc == 0 and "[ WAIVED ] " + failed[0] in out, "waived single case\n" + describe(rc, out, err))
    line = "waiver matches no selected case: %s:4 (https://tracker.example/9)" % unused
    expect(line in out.splitlines(), "unmatched entry: %r\n%s" % (line, out))
    rc, out, err = run(runner, [failed[0], "--waiver-file=" + unused, "--fail-on-stale-waivers"],
                       {"REFDEV_FAULTS": WAIVER_FAULT})
    expect(rc == 1, "unmatched entry with --fail-on-stale-waivers: exit 1\n" + describe(rc, out, err))
    # An InternalError is the harness's fault: never waived. Crash (--isolate) is waived like Fail.
    rc, out, err = run(runner, [failed[0], "--waiver-file=" + unused, "--isolate"], {"REFDEV_FAULTS": "crash"})
    expect(rc == 0 and "waived: %s (Crash)" % TRACKER in out, "waived crash\n" + describe(rc, out, err))
    # own_process: with --isolate --jobs=1 each covered case runs in a worker of its own (the log names every
    # worker; --jobs=N logs only the own_process workers, jobs_e2e.py);
    # intermittent: a covered case that passes is not stale.
    own = os.path.join(tmp, "own.json")
    write_waivers(own, [{"cases": [failed[0]], "device": "*", "tracker": TRACKER, "reason": "r", "own_process": True,
                         "intermittent": True}])
    log = os.path.join(tmp, "own.log")
    rc, out, err = run(runner, [WAIVER_SUBSET, "--waiver-file=" + own, "--isolate", "--jobs=1", "--fail-on-stale-waivers",
                                "--log=" + log])
    expect(rc == 0 and "no longer needed" not in out, "intermittent waiver, case passes: not stale\n" +
           describe(rc, out, err))
    workers = [l for l in open(log).read().splitlines() if l.startswith("note\tworker ")]
    alone = [l for l in workers if l.endswith("1 case(s) (a waiver's own_process)")]
    position = sorted(names).index(failed[0])
    expect(len(alone) == 1, "one worker of its own for the covered case: %s" % workers)
    expect(len(workers) == 1 + (position > 0) + (position < len(names) - 1),
           "workers before, for and after the covered case: %s" % workers)


def check_refdev_waiver_timeout(runner, build, tmp):
    """A waiver's "timeout_seconds": under REFDEV_FAULTS=hang every kernel hangs; with --isolate --timeout=60 the
    covered cases are given up on after the waiver's 2 s, not the run's 60 s, recorded Waived (original status
    Timeout) with a message naming the waiver's limit and entry, under --jobs=1 (the supervisor) and --jobs=2
    (the coordinator: own_process makes each case a batch of its own, so the run is a parallel one)."""
    cases = kernel_cases_or_skip(runner, build, tmp)
    for jobs, own_process in (("--jobs=1", False), ("--jobs=2", True)):
        waivers = os.path.join(tmp, "timeout%s.json" % jobs[-1])
        entry = {"cases": cases, "device": "*", "tracker": TRACKER, "reason": "hangs", "timeout_seconds": 2}
        if own_process:
            entry["own_process"] = True
        write_waivers(waivers, [entry])
        js = os.path.join(tmp, "timeout%s_report.json" % jobs[-1])
        start = time.monotonic()
        rc, out, err = run(runner, ["--isolate", jobs, "--timeout=60", "--waiver-file=" + waivers, "--json=" + js]
                           + cases, {"REFDEV_FAULTS": "hang"}, timeout=300)
        elapsed = time.monotonic() - start
        what = "%s, %d case(s) in %.1f s\n%s" % (jobs, len(cases), elapsed, describe(rc, out, err))
        expect(rc == 0, "waived timeouts: exit 0: " + what)
        # Each case ~2 s (plus a worker's start): far below one case's --timeout of 60 s.
        expect(elapsed < 30, "given up on at the waiver's limit, not the --timeout of 60 s: " + what)
        doc = load_json_report(js, "waiver timeout_seconds run")
        expect(sorted(c["name"] for c in doc["cases"]) == sorted(cases), "every case recorded: " + what)
        message = "no result within the waiver's timeout_seconds of 2 s (%s:3); worker process killed" % waivers
        for c in doc["cases"]:
            expect(c["status"] == "Waived" and c.get("original_status") == "Timeout",
                   "Waived, original status Timeout: %s\n%s" % (c, what))
            expect(c.get("message") == message, "message %r, expected %r" % (c.get("message"), message))
            expect(c.get("duration_ms", 0) < 10000, "the case's duration: %s" % c)


def check_waiver_file_errors(runner, build, tmp):
    """A malformed or unreadable waiver file is a usage error naming the file and the line; nothing runs."""
    extra = assets_args(build, tmp)
    good = '    {"cases": ["a"], "device": {"name": "x"}, "tracker": "t", "reason": "r"},\n'
    bad = [
        # A repeated key keeps its last value only: this file waived nothing.
        ('{\n  "waivers": [\n' + good + '    {"cases": ["a"], "device": {"name": "x"}, "tracker": "t", "reason": "r"}\n'
         '  ],\n  "waivers": []\n}\n', ":6:", 'key "waivers" appears twice'),
        # The reason goes to the console and the log as it is.
        ('{\n  "waivers": [\n' + good + '    {"cases": ["a"], "device": {"name": "x"}, "tracker": "t", '
         '"reason": "r\\n[  PASS  ] x"}\n  ]\n}\n', ":4:", '"reason" holds a control character (a newline)'),
        ('{\n  "waivers": [\n' + good + '    {"cases": ["a"], "device": {"name": "x"}, "tracker": "t", '
         '"reason": "\\u001b[1A"}\n  ]\n}\n', ":4:", '"reason" holds a control character (ESC)'),
        # An entry without a device waived its cases on every driver, silently.
        ('{\n  "waivers": [\n' + good + '    {"cases": ["*"], "tracker": "t", "reason": "r"}\n  ]\n}\n', ":4:",
         'lacks "device"'),
        ('{\n  "waivers": [\n' + good + '    {"cases": ["a"] "tracker": "t"}\n  ]\n}\n', ":4:", "not valid JSON"),
        ('{\n  "waivers": [\n' + good + '    {"cases": ["a"], "tracker": "t", "reason": "r", "owner": "me"}\n  ]\n}\n',
         ":4:", 'unknown key "owner"'),
        ('{\n  "waivers": [\n' + good + good + '    {"cases": ["a"], "reason": "r"}\n  ]\n}\n', ":5:",
         'lacks "tracker"'),
        ('{\n  "waivers": [\n' + good + '    {"cases": ["Sub groups.*"], "tracker": "t", "reason": "r"}\n  ]\n}\n',
         ":4:", "bad case pattern"),
        ('{\n  "waivers": [\n\n' + '    {"cases": ["a"], "tracker": "t", "reason": "r",\n'
         '     "device": {"driver_version": {"max": "1.2.x"}}}\n  ]\n}\n', ":4:", "dotted version"),
    ]
    for i, (text, line, words) in enumerate(bad):
        path = os.path.join(tmp, "bad%d.json" % i)
        with open(path, "w") as f:
            f.write(text)
        usage_error(runner, extra + ["--list", "--waiver-file=" + path], ["--waiver-file", path + line, words])
    usage_error(runner, extra + ["--list", "--waiver-file=" + os.path.join(tmp, "missing.json")],
                ["cannot read", "missing.json"])
    usage_error(runner, extra + ["--list", "--waiver-file=" + tmp], ["is a directory"])
    # /dev/zero used to be read until memory ran out (exit 1, std::bad_alloc); a FIFO blocks.
    usage_error(runner, extra + ["--list", "--waiver-file=/dev/zero"], ["/dev/zero: not a regular file"])
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    usage_error(runner, extra + ["--list", "--waiver-file=" + fifo], [fifo, "not a regular file (a FIFO)"])
    # "device": "*" is allowed, with a warning naming the file and the entry on the console and in the log.
    every = os.path.join(tmp, "every.json")
    with open(every, "w") as f:
        f.write('{\n  "waivers": [\n    {"cases": ["api"], "device": "*", "tracker": "T-1", "reason": "r"}\n  ]\n}\n')
    log = os.path.join(tmp, "every.log")
    rc, out, err = run(runner, extra + ["api", "--waiver-file=" + every, "--log=" + log])
    warning = "warning: waiver %s:3 (T-1) applies to every device" % every
    expect(rc == 0 and warning in out, "every-device warning on the console\n" + describe(rc, out, err))
    expect(warning in read_text(log), "every-device warning in the log:\n" + read_text(log))
    # The documented example stays a valid waiver file.
    example = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "waivers.example.json")
    rc, out, err = run(runner, extra + ["--list", "--waiver-file=" + example])
    expect(rc == 0, "docs/waivers.example.json should parse\n" + describe(rc, out, err))


def check_refdev_rerun_failed(runner, build, tmp):
    """--rerun-failed=REPORT runs exactly the cases REPORT did not pass (and those it did not run), with its seed;
    a report that is not a runner report, has nothing to rerun or names cases that no longer exist is a usage
    error."""
    js, names, failed = waiver_fault_run_or_skip(runner, build, tmp, ["--seed=9"])
    again = os.path.join(tmp, "again.json")
    rc, out, err = run(runner, ["--rerun-failed=" + js, "--json=" + again, "--platform=0"],
                       {"REFDEV_FAULTS": WAIVER_FAULT})
    expect(rc == 1, "rerun with the fault: exit 1\n" + describe(rc, out, err))
    doc = load_json_report(again, "rerun")
    expect(sorted(c["name"] for c in doc["cases"]) == sorted(failed), "reran exactly the failures: %s" % doc["cases"])
    expect(all(c["status"] == "Fail" for c in doc["cases"]) and doc["seed"] == 9, "same outcome and seed")
    # Not-run cases are rerun too; without the fault everything passes.
    earlier = load_json_report(js, "fault run")
    passed = [n for n in names if n not in failed]
    earlier["not_run"] = [passed[0]]
    with_not_run = os.path.join(tmp, "with_not_run.json")
    with open(with_not_run, "w") as f:
        json.dump(earlier, f)
    rc, out, err = run(runner, ["--rerun-failed=" + with_not_run, "--json=" + again])
    expect(rc == 0, "rerun without the fault: exit 0\n" + describe(rc, out, err))
    expect(sorted(c["name"] for c in load_json_report(again, "rerun")["cases"]) == sorted(failed + [passed[0]]),
           "the not-run case is rerun too")
    # Usage errors.
    usage_error(runner, ["--rerun-failed=" + js, WAIVER_SUBSET], ["--rerun-failed selects the cases itself"])
    clean = os.path.join(tmp, "clean.json")
    rc, out, err = run(runner, [passed[0], "--json=" + clean])
    usage_error(runner, ["--rerun-failed=" + clean], ["nothing to rerun", clean])
    not_report = os.path.join(tmp, "not_report.json")
    with open(not_report, "w") as f:
        json.dump({"waivers": []}, f)
    usage_error(runner, ["--rerun-failed=" + not_report], ["not a spirv_intel_cts --json report"])
    gone = dict(earlier, not_run=["subgroups.no_such_case.a", "subgroups.no_such_case.b"])
    gone_path = os.path.join(tmp, "gone.json")
    with open(gone_path, "w") as f:
        json.dump(gone, f)
    usage_error(runner, ["--rerun-failed=" + gone_path],
                ["2 case(s)", "no longer exist", "subgroups.no_such_case.a, subgroups.no_such_case.b"])


def refdev_icd_or_skip(build):
    """The reference device's own .icd file and the library it names."""
    icd = os.path.join(build, "icd", "refdev.icd")
    if not os.path.isfile(icd):
        print("skipped: no %s" % icd)
        sys.exit(SKIP)
    with open(icd) as f:
        return os.path.realpath(icd), f.readline().strip()


def empty_vendors(tmp):
    """OCL_ICD_VENDORS naming a directory without drivers: a run that used it would find no platform."""
    d = os.path.join(tmp, "no_vendors")
    os.makedirs(d, exist_ok=True)
    return {"OCL_ICD_VENDORS": d}


def junit_properties(path, what):
    dom = load_junit_report(path, what)
    return {p.getAttribute("name"): p.getAttribute("value") for p in dom.getElementsByTagName("property")}


def check_icd_file(runner, build, tmp):
    """--icd=FILE.icd runs on exactly the library the file names, whatever OCL_ICD_VENDORS says; the header and
    reports name it; the printed rerun command carries the same --icd and reproduces a failure."""
    icd, library = refdev_icd_or_skip(build)
    kernel_cases_or_skip(runner, build, tmp)
    env = empty_vendors(tmp)
    rc, out, err = run(runner, ["api"], env)
    expect(rc == 1 and "no OpenCL platform" in err, "the empty vendors directory alone\n" + describe(rc, out, err))
    fault = "shuffle_down_ignores_next"
    js, ju = os.path.join(tmp, "icd.json"), os.path.join(tmp, "icd.xml")
    env_fault = dict(env, REFDEV_FAULTS=fault)
    rc, out, err = run(runner, ["--icd=" + os.path.relpath(icd), "--seed=5", "--json=" + js, "--junit=" + ju,
                                "subgroups.shuffle_down"], env_fault)
    expect(rc == 1, "planted fault through --icd: exit 1\n" + describe(rc, out, err))
    for line in ("ICD:       --icd=%s: %s" % (icd, library), "Library:   " + library, "Runtime:   unknown ("):
        expect(line in out, "header should hold %r\n%s" % (line, out[:3000]))
    doc = load_json_report(js, "--icd run")
    expect(doc["platform"].startswith("RefDev"), "platform: %r" % doc["platform"])
    expect(doc.get("runtime_package") == "", "the reference device reports no runtime package: %r"
           % doc.get("runtime_package"))
    expect(doc.get("icd_vendors") == library, "icd_vendors should be the library: %r" % doc.get("icd_vendors"))
    expect("--icd=" in doc["cmd"] and "OCL_ICD_VENDORS" not in doc["cmd"], "cmd: %r" % doc["cmd"])
    props = junit_properties(ju, "--icd run")
    expect(props.get("runtime_package") == "" and props.get("platform") == doc["platform"],
           "JUnit properties: %r" % props)
    failed = [c for c in doc["cases"] if c["status"] == "Fail"]
    expect(failed, "the planted fault should fail some case")
    reruns = [l for l in re.findall(r"^    rerun: (.*)$", out, re.M) if l.endswith(" " + failed[0]["name"])]
    expect(reruns and "--icd=" + icd in reruns[0] and "OCL_ICD_VENDORS" not in reruns[0], "rerun line: %s" % reruns)
    js2 = os.path.join(tmp, "icd_rerun.json")
    p = subprocess.run(reruns[0] + " --json=" + js2, shell=True, env=clean_env(env), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True, cwd=tmp)
    again = load_json_report(js2, "rerun")["cases"]
    expect(p.returncode == 1 and len(again) == 1 and again[0]["status"] == "Fail" and
           again[0]["seed"] == failed[0]["seed"], "the rerun line reproduces the failure: %s\n%s" % (again, p.stderr))


def check_icd_file_isolate(runner, build, tmp):
    """--isolate --icd=FILE: the workers run on the same driver (OCL_ICD_VENDORS of the environment ignored)."""
    icd, library = refdev_icd_or_skip(build)
    cases = kernel_cases_or_skip(runner, build, tmp)
    js = os.path.join(tmp, "iso.json")
    rc, out, err = run(runner, ["--isolate", "--timeout=60", "--icd=" + icd, "--json=" + js] + cases,
                       empty_vendors(tmp))
    expect(rc == 0, "isolated run through --icd\n" + describe(rc, out, err))
    doc = load_json_report(js, "--isolate --icd")
    expect([c["status"] for c in doc["cases"]] == ["Pass"] * len(cases), "every case passes: %s" % doc["cases"])
    js = os.path.join(tmp, "iso_crash.json")
    rc, out, err = run(runner, ["--isolate", "--icd=" + icd, "--json=" + js] + cases,
                       dict(empty_vendors(tmp), REFDEV_FAULTS="crash"), timeout=120)
    doc = load_json_report(js, "--isolate --icd crash")
    expect(rc == 1 and [c["status"] for c in doc["cases"]] == ["Crash"] * len(cases),
           "the workers load the reference device (its crash fault): %s\n%s" % (doc["cases"], describe(rc, out, err)))
    expect(all("--icd=" + icd in l for l in re.findall(r"^    rerun: (.*)$", out, re.M)), "rerun lines\n" + out)


def check_icd_file_errors(runner, build, tmp):
    """An --icd file that is missing, empty, a directory, or names a library that is not there: exit 2, one
    line, nothing run."""
    missing = os.path.join(tmp, "missing.icd")
    empty = os.path.join(tmp, "empty.icd")
    with open(empty, "w") as f:
        f.write("\n")
    gone = os.path.join(tmp, "gone.icd")
    with open(gone, "w") as f:
        f.write(os.path.join(tmp, "libgone.so") + "\n")
    for list_flag in ([], ["--list"]):
        usage_error(runner, ["--icd=" + missing, "api"] + list_flag, ["--icd=" + missing, "no such file"])
        usage_error(runner, ["--icd=" + empty, "api"] + list_flag, ["--icd=" + empty, "empty"])
        usage_error(runner, ["--icd=" + gone, "api"] + list_flag,
                    ["--icd=" + gone, os.path.join(tmp, "libgone.so"), "does not exist"])
        usage_error(runner, ["--icd=" + tmp, "api"] + list_flag, ["--icd=" + tmp, "directory"])
        # /dev/zero has no first line to end: reading it never ended.
        usage_error(runner, ["--icd=/dev/zero", "api"] + list_flag, ["--icd=/dev/zero", "not a regular file"])
        usage_error(runner, ["--icd=", "api"] + list_flag, ["--icd="])
        usage_error(runner, ["--platform=0", "--platform-name=x", "api"] + list_flag,
                    ["--platform=0", "--platform-name=x"])
        usage_error(runner, ["--platform-name=", "api"] + list_flag, ["--platform-name"])


def check_platform_name(runner, build, tmp):
    """--platform-name picks a platform by a part of its name in any case; no match lists the platforms."""
    icd, _ = refdev_icd_or_skip(build)
    js = os.path.join(tmp, "name.json")
    rc, out, err = run(runner, ["--icd=" + icd, "--json=" + js, "api"])
    expect(rc == 0, "api on the reference device\n" + describe(rc, out, err))
    name = load_json_report(js, "api")["platform"]
    part = name[len(name) // 4:len(name) // 4 + 6].swapcase()
    rc, out, err = run(runner, ["--icd=" + icd, "--platform-name=" + part, "--json=" + js, "api"],
                       {"CL_PLATFORM_INDEX": "5"})
    expect(rc == 0 and "Platform:  " + name in out, "--platform-name=%s\n%s" % (part, describe(rc, out, err)))
    expect(load_json_report(js, "by name")["platform"] == name, "the named platform ran")
    ju = os.path.join(tmp, "name.xml")
    rc, out, err = run(runner, ["--icd=" + icd, "--platform-name=no_such_platform_x", "--json=" + js, "--junit=" + ju,
                                "api"])
    expect(rc == 1 and 'no platform name contains "no_such_platform_x"' in err and name in err,
           "a name no platform has: exit 1 listing the platforms\n" + describe(rc, out, err))
    doc = load_json_report(js, "no such platform")
    expect(doc.get("aborted") == "device" and any("no_such_platform_x" in e for e in doc["errors"]),
           "the reports say no device: %r %r" % (doc.get("aborted"), doc["errors"]))
    expect(junit_properties(ju, "no such platform").get("aborted") == "device", "JUnit aborted")


def check_runtime_package(runner, build, tmp):
    """The runtime package of the driver library: from FILE.package beside an --icd file, else from the RECORD of
    the Python distribution that installed the library (found from the platform, also without --icd)."""
    _, library = refdev_icd_or_skip(build)
    venv = os.path.join(tmp, "venv")
    lib = os.path.join(venv, "lib", "libfake_ocl.so")
    dist = os.path.join(venv, "lib", "python3.11", "site-packages", "fake_ocl_rt-1.2.3.dist-info")
    os.makedirs(dist)
    shutil.copy(library, lib)
    for name, text in (("METADATA", "Metadata-Version: 2.1\nName: fake-ocl-rt\nVersion: 1.2.3\n\n"),
                       ("INSTALLER", "pip\n"), ("RECORD", "../../libfake_ocl.so,sha256=x,1\n")):
        with open(os.path.join(dist, name), "w") as f:
            f.write(text)
    icd_dir = os.path.join(tmp, "icd")
    os.makedirs(icd_dir)
    icd = os.path.join(icd_dir, "fake.icd")
    with open(icd, "w") as f:
        f.write(lib + "\n")
    js, ju = os.path.join(tmp, "rt.json"), os.path.join(tmp, "rt.xml")
    for args, env, want, source in (
            (["--icd=" + icd], {}, "fake-ocl-rt 1.2.3", "(pip, %s)" % venv),
            (["--icd=system"], {"OCL_ICD_VENDORS": icd_dir}, "fake-ocl-rt 1.2.3", "(pip, %s)" % venv),
            (["--icd=" + icd], {}, "intel-opencl-rt 2026.2.0", "(from %s)" % os.path.join(icd_dir, "fake.package"))):
        if want.startswith("intel"):
            with open(os.path.join(icd_dir, "fake.package"), "w") as f:
                f.write(want + "\n")
        rc, out, err = run(runner, args + ["--json=" + js, "--junit=" + ju, "api"], env)
        expect(rc == 0, "%s\n%s" % (args, describe(rc, out, err)))
        expect("Runtime:   %s %s" % (want, source) in out and "Library:   " + lib in out,
               "%s: header\n%s" % (args, out[:2000]))
        expect(load_json_report(js, "runtime")["runtime_package"] == want, "%s: JSON runtime_package" % args)
        expect(junit_properties(ju, "runtime").get("runtime_package") == want, "%s: JUnit property" % args)


def check_icd_system_silent_driver(runner, build, tmp):
    """A registered driver that yields no platform (Intel's GPU driver without a GPU) is named in the header of a
    run on the system's drivers and in the error of a --platform-name that matches nothing."""
    _, library = refdev_icd_or_skip(build)
    vendors = os.path.join(tmp, "vendors")
    os.makedirs(vendors)
    for name, lib in (("refdev.icd", library), ("silent.icd", "libc.so.6")):
        with open(os.path.join(vendors, name), "w") as f:
            f.write(lib + "\n")
    silent = "%s/silent.icd (libc.so.6) loads but reports no platform" % vendors
    rc, out, err = run(runner, ["--icd=system", "api"], {"OCL_ICD_VENDORS": vendors})
    expect(rc == 0 and "no platform from " + silent in out, "header\n" + describe(rc, out, err))
    expect("refdev.icd" not in out.split("ICD:", 1)[1], "a driver with a platform is not listed\n" + out[:2000])
    rc, out, err = run(runner, ["--icd=system", "--platform-name=no_such_platform_y", "api"],
                       {"OCL_ICD_VENDORS": vendors})
    expect(rc == 1 and 'no platform name contains "no_such_platform_y"' in err and silent in err,
           "--platform-name error names the silent driver\n" + describe(rc, out, err))


# A stand-in for ocloc: answers its version queries with 9.9.9 and builds or misbehaves by module name.
# `multi FILE` builds each line of FILE as ocloc does (a section per build, one process for all: a crash or hang
# ends the batch).
FAKE_OCLOC = """#!/bin/sh
echo "$*" >> "%(log)s"
if [ "$1" = query ]; then printf '9.9.9\\000 ' > "$2"; exit 0; fi
build() {
  prev=; for a in "$@"; do [ "$prev" = -out_dir ] && OUT="$a"; [ "$prev" = -file ] && F="$a"; prev="$a"; done
  case "$F" in
    *_sg32.spv) echo 'error: Block reads not supported in SIMD32'; echo "in kernel: 'test'"; return 245;;
    *u32_v2_sg16.spv) kill -SEGV $$;;
    *u32_v4_sg16.spv) sleep 60 & sleep 60;;
    *u32_v8_sg16.spv) echo 'Build succeeded.'; return 0;;
    *) mkdir -p "$OUT"; echo bin > "$OUT/m.bin"; echo 'Build succeeded.';;
  esac
}
if [ "$1" = multi ]; then
  n=0
  while IFS= read -r line; do
    n=$((n+1)); echo "Command number $n: "; eval "set -- $line"; echo "built $F" >> "%(log)s"
    build "$@" || echo "Build failed with error code: -11"
  done < "$2"
  exit 0
fi
build "$@"
"""

FAKE_TARGET = {
    "target": "fake1", "device_name": "Fake GPU", "vendor_id": "0x8086", "sources": ["this test"],
    "sub_group_sizes": [16, 32], "fp16": True, "fp64": True, "images": {"supported": False},
    "il_versions": ["SPIR-V_1.2"],
    "extensions": {"cl_khr_fp16": "1.0.0", "cl_khr_fp64": "1.0.0", "cl_intel_spirv_subgroups": "1.0.0",
                   "cl_intel_subgroups_short": "1.0.0"},
    "compilers": {"1.0.42": {"ocloc_driver_version": "9.9.9", "sources": ["this test"]}},
}


def manifest_or_skip(build):
    if not os.path.exists(os.path.join(build, "assets", "manifest.json")):
        print("skipped: no %s/assets/manifest.json" % build)
        sys.exit(SKIP)


def fake_offline_compiler(tmp):
    log = os.path.join(tmp, "ocloc.calls")
    ocloc = os.path.join(tmp, "ocloc")
    with open(ocloc, "w") as f:
        f.write(FAKE_OCLOC % {"log": log})
    os.chmod(ocloc, 0o755)
    target = os.path.join(tmp, "fake1.json")
    with open(target, "w") as f:
        json.dump(FAKE_TARGET, f)
    return ocloc, target, log


def check_offline_compiler(runner, build, tmp):
    """--offline-compiler builds each module once for the target, loads no OpenCL driver, and records a build,
    a rejection by tier, a crash, a hang and a success without a binary; waivers match the target; the temporary
    directories are removed."""
    manifest_or_skip(build)
    ocloc, target, log = fake_offline_compiler(tmp)
    scratch = os.path.join(tmp, "scratch")
    os.makedirs(scratch)
    js, ju = os.path.join(tmp, "o.json"), os.path.join(tmp, "o.xml")
    args = ["--offline-compiler=" + ocloc, "--target=" + target, "--timeout=3", "--json=" + js, "--junit=" + ju,
            "subgroups.block_read.u32.*.sg16.*", "subgroups.block_read.u32.v1.sg32.*", "subgroups.block_read.u8.*",
            "api"]
    # Were a driver loaded, the reference device would refuse the unknown fault on standard error.
    env = {"OCL_ICD_VENDORS": os.path.join(build, "icd"), "REFDEV_FAULTS": "no_such_fault", "TMPDIR": scratch}
    rc, out, err = run(runner, args, env)
    expect(rc == 1, "failures make exit 1\n" + describe(rc, out, err))
    expect("REFDEV_FAULTS" not in err and "unknown fault" not in err, "no OpenCL driver is loaded\n" + err)
    for line in ("Compiler:  ocloc 9.9.9 (NEO revision 9.9.9), IGC 1.0.42 (%s)" % ocloc, "Platform:  ocloc",
                 "Device:    fake1", "Driver:    1.0.42"):
        expect(line in out, "header line %r\n%s" % (line, out[:2000]))
    doc = load_json_report(js, "offline")
    expect((doc["platform"], doc["device"], doc["driver"]) == ("ocloc", "fake1", "1.0.42"), "identity %r" % doc)
    expect(doc["offline_compiler"]["target_description"] == target, "offline_compiler %r" % doc["offline_compiler"])
    sel = doc.get("selection") or {}
    expect(sel.get("patterns") == args[-4:] and len(sel.get("manifest_sha256", "")) == 64,
           "the offline report records its selection: %r" % sel)
    expect(junit_properties(ju, "offline").get("selection.tier") == "all", "JUnit selection properties")
    by_module = {}
    for c in doc["cases"]:
        m = re.search(r"(u32\.v\d+\.sg\d+|u8\.v\d+\.sg\d+)", c["name"])
        by_module.setdefault(m.group(1) if m else c["name"], set()).add((c["status"], c.get("phase", "")))
    want = {"u32.v1.sg16": {("Pass", "")}, "u32.v1.sg32": {("Fail", "build")}, "u32.v2.sg16": {("Crash", "")},
            "u32.v4.sg16": {("Timeout", "")}, "u32.v8.sg16": {("Crash", "")}}
    for key, statuses in want.items():
        expect(by_module.get(key) == statuses, "%s: %r, want %r" % (key, by_module.get(key), statuses))
    u8 = {s for k, v in by_module.items() if k.startswith("u8.") for s, _ in v}
    expect(u8 == {"NotSupported"}, "8-bit block IO needs cl_intel_subgroups_char, which fake1 lacks: %r" % u8)
    api = [c for c in doc["cases"] if c["name"].startswith("api.")]
    expect(api and all(c["status"] == "NotSupported" for c in api), "api cases compile nothing: %r" % api[:1])
    expect(any(c["message"] == "runs no module: nothing to compile" for c in api), "api %r" % api[:1])
    fail = [c for c in doc["cases"] if c["status"] == "Fail"][0]
    expect("Block reads not supported in SIMD32" in fail["message"] and "in kernel: 'test'" in fail["build_log"],
           "the first error line and the whole log: %r" % fail)
    compiles = [l for l in read_text(log).splitlines() if l.startswith("compile")]
    modules = [l.split(" -file ")[1].split()[0] for l in compiles]
    expect(len(modules) == len(set(modules)) == 5, "one compile per module: %r" % modules)
    expect(os.listdir(scratch) == [], "temporary directories left: %r" % os.listdir(scratch))

    # With one job the five modules go in batches (`ocloc multi`): the same verdicts, messages and logs; a
    # module is compiled on its own only when its batch did not show it built (rejected, crashed, hung, no
    # binary), so the module that builds is compiled once, in a batch.
    os.remove(log)
    js1 = os.path.join(tmp, "o1.json")
    rc1, out1, err1 = run(runner, [a if a != "--json=" + js else "--json=" + js1 for a in args] + ["--jobs=1"], env)
    expect(rc1 == 1, "batched run\n" + describe(rc1, out1, err1))

    def verdicts(path):  # the compiles' temporary directories named apart
        same = lambda text: re.sub(r"spirv_intel_cts_ocloc\.\w+", "TMP", text or "")
        return {c["name"]: (c["status"], same(c.get("message")), same(c.get("build_log")), c.get("phase"))
                for c in load_json_report(path, "offline")["cases"]}
    once, batched = verdicts(js), verdicts(js1)
    differ = [n for n in once if once[n] != batched.get(n)]
    expect(not differ and len(batched) == len(once),
           "batched verdicts differ: %r" % [(n, once[n], batched.get(n)) for n in differ[:3]])
    calls = read_text(log).splitlines()
    alone = sorted(l.split(" -file ")[1].split()[0].rsplit("/", 1)[1] for l in calls if l.startswith("compile"))
    expect(any(l.startswith("multi ") for l in calls) and
           alone == ["block_read_u32_v1_sg32.spv", "block_read_u32_v2_sg16.spv", "block_read_u32_v4_sg16.spv",
                     "block_read_u32_v8_sg16.spv"],
           "batches, then the unsettled modules alone: %r" % calls)
    expect(os.listdir(scratch) == [], "temporary directories left after batches: %r" % os.listdir(scratch))
    props = junit_properties(ju, "offline")
    expect(props.get("target") == "fake1" and "IGC 1.0.42" in props.get("offline_compiler", ""), "JUnit %r" % props)

    # Waiver entries match platform "ocloc", the target's name and the IGC version.
    waivers = os.path.join(tmp, "w.json")
    with open(waivers, "w") as f:
        json.dump({"waivers": [{"cases": ["subgroups.block_read.u32.v1.sg32.*"], "tracker": "t", "reason": "r",
                                "device": {"platform": "ocloc", "name": "fake1",
                                           "driver_version": {"min": "1.0.42", "max": "1.0.42"}}}]}, f)
    rc, out, err = run(runner, ["--offline-compiler=" + ocloc, "--target=" + target, "--waiver-file=" + waivers,
                                "--fail-on-stale-waivers", "--json=" + js, "subgroups.block_read.u32.v1.*"], env)
    expect(rc == 0 and "1 of 1 entries apply" in out, "waived rejection\n" + describe(rc, out, err))
    statuses = {c["status"] for c in load_json_report(js, "waived")["cases"]}
    expect(statuses == {"Pass", "Waived", "NotSupported"}, "waived statuses %r" % statuses)


def check_offline_compiler_errors(runner, build, tmp):
    """A missing compiler, a missing or malformed description and an unknown compiler release are one line each
    and exit 2; so are --target alone and device options with --offline-compiler."""
    ocloc, target, _ = fake_offline_compiler(tmp)
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        f.write('{\n  "target": "x",\n}\n')
    other = os.path.join(tmp, "other.json")
    with open(other, "w") as f:
        json.dump(dict(FAKE_TARGET, compilers={"1.0.1": {"ocloc_driver_version": "1.2.3", "sources": ["s"]}}), f)
    for args, env, says in (
            (["--offline-compiler=ocloc", "--target=" + target], {"PATH": os.path.join(tmp, "empty")},
             "--offline-compiler=ocloc: ocloc: not found on PATH"),
            (["--offline-compiler=" + tmp + "/none", "--target=" + target], {}, "no executable file there"),
            (["--offline-compiler=" + ocloc, "--target=no_such_target"], {}, "no target description"),
            (["--offline-compiler=" + ocloc, "--target=" + bad], {}, bad + ":3: not valid JSON"),
            (["--offline-compiler=" + ocloc, "--target=" + other], {}, "describes no compiler release for ocloc 9.9.9"),
            (["--target=pvc"], {}, "is for --offline-compiler"),
            (["--offline-compiler=" + ocloc, "--target=" + target, "--icd=system"], {}, "drop --icd")):
        rc, out, err = run(runner, args + ["api"], env)
        expect(rc == 2 and says in err, "%s: exit 2 with %r\n%s" % (args, says, describe(rc, out, err)))
        expect(len([l for l in err.splitlines() if l.strip() and not l.startswith("Run ")]) == 1,
               "%s: one line\n%s" % (args, err))


def check_offline_compiler_ocloc(runner, build, tmp):
    """With Intel's ocloc installed: dg2-g10 builds a SubgroupSize 16 block read and rejects the SubgroupSize 32
    one in phase build, as IGC 1.0.12504 does (docs/known_driver_bugs.md)."""
    ocloc = shutil.which("ocloc")
    if not ocloc:
        print("skipped: no ocloc on PATH (Debian: apt-get install intel-opencl-icd)")
        sys.exit(SKIP)
    manifest_or_skip(build)
    js = os.path.join(tmp, "dg2.json")
    rc, out, err = run(runner, ["--offline-compiler=ocloc", "--target=dg2-g10", "--json=" + js,
                                "subgroups.block_read.u32.v1.sg16.offset_0b.wg_one",
                                "subgroups.block_read.u32.v1.sg32.offset_0b.wg_one"])
    if "describes no compiler release" in err:
        print("skipped: this ocloc is not a release the shipped descriptions know\n" + err)
        sys.exit(SKIP)
    expect(rc == 1, describe(rc, out, err))
    got = {c["name"].split(".")[4]: c for c in load_json_report(js, "dg2")["cases"]}
    expect(got["sg16"]["status"] == "Pass", "sg16 %r" % got["sg16"])
    expect(got["sg32"]["status"] == "Fail" and got["sg32"]["phase"] == "build"
           and "Block reads not supported in SIMD32" in got["sg32"]["message"], "sg32 %r" % got["sg32"])


CHECKS = {n[len("check_"):]: f for n, f in globals().items() if n.startswith("check_")}


def main(checks=CHECKS, doc=__doc__):
    """Runs the check sys.argv names (CHECK RUNNER BUILD_DIR); also the entry point of the other e2e files."""
    if len(sys.argv) != 4 or sys.argv[1] not in checks:
        print(doc + "checks: " + ", ".join(sorted(checks)))
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        try:
            checks[sys.argv[1]](os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]), tmp)
        except CheckFailed as e:
            print("FAILED: %s" % e)
            return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
