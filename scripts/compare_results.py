#!/usr/bin/env python3
"""Compares two JSON reports of spirv_intel_cts (a baseline, e.g. the last good driver, and a new run): what
changed since the baseline.

Inputs are runner --json reports or merged shard reports (scripts/merge_results.py); both carry "cases" with
each case's status (Pass, Fail, NotSupported, InternalError, Crash, Timeout, Waived) and "not_run" with the
cases an aborted run never reached. Printed, each with the case names:
- regressions: Pass in the baseline, and Fail, Crash, Timeout, InternalError or not run in the new report;
- fixes: not Pass (nor NotSupported) in the baseline, Pass in the new report;
- other status changes among failing cases (e.g. Fail -> Crash), newly waived cases (Pass -> Waived);
- NotSupported changes (a case that became, or stopped being, NotSupported: a device or driver
  configuration change);
- cases added and removed (present in only one report).
A note says when the two reports come from different devices, drivers, runtime packages or seeds.

Exit status: 1 when there is a regression (with --fail-on-change: any difference at all, e.g. to check that
a sharded run reproduces an unsharded one), 0 otherwise, 2 for bad input (unreadable or malformed report, bad
option, an output that cannot be written). --html FILE also writes the same comparison as a self-contained page.

Usage: compare_results.py BASE.json NEW.json [--html FILE] [--show N] [--fail-on-change]
"""

import argparse
import html
import json
import sys

import merge_results

FAILING = ("Fail", "Crash", "Timeout", "InternalError")
NOT_RUN = "NotRun"
SECTIONS = [
    ("regressions", "Regressions (Pass -> failing or not run)"),
    ("fixes", "Fixes (failing -> Pass)"),
    ("changed", "Other status changes"),
    ("waived", "Newly waived (Pass -> Waived)"),
    ("not_supported", "NotSupported changes"),
    ("added", "Cases added"),
    ("removed", "Cases removed"),
]


class CompareError(Exception):
    pass


def statuses(path):
    """name -> status of every case the report selected (not-run cases as NotRun)."""
    try:
        doc = merge_results.load(path)
    except merge_results.MergeError as e:
        raise CompareError(str(e))
    short = {"pass": "Pass", "skip": "NotSupported", "fail": "Fail"}
    out = {name: short.get(s, "Fail") for name, s in doc["results"].items()}
    for c in doc.get("cases", []):
        out[c["name"]] = c["status"]
    for name in merge_results.not_run_of(path, doc):
        out[name] = NOT_RUN
    return doc, out


def compare(base, new):
    """Returns {section: [(name, base status or None, new status or None)]}."""
    found = {key: [] for key, _ in SECTIONS}
    for name in sorted(set(base) | set(new)):
        b, n = base.get(name), new.get(name)
        if b is None:
            found["added"].append((name, b, n))
        elif n is None:
            found["removed"].append((name, b, n))
        elif b == n:
            continue
        elif b == "Pass" and (n in FAILING or n == NOT_RUN):
            found["regressions"].append((name, b, n))
        elif b == "Pass" and n == "Waived":
            found["waived"].append((name, b, n))
        elif n == "Pass" and b != "NotSupported":
            found["fixes"].append((name, b, n))
        elif "NotSupported" in (b, n):
            found["not_supported"].append((name, b, n))
        else:
            found["changed"].append((name, b, n))
    return found


def notes(base_doc, new_doc):
    out = []
    for key in ("platform", "device", "driver", "runtime_package", "offline_compiler", "seed"):
        if key in base_doc and key in new_doc and base_doc[key] != new_doc[key]:
            out.append("%s differs: %r (baseline) vs %r (new)" % (key, base_doc[key], new_doc[key]))
    return out


def text_report(found, note_lines, show):
    lines = ["note: " + n for n in note_lines]
    for key, title in SECTIONS:
        rows = found[key]
        lines.append("%s: %d" % (title, len(rows)))
        for name, b, n in rows[:show]:
            lines.append("  %s  %s -> %s" % (name, b or "-", n or "-"))
        if len(rows) > show:
            lines.append("  ... and %d more" % (len(rows) - show))
    return "\n".join(lines) + "\n"


def html_report(found, note_lines, base_path, new_path):
    esc = html.escape
    parts = ["<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>spirv_intel_cts comparison</title>",
             "<style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:2px 6px;font-family:monospace}"
             ".regressions summary{color:#b00;font-weight:bold}.fixes summary{color:#070}</style></head><body>",
             "<h1>Comparison</h1><p>baseline <code>%s</code>, new <code>%s</code></p>" % (esc(base_path),
                                                                                       esc(new_path))]
    parts += ["<p class=\"note\">note: %s</p>" % esc(n) for n in note_lines]
    for key, title in SECTIONS:
        rows = found[key]
        parts.append("<details class=\"%s\"%s><summary>%s: %d</summary>" % (
            key, " open" if key == "regressions" and rows else "", esc(title), len(rows)))
        if rows:
            parts.append("<table><tr><th>case</th><th>baseline</th><th>new</th></tr>")
            parts += ["<tr><td>%s</td><td>%s</td><td>%s</td></tr>" % (esc(name), esc(b or "-"), esc(n or "-"))
                      for name, b, n in rows]
            parts.append("</table>")
        parts.append("</details>")
    parts.append("</body></html>\n")
    return "".join(parts)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base", help="baseline report (JSON)")
    ap.add_argument("new", help="new report (JSON)")
    ap.add_argument("--html", metavar="FILE", help="also write the comparison as an HTML page")
    ap.add_argument("--show", type=int, default=50, metavar="N", help="case names printed per section (50)")
    ap.add_argument("--fail-on-change", action="store_true", help="exit 1 on any difference, not only regressions")
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    try:
        base_doc, base = statuses(args.base)
        new_doc, new = statuses(args.new)
        found = compare(base, new)
        note_lines = notes(base_doc, new_doc)
        sys.stdout.write(text_report(found, note_lines, max(args.show, 0)))
        if args.html:
            try:
                merge_results.write_output(args.html, html_report(found, note_lines, args.base, args.new))
            except merge_results.MergeError as e:
                raise CompareError(str(e))
    except CompareError as e:
        sys.stderr.write("compare_results: %s\n" % e)
        return 2
    regressions = len(found["regressions"])
    changes = sum(len(rows) for rows in found.values())
    print("compare_results: %s, %d change(s) in all" % (
        "%d regression(s)" % regressions if regressions else "no regression", changes))
    return 1 if regressions or (args.fail_on_change and changes) else 0


if __name__ == "__main__":
    sys.exit(main())
