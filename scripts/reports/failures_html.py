"""The "Cases that did not pass" part of results_html.py's page: failures grouped by top-level group and
operation (the first two name levels) with counts, each group collapsed (<details>), each case with its message
and, when the runner recorded one ("mismatches" in the case's JSON entry), its mismatch picture in an entry of
its own: every grid (a 2D block, a media region, an MMA Result or GEMM D matrix, a sub-group's lanes x
components) as a compact table with the mismatching cells marked (colour and a symbol: the "marked" runs of
positions and the "cells" with values) and "row r column c: expected 0x.. actual 0x.." on hover. Plain HTML and CSS, no script, so the page stays self-contained.

A large grid (a whole surface) is drawn as a window of at most MAX_SIDE rows and columns around the first
marked cells, and says which part it shows.
"""

import re

from reports import report_io  # printable text for a page

MAX_SIDE = 64  # rows or columns drawn per grid at most
MARK = "\u2716"  # the symbol in a mismatching cell, so the mark does not rely on colour alone
MAX_POSITIONS = 1 << 16  # marked positions read per grid at most
MAX_PICTURES = 20  # cases per operation whose pictures are drawn: a page of a thousand failures stays loadable

CSS = """
details.fgroup, details.fop { margin: 0.3em 0; } details.fop { margin-left: 1.2em; }
details > summary { cursor: pointer; } details.fgroup > summary { font-weight: bold; }
details.pic { margin-top: 0.3em; text-align: left; } .picnote { font-size: 0.85em; margin: 0.3em 0 0.1em; }
table.pic { border-collapse: collapse; font-size: 0.65em; margin: 0.2em 0 0.6em; }
table.pic th, table.pic td { border: 1px solid #ccc; padding: 0; min-width: 1.4em; height: 1.4em;
  text-align: center; vertical-align: middle; line-height: 1.4em; }
table.pic th { background: #f4f4f4; color: #555; font-weight: normal; }
table.pic td { background: #fafafa; }
table.pic td.mis { background: #d32f2f; color: #fff; font-weight: bold; }
table.pic td.mis:hover { outline: 2px solid #000; }
"""


def _counts_text(cases):
    counts = {}
    for c in cases:
        counts[c["status"]] = counts.get(c["status"], 0) + 1
    return ", ".join("%d %s" % (n, s) for s, n in sorted(counts.items(), key=lambda sn: (-sn[1], sn[0])))


def _int(value, default=0):
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else default


def _window(size, marked):
    """First index and length of the part of one axis drawn: everything when it fits, else MAX_SIDE indices
    starting a little before the first marked one."""
    if size <= MAX_SIDE:
        return 0, size
    start = max(0, min(min(marked) - 2 if marked else 0, size - MAX_SIDE))
    return start, MAX_SIDE


def grid_html(grid):
    """One grid of a case's picture; tolerates a malformed entry (drawn as far as it makes sense)."""
    e = report_io.html_text
    rows, cols = _int(grid.get("rows")), _int(grid.get("cols"))
    row_axis, col_axis = str(grid.get("row_axis", "row")), str(grid.get("col_axis", "column"))
    cells = {}
    for cell in grid.get("cells") or []:
        if isinstance(cell, dict) and _int(cell.get("row"), -1) >= 0 and _int(cell.get("col"), -1) >= 0:
            cells.setdefault((cell["row"], cell["col"]), cell)
    for rc in _runs(grid.get("marked"), cols):
        cells.setdefault(rc, None)  # a position without recorded values
    inside = {rc: c for rc, c in cells.items() if rc[0] < rows and rc[1] < cols}
    r0, nr = _window(rows, [r for r, _ in inside])
    c0, nc = _window(cols, [c for _, c in inside])
    shown = {rc: c for rc, c in inside.items() if r0 <= rc[0] < r0 + nr and c0 <= rc[1] < c0 + nc}
    count = _int(grid.get("count"), len(cells))
    note = "%s: %d x %d (%s x %s), %d mismatching cell(s)" % (
        str(grid.get("title", "grid")), rows, cols, row_axis, col_axis, count)
    if count > len(cells):
        note += ", the first %d drawn" % len(cells)
    valued = sum(1 for c in cells.values() if c is not None)
    if valued < len(cells):
        note += "; values recorded for %d" % valued
    if (nr, nc) != (rows, cols):
        note += "; drawn: %s %d-%d, %s %d-%d" % (row_axis, r0, r0 + nr - 1, col_axis, c0, c0 + nc - 1)
    if len(shown) < len(cells):
        note += "; %d recorded cell(s) outside the drawing" % (len(cells) - len(shown))
    out = ['<p class="picnote">%s</p>' % e(note), '<table class="pic">',
           '<tr><th title="%s \\ %s"></th>%s</tr>' % (e(row_axis), e(col_axis), "".join(
               "<th>%d</th>" % c for c in range(c0, c0 + nc)))]
    for r in range(r0, r0 + nr):
        tds = []
        for c in range(c0, c0 + nc):
            if (r, c) not in shown:
                tds.append("<td></td>")  # the bulk of a page: kept minimal
                continue
            cell = shown[(r, c)]
            what = "mismatch (values recorded for the first cells only)" if cell is None else \
                "expected %s actual %s" % (cell.get("expected", "?"), cell.get("actual", "?"))
            tds.append('<td class="mis" title="%s">%s</td>' % (
                e("%s %d %s %d: %s" % (row_axis, r, col_axis, c, what)), MARK))
        out.append("<tr><th>%d</th>%s</tr>" % (r, "".join(tds)))
    out.append("</table>")
    return "\n".join(out)


def _runs(text, cols):
    """(row, col) of every position in "start+length,..." runs of row-major indices; none when malformed."""
    out = []
    if not isinstance(text, str) or not text or cols <= 0:
        return out
    try:
        for run in text.split(","):
            start, length = (int(x) for x in run.split("+"))
            # The runner records at most 4096 positions per grid: a forged report must not exhaust memory.
            out += [divmod(i, cols) for i in range(start, start + min(length, MAX_POSITIONS - len(out)))]
            if len(out) >= MAX_POSITIONS:
                break
    except ValueError:
        return []
    return out


def picture_html(case, open_=False, spent=None):
    """The case's mismatch picture as a collapsed entry; "" when the runner recorded none. spent=N: only the
    counts, as the page's budget of N pictures for this operation is spent."""
    mism = case.get("mismatches")
    grids = mism.get("grids") if isinstance(mism, dict) else None
    if not isinstance(grids, list) or not grids:
        return ""
    grids = [g for g in grids if isinstance(g, dict)]
    marked = sum(_int(g.get("count"), len(g.get("cells") or [])) for g in grids)
    summary = "mismatch picture: %d grid(s), %d cell(s) marked" % (len(grids), marked)
    omitted = _int(mism.get("omitted_cells"))
    if spent is not None:
        return '<p class="picnote">%s; not drawn: the page draws the first %d pictures of each operation ' \
            '(results_html.py --max-pictures)</p>' % (report_io.html_text(summary), spent)
    parts = [grid_html(g) for g in grids]
    if omitted:
        parts.append('<p class="picnote">%d more mismatching cell(s) in grids not recorded</p>' % omitted)
    return '<details class="pic"%s><summary>%s</summary>\n%s\n</details>' % (
        " open" if open_ else "", report_io.html_text(summary), "\n".join(parts))


def status_text(case):
    """"Waived (Fail): TRACKER" for a case a waiver covers, else its status; "in phase build" when the device's
    compiler rejected the module of a core case."""
    waiver = case.get("waiver")
    phase = " in phase %s" % case["phase"] if case.get("phase") else ""
    if case["status"] != "Waived" or not isinstance(waiver, dict):
        return case["status"] + phase
    return "Waived (%s%s): %s" % (case.get("original_status", "?"), phase, waiver.get("tracker", ""))


def build_log_html(case):
    """The build log of a case that failed in phase build, collapsed; "" otherwise."""
    if not case.get("phase") or not isinstance(case.get("build_log"), str):
        return ""
    return '<details class="pic"><summary>build log</summary><pre>%s</pre></details>' % report_io.html_text(
        case["build_log"])


def failures_html(bad, open_failures=False, max_pictures=MAX_PICTURES):
    """The grouped, collapsed list of the cases that did not pass (bad: case dicts, any order); the pictures of
    the first max_pictures cases of each operation are drawn, the others only counted."""
    e = report_io.html_text
    groups = {}
    for c in bad:
        parts = c["name"].split(".")
        groups.setdefault(parts[0], {}).setdefault(parts[1] if len(parts) > 1 else "(none)", []).append(c)
    opened = " open" if open_failures else ""
    out = []
    for group in sorted(groups, key=_natural):
        ops = groups[group]
        every = [c for cases in ops.values() for c in cases]
        out.append('<details class="fgroup"%s><summary>%s: %d (%s)</summary>' % (
            opened, e(group), len(every), e(_counts_text(every))))
        for op in sorted(ops, key=_natural):
            cases = sorted(ops[op], key=lambda c: _natural(c["name"]))
            out.append('<details class="fop"%s><summary>%s: %d (%s)</summary>' % (
                opened, e(op), len(cases), e(_counts_text(cases))))
            out.append('<table class="fails"><tr><th>case</th><th>tier</th><th>status</th><th>message</th></tr>')
            drawn = 0
            for c in cases:
                picture = picture_html(c, open_failures, None if drawn < max_pictures else max_pictures)
                drawn += 1 if picture else 0
                out.append('<tr><td class="row">%s</td><td>%s</td><td class="bad">%s</td><td><pre>%s</pre>%s%s</td>'
                           '</tr>' % (e(c["name"]), e(str(c.get("tier", ""))), e(status_text(c)),
                                      e(c.get("message", "")), build_log_html(c), picture))
            out.append("</table></details>")
        out.append("</details>")
    return "\n".join(out)


def _natural(text):
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", text)]
