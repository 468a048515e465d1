"""File names and report contents are untrusted: the scripts print them escaped (report_io.printable), in the
runner's style (\\x1b, \\xc2\\x9b, \\xff), never as raw control bytes a terminal would obey (issue 30)."""

import json
import os
import re
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR, TempFiles
from reports.tests.test_merge_results import runner_shard
from reports import report_io

# A NUL, a C1 CSI (U+009B) and an OSC sequence that retitles the terminal.
EVIL = ["api.nul\x00x", "api.csi\u009by", "api.osc\x1b]0;pwned\x07z"]
ESCAPED = ["api.nul\\x00x", "api.csi\\xc2\\x9by", "api.osc\\x1b]0;pwned\\x07z"]
# A C0 control other than a line feed, DEL, a C1 control as UTF-8, or a byte that is not UTF-8.
RAW = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")


def raw_controls(data):
    """The raw control characters (and invalid UTF-8) in a script's output bytes."""
    found = RAW.findall(data)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        found.append(data[e.start:e.end])
    return found


class PrintableTest(unittest.TestCase):
    def test_the_runners_escapes(self):
        self.assertEqual(report_io.printable("a\x1b[31mb\x00\x7f\ttab\nlf"), "a\\x1b[31mb\\x00\\x7f\\x09tab\\x0alf")
        self.assertEqual(report_io.printable("\u0085\u009b\u00a0é€"), "\\xc2\\x85\\xc2\\x9b\u00a0é€")
        # A file name that is not UTF-8 reaches Python as surrogateescape; JSON may hold a lone surrogate.
        self.assertEqual(report_io.printable(os.fsdecode(b"bad\xff\xfe.json")), "bad\\xff\\xfe.json")
        self.assertEqual(report_io.printable(b"x\xffy\xc2\x85"), "x\\xffy\\xc2\\x85")
        self.assertEqual(report_io.printable("\ud800"), "\\ud800")
        self.assertEqual(report_io.printable("plain \\ text"), "plain \\ text")

    def test_html_keeps_lines_and_escapes_markup(self):
        self.assertEqual(report_io.html_text("<b>\x1b]0;x\x07\nnext\tcol\u009b"),
                         "&lt;b&gt;\\x1b]0;x\\x07\nnext\tcol\\xc2\\x9b")


class ScriptOutputTest(TempFiles, unittest.TestCase):
    def run_script(self, script, *args):
        p = subprocess.run([sys.executable, os.path.join(SCRIPTS_DIR, script)] + list(args), cwd=self.tmp.name,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        self.assertEqual(raw_controls(p.stdout), [], (script, p.stdout))
        self.assertEqual(raw_controls(p.stderr), [], (script, p.stderr))
        self.assertNotIn(b"Traceback", p.stderr)
        return p.returncode, p.stdout.decode(), p.stderr.decode()

    def test_a_file_name_with_control_bytes_is_escaped(self):
        name = os.path.join(self.tmp.name, "nofile\x1b[31m.json")
        shown = os.path.join(self.tmp.name, "nofile\\x1b[31m.json")
        good = self.write("good.json", runner_shard([("api.a", "Pass")], 0, 1))
        catching = self.write("catching.json", {"fault": ["api.a"]})
        for script, args in (("reports/merge_results.py", [name]), ("reports/merge_results.py", [good, "-o", name + "/x"]),
                             ("reports/compare_results.py", [good, name]), ("reports/compare_results.py", [good, good, "--html", name + "/x.html"]),
                             ("reports/results_html.py", [name, "-o", "x.html"]),
                             ("judges/hidden_assumption_check.py", [catching, name]),
                             ("ci/as_shipped_check.py", [name, good, "--manifest", good, "--output", good]),
                             ("reports/screenshot_html.py", [name, "-o", "x.png"]),
                             ("faults/fault_campaign.py", ["--family", name])):
            with self.subTest(script=script, args=args):
                rc, _, err = self.run_script(script, *args)
                self.assertEqual(rc, 2, err)
                self.assertIn(shown, err)
                self.assertEqual(len(err.splitlines()), 1, err)

    def test_a_file_name_that_is_not_utf8_is_escaped(self):
        name = os.path.join(self.tmp.name, "bad\udcff.json")  # the byte 0xff, as Python decodes argv
        rc, _, err = self.run_script("reports/merge_results.py", name)
        self.assertEqual(rc, 2, err)
        self.assertIn("bad\\xff.json: cannot read runner JSON report", err)

    def test_merge_escapes_case_names_and_the_aborted_reason(self):
        a = self.write("a.json", runner_shard([(EVIL[0], "Pass")], 0, 2))
        b = self.write("b.json", runner_shard([(EVIL[0], "Fail")], 1, 2))
        rc, _, err = self.run_script("reports/merge_results.py", a, b)
        self.assertEqual(rc, 2, err)
        self.assertIn("case %s is in both" % ESCAPED[0], err)
        b = self.write("b.json", runner_shard([(EVIL[1], "Fail")], 1, 2, not_run=[EVIL[2]], aborted="sig\x1b]0;x\x07"))
        rc, out, err = self.run_script("reports/merge_results.py", a, b, "--allow-aborted", "-o", "-")
        self.assertEqual(rc, 0, err)
        self.assertIn("1 not run (shard 1/2 (%s): sig\\x1b]0;x\\x07)" % b, err)
        self.assertEqual(sorted(json.loads(out)["results"]), sorted(EVIL[:2]))  # JSON keeps the names exact

    def test_compare_escapes_names_errors_and_html(self):
        base = self.write("base.json", runner_shard([(n, "Pass") for n in EVIL], 0, 1))
        new = self.write("new.json", runner_shard([(n, "Fail") for n in EVIL], 0, 1, errors=["bad \x1b[2J run"]))
        rc, out, err = self.run_script("reports/compare_results.py", base, new, "--html", "cmp.html")
        self.assertEqual(rc, 1, err)
        for shown in ESCAPED:
            self.assertIn("  %s  Pass -> Fail" % shown, out)
        self.assertIn("  bad \\x1b[2J run", out)
        with open(os.path.join(self.tmp.name, "cmp.html"), "rb") as f:
            page = f.read()
        self.assertEqual(raw_controls(page.replace(b"\n", b"")), [])
        self.assertIn(b"api.osc\\x1b]0;pwned\\x07z", page)
        rc, _, err = self.run_script("reports/compare_results.py", base, new, "--allow", "Pass:Fail:\x1b[31m")
        self.assertIn("Pass:Fail:\\x1b[31m", err + _)

    def test_results_html_escapes_the_page_and_its_summary(self):
        doc = runner_shard([(n, "Fail") for n in EVIL], 0, 1)
        for c in doc["cases"]:
            c["message"] = "expected 1\n\x1b[31mgot 2\u009b"
        report = self.write("r.json", doc)
        out = os.path.join(self.tmp.name, "page\x1b[31m.html")
        rc, _, err = self.run_script("reports/results_html.py", report, "-o", out, "--title", "t\x1b]0;x\x07")
        self.assertEqual(rc, 0, err)
        self.assertIn("page\\x1b[31m.html", err)
        with open(out, "rb") as f:
            page = f.read()
        self.assertEqual(raw_controls(page.replace(b"\n", b"")), [])
        self.assertIn(b"api.csi\\xc2\\x9by", page)
        self.assertIn(b"expected 1\n\\x1b[31mgot 2\\xc2\\x9b", page)  # a message keeps its lines

    def test_hidden_assumption_check_escapes_case_names(self):
        catching = self.write("catching.json", {"fault\x1b[1m": EVIL})
        report = self.write("r.json", runner_shard([(n, "Fail") for n in EVIL], 0, 1))
        rc, out, err = self.run_script("judges/hidden_assumption_check.py", catching, report)
        self.assertEqual(rc, 1, err)
        self.assertIn("SUSPECT (catches the fault, fails on the real driver): " + ", ".join(sorted(ESCAPED)), out)


if __name__ == "__main__":
    unittest.main()
