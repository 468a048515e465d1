#!/usr/bin/env python3
"""Two promises of the code's layering (docs/architecture.md, "Runner stages"):

  - test_common/cl includes nothing from test_common/harness: the OpenCL helpers sit below the runner, and
    the error types both use live in test_common/errors.h;
  - runnerMain (test_common/harness/runner.cpp) stays a short sequence of named stages: under --max-lines
    lines (default 60) from its signature to its closing brace.

Exit status 0 when both hold, 1 when one does not (each breach is one line), 2 when the tree cannot be read.

Usage: layering_check.py [--repo DIR] [--max-lines N]
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report_io  # noqa: E402  (same directory: printable paths)

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](test_common/harness/[^>"]*)[>"]')


def cl_includes_of_harness(repo):
    breaches = []
    cl_dir = os.path.join(repo, "test_common", "cl")
    for name in sorted(os.listdir(cl_dir)):
        if not name.endswith((".h", ".cpp")):
            continue
        with open(os.path.join(cl_dir, name), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if m:
                    breaches.append("test_common/cl/%s:%d includes %s" % (name, number, m.group(1)))
    return breaches


def runner_main_lines(repo):
    """Lines of runnerMain's definition, from its signature to the brace that closes it (None: not found)."""
    with open(os.path.join(repo, "test_common", "harness", "runner.cpp"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    start = next((i for i, line in enumerate(lines) if re.match(r"^int runnerMain\(", line)), None)
    if start is None:
        return None
    depth = 0
    opened = False
    for i in range(start, len(lines)):
        depth += lines[i].count("{") - lines[i].count("}")
        opened = opened or "{" in lines[i]
        if opened and depth == 0:
            return i - start + 1
    return None


def main():
    parser = argparse.ArgumentParser(description="Checks the include layering and the length of runnerMain.")
    parser.add_argument("--repo", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--max-lines", type=int, default=60)
    args = parser.parse_args()
    prog = os.path.basename(sys.argv[0])
    try:
        breaches = cl_includes_of_harness(args.repo)
        length = runner_main_lines(args.repo)
    except (OSError, UnicodeDecodeError) as e:
        print(report_io.printable("%s: cannot read the tree %s: %s" % (prog, args.repo, e)), file=sys.stderr)
        return 2
    if length is None:
        print("%s: no definition of runnerMain in test_common/harness/runner.cpp" % prog, file=sys.stderr)
        return 2
    if length >= args.max_lines:
        breaches.append("runnerMain is %d lines (limit: under %d)" % (length, args.max_lines))
    for b in breaches:
        print(report_io.printable(b))
    if not breaches:
        print("layering ok: test_common/cl includes nothing from test_common/harness; runnerMain is %d lines"
              % length)
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
