#!/usr/bin/env python3
"""The runtime's build verdict for each module equals the offline judge's (same IGC release, same target).

  runtime_offline_cross_check.py [PRODUCT=RUNTIME_REPORT,OFFLINE_REPORT ...] [--build-dir=DIR]
                                 [--products=bmg,pvc,...] [--manifest=FILE] [--explanations=FILE] [--skip-missing]

RUNTIME_REPORT is a --build-only run on Intel's GPU driver (scripts/setup/run_intel_gpu_nohw.sh PRODUCT), OFFLINE_REPORT
the offline judge's run for the product's ocloc target (scripts/setup/run_offline_compiler.sh TARGET --compiler=current).
Without pairs, each product of --products (default: all six) is read from DIR/nohw/PRODUCT/results.json and
DIR/offline_compiler/current/TARGET.json (bmg->bmg, pvc->pvc, dg2->dg2-g10, mtl->mtl, lnl-m->lnl-m, ptl->ptl).

Per module (the manifest's "module" of each case), each side's verdict from its cases: built (a case Pass or
Flake, or Fail/Waived outside phase "build"), rejected (a case Fail, or Waived from Fail, in phase "build", or
NotSupported "device-specific module not accepted by this device's compiler: ..."), else not judged (every case
NotSupported for a requirement, not selected, or ended by a crash, timeout or internal error). A module built on
one side and rejected on the other is a disagreement, printed with both sides' first error line; one an entry of
the explanations file (default docs/waivers/runtime-vs-ocloc-26.27.json, when it exists: {"explanations":
[{"module": GLOB, "products": [...], "reason": "..."}]}) covers is explained. An entry that covers no
disagreement of a product it names and this run checked is stale. Modules judged by one side only are counted
per reason (the other side's first NotSupported message); they are no disagreement.

Exit status: 0 when every disagreement is explained and no explanation is stale, 1 otherwise, 2 for bad input
(one line), 77 with --skip-missing when a report is absent (the products whose reports exist are still
checked; a disagreement among them is still 1).
"""

import argparse
import fnmatch
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: the import root
from reports import report_io  # noqa: E402
from reports.report_io import ReportError  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGETS = {"bmg": "bmg", "pvc": "pvc", "dg2": "dg2-g10", "mtl": "mtl", "lnl-m": "lnl-m", "ptl": "ptl"}
NOT_ACCEPTED = "device-specific module not accepted by this device's compiler: "
DEFAULT_EXPLANATIONS = os.path.join(ROOT, "docs", "waivers", "runtime-vs-ocloc-26.27.json")


def first_error_line(log):
    """The harness's firstErrorLine (test_common/harness/model/case.cpp): the compiler's first line naming an error."""
    skip = ("remark", "warning", "clbuildprogram:", "compilation from ir", "build failed with error code",
            "command was:")
    lines = [l.strip() for l in log.splitlines() if l.strip() and not l.strip().lower().startswith(skip)]
    for word in ("error", "fail", "not supported", "unsupported"):
        for line in lines:
            if word in line.lower():
                return line
    return lines[0] if lines else (log.split("\n")[0] or "(empty build log)")


def case_verdict(c):
    """("built" | "rejected" | None, first error line or NotSupported reason)."""
    status = c["status"]
    if status == "Waived":
        status = c.get("original_status", "")
    if status in ("Pass", "Flake"):
        return "built", ""
    if status == "Fail":
        if c.get("phase") == "build":
            return "rejected", first_error_line(c.get("build_log") or c.get("message", ""))
        return "built", ""
    if c["status"] == "NotSupported":
        msg = c.get("message", "")
        if msg.startswith(NOT_ACCEPTED):
            return "rejected", msg[len(NOT_ACCEPTED):]
        return None, msg.split("\n")[0]
    return None, "%s (no build verdict)" % c["status"]


def module_verdicts(report, manifest_cases):
    """{module: (verdict, first error line or reason)}; verdict "built", "rejected", "mixed" or None."""
    by_name = {c["name"]: c for c in report.get("cases", [])}
    out = {}
    for case in manifest_cases:
        module = case.get("module")
        if not module:
            continue
        got = by_name.get(case["name"])
        verdict, why = case_verdict(got) if got else (None, "not selected")
        old = out.get(module)
        if old is None or old[0] is None and verdict is not None:
            out[module] = (verdict, why)
        elif verdict is not None and verdict != old[0]:
            out[module] = ("mixed", "%s: %s" % (case["name"], why or verdict))
    return out


def load_manifest(path):
    doc = report_io.load_json(path, "manifest")
    cases = doc.get("cases") if isinstance(doc, dict) else None
    if not isinstance(cases, list) or not all(isinstance(c, dict) and isinstance(c.get("name"), str) and
                                              isinstance(c.get("module", ""), str) for c in cases):
        raise ReportError(path, "not a manifest (needs \"cases\": [{\"name\", \"module\"}, ...])")
    return cases


def load_explanations(path):
    doc = report_io.load_json(path, "explanations file")
    entries = doc.get("explanations") if isinstance(doc, dict) else None
    if not isinstance(entries, list) or not all(
            isinstance(e, dict) and isinstance(e.get("module"), str) and isinstance(e.get("reason"), str) and
            e["reason"].strip() and isinstance(e.get("products"), list) and e["products"] and
            all(isinstance(p, str) for p in e["products"]) for e in entries):
        raise ReportError(path, "not an explanations file (needs \"explanations\": [{\"module\": GLOB, "
                                "\"products\": [...], \"reason\": \"...\"}, ...])")
    return entries


def check_product(product, runtime, offline, manifest_cases, explanations, used):
    """Prints the product's disagreements and summary; returns the number of unexplained ones."""
    rt, off = module_verdicts(runtime, manifest_cases), module_verdicts(offline, manifest_cases)
    compared = agreed = explained = agreed_rejected = 0
    unexplained = []
    one_sided = {}
    for module in sorted(rt):
        (a, why_a), (b, why_b) = rt[module], off.get(module, (None, "not in the manifest"))
        if a is None and b is None:
            continue
        if a is None or b is None:
            side, why = ("offline only", why_a) if a is None else ("runtime only", why_b)
            key = "%s (runtime: %s)" % (side, why) if a is None else "%s (offline: %s)" % (side, why)
            one_sided[key] = one_sided.get(key, 0) + 1
            continue
        compared += 1
        if a == b and a != "mixed":
            agreed += 1
            agreed_rejected += a == "rejected"
            continue
        line = "%s %s: runtime %s%s; offline %s%s" % (product, module, a, ": " + why_a if why_a else "",
                                                      b, ": " + why_b if why_b else "")
        hit = next((i for i, e in enumerate(explanations)
                    if product in e["products"] and fnmatch.fnmatchcase(module, e["module"])), None)
        if hit is not None and "mixed" not in (a, b):
            used.add(hit)
            explained += 1
            print("EXPLAINED " + report_io.printable(line) + " -- " + explanations[hit]["reason"])
        else:
            unexplained.append(line)
            print("DISAGREE " + report_io.printable(line))
    for key, n in sorted(one_sided.items(), key=lambda kv: (-kv[1], kv[0])):
        print("  %s one-sided: %d module(s) %s" % (product, n, report_io.printable(key)))
    print("%s: %d modules compared, %d agreed (%d built, %d rejected), %d disagreements (%d explained), "
          "%d one-sided" % (product, compared, agreed, agreed - agreed_rejected, agreed_rejected, compared - agreed,
                            explained, sum(one_sided.values())))
    return len(unexplained)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pairs", nargs="*", metavar="PRODUCT=RUNTIME_REPORT,OFFLINE_REPORT")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--products", default=",".join(TARGETS))
    ap.add_argument("--manifest", default=None, help="default BUILD/assets/manifest.json")
    ap.add_argument("--explanations", default=None, help="default " + os.path.relpath(DEFAULT_EXPLANATIONS, ROOT))
    ap.add_argument("--skip-missing", action="store_true", help="exit 77 when a report is absent")
    args = ap.parse_args()
    try:
        jobs = []
        for pair in args.pairs:
            m = re.fullmatch(r"([^=,]+)=([^,]+),([^,]+)", pair)
            if not m:
                raise ReportError(pair, "not PRODUCT=RUNTIME_REPORT,OFFLINE_REPORT")
            jobs.append(m.groups())
        if not jobs:
            for product in [p for p in args.products.split(",") if p]:
                if product not in TARGETS:
                    raise ReportError(product, "unknown product (one of %s)" % ", ".join(TARGETS))
                jobs.append((product, os.path.join(args.build_dir, "nohw", product, "results.json"),
                             os.path.join(args.build_dir, "offline_compiler", "current", TARGETS[product] + ".json")))
        manifest_cases = load_manifest(args.manifest or os.path.join(args.build_dir, "assets", "manifest.json"))
        explanations_path = args.explanations or DEFAULT_EXPLANATIONS
        explanations = [] if args.explanations is None and not os.path.exists(explanations_path) else \
            load_explanations(explanations_path)
        skipped, unexplained, used, checked = [], 0, set(), set()
        for product, runtime_path, offline_path in jobs:
            absent = [p for p in (runtime_path, offline_path) if not os.path.lexists(p)]
            if absent and args.skip_missing:
                skipped.append(product)
                print("skipped %s: no report %s" % (report_io.printable(product), report_io.printable(absent[0])))
                continue
            runtime, offline = report_io.load_report(runtime_path), report_io.load_report(offline_path)
            unexplained += check_product(product, runtime, offline, manifest_cases, explanations, used)
            checked.add(product)
    except ReportError as e:
        print("runtime_offline_cross_check: %s" % e, file=sys.stderr)
        return 2
    stale = [e for i, e in enumerate(explanations) if i not in used and checked & set(e["products"])]
    for e in stale:
        print("STALE explanation %s for %s: no disagreement of %s matches it" % (
            report_io.printable(e["module"]), ",".join(e["products"]), ",".join(sorted(checked & set(e["products"])))))
    print("%d unexplained disagreement(s), %d stale explanation(s)%s" % (
        unexplained, len(stale), "; skipped (no report): " + ", ".join(skipped) if skipped else ""))
    if unexplained or stale:
        return 1
    return 77 if skipped else 0


if __name__ == "__main__":
    sys.exit(main())
