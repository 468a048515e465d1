#!/usr/bin/env python3
"""CTest compiled.group: the compiled.* group exists when the build found its compilers.

Usage: group_check.py ASSETS_DIR TOOLS_FOUND (ON/OFF, from CMake). TOOLS_FOUND OFF: exit 77 (skipped; the
group is absent by design). Otherwise fails (exit 1, one line per problem) unless the manifest holds compiled.o0.*
and compiled.o2.* cases, their modules together contain OpSubgroupShuffleINTEL, OpSubgroupBlockReadINTEL and
OpSubgroupImageMediaBlockReadINTEL, and no module calls a function declared without a body (a built-in the
compiler left as a call). Bad arguments: one line, exit 2.
"""

import json
import os
import re
import sys

REQUIRED_OPCODES = ("OpSubgroupShuffleINTEL", "OpSubgroupBlockReadINTEL", "OpSubgroupImageMediaBlockReadINTEL")


def declared_only_calls(text):
    """Names of the functions a module calls that have no body (no OpLabel between OpFunction and its end)."""
    bodiless, current, has_body = set(), None, False
    for line in text.splitlines():
        m = re.match(r"\s*(%\S+)\s*=\s*OpFunction\s", line)
        if m:
            current, has_body = m.group(1), False
        elif re.search(r"=\s*OpLabel\b", line):
            has_body = True
        elif re.match(r"\s*OpFunctionEnd\b", line):
            if current and not has_body:
                bodiless.add(current)
            current = None
    calls = set(re.findall(r"OpFunctionCall\s+\S+\s+(%\S+)", text))
    return sorted(calls & bodiless)


def check(assets, found):
    problems = []
    if found not in ("ON", "OFF"):
        return None, ["TOOLS_FOUND must be ON or OFF, not %r" % found]
    if found == "OFF":
        return 77, []
    try:
        with open(os.path.join(assets, "manifest.json"), encoding="utf-8") as f:
            cases = json.load(f)["cases"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        return None, ["%s/manifest.json: %s" % (assets, e)]
    compiled = [c for c in cases if c["name"].startswith("compiled.")]
    for level in ("o0", "o2"):
        if not any(c["name"].startswith("compiled.%s." % level) for c in compiled):
            problems.append("no compiled.%s.* case in the manifest" % level)
    seen = set()
    for module in sorted({c["module"] for c in compiled}):
        path = os.path.join(assets, "modules", module[:-len(".spv")] + ".spvasm")
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            problems.append("%s: %s" % (module, e))
            continue
        seen.update(op for op in REQUIRED_OPCODES if re.search(r"\b%s\b" % op, text))
        for callee in declared_only_calls(text):
            problems.append("%s: OpFunctionCall of %s, declared without a body (an untranslated built-in)" %
                            (module, callee))
    problems += ["no compiled module contains %s" % op for op in REQUIRED_OPCODES if op not in seen]
    return (1 if problems else 0), problems


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: group_check.py ASSETS_DIR TOOLS_FOUND(ON|OFF)\n")
        return 2
    status, problems = check(argv[1], argv[2])
    for p in problems:
        sys.stderr.write("compiled.group: %s\n" % p)
    if status is None:
        return 2
    if status == 77:
        print("compiled.group: clang-15 / llvm-spirv-15 not found at configure time: the group is absent")
    elif status == 0:
        print("compiled.group: compiled.o0.* and compiled.o2.* present; %s found; no untranslated built-in"
              % ", ".join(REQUIRED_OPCODES))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
