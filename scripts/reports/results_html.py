#!/usr/bin/env python3
"""Writes a self-contained HTML summary of spirv_intel_cts JSON reports (--json=FILE or merge_results.py).

The page has a header (platform, device, driver, runtime package, seed, quick/extended, command, totals by
status), then one grid per top-level group: rows are the second level of the case name (the operation, e.g.
shuffle_down), columns the third level (e.g. the type or element size), and each cell counts its cases by
status, each status under its own word and colour (pass, fail, crash, timeout, error = InternalError, waived = a known failure a
--waiver-file covers, skipped = a case a waiver's "skip" kept from running (also counted in the header with its
share of the selection), flake = failed and then passed on a --retry attempt, skip = NotSupported, other = an unknown
status), the cell coloured red when any case did not pass (Fail, Crash, Timeout, InternalError), amber when a
failure was waived, teal when a case was Flake, green when all passed, grey
when none was supported. A table before the grids totals every group with one column per status. Wide grids
scroll sideways in a box of their own, with the row names kept in view. Then it lists every case that neither
passed nor was NotSupported, with its message and mismatch picture, grouped by group and operation and
collapsed (failures_html.py; --open-failures expands them; the pictures of the first --max-pictures cases of
each operation are drawn), the stale waivers, and the NotSupported reasons with their counts. Several inputs
are merged first with the rules of merge_results.py
(shards of one run: the same selection and device, every shard once, no case twice). An aborted run (one
report or a shard) is refused, as merge_results.py refuses it, unless --allow-aborted is given: its not-run
cases are then counted as NotRun (their own column, red cells, listed with the cases that did not pass) and
the header says why the run stopped, so the totals still cover every selected case. Bad input (missing file,
not a regular file, not JSON, not a runner report, a wrong type anywhere) is one line "results_html: FILE:
what is wrong" and exit 2, as is an output that names one of the inputs; the page replaces its file
atomically.

Usage: results_html.py report.json [more.json ...] -o summary.html [--title TEXT] [--open-failures] [--max-pictures N]
                      [--allow-aborted]
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: the import root
from reports import merge_results  # noqa: E402  (the shard rules)
from reports import report_io  # noqa: E402  (the checked report loader, safe outputs)
from reports import failures_html  # noqa: E402  (the grouped failure list with the mismatch pictures)

# NotRun: a case an aborted run selected and never ran ("not_run"); shown with --allow-aborted only.
# Skipped: a Waived case a waiver's "skip" kept from running ("original_status": "NotRun"), counted apart from
# the cases waived after they ran.
STATUS_ORDER = ("Pass", "Flake", "Fail", "Crash", "Timeout", "InternalError", "Waived", "Skipped", "NotSupported",
                "NotRun")
BAD = ("Fail", "Crash", "Timeout", "InternalError", "NotRun")
# Reports that carry only the CTS words ("results") and no "cases" details.
WORD_STATUS = {"pass": "Pass", "skip": "NotSupported", "fail": "Fail"}

CSS = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.85em; }
th, td { border: 1px solid #bbb; padding: 3px 6px; text-align: center; vertical-align: top; }
th { background: #eee; } th.row { text-align: left; }
table.meta th, table.meta td { text-align: left; }
table.meta td { overflow-wrap: anywhere; }
table.fails td { overflow-wrap: anywhere; }
table.totals td { text-align: right; } table.totals tr.all th, table.totals tr.all td { font-weight: bold; }
.gridwrap { max-width: 100%; overflow-x: auto; }
.gridwrap table { margin: 0; }
table.grid th.row { position: sticky; left: 0; z-index: 1; min-width: 8em; overflow-wrap: anywhere; }
table.grid th.corner { position: sticky; left: 0; z-index: 2; }
td.bad { background: #f4a6a6; } td.good { background: #a8e0a8; } td.mixed { background: #d8f0c8; }
td.unsup { background: #d0d0d0; } td.empty { background: #fff; }
pre { margin: 0; text-align: left; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.95em; }
span.n { display: block; white-space: nowrap; margin: 1px 0; padding: 0 4px; border-radius: 3px; }
.st-pass { background: #2e7d32; color: #fff; }
.st-fail { background: #c62828; color: #fff; }
.st-crash { background: #6a1b9a; color: #fff; }
.st-timeout { background: #ef6c00; color: #fff; }
.st-error { background: #1565c0; color: #fff; }
.st-skip { background: #757575; color: #fff; }
.st-waived { background: #f9a825; color: #000; } td.waived { background: #fbe3a0; }
.st-skipped { background: #fff; color: #000; border: 1px dashed #f9a825; }
.st-flake { background: #00838f; color: #fff; } td.flaky { background: #b2ebf2; }
.st-other { background: #4e342e; color: #fff; }
.st-notrun { background: #fff; color: #000; border: 1px dashed #c62828; }
"""
# The word (and CSS class st-WORD) under which each status is counted in a grid cell, in STATUS_ORDER; statuses
# the runner does not write (a newer or foreign report) are counted as "other".
STATUS_WORD = {"Pass": "pass", "Fail": "fail", "Crash": "crash", "Timeout": "timeout", "InternalError": "error",
               "Waived": "waived", "Skipped": "skipped", "NotSupported": "skip", "Flake": "flake", "NotRun": "notrun"}


def natural_key(text):
    """Orders i8 < i16 < i32 and sg8 < sg16 instead of by characters."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", text)]


def load_reports(paths, allow_aborted=False):
    """Returns one report dict and its cases, each not-run case of an aborted run as NotRun; raises
    merge_results.MergeError or report_io.ReportError on bad input (report_io checks every type). An aborted
    run is refused unless allow_aborted, one report as several (merge_results' rule)."""
    if len(paths) == 1:
        doc = report_io.load_report(paths[0])
        if (doc.get("aborted") or doc.get("not_run")) and not allow_aborted:
            raise merge_results.MergeError(
                "%s: the run was aborted (%s): %d case(s) not run; re-run it, or pass --allow-aborted to show "
                "what finished" % (paths[0], doc.get("aborted") or "unknown reason", len(doc.get("not_run", []))))
    else:
        doc = merge_results.merge(paths, allow_aborted=allow_aborted)
    cases = list(doc.get("cases") or [])
    if not cases:
        cases = [{"name": n, "status": WORD_STATUS.get(w, "Fail"), "message": ""}
                 for n, w in sorted(doc["results"].items())]
    cases = [dict(c, status="Skipped") if c.get("original_status") == "NotRun" else c for c in cases]
    cases += [{"name": n, "status": "NotRun", "message": "not run: the run was aborted (%s)" % doc.get("aborted")}
              for n in doc.get("not_run", [])]
    return doc, cases


def cell_kind(counts):
    if any(counts.get(s) for s in BAD):
        return "bad"
    if counts.get("Waived") or counts.get("Skipped"):  # a known failure (--waiver-file): not red, not green either
        return "waived"
    if counts.get("Flake"):  # failed, then passed on a --retry attempt: not green
        return "flaky"
    total = sum(counts.values())
    if total == 0:
        return "empty"
    if counts.get("Pass", 0) == total:
        return "good"
    if counts.get("NotSupported", 0) == total:
        return "unsup"
    return "mixed"


def build_grids(cases):
    """{group: {row: {column: {status: count}}}} from dotted case names."""
    grids = {}
    for c in cases:
        parts = c["name"].split(".")
        group = parts[0]
        row = parts[1] if len(parts) > 1 else "(none)"
        col = parts[2] if len(parts) > 2 else "(none)"
        cell = grids.setdefault(group, {}).setdefault(row, {}).setdefault(col, {})
        cell[c["status"]] = cell.get(c["status"], 0) + 1
    return grids


def cell_html(counts):
    kind = cell_kind(counts)
    if kind == "empty":
        return '<td class="empty"></td>'
    values = [(STATUS_WORD[s], counts.get(s, 0)) for s in STATUS_ORDER]
    values.append(("other", sum(n for s, n in counts.items() if s not in STATUS_ORDER)))
    detail = ", ".join("%d %s" % (n, s) for s, n in sorted(counts.items()))
    spans = "".join('<span class="n st-%s">%d %s</span>' % (word, n, word) for word, n in values if n)
    return '<td class="%s" title="%s">%s</td>' % (kind, report_io.html_text(detail), spans)


def grid_html(group, rows):
    cols = sorted({col for cells in rows.values() for col in cells}, key=natural_key)
    out = ["<h2>%s</h2>" % report_io.html_text(group), '<div class="gridwrap">', '<table class="grid">',
           '<tr><th class="corner"></th>%s</tr>' % "".join("<th>%s</th>" % report_io.html_text(c) for c in cols)]
    for row in sorted(rows, key=natural_key):
        cells = "".join(cell_html(rows[row].get(col, {})) for col in cols)
        out.append('<tr><th class="row">%s</th>%s</tr>' % (report_io.html_text(row), cells))
    out.append("</table>")
    out.append("</div>")
    return "\n".join(out)


def case_group(case):
    return case["name"].split(".")[0]


def case_tier(case):
    """The case's tier; reports older than tiers hold none."""
    return str(case.get("tier") or "(no tier recorded)")


def totals_html(cases, row_of=case_group, row_title="group"):
    """One row per top-level group (or per row_of(case)) and an "all" row; one column per status (and "other"
    when a report holds a status the runner does not write), then the total."""
    per_group = {}
    for c in cases:
        key = c["status"] if c["status"] in STATUS_ORDER else "other"
        row = per_group.setdefault(row_of(c), {})
        row[key] = row.get(key, 0) + 1
    # Waived and Flake columns only for runs that have them, like "other" only for unknown statuses.
    columns = [s for s in STATUS_ORDER
               if s not in ("Waived", "Skipped", "Flake", "NotRun") or any(s in row for row in per_group.values())]
    if any("other" in row for row in per_group.values()):
        columns.append("other")
    head = "".join('<th class="st-%s">%s</th>' % (STATUS_WORD.get(s, "other"), s) for s in columns)
    out = ['<table class="totals">', "<tr><th>%s</th>%s<th>total</th></tr>" % (report_io.html_text(row_title), head)]
    everything = {}
    for group in sorted(per_group, key=natural_key):
        row = per_group[group]
        for s, n in row.items():
            everything[s] = everything.get(s, 0) + n
        out.append('<tr><th class="row">%s</th>%s<td>%d</td></tr>' % (
            report_io.html_text(group), "".join("<td>%d</td>" % row.get(s, 0) for s in columns), sum(row.values())))
    out.append('<tr class="all"><th class="row">all</th>%s<td>%d</td></tr>' % (
        "".join("<td>%d</td>" % everything.get(s, 0) for s in columns), sum(everything.values())))
    out.append("</table>")
    return "\n".join(out)


def flag_text(doc, key):
    if key in doc:
        return "yes" if doc[key] else "no"
    # Older reports lack the key; the command line still says whether the flag was given.
    return "yes" if ("--" + key) in str(doc.get("cmd", "")).split() else "no (not recorded; absent from cmd)"


def runtime_text(doc):
    """The installed package of the driver ("" in a report: the runner could not tell which)."""
    if "runtime_package" not in doc:
        return "not recorded"
    return doc["runtime_package"] or "unknown"


def render(doc, cases, title, open_failures=False, max_pictures=failures_html.MAX_PICTURES):
    e = report_io.html_text
    totals = {}
    for c in cases:
        totals[c["status"]] = totals.get(c["status"], 0) + 1
    total_text = ", ".join("%d %s" % (totals[s], s) for s in sorted(
        totals, key=lambda s: (STATUS_ORDER.index(s) if s in STATUS_ORDER else len(STATUS_ORDER), s)))
    meta = [("Platform", doc.get("platform", "")), ("Device", doc.get("device", "")),
            ("Driver", doc.get("driver", "")), ("Runtime package", runtime_text(doc)),
            ("Seed", doc.get("seed", "")),
            ("Quick", flag_text(doc, "quick")), ("Extended", flag_text(doc, "extended")),
            ("Command", doc.get("cmd", "")), ("Cases", "%d: %s" % (len(cases), total_text or "none"))]
    if totals.get("Skipped"):  # loud: a skip can cover any share of a run
        meta.append(("Not run (skipped)", "%d of %d selected case(s) (%.1f%%): recorded Waived without running by "
                     "waiver \"skip\" entries" % (totals["Skipped"], doc.get("selected", len(cases)),
                                                  100.0 * totals["Skipped"] / max(doc.get("selected", len(cases)), 1))))
    if doc.get("aborted"):
        meta.append(("Aborted", "%s: %d selected case(s) not run" % (doc["aborted"], len(doc.get("not_run", [])))))
    offline = doc.get("offline_compiler")
    if isinstance(offline, dict):
        # The offline-compiler mode: modules were built for a target, nothing ran on a device.
        meta.insert(3, ("Offline compiler", offline.get("compiler", "")))
        meta.insert(4, ("Target", "%s (%s)" % (offline.get("target", ""), offline.get("target_description", ""))))
    if doc.get("build_only"):
        # --build-only: every module built and its kernel queries checked on the driver, no kernel launched.
        meta.insert(3, ("Mode", "build-only: a Pass is a module built with its kernel queries right; no kernel ran"))
    if doc.get("shards"):
        meta.append(("Shards", "; ".join("%s (%s cases)" % (s.get("file", "?"), s.get("cases", "?"))
                                         for s in doc["shards"] if isinstance(s, dict))))
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">', "<title>%s</title>" % e(title),
           "<style>%s</style></head><body>" % (CSS + failures_html.CSS), "<h1>%s</h1>" % e(title), '<table class="meta">']
    out += ["<tr><th>%s</th><td>%s</td></tr>" % (e(k), e(str(v))) for k, v in meta]
    out.append("</table>")
    gaps = [g for g in doc.get("version_gaps") or [] if isinstance(g, dict)]
    if gaps:
        # Where a reader looks first: the device reports an extension below the version that promises its
        # SPIR-V environment, so its cases ran as device_specific (still judged in full).
        out.append('<h2 id="version-gaps">Version gaps</h2><ul>%s</ul>' % "".join(
            "<li>%s %s: SPIR-V support is promised from %s; its %s case(s) ran as device_specific</li>" % (
                e(str(g.get("extension", ""))), e(str(g.get("reported", ""))),
                e(str(g.get("promised_from") or "a later version")), e(str(g.get("cases", "?")))) for g in gaps))
    errors = doc.get("errors") or []
    if errors:
        out.append("<h2>Run-level errors</h2><ul>%s</ul>" % "".join(
            "<li><pre>%s</pre></li>" % e(str(x)) for x in errors))
    out.append("<h2>Totals</h2>")
    out.append(totals_html(cases))
    out.append("<h2>Totals per tier</h2>")
    out.append("<p>core: the OpenCL environment promises that a device reporting the case's extensions builds its "
               "module (a build failure is a Fail in phase build); device_specific: valid SPIR-V beyond that "
               "promise (a build failure is NotSupported).</p>")
    out.append(totals_html(cases, case_tier, "tier").replace('<table class="totals">', '<table class="totals tiers">', 1))
    out.append("<p>Cells: rows are the operation (second name level), columns the third level; each cell counts "
               "its cases by status: %s. Cell colour: red: a case failed, crashed, timed out or hit an internal "
               "error; amber: a failure was waived (a known failure); teal: a case was Flake (it failed, then passed on a "
               "--retry attempt); green: all passed; pale green: passes and NotSupported; grey: all NotSupported. A wide "
               "grid scrolls sideways.</p>" % ", ".join(
                   '<span class="st-%s">&nbsp;%s&nbsp;</span>%s' % (w, w, "" if w == s.lower() else " (%s)" % s)
                   for s, w in list(STATUS_WORD.items()) + [("a status this page does not know", "other")]))
    grids = build_grids(cases)
    for group in sorted(grids, key=natural_key):
        out.append(grid_html(group, grids[group]))
    bad = [c for c in cases if c["status"] not in ("Pass", "NotSupported")]
    out.append('<h2 id="failures">Cases that did not pass (%d)</h2>' % len(bad))
    if bad:
        out.append(failures_html.failures_html(bad, open_failures, max_pictures))
    stale = (doc.get("waivers") or {}).get("stale") or []
    if stale:
        out.append("<h2>Stale waivers (%d)</h2><ul>%s</ul>" % (len(stale), "".join(
            "<li>%s</li>" % e(str(s)) for s in stale)))
    reasons = {}
    for c in cases:
        if c["status"] == "NotSupported":
            reason = c.get("message", "") or "(no reason given)"
            reasons[reason] = reasons.get(reason, 0) + 1
    out.append("<h2>NotSupported reasons (%d cases)</h2>" % totals.get("NotSupported", 0))
    if reasons:
        out.append('<table class="reasons"><tr><th>reason</th><th>cases</th></tr>')
        out += ["<tr><td><pre>%s</pre></td><td>%d</td></tr>" % (e(r), n)
                for r, n in sorted(reasons.items(), key=lambda rn: (-rn[1], rn[0]))]
        out.append("</table>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reports", nargs="+", help="runner --json reports (shards are merged) or a merged report")
    ap.add_argument("-o", "--output", required=True, help="HTML file to write")
    ap.add_argument("--title", default="spirv_intel_cts results", help="page title")
    ap.add_argument("--open-failures", action="store_true",
                    help="expand the failure list and every mismatch picture (for printing or a screenshot)")
    ap.add_argument("--allow-aborted", action="store_true",
                    help="show a run that was aborted: its not-run cases are counted as NotRun")
    ap.add_argument("--max-pictures", type=int, default=failures_html.MAX_PICTURES, metavar="N",
                    help="draw the mismatch pictures of the first N failing cases of each operation (default %(default)s)")
    args = ap.parse_args(argv)
    try:
        report_io.check_output(args.output, args.reports)
        doc, cases = load_reports(args.reports, args.allow_aborted)
        report_io.write_output(args.output, render(doc, cases, args.title, args.open_failures, args.max_pictures),
                               args.reports)
    except (merge_results.MergeError, report_io.ReportError) as err:
        print("results_html: %s" % report_io.printable(err), file=sys.stderr)
        return 2
    print("results_html: %d case(s) -> %s" % (len(cases), report_io.printable(args.output)), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
