#!/usr/bin/env python3
"""End-to-end checks of what the runner reads: selection by exact names costs O(n log n), environment variables
have one grammar, every file the runner reads or writes goes through one path guard, and single-valued options
are given once.

usage: inputs_e2e.py <check> <path to spirv_intel_cts> <build dir>
Exit 0 = pass, 1 = fail, 77 = skipped (CTest SKIP_RETURN_CODE) with the reason printed.
"""
import json
import os
import sys
import time

import runner_e2e  # noqa: E402
from runner_e2e import (SKIP, CheckFailed, assets_args, describe, expect, load_json_report, read_text, reference_icd,
                        run, usage_error)

# Generous bounds for a shared 2-core machine; the quadratic selection took minutes (issue 30, item 5).
ROUND_TRIP_LIMIT_S = 10.0
WAIVER_LIMIT_S = 10.0


def manifest_or_skip(build):
    if not os.path.exists(os.path.join(build, "assets", "manifest.json")):
        print("skipped: needs the built assets in %s" % build)
        sys.exit(SKIP)


def refdev_or_skip(build):
    manifest_or_skip(build)
    if not reference_icd(build):
        print("skipped: needs the reference device in %s" % build)
        sys.exit(SKIP)


def timed(runner, args, env=None):
    start = time.monotonic()
    rc, out, err = run(runner, args, env)
    return rc, out, err, time.monotonic() - start


def check_selection_cost(runner, build, tmp):
    """The whole --list read back as a --caselist-file (and as an --exclude-file next to a pattern) selects in
    about the time --list takes: exact names are looked up, not tried one by one against every case."""
    manifest_or_skip(build)
    rc, listing, err = run(runner, ["--list"])
    expect(rc == 0 and listing.count("\n") > 1000, "--list\n" + describe(rc, listing, err))
    all_txt = os.path.join(tmp, "all.txt")
    with open(all_txt, "w") as f:
        f.write(listing)
    rc, out, err, secs = timed(runner, ["--caselist-file=" + all_txt, "--list"])
    expect(rc == 0 and out == listing, "round trip: the same list\n" + describe(rc, out[-500:], err))
    expect(secs < ROUND_TRIP_LIMIT_S, "--caselist-file of the whole --list took %.1f s" % secs)
    # Every case but the last excluded: the exclude file costs the same, and what is left is exact.
    names = [l.split("#")[0].strip() for l in listing.splitlines()]
    excl = os.path.join(tmp, "excl.txt")
    with open(excl, "w") as f:
        f.write("\n".join(names[:-1]) + "\n")
    rc, out, err, secs = timed(runner, ["--exclude-file=" + excl, "--list"])
    expect(rc == 0 and out.split() [0] == names[-1] and out.count("\n") == 1,
           "exclude all but one\n" + describe(rc, out[-500:], err))
    expect(secs < ROUND_TRIP_LIMIT_S, "--exclude-file of the whole --list took %.1f s" % secs)


def check_waiver_cost(runner, build, tmp):
    """30,000 one-case waiver entries: applying them to a run and finding the stale ones is a lookup per case."""
    refdev_or_skip(build)
    rc, listing, err = run(runner, ["--list", "api"])
    expect(rc == 0, describe(rc, listing, err))
    api = [l.split("#")[0].strip() for l in listing.splitlines()]
    rc, listing, err = run(runner, ["--list"])
    names = [l.split("#")[0].strip() for l in listing.splitlines()][:30000]
    entries = [{"cases": [n], "device": {"platform": "RefDev*"}, "tracker": "T-%d" % i, "reason": "r"}
               for i, n in enumerate(names)]
    path = os.path.join(tmp, "w.json")
    with open(path, "w") as f:
        json.dump({"waivers": entries}, f)
    js = os.path.join(tmp, "r.json")
    rc, out, err, secs = timed(runner, ["--jobs=1", "--waiver-file=" + path, "--json=" + js, "api"])
    expect(rc == 0, describe(rc, out, err))
    stale = load_json_report(js, "waived run")["waivers"]["stale"]
    covered = [n for n in api if n in set(names)]
    # Every entry but those of the api cases selects no case of this run; each passing api case is stale too.
    expect(len(stale) >= len(names) - len(covered), "stale waivers: %d of %d" % (len(stale), len(names)))
    expect(secs < WAIVER_LIMIT_S, "30,000 one-case waivers took %.1f s" % secs)


CHECKS = {n[len("check_"):]: f for n, f in globals().items() if n.startswith("check_")}


if __name__ == "__main__":
    sys.exit(runner_e2e.main(CHECKS, __doc__))
