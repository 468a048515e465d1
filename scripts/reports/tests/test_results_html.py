"""Tests of scripts/reports/results_html.py on small reports shaped like the runner's --json output."""

import html.parser
import json
import os
import re
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR, TempFiles
from reports.tests.test_merge_results import SELECTION, WAIVER_RECORD
from reports import report_io

RESULTS_HTML = os.path.join(SCRIPTS_DIR, "reports/results_html.py")
RUNNER = os.environ.get("CTS_RUNNER", "")
NASTY = 'expected <0x1> & got "0x2"\nlane 3: \'x\' <script>'


def report(cases, **extra):
    doc = {"cmd": "spirv_intel_cts --json=r.json", "results": {}, "cases": [], "platform": "Plat",
           "device": "Dev<1>", "driver": "9.9", "seed": 42, "quick": True, "errors": []}
    for name, status, message in cases:
        doc["results"][name] = report_io.RESULT_WORD.get(status, "fail")
        doc["cases"].append(dict({"name": name, "status": status, "message": message, "duration_ms": 0.5,
                                  "seed": 1}, **WAIVER_RECORD if status == "Waived" else {}))
    doc.update(extra)
    return doc


def shard_report(cases, index, count, **extra):
    """A shard of one run as the runner writes it (selection, shard I/N, selected count)."""
    fields = {"selection": dict(SELECTION), "shard": {"index": index, "count": count}, "selected": len(cases),
              "not_run": [], "aborted": None}
    fields.update(extra)
    return report(cases, **fields)


SYNTHETIC = [
    ("subgroups.shuffle_down.i32.v1.sg16", "Pass", ""),
    ("subgroups.shuffle_down.i32.v1.sg32", "Pass", ""),
    ("subgroups.shuffle_down.i32.v1.sg8", "NotSupported", "sub-group size 8 not supported"),
    ("subgroups.shuffle_down.i8.v1.sg16", "Fail", NASTY),
    ("subgroups.shuffle_down.i8.v1.sg32", "Pass", ""),
    ("subgroups.shuffle_up.i32.v1.sg8", "NotSupported", "sub-group size 8 not supported"),
    ("subgroups.shuffle_up.i32.v2.sg8", "NotSupported", "sub-group size 8 not supported"),
    ("subgroups.shuffle_up.i8.v1.sg16", "Timeout", "exceeded 30 s"),
    ("2d_block_io.load_transform.e16.w8", "Pass", ""),
    ("2d_block_io.load_transform.e8.w8", "Crash", "signal 11"),
    ("2d_block_io.load_transform.e8.w16", "NotSupported", "no 2D block IO"),
]


def CSS_OF(text):
    return re.search(r"<style>(.*?)</style>", text, re.S).group(1)


class Parsed(html.parser.HTMLParser):
    """Collects grid cells as {(group, row, column): (class, text)}, <pre> texts, and start/end balance."""

    VOID = {"meta", "br", "hr", "img", "link", "input"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.group, self.cells, self.pres = [], None, {}, []
        self.cols, self.texts, self.row_cells, self.cell_class = [], [], [], None
        self.in_pre, self.pre, self.errors = False, [], []
        self.table_class, self.totals = None, []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)
        attrs = dict(attrs)
        if tag == "tr":
            self.texts, self.row_cells = [], []
        elif tag in ("td", "th"):
            self.texts, self.cell_class = [], attrs.get("class")
        elif tag == "h2":
            self.texts = []
        elif tag == "pre":
            self.in_pre, self.pre = True, []
        elif tag == "table" and attrs.get("class") == "grid":
            self.cols = None  # the next row names the columns
        if tag == "table":
            self.table_class = attrs.get("class")

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("unbalanced </%s> with open %r" % (tag, self.stack[-3:]))
        else:
            self.stack.pop()
        text = "".join(self.texts)
        if tag == "h2":
            self.group = text
        elif tag in ("td", "th"):
            self.row_cells.append((tag, self.cell_class, text))
        elif tag == "pre":
            self.in_pre = False
            self.pres.append("".join(self.pre))
        elif tag == "tr" and self.table_class == "totals":
            self.totals.append([t for _, _, t in self.row_cells])
        elif tag == "tr" and self.cols is None:
            self.cols = [t for _, _, t in self.row_cells[1:]]
        elif tag == "tr" and self.cols is not None and self.row_cells and self.row_cells[0][0] == "th" \
                and self.row_cells[0][1] == "row":
            row = self.row_cells[0][2]
            for col, (_, cls, text) in zip(self.cols, self.row_cells[1:]):
                self.cells[(self.group, row, col)] = (cls, text)
        elif tag == "table":
            self.cols = []

    def handle_data(self, data):
        self.texts.append(data)
        if self.in_pre:
            self.pre.append(data)


class ReportFiles(TempFiles):
    def run_tool(self, *args):
        out = os.path.join(self.tmp.name, "out.html")
        if os.path.exists(out):
            os.remove(out)
        p = subprocess.run([sys.executable, RESULTS_HTML, "-o", out] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        text = None
        if os.path.exists(out):
            with open(out, encoding="utf-8") as f:
                text = f.read()
        return p.returncode, text, p.stderr

    def parse(self, text):
        parsed = Parsed()
        parsed.feed(text)
        parsed.close()
        self.assertEqual(parsed.errors, [])
        self.assertEqual(parsed.stack, [])
        return parsed


class ResultsHtmlTest(ReportFiles, unittest.TestCase):
    def test_grid_counts_colours_and_escaping(self):
        rc, text, err = self.run_tool(self.write("r.json", report(SYNTHETIC)), "--title", "T & <t>")
        self.assertEqual(rc, 0, err)
        # Raw markup from messages and device names never reaches the page unescaped.
        self.assertNotIn("<script>", text)
        self.assertNotIn("Dev<1>", text)
        self.assertIn("Dev&lt;1&gt;", text)
        self.assertIn("&lt;0x1&gt; &amp; got &quot;0x2&quot;", text)
        self.assertIn("<title>T &amp; &lt;t&gt;</title>", text)
        self.assertNotIn("http", text.replace("<!DOCTYPE html>", ""))  # self-contained: no external assets
        parsed = self.parse(text)
        # The message round-trips through the parser intact, newlines included, inside a <pre>.
        self.assertIn(NASTY, parsed.pres)
        self.assertIn("sub-group size 8 not supported", parsed.pres)
        cells = parsed.cells
        self.assertEqual(cells[("subgroups", "shuffle_down", "i32")], ("mixed", "2 pass1 skip"))
        self.assertEqual(cells[("subgroups", "shuffle_down", "i8")], ("bad", "1 pass1 fail"))
        self.assertEqual(cells[("subgroups", "shuffle_up", "i32")], ("unsup", "2 skip"))
        self.assertEqual(cells[("subgroups", "shuffle_up", "i8")], ("bad", "1 timeout"))
        self.assertEqual(cells[("2d_block_io", "load_transform", "e16")], ("good", "1 pass"))
        self.assertEqual(cells[("2d_block_io", "load_transform", "e8")], ("bad", "1 crash1 skip"))
        self.assertEqual(len(cells), 6)
        # Columns sort by number: i8 before i32, e8 before e16.
        self.assertLess(text.index("<th>i8</th>"), text.index("<th>i32</th>"))
        self.assertLess(text.index("<th>e8</th>"), text.index("<th>e16</th>"))
        # Header totals, the non-passing list (Fail, Timeout, Crash; not NotSupported) and aggregated reasons.
        self.assertIn("11: 4 Pass, 1 Fail, 1 Crash, 1 Timeout, 4 NotSupported", text)
        self.assertIn("Cases that did not pass (3)", text)
        self.assertRegex(text, r"<tr><td><pre>sub-group size 8 not supported</pre></td><td>3</td></tr>")
        self.assertRegex(text, r"<tr><td><pre>no 2D block IO</pre></td><td>1</td></tr>")
        self.assertIn("<th>Seed</th><td>42</td>", text)
        self.assertIn("<th>Quick</th><td>yes</td>", text)
        self.assertIn("<th>Runtime package</th><td>not recorded</td>", text)  # a report without the field

    def test_run_details_show_the_runtime_package(self):
        for value, shown in (("intel-opencl-rt 2026.2.0", "intel-opencl-rt 2026.2.0"), ("", "unknown")):
            rc, text, err = self.run_tool(self.write("r.json", report(SYNTHETIC, runtime_package=value)))
            self.assertEqual(rc, 0, err)
            self.assertIn("<th>Runtime package</th><td>%s</td>" % shown, text)
        a = self.write("a.json", shard_report(SYNTHETIC[:4], 0, 2, runtime_package="p 1"))
        b = self.write("b.json", shard_report(SYNTHETIC[4:], 1, 2, runtime_package="p 2"))
        rc, text, err = self.run_tool(a, b)
        self.assertEqual(rc, 2)
        self.assertIn("runtime_package differs", err)

    def test_run_details_show_the_offline_compiler_and_target(self):
        offline = {"compiler": "ocloc 22.43.24595, IGC 1.0.12504 (/usr/bin/ocloc)", "target": "dg2-g10",
                   "target_description": "/x/targets/dg2-g10.json"}
        rc, text, err = self.run_tool(self.write("r.json", report(SYNTHETIC, offline_compiler=offline)))
        self.assertEqual(rc, 0, err)
        self.assertIn("<th>Offline compiler</th><td>ocloc 22.43.24595, IGC 1.0.12504 (/usr/bin/ocloc)</td>", text)
        self.assertIn("<th>Target</th><td>dg2-g10 (/x/targets/dg2-g10.json)</td>", text)
        rc, text, err = self.run_tool(self.write("d.json", report(SYNTHETIC)))
        self.assertNotIn("Offline compiler", text)
        # Shards built with other compilers or for other targets are not one run.
        a = self.write("a.json", shard_report(SYNTHETIC[:4], 0, 2, offline_compiler=offline))
        b = self.write("b.json", shard_report(SYNTHETIC[4:], 1, 2, offline_compiler=dict(offline, target="pvc")))
        rc, text, err = self.run_tool(a, b)
        self.assertEqual(rc, 2)
        self.assertIn("offline_compiler differs", err)

    def test_version_gaps_are_shown_first(self):
        gaps = [{"extension": "cl_intel_subgroup_2d_block_io", "reported": "1.0.0", "promised_from": "1.1.0",
                 "cases": 1}]
        doc = report(SYNTHETIC, version_gaps=gaps)
        doc["cases"][0]["version_gaps"] = ["cl_intel_subgroup_2d_block_io"]  # the count is of such cases
        rc, text, err = self.run_tool(self.write("r.json", doc))
        self.assertEqual(rc, 0, err)
        self.assertIn("<li>cl_intel_subgroup_2d_block_io 1.0.0: SPIR-V support is promised from 1.1.0; its 1 "
                      "case(s) ran as device_specific</li>", text)
        self.assertLess(text.index("Version gaps"), text.index("Totals"))
        rc, text, err = self.run_tool(self.write("d.json", report(SYNTHETIC)))
        self.assertNotIn("Version gaps", text)

    def test_crash_timeout_and_internal_error_are_their_own_statuses(self):
        cases = [("g.op.a.%d" % i, st, "m") for i, st in enumerate(
            ["Pass", "Fail", "Fail", "Crash", "Timeout", "Timeout", "Timeout", "InternalError", "NotSupported",
             "Timeout"])] + [("g.op.b.0", "Crash", "signal 6"), ("h.x.y", "Timeout", "t"), ("h.x.z", "Pass", "")]
        rc, text, err = self.run_tool(self.write("r.json", report(cases)))
        self.assertEqual(rc, 0, err)
        parsed = self.parse(text)
        # Each status is counted under its own word, in its own colour, never folded into "fail".
        self.assertEqual(parsed.cells[("g", "op", "a")],
                         ("bad", "1 pass2 fail1 crash4 timeout1 error1 skip"))
        # A status the runner does not write is a malformed report, not an "other" cell.
        rc2, _, err2 = self.run_tool(self.write("w.json", report(cases + [("g.op.a.10", "Weird", "m")])))
        self.assertEqual(rc2, 2, err2)
        self.assertIn('case g.op.a.10: "status" "Weird" is not one of', err2)
        self.assertEqual(parsed.cells[("g", "op", "b")], ("bad", "1 crash"))
        self.assertEqual(parsed.cells[("h", "x", "y")], ("bad", "1 timeout"))
        for word in ("pass", "fail", "crash", "timeout", "error", "skip"):
            self.assertRegex(text, r'<span class="n st-%s">\d+ %s</span>' % (word, word))
            self.assertRegex(CSS_OF(text), r"\.st-%s\s*\{[^}]*background" % word)
        colours = {re.search(r"\.st-%s\s*\{([^}]*)\}" % w, CSS_OF(text)).group(1)
                   for w in ("pass", "fail", "crash", "timeout", "error", "skip")}
        self.assertEqual(len(colours), 6, "every status needs a colour of its own")
        # The per-cell counts add up to the number of cases.
        counted = sum(int(n) for _, txt in parsed.cells.values() for n in re.findall(r"(\d+) [a-z]+", txt))
        self.assertEqual(counted, len(cases))
        # Totals: one column per status, one row per group, and an "all" row; the numbers add up.
        self.assertIn("13: 2 Pass, 2 Fail, 2 Crash, 5 Timeout, 1 InternalError, 1 NotSupported", text)
        self.assertEqual(parsed.totals[0], ["group", "Pass", "Fail", "Crash", "Timeout", "InternalError",
                                            "NotSupported", "total"])
        self.assertEqual(parsed.totals[1:], [["g", "1", "2", "2", "4", "1", "1", "11"],
                                             ["h", "1", "0", "0", "1", "0", "0", "2"],
                                             ["all", "2", "2", "2", "5", "1", "1", "13"]])
        self.assertIn("Cases that did not pass (10)", text)

    def test_waived_cases_have_their_own_count_colour_and_tracker(self):
        cases = [("g.op.a.0", "Pass", ""), ("g.op.a.1", "Waived", "lane 3 wrong"), ("g.op.b.0", "Pass", "")]
        doc = report(cases, waivers={"files": ["w.json"], "stale": ["waiver no longer needed: g.op.b.0 (T/2)"]})
        doc["cases"][1].update(original_status="Fail", waiver={"tracker": "https://t/1", "reason": "known"})
        rc, text, err = self.run_tool(self.write("r.json", doc))
        self.assertEqual(rc, 0, err)
        parsed = self.parse(text)
        self.assertEqual(parsed.cells[("g", "op", "a")], ("waived", "1 pass1 waived"))
        self.assertEqual(parsed.cells[("g", "op", "b")], ("good", "1 pass"))
        self.assertRegex(CSS_OF(text), r"\.st-waived\s*\{[^}]*background")
        self.assertEqual(parsed.totals[0], ["group", "Pass", "Fail", "Crash", "Timeout", "InternalError", "Waived",
                                            "NotSupported", "total"])
        self.assertEqual(parsed.totals[-1], ["all", "2", "0", "0", "0", "0", "1", "0", "3"])
        self.assertIn("Waived (Fail): https://t/1", text)
        self.assertIn("Stale waivers (1)", text)
        self.assertIn("waiver no longer needed: g.op.b.0 (T/2)", text)

    def test_flake_cases_have_their_own_count_colour_and_column(self):
        cases = [("g.op.a.0", "Pass", ""), ("g.op.a.1", "Flake", "passed on attempt 2 of 2 after:\nattempt 1: Fail: x"),
                 ("g.op.b.0", "Pass", "")]
        doc = report(cases)
        doc["cases"][1]["attempts"] = ["Fail: x", "Pass"]
        rc, text, err = self.run_tool(self.write("r.json", doc))
        self.assertEqual(rc, 0, err)
        parsed = self.parse(text)
        self.assertEqual(parsed.cells[("g", "op", "a")], ("flaky", "1 pass1 flake"))
        self.assertEqual(parsed.cells[("g", "op", "b")], ("good", "1 pass"))
        self.assertRegex(CSS_OF(text), r"\.st-flake\s*\{[^}]*background")
        self.assertEqual(parsed.totals[0], ["group", "Pass", "Flake", "Fail", "Crash", "Timeout", "InternalError",
                                            "NotSupported", "total"])
        self.assertEqual(parsed.totals[-1], ["all", "2", "1", "0", "0", "0", "0", "0", "3"])
        self.assertIn("attempt 1: Fail: x", text)

    def test_tiers_are_counted_and_a_build_failure_shows_its_log(self):
        cases = [("g.op.a.0", "Pass", ""), ("g.op.a.1", "Fail", "build of m.spv failed"),
                 ("g.op.b.0", "NotSupported", "device-specific module not accepted by this device's compiler: x")]
        doc = report(cases)
        for c, tier in zip(doc["cases"], ("core", "core", "device_specific")):
            c["tier"] = tier
        doc["cases"][1].update(phase="build", build_log="error: <no> such symbol")
        rc, text, err = self.run_tool(self.write("r.json", doc))
        self.assertEqual(rc, 0, err)
        self.parse(text)
        self.assertIn("Totals per tier", text)
        rows = re.findall(r'<tr><th class="row">(core|device_specific)</th>((?:<td>\d+</td>)+)</tr>', text)
        self.assertEqual([(t, re.findall(r"\d+", cells)[-1]) for t, cells in rows], [("core", "2"),
                                                                                    ("device_specific", "1")])
        self.assertIn("Fail in phase build", text)
        self.assertIn("error: &lt;no&gt; such symbol", text)

    def test_totals_without_unknown_statuses_have_no_other_column(self):
        rc, text, err = self.run_tool(self.write("r.json", report(SYNTHETIC)))
        self.assertEqual(rc, 0, err)
        totals = self.parse(text).totals
        self.assertEqual(totals[0], ["group", "Pass", "Fail", "Crash", "Timeout", "InternalError", "NotSupported",
                                     "total"])
        self.assertEqual(totals[-1], ["all", "4", "1", "1", "1", "0", "4", "11"])

    def test_wide_grid_scrolls_instead_of_running_off_the_page(self):
        cases = [("subgroups.op_%d.c%d.x" % (r, c), "Pass", "") for r in range(3) for c in range(80)]
        cases.append(("api." + "very_long_name_" * 20 + ".x", "Fail", "m"))
        long_cmd = "spirv_intel_cts " + "--filter=" + ":".join("subgroups.op_%d.c%d" % (i, i) for i in range(80))
        rc, text, err = self.run_tool(self.write("r.json", report(cases, cmd=long_cmd)))
        self.assertEqual(rc, 0, err)
        parsed = self.parse(text)
        css = CSS_OF(text)
        self.assertIn('<meta name="viewport" content="width=device-width, initial-scale=1">', text.split("<style>")[0])
        # Every grid sits in its own horizontally scrolling box no wider than the page.
        grids = text.count('<table class="grid">')
        self.assertEqual(grids, 2)
        self.assertEqual(len(re.findall(r'<div class="gridwrap">\s*<h2>[^<]*</h2>\s*<table class="grid">', text))
                         + len(re.findall(r'<h2>[^<]*</h2>\s*<div class="gridwrap">\s*<table class="grid">', text)),
                         grids)
        self.assertRegex(css, r"\.gridwrap\s*\{[^}]*overflow-x:\s*auto")
        self.assertRegex(css, r"\.gridwrap\s*\{[^}]*max-width:\s*100%")
        # The row names stay in view while scrolling, and long unbroken text (command, case names) wraps.
        self.assertRegex(css, r"table\.grid th\.row\s*\{[^}]*position:\s*sticky[^}]*left:\s*0")
        self.assertRegex(css, r"table\.meta td\s*\{[^}]*overflow-wrap:\s*anywhere")
        self.assertRegex(css, r"table\.fails td\s*\{[^}]*overflow-wrap:\s*anywhere")
        self.assertEqual(len(parsed.cells), 3 * 80 + 1)

    def test_shards_are_merged(self):
        a = self.write("a.json", shard_report(SYNTHETIC[:4], 0, 2))
        b = self.write("b.json", shard_report(SYNTHETIC[4:], 1, 2))
        rc, text, err = self.run_tool(a, b)
        self.assertEqual(rc, 0, err)
        cells = self.parse(text).cells
        self.assertEqual(cells[("subgroups", "shuffle_down", "i8")], ("bad", "1 pass1 fail"))
        self.assertIn("11: 4 Pass", text)

    def test_an_aborted_run_is_refused_unless_allowed_and_then_counts_its_not_run_cases(self):
        # Issue 30, item 22: one aborted report was drawn as if complete, its not-run cases in no total.
        doc = shard_report(SYNTHETIC[:3], 0, 1, aborted="SIGTERM", not_run=["subgroups.shuffle_up.i8.v1.sg16",
                                                                          "api.query.x"])
        doc["selected"] = 5
        path = self.write("aborted.json", doc)
        rc, text, err = self.run_tool(path)
        self.assertEqual(rc, 2, err)
        self.assertEqual(err, "results_html: %s: the run was aborted (SIGTERM): 2 case(s) not run; re-run it, or "
                              "pass --allow-aborted to show what finished\n" % path)
        self.assertIsNone(text)
        rc, text, err = self.run_tool(path, "--allow-aborted")
        self.assertEqual(rc, 0, err)
        self.assertIn("5: 2 Pass, 1 NotSupported, 2 NotRun", text)
        self.assertIn("<tr><th>Aborted</th><td>SIGTERM: 2 selected case(s) not run</td></tr>", text)
        totals = self.parse(text).totals
        self.assertEqual(totals[0][-2:], ["NotRun", "total"])
        self.assertEqual(totals[-1][0], "all")
        self.assertEqual(totals[-1][-2:], ["2", "5"])
        self.assertIn("not run: the run was aborted (SIGTERM)", text)
        # Shards go through merge_results' rule, the same option.
        a = self.write("a.json", doc)
        b = self.write("b.json", shard_report(SYNTHETIC[4:5], 1, 2))
        doc2 = dict(doc, shard={"index": 0, "count": 2})
        a = self.write("a.json", doc2)
        rc, text, err = self.run_tool(a, b)
        self.assertEqual(rc, 2, err)
        self.assertIn("--allow-aborted", err)
        rc, text, err = self.run_tool(a, b, "--allow-aborted")
        self.assertEqual(rc, 0, err)
        self.assertIn("6: 3 Pass, 1 NotSupported, 2 NotRun", text)

    def test_results_only_report(self):
        doc = {"results": {"api.query.sizes": "pass", "api.query.other": "skip", "api.x.y": "fail"}}
        rc, text, err = self.run_tool(self.write("r.json", doc))
        self.assertEqual(rc, 0, err)
        cells = self.parse(text).cells
        self.assertEqual(cells[("api", "query", "sizes")], ("good", "1 pass"))
        self.assertEqual(cells[("api", "x", "y")], ("bad", "1 fail"))

    def test_bad_input_exits_2_with_one_line(self):
        cases = [
            ([os.path.join(self.tmp.name, "missing.json")], "cannot read runner JSON report"),
            ([self.write("bad.json", "{not json")], "invalid JSON"),
            ([self.write("list.json", [1, 2])], "not a runner JSON report"),
            ([self.write("nores.json", {"cases": []})], "not a runner JSON report"),
            ([self.write("noname.json", {"results": {}, "cases": [{"status": "Pass"}]})],
             "needs a string name and status"),
            ([self.write("listname.json",
                         {"results": {}, "cases": [{"name": [1], "status": "Pass"}]})],
             "needs a string name and status"),
            ([self.write("d1.json", shard_report(SYNTHETIC[:1], 0, 2)),
              self.write("d2.json", shard_report(SYNTHETIC[1:2], 1, 2, seed=9))],
             "seed differs"),
            ([self.write("s1.json", shard_report(SYNTHETIC[:1], 0, 2)),
              self.write("s2.json", shard_report(SYNTHETIC[1:2], 1, 2, selection=dict(SELECTION, tier="core")))],
             "selection.tier differs"),
        ]
        for paths, words in cases:
            rc, text, err = self.run_tool(*paths)
            self.assertEqual(rc, 2, (paths, err))
            self.assertIsNone(text)
            self.assertIn(words, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertTrue(err.startswith("results_html: %s" % paths[0]), err)

    def test_output_naming_an_input_is_refused_and_the_input_kept(self):
        r = self.write("r.json", report(SYNTHETIC))
        with open(r) as f:
            before = f.read()
        os.symlink(r, os.path.join(self.tmp.name, "link.json"))
        for out in (r, os.path.join(self.tmp.name, "link.json")):
            p = subprocess.run([sys.executable, RESULTS_HTML, r, "-o", out], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertEqual(p.stderr, "results_html: %s: is also an input (%s): refusing to overwrite it; choose "
                             "another output\n" % (out, r))
            with open(r) as f:
                self.assertEqual(f.read(), before)

    def test_page_replaces_an_earlier_file_by_rename(self):
        # Written in place, an earlier page's other hard link would change too, and a failed write would leave
        # half a page; the new page is a new file renamed over the old one.
        out = self.write("out.html", "earlier page")
        os.link(out, os.path.join(self.tmp.name, "other_link.html"))
        p = subprocess.run([sys.executable, RESULTS_HTML, self.write("r.json", report(SYNTHETIC)), "-o", out],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(self.tmp.name, "other_link.html")) as f:
            self.assertEqual(f.read(), "earlier page")
        with open(out) as f:
            self.assertIn("<!DOCTYPE html>", f.read())
        self.assertEqual(sorted(os.listdir(self.tmp.name)), ["other_link.html", "out.html", "r.json"])


def grid(title, rows, cols, cells, row_axis="row", col_axis="column", count=None):
    return {"title": title, "rows": rows, "cols": cols, "row_axis": row_axis, "col_axis": col_axis,
            "count": len(cells) if count is None else count,
            "cells": [{"row": r, "col": c, "expected": e, "actual": a} for r, c, e, a in cells]}


class Pictures(html.parser.HTMLParser):
    """The mismatch pictures of a page: per <table class="pic">, its size and its marked cells
    {(row index, column index): (text, title)}; and every <details> with its class and open flag."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables, self.details, self.in_pic, self.row, self.col, self.cell = [], [], False, -1, 0, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "details":
            self.details.append((attrs.get("class"), "open" in attrs))
        elif tag == "table" and attrs.get("class") == "pic":
            self.in_pic, self.row = True, -1
            self.tables.append({"rows": 0, "cols": 0, "marked": {}})
        elif self.in_pic and tag == "tr":
            self.row, self.col = self.row + 1, 0
            self.tables[-1]["rows"] = self.row
        elif self.in_pic and tag == "td":
            self.col += 1
            self.tables[-1]["cols"] = max(self.tables[-1]["cols"], self.col)
            if attrs.get("class") == "mis":
                self.cell = [self.row - 1, self.col - 1, "", attrs.get("title")]

    def handle_endtag(self, tag):
        if tag == "table":
            self.in_pic = False
        elif tag == "td" and self.cell:
            self.tables[-1]["marked"][(self.cell[0], self.cell[1])] = (self.cell[2], self.cell[3])
            self.cell = None

    def handle_data(self, data):
        if self.cell:
            self.cell[2] += data


class MismatchPictureTest(ReportFiles, unittest.TestCase):
    """Failing cases with a structured "mismatches" record get a collapsed grid with marked cells."""

    def pictures(self, text):
        self.parse(text)  # well-formed, and the status grids are untouched
        p = Pictures()
        p.feed(text)
        p.close()
        return p

    def test_grid_marks_the_mismatching_cells_with_hover_text(self):
        doc = report([("2d_block_io.load.e1.w16.h4.c1.coord_corner", "Fail", "2 mismatch(es)"),
                      ("2d_block_io.load.e1.w16.h4.c1.coord_origin", "Pass", ""),
                      ("subgroups.shuffle.i32.v2.sg16", "Fail", "lane text")])
        doc["cases"][0]["mismatches"] = {"grids": [grid(
            "work-group 0 sub-group 0: block", 4, 16,
            [(1, 2, "0x00", "0xa5"), (3, 15, "0x7f", "0x80")], "block row", "block column")], "omitted_cells": 0}
        doc["cases"][2]["mismatches"] = {"grids": [grid(
            "work-group 0 sub-group 0: lanes x components", 16, 2, [(5, 1, "0x00000001", "0x00000002")],
            "lane", "component")], "omitted_cells": 0}
        rc, text, err = self.run_tool(self.write("r.json", doc))
        self.assertEqual(rc, 0, err)
        pics = self.pictures(text)
        self.assertEqual(len(pics.tables), 2)
        block = pics.tables[0]
        self.assertEqual((block["rows"], block["cols"]), (4, 16))  # the whole block, one cell per element
        self.assertEqual(block["marked"], {
            (1, 2): ("\u2716", "block row 1 block column 2: expected 0x00 actual 0xa5"),
            (3, 15): ("\u2716", "block row 3 block column 15: expected 0x7f actual 0x80")})
        lanes = pics.tables[1]
        self.assertEqual((lanes["rows"], lanes["cols"]), (16, 2))
        self.assertEqual(lanes["marked"][(5, 1)][1], "lane 5 component 1: expected 0x00000001 actual 0x00000002")
        # Marked cells have a colour of their own; everything is inline (no script, no external resource).
        self.assertRegex(CSS_OF(text), r"td\.mis\s*\{[^}]*background")
        self.assertNotIn("<script", text)
        self.assertNotIn("http", text.replace("<!DOCTYPE html>", ""))
        # Collapsed by default: groups, operations and pictures; --open-failures expands them all.
        kinds = {}
        for cls, is_open in pics.details:
            kinds.setdefault(cls, []).append(is_open)
        self.assertEqual({k: len(v) for k, v in kinds.items()}, {"fgroup": 2, "fop": 2, "pic": 2})
        self.assertNotIn("not drawn", text)
        self.assertFalse(any(o for _, o in pics.details))
        rc, text, err = self.run_tool(self.write("r.json", doc), "--open-failures")
        self.assertEqual(rc, 0, err)
        self.assertTrue(all(o for _, o in self.pictures(text).details))

    def test_marked_positions_without_values_are_drawn_too(self):
        doc = report([("matrix_multiply_accumulate.int8.x", "Fail", "m")])
        # The runner keeps values for the first cells only; "marked" holds every position (row-major runs).
        doc["cases"][0]["mismatches"] = {"grids": [dict(grid("D", 4, 8, [(0, 1, "0x1", "0x2")], count=11),
                                                        marked="1+8,30+2")]}
        rc, text, err = self.run_tool(self.write("r.json", doc))
        self.assertEqual(rc, 0, err)
        marked = self.pictures(text).tables[0]["marked"]
        self.assertEqual(sorted(marked), [(0, c) for c in range(1, 8)] + [(1, 0), (3, 6), (3, 7)])
        self.assertEqual(marked[(0, 1)][1], "row 0 column 1: expected 0x1 actual 0x2")
        self.assertEqual(marked[(3, 7)][1], "row 3 column 7: mismatch (values recorded for the first cells only)")
        self.assertIn("11 mismatching cell(s), the first 10 drawn; values recorded for 1", text)

    def test_large_grid_is_drawn_as_a_window_around_the_marks(self):
        doc = report([("2d_block_io.store.e4.w8.h8.c1.x", "Fail", "m")])
        doc["cases"][0]["mismatches"] = {"grids": [grid(
            "memory", 1000, 4000, [(700, 3000, "0x01", "0x02"), (701, 3001, "0x01", "0x03")], "memory row",
            "element", count=900)], "omitted_cells": 5}
        rc, text, err = self.run_tool(self.write("r.json", doc))
        self.assertEqual(rc, 0, err)
        table = self.pictures(text).tables[0]
        self.assertLessEqual(table["rows"] * table["cols"], 64 * 64)
        titles = sorted(t for _, t in table["marked"].values())
        self.assertEqual(titles, ["memory row 700 element 3000: expected 0x01 actual 0x02",
                                  "memory row 701 element 3001: expected 0x01 actual 0x03"])
        self.assertIn("900 mismatching cell(s), the first 2 drawn", text)
        self.assertIn("drawn: memory row 698-761, element 2998-3061", text)
        self.assertIn("5 more mismatching cell(s) in grids not recorded", text)

    def test_thousand_failures_are_grouped_with_counts_and_collapsed(self):
        cases = [("2d_block_io.load.e%d.w16.c%d" % (i % 4, i), "Fail", "m%d" % i) for i in range(600)]
        cases += [("2d_block_io.store.e1.w16.c%d" % i, "Crash", "signal 11") for i in range(100)]
        cases += [("matrix_multiply_accumulate.int8.m%d" % i, "Fail", "d") for i in range(300)]
        doc = report(cases)
        for c in doc["cases"]:
            c["mismatches"] = {"grids": [grid("D", 8, 16, [(r, r, "0x1", "0x2") for r in range(8)])],
                               "omitted_cells": 0}
        rc, text, err = self.run_tool(self.write("r.json", doc))
        self.assertEqual(rc, 0, err)
        self.assertIn("Cases that did not pass (1000)", text)
        summaries = re.findall(r'<details class="(fgroup|fop)"><summary>([^<]*)</summary>', text)
        self.assertEqual(summaries, [("fgroup", "2d_block_io: 700 (600 Fail, 100 Crash)"),
                                     ("fop", "load: 600 (600 Fail)"), ("fop", "store: 100 (100 Crash)"),
                                     ("fgroup", "matrix_multiply_accumulate: 300 (300 Fail)"),
                                     ("fop", "int8: 300 (300 Fail)")])
        pics = self.pictures(text)
        # The first 20 pictures of each operation are drawn, the others only counted, so the page stays small.
        self.assertEqual(len(pics.tables), 3 * 20)
        self.assertEqual(text.count("not drawn: the page draws the first 20 pictures of each operation"), 1000 - 60)
        self.assertLess(len(text), 1500 * 1000)
        self.assertFalse(any(o for _, o in pics.details))  # nothing expanded until asked
        rc, text, err = self.run_tool(self.write("r.json", doc), "--max-pictures", "1000")
        self.assertEqual(len(self.pictures(text).tables), 1000)
        # Cases sort naturally inside their operation (c2 before c10).
        self.assertLess(text.index(">2d_block_io.load.e2.w16.c2<"), text.index(">2d_block_io.load.e2.w16.c10<"))

    def test_malformed_pictures_are_refused_and_cells_outside_the_grid_are_counted(self):
        # A picture of the wrong shape is a malformed report (exit 2, one line), like a wrong type elsewhere.
        for bad, words in (({"grids": "nonsense"}, '"grids" must be a list'),
                           ({"grids": [{"title": "t", "rows": -1}]}, '"rows" must be an integer from 0'),
                           ({"grids": [{"cells": [{"row": "x"}]}]}, '"row" must be an integer'),
                           ({"grids": [{"cells": [3]}]}, "a cell must be an object"),
                           ({"grids": [{"marked": "x+y"}]}, '"marked" must be "start+length" runs'),
                           ({"grids": [], "omitted_cells": -3}, '"omitted_cells" must be an integer from 0')):
            doc = report([("g.op.a", "Fail", "m")])
            doc["cases"][0]["mismatches"] = bad
            rc, text, err = self.run_tool(self.write("bad.json", doc))
            self.assertEqual(rc, 2, (bad, err))
            self.assertIn(words, err)
        doc = report([("g.op.a", "Fail", "m"), ("g.op.c", "Fail", "m"), ("g.op.d", "Timeout", "t")])
        doc["cases"][1]["mismatches"] = {"grids": [grid("g", 2, 2, [(5, 5, "0x1", "0x2")])]}  # outside the grid
        rc, text, err = self.run_tool(self.write("r.json", doc))
        self.assertEqual(rc, 0, err)
        pics = self.pictures(text)
        self.assertEqual(len(pics.tables), 1)
        self.assertIn("1 recorded cell(s) outside the drawing", text)


@unittest.skipUnless(RUNNER and os.path.exists(RUNNER), "CTS_RUNNER not built")
class ResultsHtmlRunnerTest(ReportFiles, unittest.TestCase):
    """A real report with a planted driver bug: every case lands in one grid cell and failures are red."""

    def test_fault_run(self):
        report_path = os.path.join(self.tmp.name, "run.json")
        env = dict(os.environ, REFDEV_FAULTS="shuffle_up_off_by_one")
        p = subprocess.run([RUNNER, "--quick", "subgroups.shuffle_up", "--json=" + report_path], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
        self.assertEqual(p.returncode, 1, p.stdout[-2000:])
        with open(report_path) as f:
            cases = json.load(f)["cases"]
        rc, text, err = self.run_tool(report_path)
        self.assertEqual(rc, 0, err)
        cells = self.parse(text).cells
        counts = [re.findall(r"(\d+) (?:pass|fail|crash|timeout|error|skip|other)", txt) for _, txt in cells.values()]
        counted = sum(int(n) for found in counts for n in found)
        self.assertEqual(counted, len(cases))
        failing = [c for c in cases if c["status"] == "Fail"]
        self.assertTrue(failing)
        for key in {tuple(c["name"].split(".")[:3]) for c in failing}:
            self.assertEqual(cells[key][0], "bad", key)
        self.assertIn("Cases that did not pass (%d)" % len(failing), text)


if __name__ == "__main__":
    unittest.main()
