#!/usr/bin/env python3
"""Writes extension_grammar.cpp (the tables declared in extension_grammar.h) from SPIRV-Headers' core grammar
and the families' descriptors, at build time (Python standard library only).

For each SPIR-V extension a family checks (test_conformance/<group>/family.json, "spirv_extension"): every
capability the grammar says that extension declares, with the capability it implicitly declares, and every
instruction that needs one of those capabilities. The suite's rule checker reads these rows instead of a
hand-copied list.

Usage: gen_extension_grammar.py --grammar spirv.core.grammar.json --out extension_grammar.cpp family.json...
"""

import argparse
import json
import sys


def tables(grammar, extensions):
    kinds = {k["kind"]: k for k in grammar["operand_kinds"]}
    caps = []
    for e in kinds["Capability"]["enumerants"]:
        exts = [x for x in e.get("extensions", []) if x in extensions]
        if not exts:
            continue
        implied = e.get("capabilities", [])
        if len(exts) != 1 or len(implied) > 1:
            raise ValueError("capability %s: expected one extension of %s and at most one implied capability"
                             % (e["enumerant"], sorted(extensions)))
        caps.append((e["value"], e["enumerant"], exts[0], implied[0] if implied else None))
    by_name = {name: (value, ext) for value, name, ext, _ in caps}
    values = {e["enumerant"]: e["value"] for e in kinds["Capability"]["enumerants"]}
    rows = []
    for inst in grammar["instructions"]:
        needed = [c for c in inst.get("capabilities", []) if c in by_name]
        if not needed:
            continue
        if len(needed) != 1:
            raise ValueError("%s: expected one capability, has %s" % (inst["opname"], needed))
        rows.append((inst["opcode"], inst["opname"], by_name[needed[0]][0], needed[0], by_name[needed[0]][1]))
    missing = sorted(extensions - {ext for _, _, ext, _ in caps})
    if missing:
        raise ValueError("the grammar declares no capability of %s" % ", ".join(missing))
    cap_rows = [(value, name, ext, values[implied] if implied else 0) for value, name, ext, implied in caps]
    return sorted(rows), sorted(cap_rows)


def render(rows, cap_rows, source):
    out = ["// Generated at build time by test_common/spirv/gen_extension_grammar.py from %s." % source,
           "// Do not edit: change the grammar or the families' descriptors.",
           '#include "test_common/spirv/extension_grammar.h"', "", "namespace cts {", "",
           "const ExtensionInstruction kExtensionInstructions[] = {"]
    for opcode, name, cap, cap_name, ext in rows:
        out.append('    {%d, "%s", %d, "%s", "%s"},' % (opcode, name, cap, cap_name, ext))
    out += ["};", "const size_t kExtensionInstructionCount = %d;" % len(rows), "",
            "const ExtensionCapability kExtensionCapabilities[] = {"]
    for value, name, ext, implied in cap_rows:
        out.append('    {%d, "%s", "%s", %d},' % (value, name, ext, implied))
    out += ["};", "const size_t kExtensionCapabilityCount = %d;" % len(cap_rows), "", "}  // namespace cts", ""]
    return "\n".join(out)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--grammar", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("families", nargs="+", help="test_conformance/<group>/family.json files")
    args = ap.parse_args(argv)
    try:
        with open(args.grammar, encoding="utf-8") as f:
            grammar = json.load(f)
        extensions = set()
        for path in args.families:
            with open(path, encoding="utf-8") as f:
                ext = json.load(f).get("spirv_extension")
            if ext:
                extensions.add(ext)
        rows, cap_rows = tables(grammar, extensions)
    except (OSError, ValueError, KeyError) as e:
        sys.stderr.write("gen_extension_grammar.py: %s\n" % e)
        return 1
    text = render(rows, cap_rows, args.grammar)
    try:
        with open(args.out, encoding="utf-8") as f:
            if f.read() == text:
                return 0
    except OSError:
        pass
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
