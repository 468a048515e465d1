"""Every script that reads a report refuses a malformed one with one line "<script>: <file>: <what is wrong>" and
exit 2, never a traceback (scripts/reports/report_io.py): not a regular file, too large, not JSON, too deep, a wrong
type anywhere."""

import contextlib
import io
import json
import os
import subprocess
import sys
import unittest

from testing.common import SCRIPTS_DIR, TempFiles
from reports.tests.test_merge_results import runner_shard

from reports import compare_results  # noqa: E402
from judges import hidden_assumption_check  # noqa: E402
from reports import merge_results  # noqa: E402
from reports import report_io  # noqa: E402
from reports import results_html  # noqa: E402

GOOD = runner_shard([("api.a", "Pass"), ("api.b", "Fail")], 0, 1)


def with_(**changes):
    doc = json.loads(json.dumps(GOOD))
    doc.update(changes)
    return doc


def with_case(**changes):
    doc = json.loads(json.dumps(GOOD))
    doc["cases"][0].update(changes)
    return doc


def waived(**changes):
    """GOOD with api.a Waived, its full waiver record on the case, and changes."""
    doc = with_case(status="Waived", original_status="Fail", waiver={"tracker": "t", "reason": "r"})
    doc["results"]["api.a"] = "fail"
    doc.update(changes)
    return doc


# (file name, content: a JSON value, or str/bytes written as they are, words the error line holds)
MALFORMED = [
    ("not_json.json", "{not json", "invalid JSON"),
    ("empty.json", "", "invalid JSON"),
    ("deep.json", "[" * 100000 + "]" * 100000, "JSON nested too deep"),
    ("deep65.json", {"results": {}, "x": json.loads("[" * 70 + "]" * 70)}, "nested deeper than 64 levels"),
    ("latin1.json", b'{"results": {"a": "\xe9"}}', "not UTF-8 text"),
    ("nan.json", '{"results": {}, "seed": NaN}', "NaN is not JSON"),
    ("list.json", [1, 2], "not a runner JSON report"),
    ("no_results.json", {"cases": []}, "not a runner JSON report"),
    ("result_word.json", with_(results={"api.a": 1}), "the result of api.a must be \"pass\", \"fail\" or \"skip\", not 1"),
    ("case_name.json", with_case(name=5), "a \"cases\" entry needs a string name and status"),
    ("case_status.json", with_case(status=None), "a \"cases\" entry needs a string name and status"),
    ("case_entry.json", with_(cases=["api.a"]), "a \"cases\" entry needs a string name and status"),
    ("cases_type.json", with_(cases={"api.a": "Pass"}), "\"cases\" must be a list"),
    ("case_message.json", with_case(message=5), "case api.a: \"message\" must be a string, not 5"),
    ("case_seed.json", with_case(seed="7"), "case api.a: \"seed\" must be an integer"),
    ("case_twice.json", with_(cases=GOOD["cases"] + GOOD["cases"][:1]), "case api.a is in \"cases\" twice"),
    ("case_unknown.json", with_(results={"api.b": "fail"}), "case api.a is in \"cases\" but not in \"results\""),
    ("not_run_str.json", with_(not_run="abc"), "\"not_run\" must be a list, not \"abc\""),
    ("not_run_int.json", with_(not_run=[1]), "\"not_run\" must be a list of strings; it holds 1"),
    ("not_run_ran.json", with_(not_run=["api.a"], selected=3), "case api.a has a result and is listed in"),
    ("selected_str.json", with_(selected="2"), "\"selected\" must be an integer, not \"2\""),
    ("selected_bool.json", with_(selected=True), "\"selected\" must be an integer, not true"),
    ("selected_neg.json", with_(selected=-1), "\"selected\" must not be negative"),
    ("shard.json", with_(shard={"index": 2, "count": 2}), "malformed \"shard\""),
    ("shard_type.json", with_(shard=[0, 1]), "\"shard\" must be an object"),
    ("aborted.json", with_(aborted=5), "\"aborted\" must be a string or null, not 5"),
    ("errors.json", with_(errors="boom"), "\"errors\" must be a list, not \"boom\""),
    ("device.json", with_(device=["d"]), "\"device\" must be a string"),
    ("seed.json", with_(seed=1.5), "\"seed\" must be an integer, not 1.5"),
    ("quick.json", with_(quick="no"), "\"quick\" must be true or false"),
    ("selection.json", with_(selection=3), "\"selection\" must be an object, not 3"),
    ("patterns.json", with_(selection=dict(GOOD["selection"], patterns="api")),
     "\"selection\": \"patterns\" must be a list, not \"api\""),
    ("sel_tier.json", with_(selection=dict(GOOD["selection"], tier=None)), "\"selection\": \"tier\" must be a string"),
    ("stale.json", with_(waivers={"files": [], "stale": [1]}), "\"waivers\": \"stale\" must be a list of strings"),
    ("shards.json", with_(shards=["a.json"]), "\"shards\" must be a list of objects"),
    # Nested values, each with the type and range the runner writes (issue 30, item 16).
    ("attempts.json", with_case(attempts="x"), "case api.a: \"attempts\" must be a list, not \"x\""),
    ("attempts_int.json", with_case(attempts=[1]), "case api.a: \"attempts\" must be a list of strings"),
    ("duration.json", with_case(duration_ms="fast"), "case api.a: \"duration_ms\" must be a number"),
    ("duration_neg.json", with_case(duration_ms=-1), "case api.a: \"duration_ms\" must be a number of at least 0"),
    ("case_seed_big.json", with_case(seed=2 ** 70), "case api.a: \"seed\" must be an integer from 0 to %d" % (2 ** 64 - 1)),
    ("case_seed_neg.json", with_case(seed=-1), "case api.a: \"seed\" must be an integer from 0"),
    ("seed_big.json", with_(seed=2 ** 70), "\"seed\" must be an integer from 0"),
    ("sel_seed_big.json", with_(selection=dict(GOOD["selection"], seed=2 ** 64)),
     "\"selection\": \"seed\" must be an integer from 0"),
    ("rows.json", with_case(mismatches={"grids": [{"title": "t", "rows": -3, "cols": 1}], "omitted_cells": 0}),
     "grid 0: \"rows\" must be an integer from 0"),
    ("cells.json", with_case(mismatches={"grids": [{"cells": "x"}], "omitted_cells": 0}),
     "grid 0: \"cells\" must be a list"),
    ("case_gaps.json", with_case(version_gaps="cl_x"), "case api.a: \"version_gaps\" must be a list"),
    ("gap_cases.json", with_(version_gaps=[{"extension": "e", "reported": "1", "promised_from": "2", "cases": -3}]),
     "\"version_gaps\": \"cases\" must be an integer from 0"),
    ("offline.json", with_(offline_compiler={"compiler": "ocloc", "target": 5, "target_description": ""}),
     "\"offline_compiler\": \"target\" must be a string"),
    ("shard_entry.json", with_(shards=[{"file": "a.json", "cases": "many"}]), "\"shards\" 0: \"cases\" must be an integer"),
    ("status.json", with_case(status="Passed"), "case api.a: \"status\" \"Passed\" is not one of"),
    ("case_tier.json", with_case(tier="gold"), "case api.a: \"tier\" must be \"core\" or \"device_specific\""),
    ("sel_tier_word.json", with_(selection=dict(GOOD["selection"], tier="some")),
     "\"selection\": \"tier\" must be \"all\" or \"core\""),
    # "results" and "cases" say the same thing, as the runner writes them.
    ("contradict.json", with_(results={"api.a": "fail", "api.b": "fail"}),
     "case api.a: \"results\" says \"fail\" but its status is Pass"),
    ("contradict_skip.json", with_(results={"api.a": "pass", "api.b": "skip"}),
     "case api.b: \"results\" says \"skip\" but its status is Fail"),
    ("results_only.json", with_(results={"api.a": "pass", "api.b": "fail", "api.c": "pass"}, selected=3),
     "case api.c is in \"results\" but not in \"cases\""),
    # "Waived" counts as good only with the waiver record the runner writes beside it.
    ("waived_bare.json", with_case(status="Waived"), "case api.a: Waived without its waiver record"),
    ("waived_no_original.json", with_case(status="Waived", waiver={"tracker": "t", "reason": "r"}),
     "case api.a: Waived without its waiver record"),
    ("waived_pass.json", with_case(status="Waived", original_status="Pass", waiver={"tracker": "t", "reason": "r"}),
     "case api.a: \"original_status\" \"Pass\" is not one a waiver covers"),
    ("waiver_type.json", with_case(status="Waived", original_status="Fail", waiver={"tracker": 1, "reason": "r"}),
     "case api.a: \"waiver\": \"tracker\" must be a string"),
    ("waiver_on_pass.json", with_case(original_status="Fail", waiver={"tracker": "t", "reason": "r"}),
     "case api.a: a waiver record on a case that is Pass"),
    # A run waives a case only with a waiver file, which the report records (issue 30).
    ("waived_no_file.json", waived(), "case api.a: Waived, but the report records no waiver file"),
    ("waived_empty_files.json", waived(waivers={"files": [], "stale": []}),
     "case api.a: Waived, but the report records no waiver file"),
    # Each waiver file's SHA-256, parallel to "files" (issue 30).
    ("sha_str.json", with_(waivers={"files": ["w.json"], "stale": [], "sha256": "ab" * 32}),
     "\"waivers\": \"sha256\" must be a list of SHA-256 digests (64 lower-case hex digits)"),
    ("sha_upper.json", with_(waivers={"files": ["w.json"], "stale": [], "sha256": ["AB" * 32]}),
     "\"waivers\": \"sha256\" must be a list of SHA-256 digests"),
    ("sha_short.json", with_(waivers={"files": ["w.json"], "stale": [], "sha256": ["ab" * 31]}),
     "\"waivers\": \"sha256\" must be a list of SHA-256 digests"),
    ("sha_int.json", with_(waivers={"files": ["w.json"], "stale": [], "sha256": [5]}),
     "\"waivers\": \"sha256\" must be a list of SHA-256 digests"),
    ("sha_count.json", with_(waivers={"files": ["w.json", "v.json"], "stale": [], "sha256": ["ab" * 32]}),
     "\"waivers\": \"sha256\" has 1 digest(s) for 2 file(s)"),
]


def run_main(module, argv):
    """(exit status, stderr) of module.main(argv) in this process: an exception fails the test."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        rc = module.main(argv)
    return rc, err.getvalue()


class MalformedInputTest(TempFiles, unittest.TestCase):
    def setUp(self):
        super().setUp()
        self.good = self.write("good.json", GOOD)
        self.catching = self.write("catching.json", {"fault": ["api.a"]})
        self.out = os.path.join(self.tmp.name, "out")

    def invocations(self, path):
        """(script, module, argv) of each script reading path as a report."""
        return [("merge_results", merge_results, [path, "-o", self.out]),
                ("compare_results", compare_results, [path, self.good]),
                ("compare_results", compare_results, [self.good, path]),
                ("results_html", results_html, [path, "-o", self.out]),
                ("results_html", results_html, [self.good, path, "-o", self.out]),
                ("hidden_assumption_check", hidden_assumption_check, [self.catching, path])]

    def assert_refused(self, path, words):
        for script, module, argv in self.invocations(path):
            rc, err = run_main(module, argv)
            self.assertEqual(rc, 2, (script, argv, err))
            self.assertEqual(len(err.splitlines()), 1, (script, err))
            self.assertTrue(err.startswith("%s: %s: " % (script, path)), (script, err))
            self.assertIn(words, err, script)
            self.assertFalse(os.path.exists(self.out), "no output for bad input")

    def test_malformed_reports(self):
        for name, content, words in MALFORMED:
            with self.subTest(name):
                path = os.path.join(self.tmp.name, name)
                with open(path, "wb") as f:
                    f.write(content if isinstance(content, bytes) else
                            (content if isinstance(content, str) else json.dumps(content)).encode())
                self.assert_refused(path, words)

    def test_paths_that_are_not_regular_files(self):
        fifo = os.path.join(self.tmp.name, "fifo.json")
        os.mkfifo(fifo)  # opening it would block until a writer comes
        huge = os.path.join(self.tmp.name, "huge.json")
        with open(huge, "wb") as f:
            f.truncate(report_io.MAX_INPUT_BYTES + 1)  # sparse: no disk space used
        for path, words in ((os.path.join(self.tmp.name, "missing.json"), "No such file or directory"),
                            (self.tmp.name, "is a directory, not a runner JSON report"),
                            (fifo, "is not a regular file"), ("/dev/zero", "is not a regular file"),
                            (huge, "larger than the %d" % report_io.MAX_INPUT_BYTES)):
            with self.subTest(path):
                self.assert_refused(path, words)

    def test_malformed_catching_file(self):
        for name, content, words in (("c1.json", "[", "invalid JSON"), ("c2.json", {"f": "api.a"}, "not {fault:"),
                                     ("c3.json", {"f": [1]}, "not {fault:"), ("c4.json", [], "not {fault:")):
            path = self.write(name, content)
            rc, err = run_main(hidden_assumption_check, [path, self.good])
            self.assertEqual(rc, 2, err)
            self.assertTrue(err.startswith("hidden_assumption_check: %s: " % path), err)
            self.assertIn(words, err)

    def test_a_real_process_prints_one_line_and_no_traceback(self):
        deep = self.write("deep.json", "[" * 100000 + "]" * 100000)
        bad_name = self.write("bad_name.json", with_case(name=5))
        for script, args in (("reports/merge_results.py", [deep, "-o", self.out]), ("reports/compare_results.py", [self.good, deep]),
                             ("reports/results_html.py", ["/dev/zero", "-o", self.out]),
                             ("judges/hidden_assumption_check.py", [self.catching, bad_name]),
                             ("reports/compare_results.py", [self.good, self.tmp.name])):
            p = subprocess.run([sys.executable, os.path.join(SCRIPTS_DIR, script)] + args, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True)
            self.assertEqual(p.returncode, 2, (script, p.stderr))
            self.assertEqual(len(p.stderr.splitlines()), 1, p.stderr)
            self.assertNotIn("Traceback", p.stderr)


class WaiverRecordTest(TempFiles, unittest.TestCase):
    def test_a_waived_case_with_the_run_level_record_is_accepted(self):
        for waivers in ({"files": ["w.json"], "stale": []}, {"files": ["w.json"], "stale": [], "sha256": ["0f" * 32]}):
            report_io.check_report("r.json", waived(waivers=waivers))

    def test_a_case_a_skip_waiver_kept_from_running_is_accepted(self):
        doc = waived(waivers={"files": ["w.json"], "stale": []})
        doc["cases"][0]["original_status"] = "NotRun"
        report_io.check_report("r.json", doc)
        doc["cases"][0]["original_status"] = "Skipped"
        with self.assertRaisesRegex(report_io.ReportError, "is not one a waiver covers .*NotRun"):
            report_io.check_report("r.json", doc)


class OutputPathTest(TempFiles, unittest.TestCase):
    """An output must be a regular file (or not exist yet): a FIFO would block the script until a reader comes
    (issue 30, item 9), a directory or device is no report. One line, exit 2, nothing written."""

    def test_outputs_that_are_not_regular_files(self):
        good = self.write("good.json", GOOD)
        fifo = os.path.join(self.tmp.name, "fifo")
        os.mkfifo(fifo)
        for target, words in ((fifo, "not a regular file"), ("/dev/zero", "not a regular file"),
                              (self.tmp.name, "it is a directory")):
            for script, args in (("reports/merge_results.py", [good, "-o", target]),
                                 ("reports/compare_results.py", [good, good, "--html=" + target]),
                                 ("reports/results_html.py", [good, "-o", target]),
                                 ("reports/screenshot_html.py", [good, "-o", target])):
                with self.subTest(script=script, target=target):
                    try:
                        p = subprocess.run([sys.executable, os.path.join(SCRIPTS_DIR, script)] + args,
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                                           timeout=30)
                    except subprocess.TimeoutExpired:
                        self.fail("%s %s hangs" % (script, " ".join(args)))
                    self.assertEqual(p.returncode, 2, p.stderr)
                    self.assertEqual(p.stderr.splitlines(), ["%s: %s: cannot write: %s%s" % (
                        os.path.basename(script)[:-3], target, words, "" if "directory" in words else
                        " (a FIFO, device or socket); an output must be a regular file")])
                    self.assertEqual(p.stdout, "", "refused before any work")


    def test_dash_is_no_file_where_standard_output_is_not_documented(self):
        # Issue 30: "-" wrote a file named "-". merge_results.py -o - is standard output (test_merge_results);
        # the outputs documented as files refuse it in one line, and write nothing.
        good = self.write("good.json", GOOD)
        runner = self.write("runner.sh", "#!/bin/sh\nexit 0\n")
        os.chmod(runner, 0o755)
        for script, args, prefix in (("reports/compare_results.py", [good, good, "--html=-"], "compare_results: "),
                                     ("reports/results_html.py", [good, "-o", "-"], "results_html: "),
                                     ("reports/screenshot_html.py", [good, "-o", "-"], "screenshot_html: "),
                                     ("bench/bench.py", ["--runner", runner, "--json", "-"], "bench.py: error: --json ")):
            with self.subTest(script=script):
                p = subprocess.run([sys.executable, os.path.join(SCRIPTS_DIR, script)] + args, cwd=self.tmp.name,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertEqual(p.stderr, prefix + "-: this output must be a file, not standard output; to write a "
                                 "file named -, give ./-\n")
                self.assertEqual(p.stdout, "")
                self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "-")))


class OtherInputsTest(TempFiles, unittest.TestCase):
    """The scripts that read other files: a page to screenshot, a package archive."""

    def run_script(self, script, *args):
        p = subprocess.run([sys.executable, os.path.join(SCRIPTS_DIR, script)] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        return p.returncode, p.stderr

    def test_screenshot_needs_a_page_and_keeps_it(self):
        page = self.write("page.html", "<p>x</p>")
        os.symlink(page, os.path.join(self.tmp.name, "link.png"))
        for args, words in (([os.path.join(self.tmp.name, "none.html"), "-o", "x.png"], "No such file"),
                            ([self.tmp.name, "-o", "x.png"], "is a directory"),
                            (["/dev/zero", "-o", "x.png"], "is not a regular file"),
                            ([page, "-o", page], "is also an input"),
                            ([page, "-o", os.path.join(self.tmp.name, "link.png")], "is also an input")):
            rc, err = self.run_script("reports/screenshot_html.py", *args)
            self.assertEqual(rc, 2, (args, err))
            self.assertIn(words, err)
            self.assertTrue(err.startswith("screenshot_html: "), err)
            self.assertEqual(len(err.splitlines()), 1, err)
        with open(page) as f:
            self.assertEqual(f.read(), "<p>x</p>")

    def run_bounded(self, script, *args):
        try:
            p = subprocess.run([sys.executable, os.path.join(SCRIPTS_DIR, script)] + list(args),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
        except subprocess.TimeoutExpired:
            self.fail("%s %s hangs" % (script, " ".join(args)))
        return p.returncode, p.stderr

    def test_bench_json_output_is_checked_before_the_runs(self):
        fifo = os.path.join(self.tmp.name, "fifo")
        os.mkfifo(fifo)
        runner = self.write("runner.sh", "#!/bin/sh\nexit 0\n")
        os.chmod(runner, 0o755)
        for target, words in ((fifo, "not a regular file"), (self.tmp.name, "it is a directory")):
            rc, err = self.run_bounded("bench/bench.py", "--runner", runner, "--json", target)
            self.assertEqual(rc, 2, err)
            self.assertEqual(err, "bench.py: error: --json %s: cannot write: %s%s\n" % (
                target, words, "" if "directory" in words else
                " (a FIFO, device or socket); an output must be a regular file"))

    def test_package_test_refuses_a_bad_archive(self):
        for path, words in ((os.path.join(self.tmp.name, "none.tgz"), "No such file"),
                            (self.tmp.name, "is a directory"),
                            (self.write("text.tgz", "not a tar archive"), "not a tar archive")):
            rc, err = self.run_script("ci/package_test.py", "--tgz", path)
            self.assertEqual(rc, 2, (path, err))
            self.assertTrue(err.startswith("package_test: %s: " % path), err)
            self.assertIn(words, err)
            self.assertEqual(len(err.splitlines()), 1, err)


class ClosedPipeTest(TempFiles, unittest.TestCase):
    """Output piped into a reader that stops early (`| head -1`) ends the script quietly, no traceback."""

    def test_compare_into_a_closed_pipe(self):
        names = ["api.c%05d" % i for i in range(20000)]
        old = self.write("old.json", runner_shard([(n, "Pass") for n in names], 0, 1))
        new = self.write("new.json", runner_shard([(n, "Fail") for n in names], 0, 1))
        script = os.path.join(SCRIPTS_DIR, "reports/compare_results.py")
        p = subprocess.Popen([sys.executable, script, old, new], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        p.stdout.readline()
        p.stdout.close()  # the reader goes away with most of the output unread
        err = p.stderr.read().decode()
        p.wait()
        self.assertNotIn("Traceback", err)
        self.assertNotIn("BrokenPipeError", err)


if __name__ == "__main__":
    unittest.main()
