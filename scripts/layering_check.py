#!/usr/bin/env python3
"""Promises of the code's layering and shape (docs/architecture.md, "Runner stages"):

  - test_common/cl includes nothing from test_common/harness: the OpenCL helpers sit below the runner, and
    the error types both use live in test_common/errors.h;
  - runnerMain (test_common/harness/runner.cpp) stays a short sequence of named stages: under --max-lines
    lines (default 60) from its signature to its closing brace;
  - the SPIR-V code (reference_device/spirv/, test_common/spirv/, their sub-folders) has no numeric case label
    of two or more digits (`case 16:`, `case 0x10:`): opcodes and enumerants are spelled by name (SPIRV-Headers
    through reference_device/spirv/tokens.h, or the tables generated from the grammar at build time, which
    live in the build tree and are not read here), other values through a small named table;
  - no folder of hand-written C++ holds more than --max-units units (default 25; a unit is a stem X of X.cpp,
    X.h and X_test.cpp, counted once): a bigger folder is split into rooms by role. Build trees (a folder
    with a CMakeCache.txt) and hidden folders are not read. (test_common/harness had 48 when the rule came;
    it is split into rooms: offline/, device/, reports/, workers/, stages/.)

Exit status 0 when all hold, 1 when one does not (each breach is one line), 2 when the tree cannot be read.

Usage: layering_check.py [--repo DIR] [--max-lines N] [--max-units N]
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report_io  # noqa: E402  (same directory: printable paths)

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](test_common/harness/[^>"]*)[>"]')
SPIRV_DIRS = ("reference_device/spirv", "test_common/spirv")
NUMERIC_CASE = re.compile(r"\bcase\s+(0[xX][0-9a-fA-F]+|[0-9]{2,})[uUlL]*\s*:")


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


def numeric_case_labels(repo):
    breaches = []
    for top in SPIRV_DIRS:
        for folder, dirs, files in os.walk(os.path.join(repo, top)):
            dirs.sort()
            for name in sorted(files):
                if not name.endswith((".h", ".cpp")):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        m = NUMERIC_CASE.search(line)
                        if m:
                            breaches.append("%s:%d has the numeric case label %s (name the value)" % (
                                os.path.relpath(path, repo), number, m.group(1)))
    return breaches


def units_by_folder(repo):
    """{folder relative to repo: {stem, ...}} for every folder holding .cpp/.h files (X_test.cpp counts as X)."""
    found = {}
    for folder, dirs, files in os.walk(repo, onerror=_raise):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and
                         not os.path.isfile(os.path.join(folder, d, "CMakeCache.txt")))
        stems = set()
        for name in files:
            stem, ext = os.path.splitext(name)
            if ext in (".cpp", ".h"):
                stems.add(stem[:-len("_test")] if stem.endswith("_test") else stem)
        if stems:
            found[os.path.relpath(folder, repo).replace(os.sep, "/")] = stems
    return found


def _raise(error):
    raise error


def oversized_folders(repo, max_units):
    """One breach a folder over max_units."""
    return ["%s has %d units (limit %d: split it into sub-folders by role)" % (folder, len(stems), max_units)
            for folder, stems in sorted(units_by_folder(repo).items()) if len(stems) > max_units]


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
    parser = argparse.ArgumentParser(description="Checks the include layering, the length of runnerMain, the "
                                                 "SPIR-V code's case labels and the size of source folders.")
    parser.add_argument("--repo", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--max-lines", type=int, default=60)
    parser.add_argument("--max-units", type=int, default=25)
    args = parser.parse_args()
    prog = os.path.basename(sys.argv[0])
    try:
        breaches = cl_includes_of_harness(args.repo) + numeric_case_labels(args.repo)
        length = runner_main_lines(args.repo)
        oversized = oversized_folders(args.repo, args.max_units)
    except (OSError, UnicodeDecodeError) as e:
        print(report_io.printable("%s: cannot read the tree %s: %s" % (prog, args.repo, e)), file=sys.stderr)
        return 2
    if length is None:
        print("%s: no definition of runnerMain in test_common/harness/runner.cpp" % prog, file=sys.stderr)
        return 2
    if length >= args.max_lines:
        breaches.append("runnerMain is %d lines (limit: under %d)" % (length, args.max_lines))
    breaches += oversized
    for b in breaches:
        print(report_io.printable(b))
    if not breaches:
        print("layering ok: test_common/cl includes nothing from test_common/harness; runnerMain is %d lines; "
              "no numeric case label in %s; no source folder over %d units"
              % (length, ", ".join(SPIRV_DIRS), args.max_units))
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
