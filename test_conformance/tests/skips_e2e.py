#!/usr/bin/env python3
"""End-to-end checks of skip waivers and what reaches the terminal (issue 45): a skip never hides that a case is
not supported, skips are counted in the header, summary and reports and trip the gate past a share of the
selection, --run-skipped needs a waiver file, and a compiler's message reaches the console and log escaped.

usage: skips_e2e.py <check> <path to spirv_intel_cts> <build dir>
Exit 0 = pass, 1 = fail, 77 = skipped (CTest SKIP_RETURN_CODE) with the reason printed.
"""
import os
import subprocess
import sys

import runner_e2e  # noqa: E402
from runner_e2e import (SKIP, describe, expect, junit_properties, load_json_report, reference_icd, run, usage_error,
                        write_waivers)

TRACKER = "https://tracker.example/refdev/45"
# On the default profile (xe_hpc) sub-group size 64 is not supported; 16 is.
UNSUPPORTED = "subgroups.shuffle.i32.v1.sg64.index_0.wg_one.cf_all"
SUPPORTED = "subgroups.shuffle.i32.v1.sg16.index_0.wg_one.cf_all"
SUBSET = "subgroups.shuffle.i32.v1.sg16.index_0"


def refdev_or_skip(build):
    if not os.path.exists(os.path.join(build, "assets", "manifest.json")) or not reference_icd(build):
        print("skipped: needs the reference device and the built assets in %s" % build)
        sys.exit(SKIP)


def skip_entry(cases, device=None):
    return {"cases": cases, "device": device or {"name": "*RefDev*"}, "tracker": TRACKER, "reason": "known hang",
            "skip": True}


def check_skip_keeps_not_supported(runner, build, tmp):
    """A skip covering a case the device does not support leaves it NotSupported with its reason (in process and
    in workers); a supported case it covers is still Waived without running."""
    refdev_or_skip(build)
    skips = os.path.join(tmp, "skips.json")
    write_waivers(skips, [skip_entry([UNSUPPORTED, SUPPORTED])])
    for mode in ([], ["--jobs=2"]):
        js = os.path.join(tmp, "s.json")
        rc, out, err = run(runner, [UNSUPPORTED, SUPPORTED, "--waiver-file=" + skips, "--json=" + js] + mode)
        expect(rc == 0, "%s\n%s" % (mode, describe(rc, out, err)))
        by_name = {c["name"]: c for c in load_json_report(js, "skip run")["cases"]}
        unsupported, supported = by_name[UNSUPPORTED], by_name[SUPPORTED]
        expect(unsupported["status"] == "NotSupported" and "64" in unsupported["message"],
               "%s: the unsupported case keeps its verdict and reason: %r" % (mode, unsupported))
        expect(supported["status"] == "Waived" and supported["original_status"] == "NotRun",
               "%s: the supported case is skipped: %r" % (mode, supported))
        expect("[  SKIP  ] " + UNSUPPORTED in out, "%s: console\n%s" % (mode, out))


def check_skips_are_loud(runner, build, tmp):
    """Skips are counted in the header, the summary, the JSON and JUnit reports; --fail-if-all-skipped trips when
    they cover more than 10% of the selection, --max-skipped-share=P sets the share."""
    refdev_or_skip(build)
    rc, listing, err = run(runner, ["--list", SUBSET])
    names = [l.split()[0] for l in listing.splitlines() if l.strip()]
    expect(rc == 0 and len(names) >= 3, "--list %s\n%s" % (SUBSET, describe(rc, listing, err)))
    skips = os.path.join(tmp, "skips.json")
    write_waivers(skips, [skip_entry([names[0]])])
    share = 100.0 / len(names)
    js, ju = os.path.join(tmp, "l.json"), os.path.join(tmp, "l.xml")
    base = [SUBSET, "--waiver-file=" + skips, "--json=" + js, "--junit=" + ju]
    rc, out, err = run(runner, base)
    text = "1 of %d selected case(s) (%.1f%%) skipped by waiver \"skip\" entries" % (len(names), share)
    expect(rc == 0 and "Skipped:   " + text in out and "not run: " + text in out,
           "header and summary count the skips\n" + describe(rc, out, err))
    expect(load_json_report(js, "loud")["waived_not_run"] == 1, "JSON waived_not_run")
    expect(junit_properties(ju, "loud").get("waived_not_run") == "1", "JUnit waived_not_run")
    expect(share > 10, "the subset is small enough that one case is over 10%")
    rc, out, err = run(runner, base + ["--fail-if-all-skipped"])
    expect(rc == 1 and "more than the 10% --max-skipped-share allows" in out,
           "--fail-if-all-skipped trips past 10%\n" + describe(rc, out, err))
    rc, out, err = run(runner, base + ["--fail-if-all-skipped", "--max-skipped-share=%d" % (int(share) + 1)])
    expect(rc == 0, "a stated share above the skips passes\n" + describe(rc, out, err))
    rc, out, err = run(runner, base + ["--max-skipped-share=0"])
    expect(rc == 1, "--max-skipped-share alone trips too\n" + describe(rc, out, err))
    # Every case of every device: nothing runs, the gate fails.
    write_waivers(skips, [skip_entry(["*"])])
    rc, out, err = run(runner, [SUBSET, "--waiver-file=" + skips, "--fail-if-all-skipped"])
    expect(rc == 1, "a skip of everything fails the gate\n" + describe(rc, out, err))


def check_run_skipped_needs_waivers(runner, build, tmp):
    """--run-skipped without --waiver-file has nothing to run: a usage error."""
    usage_error(runner, ["--run-skipped", "api"], ["--run-skipped", "--waiver-file"])


ESCAPES = "printf 'error: \\033]0;pwned\\007\\033[2J \\377\\376 \\302\\23331m\\n'"


def check_compiler_text_escaped(runner, build, tmp):
    """A compiler's rejection with terminal controls and invalid bytes reaches the console and --log escaped."""
    if not os.path.exists(os.path.join(build, "assets", "manifest.json")):
        print("skipped: no %s/assets/manifest.json" % build)
        sys.exit(SKIP)
    ocloc, target, _ = runner_e2e.fake_offline_compiler(tmp)
    with open(ocloc) as f:
        script = f.read()
    with open(ocloc, "w") as f:
        f.write(script.replace("echo 'error: Block reads not supported in SIMD32'", ESCAPES))
    log = os.path.join(tmp, "run.log")
    p = subprocess.run([runner, "--offline-compiler=" + ocloc, "--target=" + target, "--timeout=30",
                        "--log=" + log, "subgroups.block_read.u32.v1.sg32.*"], env=runner_e2e.clean_env(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    out = p.stdout
    expect(p.returncode == 1 and b"\\x1b]0;pwned\\x07\\x1b[2J \\xff\\xfe \\xc2\\x9b31m" in out,
           "the message escaped on the console\n%r" % out[-3000:])
    with open(log, "rb") as f:
        logged = f.read()
    expect(b"\\x1b]0;pwned" in logged, "the message escaped in the log: %r" % logged[-2000:])
    for what, data in (("console", out.replace(b"\r\x1b[K", b"")), ("log", logged)):
        bad = [b for b in data if b == 0x1b or b >= 0x80 or (b < 0x20 and b not in (0x0a, 0x09))]
        expect(not bad, "%s holds raw control or invalid bytes: %r" % (what, bytes(bad[:10])))


CHECKS = {n[len("check_"):]: f for n, f in globals().items() if n.startswith("check_")}


if __name__ == "__main__":
    sys.exit(runner_e2e.main(CHECKS, __doc__))
