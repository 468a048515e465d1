#!/usr/bin/env python3
"""End-to-end checks that a gating run has no holes: what selected the cases is recorded, --rerun-failed drops
no failed case, reports never replace inputs or an earlier log, and inputs and outputs are the kind of file
they should be.

usage: gating_e2e.py <check> <path to spirv_intel_cts> <build dir>
Exit 0 = pass, 1 = fail, 77 = skipped (CTest SKIP_RETURN_CODE) with the reason printed.
"""
import hashlib
import json
import os
import sys

import runner_e2e  # noqa: E402
from runner_e2e import (SKIP, CheckFailed, assets_args, describe, empty_vendors, expect, junit_properties,
                        load_json_report, read_text, reference_icd, run, usage_error)

HUGE_FAULTS = "offset_32bit_wrap,pitch_ignored"  # pitch_ignored fails the small cases, the wrap the huge ones
HUGE_SUBSET = "2d_block_io.scale.*"
SELECTION_KEYS = {"patterns": list, "filter": str, "caselist_file": str, "exclude_file": str, "tags": list,
                  "quick": bool, "extended": bool, "huge": bool, "tier": str, "rerun_failed": str, "run_skipped": bool,
                  "seed": int, "suite_version": str, "manifest_sha256": str}


def refdev_assets_or_skip(build):
    if not reference_icd(build) or not os.path.exists(os.path.join(build, "assets", "manifest.json")):
        print("skipped: needs the reference device and the built assets in %s" % build)
        sys.exit(SKIP)


def check_selection_record(runner, build, tmp):
    """Every report says what selected its cases: the "selection" object of exactly the agreed shape, with the
    manifest's hash from the asset build, and the same as JUnit properties."""
    refdev_assets_or_skip(build)
    js, ju = os.path.join(tmp, "r.json"), os.path.join(tmp, "r.xml")
    rc, out, err = run(runner, ["api", "--filter=api.*", "--tag=api", "--tier=core", "--seed=4", "--json=" + js,
                                "--junit=" + ju])
    expect(rc == 0, describe(rc, out, err))
    sel = load_json_report(js, "run").get("selection")
    expect(isinstance(sel, dict) and set(sel) == set(SELECTION_KEYS), "selection keys: %r" % sel)
    for key, kind in SELECTION_KEYS.items():
        expect(isinstance(sel[key], kind) and (kind is not int or not isinstance(sel[key], bool)),
               "selection.%s: %r is not %s" % (key, sel[key], kind.__name__))
    with open(os.path.join(build, "assets", "manifest.json"), "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    expect(sel["manifest_sha256"] == digest, "manifest_sha256 %s, the manifest's is %s" % (sel["manifest_sha256"], digest))
    expect((sel["patterns"], sel["filter"], sel["tags"], sel["tier"], sel["seed"]) == (["api"], "api.*", ["api"], "core", 4),
           "selection as given: %r" % sel)
    expect(sel["suite_version"] and sel["suite_version"][0].isdigit(), "suite_version %r" % sel["suite_version"])
    props = junit_properties(ju, "run")
    expect(props.get("selection.manifest_sha256") == digest and props.get("selection.tier") == "core"
           and props.get("selection.patterns") == '["api"]', "JUnit selection properties: %r" % props)
    # A missing hash is a broken asset build: the run is an internal error, as with a corrupt manifest.
    assets = os.path.join(tmp, "assets")
    os.makedirs(assets)
    os.symlink(os.path.join(build, "assets", "manifest.json"), os.path.join(assets, "manifest.json"))
    os.symlink(os.path.join(build, "assets", "modules"), os.path.join(assets, "modules"))
    rc, out, err = run(runner, ["--assets-dir=" + assets, "api"])
    expect(rc == 1 and "manifest.sha256" in out, "missing manifest.sha256\n" + describe(rc, out, err))


def check_rerun_keeps_selection(runner, build, tmp):
    """--rerun-failed of a --huge run reruns the huge failures too (it ran 3 of 5 and passed); a report without
    a selection record that would lose a case is refused, naming the option to add."""
    refdev_assets_or_skip(build)
    first = os.path.join(tmp, "h.json")
    rc, out, err = run(runner, ["--huge", HUGE_SUBSET, "--json=" + first], {"REFDEV_FAULTS": HUGE_FAULTS})
    doc = load_json_report(first, "--huge run")
    failed = sorted(c["name"] for c in doc["cases"] if c["status"] == "Fail")
    huge = [n for n in failed if "offset_past_" in n]
    expect(rc == 1 and huge and len(huge) < len(failed), "huge and other failures\n" + describe(rc, out, err))
    again = os.path.join(tmp, "again.json")
    rc, out, err = run(runner, ["--rerun-failed=" + first, "--json=" + again], {"REFDEV_FAULTS": "offset_32bit_wrap"})
    rerun = load_json_report(again, "rerun")
    expect(sorted(c["name"] for c in rerun["cases"]) == failed, "every failed case reran: %r" % rerun["cases"])
    still = sorted(c["name"] for c in rerun["cases"] if c["status"] == "Fail")
    expect(rc == 1 and still == huge, "the huge cases still fail\n" + describe(rc, out, err))
    expect(rerun["selection"]["huge"] and rerun["selection"]["rerun_failed"] == first, "%r" % rerun["selection"])
    # A report from before the selection record: refused without --huge, complete with it.
    old = dict(doc)
    del old["selection"]
    old_path = os.path.join(tmp, "old.json")
    with open(old_path, "w") as f:
        json.dump(old, f)
    usage_error(runner, ["--rerun-failed=" + old_path], ["--rerun-failed:", "tagged huge: add --huge", huge[0]])
    rc, out, err = run(runner, ["--rerun-failed=" + old_path, "--huge", "--list"])
    listed = sorted(l.split()[0] for l in out.splitlines() if l.strip())
    expect(rc == 0 and listed == failed, "--huge brings them back\n" + describe(rc, out, err))
    # A seed the runner cannot have written is refused, not taken as 0.
    old["seed"] = -1
    with open(old_path, "w") as f:
        json.dump(old, f)
    usage_error(runner, ["--rerun-failed=" + old_path, "--huge"], ['"seed" is not an unsigned integer'])


def check_reports_spare_inputs(runner, build, tmp):
    """A report on a file the run reads, or on a FIFO, is a usage error before anything is written; the log is
    emptied only once every check has passed; a log that cannot be written or a run without a device says so."""
    extra = assets_args(build, tmp)
    report = os.path.join(tmp, "r.json")
    with open(report, "w") as f:
        f.write('{"earlier": "report"}\n')
    os.link(report, os.path.join(tmp, "hard.json"))
    os.symlink(report, os.path.join(tmp, "soft.json"))
    for out_path in (report, os.path.join(tmp, "hard.json"), os.path.join(tmp, "soft.json")):
        for option in ("--json=", "--junit=", "--log="):
            usage_error(runner, extra + ["--rerun-failed=" + report, option + out_path, "--list"],
                        [option[:-1], "--rerun-failed=" + report, "would replace"])
    usage_error(runner, extra + ["--waiver-file=" + report, "--log=" + report, "api"], ["--log", "--waiver-file"])
    expect(read_text(report) == '{"earlier": "report"}\n', "the input was touched: %r" % read_text(report))
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    for option in ("--json=", "--junit=", "--log="):
        usage_error(runner, extra + [option + fifo, "api"], [fifo, "not a regular file (a FIFO)"])
    log = os.path.join(tmp, "old.log")
    with open(log, "w") as f:
        f.write("earlier log\n")
    usage_error(runner, extra + ["--log=" + log, "--dump-dir=/dev/null/x", "api"], ["dump directory"])
    expect(read_text(log) == "earlier log\n", "a usage error emptied the log: %r" % read_text(log))
    if not reference_icd(build):
        print("skipped (device part): no reference device in %s" % build)
        sys.exit(SKIP)
    rc, out, err = run(runner, extra + ["--log=/dev/full", "api"])
    lines = [l for l in err.splitlines() if "cannot write log /dev/full" in l]
    expect(rc == 1 and len(lines) == 1 and "No space left" in lines[0], "--log=/dev/full\n" + describe(rc, out, err))
    rc, out, err = run(runner, extra + ["--icd=system", "--log=" + log, "api"], empty_vendors(tmp))
    expect(rc == 1, "no device: exit 1\n" + describe(rc, out, err))
    expect("no device" in read_text(log) and "platform" in read_text(log), "the log says why: %r" % read_text(log))
    rc, out, err = run(runner, extra + ["--isolate", "api.il_version"])
    expect(rc == 0 and "each case has 300 s (the default limit of --isolate" in out, describe(rc, out, err))


def check_help_and_tags(runner, build, tmp):
    """-h is --help, which describes -- and the reference device's variables; --list-tags --tag=nope is the
    usage error --tag=nope is elsewhere."""
    extra = assets_args(build, tmp)
    rc, out, err = run(runner, ["-h"])
    expect(rc == 0 and out.startswith("Usage:"), "-h\n" + describe(rc, out, err))
    for words in ("\n  --  ", "REFDEV_FAULTS", "REFDEV_PROFILE", "docs/reference_device.md"):
        expect(words in out, "--help lacks %r" % words)
    usage_error(runner, extra + ["--list-tags", "--tag=nope"], ["tag 'nope'", "known tags"])
    rc, out, err = run(runner, extra + ["--list-tags", "--tag=api"])
    expect(rc == 0 and "api " in out, "--list-tags with a known tag\n" + describe(rc, out, err))


CHECKS = {n[len("check_"):]: f for n, f in globals().items() if n.startswith("check_")}


if __name__ == "__main__":
    sys.exit(runner_e2e.main(CHECKS, __doc__))
