#!/usr/bin/env python3
"""Generates opcode_table.cpp from spirv.core.grammar.json. The build runs it (reference_device/spirv/
CMakeLists.txt) on the configured SPIRV-Headers' grammar (SPIRV_CORE_GRAMMAR) into the build directory.
Usage: gen_opcode_table.py <spirv.core.grammar.json> <output.cpp>   (Python standard library only)
Each opcode gets its name (the grammar's primary name; an opcode listed twice keeps its first entry) and
a compact operand-shape string read by the loader:
  t result type   r result id   i id   j optional id   I ids to the end   l literal word   o optional word
  s literal string   S optional string   L literal words to the end   P (literal,id) pairs   Q (id,id) pairs
  R (id,literal) pairs   x ext-inst number followed by ids   M memory access (optional, may carry literals)
  E enum that may carry literal parameters (rest literal)   G image operands (optional mask, then ids)"""
import json, sys
if len(sys.argv) != 3:
    sys.exit('usage: gen_opcode_table.py <spirv.core.grammar.json> <output.cpp>')
with open(sys.argv[1], encoding='utf-8') as f:
    grammar = json.load(f)
def code(o):
    k, q = o['kind'], o.get('quantifier', '')
    if k == 'IdResultType': return 't'
    if k == 'IdResult': return 'r'
    if k in ('IdRef', 'IdScope', 'IdMemorySemantics'):
        return {'': 'i', '?': 'j', '*': 'I'}[q]
    if k == 'LiteralString': return 's' if q == '' else 'S'
    if k == 'PairLiteralIntegerIdRef': return 'P'
    if k == 'PairIdRefIdRef': return 'Q'
    if k == 'PairIdRefLiteralInteger': return 'R'
    if k == 'LiteralExtInstInteger': return 'x'
    if k in ('LiteralContextDependentNumber', 'LiteralSpecConstantOpInteger'): return 'L'
    if k == 'MemoryAccess': return 'M'
    if k == 'ImageOperands': return 'G'
    if k in ('Decoration', 'ExecutionMode', 'LoopControl'): return 'E'
    if q == '*': return 'L'
    return 'o' if q == '?' else 'l'
rows = []
seen = set()
for ins in grammar['instructions']:
    if ins['opcode'] in seen: continue
    seen.add(ins['opcode'])
    shape = ''.join(code(o) for o in ins.get('operands', []))
    if 'x' in shape: shape = shape[:shape.index('x') + 1]  # OpExtInst: the rest are ids, checked per set
    rows.append((ins['opcode'], ins['opname'], shape))
out = ['// Generated at build time by reference_device/spirv/tools/gen_opcode_table.py from',
       '// the SPIRV-Headers grammar %s: opcode names and operand shapes for the loader.' % sys.argv[1],
       '#include "reference_device/spirv/opcode_table.h"', '', 'namespace refdev::spirv {', '',
       'const OpcodeEntry kOpcodeTable[] = {']
for op, name, shape in sorted(rows):
    out.append('    {%d, "%s", "%s"},' % (op, name, shape))
out += ['};', '', 'const size_t kOpcodeTableSize = sizeof(kOpcodeTable) / sizeof(kOpcodeTable[0]);', '',
        '}  // namespace refdev::spirv', '']
with open(sys.argv[2], 'w', encoding='utf-8') as f:
    f.write('\n'.join(out))
