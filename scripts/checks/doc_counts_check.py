#!/usr/bin/env python3
"""Every count the docs state about the suite matches the build: a doc marks such a count with an HTML comment
right after the number (invisible in the rendered page), saying how to measure it, and this script measures
it with the runner and fails on a difference.

    400<!-- count: list --tag=regression -->      lines of `spirv_intel_cts --list --tag=regression`
    3,376<!-- count: list media_block_io -->      any runner selection (patterns, --tag, --extended, --huge)
    402<!-- count: tag regression -->             the number `spirv_intel_cts --list-tags` gives the tag
    13,549<!-- count: pass xe_hpc -->            the cases that Pass in a default run on that reference-device
                                                  profile (REFDEV_PROFILE=xe_hpc, --jobs=2)

Counts that record one measured run (Performance figures, a driver's or compiler's results, each with its
date or commit) are records, not statements about today's suite, and carry no mark.

    scripts/checks/doc_counts_check.py --runner build/bin/spirv_intel_cts
    scripts/checks/doc_counts_check.py --runner build/bin/spirv_intel_cts --profile-reports build/profiles

--profile-reports takes the reports of scripts/setup/run_all_profiles.sh (results_<profile>.json) instead of running
the profiles again. Exit 0 when every marked count matches, 1 when one does not (one line each: file, line,
stated, measured, the mark), 2 for a usage error or a malformed mark.
"""

import argparse
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

REPO_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARK = re.compile(r"(\d[\d,]*)\s*<!--\s*count:\s*(.*?)\s*-->")
ANY_MARK = re.compile(r"<!--\s*count:")


def doc_files(repo):
    return [os.path.join(repo, "README.md")] + sorted(glob.glob(os.path.join(repo, "docs", "**", "*.md"),
                                                               recursive=True))


def find_marks(repo):
    """[(path, line number, stated count, kind, args)]; raises ValueError on a malformed mark."""
    marks = []
    for path in doc_files(repo):
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                found = MARK.findall(line)
                if len(found) != len(ANY_MARK.findall(line)):
                    raise ValueError("%s:%d: a count mark without a number right before it" % (path, n))
                for number, spec in found:
                    words = shlex.split(spec)
                    if not words or words[0] not in ("list", "tag", "pass"):
                        raise ValueError("%s:%d: unknown count mark '%s' (list, tag or pass)" % (path, n, spec))
                    if words[0] in ("tag", "pass") and len(words) != 2:
                        raise ValueError("%s:%d: '%s' names exactly one %s" % (path, n, spec, words[0]))
                    marks.append((path, n, int(number.replace(",", "")), words[0], words[1:]))
    return marks


class Measure:
    def __init__(self, runner, reports_dir):
        self.runner, self.reports_dir = runner, reports_dir
        self.cache = {}
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("REFDEV_")}

    def run(self, args, env_extra=None):
        env = dict(self.env, **(env_extra or {}))
        p = subprocess.run([self.runner] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, env=env, timeout=900)
        if p.returncode not in (0, 1):
            raise RuntimeError("%s %s exited with %d: %s" % (self.runner, " ".join(args), p.returncode,
                                                             (p.stderr.strip().splitlines() or [""])[-1]))
        return p.stdout

    def list(self, args):
        key = ("list",) + tuple(args)
        if key not in self.cache:
            self.cache[key] = len([x for x in self.run(["--list"] + list(args)).splitlines() if x.strip()])
        return self.cache[key]

    def tag(self, name):
        if "tags" not in self.cache:
            self.cache["tags"] = dict((w[0], int(w[1])) for w in
                                      (x.split() for x in self.run(["--list-tags"]).splitlines()) if len(w) == 2)
        return self.cache["tags"].get(name, 0)

    def passes(self, profile):
        key = ("pass", profile)
        if key not in self.cache:
            report = os.path.join(self.reports_dir, "results_%s.json" % profile) if self.reports_dir else ""
            if report and os.path.isfile(report):
                self.cache[key] = self.count_pass(report)
            else:
                with tempfile.TemporaryDirectory() as tmp:
                    out = os.path.join(tmp, "r.json")
                    self.run(["--jobs=2", "--json=" + out], {"REFDEV_PROFILE": profile})
                    self.cache[key] = self.count_pass(out)
        return self.cache[key]

    @staticmethod
    def count_pass(report):
        with open(report, encoding="utf-8") as f:
            doc = json.load(f)
        return sum(1 for c in doc.get("cases", []) if c.get("status") == "Pass")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runner", required=True, help="build/bin/spirv_intel_cts")
    ap.add_argument("--profile-reports", default="", help="a directory of results_<profile>.json to use")
    ap.add_argument("--repo", default=REPO_DIR, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if not os.access(args.runner, os.X_OK):
        print("doc_counts_check: --runner=%s is not a program" % args.runner, file=sys.stderr)
        return 2
    try:
        marks = find_marks(args.repo)
    except ValueError as e:
        print("doc_counts_check: " + str(e), file=sys.stderr)
        return 2
    measure = Measure(args.runner, args.profile_reports)
    wrong = 0
    for path, n, stated, kind, words in marks:
        try:
            got = {"list": lambda: measure.list(words), "tag": lambda: measure.tag(words[0]),
                   "pass": lambda: measure.passes(words[0])}[kind]()
        except (RuntimeError, OSError, ValueError) as e:
            print("doc_counts_check: %s:%d: cannot measure '%s %s': %s"
                  % (os.path.relpath(path, args.repo), n, kind, " ".join(words), e))
            return 2
        if got != stated:
            wrong += 1
            print("%s:%d: states %s, the build has %s (count: %s)"
                  % (os.path.relpath(path, args.repo), n, "{:,}".format(stated), "{:,}".format(got),
                     " ".join([kind] + words)))
    print("doc_counts_check: %d of %d marked counts in %d files match the build"
          % (len(marks) - wrong, len(marks), len(set(m[0] for m in marks))))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
