#!/usr/bin/env python3
"""CTest compiled.group: the compiled.* group exists when the build found its compilers.

Usage: group_check.py ASSETS_DIR TOOLS_FOUND (ON/OFF, from CMake). TOOLS_FOUND OFF: exit 77 (skipped; the
group is absent by design). Otherwise fails (exit 1, one line per problem) unless the manifest holds compiled.o0.*
and compiled.o2.* cases, their modules together contain OpSubgroupShuffleINTEL, OpSubgroupBlockReadINTEL and
OpSubgroupImageMediaBlockReadINTEL, and no module calls a function declared without a body (a built-in the
compiler left as a call) other than an import of a cl_intel_subgroup_2d_block_io or
cl_intel_subgroup_matrix_multiply_accumulate built-in, which llvm-spirv-15 cannot translate (those must be
there: REQUIRED_IMPORTS). Bad arguments: one line, exit 2.
"""

import json
import os
import re
import sys

REQUIRED_OPCODES = ("OpSubgroupShuffleINTEL", "OpSubgroupBlockReadINTEL", "OpSubgroupImageMediaBlockReadINTEL")
# Imported built-ins the 2D block IO and matrix-mad kernels must call (by source name).
REQUIRED_IMPORTS = ("intel_sub_group_2d_block_read_16b_8r16x1c", "intel_sub_group_2d_block_read_transform_16b_16r16x1c",
                    "intel_sub_group_2d_block_read_transpose_32b_16r8x1c", "intel_sub_group_2d_block_write_32b_8r16x1c",
                    "intel_sub_group_2d_block_prefetch_16b_8r16x1c", "intel_sub_group_f16_f16_matrix_mad_k16",
                    "intel_sub_group_bf16_bf16_matrix_mad_k16")


def builtin_imports(text):
    """{result id: source name} of the functions imported as 2D block IO or matrix-mad built-ins."""
    out = {}
    for fid, link in re.findall(r'OpDecorate\s+(%\S+)\s+LinkageAttributes\s+"([^"]+)"\s+Import', text):
        m = re.match(r"_Z(\d+)", link)
        if not m:
            continue
        name = link[m.end():m.end() + int(m.group(1))]
        if name.startswith("intel_sub_group_2d_block_") or \
                (name.startswith("intel_sub_group_") and "_matrix_mad_k" in name):
            out[fid] = name
    return out


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
    seen, imported = set(), set()
    for module in sorted({c["module"] for c in compiled}):
        path = os.path.join(assets, "modules", module[:-len(".spv")] + ".spvasm")
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            problems.append("%s: %s" % (module, e))
            continue
        seen.update(op for op in REQUIRED_OPCODES if re.search(r"\b%s\b" % op, text))
        allowed = builtin_imports(text)
        imported.update(allowed.values())
        for callee in declared_only_calls(text):
            if callee in allowed:
                continue
            problems.append("%s: OpFunctionCall of %s, declared without a body (an untranslated built-in)" %
                            (module, callee))
    problems += ["no compiled module contains %s" % op for op in REQUIRED_OPCODES if op not in seen]
    problems += ["no compiled module calls the imported built-in %s" % n for n in REQUIRED_IMPORTS if n not in imported]
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
        print("compiled.group: compiled.o0.* and compiled.o2.* present; %s found; the 2D block IO and matrix-mad built-ins imported;"
              " no other untranslated built-in" % ", ".join(REQUIRED_OPCODES))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
