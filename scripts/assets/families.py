#!/usr/bin/env python3
"""The suite's case families, found by their descriptors: test_conformance/<group>/family.json.

A family is one top-level case group with a folder per layer (test_conformance/<group>/, ...). Its descriptor
states what central code needs to know of it; the build (test_conformance/CMakeLists.txt, cmake/packaging.cmake)
and the scripts (spvgen.py, fault_campaign.py, ci_tests.sh, the runner's end-to-end checks) read it from here,
so adding a family adds folders and a descriptor, never a line in a central list. Fields:

  group             the top-level case group; must equal the folder name
  spirv_extension   the SPIR-V extension the family checks (absent for a family that only composes others)
  opencl_extension  the OpenCL extension that reports it
  opencl_extension_min_version
                    "MAJOR.MINOR": the oldest version of it the family's cases are written for
  capabilities      [[name, enumerant], ...]: the SPIR-V capabilities the extension declares; with the two
                    above, the api.* cases' table of gating extensions (CMake generates it)
  composes          the families whose instructions it combines (workloads)
  docs              the family's page, docs/<group>.md
  fault_campaigns   [{"title", "note" (optional), "args": [fault_campaign.py arguments]}]: the planted faults
                    its cases must catch; "{build}" in an argument stands for the build directory
  offline_support   [{"when": {param: value}, "extension", "reason", "source"}]: support checks of its C++
                    family beyond the requirement tokens, repeated by offline_cross_check.py (a case whose
                    params match "when" needs "extension"; "source" says where the C++ check is)

Usage: families.py            the groups, one a line, in name order
       families.py --top      the runner's top-level groups: api and the groups
A malformed descriptor is one line on stderr and exit status 2.
"""

import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONFORMANCE = "test_conformance"
# The top-level group of the C++-defined device and kernel queries (test_conformance/api/): no descriptor.
CORE_GROUP = "api"
FIELDS = {"group", "spirv_extension", "opencl_extension", "opencl_extension_min_version", "capabilities", "composes",
          "docs", "fault_campaigns", "offline_support"}


class FamilyError(Exception):
    pass


def _check(path, d, folder):
    where = os.path.relpath(path, REPO) if path.startswith(REPO) else path
    if not isinstance(d, dict):
        raise FamilyError("%s: must hold a JSON object" % where)
    unknown = sorted(set(d) - FIELDS)
    if unknown:
        raise FamilyError("%s: unknown field(s) %s" % (where, ", ".join(unknown)))
    if d.get("group") != folder:
        raise FamilyError("%s: \"group\" must be %r, the folder's name" % (where, folder))
    for campaign in d.get("fault_campaigns", []):
        if not isinstance(campaign, dict) or not isinstance(campaign.get("title"), str) or \
                not isinstance(campaign.get("args"), list) or \
                not all(isinstance(a, str) for a in campaign["args"]):
            raise FamilyError("%s: each fault_campaigns entry needs a \"title\" and \"args\" (strings)" % where)
    return d


def descriptors(repo=REPO):
    """Every family descriptor under repo, in group-name order."""
    base = os.path.join(repo, CONFORMANCE)
    if not os.path.isdir(base):
        raise FamilyError("no %s/ under %s: the family descriptors are in the source tree" % (CONFORMANCE, repo))
    found = []
    for folder in sorted(os.listdir(base)):
        path = os.path.join(base, folder, "family.json")
        if not os.path.isfile(path):
            continue
        try:
            with open(path, encoding="utf-8") as f:
                d = json.load(f)
        except (OSError, ValueError) as e:
            raise FamilyError("%s: %s" % (path, e))
        found.append(_check(path, d, folder))
    return found


def groups(repo=REPO):
    return [d["group"] for d in descriptors(repo)]


def top_levels(repo=REPO):
    return (CORE_GROUP,) + tuple(groups(repo))


def descriptor(group, repo=REPO):
    for d in descriptors(repo):
        if d["group"] == group:
            return d
    raise FamilyError("no family %r (test_conformance/%s/family.json); families: %s" %
                      (group, group, ", ".join(groups(repo))))


USAGE = ("usage: families.py [--top]\n"
         "Prints the case groups of the families (test_conformance/*/family.json), one a line; --top also the core "
         "group (api).\n")


def main(argv):
    if argv in (["-h"], ["--help"]):
        sys.stdout.write(USAGE)
        return 0
    if argv not in ([], ["--top"]):
        sys.stderr.write(USAGE.split("\n")[0] + "\n")
        return 2
    try:
        names = top_levels() if argv else groups()
    except FamilyError as e:
        sys.stderr.write("families.py: %s\n" % e)
        return 2
    for name in names:
        print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
