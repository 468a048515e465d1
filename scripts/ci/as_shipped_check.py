#!/usr/bin/env python3
"""The as-shipped check: the suite on the reference device reporting as compute-runtime 26.27 does
(REFDEV_REPORT_AS=neo-26.27: every extension at 1.0.0, the SPIR-V queries without SPV_INTEL_2d_block_io and
SPV_INTEL_subgroup_matrix_multiply_accumulate) runs the same 2D block IO, MMA and workloads cases as the run
reporting the spec versions, now as device_specific, and says why.

    scripts/ci/as_shipped_check.py SPEC.json AS_SHIPPED.json --manifest MANIFEST.json --output RUN.log [--show N]

SPEC.json: the runner's --json report of the run as the specs describe the device (build/ci/results_xe_hpc.json).
AS_SHIPPED.json: the same run under REFDEV_REPORT_AS=neo-26.27. MANIFEST.json: build/assets/manifest.json
(each case's requirement tokens). RUN.log: what the as-shipped run printed (--output may be given more than
once, e.g. its --log file and its standard output).

Checked:
  - every case that passes in SPEC.json passes in AS_SHIPPED.json, for the families promised from an
    extension version above 1.0 (their descriptors' "opencl_extension_min_version", scripts/assets/families.py) and
    the families that compose them; a case with a token ext=NAME@M.m above 1.0 (the version every extension is reported at)
    is there with tier device_specific and NAME in its "version_gaps", the others keep their tier;
  - no case of AS_SHIPPED.json fails (Fail, Crash, Timeout, InternalError);
  - for each such NAME, AS_SHIPPED.json's top-level "version_gaps" has {"extension": NAME, "reported":
    "1.0.0", "promised_from": M.m.0, "cases": at least the cases checked} and every RUN.log has the line part
    "NAME 1.0.0: SPIR-V support is promised from M.m.0".
Exit 0: all hold; 1: a problem (each listed, at most --show per kind); 2: unusable input, one line
"as_shipped_check: FILE: what is wrong".
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: the import root
from assets import families  # noqa: E402  (the family descriptors)
from reports import report_io  # noqa: E402  (the checked report loader)

FAILING = ("Fail", "Crash", "Timeout", "InternalError")
REPORTED = (1, 0)  # what REFDEV_REPORT_AS=neo-26.27 reports every extension at


def version_gap_groups(repo=families.REPO):
    """The families whose cases the check compares: those promised from above REPORTED and those composing them."""
    descriptors = families.descriptors(repo)
    above = set()
    for d in descriptors:
        version = d.get("opencl_extension_min_version")
        try:
            if version and tuple(int(x) for x in version.split(".")[:2]) > REPORTED:
                above.add(d["group"])
        except ValueError:
            raise families.FamilyError("%s: \"opencl_extension_min_version\" %r is not MAJOR.MINOR" %
                                       (d["group"], version))
    return tuple(d["group"] for d in descriptors if d["group"] in above or above & set(d.get("composes", [])))


def load_requires(path):
    """{case: [token, ...]} from the asset manifest."""
    doc = report_io.load_json(path, "asset manifest")
    cases = doc.get("cases") if isinstance(doc, dict) else None
    if not isinstance(cases, list) or not all(
            isinstance(c, dict) and isinstance(c.get("name"), str) and isinstance(c.get("requires", []), list)
            for c in cases):
        raise report_io.ReportError(path, "not an asset manifest (needs \"cases\": [{\"name\", \"requires\"}])")
    return {c["name"]: c.get("requires", []) for c in cases}


def gaps_of(tokens):
    """{extension: (major, minor)} of the case's ext=NAME@M.m tokens above REPORTED."""
    out = {}
    for token in tokens:
        key, _, value = str(token).partition("=")
        name, _, version = value.partition("@")
        if key != "ext" or not version:
            continue
        try:
            wanted = tuple(int(x) for x in version.split(".")[:2])
        except ValueError:
            continue
        if wanted > REPORTED:
            out[name] = wanted
    return out


def check(spec, shipped, requires, outputs, groups):
    """The problems, as {kind: [line, ...]}, and the number of cases compared (those of groups)."""
    problems = {}

    def problem(kind, line):
        problems.setdefault(kind, []).append(line)

    shipped_cases = {c["name"]: c for c in shipped.get("cases", [])}
    expected_gaps = {}  # extension -> (promised version, cases)
    compared = 0
    for c in spec.get("cases", []):
        name = c["name"]
        if name.split(".", 1)[0] not in groups or c["status"] != "Pass":
            continue
        compared += 1
        got = shipped_cases.get(name)
        if got is None:
            problem("missing", "%s: passes in the spec run, absent from the as-shipped run" % name)
            continue
        if got["status"] != "Pass":
            problem("status", "%s: %s in the as-shipped run (Pass in the spec run)%s" % (
                name, got["status"], ": " + got.get("message", "").splitlines()[0] if got.get("message") else ""))
        gaps = gaps_of(requires.get(name, []))
        want_tier = "device_specific" if gaps else c.get("tier")
        if got.get("tier") != want_tier:
            problem("tier", "%s: tier %s in the as-shipped run, expected %s%s" % (
                name, got.get("tier"), want_tier, " (version gap: %s)" % ", ".join(sorted(gaps)) if gaps else ""))
        if sorted(got.get("version_gaps", [])) != sorted(gaps):
            problem("case gaps", "%s: names version gaps %s, expected %s" % (
                name, sorted(got.get("version_gaps", [])), sorted(gaps)))
        for ext, version in gaps.items():
            promised, count = expected_gaps.get(ext, (version, 0))
            expected_gaps[ext] = (max(promised, version), count + 1)
    if compared == 0:
        problem("nothing", "the spec run has no passing case of %s: nothing to compare" % ", ".join(groups))

    for c in shipped.get("cases", []):
        if c["status"] in FAILING:
            problem("failing", "%s: %s in the as-shipped run" % (c["name"], c["status"]))

    top = {g.get("extension"): g for g in shipped.get("version_gaps", []) if isinstance(g, dict)}
    for ext, ((major, minor), count) in sorted(expected_gaps.items()):
        promised = "%d.%d.0" % (major, minor)
        g = top.get(ext)
        if g is None:
            problem("report gaps", "\"version_gaps\" of the as-shipped report does not name %s" % ext)
        elif g.get("reported") != "1.0.0" or g.get("promised_from") != promised or \
                not isinstance(g.get("cases"), int) or g["cases"] < count:
            problem("report gaps", "\"version_gaps\" entry %s: expected reported 1.0.0, promised_from %s and at "
                    "least %d case(s)" % (sorted(g.items()), promised, count))
        line = "%s 1.0.0: SPIR-V support is promised from %s" % (ext, promised)
        for path, text in outputs:
            if line not in text:
                problem("output", "%s does not say \"%s\"" % (path, line))
    return problems, compared, expected_gaps


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("spec")
    ap.add_argument("as_shipped")
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--output", action="append", required=True, help="what the as-shipped run printed")
    ap.add_argument("--show", type=int, default=10)
    args = ap.parse_args(argv)
    try:
        spec = report_io.load_report(args.spec)
        shipped = report_io.load_report(args.as_shipped)
        requires = load_requires(args.manifest)
        outputs = [(path, report_io.read_text(path, "run output")) for path in args.output]
        groups = version_gap_groups()
    except (report_io.ReportError, families.FamilyError) as e:
        print("as_shipped_check: %s" % e, file=sys.stderr)
        return 2
    problems, compared, gaps = check(spec, shipped, requires, outputs, groups)
    print("as_shipped_check: %d passing case(s) of %s in %s compared with %s" % (
        compared, ", ".join(groups), report_io.printable(args.spec), report_io.printable(args.as_shipped)))
    for ext, ((major, minor), count) in sorted(gaps.items()):
        print("  version gap %s: reported 1.0.0, SPIR-V promised from %d.%d.0: %d case(s) device_specific" % (
            report_io.printable(ext), major, minor, count))
    for kind, lines in problems.items():
        print("%s (%d):" % (kind, len(lines)))
        for line in lines[:args.show]:
            print("  " + report_io.printable(line))  # case names and run output: untrusted
        if len(lines) > args.show:
            print("  ... and %d more" % (len(lines) - args.show))
    if problems:
        print("as_shipped_check: FAILED: %d problem(s)" % sum(len(v) for v in problems.values()))
        return 1
    print("as_shipped_check: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
