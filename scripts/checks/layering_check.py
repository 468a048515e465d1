#!/usr/bin/env python3
"""Promises of the code's layering and shape (docs/architecture.md, "Runner stages"):

  - test_common/cl includes nothing from test_common/harness: the OpenCL helpers sit below the runner, and
    the error types both use live in test_common/errors.h;
  - runnerMain (test_common/harness/runner.cpp) stays a short sequence of named stages: under --max-lines
    lines (default 60) from its signature to its closing brace;
  - parseOptions (test_common/harness/stages/options.cpp) stays a loop over the option table: under
    --max-parse-lines lines (default 60);
  - no function of test_common/harness takes the RunState (a `RunState&` or `RunState*` parameter): each stage
    takes what it reads and fills its own result (docs/architecture.md, "Runner stages");
  - every family's run() (a definition of a function named run in test_conformance/, tests aside) sets up,
    binds and checks through launch fixtures: under --max-run-lines lines (default 80);
  - the SPIR-V code (reference_device/spirv/, test_common/spirv/, their sub-folders) has no numeric case label
    of two or more digits (`case 16:`, `case 0x10:`), and no opcode is compared with or offset by such a number
    (`op - 170`, `opcode == 61`): opcodes and enumerants are spelled by name (SPIRV-Headers
    through reference_device/spirv/tokens.h, or the tables generated from the grammar at build time, which
    live in the build tree and are not read here), other values through a small named table;
  - no folder of hand-written C++ holds more than --max-units units (default 25; a unit is a stem X of X.cpp,
    X.h and X_test.cpp, counted once): a bigger folder is split into rooms by role. Build trees (a folder
    with a CMakeCache.txt) and hidden folders are not read. (test_common/harness had 48 when the rule came;
    it is split into rooms: offline/, device/, reports/, workers/, stages/.)
  - the rooms of test_common/harness are ordered, lowest first, in HARNESS_ROOMS (input < model < selection <
    reports < device < launch < workers < offline < stages < the top floor; docs/architecture.md, "The
    harness's rooms"): a file of the harness (a test too) includes from its own room or a lower one only,
    never from a higher room or the top floor, and every sub-folder of the harness is in the order; the top
    floor holds no unit but those of HARNESS_TOP_FLOOR_UNITS (runner: runnerMain).
  - no Python files of the tree import each other in a circle, directly or through others (import_circles.py:
    imports resolved to files of the tree from each file's folder and from the --import-root folders, default
    scripts/; one line per circle).

Exit status 0 when all hold, 1 when one does not (each breach is one line), 2 when the tree cannot be read.

Usage: layering_check.py [--repo DIR] [--max-lines N] [--max-parse-lines N] [--max-run-lines N] [--max-units N]
                         [--import-root DIR ...]
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: the import root
from checks.import_circles import UnparsableFile, import_circles  # noqa: E402
from reports import report_io  # noqa: E402  (printable paths)

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](test_common/harness/[^>"]*)[>"]')
SPIRV_DIRS = ("reference_device/spirv", "test_common/spirv")
NUMERIC_CASE = re.compile(r"\bcase\s+(0[xX][0-9a-fA-F]+|[0-9]{2,})[uUlL]*\s*:")
# An opcode compared with, or offset by, a number (`op - 170`, `opcode == 0x10`): the decoders name opcodes.
NUMERIC_OPCODE = re.compile(r"\b(?:op|opcode|number)\s*(?:==|!=|<=|>=|<|>|-|\+)\s*(0[xX][0-9a-fA-F]+|[0-9]{2,})\b")


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


def source_files(repo, top, tests=True):
    """(path relative to repo, lines) of every .h/.cpp file under repo/top, sorted; X_test.cpp only with tests.
    A folder that cannot be read raises."""
    for folder, dirs, files in os.walk(os.path.join(repo, top), onerror=_raise):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".h", ".cpp")) and (tests or not name.endswith("_test.cpp")):
                path = os.path.join(folder, name)
                yield os.path.relpath(path, repo), read_lines(path)


def numeric_case_labels(repo):
    breaches = []
    for top in SPIRV_DIRS:
        if not os.path.isdir(os.path.join(repo, top)):
            continue
        for relpath, lines in source_files(repo, top):
            for number, line in enumerate(lines, 1):
                m = NUMERIC_CASE.search(line)
                if m:
                    breaches.append("%s:%d has the numeric case label %s (name the value)" % (
                        relpath, number, m.group(1)))
                m = NUMERIC_OPCODE.search(line)
                if m:
                    breaches.append("%s:%d uses the opcode number %s (name the instruction: one table row per "
                                    "instruction)" % (relpath, number, m.group(1)))
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


# The harness's rooms, lowest first (docs/architecture.md, "The harness's rooms"): a file includes from its own
# room or a lower one, never from a higher room or the top floor, so the rooms form a chain with no circle.
HARNESS = "test_common/harness"
HARNESS_ROOMS = ("input", "model", "selection", "reports", "device", "launch", "workers", "offline", "stages")
# The only units the top floor holds (above every room): the runner's entry, runnerMain.
HARNESS_TOP_FLOOR_UNITS = ("runner",)


def harness_room_level(relpath):
    """(room, level) of a path under test_common/harness: the top floor is ("", len(HARNESS_ROOMS)); a folder
    not in HARNESS_ROOMS is (folder, None)."""
    parts = relpath[len(HARNESS) + 1:].split("/")
    if len(parts) == 1:
        return "", len(HARNESS_ROOMS)
    return parts[0], HARNESS_ROOMS.index(parts[0]) if parts[0] in HARNESS_ROOMS else None


def harness_room_breaches(repo):
    """One breach an include from a harness room to a higher room or the top floor, a folder of the harness not
    in HARNESS_ROOMS, and a unit on the top floor not in HARNESS_TOP_FLOOR_UNITS."""
    if not os.path.isdir(os.path.join(repo, HARNESS)):
        return []
    breaches = []
    for relpath, lines in source_files(repo, HARNESS):
        relpath = relpath.replace(os.sep, "/")
        room, level = harness_room_level(relpath)
        if level is None:
            breaches.append("%s is in %s/%s/, a folder not in the room order %s" % (
                relpath, HARNESS, room, " < ".join(HARNESS_ROOMS)))
            continue
        for number, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target, target_level = harness_room_level(m.group(1))
            if target_level is None or target_level > level:
                breaches.append("%s:%d includes %s, above its room (rooms, lowest first: %s < top floor)" % (
                    relpath, number, m.group(1), " < ".join(HARNESS_ROOMS)))
    loose = sorted(units_by_folder(os.path.join(repo, HARNESS)).get(".", set()) - set(HARNESS_TOP_FLOOR_UNITS))
    breaches += ["%s/%s is a loose unit on the harness's top floor (move it into a room: %s)" % (
        HARNESS, stem, ", ".join(HARNESS_ROOMS)) for stem in loose]
    return breaches


def definition_lines(lines, start):
    """Lines of the definition that starts at lines[start], to the brace that closes it (None: no body)."""
    depth = 0
    opened = False
    for i in range(start, len(lines)):
        depth += lines[i].count("{") - lines[i].count("}")
        opened = opened or "{" in lines[i]
        if opened and depth == 0:
            return i - start + 1
        if not opened and lines[i].rstrip().endswith(";"):
            return None  # a declaration
    return None


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def function_lines(repo, relpath, name):
    """Lines of the free function `name`'s definition in relpath (None: not found)."""
    lines = read_lines(os.path.join(repo, relpath))
    pattern = re.compile(r"^\S.*\b%s\(" % re.escape(name))
    for start, line in enumerate(lines):
        if pattern.match(line):
            length = definition_lines(lines, start)
            if length is not None:
                return length
    return None


RUN_DEFINITION = re.compile(r"^\s*(?:[\w:<>&*]+\s+)+run\([^;]*$")


def long_family_runs(repo, max_lines):
    """One breach a definition of run() in test_conformance/ (tests aside) of max_lines or more lines."""
    breaches = []
    for relpath, lines in source_files(repo, "test_conformance", tests=False):
        for start, line in enumerate(lines):
            length = definition_lines(lines, start) if RUN_DEFINITION.match(line) else None
            if length is not None and length >= max_lines:
                breaches.append("%s:%d: run() is %d lines (limit: under %d; move setup, binding and checks into "
                                "a launch fixture)" % (relpath, start + 1, length, max_lines))
    return breaches


# A RunState& or RunState* parameter: after "(" or ",", or opening a continuation line and ending at "," or ")"
# (a local alias, `RunState& s = *state;`, is not one).
RUN_STATE_PARAMETER = re.compile(r"[(,]\s*(?:const\s+)?RunState\s*[&*]|^\s*(?:const\s+)?RunState\s*[&*]\s*\w*\s*[,)]")


def run_state_parameters(repo):
    """One breach a line of test_common/harness declaring a RunState& or RunState* parameter."""
    return ["%s:%d takes the RunState (take what the stage reads, return what it fills)" % (relpath, number)
            for relpath, lines in source_files(repo, "test_common/harness")
            for number, line in enumerate(lines, 1) if RUN_STATE_PARAMETER.search(line)]


def main():
    parser = argparse.ArgumentParser(description="Checks the include layering (the harness's room order too), "
                                                 "the length of runnerMain, "
                                                 "parseOptions and the families' run(), that no stage takes the "
                                                 "RunState, the SPIR-V code's case labels and the size of source "
                                                 "folders.")
    parser.add_argument("--repo", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    parser.add_argument("--max-lines", type=int, default=60)
    parser.add_argument("--max-parse-lines", type=int, default=60)
    parser.add_argument("--max-run-lines", type=int, default=80)
    parser.add_argument("--max-units", type=int, default=25)
    add_import_arguments(parser)
    args = parser.parse_args()
    prog = os.path.basename(sys.argv[0])
    measured = [("runnerMain", "test_common/harness/runner.cpp", "runnerMain", args.max_lines),
                ("parseOptions", "test_common/harness/stages/options.cpp", "parseOptions", args.max_parse_lines)]
    try:
        breaches = cl_includes_of_harness(args.repo) + numeric_case_labels(args.repo)
        lengths = [(label, relpath, function_lines(args.repo, relpath, name), limit)
                   for label, relpath, name, limit in measured]
        breaches += run_state_parameters(args.repo) + long_family_runs(args.repo, args.max_run_lines)
        breaches += harness_room_breaches(args.repo)
        oversized = oversized_folders(args.repo, args.max_units)
    except (OSError, UnicodeDecodeError) as e:
        print(report_io.printable("%s: cannot read the tree %s: %s" % (prog, args.repo, e)), file=sys.stderr)
        return 2
    for label, relpath, length, limit in lengths:
        if length is None:
            print("%s: no definition of %s in %s" % (prog, label, relpath), file=sys.stderr)
            return 2
        if length >= limit:
            breaches.append("%s is %d lines (limit: under %d)" % (label, length, limit))
    breaches += oversized
    circles = python_import_circles(args, prog)
    if circles is None:
        return 2
    breaches += circles
    for b in breaches:
        print(report_io.printable(b))
    if not breaches:
        print("layering ok: test_common/cl includes nothing from test_common/harness; runnerMain is %d lines; "
              "parseOptions is %d lines; no stage takes the RunState; every family run() is under %d lines; "
              "no numeric case label or opcode number in %s; no source folder over %d units; every include of "
              "%s goes to its room or a lower one (%s < top floor), whose only units are %s"
              % (lengths[0][2], lengths[1][2], args.max_run_lines, ", ".join(SPIRV_DIRS), args.max_units,
                 HARNESS, " < ".join(HARNESS_ROOMS), ", ".join(HARNESS_TOP_FLOOR_UNITS)))
    return 1 if breaches else 0


def add_import_arguments(parser):
    parser.add_argument("--import-root", action="append", metavar="DIR",
                        help="a folder, relative to --repo, imports resolve under (repeatable; default: scripts)")


def python_import_circles(args, prog):
    """The circle breaches (printing the all-clear line when there is none), or None when a file cannot be read."""
    try:
        count, circles = import_circles(args.repo, args.import_root or ["scripts"])
    except (OSError, UnicodeDecodeError, UnparsableFile) as e:
        print(report_io.printable("%s: cannot read the Python files of %s: %s" % (prog, args.repo, e)),
              file=sys.stderr)
        return None
    if not circles:
        print("imports ok: no circle among the %d Python files" % count)
    return circles


if __name__ == "__main__":
    sys.exit(main())
