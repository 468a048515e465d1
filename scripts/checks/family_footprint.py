#!/usr/bin/env python3
"""How far each case family reaches outside its own folders: the files that name it, counted with git grep.

A family should live in its folders (one per layer: test_conformance/<group>/, reference_device/ext/<group>/,
scripts/assets/generators/<group>.py, spirv_new_assets/<group>/, test_common/*/<group>/ ...) and its descriptor
(test_conformance/<group>/family.json, scripts/assets/families.py). For each family with an extension of its own
(descriptors without "composes"), this counts the tracked files that name the group as a word
(`git grep -l -w -e GROUP`: `GROUP` counts, `SPV_INTEL_GROUP` and `rules_GROUP` do
not), leaving out:

  - its own folders and files:   any path with a folder named GROUP (`*/GROUP/*`), any file whose name starts
                                 with GROUP (`<layer>/GROUP*`, e.g. scripts/assets/generators/GROUP.py)
  - its docs page:               the descriptor's "docs" (docs/GROUP.md)
  - tests and benchmarks:        `*/tests/*`, `*_test.cpp`, `test_*.py`, `*/bench/*` (scripts/bench/ too)
  - the families that compose:   the folders and files of every family whose descriptor has "composes"
                                 (workloads), which name the families they combine by design
  - prose and data:              `*.md`, `*.json` and everything under docs/ (pages, waivers, target
                                 descriptions and reproducers name cases and extensions; no code reads a
                                 family from them)

What is left is the central code, build files and scripts that must change when a family is added. Exit
status 1 when a family is named by more than --max files (default 4), 0 otherwise, 2 when the tree cannot be
read (not a git checkout, a malformed descriptor).

Usage: family_footprint.py [--repo DIR] [--max N] [--list]
"""

import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/: the import root
from assets import families  # noqa: E402
from reports import report_io  # noqa: E402  (printable paths)

EXCLUDED_EVERYWHERE = ["**/tests/**", "**/*_test.cpp", "**/test_*.py", "**/bench/**", "**/*.md", "**/*.json", "docs/**"]


def own_paths(group):
    return ["**/%s/**" % group, "%s/**" % group, "**/%s*" % group, "%s*" % group]


def pathspec(group, descriptor, composing):
    excluded = list(EXCLUDED_EVERYWHERE) + own_paths(group)
    if descriptor.get("docs"):
        excluded.append(descriptor["docs"])
    for other in composing:
        excluded += own_paths(other)
    return ["."] + [":(exclude,glob)" + p for p in excluded]


def footprint(repo):
    """{group: [files outside its folders that name it]} for each family that does not compose others."""
    descriptors = families.descriptors(repo)
    composing = [d["group"] for d in descriptors if d.get("composes")]
    result = {}
    for d in descriptors:
        if d.get("composes"):
            continue
        group = d["group"]
        proc = subprocess.run(["git", "-C", repo, "grep", "-l", "-w", "-e", group, "--"] +
                              pathspec(group, d, composing),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        if proc.returncode not in (0, 1):  # 1: no match
            raise families.FamilyError("git grep in %s: %s" % (repo, proc.stderr.strip().splitlines()[-1:]))
        result[group] = sorted(proc.stdout.split())
    return result


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", default=families.REPO, help="the checkout to count in (default: this one)")
    ap.add_argument("--max", type=int, default=4, help="most files outside its folders a family may name")
    ap.add_argument("--list", action="store_true", help="print the files of every family, not only of those over")
    args = ap.parse_args(argv)
    try:
        found = footprint(os.path.abspath(args.repo))
    except (families.FamilyError, OSError) as e:
        sys.stderr.write("family_footprint: %s\n" % report_io.printable(e))
        return 2
    if not found:
        sys.stderr.write("family_footprint: no family descriptor under %s\n" % report_io.printable(args.repo))
        return 2
    over = [g for g, files in found.items() if len(files) > args.max]
    for group, files in found.items():
        print("%-28s %3d file(s) outside its folders name it%s" % (group, len(files),
                                                                   "  (more than %d)" % args.max if group in over else ""))
        if args.list or group in over:
            for f in files:
                print("    " + report_io.printable(f))
    if over:
        print("family_footprint: %s named outside their folders by more than %d files" % (", ".join(over), args.max))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
