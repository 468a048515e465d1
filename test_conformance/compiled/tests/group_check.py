#!/usr/bin/env python3
"""CTest compiled.group: the compiled.* group exists when the build found its compilers.

Usage: group_check.py ASSETS_DIR TOOLS_FOUND (ON/OFF, from CMake). TOOLS_FOUND OFF: exit 77 (skipped; the
group is absent by design). Otherwise fails (exit 1, one line per problem) unless the manifest holds compiled.o0.*
and compiled.o2.* cases, their modules together contain OpSubgroupShuffleINTEL, OpSubgroupBlockReadINTEL and
OpSubgroupImageMediaBlockReadINTEL, and no module calls a function declared without a body (a built-in the
compiler left as a call) other than an import of a built-in of the extensions: cl_intel_subgroup_2d_block_io or
cl_intel_subgroup_matrix_multiply_accumulate (which llvm-spirv-15 cannot translate; REQUIRED_IMPORTS must be
there), and the sub-group, local block IO and media block IO built-ins, which the compiled.<level>.imported.*
cases call as imports (each of REQUIRED_IMPORT_FAMILIES somewhere; every module under compiled/<level>/imported/
imports one and holds none of the extensions' instructions). Bad arguments: one line, exit 2.
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
# Families of the sub-group, local block IO and media block IO built-ins (import_family) the imported cases must
# call as imports.
REQUIRED_IMPORT_FAMILIES = ("shuffle", "shuffle_down", "shuffle_up", "shuffle_xor", "block_read", "block_write",
                            "local_block_read", "local_block_write", "image_block_read", "image_block_write",
                            "media_block_read", "media_block_write")
SUBGROUP_BUILTIN = re.compile(r"intel_sub_group_(shuffle(_down|_up|_xor)?|block_(read|write)(_uc|_us|_ui|_ul)?"
                              r"(2|4|8|16)?|media_block_(read|write)_(uc|us|ui)(2|4|8|16)?)$")
EXTENSION_OPCODE = re.compile(r"\bOpSubgroup\w*INTEL\b")


def import_family(name, params):
    """The family of a sub-group / local / media built-in import from its source name and its mangled
    parameters (the block IO names serve global, local and image memory), or None for any other name."""
    if not SUBGROUP_BUILTIN.match(name):
        return None
    if name.startswith("intel_sub_group_shuffle"):
        return name[len("intel_sub_group_"):]
    if name.startswith("intel_sub_group_media_block_"):
        return "media_block_" + ("read" if "_read" in name else "write")
    op = "block_read" if name.startswith("intel_sub_group_block_read") else "block_write"
    if params.startswith("14ocl_image2d"):
        return "image_" + op
    if re.match(r"PU3AS3", params):
        return "local_" + op
    return op if re.match(r"PU3AS1", params) else None


def builtin_imports(text):
    """{result id: source name, or the family for a sub-group / local / media built-in} of the functions imported
    as built-ins of the extensions."""
    out = {}
    for fid, link in re.findall(r'OpDecorate\s+(%\S+)\s+LinkageAttributes\s+"([^"]+)"\s+Import', text):
        m = re.match(r"_Z(\d+)", link)
        if not m:
            continue
        name = link[m.end():m.end() + int(m.group(1))]
        family = import_family(name, link[m.end() + int(m.group(1)):])
        if family:
            out[fid] = family
        elif name.startswith("intel_sub_group_2d_block_") or \
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
        if "/imported/" in module:
            if not any(v in REQUIRED_IMPORT_FAMILIES for v in allowed.values()):
                problems.append("%s: an imported case's module imports no sub-group, local or media built-in" % module)
            ops = sorted(set(EXTENSION_OPCODE.findall(text)))
            if ops:
                problems.append("%s: an imported case's module holds %s (translated, not imported)" %
                                (module, ", ".join(ops)))
        for callee in declared_only_calls(text):
            if callee in allowed:
                continue
            problems.append("%s: OpFunctionCall of %s, declared without a body (an untranslated built-in)" %
                            (module, callee))
    problems += ["no compiled module contains %s" % op for op in REQUIRED_OPCODES if op not in seen]
    problems += ["no compiled module calls the imported built-in %s" % n for n in REQUIRED_IMPORTS if n not in imported]
    problems += ["no compiled module imports a %s built-in" % f for f in REQUIRED_IMPORT_FAMILIES if f not in imported]
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
        print("compiled.group: compiled.o0.* and compiled.o2.* present; %s found; the 2D block IO and matrix-mad built-ins"
              " imported, and the %s built-ins; no other untranslated built-in" %
              (", ".join(REQUIRED_OPCODES), ", ".join(REQUIRED_IMPORT_FAMILIES)))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
