#!/usr/bin/env python3
"""Gates a new run of spirv_intel_cts against a baseline (e.g. the last good driver): what changed, and whether
any of it is a regression.

Inputs are runner --json reports or merged shard reports (scripts/reports/merge_results.py). A case's status is its
"cases" status (Pass, Fail, NotSupported, InternalError, Crash, Timeout, Waived, Flake), NotRun when the report lists
it in "not_run", Skipped for a Waived case a waiver's "skip" kept from running ("original_status": "NotRun"),
absent when the report does not hold it at all; timings ("duration_ms", "phases",
"phase_totals") are not compared: timing is not a verdict. A regression is
- a case that passed in the baseline and does not pass in the new report: Fail, Crash, Timeout,
  InternalError, NotSupported, Flake (it failed before a --retry attempt passed; --allow=Pass:Flake accepts
  it), Skipped (a skip waiver keeps it from running: lost coverage; --allow=Pass:Skipped accepts it), NotRun or
  absent (a narrower selection loses cases: that is not a pass);
- a case that became Fail, Crash, Timeout or InternalError from any other status (NotSupported -> Fail, a
  waiver dropped: Waived -> Fail, a new case that fails).
Pass -> Waived (a known driver bug a --waiver-file covers, the case ran and failed) is "newly waived": listed, not a regression unless
--no-new-waivers is given. --allow=FROM:TO[:PATTERN] (repeatable) accepts a change, e.g. a deliberate loss:
--allow=Pass:NotSupported:*.sg32.* ; FROM and TO are statuses, Skipped, NotRun, absent or * (any); PATTERN uses
the runner's case patterns (* and ? anywhere, a group or dotted prefix covers its subtree; default: every
case). Allowed changes are listed apart.

Printed: notes (different devices, drivers, runtime packages, seeds, selections, an aborted run), the table of
transitions (baseline -> new: number of cases, regressions marked), then each section with its cases (at most
--show per section, then the count of the rest): regressions, allowed changes, newly waived, fixes, other
status changes, NotSupported changes, cases added and removed.

A run-level error in the new report ("errors": a corrupt case index, a missing manifest, an aborted run) is
listed first and fails the comparison as the runner and merge_results.py --fail-on-failures fail it: the new
run is not a complete run, whatever its cases say; the baseline's run-level errors are notes. An --allow that
accepted no change is a note too (a mistyped pattern would otherwise go unseen).

Exit status: 1 when there is a regression or the new report holds a run-level error (with --fail-on-change:
also any difference at all, e.g. to check that a sharded run reproduces an unsharded one), 0 otherwise, 2 for bad input: an unreadable or malformed report
(one line "compare_results: FILE: what is wrong"), a bad option, an --html output that names an input or
cannot be written. --html FILE also writes the same comparison as a self-contained page (atomically).

Usage: compare_results.py BASE.json NEW.json [--html FILE] [--show N] [--allow FROM:TO[:PATTERN]]...
                          [--no-new-waivers] [--fail-on-change]
"""

import argparse
import html
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: the import root
from reports import report_io  # noqa: E402  (the checked report loader, safe outputs)

FAILING = ("Fail", "Crash", "Timeout", "InternalError")
NOT_RUN = "NotRun"
ABSENT = "absent"
# A Waived case a waiver's "skip" kept from running ("original_status": "NotRun"): not run, so a Pass that
# became Skipped is lost coverage, unlike a Pass waived after it ran and failed.
SKIPPED = "Skipped"
KNOWN = report_io.STATUSES + (SKIPPED, NOT_RUN, ABSENT)
SECTIONS = [
    ("regressions", "Regressions (Pass -> not Pass, or anything -> Fail/Crash/Timeout/InternalError)"),
    ("allowed", "Allowed changes (--allow)"),
    ("waived", "Newly waived (Pass -> Waived after running)"),
    ("fixes", "Fixes (failing -> Pass)"),
    ("changed", "Other status changes"),
    ("not_supported", "NotSupported changes"),
    ("added", "Cases added"),
    ("removed", "Cases removed"),
]


class CompareError(Exception):
    pass


def statuses(path):
    """name -> status of every case the report selected (not-run cases as NotRun)."""
    doc = report_io.load_report(path)
    short = {"pass": "Pass", "skip": "NotSupported", "fail": "Fail"}
    out = {name: short.get(s, "Fail") for name, s in doc["results"].items()}
    for c in doc.get("cases", []):
        out[c["name"]] = SKIPPED if c.get("original_status") == "NotRun" else c["status"]
    for name in doc.get("not_run", []):
        out[name] = NOT_RUN
    return doc, out


def pattern_regex(pattern):
    """The runner's pattern semantics: * and ? anywhere, and a pattern matching a dotted prefix covers the
    subtree under it."""
    return re.compile("".join(".*" if ch == "*" else "." if ch == "?" else re.escape(ch) for ch in pattern) +
                      r"(\..*)?\Z")


def parse_allow(text):
    """FROM:TO[:PATTERN] -> (from, to, regex or None)."""
    parts = text.split(":")
    if len(parts) not in (2, 3):
        raise CompareError("--allow=%s: needs FROM:TO or FROM:TO:PATTERN, e.g. Pass:NotSupported:*.sg32.*"
                           % text)
    for status in parts[:2]:
        if status != "*" and status not in KNOWN:
            raise CompareError("--allow=%s: unknown status %r (known: %s, or *)" % (text, status, ", ".join(KNOWN)))
    pattern = parts[2] if len(parts) == 3 else None
    if pattern is not None and not re.fullmatch(r"[a-z0-9_.*?]+", pattern):
        raise CompareError("--allow=%s: a case pattern holds only lowercase letters, digits, _, ., * and ?" % text)
    return parts[0], parts[1], pattern_regex(pattern) if pattern else None


def is_regression(b, n, waived_regresses):
    if b == n:
        return False
    if n in FAILING:
        return True
    if b == "Pass":
        return n != "Waived" or waived_regresses
    return False


def compare(base, new, allows=(), waived_regresses=False, used=None):
    """Returns ({section: [(name, base status, new status)]}, {(base status, new status): count}); a status is
    ABSENT where a report lacks the case. used, a set, receives the index in allows of each --allow that
    accepted a change."""
    found = {key: [] for key, _ in SECTIONS}
    transitions = {}
    used = set() if used is None else used
    for name in sorted(set(base) | set(new)):
        b, n = base.get(name, ABSENT), new.get(name, ABSENT)
        transitions[(b, n)] = transitions.get((b, n), 0) + 1
        row = (name, b, n)
        if b == n:
            continue
        if is_regression(b, n, waived_regresses):
            allowed = [i for i, (f, t, rx) in enumerate(allows)
                       if f in ("*", b) and t in ("*", n) and (rx is None or rx.match(name))]
            used.update(allowed)
            found["allowed" if allowed else "regressions"].append(row)
        elif b == "Pass" and n == "Waived":
            found["waived"].append(row)
        elif b == ABSENT:
            found["added"].append(row)
        elif n == ABSENT:
            found["removed"].append(row)
        elif n == "Pass" and b != "NotSupported":
            found["fixes"].append(row)
        elif "NotSupported" in (b, n):
            found["not_supported"].append(row)
        else:
            found["changed"].append(row)
    return found, transitions


def check_modes(base_doc, new_doc, allow_mix):
    """A --build-only report's Pass means built with its kernel queries right, not a right result: set against
    a run that executed its kernels, every difference would mean something else. Refused unless allowed."""
    modes = [bool(d.get("build_only")) for d in (base_doc, new_doc)]
    if modes[0] != modes[1] and not allow_mix:
        raise CompareError("the %s report is from a --build-only run (no kernel launched) and the %s is not: their "
                           "verdicts mean different things (--allow-build-only-mix to compare them anyway)" % (
                               ("baseline", "new") if modes[0] else ("new", "baseline")))


def notes(base_doc, new_doc, unused_allows=()):
    out = ["--allow=%s accepted no change: nothing in these reports needed it (a typo, or the change is gone)" % a
           for a in unused_allows]
    for key in ("platform", "device", "driver", "runtime_package", "offline_compiler", "seed", "build_only"):
        if key in base_doc and key in new_doc and base_doc[key] != new_doc[key]:
            out.append("%s differs: %r (baseline) vs %r (new)" % (key, base_doc[key], new_doc[key]))
    sel = [d.get("selection") for d in (base_doc, new_doc)]
    if sel[0] is None or sel[1] is None:
        if sel[0] is not None or sel[1] is not None:
            out.append("only the %s report records what selected its cases (\"selection\")" % (
                "baseline" if sel[0] is not None else "new"))
    elif sel[0] != sel[1]:
        diffs = ["%s %s vs %s" % (k, json.dumps(sel[0].get(k)), json.dumps(sel[1].get(k)))
                 for k in sorted(set(sel[0]) | set(sel[1])) if sel[0].get(k) != sel[1].get(k)]
        out.append("the reports selected their cases differently (baseline vs new): %s" % "; ".join(diffs))
    for error in base_doc.get("errors", []):
        out.append("the baseline run recorded a run-level error: %s" % error)
    for label, doc in (("baseline", base_doc), ("new", new_doc)):
        if doc.get("aborted"):
            out.append("the %s run was aborted (%s): %d case(s) not run" % (label, doc["aborted"],
                                                                         len(doc.get("not_run", []))))
    return out


def transition_rows(transitions, waived_regresses):
    order = {s: i for i, s in enumerate(KNOWN)}
    return [(b, n, count, is_regression(b, n, waived_regresses)) for (b, n), count in
            sorted(transitions.items(), key=lambda kv: (order.get(kv[0][0], 99), kv[0][0], order.get(kv[0][1], 99),
                                                        kv[0][1]))]


def text_report(found, rows, note_lines, show, run_errors=()):
    lines = ["note: " + n for n in note_lines]
    if run_errors:
        lines.append("Run-level errors in the new report (the run itself went wrong): %d" % len(run_errors))
        lines += ["  " + e for e in run_errors]
    lines.append("Transitions (baseline -> new: cases; ! = regression unless allowed):")
    lines += ["  %-14s -> %-14s %7d%s" % (b, n, count, "  !" if bad else "") for b, n, count, bad in rows]
    for key, title in SECTIONS:
        found_rows = found[key]
        lines.append("%s: %d" % (title, len(found_rows)))
        for name, b, n in found_rows[:show]:
            lines.append("  %s  %s -> %s" % (name, b, n))
        if len(found_rows) > show:
            lines.append("  ... and %d more" % (len(found_rows) - show))
    return "".join(report_io.printable(line) + "\n" for line in lines)  # names and notes come from the reports


def html_report(found, rows, note_lines, base_path, new_path, run_errors=()):
    esc = report_io.html_text
    parts = ["<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>spirv_intel_cts comparison</title>",
             "<style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:2px 6px;font-family:monospace}tr.bad td{color:#b00}"
             ".regressions summary{color:#b00;font-weight:bold}.fixes summary{color:#070}</style></head><body>",
             "<h1>Comparison</h1><p>baseline <code>%s</code>, new <code>%s</code></p>" % (esc(base_path),
                                                                                       esc(new_path))]
    parts += ["<p class=\"note\">note: %s</p>" % esc(n) for n in note_lines]
    if run_errors:
        parts.append("<h2 class=\"errors\">Run-level errors in the new report: %d</h2><ul>" % len(run_errors))
        parts += ["<li>%s</li>" % esc(e) for e in run_errors]
        parts.append("</ul>")
    parts.append("<h2>Transitions</h2><table class=\"transitions\"><tr><th>baseline</th><th>new</th><th>cases</th>"
                 "<th>regression</th></tr>")
    parts += ["<tr%s><td>%s</td><td>%s</td><td>%d</td><td>%s</td></tr>" % (
        " class=\"bad\"" if bad else "", esc(b), esc(n), count, "yes" if bad else "") for b, n, count, bad in rows]
    parts.append("</table>")
    for key, title in SECTIONS:
        found_rows = found[key]
        parts.append("<details class=\"%s\"%s><summary>%s: %d</summary>" % (
            key, " open" if key == "regressions" and found_rows else "", esc(title), len(found_rows)))
        if found_rows:
            parts.append("<table><tr><th>case</th><th>baseline</th><th>new</th></tr>")
            parts += ["<tr><td>%s</td><td>%s</td><td>%s</td></tr>" % (esc(name), esc(b), esc(n))
                      for name, b, n in found_rows]
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
    ap.add_argument("--allow", action="append", default=[], metavar="FROM:TO[:PATTERN]",
                    help="accept this change (repeatable), e.g. Pass:NotSupported:*.sg32.*")
    ap.add_argument("--no-new-waivers", action="store_true", help="a Pass that becomes Waived is a regression")
    ap.add_argument("--fail-on-change", action="store_true", help="exit 1 on any difference, not only regressions")
    ap.add_argument("--allow-build-only-mix", action="store_true",
                    help="compare a --build-only report with one that ran its kernels (refused otherwise)")
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    try:
        allows = [parse_allow(a) for a in args.allow]
        if args.html:
            report_io.check_output(args.html, (args.base, args.new))
        base_doc, base = statuses(args.base)
        new_doc, new = statuses(args.new)
        check_modes(base_doc, new_doc, args.allow_build_only_mix)
        used = set()
        found, transitions = compare(base, new, allows, args.no_new_waivers, used)
        rows = transition_rows(transitions, args.no_new_waivers)
        note_lines = notes(base_doc, new_doc, [a for i, a in enumerate(args.allow) if i not in used])
        run_errors = new_doc.get("errors", [])
        sys.stdout.write(text_report(found, rows, note_lines, max(args.show, 0), run_errors))
        if args.html:
            report_io.write_output(args.html, html_report(found, rows, note_lines, args.base, args.new, run_errors),
                                   (args.base, args.new))
    except (CompareError, report_io.ReportError) as e:
        sys.stderr.write("compare_results: %s\n" % report_io.printable(e))
        return 2
    regressions = len(found["regressions"])
    changes = sum(len(r) for r in found.values())
    skipped = sum(1 for status in new.values() if status == SKIPPED)
    print("compare_results: %s, %d newly waived%s, %d allowed, %d change(s) in all%s" % (
        "%d regression(s)" % regressions if regressions else "no regression", len(found["waived"]),
        ", %d not run (skipped by a waiver)" % skipped if skipped else "",
        len(found["allowed"]), changes,
        "; %d run-level error(s) in the new report" % len(run_errors) if run_errors else ""))
    return 1 if regressions or run_errors or (args.fail_on_change and changes) else 0


if __name__ == "__main__":
    sys.exit(main())
