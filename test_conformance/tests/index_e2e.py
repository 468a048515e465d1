#!/usr/bin/env python3
"""End-to-end checks of the case index (manifest.index, docs/assets.md "The case index"): an index that is
corrupt, truncated, stale or whose byte range holds another case stops the run with one clear error and exit
1, as a corrupt manifest does; `--list --json` prints every selected case as the manifest has it.

usage: index_e2e.py <check> <path to spirv_intel_cts> <build dir>
Exit 0 = pass, 1 = fail, 77 = skipped (CTest SKIP_RETURN_CODE) with the reason printed.
"""
import binascii
import hashlib
import json
import os
import shutil
import sys

import runner_e2e  # noqa: E402
from runner_e2e import SKIP, describe, expect, run

CASE = "subgroups.shuffle.i32.v1.sg16.index_0.wg_one.cf_some_lanes"


def assets_or_skip(build):
    assets = os.path.join(build, "assets")
    if not os.path.exists(os.path.join(assets, "manifest.index")):
        print("skipped: no %s/manifest.index" % assets)
        sys.exit(SKIP)
    return assets


def copy_assets(build, tmp, name):
    """A copy of the built assets directory (the modules linked, not copied) to damage."""
    src, d = assets_or_skip(build), os.path.join(tmp, name)
    os.makedirs(d)
    for f in ("manifest.json", "manifest.sha256", "manifest.index"):
        shutil.copy(os.path.join(src, f), d)
    os.symlink(os.path.join(src, "modules"), os.path.join(d, "modules"))
    return d


def reseal(body):
    """An index body with a correct "end" line, as scripts/assets/case_index.py writes it."""
    return body + "end crc32:%08x\n" % (binascii.crc32(body.encode("utf-8")) & 0xFFFFFFFF)


def index_body(d):
    text = open(os.path.join(d, "manifest.index")).read()
    return text[:text.rindex("end crc32:")]


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def expect_index_error(runner, d, args, words, what):
    rc, out, err = run(runner, ["--assets-dir=" + d] + args)
    lines = [l for l in err.splitlines() if "internal error" in l]
    expect(rc == 1, "%s: exit 1 as for a corrupt manifest\n%s" % (what, describe(rc, out, err)))
    expect(any(all(w in l for w in words) for l in lines),
           "%s: one line on stderr saying %r\n%s" % (what, words, describe(rc, out, err)))
    expect("Traceback" not in err and CASE not in out.replace("pattern '" + CASE, ""),
           "%s: nothing listed or run\n%s" % (what, describe(rc, out, err)))


def check_corrupt_index(runner, build, tmp):
    """A flipped byte, a truncated index, an index of another manifest and a byte range holding another case
    each give one error naming manifest.index and exit 1, for --list, --list --json and a run alike."""
    d = copy_assets(build, tmp, "flipped")
    text = open(os.path.join(d, "manifest.index")).read()
    at = text.index(CASE)
    write(os.path.join(d, "manifest.index"), text[:at] + "x" + text[at + 1:])
    for args in (["--list"], ["--list-tags"], [CASE]):
        expect_index_error(runner, d, args, ["manifest.index is corrupt", "CRC-32"], "flipped byte " + args[0])

    d = copy_assets(build, tmp, "truncated")
    write(os.path.join(d, "manifest.index"), text[:len(text) // 2])
    expect_index_error(runner, d, ["--list"], ["manifest.index is corrupt", "truncated"], "truncated")

    d = copy_assets(build, tmp, "stale")
    manifest = open(os.path.join(d, "manifest.json"), "rb").read() + b"\n"
    with open(os.path.join(d, "manifest.json"), "wb") as f:
        f.write(manifest)
    write(os.path.join(d, "manifest.sha256"), "%s  manifest.json\n" % hashlib.sha256(manifest).hexdigest())
    expect_index_error(runner, d, ["--list"], ["manifest.index is stale", "rebuild the assets target"], "stale")

    # A forged index: CASE's line removed, the case count and the CRC-32 made consistent again. It used to read
    # as a good index that silently left CASE out of every selection; CASE's entry is now covered by no line.
    d = copy_assets(build, tmp, "removed")
    lines = index_body(d).split("\n")
    i = next(n for n, l in enumerate(lines) if l.startswith(CASE + "\t"))
    count_at = next(n for n, l in enumerate(lines) if l.startswith("cases "))
    forged = lines[:i] + lines[i + 1:]
    forged[count_at] = "cases %d" % (int(lines[count_at].split()[1]) - 1)
    write(os.path.join(d, "manifest.index"), reseal("\n".join(forged)))
    for args in (["--list"], [CASE], ["subgroups.shuffle.i32.v1.sg16.index_0"]):
        expect_index_error(runner, d, args, ["manifest.index is corrupt", "no entry covers manifest bytes"],
                           "a removed case line " + args[-1])

    # CASE's line and its neighbour's swap byte ranges: a well-formed index that covers the manifest but
    # points elsewhere.
    d = copy_assets(build, tmp, "elsewhere")
    mine, other = lines[i].split("\t"), lines[i + 1].split("\t")
    swapped = list(lines)
    swapped[i] = "\t".join(mine[:3] + other[3:5] + mine[5:])
    swapped[i + 1] = "\t".join(other[:3] + mine[3:5] + other[5:])
    lines = swapped
    write(os.path.join(d, "manifest.index"), reseal("\n".join(lines)))
    rc, out, err = run(runner, ["--assets-dir=" + d, "--list", CASE])
    expect(rc == 0 and out.startswith(CASE), "--list reads names only\n" + describe(rc, out, err))
    for args in (["--list", "--json", CASE], ["--jobs=1", CASE]):
        expect_index_error(runner, d, args, ["does not hold that case", CASE], "byte range elsewhere " + args[-1])
    # A run in worker processes never parses an entry in the runner: the worker that loads CASE finds the
    # range wrong, and CASE (only) is an InternalError saying so; the run fails.
    other = next(l.split("\t")[0] for l in lines[i + 2:]
                 if l.count("\t") == 6 and l.split("\t")[5] not in ("-", mine[5]) and "extended" not in l.split("\t")[2])
    for mode in (["--jobs=2"], ["--jobs=1", "--isolate"]):
        js = os.path.join(tmp, "elsewhere%s.json" % len(mode))
        rc, out, err = run(runner, ["--assets-dir=" + d, "--json=" + js, CASE, other] + mode)
        what = "byte range elsewhere, %s\n%s" % (" ".join(mode), describe(rc, out, err))
        expect(rc == 1 and os.path.exists(js), what)
        got = {c["name"]: c for c in json.load(open(js))["cases"]}
        expect(got[CASE]["status"] == "InternalError" and "does not hold that case" in got[CASE]["message"], what)
        expect(got[other]["status"] in ("Pass", "NotSupported"), "%s: %r" % (what, got[other]))


def check_list_json(runner, build, tmp):
    """--list --json prints every selected case (the --list names, in order) with all its manifest fields,
    the same values as manifest.json; the C++ cases too."""
    assets = assets_or_skip(build)
    rc, listed, err = run(runner, ["--list", "--extended", "--huge"])
    expect(rc == 0, describe(rc, listed, err))
    rc, out, err = run(runner, ["--list", "--json", "--extended", "--huge"])
    expect(rc == 0, describe(rc, out[:2000], err))
    printed = json.loads(out)
    names = [l.split("  #")[0] for l in listed.splitlines()]
    expect([c["name"] for c in printed] == names, "--list --json lists the --list names in order")
    defaults = {"module": "", "module_hash": "", "kernel": "", "params": {}, "requires": [], "tags": []}
    by_name = {c["name"]: c for c in printed}
    manifest = json.load(open(os.path.join(assets, "manifest.json")))
    for entry in manifest["cases"]:
        want, got = dict(defaults, **entry), by_name.get(entry["name"])
        if got != want:
            expect(False, "%s: --list --json %r, manifest %r" % (entry["name"], got, want))
    in_manifest = {e["name"] for e in manifest["cases"]}
    cpp = [c for c in printed if c["name"] not in in_manifest]
    expect(cpp and all(c["family"] and c["tier"] == "core" for c in cpp), "the C++ cases are listed too")
    rc, out, err = run(runner, ["--list", "--json", "--tier=core", "subgroups.shuffle"])
    one = json.loads(out)
    expect(rc == 0 and one and all(c["tier"] == "core" and c["name"].startswith("subgroups.shuffle.") for c in one),
           "--list --json follows the selection\n" + describe(rc, out[:500], err))


def check_manifest_check(runner, build, tmp):
    """manifest_check (the build's whole-manifest check) refuses an index whose module number or family for a
    case is not the manifest's, though the index is well-formed and sealed: a --jobs run plans from them."""
    tool = os.path.join(os.path.dirname(runner), "manifest_check")
    if not os.access(tool, os.X_OK):
        print("skipped: no %s" % tool)
        sys.exit(SKIP)
    d = copy_assets(build, tmp, "good")
    rc, out, err = run(tool, [d])
    expect(rc == 0 and "manifest.index agrees" in out, "the built assets check out\n" + describe(rc, out, err))
    lines = index_body(d).split("\n")
    modules = int(next(l for l in lines if l.startswith("modules ")).split()[1])
    i = next(n for n, l in enumerate(lines) if l.startswith(CASE + "\t"))
    for column, value in ((5, lambda v: str((int(v) + 1) % modules)), (6, lambda v: v + "_other")):
        d = copy_assets(build, tmp, "column%d" % column)
        fields = lines[i].split("\t")
        fields[column] = value(fields[column])
        changed = lines[:i] + ["\t".join(fields)] + lines[i + 1:]
        write(os.path.join(d, "manifest.index"), reseal("\n".join(changed)))
        rc, out, err = run(tool, [d])
        expect(rc == 1 and CASE in err and "module and family" in err,
               "column %d changed: manifest_check names the case\n%s" % (column, describe(rc, out, err)))


def check_manifest_edited(runner, build, tmp):
    """A manifest edited after the asset build without changing its size (so the index and manifest.sha256
    still fit it): a run that writes a report hashes the manifest it read, and says it is not the one
    manifest.sha256 names (exit 1, a run-level error) rather than reporting the old hash as its own."""
    d = copy_assets(build, tmp, "edited")
    path = os.path.join(d, "manifest.json")
    text = open(path, "rb").read()
    # One letter of the last case's name (a case the run does not select): same size, still valid JSON.
    at = text.rindex(b'"name": "') + len(b'"name": "')
    text = text[:at] + (b"x" if text[at:at + 1] != b"x" else b"y") + text[at + 1:]
    with open(path, "wb") as f:
        f.write(text)
    real = hashlib.sha256(text).hexdigest()
    claimed = open(os.path.join(d, "manifest.sha256")).read().split()[0]
    expect(real != claimed, "the edit changed the manifest's hash")
    report = os.path.join(tmp, "edited.json")
    rc, out, err = run(runner, ["--assets-dir=" + d, CASE, "--jobs=1", "--json=" + report])
    expect(rc == 1 and "is not the manifest its manifest.sha256" in err and real in err,
           "an edited manifest is a run-level error naming its real hash\n" + describe(rc, out, err))
    doc = json.load(open(report))
    expect(doc["selection"]["manifest_sha256"] == real, "the report names the manifest the run read: %s, not %s"
           % (real, doc["selection"]["manifest_sha256"]))
    expect(any("manifest.sha256" in e for e in doc.get("errors", [])), "the report lists the error")
    expect(doc["cases"] and doc["cases"][0]["status"] == "Pass", "the selected case still ran")
    # The untouched copy: no error, the recorded hash.
    d = copy_assets(build, tmp, "intact")
    rc, out, err = run(runner, ["--assets-dir=" + d, CASE, "--jobs=1", "--json=" + report])
    doc = json.load(open(report))
    expect(rc == 0 and doc["selection"]["manifest_sha256"] == claimed and not doc.get("errors"),
           "an intact manifest: exit 0, its recorded hash\n" + describe(rc, out, err))


CHECKS = {n[len("check_"):]: f for n, f in globals().items() if n.startswith("check_")}


if __name__ == "__main__":
    sys.exit(runner_e2e.main(CHECKS, __doc__))
