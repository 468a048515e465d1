#!/usr/bin/env python3
"""Rebuilds the reference device's test fixtures that clang-15 + llvm-spirv-15 made, from the OpenCL C source
kept in each fixture's header.

A fixture is a .spvasm under reference_device/spirv/tests/ or reference_device/tests/fixtures/ whose header has
the MADE_BY line. Its layout:

    ; target-env: spv1.1            (kept)
    ; what the fixture is for       (kept: every other comment line before the source)
    ; Made by ...                   (written by this script)
    ; Commands: ...                 (written by this script: the commands)
    ; Tools: ...                    (written by this script: the versions that made the text)
    ;   <OpenCL C source line>      (kept: four characters of prefix, then the line)
    ; SPIR-V ...                    (spirv-dis's output, written by this script)

Without --check every fixture is rewritten; with --check nothing is written and the exit code is 1 when a
fixture differs from what the tools make now (each one named, with a diff). A Tools line naming other versions
than the ones running is not a difference by itself: the text decides. Exit 77 when a tool is missing.
"""

import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
FIXTURE_DIRS = ("reference_device/spirv/tests", "reference_device/tests/fixtures")
CLANG_FLAGS = ["-cc1", "-triple", "spir64-unknown-unknown", "-finclude-default-header", "-cl-std=CL2.0", "-O2",
               "-emit-llvm-bc"]
LLVM_SPIRV_FLAGS = []  # its defaults keep the 2D block IO, matrix mad and extended read built-ins as imports
MADE_BY = "; Made by reference_device/spirv/tools/regen_clang_fixtures.py from the source below:"
COMMANDS = "; Commands: "
TOOLS = "; Tools: "
SOURCE = ";   "
SKIP = 77


class FixtureError(Exception):
    pass


def version_of(tool, marker):
    """The first line of `tool --version` output holding marker, without the vendor prefix."""
    p = subprocess.run([tool, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    for line in p.stdout.splitlines():
        if marker in line:
            return line[line.index(marker):].strip()
    raise FixtureError("%s --version printed no '%s' line:\n%s" % (tool, marker, p.stdout))


def parse(path):
    """(kept comment lines, source text) of a fixture, or None when it is not one this script makes."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if MADE_BY not in lines:
        return None
    try:
        end = lines.index("; SPIR-V")
    except ValueError:
        raise FixtureError("%s: no '; SPIR-V' line ends the header" % path)
    kept, source = [], []
    for line in lines[:end]:
        if line.startswith(SOURCE):
            source.append(line[len(SOURCE):])
        elif line == ";":  # an empty source line
            source.append("")
        elif line != MADE_BY and not line.startswith((COMMANDS, TOOLS)):
            if source:
                raise FixtureError("%s: comment line after the source: %s" % (path, line))
            kept.append(line)
    if not source:
        raise FixtureError("%s: no source lines (each starts with '%s')" % (path, SOURCE))
    return kept, "\n".join(source) + "\n"


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if p.returncode != 0:
        raise FixtureError("%s failed (exit %d):\n%s" % (" ".join(cmd), p.returncode, p.stdout.strip()))


def make(path, kept, source, tools, versions):
    """The fixture's full text as the tools make it now."""
    with tempfile.TemporaryDirectory() as tmp:
        cl, bc, spv, dis = (os.path.join(tmp, "k" + ext) for ext in (".cl", ".bc", ".spv", ".spvasm"))
        with open(cl, "w", encoding="utf-8") as f:
            f.write(source)
        run([tools["clang"]] + CLANG_FLAGS + [cl, "-o", bc])
        run([tools["llvm_spirv"]] + LLVM_SPIRV_FLAGS + [bc, "-o", spv])
        run([tools["spirv_dis"], "--no-color", spv, "-o", dis])
        with open(dis, encoding="utf-8") as f:
            text = f.read()
    header = kept + [MADE_BY, COMMANDS + "clang-15 %s | llvm-spirv-15%s | spirv-dis --no-color" % (
        " ".join(CLANG_FLAGS), "".join(" " + f for f in LLVM_SPIRV_FLAGS)), TOOLS + versions]
    src = [SOURCE + line if line else ";" for line in source.rstrip("\n").split("\n")]
    return "\n".join(header + src) + "\n" + text


def without_tools_line(text):
    return "\n".join(l for l in text.split("\n") if not l.startswith(TOOLS))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 when a fixture differs")
    ap.add_argument("--clang", default=shutil.which("clang-15"))
    ap.add_argument("--llvm-spirv", default=shutil.which("llvm-spirv-15"))
    ap.add_argument("--spirv-dis", default=shutil.which("spirv-dis"))
    ap.add_argument("--root", default=ROOT, help="the source tree (default: this script's)")
    args = ap.parse_args(argv)
    tools = {"clang": args.clang, "llvm_spirv": args.llvm_spirv, "spirv_dis": args.spirv_dis}
    missing = [name for name, tool in tools.items() if not tool or not shutil.which(tool)]
    if missing:
        print("regen_clang_fixtures: skipped, missing %s (apt-get install clang-15 llvm-spirv-15; "
              "scripts/setup/install_spirv_tools.sh)" % ", ".join(missing))
        return SKIP
    try:
        versions = "clang %s, llvm-spirv %s, spirv-dis %s" % (
            version_of(tools["clang"], "version ").split("version ", 1)[1],
            version_of(tools["llvm_spirv"], "LLVM version ").split("version ", 1)[1],
            version_of(tools["spirv_dis"], "SPIRV-Tools ").split()[1])
        fixtures = []
        for d in FIXTURE_DIRS:
            folder = os.path.join(args.root, d)
            for fn in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
                path = os.path.join(folder, fn)
                if fn.endswith(".spvasm"):
                    parsed = parse(path)
                    if parsed:
                        fixtures.append((path, parsed))
        if not fixtures:
            raise FixtureError("no fixture with the line '%s' under %s" % (MADE_BY, ", ".join(FIXTURE_DIRS)))
        differing = []
        for path, (kept, source) in fixtures:
            new = make(path, kept, source, tools, versions)
            with open(path, encoding="utf-8") as f:
                old = f.read()
            rel = os.path.relpath(path, args.root)
            if args.check:
                if without_tools_line(old) != without_tools_line(new):
                    differing.append(rel)
                    sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                               rel, rel + " (regenerated)", n=2))
                elif old != new:
                    print("%s: same text, made by other tool versions than these (%s)" % (rel, versions))
            elif old != new:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(new)
                print("rewrote %s" % rel)
    except FixtureError as e:
        print("regen_clang_fixtures: %s" % e, file=sys.stderr)
        return 2
    if differing:
        print("regen_clang_fixtures: differ from what the tools make (run %s to rewrite them): %s" %
              (os.path.relpath(os.path.abspath(__file__), args.root), ", ".join(differing)))
        return 1
    if args.check:
        print("regen_clang_fixtures: %d fixtures as the tools make them" % len(fixtures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
