#!/usr/bin/env python3
"""The hidden-assumption check: a case that catches a planted reference-device fault must pass on a correct
real driver. A case that catches a fault but fails on a real driver whose behaviour the spec allows checks
something the spec does not promise: a check too strict for real hardware.

    scripts/judges/hidden_assumption_check.py CATCHING.json REPORT.json [REPORT.json ...] [--show N]

CATCHING.json: scripts/faults/fault_campaign.py --catching-json (per fault, the cases that failed with it).
REPORT.json: the runner's --json report (or merged shards) of a real driver, e.g. Intel's OpenCL CPU runtime.

Per fault it prints how its catching cases ended on the driver. A catching case that Failed, Crashed or timed
out there is listed as SUSPECT; Waived cases are the driver's documented bugs (docs/known_driver_bugs.md) and
are counted apart; NotSupported cases did not run there. Exit 1 when a suspect remains, 0 otherwise, 2 for
unusable input (one line "hidden_assumption_check: FILE: what is wrong": not a regular file, not JSON, not of
the shape described above).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: the import root
from reports import report_io  # noqa: E402  (the checked report loader)


def load_catching(path):
    """{fault: [case, ...]} as fault_campaign.py --catching-json writes it."""
    doc = report_io.load_json(path, "fault_campaign.py --catching-json file")
    if not isinstance(doc, dict) or not all(isinstance(v, list) and all(isinstance(n, str) for n in v)
                                            for v in doc.values()):
        raise report_io.ReportError(path, "not {fault: [case, ...]} (fault_campaign.py --catching-json)")
    return doc


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("catching")
    ap.add_argument("reports", nargs="+")
    ap.add_argument("--show", type=int, default=5)
    args = ap.parse_args(argv)
    status = {}
    try:
        catching = load_catching(args.catching)
        for path in args.reports:
            for c in report_io.load_report(path).get("cases", []):
                status[c["name"]] = c["status"]
    except report_io.ReportError as e:
        print("hidden_assumption_check: %s" % e, file=sys.stderr)
        return 2
    ok = True
    for fault in sorted(catching):
        names = catching[fault]
        by = {}
        for n in names:
            by.setdefault(status.get(n, "not in report"), []).append(n)
        suspects = sorted(n for s in ("Fail", "Crash", "Timeout", "InternalError") for n in by.get(s, []))
        line = ", ".join("%d %s" % (len(v), k) for k, v in sorted(by.items()))
        print(report_io.printable("%-40s %5d catching case(s): %s" % (fault, len(names), line or "none")))
        if suspects:
            ok = False
            print("  SUSPECT (catches the fault, fails on the real driver): %s"
                  % report_io.printable(", ".join(suspects[:args.show])))
        if names and not by.get("Pass") and by.get("Waived"):
            print("  note: every catching case that ran is waived: the driver has this bug itself")
    print("hidden_assumption_check: %s" % ("no catching case fails on the real driver" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
